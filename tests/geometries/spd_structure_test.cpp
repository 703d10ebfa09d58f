// SPD(n) beyond the laws: the LieBN group structures and the invariance of their metrics, the
// closed-form and fixed-point means against the generic Karcher iteration, the relations between
// metrics (GBW(I) = BW, θ-LEM = LEM, θ = 1 is the base), and bad input.
#include <cmath>
#include <limits>

#include <doctest/doctest.h>

#include "gyre/geometry/frechet_mean.hpp"
#include "spd/spd.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::Matrix;

double gap(const Matrix<double>& a, const Matrix<double>& b) { return (a - b).norm() / std::max(1.0, b.norm()); }

template <class Group, class Metric>
void check_group(const Group& group, const Metric& metric, int n) {
  for (const std::uint64_t seed : gyre::test::seeds(200)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    const Matrix<double> a = gyre::spd::random_spd<double>(n, rng);
    const Matrix<double> b = gyre::spd::random_spd<double>(n, rng);
    const Matrix<double> c = gyre::spd::random_spd<double>(n, rng);
    // Products of three factors with eigenvalues in [1/e, e]: 1e-13 relative is rounding.
    CHECK(gap(group.compose(group.compose(a, b), c), group.compose(a, group.compose(b, c))) <= 1e-13);
    CHECK(gap(group.compose(a, group.identity()), a) <= 1e-14);
    CHECK(gap(group.compose(group.identity(), a), a) <= 1e-14);
    CHECK(gap(group.compose(a, group.inverse(a)), group.identity()) <= 1e-13);
    CHECK(gap(group.compose(group.inverse(a), a), group.identity()) <= 1e-13);
    // Left invariance of the matched metric: d(G⊙P, G⊙Q) = d(P, Q).
    const double d = metric.dist(b, c);
    CHECK(std::abs(metric.dist(group.compose(a, b), group.compose(a, c)) - d) <= 1e-12 * (1 + d));
  }
}

template <class M>
std::vector<Matrix<double>> cluster(const M& metric, int n, gyre::Rng& rng) {
  const Matrix<double> centre = gyre::spd::random_spd<double>(n, rng);
  std::vector<Matrix<double>> points;
  for (int i = 0; i < 7; ++i) {
    Matrix<double> v = metric.random_tangent(centre, rng);
    points.push_back(metric.exp(centre, v * (0.4 / metric.norm(centre, v))));
  }
  return points;
}

}  // namespace

TEST_CASE("SPD groups: the axioms hold and the matched metric is left-invariant (200 seeds)") {
  for (const int n : {2, 4}) {
    CAPTURE(n);
    check_group(gyre::SpdLogEuclideanGroup<double>{n}, gyre::SpdLogEuclidean<double>(n), n);
    check_group(gyre::SpdLogCholeskyGroup<double>{n}, gyre::SpdLogCholesky<double>(n), n);
    check_group(gyre::SpdCholeskyGroup<double>{n}, gyre::SpdAffineInvariant<double>(n), n);
  }
}

TEST_CASE("SPD groups: LEM and LCM groups are abelian, the Cholesky group is not") {
  gyre::Rng rng(3);
  const Matrix<double> a = gyre::spd::random_spd<double>(3, rng);
  const Matrix<double> b = gyre::spd::random_spd<double>(3, rng);
  const gyre::SpdLogEuclideanGroup<double> lem{3};
  const gyre::SpdLogCholeskyGroup<double> lcm{3};
  const gyre::SpdCholeskyGroup<double> chol{3};
  // The arguments meet only in sums and products of entries, which IEEE arithmetic commutes:
  // bit-identical results.
  CHECK(gap(lem.compose(a, b), lem.compose(b, a)) == 0);
  CHECK(gap(lcm.compose(a, b), lcm.compose(b, a)) == 0);
  CHECK(gap(chol.compose(a, b), chol.compose(b, a)) > 1e-3);
}

TEST_CASE("SPD means: closed forms and the BW fixed point equal the generic Karcher iteration") {
  for (const std::uint64_t seed : gyre::test::seeds(20)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    const gyre::SpdLogEuclidean<double> lem(4);
    auto points = cluster(lem, 4, rng);
    // Both converge to ~ε; the mean of a 0.4-radius cluster is well conditioned: 1e-12.
    CHECK(gap(lem.mean(points), gyre::frechet_mean(lem, points).point) <= 1e-12);
    const gyre::SpdLogCholesky<double> lcm(4);
    points = cluster(lcm, 4, rng);
    CHECK(gap(lcm.mean(points), gyre::frechet_mean(lcm, points).point) <= 1e-12);
    const gyre::SpdBuresWasserstein<double> bw(4);
    points = cluster(bw, 4, rng);
    const std::vector<double> weights{1, 2, 3, 1, 1, 0.5, 4};
    CHECK(gap(bw.mean(points, weights), gyre::frechet_mean(bw, points, weights).point) <= 1e-11);
  }
}

