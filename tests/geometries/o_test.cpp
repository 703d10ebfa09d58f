// O(n): both components — laws within a component, the SO(n) formulas on reflections, the
// errors between components, and Haar sampling of both components.
#include "o/o.hpp"

#include <cmath>

#include <doctest/doctest.h>
#include <unsupported/Eigen/MatrixFunctions>

#include "gyre/check/lie_group_laws.hpp"
#include "gyre/check/manifold_laws.hpp"
#include "so/so.hpp"
#include "support/test_support.hpp"

using gyre::test::check_law;
using gyre::test::relative_gap;
using gyre::test::tol;

TEST_CASE_TEMPLATE("o: the manifold and Lie group laws hold on 200 seeded cases for n = 2…5", T, float, double) {
  namespace law = gyre::check::law;
  for (const int n : {2, 3, 4, 5}) {
    CAPTURE(n);
    const gyre::O<T> o(n);
    // The checker redraws y until dist(x, y) is finite, i.e. in x's component.
    const auto report = gyre::check::manifold_laws(o, gyre::test::seeds(200));
    gyre::test::check_no_failures(report);
    // As SO(n): 1e-12 for random pairs (angles may approach π), 1e-13 otherwise.
    check_law(report, law::kExpLog, tol<T>(1e-12, 5e-5f));
    check_law(report, law::kLogExp, tol<T>(1e-13, 5e-5f));
    check_law(report, law::kDistIsNormLog, tol<T>(1e-14, 1e-5f));
    check_law(report, law::kTransportIsometry, tol<T>(1e-13, 5e-5f));
    check_law(report, law::kTransportVelocity, tol<T>(1e-13, 5e-5f));
    const auto group = gyre::check::lie_group_laws(o, gyre::test::seeds(200));
    gyre::test::check_no_failures(group);
    check_law(group, law::kAssociative, tol<T>(1e-14, 1e-5f));
    check_law(group, law::kInverse, tol<T>(1e-14, 1e-5f));
    check_law(group, law::kAdjoint, tol<T>(1e-14, 1e-5f));
    check_law(group, law::kAlgebraExpLog, tol<T>(1e-13, 5e-5f));
  }
}

TEST_CASE("o: Haar sampling reaches both components equally, and each is an orthogonal matrix") {
  const gyre::O<double> o(4);
  int reflections = 0;
  for (const std::uint64_t seed : gyre::test::seeds(400)) {
    gyre::Rng rng(seed);
    const auto g = o.random_point(rng);
    CHECK_NOTHROW(o.check_point(g));
    reflections += g.determinant() < 0 ? 1 : 0;
  }
  // Binomial(400, ½): 6 standard deviations (±60) around 200.
  CHECK(reflections > 140);
  CHECK(reflections < 260);
}

TEST_CASE("o: geodesics between reflections are the SO(n) ones moved by the reflection") {
  const gyre::O<double> o(3);
  const gyre::SO<double> so(3);
  gyre::Matrix<double> f = gyre::Matrix<double>::Identity(3, 3);
  f(0, 0) = -1;
  for (const std::uint64_t seed : gyre::test::seeds(200)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    const auto r = so.random_point(rng);
    const auto s = so.random_point(rng);
    // Left multiplication by F is an isometry of the bi-invariant metric.
    const gyre::Matrix<double> x = f * r, y = f * s;
    CHECK(relative_gap(o.log(x, y), gyre::Matrix<double>(f * so.log(r, s))) <= 1e-13);
    CHECK(std::abs(o.dist(x, y) - so.dist(r, s)) <= 1e-13);
  }
}

TEST_CASE("o: between components log and transport throw, dist is infinite, algebra_log refuses reflections") {
  const gyre::O<double> o(3);
  const gyre::Matrix<double> id = gyre::Matrix<double>::Identity(3, 3);
  gyre::Matrix<double> f = id;
  f(1, 1) = -1;
  CHECK(std::isinf(o.dist(id, f)));
  CHECK_THROWS_WITH_AS((void)o.log(id, f), "gyre::O::log: points lie in different components of O(n) (det XᵀY) (-1)",
                       gyre::DomainError);
  CHECK_THROWS_AS((void)o.transport(id, f, gyre::Matrix<double>::Zero(3, 3)), gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)o.algebra_log(f),
                       "gyre::O::algebra_log: element is not in the identity component (det) (-1)", gyre::DomainError);
  // Ad of a reflection in O(3) is in SO(3); for this coordinate reflection it is a signed
  // permutation of the so(3) basis, so its determinant is 1 up to an ε or two.
  CHECK(o.adjoint(f).determinant() == doctest::Approx(1.0).epsilon(1e-15));
  gyre::Matrix<double> bad = id;
  bad(2, 1) = 1e-3;
  CHECK_THROWS_AS(o.check_point(bad), gyre::DomainError);
  CHECK_THROWS_AS(o.check_point(gyre::Matrix<double>::Identity(4, 4)), gyre::ShapeError);
}
