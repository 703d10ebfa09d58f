// C_N: finite-group laws, matrices against closed forms and escnn's irreps, the exact action on
// pixel grids (numpy rot90 by hand, homomorphism, sampling f(g⁻¹p)), bad input, the registry.
#include "cn/cn.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cn/grid_action.hpp"
#include "gyre/check/finite_group_laws.hpp"
#include "gyre/geometry/any_manifold.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::test::tol;

// An image of shape (leading…, n, n) sampled from f at the pixel centres x = col − (n−1)/2,
// y = (n−1)/2 − row, plus 1000·(flat leading index) so that the planes differ.
template <class V, class F>
xt::xarray<V> sampled(std::vector<std::size_t> shape, const F& f) {
  xt::xarray<V> image = xt::xarray<V>::from_shape(shape);
  const std::size_t n = shape.back();
  const std::size_t plane = n * n;
  const V centre = static_cast<V>(n - 1) / 2;
  for (std::size_t index = 0; index < image.size(); ++index) {
    const std::size_t row = (index % plane) / n;
    const std::size_t col = index % n;
    image.data()[index] =
        f(static_cast<V>(col) - centre, centre - static_cast<V>(row)) + static_cast<V>(1000 * (index / plane));
  }
  return image;
}

// An analytic function with no symmetry under any rotation or flip of the grid.
template <class V>
V asymmetric(V x, V y) {
  return x + 10 * y + x * y * y / 2 + std::sin(x) / 3;
}

template <class V>
xt::xarray<V> from_rows(const std::vector<std::vector<V>>& rows) {
  xt::xarray<V> image = xt::xarray<V>::from_shape({rows.size(), rows[0].size()});
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t j = 0; j < rows[i].size(); ++j) image(i, j) = rows[i][j];
  return image;
}

}  // namespace

TEST_CASE_TEMPLATE("cn: the finite-group laws hold for N = 1, 2, 3, 4, 6, 8", T, float, double) {
  namespace law = gyre::check::law;
  for (const int n : {1, 2, 3, 4, 6, 8}) {
    CAPTURE(n);
    const gyre::CN<T> group(n);
    const auto report = gyre::check::finite_group_laws(group, gyre::test::seeds(200));
    for (const auto& failure : report.failures) FAIL(failure);
    gyre::test::check_law(report, law::kFiniteClosure, T(0), 1);
    gyre::test::check_law(report, law::kFiniteAxioms, T(0), 1);
    // Products of two matrices whose entries are rounded cos/sin: a few ε (quarter turns: exact).
    const T budget = tol<T>(1e-15, 2.5e-7f);
    gyre::test::check_law(report, law::kMatrixHomomorphism, budget, 1);
    gyre::test::check_law(report, law::kMatrixOrthogonal, budget, 1);
    gyre::test::check_law(report, law::kActIsMatrix, T(0), 1);  // act is that very product
    CHECK(report.at(law::kActIsMatrix).cases == 200 * static_cast<std::size_t>(n));
  }
}

TEST_CASE_TEMPLATE("cn: matrices are the closed-form rotations, exact for quarter turns", T, float, double) {
  const T eps = std::numeric_limits<T>::epsilon();
  for (const int n : {1, 2, 3, 4, 5, 6, 7, 8, 12, 360}) {
    const gyre::CN<T> group(n);
    CHECK(group.order() == n);
    CHECK(group.elements().size() == static_cast<std::size_t>(n));
    for (const int k : group.elements()) {
      CAPTURE(n);
      CAPTURE(k);
      const long double theta = 2 * boost::math::constants::pi<long double>() * k / n;
      const auto m = group.matrix(k);
      // Rounded once from long double: ≤ ½ulp + 1e-19 ≤ ε absolute on unit-sized entries.
      CHECK(std::abs(m(0, 0) - std::cos(theta)) <= eps);
      CHECK(std::abs(m(0, 1) + std::sin(theta)) <= eps);
      CHECK(std::abs(m(1, 0) - std::sin(theta)) <= eps);
      CHECK(std::abs(m(1, 1) - std::cos(theta)) <= eps);
      if ((4 * k) % n == 0) {
        for (int i = 0; i < 4; ++i) {
          const T entry = m(i / 2, i % 2);
          CHECK((entry == 0 || entry == 1 || entry == -1));
        }
      }
      CHECK(group.compose(k, group.inverse(k)) == 0);
      for (const int l : group.elements()) CHECK(group.compose(k, l) == (k + l) % n);
    }
  }
}

