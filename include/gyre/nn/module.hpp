#pragma once
// The layer interface: forward, backward, parameters, train/eval — escnn's EquivariantModule
// without autograd. backward() takes ∂L/∂output of the most recent forward(), accumulates
// ∂L/∂parameter into each Parameter's grad and returns ∂L/∂input.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <memory>
#include <string>
#include <vector>

#include <xtensor/xarray.hpp>

#include "gyre/nn/field_type.hpp"
#include "gyre/nn/geometric_tensor.hpp"

namespace gyre::nn {

/// A learnable array and its accumulated gradient (same shape).
template <class T>
struct Parameter {
  std::string name;
  xt::xarray<T> value;
  xt::xarray<T> grad;
};

/// A layer or network mapping feature maps of in_type() to feature maps of out_type().
template <class T>
class Module {
 public:
  virtual ~Module() = default;
  Module() = default;
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  /// Computes the output and keeps what backward() needs.
  virtual GeometricTensor<T> forward(const GeometricTensor<T>& input) = 0;
  /// ∂L/∂input from ∂L/∂output of the last forward(); adds ∂L/∂θ to each parameter's grad.
  virtual GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) = 0;
  /// The learnable parameters (pointers stay valid for the module's lifetime).
  virtual std::vector<Parameter<T>*> parameters() { return {}; }
  [[nodiscard]] virtual const FieldType& in_type() const = 0;
  [[nodiscard]] virtual const FieldType& out_type() const = 0;
  /// A one-line description, e.g. "R2Conv(C8[16×regular] → C8[16×regular], k=5)".
  [[nodiscard]] virtual std::string describe() const = 0;

  /// Training mode (batch statistics, filters expanded every step) or evaluation mode.
  virtual void train(bool on = true) { training_ = on; }
  void eval() { train(false); }
  [[nodiscard]] bool training() const noexcept { return training_; }
  /// Sets every parameter's gradient to zero.
  void zero_grad() {
    for (Parameter<T>* p : parameters()) p->grad = xt::zeros_like(p->value);
  }
  /// Σ parameter sizes.
  [[nodiscard]] std::size_t parameter_count() {
    std::size_t n = 0;
    for (Parameter<T>* p : parameters()) n += p->value.size();
    return n;
  }

 private:
  bool training_ = true;
};

}  // namespace gyre::nn
