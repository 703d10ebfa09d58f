// D_N: finite-group laws (D_1 too), matrices and the semidirect product against closed forms and
// escnn's irreps, the exact action on pixel grids (numpy flip/rot90 by hand, homomorphism,
// sampling f(g⁻¹p)), bad input, the registry.
#include "dn/dn.hpp"

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

using gyre::DihedralElement;
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

TEST_CASE_TEMPLATE("dn: the finite-group laws hold for N = 1, 2, 3, 4, 6, 8", T, float, double) {
  namespace law = gyre::check::law;
  for (const int n : {1, 2, 3, 4, 6, 8}) {
    CAPTURE(n);
    const gyre::DN<T> group(n);
    CHECK(group.order() == 2 * n);
    const auto report = gyre::check::finite_group_laws(group, gyre::test::seeds(200));
    for (const auto& failure : report.failures) FAIL(failure);
    gyre::test::check_law(report, law::kFiniteClosure, T(0), 1);
    gyre::test::check_law(report, law::kFiniteAxioms, T(0), 1);
    // Products of two matrices whose entries are rounded cos/sin: a few ε (quarter turns: exact).
    const T budget = tol<T>(1e-15, 2.5e-7f);
    gyre::test::check_law(report, law::kMatrixHomomorphism, budget, 1);
    gyre::test::check_law(report, law::kMatrixOrthogonal, budget, 1);
    gyre::test::check_law(report, law::kActIsMatrix, T(0), 1);  // act is that very product
    CHECK(report.at(law::kActIsMatrix).cases == 200 * static_cast<std::size_t>(2 * n));
  }
}

TEST_CASE_TEMPLATE("dn: matrices are R(2πk/N)·F^flip with F = diag(−1, 1)", T, float, double) {
  const T eps = std::numeric_limits<T>::epsilon();
  for (const int n : {1, 2, 3, 4, 5, 6, 8, 12}) {
    const gyre::DN<T> group(n);
    for (const DihedralElement& g : group.elements()) {
      CAPTURE(n);
      CAPTURE(g);
      const long double theta = 2 * boost::math::constants::pi<long double>() * g.k / n;
      const long double c = std::cos(theta);
      const long double s = std::sin(theta);
      // R(θ)·diag(−1, 1) = [[−c, −s], [−s, c]].
      const long double sign = g.flip == 1 ? -1 : 1;
      const auto m = group.matrix(g);
      CHECK(std::abs(m(0, 0) - sign * c) <= eps);
      CHECK(std::abs(m(0, 1) + s) <= eps);
      CHECK(std::abs(m(1, 0) - sign * s) <= eps);
      CHECK(std::abs(m(1, 1) - c) <= eps);
      // Each entry is within ε of c or s: det = ±(c² + s²) to a few ε.
      CHECK(m(0, 0) * m(1, 1) - m(0, 1) * m(1, 0) == doctest::Approx(g.flip == 1 ? -1 : 1).epsilon(4 * eps));
      // Reflections are involutions; rotations invert by −k.
      CHECK(group.compose(g, group.inverse(g)) == group.identity());
      if (g.flip == 1) CHECK(group.compose(g, g) == group.identity());
    }
    // F·R(θ) = R(−θ)·F: {1, 0}·{0, 1} = {1, N − 1}; and R·F = {1, 1}.
    CHECK(group.compose(DihedralElement{1, 0}, DihedralElement{0, n > 1 ? 1 : 0}) == DihedralElement{1, (n - 1) % n});
    CHECK(group.compose(DihedralElement{0, n > 1 ? 1 : 0}, DihedralElement{1, 0}) == DihedralElement{1, n > 1 ? 1 : 0});
  }
  // The flip acts as (x, y) ↦ (−x, y).
  const gyre::DN<T> d4(4);
  CHECK(d4.act(DihedralElement{1, 0}, gyre::Vector2<T>(2, 3)) == gyre::Vector2<T>(-2, 3));
}

