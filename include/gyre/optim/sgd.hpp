#pragma once
// Stochastic gradient descent with momentum, dampening and weight decay. On a Euclidean parameter
// θ with accumulated gradient ∇ it is step for step torch.optim.SGD, in torch's order of operations:
//   g ← ∇ + λ·θ                                         (weight decay λ)
//   b ← g on the first step, else b ← μ·b + (1 − τ)·g   (momentum μ > 0 only; dampening τ)
//   g ← g + μ·b (Nesterov) or g ← b                     (momentum μ > 0 only)
//   θ ← θ − η·g                                         (learning rate η)
// On a parameter with a space (Riemannian SGD, Bécigneul & Ganea 2019; see manifold_update.hpp)
// g is the Riemannian gradient egrad_to_rgrad(x, ∇ + λ·x), the update is
// x ← retract(x, −η·g) (or exp), and the momentum buffer is transported to the new point.
//
// Difference from geoopt's RiemannianSGD (listed in the README): geoopt starts the buffer as the raw
// Euclidean gradient and then applies b ← μ·b + (1 − τ)·r on the first step too, which makes its
// first step (μ + 1 − τ) times torch's and mixes a non-tangent vector into b. Gyre starts b as
// torch does, b = r: the same as torch.optim.SGD on Euclidean parameters, and tangent on manifolds.
// Without momentum the two agree step for step.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <vector>

#include <xtensor/xarray.hpp>

#include "gyre/optim/manifold_update.hpp"
#include "gyre/optim/parameter.hpp"

namespace gyre::optim {

/// Hyper-parameters of Sgd (torch.optim.SGD's names and defaults, plus the manifold options).
template <class T>
struct SgdOptions {
  T lr = T(0.01);
  T momentum = 0;
  T dampening = 0;
  T weight_decay = 0;
  bool nesterov = false;
  ManifoldOptions manifold{};
};

/// torch.optim.SGD on Euclidean parameters, Riemannian SGD on parameters with a space.
template <class T>
class Sgd {
 public:
  /// Throws DomainError for lr ≤ 0, momentum < 0, dampening ∉ [0, 1], weight_decay < 0, or
  /// Nesterov without momentum or with dampening (as torch).
  Sgd(std::vector<Parameter<T>*> parameters, SgdOptions<T> options);
  /// The common case: Sgd(params, lr, momentum, weight_decay, nesterov), dampening 0.
  Sgd(std::vector<Parameter<T>*> parameters, T lr, T momentum = 0, T weight_decay = 0, bool nesterov = false);

  /// One update from the accumulated gradients; ShapeError if a gradient's shape is not its value's.
  void step();
  /// Sets every parameter's gradient to zeros of its value's shape.
  void zero_grad();
  /// Changes η (DomainError unless > 0); the momentum buffers are kept, as in torch.
  void set_lr(T lr);
  [[nodiscard]] T lr() const noexcept { return options_.lr; }

 private:
  void euclidean_step(std::size_t i);
  void manifold_step(std::size_t i);

  std::vector<Parameter<T>*> parameters_;
  SgdOptions<T> options_;
  std::vector<xt::xarray<T>> buffers_;
  std::vector<bool> have_buffer_;
};

/// geoopt's name for the same optimizer.
template <class T>
using RiemannianSgd = Sgd<T>;

extern template class Sgd<float>;
extern template class Sgd<double>;

}  // namespace gyre::optim
