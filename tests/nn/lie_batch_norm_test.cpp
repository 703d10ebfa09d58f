// LieBN (gyre/nn/lie_batch_norm.hpp) on every structure it is instantiated for — SPD under LEM (α, β),
// LCM (θ) and AIM (θ, α, β), and SO(3) — held to the guarantee it exists for, against Gyre's
// geometries as independent references: in training mode with the converged mean, the output batch's
// Fréchet mean (gyre::frechet_mean under the structure's metric on the ORIGINAL space: log-Euclidean,
// θ-deformed log-Cholesky, θ-deformed affine-invariant, SO(3)'s bi-invariant one) is the bias, its
// Fréchet variance is s²·v/(v + ε), and v is the input batch's Fréchet variance about its Fréchet
// mean. Backward against central differences along the manifold (input, bias, scale) through the
// converged mean's implicit derivative and through the reference mode's unrolled Karcher steps.
//
// Budgets (double): the guarantee 1e-9 relative (Karcher means to 1e-13, a handful of matrix
// functions of condition ≤ e⁴); gradients with h = 1e-6: truncation h²·|L'''| ≈ 1e-12, rounding
// ε·|L|/h ≈ 1e-10, the means' stopping residual (1e-14) over h ≈ 1e-8, so 1e-7 passes a correct
// backward while a missing term (the mean's derivative, the variance's) shows at O(1e-2).

#include "gyre/nn/lie_batch_norm.hpp"

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>
#include <xtensor/xview.hpp>

#include "gradient_report_check.hpp"
#include "gyre/check/gradient_check.hpp"
#include "gyre/geometry/frechet_mean.hpp"
#include "gyre/geometry/frechet_variance.hpp"
#include "gyre/nn/manifold_fibers.hpp"
#include "so/so.hpp"
#include "spd/affine_invariant.hpp"
#include "spd/log_cholesky.hpp"
#include "spd/log_euclidean.hpp"
#include "spd/power_deformed.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::Matrix;
using gyre::nn::GeometricTensor;
using gyre::nn::LieBatchNorm;
using gyre::nn::LieBatchNormOptions;

constexpr int kN = 3;
constexpr std::size_t kBatch = 8;
constexpr std::size_t kChannels = 2;
constexpr double kGuaranteeTolerance = 1e-9;
constexpr double kGradientStep = 1e-6;
constexpr double kGradientTolerance = 1e-7;

// An SPD matrix with eigenvalues in [e⁻², e²]: spread enough that the arithmetic mean is not the
// Karcher mean (so the reference mode takes steps) and every metric's mean differs.
Matrix<double> spread_spd(gyre::Rng& rng) {
  const Matrix<double> a = gyre::spd::random_spd<double>(kN, rng);
  return a * a;
}

// A rotation within angle 1 of a random base rotation: the batch lies inside the convexity radius
// π/2, where SO(3)'s Karcher mean is unique.
Matrix<double> nearby_rotation(const gyre::SO<double>& so, const Matrix<double>& base, gyre::Rng& rng) {
  Matrix<double> v = so.random_tangent(base, rng);
  v *= rng.uniform<double>(0.1, 1.0) / so.norm(base, v);
  return so.exp(base, v);
}

template <class Item>
xt::xarray<double> batch_of(std::size_t batch, std::size_t channels, const Item& item) {
  xt::xarray<double> data = xt::zeros<double>({batch, channels, std::size_t{kN}, std::size_t{kN}});
  for (std::size_t b = 0; b < batch; ++b) {
    for (std::size_t c = 0; c < channels; ++c) {
      const Matrix<double> x = item(c);
      for (int i = 0; i < kN; ++i)
        for (int j = 0; j < kN; ++j) data(b, c, i, j) = x(i, j);
    }
  }
  return data;
}

Matrix<double> item_at(const xt::xarray<double>& data, std::size_t b, std::size_t c) {
  Matrix<double> x(kN, kN);
  for (int i = 0; i < kN; ++i)
    for (int j = 0; j < kN; ++j) x(i, j) = data(b, c, i, j);
  return x;
}

