#include "gyre/nn/inner_batch_norm.hpp"

#include <cmath>

#include "gyre/core/error.hpp"
#include "gyre/nn/pooling.hpp"

namespace gyre::nn {

template <class T>
InnerBatchNorm<T>::InnerBatchNorm(FieldType type, T eps, T momentum, bool affine)
    : type_(std::move(type)), tensor_type_(type_), eps_(eps), momentum_(momentum), affine_(affine) {
  detail::require_permutation_fields("InnerBatchNorm", type_);
  if (!(eps_ > 0)) throw DomainError("InnerBatchNorm", "eps must be > 0", eps_);
  if (!(momentum_ >= 0 && momentum_ <= 1)) throw DomainError("InnerBatchNorm", "momentum must be in [0, 1]", momentum_);
  const std::size_t n = static_cast<std::size_t>(type_.n_fields());
  weight_ = Parameter<T>{"weight", xt::ones<T>({n}), xt::zeros<T>({n})};
  bias_ = Parameter<T>{"bias", xt::zeros<T>({n}), xt::zeros<T>({n})};
  running_mean_.assign(n, T(0));
  running_var_.assign(n, T(1));
}

template <class T>
GeometricTensor<T> InnerBatchNorm<T>::forward(const GeometricTensor<T>& input) {
  require_field_type("InnerBatchNorm::forward", type_, input.type);
  const std::size_t n = input.data.shape(0);
  const std::size_t plane = input.data.shape(2) * input.data.shape(3);
  const std::size_t channels = static_cast<std::size_t>(type_.size());
  const std::size_t fields = static_cast<std::size_t>(type_.n_fields());
  const bool batch = this->training();
  GeometricTensor<T> output = input;
  std::vector<T> means(fields, T(0));
  std::vector<T> inv_stds(fields, T(0));
  for (std::size_t f = 0; f < fields; ++f) {
    const std::size_t d = static_cast<std::size_t>(type_.fields()[f].size());
    const std::size_t offset = static_cast<std::size_t>(type_.field_offset(static_cast<int>(f)));
    T mean = running_mean_[f];
    T var = running_var_[f];
    if (batch) {
      const std::size_t count = n * d * plane;
      if (count < 2) throw ShapeError("InnerBatchNorm::forward", "training needs more than one value per field", count);
      // Two passes (mean, then squared deviations): the one-pass Σx² − (Σx)²/n cancels catastrophically.
      double sum = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const T* x = input.data.data() + (i * channels + offset) * plane;
        for (std::size_t k = 0; k < d * plane; ++k) sum += static_cast<double>(x[k]);
      }
      const double m = sum / static_cast<double>(count);
      double sum2 = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const T* x = input.data.data() + (i * channels + offset) * plane;
        for (std::size_t k = 0; k < d * plane; ++k)
          sum2 += (static_cast<double>(x[k]) - m) * (static_cast<double>(x[k]) - m);
      }
      mean = static_cast<T>(m);
      var = static_cast<T>(sum2 / static_cast<double>(count));
      running_mean_[f] = (1 - momentum_) * running_mean_[f] + momentum_ * mean;
      running_var_[f] =
          (1 - momentum_) * running_var_[f] + momentum_ * static_cast<T>(sum2 / static_cast<double>(count - 1));
    }
    means[f] = mean;
    inv_stds[f] = T(1) / std::sqrt(var + eps_);
    const T gamma = affine_ ? weight_.value(f) : T(1);
    const T beta = affine_ ? bias_.value(f) : T(0);
    for (std::size_t i = 0; i < n; ++i) {
      T* y = output.data.data() + (i * channels + offset) * plane;
      for (std::size_t k = 0; k < d * plane; ++k) y[k] = gamma * (y[k] - mean) * inv_stds[f] + beta;
    }
  }
  calls_.push(Call{input.data, std::move(means), std::move(inv_stds), batch});
  return output;
}

template <class T>
GeometricTensor<T> InnerBatchNorm<T>::backward(const GeometricTensor<T>& grad_output) {
  require_field_type("InnerBatchNorm::backward", type_, grad_output.type);
  const Call& call = calls_.top("InnerBatchNorm::backward", describe());
  if (grad_output.data.shape() != call.input.shape()) {
    throw ShapeError("InnerBatchNorm::backward", "grad_output must have the last forward output's shape",
                     grad_output.data.size());
  }
  const std::size_t n = grad_output.data.shape(0);
  const std::size_t plane = grad_output.data.shape(2) * grad_output.data.shape(3);
  const std::size_t channels = static_cast<std::size_t>(type_.size());
  GeometricTensor<T> grad = grad_output;
  for (std::size_t f = 0; f < static_cast<std::size_t>(type_.n_fields()); ++f) {
    const std::size_t d = static_cast<std::size_t>(type_.fields()[f].size());
    const std::size_t offset = static_cast<std::size_t>(type_.field_offset(static_cast<int>(f)));
    const double count = static_cast<double>(n * d * plane);
    const double mean = call.mean[f];
    const double inv_std = call.inv_std[f];
    double sum_g = 0;
    double sum_g_xhat = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t base = (i * channels + offset) * plane;
      for (std::size_t k = 0; k < d * plane; ++k) {
        const double g = grad_output.data.data()[base + k];
        sum_g += g;
        sum_g_xhat += g * (static_cast<double>(call.input.data()[base + k]) - mean) * inv_std;
      }
    }
    const double gamma = affine_ ? weight_.value(f) : T(1);
    if (affine_) {
      weight_.grad(f) += static_cast<T>(sum_g_xhat);
      bias_.grad(f) += static_cast<T>(sum_g);
    }
    // Batch statistics depend on x, which subtracts the projections onto 1 and x̂; the running
    // statistics of evaluation mode are constants.
    const double mean_g = call.batch_statistics ? sum_g / count : 0.0;
    const double mean_g_xhat = call.batch_statistics ? sum_g_xhat / count : 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t base = (i * channels + offset) * plane;
      for (std::size_t k = 0; k < d * plane; ++k) {
        const double xhat = (static_cast<double>(call.input.data()[base + k]) - mean) * inv_std;
        const double g = grad_output.data.data()[base + k];
        grad.data.data()[base + k] = static_cast<T>(gamma * inv_std * (g - mean_g - xhat * mean_g_xhat));
      }
    }
  }
  calls_.drop();  // only now: a backward that throws leaves the call to retry
  return grad;
}

template <class T>
std::vector<Parameter<T>*> InnerBatchNorm<T>::parameters() {
  if (!affine_) return {};
  return {&weight_, &bias_};
}

template <class T>
std::string InnerBatchNorm<T>::describe() const {
  return "InnerBatchNorm(" + type_.describe() + ")";
}

template class InnerBatchNorm<float>;
template class InnerBatchNorm<double>;

}  // namespace gyre::nn
