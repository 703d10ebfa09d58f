// Nonlinearities, pooling, batch norm, Sequential, the plain convolution and the loss: backward
// passes against central finite differences, equivariance under the grid symmetries, type checks.

#include <cmath>
#include <memory>

#include <doctest/doctest.h>

#include "gyre/check/equivariance.hpp"
#include "gyre/check/gradient_check.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/nn/cross_entropy.hpp"
#include "gyre/nn/field_nonlinearity.hpp"
#include "gyre/nn/inner_batch_norm.hpp"
#include "gyre/nn/plain_conv2d.hpp"
#include "gyre/nn/pointwise_nonlinearity.hpp"
#include "gyre/nn/pooling.hpp"
#include "gyre/nn/r2conv.hpp"
#include "gyre/nn/sequential.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::nn::FieldType;
using gyre::nn::GeometricTensor;
using gyre::repr::PlanarGroup;

GeometricTensor<double> random_tensor(const gyre::nn::TensorType& type, std::size_t n, std::size_t h, std::size_t w,
                                      std::uint64_t seed) {
  gyre::Rng rng(seed);
  xt::xtensor<double, 4> x = xt::xtensor<double, 4>::from_shape({n, std::size_t(type.channels()), h, w});
  for (double& v : x) v = rng.normal<double>();
  return GeometricTensor<double>(type, std::move(x));
}

// Rotations by quarter turns (and flips when the group has them).
std::vector<gyre::repr::PlanarElement> grid_elements(const PlanarGroup& group) {
  std::vector<gyre::repr::PlanarElement> result;
  for (int f = 0; f < (group.has_flips() ? 2 : 1); ++f) {
    for (int q = 0; q < 4; ++q) {
      const gyre::repr::PlanarElement g{f, q * boost::math::constants::half_pi<double>()};
      if (group.contains(g)) result.push_back(g);
    }
  }
  return result;
}

const PlanarGroup kD4 = PlanarGroup::dihedral(4);
const PlanarGroup kC8 = PlanarGroup::cyclic(8);

FieldType regular_fields(const PlanarGroup& g, int n) { return FieldType(g, gyre::repr::regular_representation(g), n); }
FieldType mixed_d4() {
  return FieldType(kD4, {gyre::repr::irrep_representation(kD4, {1, 1}), gyre::repr::regular_representation(kD4),
                         gyre::repr::irrep_representation(kD4, {1, 0})});
}

// Central differences with h = 1e-6 on functions with bounded third derivatives: truncation
// ≈ h²·|f'''| ≈ 1e-12 and rounding ≈ ε/h ≈ 1e-10, so 1e-7 relative is a clear pass/fail line.
constexpr double kGradientTolerance = 1e-7;

}  // namespace

TEST_CASE("layers: backward passes match central finite differences") {
  std::vector<std::unique_ptr<gyre::nn::Module<double>>> modules;
  modules.push_back(std::make_unique<gyre::nn::PointwiseReLU<double>>(regular_fields(kD4, 2)));
  modules.push_back(std::make_unique<gyre::nn::PointwiseELU<double>>(regular_fields(kC8, 2), 0.7));
  modules.push_back(std::make_unique<gyre::nn::NormReLU<double>>(mixed_d4()));
  modules.push_back(std::make_unique<gyre::nn::GatedNonlinearity<double>>(mixed_d4()));
  modules.push_back(std::make_unique<gyre::nn::PointwiseMaxPool<double>>(regular_fields(kD4, 2), 2));
  modules.push_back(std::make_unique<gyre::nn::PointwiseMaxPool<double>>(regular_fields(kC8, 1), 3, 2, 1));
  modules.push_back(std::make_unique<gyre::nn::NormMaxPool<double>>(mixed_d4(), 2));
  modules.push_back(std::make_unique<gyre::nn::PointwiseAvgPool<double>>(mixed_d4(), 3, 2, 1));
  modules.push_back(std::make_unique<gyre::nn::GroupPooling<double>>(regular_fields(kC8, 3)));
  modules.push_back(std::make_unique<gyre::nn::GlobalAveragePool<double>>(mixed_d4()));
  modules.push_back(std::make_unique<gyre::nn::InnerBatchNorm<double>>(regular_fields(kD4, 3)));
  modules.push_back(
      std::make_unique<gyre::nn::PlainConv2d<double>>(3, 4, 3, gyre::nn::Conv2dGeometry{2, 1, 1}, true, 7));
  for (auto& module : modules) {
    CAPTURE(module->describe());
    // Non-zero biases and weights so that every path of the layer is exercised.
    gyre::Rng rng(3);
    for (auto* p : module->parameters()) {
      for (double& v : p->value) v += 0.3 * rng.normal<double>();
    }
    const auto x = random_tensor(module->in_type(), 2, 6, 6, 21);
    const auto report = gyre::check::check_gradients(*module, x);
    for (const auto& e : report.errors) {
      CAPTURE(e.quantity);
      CHECK(e.relative_error <= kGradientTolerance);
    }
  }
}

