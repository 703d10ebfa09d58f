// GBW-RBN (gyre/nn/gbw_batch_norm.hpp) held to its guarantee with an independent reference: the
// deformation φ(X) = M^-½·X^θ·M^-½ recomputed here from spd_power, and gyre::frechet_mean /
// frechet_variance under Bures–Wasserstein on the deformed batches (GBW distances are BW distances
// of φ-images divided by |θ|). In training mode with the converged mean, the output's GBW Fréchet
// mean is the bias W and its variance s²·v/(v + ε), v the input's GBW Fréchet variance. Backward
// against central differences along the manifold for the input, W, M and s.
//
// Budgets (double): the guarantee 1e-9 relative (Karcher means to 8ε on matrices of condition ≤ 10,
// a few eigendecompositions and BW transports); the identity deformation equals the plain BW
// Riemannian BN to 1e-12; gradients 1e-7 with h = 1e-5: the forward's iterative parts (the Karcher
// mean, BW transport's step doubling) are exact to ~1e-13 relative, so central differences carry
// noise ≈ 1e-13/h (measured: the metric's error 1.7e-7 at h = 1e-6, 9e-9 at 1e-5, 1e-9 at 1e-4)
// and truncation ≈ h² ≈ 1e-10, while a missing term is O(1e-2); the detached gradient equals the
// eval-mode one at the batch's statistics to 1e-10; float within 1e-3 of double (float's
// ε ≈ 1e-7 through ~10 eigensolves).

#include "gyre/nn/gbw_batch_norm.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

#include <doctest/doctest.h>
#include <xtensor/xview.hpp>

#include "gradient_report_check.hpp"
#include "gyre/check/gradient_check.hpp"
#include "gyre/geometry/frechet_mean.hpp"
#include "gyre/geometry/frechet_variance.hpp"
#include "gyre/linalg/symmetric_functions.hpp"
#include "gyre/nn/manifold_fibers.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::Matrix;
using gyre::nn::GbwBatchNorm;
using gyre::nn::GbwBatchNormOptions;
using gyre::nn::GeometricTensor;

constexpr int kN = 3;
constexpr std::size_t kBatch = 6;
constexpr std::size_t kChannels = 2;
constexpr double kGuaranteeTolerance = 1e-9;
constexpr double kGradientStep = 1e-5;
constexpr double kGradientTolerance = 1e-7;

// An SPD matrix exp(S) with S symmetric of Frobenius norm ≤ radius.
Matrix<double> random_spd(double radius, gyre::Rng& rng) {
  Matrix<double> s(kN, kN);
  for (int i = 0; i < kN; ++i)
    for (int j = 0; j < kN; ++j) s(i, j) = rng.normal<double>();
  s = (s + s.transpose()).eval();
  s *= rng.uniform<double>(0.05, radius) / s.norm();
  return gyre::linalg::symmetric_exp<double>(s);
}

xt::xarray<double> spd_array(std::vector<std::size_t> leading, double radius, gyre::Rng& rng) {
  std::size_t count = 1;
  for (const std::size_t d : leading) count *= d;
  leading.push_back(kN);
  leading.push_back(kN);
  xt::xarray<double> a = xt::xarray<double>::from_shape(leading);
  for (std::size_t k = 0; k < count; ++k) {
    const Matrix<double> m = random_spd(radius, rng);
    for (int i = 0; i < kN; ++i)
      for (int j = 0; j < kN; ++j) a.data()[k * kN * kN + static_cast<std::size_t>(i * kN + j)] = m(i, j);
  }
  return a;
}

Matrix<double> item(const xt::xarray<double>& a, std::size_t k) {
  Matrix<double> m(kN, kN);
  for (int i = 0; i < kN; ++i)
    for (int j = 0; j < kN; ++j) m(i, j) = a.data()[k * kN * kN + static_cast<std::size_t>(i * kN + j)];
  return m;
}