std::vector<Matrix<double>> channel(const xt::xarray<double>& data, std::size_t c) {
  std::vector<Matrix<double>> items;
  for (std::size_t b = 0; b < data.shape()[0]; ++b) items.push_back(item_at(data, b, c));
  return items;
}

// The checks of the guarantee for one structure and the geometry that measures it.
template <class Structure, class Geometry>
void check_guarantee(LieBatchNorm<Structure>& layer, const Geometry& geometry, const xt::xarray<double>& input,
                     const xt::xarray<double>& bias, double scale) {
  layer.bias().value = bias;
  layer.scale().value = xt::xarray<double>(xt::ones<double>({kChannels}) * scale);
  const GeometricTensor<double> out = layer.forward(GeometricTensor<double>(layer.in_type(), input));
  layer.discard_saved();
  gyre::FrechetMeanOptions tight;
  tight.tolerance = 1e-13;
  tight.max_iterations = 1000;
  for (std::size_t c = 0; c < kChannels; ++c) {
    CAPTURE(c);
    const std::vector<Matrix<double>> in = channel(input, c);
    const Matrix<double> input_mean = gyre::frechet_mean(geometry, in, {}, tight).point;
    const double v = gyre::frechet_variance(geometry, input_mean, in);
    CHECK(std::abs(layer.batch_variance()(c) - v) <= kGuaranteeTolerance * v);
    const std::vector<Matrix<double>> outputs = channel(out.data, c);
    const Matrix<double> p = item_at(bias, 0, c);
    const Matrix<double> output_mean = gyre::frechet_mean(geometry, outputs, {}, tight).point;
    CHECK(geometry.dist(output_mean, p) <= kGuaranteeTolerance);
    const double expected = scale * scale * v / (v + layer.options().eps);
    CHECK(std::abs(gyre::frechet_variance(geometry, p, outputs) - expected) <= kGuaranteeTolerance * expected);
  }
}

LieBatchNormOptions tight_options() {
  LieBatchNormOptions options;
  options.tolerance = 1e-14;
  options.max_iterations = 500;
  return options;
}

template <class Structure>
LieBatchNorm<Structure> spd_layer(Structure structure, LieBatchNormOptions options = tight_options()) {
  return LieBatchNorm<Structure>(std::move(structure), gyre::nn::spd_features(kN, kChannels), options);
}

struct SpdBatch {
  xt::xarray<double> input, bias;
};

SpdBatch spd_batch(std::uint64_t seed) {
  gyre::Rng rng(seed);
  SpdBatch b;
  b.input = batch_of(kBatch, kChannels, [&](std::size_t) { return spread_spd(rng); });
  // The bias is the first "batch" item of a (1, C, n, n) array, reshaped to (C, n, n) below.
  b.bias = batch_of(1, kChannels, [&](std::size_t) { return gyre::spd::random_spd<double>(kN, rng); });
  b.bias.reshape({kChannels, std::size_t{kN}, std::size_t{kN}});
  return b;
}

// check_guarantee reads the bias as item (0, c) of a 4-axis array.
xt::xarray<double> as_items(xt::xarray<double> bias) {
  bias.reshape({1, kChannels, std::size_t{kN}, std::size_t{kN}});
  return bias;
}

template <class Structure, class Geometry>
void check_spd_guarantee(Structure structure, const Geometry& geometry) {
  for (const std::uint64_t seed : gyre::test::seeds(5)) {
    CAPTURE(seed);
    const SpdBatch b = spd_batch(seed);
    auto layer = spd_layer(structure);
    layer.bias().value = b.bias;
    check_guarantee(layer, geometry, b.input, as_items(b.bias), 0.7);
  }
}

template <class Structure>
void check_spd_gradients(Structure structure, LieBatchNormOptions options) {
  for (const std::uint64_t seed : gyre::test::seeds(3)) {
    CAPTURE(seed);
    const SpdBatch b = spd_batch(seed);
    auto layer = spd_layer(structure, options);
    layer.bias().value = b.bias;
    layer.scale().value = xt::xarray<double>({0.7, 1.3});
    gyre::test::check_report(
        gyre::check::check_gradients(layer, GeometricTensor<double>(layer.in_type(), b.input), kGradientStep, seed),
        {"input", "LieBatchNorm.bias", "LieBatchNorm.scale"}, kGradientTolerance);
  }
}

