#pragma once
// Adam (Kingma & Ba 2015), step for step torch.optim.Adam (amsgrad off; weight decay added to the
// gradient, "L2", not AdamW's decoupled decay), in torch's order of operations. At step t = 1, 2, …,
// per parameter θ with accumulated gradient ∇ and moments m, v (initially 0):
//   g ← ∇ + λ·θ
//   m ← β₁·m + (1 − β₁)·g          (computed as m + (1 − β₁)·(g − m), torch's lerp)
//   v ← β₂·v + (1 − β₂)·g²
//   θ ← θ − (η/(1 − β₁ᵗ)) · m / (√v/√(1 − β₂ᵗ) + ε)
// The bias corrections 1 − βᵗ are computed in double, as torch computes them in Python floats.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <vector>

#include <xtensor/xarray.hpp>

#include "gyre/optim/parameter.hpp"

namespace gyre::optim {

/// torch.optim.Adam over Euclidean parameters.
template <class T>
class Adam {
 public:
  /// Throws DomainError for lr ≤ 0, β ∉ [0, 1), eps ≤ 0 or weight_decay < 0.
  Adam(std::vector<Parameter<T>*> parameters, T lr, T beta1 = T(0.9), T beta2 = T(0.999), T eps = T(1e-8),
       T weight_decay = 0);

  /// One update from the accumulated gradients; ShapeError if a gradient's shape is not its value's.
  void step();
  /// Sets every parameter's gradient to zeros of its value's shape.
  void zero_grad();
  /// Changes η (DomainError unless > 0); moments and step count are kept, as in torch.
  void set_lr(T lr);
  [[nodiscard]] T lr() const noexcept { return lr_; }
  /// Steps taken so far (t of the formulas after the last step).
  [[nodiscard]] long steps() const noexcept { return t_; }

 private:
  std::vector<Parameter<T>*> parameters_;
  T lr_, beta1_, beta2_, eps_, weight_decay_;
  std::vector<xt::xarray<T>> m_, v_;
  long t_ = 0;
};

extern template class Adam<float>;
extern template class Adam<double>;

}  // namespace gyre::optim
