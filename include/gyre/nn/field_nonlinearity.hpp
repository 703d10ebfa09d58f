#pragma once
// Nonlinearities that act on whole fields and so commute with any orthogonal ρ:
//   NormReLU            f ↦ relu(‖f‖ − b)·f/‖f‖ per field and pixel, a learnable b per field,
//                       initially 0 (escnn's NormNonLinearity "n_relu");
//   GatedNonlinearity   f ↦ sigmoid(gate)·f, one trivial gate field per gated field, gates first
//                       (escnn's GatedNonLinearity1 layout: input = [gate₁ … gateₙ, f₁ … fₙ]).
// At f = 0 NormReLU outputs 0 with zero gradient: for b ≥ 0 that is the limit from every side; for
// b < 0 the direction f/‖f‖ is undefined and Gyre picks 0 rather than a NaN. No ε enters the
// formula: ‖f‖ > 0 is tested exactly, so the gradient away from 0 is the exact one.
// Both keep their input in training and evaluation mode, so backward() always differentiates the
// most recent forward().

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <optional>
#include <string>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "gyre/nn/module.hpp"

namespace gyre::nn {

/// relu(‖f‖ − b)·f/‖f‖ per field and pixel, with a learnable bias b per field (initially 0).
template <class T>
class NormReLU : public Module<T> {
 public:
  /// Any fields (the norm of an orthogonal representation is invariant).
  explicit NormReLU(FieldType type);

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override;
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override;
  std::vector<Parameter<T>*> parameters() override { return {&bias_}; }
  [[nodiscard]] const TensorType& in_type() const override { return tensor_type_; }
  [[nodiscard]] const TensorType& out_type() const override { return tensor_type_; }
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::size_t pending_calls() const override { return inputs_.size(); }
  void discard_saved() override { inputs_.clear(); }

 private:
  FieldType type_;
  TensorType tensor_type_;
  Parameter<T> bias_;
  SavedCalls<xt::xarray<T>> inputs_;
};

/// sigmoid(gᵢ)·fᵢ: the input holds one trivial gate per gated field, gates first.
template <class T>
class GatedNonlinearity : public Module<T> {
 public:
  /// `gated` are the fields to gate; the input type is [n_fields × trivial, gated fields…].
  explicit GatedNonlinearity(FieldType gated);

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override;
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override;
  [[nodiscard]] const TensorType& in_type() const override { return in_type_; }
  [[nodiscard]] const TensorType& out_type() const override { return out_type_; }
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::size_t pending_calls() const override { return inputs_.size(); }
  void discard_saved() override { inputs_.clear(); }

 private:
  FieldType out_;
  FieldType in_;
  TensorType out_type_, in_type_;
  SavedCalls<xt::xarray<T>> inputs_;
};

extern template class NormReLU<float>;
extern template class NormReLU<double>;
extern template class GatedNonlinearity<float>;
extern template class GatedNonlinearity<double>;

}  // namespace gyre::nn