TEST_CASE("layers: a whole steerable network's backward matches finite differences") {
  gyre::nn::Sequential<double> net;
  const FieldType in(kD4, gyre::repr::trivial_representation(kD4), 1);
  const FieldType hidden = regular_fields(kD4, 2);
  net.emplace<gyre::nn::R2Conv<double>>(in, hidden, 3, gyre::nn::R2ConvOptions{1, 1, 1, true, std::nullopt, 1});
  net.emplace<gyre::nn::InnerBatchNorm<double>>(hidden);
  net.emplace<gyre::nn::PointwiseELU<double>>(hidden);
  net.emplace<gyre::nn::PointwiseAvgPool<double>>(hidden, 2);
  net.emplace<gyre::nn::GroupPooling<double>>(hidden);
  net.emplace<gyre::nn::GlobalAveragePool<double>>(FieldType(kD4, gyre::repr::trivial_representation(kD4), 2));
  const auto report = gyre::check::check_gradients(net, random_tensor(in, 3, 6, 6, 5));
  for (const auto& e : report.errors) {
    CAPTURE(e.quantity);
    CHECK(e.relative_error <= kGradientTolerance);
  }
}

TEST_CASE("layers: each layer commutes with the grid symmetries to 1e-12") {
  std::vector<std::unique_ptr<gyre::nn::Module<double>>> modules;
  modules.push_back(std::make_unique<gyre::nn::PointwiseReLU<double>>(regular_fields(kD4, 2)));
  modules.push_back(std::make_unique<gyre::nn::PointwiseELU<double>>(regular_fields(kC8, 2)));
  modules.push_back(std::make_unique<gyre::nn::NormReLU<double>>(mixed_d4()));
  modules.push_back(std::make_unique<gyre::nn::GatedNonlinearity<double>>(mixed_d4()));
  modules.push_back(std::make_unique<gyre::nn::PointwiseMaxPool<double>>(regular_fields(kD4, 2), 3, 2, 1));
  modules.push_back(std::make_unique<gyre::nn::NormMaxPool<double>>(mixed_d4(), 3, 2));
  modules.push_back(std::make_unique<gyre::nn::PointwiseAvgPool<double>>(mixed_d4(), 3, 2, 1));
  modules.push_back(std::make_unique<gyre::nn::GroupPooling<double>>(regular_fields(kC8, 3)));
  modules.push_back(std::make_unique<gyre::nn::GlobalAveragePool<double>>(mixed_d4()));
  modules.push_back(std::make_unique<gyre::nn::InnerBatchNorm<double>>(regular_fields(kD4, 3)));
  for (auto& module : modules) {
    CAPTURE(module->describe());
    gyre::Rng rng(4);
    for (auto* p : module->parameters()) {
      for (double& v : p->value) v += 0.3 * rng.normal<double>();
    }
    // 7×7 maps: windows of 3 with stride 2 and padding 1 tile an odd map symmetrically.
    const auto x = random_tensor(module->in_type(), 2, 7, 7, 22);
    const auto report = gyre::check::check_equivariance(*module, x, grid_elements(module->in_type().fields().group()));
    CAPTURE(report.table());
    // Grid symmetries permute pixels and channels exactly; only reordered sums round (≈ 1e-15).
    CHECK(report.max_grid_symmetry_error() <= 1e-12);
  }
}

TEST_CASE("layers: pointwise layers reject fields that are not permutation representations") {
  const FieldType vectors(kD4, gyre::repr::irrep_representation(kD4, {1, 1}), 2);
  CHECK_THROWS_WITH_AS(
      gyre::nn::PointwiseReLU<double>{vectors},
      "gyre::PointwiseReLU: pointwise nonlinearities need permutation fields (regular, quotient, trivial) (irrep_1,1)",
      gyre::DomainError);
  CHECK_THROWS_AS(gyre::nn::PointwiseMaxPool<double>(vectors, 2), gyre::DomainError);
  CHECK_THROWS_AS(gyre::nn::GroupPooling<double>{vectors}, gyre::DomainError);
  CHECK_THROWS_AS(gyre::nn::InnerBatchNorm<double>{vectors}, gyre::DomainError);
}

