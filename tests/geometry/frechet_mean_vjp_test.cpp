// The derivative of the Fréchet mean (gyre/geometry/frechet_mean_vjp.hpp) on float batches with a
// point near the mean's cut locus: where GrNet with GyroBN in float stopped (a principal angle of
// 1.57077 from the batch mean; the float-assembled Jacobian had numerical rank 5 of 32), and SPD's
// affine-invariant derivative by conjugate gradients against the assembled Jacobian.
#include "gyre/geometry/frechet_mean_vjp.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <Eigen/SVD>
#include <doctest/doctest.h>

#include "grassmann/grassmann.hpp"
#include "gyre/core/checks.hpp"
#include "gyre/core/error.hpp"
#include "gyre/geometry/frechet_mean.hpp"
#include "spd/affine_invariant.hpp"
#include "spd/bures_wasserstein.hpp"
#include "support/test_support.hpp"

namespace {

/// exp_m of a tangent whose principal angles are `angles` (largest first), in random directions.
gyre::Matrix<double> at_angles(const gyre::Grassmann<double>& space, const gyre::Matrix<double>& m,
                               const std::vector<double>& angles, gyre::Rng& rng) {
  const gyre::Matrix<double> v = space.random_tangent(m, rng);
  const Eigen::JacobiSVD<gyre::Matrix<double>> svd(v, Eigen::ComputeThinU | Eigen::ComputeThinV);
  gyre::Vector<double> sigma(static_cast<Eigen::Index>(angles.size()));
  for (std::size_t k = 0; k < angles.size(); ++k) sigma(static_cast<Eigen::Index>(k)) = angles[k];
  return space.exp(m, svd.matrixU() * sigma.asDiagonal() * svd.matrixV().transpose());
}

}  // namespace

TEST_CASE("frechet_mean_vjp in float: a point 3e-5 from the mean's cut locus gives the double-precision gradient") {
  // The float batch is assembled in double (Grassmann::in_double): the result is the double
  // computation on the same float data, rounded to float — 1e-5 of the largest gradient (float's
  // rounding of the result, with a margin for the float-rounded inputs' 1e-7 moving a derivative
  // that scales like 1/cos θ ≈ 3e4 along the near-cut-locus direction only).
  const gyre::Grassmann<double> space(12, 4);
  const gyre::Grassmann<float> space_f(12, 4);
  for (const std::uint64_t seed : gyre::test::seeds(5)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    const gyre::Matrix<double> mean = space.random_point(rng);
    std::vector<gyre::Matrix<float>> points_f;
    for (int i = 0; i < 31; ++i) {
      points_f.push_back(at_angles(space, mean, {0.9, 0.5, 0.3, 0.1}, rng).cast<float>());
    }
    points_f.push_back(at_angles(space, mean, {M_PI / 2 - 3e-5, 0.4, 0.2, 0.1}, rng).cast<float>());
    const gyre::Matrix<float> mean_f = mean.cast<float>();
    const gyre::Matrix<float> g_f = space_f.random_tangent(mean_f, rng);
    std::vector<gyre::Matrix<float>> grads_f;
    REQUIRE_NOTHROW(grads_f = gyre::frechet_mean_vjp(space_f, mean_f, points_f, g_f));
    std::vector<gyre::Matrix<double>> points;
    for (const gyre::Matrix<float>& x : points_f) points.push_back(x.cast<double>());
    gyre::ChecksOff float_rounded_points;  // orthonormal to float's accuracy only
    const std::vector<gyre::Matrix<double>> grads = gyre::frechet_mean_vjp(
        space, gyre::Matrix<double>(mean_f.cast<double>()), points, gyre::Matrix<double>(g_f.cast<double>()));
    double largest = 0, gap = 0;
    for (std::size_t i = 0; i < grads.size(); ++i) {
      REQUIRE(grads_f[i].allFinite());
      largest = std::max(largest, grads[i].cwiseAbs().maxCoeff());
      gap = std::max(gap, (grads_f[i].cast<double>() - grads[i]).cwiseAbs().maxCoeff());
    }
    CHECK(gap <= 1e-5 * largest);
  }
}

