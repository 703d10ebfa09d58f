// The Grassmannian in both representations: laws on seeded cases, the 40-digit references
// (projectors; geomstats' metric is twice Gyre's), agreement of the two representations, the
// principal angles near 0 and π/2, the cut locus, and bad input.
#include <cmath>
#include <cstddef>
#include <limits>

#include <doctest/doctest.h>

#include "grassmann/grassmann_projector.hpp"
#include "gyre/check/manifold_laws.hpp"
#include "gyre/geometry/frechet_mean.hpp"
#include "support/test_support.hpp"

namespace {

namespace law = gyre::check::law;
using gyre::Matrix;
using gyre::test::relative_gap;
using gyre::test::to_matrix;
using gyre::test::tol;

template <class T, class M>
void check_grassmann_laws(const M& space) {
  gyre::check::ManifoldLawOptions options;
  // Random pairs may sit near the cut locus (an angle near π/2), where log is ill-conditioned;
  // exp∘log is then compared as subspaces, whose error is what a user sees.
  const auto report = gyre::check::manifold_laws(space, gyre::test::seeds(200), options);
  for (const auto& failure : report.failures) FAIL(failure);
  gyre::test::check_law(report, law::kExpLog, tol<T>(1e-10, 2e-3f));
  gyre::test::check_law(report, law::kLogExp, tol<T>(1e-12, 1e-4f));
  gyre::test::check_law(report, law::kDistIsNormLog, tol<T>(1e-12, 1e-4f));
  gyre::test::check_law(report, law::kDistSymmetric, tol<T>(1e-12, 1e-4f));
  gyre::test::check_law(report, law::kTransportTangent, tol<T>(1e-13, 1e-5f));
  gyre::test::check_law(report, law::kTransportIsometry, tol<T>(1e-12, 1e-4f));
  gyre::test::check_law(report, law::kTransportVelocity, tol<T>(1e-12, 1e-4f));
  gyre::test::check_law(report, law::kProjectIdempotent, tol<T>(1e-14, 2e-6f));
}

}  // namespace

TEST_CASE_TEMPLATE("Grassmann: the manifold laws hold in both representations", T, float, double) {
  for (const auto& [n, p] : {std::pair{3, 1}, std::pair{5, 2}, std::pair{8, 3}}) {
    CAPTURE(n);
    CAPTURE(p);
    check_grassmann_laws<T>(gyre::Grassmann<T>(n, p));
    check_grassmann_laws<T>(gyre::GrassmannProjector<T>(n, p));
  }
}

TEST_CASE("Grassmann Gr(5, 2): matches the 40-digit references (projectors, geomstats' metric = 2× Gyre's)") {
  const auto& data = gyre::test::reference("geomstats.json").at("cases").at("grassmannian_5_2");
  const gyre::GrassmannProjector<double> gr(5, 2);
  std::size_t compared = 0;
  for (const auto& sample : data.at("samples")) {
    const std::string kind = sample["kind"];
    CAPTURE(kind);
    const auto x = to_matrix<double>(sample["base_point"]);
    const auto y = to_matrix<double>(sample["point"]);
    const auto v = to_matrix<double>(sample["tangent_vec"]);
    const auto w = to_matrix<double>(sample["tangent_vec_b"]);
    const auto& hp = sample["hp"];
    // y 1e-8 from x (given to 16 digits): log only to ~1e-8 relative, absolute 1e-15.
    const bool tiny = kind == "small_tangent_1e-8";
    const auto close = [&](const Matrix<double>& got, const Matrix<double>& expected) {
      return (got - expected).norm() <= 1e-13 * std::max(1.0, expected.norm());
    };
    CHECK(close(gr.exp(x, v), to_matrix<double>(hp["exp"])));
    const Matrix<double> expected_log = to_matrix<double>(hp["log"]);
    CHECK((gr.log(x, y) - expected_log).norm() <= (tiny ? 1e-15 : 1e-13 * std::max(1.0, expected_log.norm())));
    const double d = gr.dist(x, y);
    const double d2 = hp["squared_dist"].get<double>() / 2;  // geomstats: d² = 2Σθ²
    // At d ≈ 1e-8 the rounded inputs fix d only to ε/d ≈ 2e-8 relative (d² to twice that).
    CHECK(std::abs(d * d - d2) <= (tiny ? 5e-8 : 1e-13) * d2);
    CHECK(std::abs(2 * gr.inner(x, v, w) - hp["inner_product"].get<double>()) <=
          1e-13 * std::max(1.0, std::abs(hp["inner_product"].get<double>())));
    CHECK(close(gr.transport(x, gr.exp(x, v), w), to_matrix<double>(hp["parallel_transport"])));
    ++compared;
  }
  CHECK(compared == 10);  // 8 random samples, small_tangent_1e-8, principal_angle_near_pi_over_2
  const auto& mean = data.at("frechet_mean");
  std::vector<Matrix<double>> points;
  for (const auto& p : mean.at("points")) points.push_back(to_matrix<double>(p));
  CHECK(points.size() == 8);
  CHECK(relative_gap(gyre::frechet_mean(gr, points).point, to_matrix<double>(mean["hp_karcher"]["mean"])) <= 1e-12);
}

