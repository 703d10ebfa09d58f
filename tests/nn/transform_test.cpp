// The group action on feature maps, nn::transform: [g·f](p) = ρ(g)·f(g⁻¹p). Grid symmetries are exact
// pixel permutations (checked against hand-derived index maps) combined with ρ(g); the action
// composes; off the grid it is bilinear resampling, within the interpolation bound of a smooth field;
// on a field constant in space only ρ(g) acts.

#include "gyre/nn/transform.hpp"

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include <boost/math/constants/constants.hpp>
#include <doctest/doctest.h>

#include "gyre/core/rng.hpp"
#include "gyre/repr/representation.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::Matrix;
using gyre::nn::FieldType;
using gyre::nn::GeometricTensor;
using gyre::repr::PlanarElement;
using gyre::repr::PlanarGroup;

constexpr double kPi = boost::math::constants::pi<double>();

FieldType field_type(const PlanarGroup& group, const std::vector<std::string>& names) {
  std::vector<gyre::repr::Representation> fields;
  for (const auto& n : names) fields.push_back(gyre::repr::representation_by_name(group, n));
  return FieldType(group, fields);
}

template <class T>
xt::xtensor<T, 4> random_maps(std::size_t n, std::size_t c, std::size_t h, std::size_t w, gyre::Rng& rng) {
  xt::xtensor<T, 4> a = xt::xtensor<T, 4>::from_shape({n, c, h, w});
  for (T& v : a) v = rng.normal<T>();
  return a;
}

template <class Array>
double max_abs(const Array& a) {
  double m = 0;
  for (const auto v : a) m = std::max(m, std::abs(static_cast<double>(v)));
  return m;
}

// Hand-derived: with x = col − c, y = c − row, g⁻¹p for rotation 90° is (y, −x), i.e. source pixel
// (col, n−1−row) (numpy rot90); for the flip (−x, y): (row, W−1−col); for (flip, 90°) (−y, −x): (col, row).
struct HandCase {
  std::string label;
  PlanarGroup group;
  std::string field;
  PlanarElement g;
  std::size_t h, w;
  std::array<std::size_t, 2> (*source)(std::size_t row, std::size_t col, std::size_t h, std::size_t w);
  std::vector<std::vector<double>> rho;  // ρ(g), written out
};

std::array<std::size_t, 2> rot90_source(std::size_t r, std::size_t c, std::size_t h, std::size_t) {
  return {c, h - 1 - r};
}
std::array<std::size_t, 2> flip_source(std::size_t r, std::size_t c, std::size_t, std::size_t w) {
  return {r, w - 1 - c};
}
std::array<std::size_t, 2> flip_rot90_source(std::size_t r, std::size_t c, std::size_t, std::size_t) { return {c, r}; }
std::array<std::size_t, 2> rot180_source(std::size_t r, std::size_t c, std::size_t h, std::size_t w) {
  return {h - 1 - r, w - 1 - c};
}

// The permutation matrix of out channel c ← in channel source[c].
std::vector<std::vector<double>> permutation(const std::vector<int>& source) {
  std::vector<std::vector<double>> m(source.size(), std::vector<double>(source.size(), 0.0));
  for (std::size_t c = 0; c < source.size(); ++c) m[c][static_cast<std::size_t>(source[c])] = 1;
  return m;
}

}  // namespace