TEST_CASE("dn: elements, parameters and characters match escnn's D4, D6, D8 (shared/reference)") {
  std::size_t tables = 0;
  for (const auto& table : gyre::test::reference("escnn.json").at("irrep_tables")) {
    const std::string name = table["group"];
    if (name[0] != 'D') continue;
    CAPTURE(name);
    ++tables;
    std::size_t irreps = 0;
    const gyre::DN<double> group(table["order"].get<int>() / 2);
    const auto elements = group.elements();
    REQUIRE(table["elements"].size() == elements.size());
    for (std::size_t i = 0; i < elements.size(); ++i) {
      const DihedralElement g = elements[i];
      CHECK(table["elements"][i].get<std::string>() == std::string("(") + (g.flip == 1 ? "-" : "+") + ", " +
                                                           std::to_string(g.k) + "[2pi/" + std::to_string(group.n()) +
                                                           "])");
      CHECK(table["element_params"][i][0].get<int>() == g.flip);
      CHECK(std::abs(table["element_params"][i][1].get<double>() -
                     2 * boost::math::constants::pi<double>() * g.k / group.n()) <= 1e-9);  // escnn prints 10 digits
    }
    for (const auto& irrep : table["irreps"]) {
      const std::string irrep_name = irrep["name"];
      if (irrep_name == "irrep_1,1" || irrep_name == "irrep_1,0") ++irreps;
      for (std::size_t i = 0; i < elements.size(); ++i) {
        const auto m = group.matrix(elements[i]);
        // irrep_1,1 is the defining representation up to a change of basis: equal traces (escnn's
        // table prints 10 significant digits: 1e-9). irrep_1,0 is the determinant (−1 on reflections).
        if (irrep_name == "irrep_1,1") CHECK(std::abs(m.trace() - irrep["characters"][i].get<double>()) <= 1e-9);
        if (irrep_name == "irrep_1,0") {
          CHECK(std::abs(m(0, 0) * m(1, 1) - m(0, 1) * m(1, 0) - irrep["characters"][i].get<double>()) <= 1e-15);
        }
      }
    }
    CHECK(irreps == 2);  // the table has irrep_1,1 and irrep_1,0
  }
  CHECK(tables == 3);  // D4, D6, D8: a loop that compared nothing must fail
}

TEST_CASE_TEMPLATE("dn: the grid action is numpy's flip then rot90 (hand-written cases)", T, float, double) {
  const gyre::DN<T> d4(4);
  // numpy: flip([[1, 2], [3, 4]], -1) = [[2, 1], [4, 3]]; rot90([[1, 2], [3, 4]]) = [[2, 4], [1, 3]].
  CHECK(gyre::act_on_grid(d4, DihedralElement{1, 0}, from_rows<T>({{1, 2}, {3, 4}})) == from_rows<T>({{2, 1}, {4, 3}}));
  CHECK(gyre::act_on_grid(d4, DihedralElement{0, 1}, from_rows<T>({{1, 2}, {3, 4}})) == from_rows<T>({{2, 4}, {1, 3}}));
  const auto image = from_rows<T>({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}});
  CHECK(gyre::act_on_grid(d4, DihedralElement{1, 0}, image) == from_rows<T>({{3, 2, 1}, {6, 5, 4}, {9, 8, 7}}));
  // {1, 1} = R(90°)·F: numpy rot90(flip(a, -1)) = the transpose.
  CHECK(gyre::act_on_grid(d4, DihedralElement{1, 1}, image) == from_rows<T>({{1, 4, 7}, {2, 5, 8}, {3, 6, 9}}));
  // {1, 2} = R(180°)·F mirrors the rows: numpy rot90(flip(a, -1), 2) = flip(a, 0).
  CHECK(gyre::act_on_grid(d4, DihedralElement{1, 2}, image) == from_rows<T>({{7, 8, 9}, {4, 5, 6}, {1, 2, 3}}));
  // D_1 = {e, F}: its flip is the same mirror.
  CHECK(gyre::act_on_grid(gyre::DN<T>(1), DihedralElement{1, 0}, image) ==
        gyre::act_on_grid(d4, DihedralElement{1, 0}, image));
}

TEST_CASE_TEMPLATE("dn: the grid action is a homomorphism and samples f(g⁻¹p)", T, float, double) {
  for (const int n : {1, 2, 4, 8, 12}) {
    const gyre::DN<T> group(n);
    std::vector<DihedralElement> grid_elements;
    for (const DihedralElement& g : group.elements()) {
      if (group.grid_motion(g)) grid_elements.push_back(g);
    }
    CHECK(grid_elements.size() == static_cast<std::size_t>(2 * (n % 4 == 0 ? 4 : n % 2 == 0 ? 2 : 1)));
    for (const std::size_t size : {1, 2, 3, 4, 5}) {
      CAPTURE(n);
      CAPTURE(size);
      const auto image = sampled<T>({3, size, size}, asymmetric<T>);
      for (const DihedralElement& g : grid_elements) {
        CAPTURE(g);
        // Independent of the index formulas: [g·f](p) = f(g⁻¹p) with g⁻¹ = matrix(g)ᵀ (exact entries
        // for grid elements, so g⁻¹p is exactly a pixel centre and the samples are equal).
        const gyre::Matrix2<T> inverse = group.matrix(g).transpose();
        const auto expected = sampled<T>({3, size, size}, [&](T x, T y) {
          const gyre::Vector2<T> q = inverse * gyre::Vector2<T>(x, y);
          return asymmetric<T>(q(0), q(1));
        });
        CHECK(gyre::act_on_grid(group, g, image) == expected);
        for (const DihedralElement& h : grid_elements) {
          CHECK(gyre::act_on_grid(group, group.compose(g, h), image) ==
                gyre::act_on_grid(group, g, gyre::act_on_grid(group, h, image)));
        }
      }
    }
  }
}