TEST_CASE("SPD metric relations: GBW(I) = BW, GBW(M) distance formula, θ-LEM = LEM, θ = 1 is the base") {
  gyre::Rng rng(11);
  const int n = 4;
  const Matrix<double> m = gyre::spd::random_spd<double>(n, rng);
  const gyre::SpdBuresWasserstein<double> bw(n);
  const gyre::SpdGeneralizedBuresWasserstein<double> gbw_identity(Matrix<double>::Identity(n, n));
  const gyre::SpdGeneralizedBuresWasserstein<double> gbw(m);
  const gyre::SpdAffineInvariant<double> aim(n);
  const gyre::PowerDeformed<gyre::SpdAffineInvariant<double>> aim_1(aim, 1.0);
  const gyre::SpdLogEuclidean<double> lem(n);
  const gyre::PowerDeformed<gyre::SpdLogEuclidean<double>> lem_half(lem, 0.5);
  for (int i = 0; i < 50; ++i) {
    const Matrix<double> p = gyre::spd::random_spd<double>(n, rng);
    const Matrix<double> q = gyre::spd::random_spd<double>(n, rng);
    const Matrix<double> v = bw.random_tangent(p, rng) * 0.1;
    CHECK(std::abs(gbw_identity.dist(p, q) - bw.dist(p, q)) <= 1e-13);
    CHECK(gap(gbw_identity.exp(p, v), bw.exp(p, v)) <= 1e-13);
    // Han et al. (2021): d² = tr(M⁻¹P) + tr(M⁻¹Q) − 2 tr((P^½ M⁻¹ Q M⁻¹ P^½)^½).
    const Matrix<double> m_inv = m.inverse();
    const Matrix<double> root_p = gyre::linalg::spd_power<double>(p, 0.5);
    const Matrix<double> inner = gyre::linalg::symmetric_part<double>(root_p * m_inv * q * m_inv * root_p);
    const double d2 =
        (m_inv * p).trace() + (m_inv * q).trace() - 2 * gyre::linalg::spd_power<double>(inner, 0.5).trace();
    const double d = gbw.dist(p, q);
    CHECK(std::abs(d * d - d2) <= 1e-12 * (1 + d2));
    CHECK(std::abs(aim_1.dist(p, q) - aim.dist(p, q)) <= 1e-13);
    CHECK(gap(aim_1.log(p, q), aim.log(p, q)) <= 1e-12);
    CHECK(std::abs(lem_half.dist(p, q) - lem.dist(p, q)) <= 1e-12);
  }
}

TEST_CASE("SPD (α, β) metrics: inner and dist follow α·tr(AB) + β·tr(A)tr(B), exp and log do not change") {
  gyre::Rng rng(12);
  const gyre::SpdAffineInvariant<double> aim(3);
  const gyre::SpdAffineInvariant<double> aim_ab(3, {2.0, 0.5});
  const gyre::SpdLogEuclidean<double> lem(3);
  const gyre::SpdLogEuclidean<double> lem_ab(3, {2.0, 0.5});
  for (int i = 0; i < 50; ++i) {
    const Matrix<double> p = gyre::spd::random_spd<double>(3, rng);
    const Matrix<double> q = gyre::spd::random_spd<double>(3, rng);
    CHECK(gap(aim_ab.log(p, q), aim.log(p, q)) <= 1e-14);
    CHECK(gap(lem_ab.log(p, q), lem.log(p, q)) <= 1e-14);
    // dist² = α·Σ lᵢ² + β·(Σ lᵢ)² with lᵢ the logs of the whitened eigenvalues.
    const Matrix<double> root = gyre::linalg::spd_power<double>(p, -0.5);
    const Matrix<double> whitened_log =
        gyre::linalg::spd_log<double>(gyre::linalg::symmetric_part<double>(root * q * root));
    const double expected = 2.0 * whitened_log.squaredNorm() + 0.5 * whitened_log.trace() * whitened_log.trace();
    const double d = aim_ab.dist(p, q);
    CHECK(std::abs(d * d - expected) <= 1e-12 * expected);
    const Matrix<double> log_diff = gyre::linalg::spd_log<double>(q) - gyre::linalg::spd_log<double>(p);
    const double expected_lem = 2.0 * log_diff.squaredNorm() + 0.5 * log_diff.trace() * log_diff.trace();
    const double d_lem = lem_ab.dist(p, q);
    CHECK(std::abs(d_lem * d_lem - expected_lem) <= 1e-12 * expected_lem);
  }
}

