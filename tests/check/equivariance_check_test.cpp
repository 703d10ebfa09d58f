// The equivariance checker itself: it must be able to say "no". A NaN row, an all-zero output and
// a non-equivariant layer fail every verdict; entries near 1e300 neither overflow nor hide a gap.

#include <cmath>
#include <limits>
#include <string>

#include <doctest/doctest.h>
#include <xtensor/xview.hpp>

#include "gyre/check/equivariance.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/nn/r2conv.hpp"
#include "gyre/repr/representation.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::nn::FieldType;
using gyre::nn::GeometricTensor;
using gyre::repr::PlanarGroup;

// y = a·x + b: equivariant for every field type when b = 0; a NaN coefficient poisons the output.
class Affine final : public gyre::nn::Module<double> {
 public:
  Affine(FieldType type, double a, double b) : type_(std::move(type)), a_(a), b_(b) {}
  GeometricTensor<double> forward(const GeometricTensor<double>& x) override {
    return GeometricTensor<double>(type_, xt::xtensor<double, 4>(a_ * x.data + b_));
  }
  GeometricTensor<double> backward(const GeometricTensor<double>& g) override {
    return GeometricTensor<double>(type_, xt::xtensor<double, 4>(a_ * g.data));
  }
  [[nodiscard]] const gyre::nn::TensorType& in_type() const override { return type_; }
  [[nodiscard]] const gyre::nn::TensorType& out_type() const override { return type_; }
  // Stateless: backward needs nothing from forward.
  [[nodiscard]] std::size_t pending_calls() const override { return 0; }
  void discard_saved() override {}
  [[nodiscard]] std::string describe() const override { return "Affine"; }

 private:
  gyre::nn::TensorType type_;
  double a_;
  double b_;
};

// Doubles channel 0 only: breaks the permutation symmetry of a regular field.
class FirstChannelDoubled final : public gyre::nn::Module<double> {
 public:
  explicit FirstChannelDoubled(FieldType type) : type_(std::move(type)) {}
  GeometricTensor<double> forward(const GeometricTensor<double>& x) override {
    GeometricTensor<double> y = x;
    xt::view(y.data, xt::all(), 0) *= 2.0;
    return y;
  }
  GeometricTensor<double> backward(const GeometricTensor<double>& g) override { return forward(g); }
  [[nodiscard]] const gyre::nn::TensorType& in_type() const override { return type_; }
  [[nodiscard]] const gyre::nn::TensorType& out_type() const override { return type_; }
  // Stateless: backward needs nothing from forward.
  [[nodiscard]] std::size_t pending_calls() const override { return 0; }
  void discard_saved() override {}
  [[nodiscard]] std::string describe() const override { return "FirstChannelDoubled"; }

 private:
  gyre::nn::TensorType type_;
};

FieldType regular_c4() {
  const PlanarGroup group = PlanarGroup::cyclic(4);
  return FieldType(group, gyre::repr::regular_representation(group), 2);
}

GeometricTensor<double> random_input(const FieldType& type, double scale, std::uint64_t seed) {
  gyre::Rng rng(seed);
  xt::xtensor<double, 4> x = xt::xtensor<double, 4>::from_shape({2, static_cast<std::size_t>(type.size()), 9, 9});
  for (double& v : x) v = scale * rng.normal<double>();
  return GeometricTensor<double>(type, std::move(x));
}

}  // namespace

TEST_CASE("equivariance checker: a NaN row is the result, never dropped by max") {
  gyre::check::EquivarianceReport report;
  report.rows.push_back({{0, 0.0}, "rotation 0°", 0.0, true});
  report.rows.push_back({{0, 1.0}, "rotation 57°", std::numeric_limits<double>::quiet_NaN(), true});
  report.rows.push_back({{0, 2.0}, "rotation 114°", 0.5, true});
  CHECK(std::isnan(report.max_error()));
  CHECK(std::isnan(report.max_grid_symmetry_error()));
  CHECK_FALSE(report.equivariant_on_grid(1.0));
}