TEST_CASE("transform: grid symmetries are hand-derived pixel permutations combined with rho") {
  const double q = kPi / 2;
  // Regular representations: ρ(g)e_h = e_{gh}. C4: g = r¹ sends e_m to e_{m+1}. D4 (elements (0, r)
  // then (1, r); (f₁, θ₁)(f₂, θ₂) = (f₁ ⊕ f₂, θ₁ + (−1)^f₁ θ₂)): rotation 90° sends (f, r) to (f, r+1);
  // the flip sends (0, r) to (1, −r) and (1, r) to (0, −r); (flip, 90°) sends (0, r) to (1, 1−r), (1, r) to (0, 1−r).
  // irrep_1,1 is R(θ)·diag(1, −1)^f (escnn.json's D4 generators).
  const std::vector<HandCase> cases{
      {"C4 regular, rotation 90°",
       PlanarGroup::cyclic(4),
       "regular",
       {0, q},
       3,
       3,
       rot90_source,
       permutation({3, 0, 1, 2})},
      {"C4 irrep_1, rotation 90°", PlanarGroup::cyclic(4), "irrep_1", {0, q}, 3, 3, rot90_source, {{0, -1}, {1, 0}}},
      {"D4 regular, rotation 90°",
       PlanarGroup::dihedral(4),
       "regular",
       {0, q},
       3,
       3,
       rot90_source,
       permutation({3, 0, 1, 2, 7, 4, 5, 6})},
      {"D4 regular, flip",
       PlanarGroup::dihedral(4),
       "regular",
       {1, 0},
       3,
       4,
       flip_source,
       permutation({4, 7, 6, 5, 0, 3, 2, 1})},
      {"D4 regular, flip and rotation 90°",
       PlanarGroup::dihedral(4),
       "regular",
       {1, q},
       3,
       3,
       flip_rot90_source,
       permutation({5, 4, 7, 6, 1, 0, 3, 2})},
      {"D4 irrep_1,1, rotation 90°",
       PlanarGroup::dihedral(4),
       "irrep_1,1",
       {0, q},
       3,
       3,
       rot90_source,
       {{0, -1}, {1, 0}}},
      {"D4 irrep_1,1, flip", PlanarGroup::dihedral(4), "irrep_1,1", {1, 0}, 3, 4, flip_source, {{1, 0}, {0, -1}}},
      {"D4 irrep_1,1, flip and rotation 90°",
       PlanarGroup::dihedral(4),
       "irrep_1,1",
       {1, q},
       3,
       3,
       flip_rot90_source,
       {{0, 1}, {1, 0}}},
      {"D4 irrep_0,2, rotation 180°", PlanarGroup::dihedral(4), "irrep_0,2", {0, 2 * q}, 3, 4, rot180_source, {{1}}},
  };
  for (const HandCase& c : cases) {
    CAPTURE(c.label);
    const FieldType type = field_type(c.group, {c.field});
    const std::size_t channels = c.rho.size();
    REQUIRE(type.size() == static_cast<int>(channels));
    // Every value distinct and no symmetry: 100·channel + 10·row + col + 1 (≤ 724).
    xt::xtensor<double, 4> x = xt::zeros<double>({std::size_t(1), channels, c.h, c.w});
    for (std::size_t ch = 0; ch < channels; ++ch)
      for (std::size_t r = 0; r < c.h; ++r)
        for (std::size_t s = 0; s < c.w; ++s) x(0, ch, r, s) = 100.0 * ch + 10.0 * r + s + 1;
    const auto moved = gyre::nn::transform(GeometricTensor<double>(type, x), c.g);
    double worst = 0;
    int compared = 0;
    for (std::size_t o = 0; o < channels; ++o)
      for (std::size_t r = 0; r < c.h; ++r)
        for (std::size_t s = 0; s < c.w; ++s) {
          const auto src = c.source(r, s, c.h, c.w);
          double expected = 0;
          for (std::size_t i = 0; i < channels; ++i) expected += c.rho[o][i] * x(0, i, src[0], src[1]);
          worst = std::max(worst, std::abs(moved.data(0, o, r, s) - expected));
          ++compared;
        }
    CHECK(compared == static_cast<int>(channels * c.h * c.w));
    // ρ(g) = Q·⊕ψ(g)·Qᵀ holds ~1e-16 (cos(π/2), Q's rounding) where the hand matrix holds 0 or ±1:
    // a few ulp of the largest value (≤ 724), 1e-15 relative.
    CHECK(worst <= 1e-15 * 724);
  }
}

