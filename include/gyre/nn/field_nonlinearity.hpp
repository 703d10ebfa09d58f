#pragma once
// Nonlinearities that act on whole fields and so commute with any orthogonal ρ:
//   NormReLU            f ↦ relu(‖f‖ − b)·f/‖f‖ per field, a learnable b per field (escnn's n_relu);
//   GatedNonlinearity   f ↦ sigmoid(gate)·f, one trivial gate field per gated field, gates first
//                       (escnn's GatedNonLinearity1 layout).
// At ‖f‖ = 0 NormReLU outputs 0 with zero gradient (relu(−b) ≤ ‖f‖ there for b ≥ 0; for b < 0 the
// direction is undefined and Gyre picks 0 rather than a NaN).

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "gyre/core/error.hpp"
#include "gyre/nn/module.hpp"

namespace gyre::nn {

/// relu(‖f‖ − b)·f/‖f‖ per field and pixel, with a learnable bias b per field (initially 0).
template <class T>
class NormReLU : public Module<T> {
 public:
  explicit NormReLU(FieldType type) : type_(std::move(type)) {
    const std::size_t n = static_cast<std::size_t>(type_.n_fields());
    bias_ = Parameter<T>{"bias", xt::zeros<T>({n}), xt::zeros<T>({n})};
  }

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override {
    require_field_type("NormReLU::forward", type_, input.type);
    GeometricTensor<T> output = input;
    const std::size_t plane = input.data.shape(2) * input.data.shape(3);
    for (std::size_t n = 0; n < input.data.shape(0); ++n) {
      for (int f = 0; f < type_.n_fields(); ++f) {
        const std::size_t d = static_cast<std::size_t>(type_.fields()[static_cast<std::size_t>(f)].size());
        T* base = output.data.data() + (n * static_cast<std::size_t>(type_.size()) + static_cast<std::size_t>(type_.field_offset(f))) * plane;
        const T b = bias_.value(static_cast<std::size_t>(f));
        for (std::size_t p = 0; p < plane; ++p) {
          T norm2 = 0;
          for (std::size_t c = 0; c < d; ++c) norm2 += base[c * plane + p] * base[c * plane + p];
          const T norm = std::sqrt(norm2);
          const T scale = (norm > 0 && norm - b > 0) ? (norm - b) / norm : T(0);
          for (std::size_t c = 0; c < d; ++c) base[c * plane + p] *= scale;
        }
      }
    }
    if (this->training()) input_ = input.data;
    return output;
  }

  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override {
    require_field_type("NormReLU::backward", type_, grad_output.type);
    if (!input_) throw DomainError("NormReLU::backward", "no training-mode forward pass to differentiate", describe());
    GeometricTensor<T> grad = grad_output;
    const std::size_t plane = grad.data.shape(2) * grad.data.shape(3);
    for (std::size_t n = 0; n < grad.data.shape(0); ++n) {
      for (int f = 0; f < type_.n_fields(); ++f) {
        const std::size_t d = static_cast<std::size_t>(type_.fields()[static_cast<std::size_t>(f)].size());
        const std::size_t offset = (n * static_cast<std::size_t>(type_.size()) + static_cast<std::size_t>(type_.field_offset(f))) * plane;
        const T* x = input_->data() + offset;
        T* g = grad.data.data() + offset;
        const T b = bias_.value(static_cast<std::size_t>(f));
        T& grad_b = bias_.grad(static_cast<std::size_t>(f));
        for (std::size_t p = 0; p < plane; ++p) {
          T norm2 = 0;
          T dot = 0;
          for (std::size_t c = 0; c < d; ++c) {
            norm2 += x[c * plane + p] * x[c * plane + p];
            dot += x[c * plane + p] * g[c * plane + p];
          }
          const T norm = std::sqrt(norm2);
          if (!(norm > 0 && norm - b > 0)) {
            for (std::size_t c = 0; c < d; ++c) g[c * plane + p] = 0;
            continue;
          }
          // y = (1 − b/‖f‖)·f: ∂y/∂f = (1 − b/‖f‖)·I + b·f fᵀ/‖f‖³, ∂y/∂b = −f/‖f‖.
          const T scale = (norm - b) / norm;
          const T radial = b * dot / (norm2 * norm);
          for (std::size_t c = 0; c < d; ++c) g[c * plane + p] = scale * g[c * plane + p] + radial * x[c * plane + p];
          grad_b -= dot / norm;
        }
      }
    }
    return grad;
  }

  std::vector<Parameter<T>*> parameters() override { return {&bias_}; }
  [[nodiscard]] const FieldType& in_type() const override { return type_; }
  [[nodiscard]] const FieldType& out_type() const override { return type_; }
  [[nodiscard]] std::string describe() const override { return "NormReLU(" + type_.describe() + ")"; }

