#pragma once
// LieBatchNorm's member definitions (the algorithm is in lie_batch_norm.hpp's header comment).
// Include this header to instantiate LieBatchNorm on a structure libgyre does not instantiate.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "gyre/core/error.hpp"
#include "gyre/core/parallel.hpp"
#include "gyre/nn/lie_batch_norm.hpp"

namespace gyre::nn {

namespace lie_batch_norm_detail {

template <class T>
using RowMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// Item k (row-major n×n) of a flat buffer.
template <class T>
[[nodiscard]] Matrix<T> item(const T* data, std::size_t k, int n) {
  return Eigen::Map<const RowMajor<T>>(data + k * static_cast<std::size_t>(n * n), n, n);
}

template <class T>
void store(T* data, std::size_t k, int n, const Matrix<T>& value) {
  Eigen::Map<RowMajor<T>>(data + k * static_cast<std::size_t>(n * n), n, n) = value;
}

/// Roughly the floating-point work of one n×n matrix function (an eigendecomposition and products).
inline double matrix_work(int n) { return 30.0 * n * n * n; }

}  // namespace lie_batch_norm_detail

template <class Structure>
LieBatchNorm<Structure>::LieBatchNorm(Structure structure, TensorType features, LieBatchNormOptions options)
    : structure_(std::move(structure)), type_(std::move(features)), options_(options) {
  const ManifoldFiber& fiber = type_.manifold("LieBatchNorm");
  const std::vector<std::size_t>& shape = fiber.item_shape();
  if (type_.base() != Base::kNone || shape.size() != 2 || shape[0] != shape[1]) {
    throw ShapeError("LieBatchNorm", "needs features none × (a space of n×n matrices)[C]", type_.describe());
  }
  n_ = static_cast<int>(shape[0]);
  channels_ = fiber.channels();
  check_batch_norm_options("LieBatchNorm", options_);
  if (options_.metric_scale != 1) {
    throw DomainError("LieBatchNorm", "metric_scale must be 1 (the structure carries the metric)",
                      options_.metric_scale);
  }
  const auto c = static_cast<std::size_t>(channels_);
  const auto n = static_cast<std::size_t>(n_);
  // The bias starts at the identity of the original space: the point whose deformation is e.
  xt::xarray<T> bias = xt::zeros<T>({c, n, n});
  for (std::size_t k = 0; k < c; ++k)
    for (std::size_t i = 0; i < n; ++i) bias(k, i, i) = T(1);
  bias_ = Parameter<T>("LieBatchNorm.bias", std::move(bias), fiber.shared_space<T>());
  scale_ = Parameter<T>("LieBatchNorm.scale", xt::xarray<T>(xt::ones<T>({c})));
  running_mean_ = xt::zeros<T>({c, n, n});
  for (std::size_t k = 0; k < c; ++k)
    lie_batch_norm_detail::store<T>(running_mean_.data(), k, n_, structure_.identity());
  running_variance_ = xt::ones<T>({c});
  batch_mean_ = running_mean_;
  batch_variance_ = running_variance_;
  mean_iterations_.assign(c, 0);
}

template <class Structure>
LieMeanOptions<typename Structure::Scalar> LieBatchNorm<Structure>::mean_options() const {
  LieMeanOptions<T> o;
  o.mode = options_.mean_mode;
  o.karcher_steps = options_.karcher_steps;
  o.tolerance = static_cast<T>(options_.tolerance);
  o.max_iterations = options_.max_iterations;
  return o;
}

template <class Structure>
GeometricTensor<typename Structure::Scalar> LieBatchNorm<Structure>::forward(const GeometricTensor<T>& input) {
  namespace d = lie_batch_norm_detail;
  require_type("LieBatchNorm::forward", type_, input.type);
  const std::size_t batch = input.batch();
  const bool batch_statistics = this->training();
  if (batch_statistics && batch < 2) {
    throw ShapeError("LieBatchNorm::forward", "a training batch needs at least 2 items (one has no variance)", batch);
  }
  type_.manifold().space<T>().check_points(input.data);
  const auto c_count = static_cast<std::size_t>(channels_);
  const auto b_count = static_cast<std::ptrdiff_t>(batch);
  xt::xarray<T> output = xt::xarray<T>::from_shape(input.data.shape());
  Call call = saved_.recycled();  // every field read later is assigned below
  call.batch_statistics = batch_statistics;
  call.channels.resize(c_count);
  const T eps = static_cast<T>(options_.eps);
  const double work = d::matrix_work(n_);
  for (std::size_t c = 0; c < c_count; ++c) {
    ChannelCall& ch = call.channels[c];
    for (auto* v : {&ch.x, &ch.d, &ch.y, &ch.a, &ch.s, &ch.z}) v->resize(batch);
    if constexpr (kSpectral) {
      for (auto* v : {&ch.kept_x, &ch.kept_y, &ch.kept_s, &ch.kept_z}) v->resize(batch);
    }
    parallel_for(b_count, work, [&](std::ptrdiff_t i) {
      const auto u = static_cast<std::size_t>(i);
      ch.x[u] = d::item<T>(input.data.data(), u * c_count + c, n_);
      if constexpr (kSpectral) {
        ch.kept_x[u] = structure_.deform_spectral(ch.x[u]);
        ch.d[u] = ch.kept_x[u].value;
      } else {
        ch.d[u] = structure_.deform(ch.x[u]);
      }
    });
    ch.bias_deformed = structure_.deform(d::item<T>(bias_.value.data(), c, n_));
    if (batch_statistics) {
      ch.mean = structure_.mean(ch.d, mean_options());
    } else {
      ch.mean = {d::item<T>(running_mean_.data(), c, n_), 0};
    }
    parallel_for(b_count, work, [&](std::ptrdiff_t i) {
      const auto u = static_cast<std::size_t>(i);
      ch.y[u] = structure_.untranslate(ch.mean.point, ch.d[u]);
      if constexpr (kSpectral) {
        ch.kept_y[u] = structure_.log_identity_spectral(ch.y[u]);
        ch.a[u] = ch.kept_y[u].value;
      } else {
        ch.a[u] = structure_.log_identity(ch.y[u]);
      }
    });
    if (batch_statistics) {
      T sum = 0;
      for (const Point& a : ch.a) sum += structure_.squared_norm(a);
      ch.variance = sum / static_cast<T>(batch);
    } else {
      ch.variance = running_variance_(c);
    }
    ch.factor = options_.normalize_variance ? scale_.value(c) / std::sqrt(ch.variance + eps) : T(1);
    parallel_for(b_count, work, [&](std::ptrdiff_t i) {
      const auto u = static_cast<std::size_t>(i);
      if constexpr (kSpectral) {
        if (options_.normalize_variance) {
          ch.kept_s[u] = structure_.exp_identity_spectral(Point(ch.factor * ch.a[u]));
          ch.s[u] = ch.kept_s[u].value;
        } else {
          ch.s[u] = ch.y[u];
        }
        ch.z[u] = structure_.translate(ch.bias_deformed, ch.s[u]);
        ch.kept_z[u] = structure_.undeform_spectral(ch.z[u]);
        d::store<T>(output.data(), u * c_count + c, n_, ch.kept_z[u].value);
      } else {
        ch.s[u] = options_.normalize_variance ? structure_.exp_identity(Point(ch.factor * ch.a[u])) : ch.y[u];
        ch.z[u] = structure_.translate(ch.bias_deformed, ch.s[u]);
        d::store<T>(output.data(), u * c_count + c, n_, structure_.undeform(ch.z[u]));
      }
    });
  }
  if (batch_statistics) {
    const T m = static_cast<T>(options_.momentum);
    for (std::size_t c = 0; c < c_count; ++c) {
      const ChannelCall& ch = call.channels[c];
      d::store<T>(batch_mean_.data(), c, n_, ch.mean.point);
      batch_variance_(c) = ch.variance;
      mean_iterations_[c] = ch.mean.iterations;
      const Point running = d::item<T>(running_mean_.data(), c, n_);
      d::store<T>(running_mean_.data(), c, n_, structure_.geodesic(running, ch.mean.point, m));
      running_variance_(c) = (1 - m) * running_variance_(c) + m * ch.variance;
    }
  }
  saved_.push(std::move(call));
  return GeometricTensor<T>(type_, std::move(output));
}

template <class Structure>
GeometricTensor<typename Structure::Scalar> LieBatchNorm<Structure>::backward(const GeometricTensor<T>& grad_output) {
  namespace d = lie_batch_norm_detail;
  require_type("LieBatchNorm::backward", type_, grad_output.type);
  const Call& call = saved_.top("LieBatchNorm::backward", describe());
  const std::size_t batch = call.channels.front().x.size();
  if (grad_output.batch() != batch) {
    throw ShapeError("LieBatchNorm::backward",
                     "grad_output must have the forward's batch size " + std::to_string(batch), grad_output.batch());
  }
  const auto c_count = static_cast<std::size_t>(channels_);
  const auto b_count = static_cast<std::ptrdiff_t>(batch);
  const T eps = static_cast<T>(options_.eps);
  const bool through_statistics = call.batch_statistics && !options_.detach_statistics;
  const double work = d::matrix_work(n_);
  xt::xarray<T> grad_input = xt::xarray<T>::from_shape(grad_output.data.shape());
  xt::xarray<T> grad_bias = xt::zeros_like(bias_.value);
  xt::xarray<T> grad_scale = xt::zeros_like(scale_.value);
  for (std::size_t c = 0; c < c_count; ++c) {
    const ChannelCall& ch = call.channels[c];
    std::vector<Point> grad_a(batch), grad_bias_items(batch);
    std::vector<T> grad_factor_items(batch);
    parallel_for(b_count, work, [&](std::ptrdiff_t i) {
      const auto u = static_cast<std::size_t>(i);
      const Point grad_out = d::item<T>(grad_output.data.data(), u * c_count + c, n_);
      Point grad_z;
      if constexpr (kSpectral) {
        grad_z = structure_.undeform_vjp_spectral(ch.kept_z[u], grad_out);
      } else {
        grad_z = structure_.undeform_vjp(ch.z[u], grad_out);
      }
      const ComposeVjp<Point> bias_vjp = structure_.translate_vjp(ch.bias_deformed, ch.s[u], grad_z);
      grad_bias_items[u] = bias_vjp.a;
      if (!options_.normalize_variance) {  // Sᵢ = Yᵢ: the cotangent goes to Yᵢ, past log_e
        grad_factor_items[u] = 0;
        grad_a[u] = bias_vjp.b;
        return;
      }
      Point grad_scaled;
      if constexpr (kSpectral) {
        grad_scaled = structure_.exp_identity_vjp_spectral(ch.kept_s[u], bias_vjp.b);
      } else {
        grad_scaled = structure_.exp_identity_vjp(Point(ch.factor * ch.a[u]), bias_vjp.b);
      }
      grad_factor_items[u] = grad_scaled.cwiseProduct(ch.a[u]).sum();
      grad_a[u] = ch.factor * grad_scaled;
    });
    T grad_factor = 0;
    Point grad_bias_deformed = Point::Zero(n_, n_);
    for (std::size_t u = 0; u < batch; ++u) {
      grad_factor += grad_factor_items[u];
      grad_bias_deformed += grad_bias_items[u];
    }
    const T root = std::sqrt(ch.variance + eps);
    grad_scale(c) = grad_factor / root;
    // f = s/√(v + ε): ∂f/∂v = −f/(2(v + ε)); v = (1/B)·Σ ‖aᵢ‖².
    const T grad_variance =
        through_statistics && options_.normalize_variance ? -grad_factor * ch.factor / (2 * (ch.variance + eps)) : T(0);
    std::vector<Point> grad_d(batch), grad_mean_items(batch);
    parallel_for(b_count, work, [&](std::ptrdiff_t i) {
      const auto u = static_cast<std::size_t>(i);
      Point total = grad_a[u];
      if (through_statistics && options_.normalize_variance)
        total += (grad_variance / static_cast<T>(batch)) * structure_.squared_norm_gradient(ch.a[u]);
      Point grad_y = total;
      if (options_.normalize_variance) {
        if constexpr (kSpectral) {
          grad_y = structure_.log_identity_vjp_spectral(ch.kept_y[u], total);
        } else {
          grad_y = structure_.log_identity_vjp(ch.y[u], total);
        }
      }
      const ComposeVjp<Point> centre_vjp = structure_.untranslate_vjp(ch.mean.point, ch.d[u], grad_y);
      grad_mean_items[u] = centre_vjp.a;
      grad_d[u] = centre_vjp.b;
    });
    if (through_statistics) {
      Point grad_mean = Point::Zero(n_, n_);
      for (const Point& g : grad_mean_items) grad_mean += g;
      const std::vector<Point> through_mean = structure_.mean_vjp(ch.d, mean_options(), ch.mean, grad_mean);
      for (std::size_t u = 0; u < batch; ++u) grad_d[u] += through_mean[u];
    }
    parallel_for(b_count, work, [&](std::ptrdiff_t i) {
      const auto u = static_cast<std::size_t>(i);
      if constexpr (kSpectral) {
        d::store<T>(grad_input.data(), u * c_count + c, n_, structure_.deform_vjp_spectral(ch.kept_x[u], grad_d[u]));
      } else {
        d::store<T>(grad_input.data(), u * c_count + c, n_, structure_.deform_vjp(ch.x[u], grad_d[u]));
      }
    });
    d::store<T>(grad_bias.data(), c, n_,
                structure_.deform_vjp(d::item<T>(bias_.value.data(), c, n_), grad_bias_deformed));
  }
  bias_.grad += grad_bias;
  scale_.grad += grad_scale;
  saved_.drop();
  return GeometricTensor<T>(type_, std::move(grad_input));
}

template <class Structure>
void LieBatchNorm<Structure>::set_running_statistics(xt::xarray<T> mean, xt::xarray<T> variance) {
  if (mean.shape() != running_mean_.shape()) {
    throw ShapeError("LieBatchNorm::set_running_statistics", "running mean must have shape (C, n, n)",
                     BatchSpace<T>::shape_text(mean));
  }
  if (variance.shape() != running_variance_.shape()) {
    throw ShapeError("LieBatchNorm::set_running_statistics", "running variance must have shape (C)",
                     BatchSpace<T>::shape_text(variance));
  }
  check_running_variance("LieBatchNorm::set_running_statistics", variance);
  for (const T v : mean) {
    if (!std::isfinite(v)) throw DomainError("LieBatchNorm::set_running_statistics", "running mean must be finite", v);
  }
  running_mean_ = std::move(mean);
  running_variance_ = std::move(variance);
}

template <class Structure>
std::string LieBatchNorm<Structure>::describe() const {
  return "LieBatchNorm(" + structure_.name() + ", " + type_.describe() + ")";
}

}  // namespace gyre::nn