TEST_CASE_TEMPLATE("transform: grid symmetries compose as the group, transform of h after g is transform of hg", T,
                   float, double) {
  struct Group {
    PlanarGroup group;
    std::vector<std::string> fields;
  };
  const std::vector<Group> groups{{PlanarGroup::cyclic(4), {"regular", "irrep_1"}},
                                  {PlanarGroup::dihedral(4), {"regular", "irrep_1,1", "irrep_0,2"}},
                                  {PlanarGroup::so2(2), {"irrep_1", "regular_2"}},
                                  {PlanarGroup::o2(3), {"irrep_1,2", "irrep_1,0", "regular_3"}}};
  gyre::Rng rng(gyre::test::seeds(1)[0]);
  int pairs = 0;
  for (const Group& gr : groups) {
    CAPTURE(gr.group.name());
    const FieldType type = field_type(gr.group, gr.fields);
    const GeometricTensor<T> x(type, random_maps<T>(2, static_cast<std::size_t>(type.size()), 7, 7, rng));
    std::vector<PlanarElement> grid;
    for (int f = 0; f < (gr.group.has_flips() ? 2 : 1); ++f)
      for (int r = 0; r < 4; ++r) grid.push_back({f, r * kPi / 2});
    for (const PlanarElement& g : grid)
      for (const PlanarElement& h : grid) {
        CAPTURE(g.flip);
        CAPTURE(g.angle);
        CAPTURE(h.flip);
        CAPTURE(h.angle);
        const auto twice = gyre::nn::transform(gyre::nn::transform(x, g), h);
        const auto once = gyre::nn::transform(x, gr.group.compose(h, g));
        // Pixels only move; the fibre matrices hold 0, ±1 and cos(π/2) ≈ 6e-17: rounding of that term only.
        CHECK(max_abs(xt::xtensor<T, 4>(twice.data - once.data)) <= 1e-15 * max_abs(x.data));
        ++pairs;
      }
  }
  CHECK(pairs == 16 + 64 + 16 + 64);
}