TEST_CASE("dn: bad input names the function, the condition and the value") {
  const gyre::DN<double> d4(4);
  CHECK_THROWS_WITH_AS(gyre::DN<double>(0), "gyre::DN::DN: N must be at least 1 (0)", gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)d4.compose(DihedralElement{2, 0}, d4.identity()),
                       "gyre::DN::compose: flip must be 0 or 1 (2)", gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)d4.matrix(DihedralElement{1, 4}),
                       "gyre::DN::matrix: rotation index k must lie in [0, 4) (4)", gyre::DomainError);
  CHECK_THROWS_AS((void)d4.inverse(DihedralElement{0, -1}), gyre::DomainError);
  CHECK_THROWS_AS((void)d4.act(DihedralElement{0, 9}, gyre::Vector2<double>(1, 0)), gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)d4.from_integers(Eigen::VectorXi::Zero(1)),
                       "gyre::DN::from_integers: an element of D_N is two integers [flip, k] (1 integers)",
                       gyre::ShapeError);
  CHECK_THROWS_AS((void)d4.from_integers(Eigen::Vector2i(-1, 0)), gyre::DomainError);
  CHECK(d4.from_integers(d4.to_integers(DihedralElement{1, 3})) == DihedralElement{1, 3});
  const xt::xarray<double> image = xt::zeros<double>({2, 5, 5});
  CHECK_THROWS_WITH_AS(
      (void)gyre::act_on_grid(gyre::DN<double>(6), DihedralElement{1, 1}, image),
      "gyre::act_on_grid: element is not an exact symmetry of the pixel grid (rotation in degrees) (60)",
      gyre::DomainError);
  CHECK_THROWS_AS((void)gyre::act_on_grid(gyre::DN<double>(8), DihedralElement{0, 1}, image), gyre::DomainError);
  CHECK_THROWS_AS((void)gyre::act_on_grid(d4, DihedralElement{1, 0}, xt::xarray<double>(xt::zeros<double>({2, 5, 4}))),
                  gyre::ShapeError);
  CHECK_THROWS_WITH_AS((void)gyre::act_on_grid(d4, DihedralElement{3, 0}, image),
                       "gyre::DN::check_element: flip must be 0 or 1 (3)", gyre::DomainError);
}

TEST_CASE("dn: ChecksOff trusts the input") {
  const gyre::DN<double> d4(4);
  {
    gyre::ChecksOff off;
    CHECK_NOTHROW((void)d4.compose(DihedralElement{0, 5}, d4.identity()));
    CHECK_THROWS_AS(d4.check_element(DihedralElement{0, 5}), gyre::DomainError);  // explicit checks always run
  }
  CHECK_THROWS_AS((void)d4.compose(DihedralElement{0, 5}, d4.identity()), gyre::DomainError);
}

TEST_CASE("dn: the registry builds it by name") {
  const gyre::AnyManifold d4 = gyre::make_space("dn", {{"N", 4}});
  CHECK(d4.is_finite_group());
  CHECK(d4.point_encoding() == gyre::PointEncoding::kIntegerVector);
  CHECK(d4.dim() == 8);
  const Eigen::MatrixXd flip = Eigen::Vector2d(1, 0);
  const Eigen::MatrixXd quarter = Eigen::Vector2d(0, 1);
  CHECK(d4.compose(flip, quarter) == Eigen::MatrixXd(Eigen::Vector2d(1, 3)));
  const Eigen::MatrixXd p = Eigen::Vector2d(2, 3);
  CHECK(d4.act(flip, p) == Eigen::MatrixXd(Eigen::Vector2d(-2, 3)));
  CHECK_THROWS_AS(d4.check_point(Eigen::MatrixXd(Eigen::Vector2d(2, 0))), gyre::DomainError);
  CHECK_THROWS_AS(gyre::make_space("dn", {{"N", 0.5}}), gyre::DomainError);
  for (const auto& [law, worst] : d4.self_check(20)) {
    CAPTURE(law);
    CHECK(worst == 0);  // D_4's matrices are exact
  }
}
