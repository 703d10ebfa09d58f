#pragma once
// Stochastic gradient descent with momentum and weight decay, step for step torch.optim.SGD with
// dampening 0, in torch's order of operations. Per parameter θ with accumulated gradient ∇:
//   g ← ∇ + λ·θ                                  (weight decay λ)
//   b ← g on the first step, else b ← μ·b + g    (momentum μ > 0 only)
//   g ← g + μ·b (Nesterov) or g ← b              (momentum μ > 0 only)
//   θ ← θ − η·g                                  (learning rate η)

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <vector>

#include <xtensor/xarray.hpp>

#include "gyre/optim/parameter.hpp"

namespace gyre::optim {

/// torch.optim.SGD (dampening 0) over Euclidean parameters.
template <class T>
class Sgd {
 public:
  /// Throws DomainError for lr ≤ 0, momentum < 0, weight_decay < 0, or Nesterov without momentum.
  Sgd(std::vector<Parameter<T>*> parameters, T lr, T momentum = 0, T weight_decay = 0, bool nesterov = false);

  /// One update from the accumulated gradients; ShapeError if a gradient's shape is not its value's.
  void step();
  /// Sets every parameter's gradient to zeros of its value's shape.
  void zero_grad();
  /// Changes η (DomainError unless > 0); the momentum buffers are kept, as in torch.
  void set_lr(T lr);
  [[nodiscard]] T lr() const noexcept { return lr_; }

 private:
  std::vector<Parameter<T>*> parameters_;
  T lr_, momentum_, weight_decay_;
  bool nesterov_;
  std::vector<xt::xarray<T>> buffers_;
  std::vector<bool> have_buffer_;
};

extern template class Sgd<float>;
extern template class Sgd<double>;

}  // namespace gyre::optim
