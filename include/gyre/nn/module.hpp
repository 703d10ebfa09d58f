#pragma once
// The layer interface: forward, backward, parameters, train/eval — escnn's EquivariantModule
// without autograd. Modules are re-entrant: each forward() saves what its backward needs
// (SavedCalls; nothing under a NoGrad guard), so a module may run several times before backward (weight sharing); each
// backward() takes ∂L/∂output of the most recent forward() not yet differentiated, accumulates
// ∂L/∂parameter into each Parameter's grad and returns ∂L/∂input. A module run k times receives
// the sum of its k calls' gradients. backward() with no forward() left throws UnmatchedBackwardError.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <memory>
#include <string>
#include <vector>

#include <xtensor/xarray.hpp>

#include "gyre/nn/geometric_tensor.hpp"
#include "gyre/nn/saved_calls.hpp"
#include "gyre/nn/tensor_type.hpp"
#include "gyre/optim/parameter.hpp"

namespace gyre::nn {

using optim::Parameter;

/// A layer or network mapping tensors of in_type() to tensors of out_type().
template <class T>
class Module {
 public:
  virtual ~Module() = default;
  Module() = default;
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  /// Computes the output and, unless a NoGrad guard is alive, saves what backward() needs for this call.
  virtual GeometricTensor<T> forward(const GeometricTensor<T>& input) = 0;
  /// ∂L/∂input from ∂L/∂output of the most recent undifferentiated forward(); adds ∂L/∂θ to grads.
  virtual GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) = 0;
  /// The learnable parameters (pointers stay valid for the module's lifetime).
  virtual std::vector<Parameter<T>*> parameters() { return {}; }
  [[nodiscard]] virtual const TensorType& in_type() const = 0;
  [[nodiscard]] virtual const TensorType& out_type() const = 0;
  /// A one-line description, e.g. "R2Conv(C8[16×regular] → C8[16×regular], k=5)".
  [[nodiscard]] virtual std::string describe() const = 0;
  /// Forward calls saved and not yet differentiated.
  [[nodiscard]] virtual std::size_t pending_calls() const = 0;
  /// Forgets every saved call (forwards whose results will not be differentiated).
  virtual void discard_saved() = 0;

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