TEST_CASE("cn: elements, angles and characters match escnn's C4, C6, C8 (shared/reference)") {
  std::size_t tables = 0;
  for (const auto& table : gyre::test::reference("escnn.json").at("irrep_tables")) {
    const std::string name = table["group"];
    if (name[0] != 'C') continue;
    CAPTURE(name);
    ++tables;
    std::size_t irreps = 0;
    const gyre::CN<double> group(table["order"].get<int>());
    const auto elements = group.elements();
    REQUIRE(table["elements"].size() == elements.size());
    for (std::size_t i = 0; i < elements.size(); ++i) {
      // escnn names its elements "k[2pi/N]" and stores (0, θ) to 10 digits.
      CHECK(table["elements"][i].get<std::string>() ==
            std::to_string(elements[i]) + "[2pi/" + std::to_string(group.order()) + "]");
      CHECK(std::abs(table["element_params"][i][1].get<double>() -
                     2 * boost::math::constants::pi<double>() * elements[i] / group.order()) <= 1e-9);
    }
    for (const auto& irrep : table["irreps"]) {
      if (irrep["name"] != "irrep_1") continue;
      ++irreps;
      // The frequency-1 irrep is the rotation matrix itself: same generator, traces as characters
      // (escnn's table prints 10 significant digits: 1e-9).
      const auto generator = gyre::test::to_matrix<double>(irrep["generator_matrices"]["rotation_2pi_over_N"]);
      CHECK((group.matrix(1) - generator).norm() <= 1e-9);
      for (std::size_t i = 0; i < elements.size(); ++i) {
        CHECK(std::abs(group.matrix(elements[i]).trace() - irrep["characters"][i].get<double>()) <= 1e-9);
      }
    }
    CHECK(irreps == 1);  // the table has its frequency-1 irrep
  }
  CHECK(tables == 3);  // C4, C6, C8: a loop that compared nothing must fail
}

TEST_CASE_TEMPLATE("cn: the grid action is numpy's rot90 (hand-written cases)", T, float, double) {
  const gyre::CN<T> c4(4);
  // numpy: rot90([[1, 2], [3, 4]]) = [[2, 4], [1, 3]].
  CHECK(gyre::act_on_grid(c4, 1, from_rows<T>({{1, 2}, {3, 4}})) == from_rows<T>({{2, 4}, {1, 3}}));
  const auto image = from_rows<T>({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}});
  CHECK(gyre::act_on_grid(c4, 0, image) == image);
  CHECK(gyre::act_on_grid(c4, 1, image) == from_rows<T>({{3, 6, 9}, {2, 5, 8}, {1, 4, 7}}));
  CHECK(gyre::act_on_grid(c4, 2, image) == from_rows<T>({{9, 8, 7}, {6, 5, 4}, {3, 2, 1}}));
  CHECK(gyre::act_on_grid(c4, 3, image) == from_rows<T>({{7, 4, 1}, {8, 5, 2}, {9, 6, 3}}));
  // In C_8 the quarter turn is k = 2; in C_2 the half turn is k = 1.
  CHECK(gyre::act_on_grid(gyre::CN<T>(8), 2, image) == gyre::act_on_grid(c4, 1, image));
  CHECK(gyre::act_on_grid(gyre::CN<T>(2), 1, image) == gyre::act_on_grid(c4, 2, image));
  // Leading axes are carried along: each 3×3 plane turns on its own.
  xt::xarray<int> stack = xt::xarray<int>::from_shape({2, 3, 3});
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) {
      stack(0, i, j) = static_cast<int>(image(i, j));
      stack(1, i, j) = 10 * static_cast<int>(image(i, j));
    }
  const auto turned = gyre::act_on_grid(c4, 1, stack);
  CHECK(turned(0, 0, 0) == 3);
  CHECK(turned(1, 0, 0) == 30);
  CHECK(turned(1, 2, 0) == 10);
  CHECK(turned(0, 1, 1) == 5);
}

TEST_CASE_TEMPLATE("cn: the grid action is a homomorphism and samples f(g⁻¹p)", T, float, double) {
  for (const int n : {1, 2, 4, 8, 12}) {
    const gyre::CN<T> group(n);
    std::vector<int> grid_elements;
    for (const int k : group.elements()) {
      if (group.grid_motion(k)) grid_elements.push_back(k);
    }
    CHECK(grid_elements.size() == static_cast<std::size_t>(n % 4 == 0 ? 4 : n % 2 == 0 ? 2 : 1));
    for (const std::size_t size : {1, 2, 3, 4, 5}) {
      CAPTURE(n);
      CAPTURE(size);
      const auto image = sampled<T>({2, 3, size, size}, asymmetric<T>);
      for (const int g : grid_elements) {
        CAPTURE(g);
        // Independent of the index formulas: [g·f](p) = f(g⁻¹p) with g⁻¹ = matrix(g)ᵀ. The
        // quarter-turn matrices are exact, so g⁻¹p is exactly a pixel centre and the samples are equal.
        const gyre::Matrix2<T> inverse = group.matrix(g).transpose();
        const auto expected = sampled<T>({2, 3, size, size}, [&](T x, T y) {
          const gyre::Vector2<T> q = inverse * gyre::Vector2<T>(x, y);
          return asymmetric<T>(q(0), q(1));
        });
        CHECK(gyre::act_on_grid(group, g, image) == expected);
        for (const int h : grid_elements) {
          CHECK(gyre::act_on_grid(group, group.compose(g, h), image) ==
                gyre::act_on_grid(group, g, gyre::act_on_grid(group, h, image)));
        }
      }
    }
  }
}