LieBatchNormOptions reference_options(int steps) {
  LieBatchNormOptions options;
  options.mean_mode = gyre::LieMeanMode::kReference;
  options.karcher_steps = steps;
  return options;
}

}  // namespace

// ── The guarantee: output mean = bias, output variance = s²·v/(v + ε), v the input's ───────────

TEST_CASE("LieBN LEM (α, β): the output batch has the bias as log-Euclidean mean and variance s²v/(v+ε)") {
  check_spd_guarantee(gyre::SpdLogEuclideanNormalization<double>(kN, 1.5, 0.2),
                      gyre::SpdLogEuclidean<double>(kN, {1.5, 0.2}));
}

TEST_CASE("LieBN LCM: the guarantee under the log-Cholesky metric, θ = 1 and θ = 0.5") {
  check_spd_guarantee(gyre::SpdLogCholeskyNormalization<double>(kN, 1.0), gyre::SpdLogCholesky<double>(kN));
  check_spd_guarantee(gyre::SpdLogCholeskyNormalization<double>(kN, 0.5),
                      gyre::PowerDeformed<gyre::SpdLogCholesky<double>>(gyre::SpdLogCholesky<double>(kN), 0.5));
}

TEST_CASE("LieBN AIM: the guarantee under the affine-invariant metric, θ = 1 and θ = 0.5 with (α, β)") {
  check_spd_guarantee(gyre::SpdAffineInvariantNormalization<double>(kN), gyre::SpdAffineInvariant<double>(kN));
  check_spd_guarantee(
      gyre::SpdAffineInvariantNormalization<double>(kN, 0.5, 1.5, 0.2),
      gyre::PowerDeformed<gyre::SpdAffineInvariant<double>>(gyre::SpdAffineInvariant<double>(kN, {1.5, 0.2}), 0.5));
}

TEST_CASE("LieBN SO(3): the output batch has the bias as Karcher mean and variance s²v/(v+ε)") {
  const gyre::SO<double> so(kN);
  for (const std::uint64_t seed : gyre::test::seeds(5)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    std::vector<Matrix<double>> bases = {so.random_point(rng), so.random_point(rng)};
    const xt::xarray<double> input =
        batch_of(kBatch, kChannels, [&](std::size_t c) { return nearby_rotation(so, bases[c], rng); });
    xt::xarray<double> bias = batch_of(1, kChannels, [&](std::size_t) { return so.random_point(rng); });
    LieBatchNorm<gyre::SoNormalization<double>> layer(gyre::SoNormalization<double>(kN),
                                                      gyre::nn::rotation_features(kN, kChannels), tight_options());
    bias.reshape({kChannels, std::size_t{kN}, std::size_t{kN}});
    xt::xarray<double> bias_items = bias;
    bias_items.reshape({1, kChannels, std::size_t{kN}, std::size_t{kN}});
    layer.bias().value = bias;
    check_guarantee(layer, so, input, bias_items, 0.6);
  }
}

// ── Backward against central differences ─────────────────────────────────────────────────────

TEST_CASE("LieBN backward: LEM and LCM (θ = 0.5) against central differences") {
  check_spd_gradients(gyre::SpdLogEuclideanNormalization<double>(kN, 1.5, 0.2), tight_options());
  check_spd_gradients(gyre::SpdLogCholeskyNormalization<double>(kN, 0.5), tight_options());
}

TEST_CASE("LieBN backward: AIM through the converged mean's implicit derivative, θ = 1 and θ = 0.5") {
  check_spd_gradients(gyre::SpdAffineInvariantNormalization<double>(kN), tight_options());
  check_spd_gradients(gyre::SpdAffineInvariantNormalization<double>(kN, 0.5, 1.5, 0.2), tight_options());
}

