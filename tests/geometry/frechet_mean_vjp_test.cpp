// The derivative of the Fréchet mean (gyre/geometry/frechet_mean_vjp.hpp) on float batches with a
// point near the mean's cut locus: where GrNet with GyroBN in float stopped (a principal angle of
// 1.57077 from the batch mean; the float-assembled Jacobian had numerical rank 5 of 32).
#include "gyre/geometry/frechet_mean_vjp.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <Eigen/SVD>
#include <doctest/doctest.h>

#include "grassmann/grassmann.hpp"
#include "gyre/core/checks.hpp"
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
