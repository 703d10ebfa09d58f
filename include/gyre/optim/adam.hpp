#pragma once
// Adam (Kingma & Ba 2015), step for step torch.optim.Adam (weight decay added to the gradient):
//   g ← ∇ + λ·θ;  m ← β₁m + (1 − β₁)g;  v ← β₂v + (1 − β₂)g²;
//   θ ← θ − η·(m/(1 − β₁ᵗ)) / (√(v/(1 − β₂ᵗ)) + ε).

#include <cmath>
#include <vector>

#include <xtensor/xmath.hpp>

#include "gyre/core/error.hpp"
#include "gyre/nn/module.hpp"

namespace gyre::optim {

/// torch.optim.Adam over Euclidean parameters.
template <class T>
class Adam {
 public:
  Adam(std::vector<nn::Parameter<T>*> parameters, T lr, T beta1 = T(0.9), T beta2 = T(0.999), T eps = T(1e-8),
       T weight_decay = 0)
      : parameters_(std::move(parameters)), lr_(lr), beta1_(beta1), beta2_(beta2), eps_(eps), weight_decay_(weight_decay) {
    if (!(lr > 0)) throw DomainError("Adam", "learning rate must be > 0", lr);
    if (!(beta1 >= 0 && beta1 < 1)) throw DomainError("Adam", "beta1 must be in [0, 1)", beta1);
    if (!(beta2 >= 0 && beta2 < 1)) throw DomainError("Adam", "beta2 must be in [0, 1)", beta2);
    if (!(eps > 0)) throw DomainError("Adam", "eps must be > 0", eps);
    for (nn::Parameter<T>* p : parameters_) {
      m_.push_back(xt::zeros_like(p->value));
      v_.push_back(xt::zeros_like(p->value));
    }
  }

  /// One update from the accumulated gradients.
  void step() {
    ++t_;
    const T c1 = 1 - std::pow(beta1_, static_cast<T>(t_));
    const T c2 = 1 - std::pow(beta2_, static_cast<T>(t_));
    for (std::size_t i = 0; i < parameters_.size(); ++i) {
      nn::Parameter<T>& p = *parameters_[i];
      const xt::xarray<T> g = p.grad + weight_decay_ * p.value;
      m_[i] = beta1_ * m_[i] + (1 - beta1_) * g;
      v_[i] = beta2_ * v_[i] + (1 - beta2_) * g * g;
      p.value -= lr_ * (m_[i] / c1) / (xt::sqrt(v_[i] / c2) + eps_);
    }
  }
  void zero_grad() {
    for (nn::Parameter<T>* p : parameters_) p->grad = xt::zeros_like(p->value);
  }
  void set_lr(T lr) { lr_ = lr; }
  [[nodiscard]] T lr() const noexcept { return lr_; }

 private:
  std::vector<nn::Parameter<T>*> parameters_;
  T lr_, beta1_, beta2_, eps_, weight_decay_;
  std::vector<xt::xarray<T>> m_, v_;
  long t_ = 0;
};

}  // namespace gyre::optim