TEST_CASE("LieBN backward: AIM through the reference mode's unrolled Karcher steps (K = 1, K = 3)") {
  for (const int steps : {1, 3}) {
    CAPTURE(steps);
    check_spd_gradients(gyre::SpdAffineInvariantNormalization<double>(kN, 0.5), reference_options(steps));
    // The cases must exercise the unrolled steps: the spread batches stop the iteration only after them.
    const SpdBatch b = spd_batch(11);
    auto layer = spd_layer(gyre::SpdAffineInvariantNormalization<double>(kN, 0.5), reference_options(steps));
    (void)layer.forward(GeometricTensor<double>(layer.in_type(), b.input));
    CHECK(layer.mean_iterations()[0] >= 1);
  }
}

TEST_CASE("LieBN backward: SO(3), converged and reference means") {
  const gyre::SO<double> so(kN);
  for (const LieBatchNormOptions& options : {tight_options(), reference_options(2)}) {
    for (const std::uint64_t seed : gyre::test::seeds(3)) {
      CAPTURE(seed);
      gyre::Rng rng(seed);
      const Matrix<double> base = so.random_point(rng);
      const xt::xarray<double> input =
          batch_of(kBatch, kChannels, [&](std::size_t) { return nearby_rotation(so, base, rng); });
      LieBatchNorm<gyre::SoNormalization<double>> layer(gyre::SoNormalization<double>(kN),
                                                        gyre::nn::rotation_features(kN, kChannels), options);
      layer.scale().value = xt::xarray<double>({0.7, 1.3});
      gyre::test::check_report(
          gyre::check::check_gradients(layer, GeometricTensor<double>(layer.in_type(), input), kGradientStep, seed),
          {"input", "LieBatchNorm.bias", "LieBatchNorm.scale"}, kGradientTolerance);
    }
  }
}

// ── Statistics, modes and options ─────────────────────────────────────────────────────────────

TEST_CASE("LieBN: the running mean starts at the group identity and follows the batch means") {
  const SpdBatch b = spd_batch(5);
  auto layer = spd_layer(gyre::SpdLogEuclideanNormalization<double>(kN));
  // In log coordinates the identity I is the zero matrix (the reference starts at eye(n) there).
  CHECK(xt::amax(xt::abs(layer.running_mean()))() == 0.0);
  CHECK(layer.running_variance()(0) == 1.0);
  (void)layer.forward(GeometricTensor<double>(layer.in_type(), b.input));
  // momentum 0.1: running = 0.9·0 + 0.1·M, running variance = 0.9 + 0.1·v.
  CHECK(xt::amax(xt::abs(layer.running_mean() - 0.1 * layer.batch_mean()))() <= 1e-15);
  CHECK(std::abs(layer.running_variance()(1) - (0.9 + 0.1 * layer.batch_variance()(1))) <= 1e-15);
}

TEST_CASE("LieBN: eval mode normalises with the running statistics") {
  for (const std::uint64_t seed : gyre::test::seeds(3)) {
    CAPTURE(seed);
    const SpdBatch b = spd_batch(seed);
    LieBatchNormOptions options = tight_options();
    options.momentum = 1;  // the running statistics become the batch's
    auto layer = spd_layer(gyre::SpdAffineInvariantNormalization<double>(kN, 0.5), options);
    layer.bias().value = b.bias;
    const GeometricTensor<double> input(layer.in_type(), b.input);
    const xt::xarray<double> trained = layer.forward(input).data;
    layer.eval();
    const xt::xarray<double> evaluated = layer.forward(input).data;
    CHECK(xt::amax(xt::abs(trained - evaluated))() <= 1e-11);
    // Eval mode leaves the running statistics alone and normalises any batch, one item included.
    const xt::xarray<double> mean = layer.running_mean();
    xt::xarray<double> one = xt::view(b.input, xt::range(0, 1));
    (void)layer.forward(GeometricTensor<double>(layer.in_type(), one));
    CHECK(layer.running_mean() == mean);
  }
}