namespace {

/// The space's own (matrix-free) mean derivative against the assembled Jacobian's, on spread batches.
template <class Space>
void check_against_assembled(int n, double tolerance) {
  const Space space(n);
  for (const std::uint64_t seed : gyre::test::seeds(8)) {
    CAPTURE(n);
    CAPTURE(seed);
    gyre::Rng rng(seed);
    std::vector<gyre::Matrix<double>> points;
    const int batch = 2 + static_cast<int>(seed % 19);
    for (int i = 0; i < batch; ++i) {
      const gyre::Matrix<double> a = gyre::spd::random_spd<double>(n, rng);
      points.push_back(gyre::linalg::symmetric_part<double>(a * gyre::spd::random_spd<double>(n, rng) * a));
    }
    const gyre::Matrix<double> mean = gyre::frechet_mean(space, points).point;
    const gyre::Matrix<double> g = gyre::Matrix<double>::Random(n, n);
    const std::vector<gyre::Matrix<double>> fast = gyre::frechet_mean_vjp(space, mean, points, g);
    const std::vector<gyre::Matrix<double>> assembled = gyre::frechet_mean_vjp_assembled(space, mean, points, g);
    REQUIRE(fast.size() == assembled.size());
    double largest = 0, gap = 0;
    for (std::size_t i = 0; i < fast.size(); ++i) {
      largest = std::max(largest, assembled[i].cwiseAbs().maxCoeff());
      gap = std::max(gap, (fast[i] - assembled[i]).cwiseAbs().maxCoeff());
    }
    CHECK(gap <= tolerance * largest);
  }
}

}  // namespace

TEST_CASE("frechet_mean_vjp on SPD: conjugate gradients equal the assembled Jacobian (AIM and Bures–Wasserstein)") {
  // Two solutions of the same linear system (CG to a residual of ε·‖rhs‖; a pivoted LU of the d×d
  // Jacobian) at the same mean: 1e-10 of the largest gradient leaves room for the system's condition
  // number (the batch's spread, eigenvalues in [e⁻³, e³]) times double's rounding. The mean itself is
  // converged to 8ε, and the implicit derivative assumes it exact: both solutions share that error.
  for (const int n : {2, 3, 5}) {
    check_against_assembled<gyre::SpdAffineInvariant<double>>(n, 1e-10);
    check_against_assembled<gyre::SpdBuresWasserstein<double>>(n, 1e-10);
  }
}

namespace {

/// No points, a non-SPD point, a NaN cotangent and a misshapen one, against a space's own derivative.
template <class Space>
void check_refusals() {
  const Space space(3);
  gyre::Rng rng(7);
  const gyre::Matrix<double> mean = gyre::spd::random_spd<double>(3, rng);
  const gyre::Matrix<double> g = gyre::Matrix<double>::Ones(3, 3);
  CHECK_THROWS_AS((void)gyre::frechet_mean_vjp(space, mean, {}, g), gyre::ShapeError);
  gyre::Matrix<double> indefinite = mean;
  indefinite(0, 0) = -1;
  CHECK_THROWS_AS((void)gyre::frechet_mean_vjp(space, mean, {mean, indefinite}, g), gyre::DomainError);
  gyre::Matrix<double> nan_g = g;
  nan_g(1, 2) = std::nan("");
  CHECK_THROWS_AS((void)gyre::frechet_mean_vjp(space, mean, {mean, mean}, nan_g), gyre::DomainError);
  CHECK_THROWS_AS((void)gyre::frechet_mean_vjp(space, mean, {mean, mean}, gyre::Matrix<double>::Ones(2, 2)),
                  gyre::ShapeError);
}

}  // namespace

TEST_CASE("frechet_mean_vjp on SPD (AIM and Bures–Wasserstein) refuses no points, a non-SPD point and bad cotangents") {
  check_refusals<gyre::SpdAffineInvariant<double>>();
  check_refusals<gyre::SpdBuresWasserstein<double>>();
}
