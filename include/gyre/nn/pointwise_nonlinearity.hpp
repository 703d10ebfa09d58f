#pragma once
// Pointwise nonlinearities (escnn's PointwiseNonLinearity): σ applied to every channel. They commute
// with the group only when every ρ(g) permutes channels, so only permutation fields are accepted
// (regular, quotient, trivial); anything else is a DomainError at construction.

#include <cmath>
#include <optional>
#include <string>

#include "gyre/core/error.hpp"
#include "gyre/nn/module.hpp"

namespace gyre::nn {

/// Which σ a PointwiseNonlinearity applies.
enum class Pointwise { kReLU, kELU };

/// y = σ(x) channel by channel, on permutation fields only.
template <class T>
class PointwiseNonlinearity : public Module<T> {
 public:
  PointwiseNonlinearity(FieldType type, Pointwise kind, T alpha = T(1)) : type_(std::move(type)), kind_(kind), alpha_(alpha) {
    for (const repr::Representation& rho : type_.fields()) {
      if (!rho.is_permutation()) {
        throw DomainError(name(), "pointwise nonlinearities need permutation fields (regular, quotient, trivial)",
                          rho.name());
      }
    }
  }

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override {
    require_field_type((name() + "::forward").c_str(), type_, input.type);
    GeometricTensor<T> output = input;
    for (T& v : output.data) v = apply(v);
    if (this->training()) input_ = input.data;
    return output;
  }

  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override {
    require_field_type((name() + "::backward").c_str(), type_, grad_output.type);
    if (!input_) throw DomainError(name() + "::backward", "no training-mode forward pass to differentiate", describe());
    GeometricTensor<T> grad = grad_output;
    const T* x = input_->data();
    T* g = grad.data.data();
    for (std::size_t i = 0; i < grad.data.size(); ++i) g[i] *= derivative(x[i]);
    return grad;
  }

  [[nodiscard]] const FieldType& in_type() const override { return type_; }
  [[nodiscard]] const FieldType& out_type() const override { return type_; }
  [[nodiscard]] std::string describe() const override { return name() + "(" + type_.describe() + ")"; }

 private:
  [[nodiscard]] std::string name() const { return kind_ == Pointwise::kReLU ? "PointwiseReLU" : "PointwiseELU"; }
  [[nodiscard]] T apply(T x) const {
    if (kind_ == Pointwise::kReLU) return x > 0 ? x : T(0);
    return x > 0 ? x : alpha_ * std::expm1(x);
  }
  // The derivative at 0 is taken from the left (0 for ReLU, α for ELU), as torch does.
  [[nodiscard]] T derivative(T x) const {
    if (kind_ == Pointwise::kReLU) return x > 0 ? T(1) : T(0);
    return x > 0 ? T(1) : alpha_ * std::exp(x);
  }

  FieldType type_;
  Pointwise kind_;
  T alpha_;
  std::optional<xt::xtensor<T, 4>> input_;
};

/// max(x, 0) on permutation fields.
template <class T>
class PointwiseReLU : public PointwiseNonlinearity<T> {
 public:
  explicit PointwiseReLU(FieldType type) : PointwiseNonlinearity<T>(std::move(type), Pointwise::kReLU) {}
};

/// x for x > 0, α(eˣ − 1) otherwise, on permutation fields.
template <class T>
class PointwiseELU : public PointwiseNonlinearity<T> {
 public:
  explicit PointwiseELU(FieldType type, T alpha = T(1))
      : PointwiseNonlinearity<T>(std::move(type), Pointwise::kELU, alpha) {}
};

}  // namespace gyre::nn
