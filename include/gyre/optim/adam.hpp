#pragma once
// Adam (Kingma & Ba 2015). On a Euclidean parameter θ with accumulated gradient ∇ it is step for
// step torch.optim.Adam (weight decay added to the gradient, "L2", not AdamW's decoupled decay), in
// torch's order of operations. At step t = 1, 2, …, with moments m, v (initially 0):
//   g ← ∇ + λ·θ
//   m ← β₁·m + (1 − β₁)·g          (computed as m + (1 − β₁)·(g − m), torch's lerp)
//   v ← β₂·v + (1 − β₂)·g²          (AMSGrad: v̂ ← max(v̂, v), used in place of v below)
//   θ ← θ − (η/(1 − β₁ᵗ)) · m / (√v/√(1 − β₂ᵗ) + ε)
// The bias corrections 1 − βᵗ are computed in double, as torch computes them in Python floats.
//
// On a parameter with a space it is Riemannian Adam (Bécigneul & Ganea 2019), step for step geoopt's
// RiemannianAdam: r = egrad_to_rgrad(x, ∇ + λ·x), m ← β₁·m + (1 − β₁)·r, v ← β₂·v + (1 − β₂)·⟨r, r⟩ₓ
// (one second moment per point, not per entry: a point's coordinates have no meaning of their
// own), x ← retract(x, −η·(m/(1 − β₁ᵗ)) / (√(v/(1 − β₂ᵗ)) + ε)) (or exp), and m is transported
// to the new point (manifold_update.hpp).

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <vector>

#include <xtensor/xarray.hpp>

#include "gyre/optim/manifold_update.hpp"
#include "gyre/optim/parameter.hpp"

namespace gyre::optim {

/// Hyper-parameters of Adam (torch.optim.Adam's names and defaults, plus the manifold options).
template <class T>
struct AdamOptions {
  T lr = T(1e-3);
  T beta1 = T(0.9);
  T beta2 = T(0.999);
  T eps = T(1e-8);
  T weight_decay = 0;
  bool amsgrad = false;
  ManifoldOptions manifold{};
};

/// torch.optim.Adam on Euclidean parameters, Riemannian Adam on parameters with a space.
template <class T>
class Adam {
 public:
  /// Throws DomainError for lr ≤ 0, β ∉ [0, 1), eps ≤ 0 or weight_decay < 0.
  Adam(std::vector<Parameter<T>*> parameters, AdamOptions<T> options);
  /// The common case: Adam(params, lr, beta1, beta2, eps, weight_decay), no AMSGrad.
  Adam(std::vector<Parameter<T>*> parameters, T lr, T beta1 = T(0.9), T beta2 = T(0.999), T eps = T(1e-8),
       T weight_decay = 0);

  /// One update from the accumulated gradients; ShapeError if a gradient's shape is not its value's.
  void step();
  /// Sets every parameter's gradient to zeros of its value's shape.
  void zero_grad();
  /// Changes η (DomainError unless > 0); moments and step count are kept, as in torch.
  void set_lr(T lr);
  [[nodiscard]] T lr() const noexcept { return options_.lr; }
  /// Steps taken so far (t of the formulas after the last step).
  [[nodiscard]] long steps() const noexcept { return t_; }

 private:
  void euclidean_step(std::size_t i, double correction1, double correction2);
  void manifold_step(std::size_t i, double correction1, double correction2);

  std::vector<Parameter<T>*> parameters_;
  AdamOptions<T> options_;
  // m: first moments (the value's shape); v, v_max: second moments (the value's shape, or one per
  // point for a parameter with a space).
  std::vector<xt::xarray<T>> m_, v_, v_max_;
  long t_ = 0;
};

/// geoopt's name for the same optimizer.
template <class T>
using RiemannianAdam = Adam<T>;

extern template class Adam<float>;
extern template class Adam<double>;

}  // namespace gyre::optim