// φ(X) = M^-½·X^θ·M^-½, written from its definition.
Matrix<double> deform(const Matrix<double>& x, const Matrix<double>& m, double theta) {
  const Matrix<double> a = gyre::linalg::spd_power<double>(m, -0.5);
  return a * gyre::linalg::spd_power<double>(x, theta) * a;
}

struct Case {
  double theta;
  bool random_metric;
};

void check_guarantee(const Case& setting) {
  for (const std::uint64_t seed : gyre::test::seeds(3)) {
    CAPTURE(seed);
    CAPTURE(setting.theta);
    gyre::Rng rng(seed);
    GbwBatchNormOptions options;
    options.theta = setting.theta;
    GbwBatchNorm<double> layer(gyre::nn::spd_features(kN, kChannels), options);
    const xt::xarray<double> input = spd_array({kBatch, kChannels}, 1.0, rng);
    layer.bias().value = spd_array({kChannels}, 1.0, rng);
    if (setting.random_metric) layer.metric().value = spd_array({kChannels}, 1.0, rng);
    // BW's exp is minimising only inside a finite cut locus: a small output spread keeps it there.
    layer.scale().value = xt::xarray<double>({0.2, 0.3});
    const xt::xarray<double> out = layer.forward(GeometricTensor<double>(layer.in_type(), input)).data;
    const gyre::SpdBuresWasserstein<double> bw(kN);
    gyre::FrechetMeanOptions tight;
    tight.max_iterations = 1000;
    const double metric_scale = 1 / (setting.theta * setting.theta);
    for (std::size_t c = 0; c < kChannels; ++c) {
      CAPTURE(c);
      const Matrix<double> m = item(layer.metric().value, c);
      std::vector<Matrix<double>> in, outputs;
      for (std::size_t b = 0; b < kBatch; ++b) {
        in.push_back(deform(item(input, b * kChannels + c), m, setting.theta));
        outputs.push_back(deform(item(out, b * kChannels + c), m, setting.theta));
      }
      const double v = metric_scale * gyre::frechet_variance(bw, gyre::frechet_mean(bw, in, {}, tight).point, in);
      CHECK(std::abs(layer.batch_variance()(c) - v) <= kGuaranteeTolerance * v);
      const Matrix<double> w = deform(item(layer.bias().value, c), m, setting.theta);
      CHECK(bw.dist(gyre::frechet_mean(bw, outputs, {}, tight).point, w) <= kGuaranteeTolerance);
      const double s = layer.scale().value(c);
      const double expected = s * s * v / (v + options.batch_norm.eps);
      CHECK(std::abs(metric_scale * gyre::frechet_variance(bw, w, outputs) - expected) <=
            kGuaranteeTolerance * expected);
    }
  }
}

void check_backward(const GbwBatchNormOptions& options) {
  for (const std::uint64_t seed : gyre::test::seeds(2)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    GbwBatchNorm<double> layer(gyre::nn::spd_features(kN, kChannels), options);
    const xt::xarray<double> input = spd_array({kBatch, kChannels}, 1.0, rng);
    layer.bias().value = spd_array({kChannels}, 0.8, rng);
    layer.metric().value = spd_array({kChannels}, 0.8, rng);
    layer.scale().value = xt::xarray<double>({0.6, 1.3});
    gyre::test::check_report(
        gyre::check::check_gradients(layer, GeometricTensor<double>(layer.in_type(), input), kGradientStep, seed),
        {"input", "GbwBatchNorm.bias", "GbwBatchNorm.metric", "GbwBatchNorm.scale"}, kGradientTolerance);
  }
}

}  // namespace

TEST_CASE("GBW-RBN: the output has the bias as GBW Fréchet mean and variance s²v/(v+ε)") {
  SUBCASE("M = I, θ = 1 (Bures–Wasserstein)") { check_guarantee({1.0, false}); }
  SUBCASE("random M, θ = 1") { check_guarantee({1.0, true}); }
  SUBCASE("random M, θ = 0.5") { check_guarantee({0.5, true}); }
  SUBCASE("random M, θ = 1.5") { check_guarantee({1.5, true}); }
}