TEST_CASE_TEMPLATE("SPD bad input: wrong shape, NaN, not symmetric, not positive definite", T, float, double) {
  const gyre::SpdAffineInvariant<T> aim(3);
  const Matrix<T> id = Matrix<T>::Identity(3, 3);
  Matrix<T> indefinite = id;
  indefinite(1, 1) = T(-0.5);
  CHECK_THROWS_WITH_AS((void)aim.log(id, indefinite),
                       "gyre::SpdAffineInvariant::log: point is not positive definite (smallest eigenvalue) (-0.5)",
                       gyre::DomainError);
  Matrix<T> skewed = id;
  skewed(0, 2) = T(0.5);
  CHECK_THROWS_WITH_AS((void)aim.exp(skewed, id), doctest::Contains("SpdAffineInvariant::exp: point is not symmetric"),
                       gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)aim.exp(id, skewed),
                       doctest::Contains("SpdAffineInvariant::exp: tangent vector is not symmetric"),
                       gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)aim.dist(id, Matrix<T>::Identity(4, 4)),
                       "gyre::SpdAffineInvariant::dist: SPD point must be 3×3 (4×4)", gyre::ShapeError);
  Matrix<T> nan_point = id;
  nan_point(2, 1) = std::numeric_limits<T>::quiet_NaN();
  CHECK_THROWS_WITH_AS((void)gyre::SpdLogCholesky<T>(3).dist(id, nan_point),
                       doctest::Contains("SpdLogCholesky::dist: SPD point has a non-finite entry at (2, 1)"),
                       gyre::DomainError);
  CHECK_THROWS_AS((void)gyre::SpdLogEuclidean<T>(3).log(id, indefinite), gyre::DomainError);
  CHECK_THROWS_AS((void)gyre::SpdBuresWasserstein<T>(3).transport(indefinite, id, id), gyre::DomainError);
  // exp leaving SPD where the metric is incomplete.
  CHECK_THROWS_WITH_AS((void)gyre::SpdBuresWasserstein<T>(3).exp(id, T(-2) * id),
                       doctest::Contains("the geodesic leaves SPD"), gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)gyre::SpdEuclidean<T>(3).exp(id, T(-2) * id),
                       doctest::Contains("P + V leaves SPD (smallest eigenvalue) (-1)"), gyre::DomainError);
  // Parameters.
  CHECK_THROWS_WITH_AS(gyre::SpdAffineInvariant<T>(3, {1.0, -0.5}), doctest::Contains("alpha + n·beta must be > 0"),
                       gyre::DomainError);
  CHECK_THROWS_AS(gyre::SpdLogEuclidean<T>(3, {0.0, 0.0}), gyre::DomainError);
  CHECK_THROWS_AS(gyre::SpdLogCholesky<T>(0), gyre::DomainError);
  CHECK_THROWS_AS((gyre::PowerDeformed<gyre::SpdAffineInvariant<T>>(aim, 0.0)), gyre::DomainError);
  CHECK_THROWS_AS((void)gyre::SpdGeneralizedBuresWasserstein<T>{indefinite}, gyre::DomainError);
}

TEST_CASE("SPD BW transport: near the boundary of SPD the estimate keeps the norm, past it ConvergenceError") {
  // I → diag(1, δ): the step doubling stalls above its 1e-12 tolerance for small δ (a last change of
  // 9e-11 at δ = 1e-8) while the estimate is still isometric to 1e-9; at δ = 1e-16 the last change is
  // 1.2e-6, above √tolerance, and at 1e-20 2e-3: ConvergenceError.
  const gyre::SpdBuresWasserstein<double> bw(2);
  const gyre::Matrix<double> x = gyre::Matrix<double>::Identity(2, 2);
  gyre::Matrix<double> w(2, 2);
  w << 0.3, -0.7, -0.7, 1.1;
  for (const double delta : {1e-8, 1e-10, 1e-12, 1e-14}) {
    CAPTURE(delta);
    gyre::Matrix<double> y = gyre::Matrix<double>::Identity(2, 2);
    y(1, 1) = delta;
    const gyre::Matrix<double> moved = bw.transport(x, y, w);
    CHECK(std::abs(bw.norm(y, moved) - bw.norm(x, w)) <= 1e-9 * bw.norm(x, w));
  }
  gyre::Matrix<double> far = gyre::Matrix<double>::Identity(2, 2);
  far(1, 1) = 1e-20;
  CHECK_THROWS_AS((void)bw.transport(x, far, w), gyre::ConvergenceError);
}