TEST_CASE_TEMPLATE("transform: an off-grid rotation of a smooth field is within the bilinear bound of the exact one", T,
                   float, double) {
  // Per channel a sum of two Gaussians a·exp(−|p − c|²/2s²). Bilinear interpolation with h = 1 errs by
  // ≤ (max|∂xx f| + max|∂yy f|)/8 over the cell of u = g⁻¹p; within the cell (|w − u| ≤ √2) the second
  // derivatives move by ≤ √2·D₃, D₃ = 1.3802·Σ|a|/s³ bounding every third derivative of the Gaussians
  // (max |(3t − t³)e^{−t²/2}| = 1.3802). So eᵢ ≤ (|∂xx fᵢ(u)| + |∂yy fᵢ(u)| + 2√2·D₃ᵢ)/8; ρ(g) is
  // orthogonal, so the Euclidean norm over channels of the error is ≤ ‖e‖, plus rounding.
  struct Case {
    PlanarGroup group;
    std::vector<std::string> fields;
  };
  const std::vector<Case> cases{{PlanarGroup::cyclic(8), {"regular", "irrep_1"}},
                                {PlanarGroup::dihedral(8), {"irrep_1,3", "regular"}},
                                {PlanarGroup::so2(2), {"irrep_1", "irrep_0", "regular_2"}},
                                {PlanarGroup::o2(2), {"irrep_1,1", "irrep_1,0", "irrep_1,2"}}};
  const std::size_t size = 25;
  const double centre = 12;
  int elements_checked = 0;
  for (const Case& c : cases) {
    const FieldType type = field_type(c.group, c.fields);
    const auto ci = static_cast<std::size_t>(type.size());
    for (const std::uint64_t seed : gyre::test::seeds(3)) {
      CAPTURE(seed);
      CAPTURE(type.describe());
      gyre::Rng rng(seed);
      std::vector<std::array<double, 4>> gaussians;  // a, cx, cy, s; two per channel
      Eigen::VectorXd third(ci);
      for (std::size_t i = 0; i < ci; ++i) {
        third(i) = 0;
        for (int n = 0; n < 2; ++n) {
          gaussians.push_back({rng.normal<double>(), rng.uniform<double>(-3, 3), rng.uniform<double>(-3, 3),
                               rng.uniform<double>(2, 3)});
          third(i) += 1.3802 * std::abs(gaussians.back()[0]) / std::pow(gaussians.back()[3], 3);
        }
      }
      // (value, |∂xx| + |∂yy|) of channel i at (x, y).
      const auto value = [&](std::size_t i, double x, double y) {
        std::array<double, 2> v{0, 0};
        double xx = 0, yy = 0;
        for (int n = 0; n < 2; ++n) {
          const auto& g = gaussians[2 * i + n];
          const double s2 = g[3] * g[3];
          const double e = g[0] * std::exp(-((x - g[1]) * (x - g[1]) + (y - g[2]) * (y - g[2])) / (2 * s2));
          v[0] += e;
          xx += ((x - g[1]) * (x - g[1]) / s2 - 1) / s2 * e;
          yy += ((y - g[2]) * (y - g[2]) / s2 - 1) / s2 * e;
        }
        v[1] = std::abs(xx) + std::abs(yy);
        return v;
      };
      xt::xtensor<T, 4> x = xt::zeros<T>({std::size_t(1), ci, size, size});
      for (std::size_t i = 0; i < ci; ++i)
        for (std::size_t r = 0; r < size; ++r)
          for (std::size_t s = 0; s < size; ++s) x(0, i, r, s) = static_cast<T>(value(i, s - centre, centre - r)[0]);
      const PlanarElement g =
          c.group.is_finite()
              ? PlanarElement{c.group.has_flips() ? 1 : 0, (1 + 2 * rng.uniform_int(0, 3)) * kPi / 4}
              : PlanarElement{c.group.has_flips() ? int(rng.uniform_int(0, 1)) : 0, rng.uniform<double>(0, 2 * kPi)};
      CAPTURE(g.flip);
      CAPTURE(g.angle);
      REQUIRE_FALSE(gyre::nn::is_grid_symmetry(g));
      const auto moved = gyre::nn::transform(GeometricTensor<T>(type, x), g);
      const Matrix<double> rho = type.representation_matrix(g);
      const PlanarElement inv = c.group.inverse(g);
      // float: the samples carry 6e-8 relative rounding, and the bilinear sums a few more.
      const double rounding = static_cast<double>(gyre::test::tol<T>(1e-14, 1e-6f)) * max_abs(x);
      double worst_ratio = 0, worst_error = 0, worst_bound = 0;
      int pixels = 0;
      for (std::size_t r = 0; r < size; ++r)
        for (std::size_t s = 0; s < size; ++s) {
          const double px = s - centre, py = centre - r;
          if (std::hypot(px, py) > centre - 1.5) continue;  // g⁻¹p and its cell stay inside the map
          // u = g⁻¹p = R(θ')·Fᶠ'·p for g⁻¹ = (f', θ').
          const double fx = inv.flip ? -px : px;
          const double ux = std::cos(inv.angle) * fx - std::sin(inv.angle) * py;
          const double uy = std::sin(inv.angle) * fx + std::cos(inv.angle) * py;
          Eigen::VectorXd exact(ci), got(ci), bound(ci);
          for (std::size_t i = 0; i < ci; ++i) {
            const auto v = value(i, ux, uy);
            exact(i) = v[0];
            bound(i) = (v[1] + 2 * std::sqrt(2.0) * third(i)) / 8;
          }
          exact = rho * exact;
          for (std::size_t i = 0; i < ci; ++i) got(i) = static_cast<double>(moved.data(0, i, r, s));
          const double error = (got - exact).norm();
          worst_ratio = std::max(worst_ratio, error / (bound.norm() + rounding));
          worst_bound = std::max(worst_bound, bound.norm());
          worst_error = std::max(worst_error, error);
          ++pixels;
        }
      CAPTURE(worst_error);
      CAPTURE(worst_bound);
      CHECK(pixels == 349);  // pixel centres within 10.5 of the centre
      CHECK(worst_ratio <= 1.0);
      CHECK(worst_error >= 1e-3 * worst_bound);  // resampling, not an exact permutation
      ++elements_checked;
    }
  }
  CHECK(elements_checked == 12);
}