TEST_CASE("GBW-RBN with M = I and θ = 1 is the Bures–Wasserstein Riemannian BN") {
  gyre::Rng rng(41);
  GbwBatchNorm<double> gbw(gyre::nn::spd_features(kN, kChannels));
  const gyre::nn::TensorType bw_type(gyre::nn::Base::kNone, gyre::nn::ManifoldFiber::of<gyre::SpdBuresWasserstein>(
                                                                static_cast<int>(kChannels), "BW", kN));
  gyre::nn::RiemannianBatchNorm<gyre::SpdBuresWasserstein<double>> rbn(
      gyre::nn::TransportCentring<gyre::SpdBuresWasserstein<double>>(gyre::SpdBuresWasserstein<double>(kN),
                                                                     Matrix<double>::Identity(kN, kN)),
      bw_type);
  const xt::xarray<double> input = spd_array({kBatch, kChannels}, 1.0, rng);
  const xt::xarray<double> bias = spd_array({kChannels}, 0.5, rng);
  gbw.bias().value = bias;
  rbn.bias().value = bias;
  gbw.scale().value = rbn.scale().value = xt::xarray<double>({0.4, 0.7});
  const xt::xarray<double> a = gbw.forward(GeometricTensor<double>(gbw.in_type(), input)).data;
  const xt::xarray<double> b = rbn.forward(GeometricTensor<double>(bw_type, input)).data;
  CHECK(xt::amax(xt::abs(a - b))() <= 1e-12);
}

TEST_CASE("GBW-RBN backward: input, bias, metric and scale against central differences") {
  SUBCASE("θ = 1, through the converged mean") { check_backward({}); }
  GbwBatchNormOptions deformed;
  deformed.theta = 0.5;
  SUBCASE("θ = 0.5, through the converged mean") { check_backward(deformed); }
}

TEST_CASE("GBW-RBN with detached statistics: the eval-mode gradient at the batch's mean and variance") {
  gyre::Rng rng(53);
  const xt::xarray<double> input = spd_array({kBatch, kChannels}, 1.0, rng);
  const xt::xarray<double> bias = spd_array({kChannels}, 0.8, rng);
  const xt::xarray<double> metric = spd_array({kChannels}, 0.8, rng);
  const xt::xarray<double> grad_output = spd_array({kBatch, kChannels}, 1.0, rng);
  const auto gradients = [&](bool detach, bool through_eval) {
    GbwBatchNormOptions options;
    options.theta = 0.5;
    options.batch_norm.momentum = 1;  // the running statistics become the batch's
    options.batch_norm.detach_statistics = detach;
    GbwBatchNorm<double> layer(gyre::nn::spd_features(kN, kChannels), options);
    layer.bias().value = bias;
    layer.metric().value = metric;
    layer.scale().value = xt::xarray<double>({0.6, 1.3});
    const GeometricTensor<double> x(layer.in_type(), input);
    (void)layer.forward(x);
    if (through_eval) {
      layer.discard_saved();
      layer.eval();
      (void)layer.forward(x);
    }
    std::vector<xt::xarray<double>> grads = {
        layer.backward(GeometricTensor<double>(layer.in_type(), grad_output)).data};
    for (const auto* p : layer.parameters()) grads.push_back(p->grad);
    return grads;
  };
  const auto detached = gradients(true, false);
  const auto eval = gradients(false, true);
  const auto full = gradients(false, false);
  double detached_vs_full = 0;
  for (std::size_t k = 0; k < detached.size(); ++k) {
    CAPTURE(k);
    CHECK(xt::amax(xt::abs(detached[k] - eval[k]))() <= 1e-10 * (1 + xt::amax(xt::abs(eval[k]))()));
    detached_vs_full = std::max(detached_vs_full, xt::amax(xt::abs(detached[k] - full[k]))());
  }
  CHECK(detached_vs_full > 1e-3);  // the statistics' terms are not negligible here
}