TEST_CASE("LieBN: detach_statistics gives eval mode's gradient at the batch statistics (the reference's)") {
  const SpdBatch b = spd_batch(7);
  LieBatchNormOptions detached = tight_options();
  detached.detach_statistics = true;
  detached.momentum = 1;
  auto layer = spd_layer(gyre::SpdAffineInvariantNormalization<double>(kN), detached);
  const GeometricTensor<double> input(layer.in_type(), b.input);
  gyre::Rng rng(3);
  xt::xarray<double> upstream = xt::xarray<double>::from_shape(b.input.shape());
  for (double& v : upstream) v = rng.normal<double>();
  (void)layer.forward(input);
  const xt::xarray<double> grad_detached = layer.backward(GeometricTensor<double>(layer.in_type(), upstream)).data;
  layer.eval();
  (void)layer.forward(input);
  const xt::xarray<double> grad_eval = layer.backward(GeometricTensor<double>(layer.in_type(), upstream)).data;
  CHECK(xt::amax(xt::abs(grad_detached - grad_eval))() <= 1e-10);
  // …and differs from the full gradient, which sees the mean and variance move.
  auto full = spd_layer(gyre::SpdAffineInvariantNormalization<double>(kN), tight_options());
  (void)full.forward(input);
  const xt::xarray<double> grad_full = full.backward(GeometricTensor<double>(full.in_type(), upstream)).data;
  CHECK(xt::amax(xt::abs(grad_full - grad_eval))() > 1e-3);
}

TEST_CASE("LieBN: float agrees with double") {
  const SpdBatch b = spd_batch(9);
  auto layer_d = spd_layer(gyre::SpdAffineInvariantNormalization<double>(kN, 0.5));
  LieBatchNorm<gyre::SpdAffineInvariantNormalization<float>> layer_f(
      gyre::SpdAffineInvariantNormalization<float>(kN, 0.5f), gyre::nn::spd_features(kN, kChannels));
  const xt::xarray<double> out_d = layer_d.forward(GeometricTensor<double>(layer_d.in_type(), b.input)).data;
  const xt::xarray<float> in_f = xt::cast<float>(b.input);
  const xt::xarray<float> out_f = layer_f.forward(GeometricTensor<float>(layer_f.in_type(), in_f)).data;
  // float: a Karcher mean to 1.2e-4 and a few matrix functions of condition ≤ e⁴ in single precision.
  CHECK(xt::amax(xt::abs(xt::cast<double>(out_f) - out_d))() <= 2e-3 * xt::amax(xt::abs(out_d))());
}

TEST_CASE("LieBN: a call on the previous call's recycled storage equals a fresh layer's, bit for bit") {
  // SavedCalls hands backward()'s dropped state to the next forward(), which overwrites it in place:
  // a smaller and then a larger batch, and the kept eigensystems (LEM, AIM with θ = 0.5).
  const SpdBatch first = spd_batch(41);
  const SpdBatch second = spd_batch(42);
  const xt::xarray<double> smaller = xt::view(second.input, xt::range(0, 5));
  const auto run = [](auto& layer, const xt::xarray<double>& input) {
    const GeometricTensor<double> out = layer.forward(GeometricTensor<double>(layer.in_type(), input));
    const GeometricTensor<double> grad = layer.backward(GeometricTensor<double>(layer.in_type(), input));
    return std::pair<xt::xarray<double>, xt::xarray<double>>{out.data, grad.data};
  };
  const auto check_structure = [&](const auto& structure) {
    auto reused = spd_layer(structure);
    (void)run(reused, first.input);
    for (const xt::xarray<double>& input : {smaller, second.input}) {
      auto fresh = spd_layer(structure);
      const auto expected = run(fresh, input);
      const auto got = run(reused, input);
      CHECK(xt::amax(xt::abs(got.first - expected.first))() == 0.0);
      CHECK(xt::amax(xt::abs(got.second - expected.second))() == 0.0);
    }
  };
  check_structure(gyre::SpdLogEuclideanNormalization<double>(kN));
  check_structure(gyre::SpdAffineInvariantNormalization<double>(kN, 0.5));
}

// ── Bad input ─────────────────────────────────────────────────────────────────────────────────