TEST_CASE("cn: bad input names the function, the condition and the value") {
  const gyre::CN<double> c4(4);
  CHECK_THROWS_WITH_AS(gyre::CN<double>(0), "gyre::CN::CN: N must be at least 1 (0)", gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)c4.compose(-1, 0), "gyre::CN::compose: element must lie in [0, 4) (-1)",
                       gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)c4.matrix(4), "gyre::CN::matrix: element must lie in [0, 4) (4)", gyre::DomainError);
  CHECK_THROWS_AS((void)c4.inverse(7), gyre::DomainError);
  CHECK_THROWS_AS((void)c4.act(1, gyre::Vector2<double>(NAN, 0)), gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)c4.from_integers(Eigen::VectorXi::Zero(2)),
                       "gyre::CN::from_integers: an element of C_N is one integer [k] (2 integers)", gyre::ShapeError);
  CHECK_THROWS_WITH_AS((void)c4.from_integers(Eigen::VectorXi::Constant(1, 9)),
                       "gyre::CN::from_integers: element must lie in [0, 4) (9)", gyre::DomainError);
  CHECK(c4.from_integers(c4.to_integers(3)) == 3);
  // The grid: only rotations by multiples of 90°, square images, at least two axes.
  const xt::xarray<double> image = xt::zeros<double>({3, 3});
  CHECK_THROWS_WITH_AS(
      (void)gyre::act_on_grid(gyre::CN<double>(8), 1, image),
      "gyre::act_on_grid: element is not an exact symmetry of the pixel grid (rotation in degrees) (45)",
      gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)gyre::act_on_grid(gyre::CN<double>(6), 2, image), doctest::Contains("(120)"),
                       gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)gyre::act_on_grid(c4, 1, xt::xarray<double>(xt::zeros<double>({3, 4}))),
                       "gyre::act_on_grid: image must be square in its last two axes (H×W) (3×4)", gyre::ShapeError);
  CHECK_THROWS_AS((void)gyre::act_on_grid(c4, 1, xt::xarray<double>(xt::zeros<double>({3}))), gyre::ShapeError);
  CHECK_THROWS_WITH_AS((void)gyre::act_on_grid(c4, 5, image), "gyre::CN::check_element: element must lie in [0, 4) (5)",
                       gyre::DomainError);
}

TEST_CASE("cn: ChecksOff trusts the input") {
  const gyre::CN<double> c4(4);
  {
    gyre::ChecksOff off;
    CHECK_NOTHROW((void)c4.compose(6, 0));
    CHECK_THROWS_AS(c4.check_element(6), gyre::DomainError);  // explicit checks always run
    CHECK_THROWS_AS((void)c4.from_integers(Eigen::VectorXi::Constant(1, 6)),
                    gyre::DomainError);  // a conversion, not an op
  }
  CHECK_THROWS_AS((void)c4.compose(6, 0), gyre::DomainError);
}

TEST_CASE("cn: the registry builds it by name") {
  const gyre::AnyManifold c6 = gyre::make_space("cn", {{"N", 6}});
  CHECK(c6.is_finite_group());
  CHECK(c6.point_encoding() == gyre::PointEncoding::kInteger);
  CHECK(c6.dim() == 6);
  CHECK(c6.compose(Eigen::MatrixXd::Constant(1, 1, 2), Eigen::MatrixXd::Constant(1, 1, 5))(0) == 1);
  CHECK(c6.inverse(Eigen::MatrixXd::Constant(1, 1, 2))(0) == 4);
  const Eigen::MatrixXd p = Eigen::Vector2d(1, 0);
  CHECK((c6.act(Eigen::MatrixXd::Constant(1, 1, 1), p) - Eigen::Vector2d(0.5, std::sqrt(3.0) / 2)).norm() <= 1e-15);
  CHECK_THROWS_AS(c6.check_point(Eigen::MatrixXd::Constant(1, 1, 6)), gyre::DomainError);
  CHECK_THROWS_WITH_AS(gyre::make_space("cn", {}), "gyre::make_space: space cn needs the parameter (N)",
                       gyre::DomainError);
  CHECK_THROWS_AS(gyre::make_space("cn", {{"N", 0}}), gyre::DomainError);
  for (const auto& [law, worst] : c6.self_check(20)) {
    CAPTURE(law);
    CHECK(worst <= 1e-15);
  }
}