TEST_CASE("GBW-RBN: eval mode, a fixed metric, float against double") {
  gyre::Rng rng(43);
  GbwBatchNormOptions options;
  options.theta = 0.5;
  options.batch_norm.momentum = 1;
  GbwBatchNorm<double> layer(gyre::nn::spd_features(kN, kChannels), options);
  CHECK(layer.parameters().size() == 3);
  layer.metric().value = spd_array({kChannels}, 0.5, rng);
  const GeometricTensor<double> input(layer.in_type(), spd_array({kBatch, kChannels}, 1.0, rng));
  const xt::xarray<double> trained = layer.forward(input).data;
  layer.discard_saved();
  layer.eval();
  CHECK(xt::amax(xt::abs(layer.forward(input).data - trained))() <= 1e-10);

  GbwBatchNormOptions fixed;
  fixed.learn_metric = false;
  GbwBatchNorm<double> plain(gyre::nn::spd_features(kN, kChannels), fixed);
  CHECK(plain.parameters().size() == 2);

  GbwBatchNorm<float> single(gyre::nn::spd_features(kN, kChannels), options);
  single.metric().value = xt::cast<float>(layer.metric().value);
  const xt::xarray<float> out =
      single.forward(GeometricTensor<float>(single.in_type(), xt::cast<float>(input.data))).data;
  CHECK(xt::amax(xt::abs(xt::cast<double>(out) - trained))() <= 1e-3);
}

TEST_CASE("GBW-RBN: bad input is refused, naming the layer") {
  const gyre::nn::TensorType type = gyre::nn::spd_features(kN, kChannels);
  GbwBatchNormOptions zero;
  zero.theta = 0;
  CHECK_THROWS_AS(GbwBatchNorm<double>(type, zero), gyre::DomainError);
  GbwBatchNormOptions nan;
  nan.theta = std::nan("");
  CHECK_THROWS_AS(GbwBatchNorm<double>(type, nan), gyre::DomainError);
  GbwBatchNormOptions scaled;
  scaled.batch_norm.metric_scale = 2;
  CHECK_THROWS_AS(GbwBatchNorm<double>(type, scaled), gyre::DomainError);
  CHECK_THROWS_AS(GbwBatchNorm<double>(gyre::nn::grassmann_features(4, 2, 1)), gyre::ShapeError);

  gyre::Rng rng(47);
  GbwBatchNorm<double> layer(type);
  const xt::xarray<double> good = spd_array({kBatch, kChannels}, 1.0, rng);
  xt::xarray<double> one = xt::view(good, xt::range(0, 1));
  CHECK_THROWS_AS((void)layer.forward(GeometricTensor<double>(type, one)), gyre::ShapeError);
  xt::xarray<double> indefinite = good;
  indefinite(0, 0, 0, 0) = -5;
  CHECK_THROWS_AS((void)layer.forward(GeometricTensor<double>(type, indefinite)), gyre::DomainError);
  xt::xarray<double> nan_input = good;
  nan_input(1, 1, 2, 2) = std::nan("");
  CHECK_THROWS_AS((void)layer.forward(GeometricTensor<double>(type, nan_input)), gyre::DomainError);
  xt::xarray<double> huge = good;
  huge(0, 0, 0, 0) = 1e300;  // SPD, but its square roots and the BW mean overflow: refused, not NaN
  try {
    const xt::xarray<double> out = layer.forward(GeometricTensor<double>(type, huge)).data;
    CHECK(xt::all(xt::isfinite(out)));
  } catch (const gyre::Error& e) {
    CHECK(std::string(e.what()).size() > 0);
  }
  layer.discard_saved();
  layer.metric().value(0, 0, 0) = -1;  // a metric pushed off SPD by a bad update
  CHECK_THROWS_AS((void)layer.forward(GeometricTensor<double>(type, good)), gyre::DomainError);
}