TEST_CASE("LieBN: bad input is a Gyre error naming the problem") {
  const SpdBatch b = spd_batch(13);
  auto layer = spd_layer(gyre::SpdAffineInvariantNormalization<double>(kN));
  xt::xarray<double> one = xt::view(b.input, xt::range(0, 1));
  CHECK_THROWS_WITH_AS((void)layer.forward(GeometricTensor<double>(layer.in_type(), one)),
                       doctest::Contains("a training batch needs at least 2 items"), gyre::ShapeError);
  xt::xarray<double> not_spd = b.input;
  not_spd(2, 1, 0, 0) = -5;
  CHECK_THROWS_AS((void)layer.forward(GeometricTensor<double>(layer.in_type(), not_spd)), gyre::DomainError);
  xt::xarray<double> with_nan = b.input;
  with_nan(3, 0, 1, 1) = std::nan("");
  CHECK_THROWS_AS((void)layer.forward(GeometricTensor<double>(layer.in_type(), with_nan)), gyre::DomainError);
  // Huge and tiny inputs are SPD: normalised (LieBN is scale-free under AIM), or refused — never NaN.
  for (const double magnitude : {1e300, 1e-300}) {
    CAPTURE(magnitude);
    const xt::xarray<double> scaled = b.input * magnitude;
    try {
      const xt::xarray<double> out = layer.forward(GeometricTensor<double>(layer.in_type(), scaled)).data;
      CHECK(xt::all(xt::isfinite(out)));
    } catch (const gyre::Error&) {
      CHECK(true);
    }
  }
  layer.discard_saved();
  CHECK_THROWS_AS(
      (void)layer.forward(GeometricTensor<double>(gyre::nn::spd_features(kN, 1),
                                                  xt::xarray<double>(xt::view(b.input, xt::all(), xt::range(0, 1))))),
      gyre::ShapeError);
  LieBatchNormOptions bad;
  bad.eps = 0;
  CHECK_THROWS_AS(spd_layer(gyre::SpdLogEuclideanNormalization<double>(kN), bad), gyre::DomainError);
  bad = {};
  bad.momentum = 1.5;
  CHECK_THROWS_AS(spd_layer(gyre::SpdLogEuclideanNormalization<double>(kN), bad), gyre::DomainError);
  CHECK_THROWS_AS(gyre::SpdAffineInvariantNormalization<double>(kN, 0.0), gyre::DomainError);
  CHECK_THROWS_AS(gyre::SpdLogEuclideanNormalization<double>(kN, -1.0), gyre::DomainError);
  CHECK_THROWS_AS(layer.set_running_statistics(xt::zeros<double>({kChannels}), xt::ones<double>({kChannels})),
                  gyre::ShapeError);
}

TEST_CASE("LieBN without variance normalisation centres and biases only, with its gradients") {
  LieBatchNormOptions options = tight_options();
  options.normalize_variance = false;
  auto layer = spd_layer(gyre::SpdAffineInvariantNormalization<double>(kN, 0.5), options);
  CHECK(layer.parameters().size() == 1);
  const SpdBatch b = spd_batch(17);
  layer.bias().value = b.bias;
  const xt::xarray<double> out = layer.forward(GeometricTensor<double>(layer.in_type(), b.input)).data;
  layer.discard_saved();
  // Output i = φ⁻¹(L_P·(L_M⁻¹·Dᵢ·L_M⁻ᵀ)·L_Pᵀ) with φ = (·)^θ: the variance is the input's.
  const gyre::PowerDeformed<gyre::SpdAffineInvariant<double>> metric(gyre::SpdAffineInvariant<double>(kN), 0.5);
  for (std::size_t c = 0; c < kChannels; ++c) {
    const std::vector<Matrix<double>> in = channel(b.input, c);
    const std::vector<Matrix<double>> outputs = channel(out, c);
    const double v = gyre::frechet_variance(metric, gyre::frechet_mean(metric, in).point, in);
    const Matrix<double> p = item_at(as_items(b.bias), 0, c);
    CHECK(std::abs(gyre::frechet_variance(metric, p, outputs) - v) <= kGuaranteeTolerance * v);
  }
  gyre::test::check_report(
      gyre::check::check_gradients(layer, GeometricTensor<double>(layer.in_type(), b.input), kGradientStep, 5),
      {"input", "LieBatchNorm.bias"}, kGradientTolerance);
}