TEST_CASE_TEMPLATE("transform: on a field constant in space every element acts by rho alone", T, float, double) {
  // ρ written out: SO(2) irrep_k = R(kθ); O(2) irrep_1,k = R(kθ)·diag(1, −1)^f, irrep_1,0 = (−1)^f;
  // C8 regular: rotation by r·45° sends e_m to e_{m+r}.
  const auto rotation = [](double a) {
    Matrix<double> m(2, 2);
    m << std::cos(a), -std::sin(a), std::sin(a), std::cos(a);
    return m;
  };
  gyre::Rng rng(gyre::test::seeds(1)[0]);
  int checked = 0;
  for (const std::uint64_t seed : gyre::test::seeds(4)) {
    CAPTURE(seed);
    gyre::Rng draw(seed);
    const double theta = draw.uniform<double>(0, 2 * kPi);
    const int f = static_cast<int>(draw.uniform_int(0, 1));
    const int r = static_cast<int>(draw.uniform_int(0, 7));
    struct Case {
      PlanarGroup group;
      std::string field;
      PlanarElement g;
      Matrix<double> rho;
    };
    Matrix<double> flip = Matrix<double>::Identity(2, 2);
    flip(1, 1) = f ? -1 : 1;
    Matrix<double> shift = Matrix<double>::Zero(8, 8);
    for (int m = 0; m < 8; ++m) shift((m + r) % 8, m) = 1;
    const std::vector<Case> cases{
        {PlanarGroup::so2(3), "irrep_1", {0, theta}, rotation(theta)},
        {PlanarGroup::so2(3), "irrep_3", {0, theta}, rotation(3 * theta)},
        {PlanarGroup::o2(2), "irrep_1,2", {f, theta}, rotation(2 * theta) * flip},
        {PlanarGroup::o2(2), "irrep_1,0", {f, theta}, Matrix<double>::Constant(1, 1, f ? -1.0 : 1.0)},
        {PlanarGroup::cyclic(8), "regular", {0, r * kPi / 4}, shift},
    };
    for (const Case& c : cases) {
      CAPTURE(c.group.name());
      CAPTURE(c.field);
      const FieldType type = field_type(c.group, {c.field});
      const auto ci = static_cast<std::size_t>(type.size());
      Eigen::VectorXd v(ci);
      for (Eigen::Index e = 0; e < v.size(); ++e) v(e) = rng.normal<double>();
      xt::xtensor<T, 4> x = xt::zeros<T>({std::size_t(1), ci, std::size_t(9), std::size_t(9)});
      for (std::size_t i = 0; i < ci; ++i)
        for (std::size_t p = 0; p < 81; ++p) x(0, i, p / 9, p % 9) = static_cast<T>(v(i));
      const auto moved = gyre::nn::transform(GeometricTensor<T>(type, x), c.g);
      const Eigen::VectorXd expected = c.rho * v.cast<T>().template cast<double>();
      double worst = 0;
      for (std::size_t p = 0; p < 81; ++p) {
        const double px = double(p % 9) - 4, py = 4 - double(p / 9);
        if (std::hypot(px, py) > 2.5) continue;  // all four bilinear neighbours of g⁻¹p inside the map
        for (std::size_t i = 0; i < ci; ++i)
          worst = std::max(worst, std::abs(static_cast<double>(moved.data(0, i, p / 9, p % 9)) - expected(i)));
      }
      // Bilinear weights sum to 1 up to rounding; ρ's entries are cos/sin to 1 ulp.
      CHECK(worst <= static_cast<double>(gyre::test::tol<T>(1e-14, 1e-6f)) * (1 + v.norm()));
      ++checked;
    }
  }
  CHECK(checked == 20);
}