TEST_CASE("layers: a tensor of another type is a ShapeError naming both types") {
  gyre::nn::PointwiseReLU<double> relu(regular_fields(kD4, 2));
  const auto x = random_tensor(regular_fields(kD4, 1), 1, 3, 3, 1);
  CHECK_THROWS_WITH_AS(
      static_cast<void>(relu.forward(x)),
      "gyre::PointwiseReLU::forward: tensor types differ (expected grid × D4[2×regular]) (got grid × D4[regular])",
      gyre::ShapeError);
  gyre::nn::Sequential<double> net;
  net.emplace<gyre::nn::PointwiseReLU<double>>(regular_fields(kD4, 2));
  CHECK_THROWS_WITH_AS(
      net.emplace<gyre::nn::PointwiseReLU<double>>(regular_fields(kD4, 3)),
      "gyre::Sequential::add: tensor types differ (expected grid × D4[2×regular]) (got grid × D4[3×regular])",
      gyre::ShapeError);
}

TEST_CASE("InnerBatchNorm: training normalises each field, evaluation uses running statistics") {
  gyre::nn::InnerBatchNorm<double> bn(regular_fields(kC8, 2), 1e-5, 1.0);  // momentum 1: running = last batch
  const auto x = random_tensor(regular_fields(kC8, 2), 4, 5, 5, 8);
  const auto y = bn.forward(x);
  for (int f = 0; f < 2; ++f) {
    double sum = 0;
    double sum2 = 0;
    double count = 0;
    for (std::size_t n = 0; n < 4; ++n)
      for (std::size_t c = 0; c < 8; ++c)
        for (std::size_t p = 0; p < 25; ++p) {
          const double v = y.data.data()[(n * 16 + static_cast<std::size_t>(f) * 8 + c) * 25 + p];
          sum += v;
          sum2 += v * v;
          count += 1;
        }
    CHECK(std::abs(sum / count) <= 1e-12);  // zero mean up to rounding: 200 terms of size ≈ 1, ≈ 200·ε
    CHECK(sum2 / count == doctest::Approx(1.0).epsilon(1e-4));  // unit variance but for ε = 1e-5
  }
  bn.eval();
  const auto z = bn.forward(x);
  // Running variance is the unbiased one (count/(count − 1) larger), so eval output is slightly smaller.
  // The ratio ignores ε = 1e-5, which moves it by ≈ ε/(2·800·σ²) ≈ 6e-9 (σ² ≈ 1): hence 1e-7.
  const double ratio = std::sqrt((800.0 - 1) / 800.0);
  CHECK(z.data(0, 0, 0, 0) == doctest::Approx(y.data(0, 0, 0, 0) * ratio).epsilon(1e-7));
}

TEST_CASE("cross_entropy: value and gradient against the definition") {
  xt::xtensor<double, 2> logits{{1.0, 2.0, -1.0}, {0.5, 0.5, 3.0}, {1000.0, 0.0, -1000.0}};
  const std::vector<int> labels{1, 0, 0};
  const auto ce = gyre::nn::cross_entropy(logits, labels);
  const double l0 = -std::log(std::exp(2.0) / (std::exp(1.0) + std::exp(2.0) + std::exp(-1.0)));
  const double l1 = -std::log(std::exp(0.5) / (2 * std::exp(0.5) + std::exp(3.0)));
  // The huge logits stay finite; log-sum-exp of 3 terms against exp/log of the definition: a few ulps.
  CHECK(ce.loss == doctest::Approx((l0 + l1 + 0.0) / 3).epsilon(1e-14));
  CHECK(ce.correct == 2);
  const double step = 1e-6;
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 3; ++j) {
      auto up = logits;
      auto down = logits;
      up(i, j) += step;
      down(i, j) -= step;
      const double numeric =
          (gyre::nn::cross_entropy(up, labels).loss - gyre::nn::cross_entropy(down, labels).loss) / (2 * step);
      // h = 1e-6 on the smooth mean loss: truncation h²·|f'''| ≈ 1e-13, rounding ε·|loss|/h ≈ 1e-10.
      CHECK(ce.grad(i, j) == doctest::Approx(numeric).epsilon(1e-8));
    }
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::nn::cross_entropy(logits, {1, 0, 3})),
                       "gyre::cross_entropy: label outside [0, K) (3)", gyre::DomainError);
}