TEST_CASE("equivariance checker: a layer with a NaN output fails, with NaN in its rows") {
  const FieldType type = regular_c4();
  Affine poisoned(type, std::numeric_limits<double>::quiet_NaN(), 0.0);
  const auto report = gyre::check::check_equivariance(poisoned, random_input(type, 1.0, 3));
  REQUIRE(report.rows.size() == 4);
  CHECK(std::isnan(report.max_grid_symmetry_error()));
  CHECK_FALSE(report.equivariant_on_grid(1e-12));
  CHECK(report.table().find("nan") != std::string::npos);
}

TEST_CASE("equivariance checker: an all-zero output is a failure, not a perfect score") {
  const FieldType type = regular_c4();
  Affine zero(type, 0.0, 0.0);
  const auto report = gyre::check::check_equivariance(zero, random_input(type, 1.0, 5));
  REQUIRE(report.rows.size() == 4);
  CHECK(report.zero_output());
  CHECK(report.max_grid_symmetry_error() == std::numeric_limits<double>::infinity());
  CHECK(report.max_error() == std::numeric_limits<double>::infinity());
  CHECK_FALSE(report.equivariant_on_grid(1e-12));
  CHECK(report.table().find("the output is identically zero") != std::string::npos);

  // The same through a real layer: a bias-free R2Conv on a zero input.
  gyre::nn::R2Conv<double> conv(type, type, 3, {1, 1, 1, false, std::nullopt, 7});
  conv.eval();
  const auto conv_report = gyre::check::check_equivariance(conv, random_input(type, 0.0, 5));
  CHECK(conv_report.zero_output());
  CHECK_FALSE(conv_report.equivariant_on_grid(1e-12));
}

TEST_CASE("equivariance checker: a non-equivariant layer fails, equivariant ones pass") {
  const FieldType type = regular_c4();
  const auto x = random_input(type, 1.0, 9);
  // Regular fields permute their channels under C4, and a constant shift or a scalar commutes with
  // permutations: equivariant. ρ(g) is applied as Q·(⊕ψ)·Qᵀ in double, so the permutation is exact
  // only to rounding: 1e-15 is a few ε.
  Affine shifted(type, 1.0, 0.25);
  Affine scaled(type, -3.0, 0.0);
  CHECK(gyre::check::check_equivariance(shifted, x).equivariant_on_grid(1e-15));
  CHECK(gyre::check::check_equivariance(scaled, x).equivariant_on_grid(1e-15));

  // Scaling one channel of a regular field singles out one rotation: not equivariant.
  FirstChannelDoubled broken(type);
  const auto report = gyre::check::check_equivariance(broken, x);
  CHECK(report.rows[0].relative_error <= 1e-15);  // the identity commutes with anything (to rounding, as above)
  CHECK(report.max_grid_symmetry_error() > 0.1);  // about ‖x_c‖/‖y‖ for the moved channel
  CHECK_FALSE(report.equivariant_on_grid(1e-3));

  // A steerable R2Conv passes to rounding (exact pixel permutations in double).
  gyre::nn::R2Conv<double> conv(type, type, 3, {1, 1, 1, false, std::nullopt, 11});
  conv.eval();
  CHECK(gyre::check::check_equivariance(conv, x).equivariant_on_grid(1e-12));
}

TEST_CASE("equivariance checker: entries near 1e300 neither overflow to NaN nor hide the gap") {
  const FieldType type = regular_c4();
  Affine scaled(type, 0.5, 0.0);
  const auto report = gyre::check::check_equivariance(scaled, random_input(type, 1e300, 17));
  CHECK(report.max_grid_symmetry_error() <= 1e-15);  // relative: ρ's rounding stays a few ε at any scale
  CHECK(report.equivariant_on_grid(1e-15));
  const auto tiny = gyre::check::check_equivariance(scaled, random_input(type, 1e-300, 17));
  CHECK(tiny.equivariant_on_grid(1e-15));  // 1e-300² underflows: the scaled norm does not
}
