#pragma once
// Batch normalisation inside fields (escnn's InnerBatchNorm): every field gets one mean and one
// variance, shared by all its channels and computed over (N, H, W, the field's channels). Because
// a permutation field's channels are shuffled by the group, sharing the statistics keeps the layer
// equivariant; other fields are rejected (DomainError). Training normalises with the biased batch
// variance and updates running statistics with the unbiased one (torch's BatchNorm semantics);
// evaluation uses the running statistics.

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "gyre/core/error.hpp"
#include "gyre/nn/module.hpp"
#include "gyre/nn/pooling.hpp"

namespace gyre::nn {

/// y = γ·(x − μ)/√(σ² + ε) + β per field, statistics shared by the field's channels.
template <class T>
class InnerBatchNorm : public Module<T> {
 public:
  explicit InnerBatchNorm(FieldType type, T eps = T(1e-5), T momentum = T(0.1), bool affine = true)
      : type_(std::move(type)), eps_(eps), momentum_(momentum), affine_(affine) {
    detail::require_permutation_fields("InnerBatchNorm", type_);
    const std::size_t n = static_cast<std::size_t>(type_.n_fields());
    weight_ = Parameter<T>{"weight", xt::ones<T>({n}), xt::zeros<T>({n})};
    bias_ = Parameter<T>{"bias", xt::zeros<T>({n}), xt::zeros<T>({n})};
    running_mean_.assign(n, T(0));
    running_var_.assign(n, T(1));
  }

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override {
    require_field_type("InnerBatchNorm::forward", type_, input.type);
    const std::size_t n = input.data.shape(0);
    const std::size_t plane = input.data.shape(2) * input.data.shape(3);
    const std::size_t fields = static_cast<std::size_t>(type_.n_fields());
    GeometricTensor<T> output = input;
    mean_.assign(fields, T(0));
    inv_std_.assign(fields, T(0));
    for (std::size_t f = 0; f < fields; ++f) {
      const std::size_t d = static_cast<std::size_t>(type_.fields()[f].size());
      const std::size_t offset = static_cast<std::size_t>(type_.field_offset(static_cast<int>(f)));
      T mean = running_mean_[f];
      T var = running_var_[f];
      if (this->training()) {
        const double count = static_cast<double>(n * d * plane);
        if (count < 2) throw ShapeError("InnerBatchNorm::forward", "training needs more than one value per field", count);
        double sum = 0;
        double sum2 = 0;
        for (std::size_t i = 0; i < n; ++i) {
          const T* x = input.data.data() + (i * static_cast<std::size_t>(type_.size()) + offset) * plane;
          for (std::size_t k = 0; k < d * plane; ++k) sum += static_cast<double>(x[k]);
        }
        const double m = sum / count;
        for (std::size_t i = 0; i < n; ++i) {
          const T* x = input.data.data() + (i * static_cast<std::size_t>(type_.size()) + offset) * plane;
          for (std::size_t k = 0; k < d * plane; ++k) sum2 += (static_cast<double>(x[k]) - m) * (static_cast<double>(x[k]) - m);
        }
        mean = static_cast<T>(m);
        var = static_cast<T>(sum2 / count);
        running_mean_[f] = (1 - momentum_) * running_mean_[f] + momentum_ * mean;
        running_var_[f] = (1 - momentum_) * running_var_[f] + momentum_ * static_cast<T>(sum2 / (count - 1));
      }
      mean_[f] = mean;
      inv_std_[f] = T(1) / std::sqrt(var + eps_);
      const T gamma = affine_ ? weight_.value(f) : T(1);
      const T beta = affine_ ? bias_.value(f) : T(0);
      for (std::size_t i = 0; i < n; ++i) {
        T* y = output.data.data() + (i * static_cast<std::size_t>(type_.size()) + offset) * plane;
        for (std::size_t k = 0; k < d * plane; ++k) y[k] = gamma * (y[k] - mean) * inv_std_[f] + beta;
      }
    }
    if (this->training()) {
      input_ = input.data;
    } else {
      input_.reset();
    }
    return output;
  }

  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override {
    require_field_type("InnerBatchNorm::backward", type_, grad_output.type);
    if (!input_) {
      throw DomainError("InnerBatchNorm::backward", "no training-mode forward pass to differentiate", describe());
    }
    const std::size_t n = grad_output.data.shape(0);
    const std::size_t plane = grad_output.data.shape(2) * grad_output.data.shape(3);
    GeometricTensor<T> grad = grad_output;
    for (std::size_t f = 0; f < static_cast<std::size_t>(type_.n_fields()); ++f) {
      const std::size_t d = static_cast<std::size_t>(type_.fields()[f].size());
      const std::size_t offset = static_cast<std::size_t>(type_.field_offset(static_cast<int>(f)));
      const double count = static_cast<double>(n * d * plane);
      double sum_g = 0;
      double sum_g_xhat = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t base = (i * static_cast<std::size_t>(type_.size()) + offset) * plane;
        for (std::size_t k = 0; k < d * plane; ++k) {
          const double g = grad_output.data.data()[base + k];
          const double xhat = (static_cast<double>(input_->data()[base + k]) - mean_[f]) * inv_std_[f];
          sum_g += g;
          sum_g_xhat += g * xhat;
        }
      }
      const T gamma = affine_ ? weight_.value(f) : T(1);
      if (affine_) {
        weight_.grad(f) += static_cast<T>(sum_g_xhat);
        bias_.grad(f) += static_cast<T>(sum_g);
      }
      // ∂L/∂x = γ/σ·(g − mean(g) − x̂·mean(g·x̂)), the batch statistics differentiated too.
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t base = (i * static_cast<std::size_t>(type_.size()) + offset) * plane;
        for (std::size_t k = 0; k < d * plane; ++k) {
          const double xhat = (static_cast<double>(input_->data()[base + k]) - mean_[f]) * inv_std_[f];
          const double g = grad_output.data.data()[base + k];
          grad.data.data()[base + k] =
              static_cast<T>(gamma * inv_std_[f] * (g - sum_g / count - xhat * sum_g_xhat / count));
        }
      }
    }
    return grad;
  }

  std::vector<Parameter<T>*> parameters() override {
    if (!affine_) return {};
    return {&weight_, &bias_};
  }
  [[nodiscard]] const FieldType& in_type() const override { return type_; }
  [[nodiscard]] const FieldType& out_type() const override { return type_; }
  [[nodiscard]] std::string describe() const override { return "InnerBatchNorm(" + type_.describe() + ")"; }
  [[nodiscard]] const std::vector<T>& running_mean() const noexcept { return running_mean_; }
  [[nodiscard]] const std::vector<T>& running_var() const noexcept { return running_var_; }

 private:
  FieldType type_;
  T eps_, momentum_;
  bool affine_;
  Parameter<T> weight_, bias_;
  std::vector<T> running_mean_, running_var_, mean_, inv_std_;
  std::optional<xt::xtensor<T, 4>> input_;
};

}  // namespace gyre::nn
