#pragma once
// GyroBatchNorm's member definitions (the algorithm is in gyro_batch_norm.hpp's header comment).
// Include this header to instantiate GyroBatchNorm on a gyrogroup libgyre does not instantiate.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "gyre/core/batch.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/parallel.hpp"
#include "gyre/geometry/frechet_mean.hpp"
#include "gyre/geometry/frechet_mean_vjp.hpp"
#include "gyre/nn/gyro_batch_norm.hpp"

namespace gyre::nn {

template <class Space>
GyroBatchNorm<Space>::GyroBatchNorm(Space space, TensorType features, GyroBatchNormOptions options)
    : space_(std::move(space)), type_(std::move(features)), options_(options) {
  const ManifoldFiber& fiber = type_.manifold("GyroBatchNorm");
  if (type_.base() != Base::kNone) {
    throw ShapeError("GyroBatchNorm", "needs features none × (a gyrogroup)[C]", type_.describe());
  }
  channels_ = fiber.channels();
  check_batch_norm_options("GyroBatchNorm", options_);
  identity_ = space_.gyro_identity();
  identity_basis_ = tangent_basis(space_, identity_);
  // The item shape of the fiber must be the space's (a Grassmann fiber for a Grassmann space, …).
  std::vector<std::size_t> leading = {static_cast<std::size_t>(channels_)};
  const std::vector<std::size_t>& item = fiber.item_shape();
  std::vector<std::size_t> shape = leading;
  shape.insert(shape.end(), item.begin(), item.end());
  xt::xarray<T> at_identity = xt::xarray<T>::from_shape(shape);
  const batch::detail::Items items = batch::detail::items_of<Point>("GyroBatchNorm", "bias", at_identity);
  for (std::size_t c = 0; c < items.count; ++c)
    batch::detail::store<Point>(at_identity, items, static_cast<std::ptrdiff_t>(c), identity_);
  bias_ = Parameter<T>("GyroBatchNorm.bias", at_identity, fiber.shared_space<T>());
  scale_ = Parameter<T>("GyroBatchNorm.scale", xt::xarray<T>(xt::ones<T>({leading[0]})));
  running_mean_ = at_identity;
  running_variance_ = xt::ones<T>({leading[0]});
  batch_mean_ = running_mean_;
  batch_variance_ = running_variance_;
}

template <class Space>
typename Space::Point GyroBatchNorm<Space>::batch_mean_of(const std::vector<Point>& items) const {
  if (options_.mean_mode == LieMeanMode::kReference) return karcher_steps(space_, items, options_.karcher_steps);
  return frechet_mean(space_, items, {}, FrechetMeanOptions{options_.max_iterations, options_.tolerance}).point;
}

template <class Space>
std::vector<typename Space::Point> GyroBatchNorm<Space>::batch_mean_vjp(const std::vector<Point>& items,
                                                                        const Point& mean, const Point& g) const {
  if (options_.mean_mode == LieMeanMode::kReference) {
    return karcher_steps_vjp(space_, items, options_.karcher_steps, g);
  }
  return frechet_mean_vjp(space_, mean, items, g);
}

template <class Space>
typename Space::Tangent GyroBatchNorm<Space>::squared_norm_gradient(const Tangent& u) const {
  Tangent flat = Tangent::Zero(u.rows(), u.cols());
  for (const Tangent& t : identity_basis_) flat += space_.inner(identity_, u, t) * t;
  return T(2) * flat;
}

template <class Space>
GeometricTensor<typename Space::Scalar> GyroBatchNorm<Space>::forward(const GeometricTensor<T>& input) {
  require_type("GyroBatchNorm::forward", type_, input.type);
  const std::size_t batch = input.batch();
  const bool batch_statistics = this->training();
  if (batch_statistics && batch < 2) {
    throw ShapeError("GyroBatchNorm::forward", "a training batch needs at least 2 items (one has no variance)", batch);
  }
  type_.manifold().space<T>().check_points(input.data);
  const batch::detail::Items items = batch::detail::items_of<Point>("GyroBatchNorm::forward", "input", input.data);
  const batch::detail::Items params = batch::detail::items_of<Point>("GyroBatchNorm::forward", "bias", bias_.value);
  const auto c_count = static_cast<std::size_t>(channels_);
  const auto b_count = static_cast<std::ptrdiff_t>(batch);
  const double work = batch::detail::item_work(items);
  xt::xarray<T> output = xt::xarray<T>::from_shape(input.data.shape());
  Call call;
  call.batch_statistics = batch_statistics;
  call.channels.resize(c_count);
  const T eps = static_cast<T>(options_.eps);
  for (std::size_t c = 0; c < c_count; ++c) {
    ChannelCall& ch = call.channels[c];
    for (auto* v : {&ch.x, &ch.centred, &ch.scaled}) v->resize(batch);
    ch.logs.resize(batch);
    for (std::size_t i = 0; i < batch; ++i) {
      ch.x[i] = batch::detail::item<Point>(input.data, items, static_cast<std::ptrdiff_t>(i * c_count + c));
    }
    ch.mean = batch_statistics ? batch_mean_of(ch.x)
                               : batch::detail::item<Point>(running_mean_, params, static_cast<std::ptrdiff_t>(c));
    ch.inverse_mean = space_.gyro_inverse(ch.mean);
    parallel_for(b_count, work, [&](std::ptrdiff_t i) {
      const auto u = static_cast<std::size_t>(i);
      ch.centred[u] = space_.gyro_add(ch.inverse_mean, ch.x[u]);
      ch.logs[u] = space_.log(identity_, ch.centred[u]);
    });
    if (batch_statistics) {
      T sum = 0;
      for (const Tangent& u : ch.logs) sum += space_.inner(identity_, u, u);
      ch.variance = sum / static_cast<T>(batch);
    } else {
      ch.variance = running_variance_(c);
    }
    ch.factor = options_.normalize_variance ? scale_.value(c) / std::sqrt(ch.variance + eps) : T(1);
    const Point bias = batch::detail::item<Point>(bias_.value, params, static_cast<std::ptrdiff_t>(c));
    parallel_for(b_count, work, [&](std::ptrdiff_t i) {
      const auto u = static_cast<std::size_t>(i);
      ch.scaled[u] = options_.normalize_variance ? space_.gyro_scale(ch.factor, ch.centred[u]) : ch.centred[u];
      batch::detail::store<Point>(output, items, static_cast<std::ptrdiff_t>(u * c_count + c),
                                  space_.gyro_add(bias, ch.scaled[u]));
    });
  }
  if (batch_statistics) {
    const T m = static_cast<T>(options_.momentum);
    for (std::size_t c = 0; c < c_count; ++c) {
      const ChannelCall& ch = call.channels[c];
      const auto k = static_cast<std::ptrdiff_t>(c);
      batch::detail::store<Point>(batch_mean_, params, k, ch.mean);
      batch_variance_(c) = ch.variance;
      const Point running = batch::detail::item<Point>(running_mean_, params, k);
      batch::detail::store<Point>(running_mean_, params, k,
                                  space_.exp(running, Tangent(m * space_.log(running, ch.mean))));
      running_variance_(c) = (1 - m) * running_variance_(c) + m * ch.variance;
    }
  }
  saved_.push(std::move(call));
  return GeometricTensor<T>(type_, std::move(output));
}

template <class Space>
GeometricTensor<typename Space::Scalar> GyroBatchNorm<Space>::backward(const GeometricTensor<T>& grad_output) {
  require_type("GyroBatchNorm::backward", type_, grad_output.type);
  const Call& call = saved_.top("GyroBatchNorm::backward", describe());
  const std::size_t batch = call.channels.front().x.size();
  if (grad_output.batch() != batch) {
    throw ShapeError("GyroBatchNorm::backward",
                     "grad_output must have the forward's batch size " + std::to_string(batch), grad_output.batch());
  }
  const batch::detail::Items items =
      batch::detail::items_of<Point>("GyroBatchNorm::backward", "grad_output", grad_output.data);
  const batch::detail::Items params = batch::detail::items_of<Point>("GyroBatchNorm::backward", "bias", bias_.value);
  const auto c_count = static_cast<std::size_t>(channels_);
  const auto b_count = static_cast<std::ptrdiff_t>(batch);
  const double work = batch::detail::item_work(items);
  const T eps = static_cast<T>(options_.eps);
  const bool through_statistics = call.batch_statistics && !options_.detach_statistics;
  xt::xarray<T> grad_input = xt::xarray<T>::from_shape(grad_output.data.shape());
  xt::xarray<T> grad_bias = xt::zeros_like(bias_.value);
  xt::xarray<T> grad_scale = xt::zeros_like(scale_.value);
  for (std::size_t c = 0; c < c_count; ++c) {
    const ChannelCall& ch = call.channels[c];
    const Point bias = batch::detail::item<Point>(bias_.value, params, static_cast<std::ptrdiff_t>(c));
    std::vector<Point> grad_bias_items(batch), grad_centred(batch);
    std::vector<T> grad_factor_items(batch);
    parallel_for(b_count, work, [&](std::ptrdiff_t i) {
      const auto u = static_cast<std::size_t>(i);
      const Point g = batch::detail::item<Point>(grad_output.data, items, static_cast<std::ptrdiff_t>(u * c_count + c));
      const GyroAddVjp<Point> biased = space_.gyro_add_vjp(bias, ch.scaled[u], g);
      grad_bias_items[u] = biased.a;
      if (!options_.normalize_variance) {
        grad_factor_items[u] = 0;
        grad_centred[u] = biased.b;
        return;
      }
      const GyroScaleVjp<T, Point> scaled = space_.gyro_scale_vjp(ch.factor, ch.centred[u], biased.b);
      grad_factor_items[u] = scaled.r;
      grad_centred[u] = scaled.a;
    });
    T grad_factor = 0;
    Point grad_bias_c = Point::Zero(bias.rows(), bias.cols());
    for (std::size_t u = 0; u < batch; ++u) {
      grad_factor += grad_factor_items[u];
      grad_bias_c += grad_bias_items[u];
    }
    grad_scale(c) = grad_factor / std::sqrt(ch.variance + eps);
    const T grad_variance =
        through_statistics && options_.normalize_variance ? -grad_factor * ch.factor / (2 * (ch.variance + eps)) : T(0);
    std::vector<Point> grad_x(batch), grad_inverse_items(batch);
    parallel_for(b_count, work, [&](std::ptrdiff_t i) {
      const auto u = static_cast<std::size_t>(i);
      Point total = grad_centred[u];
      if (through_statistics && options_.normalize_variance) {
        const Tangent grad_log = (grad_variance / static_cast<T>(batch)) * squared_norm_gradient(ch.logs[u]);
        total += space_.log_vjp(identity_, ch.centred[u], grad_log).y;
      }
      const GyroAddVjp<Point> centre = space_.gyro_add_vjp(ch.inverse_mean, ch.x[u], total);
      grad_inverse_items[u] = centre.a;
      grad_x[u] = centre.b;
    });
    if (through_statistics) {
      Point grad_inverse = Point::Zero(bias.rows(), bias.cols());
      for (const Point& g : grad_inverse_items) grad_inverse += g;
      const Point grad_mean = space_.gyro_inverse_vjp(ch.mean, grad_inverse);
      const std::vector<Point> through_mean = batch_mean_vjp(ch.x, ch.mean, grad_mean);
      for (std::size_t u = 0; u < batch; ++u) grad_x[u] += through_mean[u];
    }
    for (std::size_t u = 0; u < batch; ++u) {
      batch::detail::store<Point>(grad_input, items, static_cast<std::ptrdiff_t>(u * c_count + c), grad_x[u]);
    }
    batch::detail::store<Point>(grad_bias, params, static_cast<std::ptrdiff_t>(c), grad_bias_c);
  }
  bias_.grad += grad_bias;
  scale_.grad += grad_scale;
  saved_.drop();
  return GeometricTensor<T>(type_, std::move(grad_input));
}

template <class Space>
void GyroBatchNorm<Space>::set_running_statistics(xt::xarray<T> mean, xt::xarray<T> variance) {
  if (mean.shape() != running_mean_.shape()) {
    throw ShapeError("GyroBatchNorm::set_running_statistics", "running mean must have the bias's shape",
                     BatchSpace<T>::shape_text(mean));
  }
  if (variance.shape() != running_variance_.shape()) {
    throw ShapeError("GyroBatchNorm::set_running_statistics", "running variance must have shape (C)",
                     BatchSpace<T>::shape_text(variance));
  }
  check_running_variance("GyroBatchNorm::set_running_statistics", variance);
  type_.manifold().space<T>().check_points(mean);
  running_mean_ = std::move(mean);
  running_variance_ = std::move(variance);
}

template <class Space>
std::string GyroBatchNorm<Space>::describe() const {
  return std::string(options_.normalize_variance ? "GyroBatchNorm(" : "GyroBatchNorm(no variance, ") +
         type_.describe() + ")";
}

}  // namespace gyre::nn