TEST_CASE("Grassmann: the basis and projector representations agree") {
  const gyre::Grassmann<double> bases(6, 2);
  const gyre::GrassmannProjector<double> projectors(6, 2);
  for (const std::uint64_t seed : gyre::test::seeds(100)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    const Matrix<double> u = bases.random_point(rng);
    const Matrix<double> y = bases.random_point(rng);
    const Matrix<double> delta = bases.random_tangent(u, rng) * 0.5;
    const Matrix<double> pu = projectors.projector(u);
    const Matrix<double> py = projectors.projector(y);
    const Matrix<double> x = delta * u.transpose() + u * delta.transpose();
    CHECK(std::abs(bases.dist(u, y) - projectors.dist(pu, py)) <= 1e-13);
    CHECK(relative_gap(projectors.projector(bases.exp(u, delta)), projectors.exp(pu, x)) <= 1e-13);
    const Matrix<double> log_basis = bases.log(u, y);
    CHECK(relative_gap(Matrix<double>(log_basis * u.transpose() + u * log_basis.transpose()), projectors.log(pu, py)) <=
          1e-12);
    CHECK(std::abs(bases.inner(u, delta, delta) - projectors.inner(pu, x, x)) <= 1e-13);
  }
}

TEST_CASE("Grassmann: principal angles are accurate near 0 and near π/2") {
  const gyre::Grassmann<double> gr(4, 1);
  Matrix<double> u = Matrix<double>::Zero(4, 1);
  u(0, 0) = 1;
  for (const double theta : {1e-12, 1e-6, 0.3, 1.5707, 1.5707963}) {
    CAPTURE(theta);
    Matrix<double> y = Matrix<double>::Zero(4, 1);
    y(0, 0) = std::cos(theta);
    y(1, 0) = std::sin(theta);
    // atan2(s, c) is accurate to an ulp of θ at both ends (acos(c) would lose all digits near 0).
    CHECK(std::abs(gr.dist(u, y) - theta) <= 4 * std::numeric_limits<double>::epsilon() * theta);
    CHECK(std::abs(gr.log(u, y).norm() - theta) <= 4 * std::numeric_limits<double>::epsilon() * theta);
  }
  Matrix<double> orthogonal = Matrix<double>::Zero(4, 1);
  orthogonal(2, 0) = 1;
  CHECK(gr.dist(u, orthogonal) == doctest::Approx(1.5707963267948966).epsilon(1e-15));  // atan2(1, 0): π/2 rounded
  CHECK_THROWS_WITH_AS((void)gr.log(u, orthogonal), doctest::Contains("a principal angle is π/2"), gyre::DomainError);
}

TEST_CASE_TEMPLATE("Grassmann: bad input is named", T, float, double) {
  const gyre::Grassmann<T> gr(4, 2);
  Matrix<T> not_orthonormal = Matrix<T>::Identity(4, 2);
  not_orthonormal(0, 0) = T(2);
  CHECK_THROWS_WITH_AS((void)gr.dist(not_orthonormal, Matrix<T>::Identity(4, 2)),
                       doctest::Contains("Grassmann::dist: basis is not orthonormal (max |UᵀU − I|) (3)"),
                       gyre::DomainError);
  CHECK_THROWS_AS((void)gr.exp(Matrix<T>::Identity(4, 3), Matrix<T>::Zero(4, 3)), gyre::ShapeError);
  Matrix<T> rank_deficient = Matrix<T>::Zero(4, 2);
  rank_deficient(0, 0) = 1;
  rank_deficient(0, 1) = 1;
  CHECK_THROWS_WITH_AS((void)gyre::grassmann::basis_of<T>(rank_deficient), doctest::Contains("basis is rank-deficient"),
                       gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)gr.exp(Matrix<T>::Identity(4, 2), Matrix<T>::Identity(4, 2)),
                       doctest::Contains("vector is not horizontal"), gyre::DomainError);
  const gyre::GrassmannProjector<T> proj(4, 2);
  CHECK_THROWS_WITH_AS((void)proj.dist(Matrix<T>::Identity(4, 4), Matrix<T>::Identity(4, 4)),
                       doctest::Contains("projector does not have rank p"), gyre::DomainError);
  CHECK_THROWS_AS(gyre::Grassmann<T>(3, 3), gyre::DomainError);
}