TEST_CASE("transform_adjoint: <g·x, y> = <x, adjoint(y)> on and off the grid, for every field kind") {
  // The adjoint is what module backwards use: it must be the exact transpose, to rounding (1e-13
  // relative in double), for permutations, bilinear resampling and channel mixing by ρ(g) alike.
  struct Case {
    PlanarGroup group;
    std::vector<std::string> fields;
  };
  const std::vector<Case> cases{{PlanarGroup::cyclic(8), {"regular", "irrep_1"}},
                                {PlanarGroup::dihedral(4), {"irrep_1,1", "regular"}},
                                {PlanarGroup::so2(2), {"irrep_1", "irrep_0"}},
                                {PlanarGroup::o2(2), {"irrep_1,1", "irrep_1,0"}}};
  int checked = 0;
  for (const Case& c : cases) {
    const FieldType type = field_type(c.group, c.fields);
    for (const std::uint64_t seed : gyre::test::seeds(4)) {
      CAPTURE(seed);
      CAPTURE(type.describe());
      gyre::Rng rng(seed);
      const auto ci = static_cast<std::size_t>(type.size());
      const GeometricTensor<double> x(type, random_maps<double>(2, ci, 11, 11, rng));
      const GeometricTensor<double> y(type, random_maps<double>(2, ci, 11, 11, rng));
      // A random element: every element of a finite group is a grid symmetry or not at random (C8's
      // odd ones resample); SO(2) and O(2) get an off-grid angle (and a flip) and a quarter turn.
      std::vector<PlanarElement> elements;
      if (c.group.is_finite()) {
        const std::vector<PlanarElement> all = c.group.elements();
        elements.push_back(all[static_cast<std::size_t>(rng.uniform_int(0, c.group.order() - 1))]);
      } else {
        elements.push_back({c.group.has_flips() ? 1 : 0, rng.uniform<double>(0, 2 * kPi)});
        elements.push_back({0, kPi / 2});
      }
      for (const PlanarElement& g : elements) {
        const auto gx = gyre::nn::transform(x, g).data;
        const auto adjoint = gyre::nn::transform_adjoint(y, g).data;
        double left = 0, right = 0, scale = 0;
        for (std::size_t i = 0; i < gx.size(); ++i) {
          left += gx.data()[i] * y.data.data()[i];
          right += x.data.data()[i] * adjoint.data()[i];
          scale += std::abs(gx.data()[i] * y.data.data()[i]);
        }
        CHECK(std::abs(left - right) <= 1e-13 * scale);
        ++checked;
      }
    }
  }
  CHECK(checked == 24);  // 2 × 4 finite + 2 × 2 × 4 continuous
}

TEST_CASE("transform_angle_derivative: equals central differences of transform in the angle") {
  // Bilinear resampling is smooth in θ except where a source point crosses a pixel line; with step
  // 1e-6 at random angles no crossing happens on these seeds, and the difference errs by rounding
  // (1e-16/1e-6) plus h²·(curvature): 1e-8 relative to the largest slope.
  const PlanarGroup o2 = PlanarGroup::o2(1);
  const FieldType type = field_type(o2, {"irrep_0,0", "irrep_0,0"});
  for (const std::uint64_t seed : gyre::test::seeds(6)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    const GeometricTensor<double> x(type, random_maps<double>(2, 2, 9, 13, rng));
    const PlanarElement g{static_cast<int>(seed % 2), rng.uniform<double>(0, 2 * kPi)};
    const double step = 1e-6;
    const auto plus = gyre::nn::transform(x, {g.flip, g.angle + step}).data;
    const auto minus = gyre::nn::transform(x, {g.flip, g.angle - step}).data;
    const auto slope = gyre::nn::transform_angle_derivative(x, g).data;
    double worst = 0, largest = 0;
    for (std::size_t i = 0; i < slope.size(); ++i) {
      worst = std::max(worst, std::abs((plus.data()[i] - minus.data()[i]) / (2 * step) - slope.data()[i]));
      largest = std::max(largest, std::abs(slope.data()[i]));
    }
    CHECK(largest > 0.1);
    CHECK(worst <= 1e-8 * largest);
  }
  // Non-scalar fields: ρ(g) would depend on θ too, which the derivative does not cover.
  const FieldType vectors = field_type(PlanarGroup::so2(1), {"irrep_1"});
  gyre::Rng rng(1);
  CHECK_THROWS_AS(static_cast<void>(gyre::nn::transform_angle_derivative(
                      GeometricTensor<double>(vectors, random_maps<double>(1, 2, 5, 5, rng)), PlanarElement{0, 0.3})),
                  gyre::DomainError);
}
