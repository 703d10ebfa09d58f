#pragma once
// ManifoldBatchNorm's member definitions (the algorithm is in manifold_batch_norm.hpp's header
// comment). Include this header to instantiate it on a space libgyre does not instantiate.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gyre/core/batch.hpp"
#include "gyre/core/checks.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/parallel.hpp"
#include "gyre/geometry/frechet_mean.hpp"
#include "gyre/geometry/frechet_mean_vjp.hpp"
#include "gyre/nn/manifold_batch_norm.hpp"

namespace gyre::nn {

namespace detail {

template <class Working, class Centring>
Working make_working(const Centring& centring) {
  if constexpr (std::is_same_v<Working, Centring>) {
    return centring;
  } else {
    return centring.in_double();
  }
}

}  // namespace detail

template <class Centring>
ManifoldBatchNorm<Centring>::ManifoldBatchNorm(Centring centring, TensorType features, BatchNormOptions options)
    : centring_(std::move(centring)),
      working_(detail::make_working<Working>(centring_)),
      type_(std::move(features)),
      options_(options) {
  const ManifoldFiber& fiber = type_.manifold(Centring::kLayerName);
  if (type_.base() != Base::kNone) {
    throw ShapeError(Centring::kLayerName, "needs features none × (a manifold)[C]", type_.describe());
  }
  channels_ = fiber.channels();
  check_batch_norm_options(Centring::kLayerName, options_);
  if (options_.mean_mode == LieMeanMode::kConverged) {
    check_mean_options(Centring::kLayerName, FrechetMeanOptions{options_.max_iterations, options_.tolerance});
  }
  origin_basis_ = tangent_basis(working_.space, working_.origin);
  // Bias and running mean start at e; their item shape is the fiber's (ShapeError if e does not fit).
  std::vector<std::size_t> shape = {static_cast<std::size_t>(channels_)};
  const std::vector<std::size_t>& item = fiber.item_shape();
  shape.insert(shape.end(), item.begin(), item.end());
  xt::xarray<T> at_origin = xt::xarray<T>::from_shape(shape);
  const batch::detail::Items items = batch::detail::items_of<Point>(Centring::kLayerName, "bias", at_origin);
  for (std::size_t c = 0; c < items.count; ++c)
    batch::detail::store<Point>(at_origin, items, static_cast<std::ptrdiff_t>(c), centring_.origin);
  const std::string prefix = Centring::kLayerName;
  bias_ = Parameter<T>(prefix + ".bias", at_origin, fiber.shared_space<T>());
  scale_ = Parameter<T>(prefix + ".scale", xt::xarray<T>(xt::ones<T>({shape[0]})));
  running_mean_ = at_origin;
  running_variance_ = xt::ones<T>({shape[0]});
  batch_mean_ = running_mean_;
  batch_variance_ = running_variance_;
}

template <class Centring>
typename ManifoldBatchNorm<Centring>::WPoint ManifoldBatchNorm<Centring>::batch_mean_of(
    const std::vector<WPoint>& items) const {
  if (options_.mean_mode == LieMeanMode::kReference) {
    return karcher_steps(working_.space, items, options_.karcher_steps);
  }
  // Tolerance 0: frechet_mean's 8ε in double. In float, the Karcher step of a spread batch stalls near
  // 1e-5 (measured 4.3e-6 on GrNet's Gr(12, 4) features), above 8ε and still creeping down, so the
  // rounding-floor test does not fire and training would end in ConvergenceError: 1000ε (1.2e-4),
  // LieBN's default, instead. Float layers that work in double keep it: their data hold float's
  // precision, and near the cut locus the double iteration crawls too (1.6e-9 after 100 steps).
  const double tolerance = options_.tolerance > 0     ? options_.tolerance
                           : std::is_same_v<T, float> ? 1000.0 * std::numeric_limits<float>::epsilon()
                                                      : 0.0;
  return frechet_mean(working_.space, items, {}, FrechetMeanOptions{options_.max_iterations, tolerance}).point;
}

template <class Centring>
std::vector<typename ManifoldBatchNorm<Centring>::WPoint> ManifoldBatchNorm<Centring>::batch_mean_vjp(
    const std::vector<WPoint>& items, const WPoint& mean, const WPoint& g) const {
  if (options_.mean_mode == LieMeanMode::kReference) {
    return karcher_steps_vjp(working_.space, items, options_.karcher_steps, g);
  }
  return frechet_mean_vjp(working_.space, mean, items, g);
}

template <class Centring>
typename ManifoldBatchNorm<Centring>::WTangent ManifoldBatchNorm<Centring>::squared_norm_gradient(
    const WTangent& u) const {
  WTangent flat = WTangent::Zero(u.rows(), u.cols());
  for (const WTangent& t : origin_basis_) flat += working_.space.inner(working_.origin, u, t) * t;
  return W(2 * options_.metric_scale) * flat;
}

template <class Centring>
GeometricTensor<typename ManifoldBatchNorm<Centring>::T> ManifoldBatchNorm<Centring>::forward(
    const GeometricTensor<T>& input) {
  const std::string where = std::string(Centring::kLayerName) + "::forward";
  require_type(where.c_str(), type_, input.type);
  const std::size_t batch = input.batch();
  const bool batch_statistics = this->training();
  if (batch_statistics && batch < 2) {
    throw ShapeError(where.c_str(), "a training batch needs at least 2 items (one has no variance)", batch);
  }
  type_.manifold().space<T>().check_points(input.data);
  // Checked in float; the double work would reject the float rounding of orthonormality and norms.
  std::optional<ChecksOff> checked_in_own_precision;
  if constexpr (kWidened) checked_in_own_precision.emplace();
  const batch::detail::Items items = batch::detail::items_of<Point>(where.c_str(), "input", input.data);
  const batch::detail::Items params = batch::detail::items_of<Point>(where.c_str(), "bias", bias_.value);
  const auto c_count = static_cast<std::size_t>(channels_);
  const auto b_count = static_cast<std::ptrdiff_t>(batch);
  const double work = batch::detail::item_work(items);
  xt::xarray<T> output = xt::xarray<T>::from_shape(input.data.shape());
  Call call = saved_.recycled();  // every field read later is assigned below
  call.batch_statistics = batch_statistics;
  call.channels.resize(c_count);
  const W eps = static_cast<W>(options_.eps);
  for (std::size_t c = 0; c < c_count; ++c) {
    ChannelCall& ch = call.channels[c];
    ch.x.resize(batch);
    ch.w.resize(batch);
    for (std::size_t i = 0; i < batch; ++i) {
      ch.x[i] = widen(batch::detail::item<Point>(input.data, items, static_cast<std::ptrdiff_t>(i * c_count + c)));
    }
    ch.mean = batch_statistics
                  ? batch_mean_of(ch.x)
                  : widen(batch::detail::item<Point>(running_mean_, params, static_cast<std::ptrdiff_t>(c)));
    if constexpr (kBatched) {
      ch.w = working_.centre_all(ch.mean, ch.x);
    } else {
      parallel_for(b_count, work, [&](std::ptrdiff_t i) {
        const auto u = static_cast<std::size_t>(i);
        ch.w[u] = working_.centre(ch.mean, ch.x[u]);
      });
    }
    if (batch_statistics) {
      W sum = 0;
      for (const WTangent& w : ch.w) sum += working_.space.inner(working_.origin, w, w);
      ch.variance = static_cast<W>(options_.metric_scale) * sum / static_cast<W>(batch);
    } else {
      ch.variance = static_cast<W>(running_variance_(c));
    }
    ch.factor = options_.normalize_variance ? static_cast<W>(scale_.value(c)) / std::sqrt(ch.variance + eps) : W(1);
    const WPoint bias = widen(batch::detail::item<Point>(bias_.value, params, static_cast<std::ptrdiff_t>(c)));
    if constexpr (kBatched) {
      std::vector<WTangent> scaled;
      scaled.reserve(batch);
      for (const WTangent& w : ch.w) scaled.emplace_back(ch.factor * w);
      const std::vector<WPoint> placed = working_.place_all(bias, scaled);
      for (std::size_t u = 0; u < batch; ++u)
        batch::detail::store<Point>(output, items, static_cast<std::ptrdiff_t>(u * c_count + c), narrow(placed[u]));
    } else {
      parallel_for(b_count, work, [&](std::ptrdiff_t i) {
        const auto u = static_cast<std::size_t>(i);
        batch::detail::store<Point>(output, items, static_cast<std::ptrdiff_t>(u * c_count + c),
                                    narrow(working_.place(bias, WTangent(ch.factor * ch.w[u]))));
      });
    }
  }
  if (batch_statistics) {
    const W m = static_cast<W>(options_.momentum);
    const auto& space = working_.space;
    for (std::size_t c = 0; c < c_count; ++c) {
      const ChannelCall& ch = call.channels[c];
      const auto k = static_cast<std::ptrdiff_t>(c);
      batch::detail::store<Point>(batch_mean_, params, k, narrow(ch.mean));
      batch_variance_(c) = static_cast<T>(ch.variance);
      const WPoint running = widen(batch::detail::item<Point>(running_mean_, params, k));
      batch::detail::store<Point>(running_mean_, params, k,
                                  narrow(space.exp(running, WTangent(m * space.log(running, ch.mean)))));
      running_variance_(c) = static_cast<T>((1 - m) * static_cast<W>(running_variance_(c)) + m * ch.variance);
    }
  }
  saved_.push(std::move(call));
  return GeometricTensor<T>(type_, std::move(output));
}

template <class Centring>
GeometricTensor<typename ManifoldBatchNorm<Centring>::T> ManifoldBatchNorm<Centring>::backward(
    const GeometricTensor<T>& grad_output) {
  const std::string where = std::string(Centring::kLayerName) + "::backward";
  require_type(where.c_str(), type_, grad_output.type);
  const Call& call = saved_.top(where.c_str(), describe());
  const std::size_t batch = call.channels.front().x.size();
  if (grad_output.batch() != batch) {
    throw ShapeError(where.c_str(), "grad_output must have the forward's batch size " + std::to_string(batch),
                     grad_output.batch());
  }
  const batch::detail::Items items = batch::detail::items_of<Point>(where.c_str(), "grad_output", grad_output.data);
  const batch::detail::Items params = batch::detail::items_of<Point>(where.c_str(), "bias", bias_.value);
  const auto c_count = static_cast<std::size_t>(channels_);
  const auto b_count = static_cast<std::ptrdiff_t>(batch);
  const double work = batch::detail::item_work(items);
  const W eps = static_cast<W>(options_.eps);
  std::optional<ChecksOff> checked_in_own_precision;  // as in forward
  if constexpr (kWidened) checked_in_own_precision.emplace();
  const bool through_statistics = call.batch_statistics && !options_.detach_statistics;
  xt::xarray<T> grad_input = xt::xarray<T>::from_shape(grad_output.data.shape());
  xt::xarray<T> grad_bias = xt::zeros_like(bias_.value);
  xt::xarray<T> grad_scale = xt::zeros_like(scale_.value);
  for (std::size_t c = 0; c < c_count; ++c) {
    const ChannelCall& ch = call.channels[c];
    const WPoint bias = widen(batch::detail::item<Point>(bias_.value, params, static_cast<std::ptrdiff_t>(c)));
    std::vector<WTangent> grad_w(batch);
    std::vector<W> grad_factor_items(batch);
    WPoint grad_bias_c = WPoint::Zero(bias.rows(), bias.cols());
    const auto grad_output_item = [&](std::size_t u) {
      return widen(batch::detail::item<Point>(grad_output.data, items, static_cast<std::ptrdiff_t>(u * c_count + c)));
    };
    if constexpr (kBatched) {
      std::vector<WTangent> scaled;
      std::vector<WPoint> g;
      scaled.reserve(batch);
      g.reserve(batch);
      for (std::size_t u = 0; u < batch; ++u) {
        scaled.emplace_back(ch.factor * ch.w[u]);
        g.push_back(grad_output_item(u));
      }
      const SharedVjp<WPoint, WTangent> placed = working_.place_all_vjp(bias, scaled, g);
      grad_bias_c = placed.shared;
      for (std::size_t u = 0; u < batch; ++u) {
        grad_factor_items[u] = placed.items[u].cwiseProduct(ch.w[u]).sum();
        grad_w[u] = ch.factor * placed.items[u];
      }
    } else {
      std::vector<WPoint> grad_bias_items(batch);
      parallel_for(b_count, work, [&](std::ptrdiff_t i) {
        const auto u = static_cast<std::size_t>(i);
        const ComposeVjp<WPoint> placed = working_.place_vjp(bias, WTangent(ch.factor * ch.w[u]), grad_output_item(u));
        grad_bias_items[u] = placed.a;
        grad_factor_items[u] = placed.b.cwiseProduct(ch.w[u]).sum();
        grad_w[u] = ch.factor * placed.b;
      });
      for (const WPoint& g : grad_bias_items) grad_bias_c += g;
    }
    W grad_factor = 0;
    for (const W f : grad_factor_items) grad_factor += f;
    if (options_.normalize_variance) grad_scale(c) = static_cast<T>(grad_factor / std::sqrt(ch.variance + eps));
    // f = s/√(v + ε): ∂f/∂v = −f/(2(v + ε)); v = (κ/B)·Σ ‖wᵢ‖²_e.
    const W grad_variance =
        through_statistics && options_.normalize_variance ? -grad_factor * ch.factor / (2 * (ch.variance + eps)) : W(0);
    // ∂L/∂wᵢ in full: through the placing and, with the statistics, through the variance.
    if (grad_variance != 0) {
      parallel_for(b_count, work, [&](std::ptrdiff_t i) {
        const auto u = static_cast<std::size_t>(i);
        grad_w[u] += (grad_variance / static_cast<W>(batch)) * squared_norm_gradient(ch.w[u]);
      });
    }
    std::vector<WPoint> grad_x(batch);
    WPoint grad_mean = WPoint::Zero(bias.rows(), bias.cols());
    if constexpr (kBatched) {
      SharedVjp<WPoint, WPoint> centred = working_.centre_all_vjp(ch.mean, ch.x, grad_w);
      grad_mean = centred.shared;
      grad_x = std::move(centred.items);
    } else {
      std::vector<WPoint> grad_mean_items(batch);
      parallel_for(b_count, work, [&](std::ptrdiff_t i) {
        const auto u = static_cast<std::size_t>(i);
        const ComposeVjp<WPoint> centred = working_.centre_vjp(ch.mean, ch.x[u], grad_w[u]);
        grad_mean_items[u] = centred.a;
        grad_x[u] = centred.b;
      });
      for (const WPoint& g : grad_mean_items) grad_mean += g;
    }
    if (through_statistics) {
      const std::vector<WPoint> through_mean = batch_mean_vjp(ch.x, ch.mean, grad_mean);
      for (std::size_t u = 0; u < batch; ++u) grad_x[u] += through_mean[u];
    }
    for (std::size_t u = 0; u < batch; ++u) {
      batch::detail::store<Point>(grad_input, items, static_cast<std::ptrdiff_t>(u * c_count + c), narrow(grad_x[u]));
    }
    batch::detail::store<Point>(grad_bias, params, static_cast<std::ptrdiff_t>(c), narrow(grad_bias_c));
  }
  bias_.grad += grad_bias;
  scale_.grad += grad_scale;
  saved_.drop();
  return GeometricTensor<T>(type_, std::move(grad_input));
}

template <class Centring>
void ManifoldBatchNorm<Centring>::set_running_statistics(xt::xarray<T> mean, xt::xarray<T> variance) {
  const std::string where = std::string(Centring::kLayerName) + "::set_running_statistics";
  if (mean.shape() != running_mean_.shape()) {
    throw ShapeError(where.c_str(), "running mean must have the bias's shape", BatchSpace<T>::shape_text(mean));
  }
  if (variance.shape() != running_variance_.shape()) {
    throw ShapeError(where.c_str(), "running variance must have shape (C)", BatchSpace<T>::shape_text(variance));
  }
  check_running_variance(where.c_str(), variance);
  type_.manifold().space<T>().check_points(mean);
  running_mean_ = std::move(mean);
  running_variance_ = std::move(variance);
}

template <class Centring>
std::string ManifoldBatchNorm<Centring>::describe() const {
  return std::string(Centring::kLayerName) + (options_.normalize_variance ? "(" : "(no variance, ") + type_.describe() +
         ")";
}

}  // namespace gyre::nn