 private:
  FieldType type_;
  Parameter<T> bias_;
  std::optional<xt::xtensor<T, 4>> input_;
};

/// sigmoid(gᵢ)·fᵢ: the input holds one trivial gate per gated field, gates first.
template <class T>
class GatedNonlinearity : public Module<T> {
 public:
  /// `gated` are the fields to gate; the input type is [trivial × n_fields, gated fields].
  explicit GatedNonlinearity(FieldType gated) : out_(gated), in_(make_input_type(gated)) {}

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override {
    require_field_type("GatedNonlinearity::forward", in_, input.type);
    const std::size_t n = input.data.shape(0);
    const std::size_t h = input.data.shape(2);
    const std::size_t w = input.data.shape(3);
    GeometricTensor<T> output = GeometricTensor<T>::zeros(out_, n, h, w);
    const std::size_t plane = h * w;
    const std::size_t gates = static_cast<std::size_t>(out_.n_fields());
    for (std::size_t i = 0; i < n; ++i) {
      const T* in = input.data.data() + i * static_cast<std::size_t>(in_.size()) * plane;
      T* out = output.data.data() + i * static_cast<std::size_t>(out_.size()) * plane;
      for (int f = 0; f < out_.n_fields(); ++f) {
        const std::size_t d = static_cast<std::size_t>(out_.fields()[static_cast<std::size_t>(f)].size());
        const T* gate = in + static_cast<std::size_t>(f) * plane;
        const T* field = in + (gates + static_cast<std::size_t>(out_.field_offset(f))) * plane;
        T* dst = out + static_cast<std::size_t>(out_.field_offset(f)) * plane;
        for (std::size_t p = 0; p < plane; ++p) {
          const T s = sigmoid(gate[p]);
          for (std::size_t c = 0; c < d; ++c) dst[c * plane + p] = s * field[c * plane + p];
        }
      }
    }
    if (this->training()) input_ = input.data;
    return output;
  }

  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override {
    require_field_type("GatedNonlinearity::backward", out_, grad_output.type);
    if (!input_) {
      throw DomainError("GatedNonlinearity::backward", "no training-mode forward pass to differentiate", describe());
    }
    const std::size_t n = grad_output.data.shape(0);
    const std::size_t plane = grad_output.data.shape(2) * grad_output.data.shape(3);
    GeometricTensor<T> grad = GeometricTensor<T>::zeros(in_, n, grad_output.data.shape(2), grad_output.data.shape(3));
    const std::size_t gates = static_cast<std::size_t>(out_.n_fields());
    for (std::size_t i = 0; i < n; ++i) {
      const T* in = input_->data() + i * static_cast<std::size_t>(in_.size()) * plane;
      const T* go = grad_output.data.data() + i * static_cast<std::size_t>(out_.size()) * plane;
      T* gi = grad.data.data() + i * static_cast<std::size_t>(in_.size()) * plane;
      for (int f = 0; f < out_.n_fields(); ++f) {
        const std::size_t d = static_cast<std::size_t>(out_.fields()[static_cast<std::size_t>(f)].size());
        const std::size_t field_offset = (gates + static_cast<std::size_t>(out_.field_offset(f))) * plane;
        const std::size_t out_offset = static_cast<std::size_t>(out_.field_offset(f)) * plane;
        for (std::size_t p = 0; p < plane; ++p) {
          const T s = sigmoid(in[static_cast<std::size_t>(f) * plane + p]);
          T dot = 0;
          for (std::size_t c = 0; c < d; ++c) {
            dot += in[field_offset + c * plane + p] * go[out_offset + c * plane + p];
            gi[field_offset + c * plane + p] = s * go[out_offset + c * plane + p];
          }
          gi[static_cast<std::size_t>(f) * plane + p] = s * (1 - s) * dot;
        }
      }
    }
    return grad;
  }

  [[nodiscard]] const FieldType& in_type() const override { return in_; }
  [[nodiscard]] const FieldType& out_type() const override { return out_; }
  [[nodiscard]] std::string describe() const override { return "GatedNonlinearity(" + in_.describe() + ")"; }

 private:
  static T sigmoid(T x) { return x >= 0 ? T(1) / (1 + std::exp(-x)) : std::exp(x) / (1 + std::exp(x)); }
  static FieldType make_input_type(const FieldType& gated) {
    std::vector<repr::Representation> fields(static_cast<std::size_t>(gated.n_fields()),
                                             repr::trivial_representation(gated.group()));
    fields.insert(fields.end(), gated.fields().begin(), gated.fields().end());
    return FieldType(gated.group(), std::move(fields));
  }

  FieldType out_;
  FieldType in_;
  std::optional<xt::xtensor<T, 4>> input_;
};

}  // namespace gyre::nn
