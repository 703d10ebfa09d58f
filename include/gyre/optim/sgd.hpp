#pragma once
// Stochastic gradient descent with momentum and weight decay, step for step torch.optim.SGD:
//   g ← ∇ + λ·θ;  b ← μ·b + g (b = g on the first step);  g ← g + μ·b (Nesterov) or b;  θ ← θ − η·g.

#include <string>
#include <vector>

#include "gyre/core/error.hpp"
#include "gyre/nn/module.hpp"

namespace gyre::optim {

/// torch.optim.SGD (dampening 0) over Euclidean parameters.
template <class T>
class Sgd {
 public:
  Sgd(std::vector<nn::Parameter<T>*> parameters, T lr, T momentum = 0, T weight_decay = 0, bool nesterov = false)
      : parameters_(std::move(parameters)), lr_(lr), momentum_(momentum), weight_decay_(weight_decay), nesterov_(nesterov) {
    if (!(lr > 0)) throw DomainError("Sgd", "learning rate must be > 0", lr);
    if (!(momentum >= 0)) throw DomainError("Sgd", "momentum must be >= 0", momentum);
    if (!(weight_decay >= 0)) throw DomainError("Sgd", "weight decay must be >= 0", weight_decay);
    if (nesterov && !(momentum > 0)) throw DomainError("Sgd", "Nesterov momentum needs momentum > 0", momentum);
    buffers_.resize(parameters_.size());
  }

  /// One update from the accumulated gradients.
  void step() {
    for (std::size_t i = 0; i < parameters_.size(); ++i) {
      nn::Parameter<T>& p = *parameters_[i];
      xt::xarray<T> g = p.grad + weight_decay_ * p.value;
      if (momentum_ > 0) {
        if (buffers_[i].size() != g.size()) {
          buffers_[i] = g;
        } else {
          buffers_[i] = momentum_ * buffers_[i] + g;
        }
        g = nesterov_ ? xt::xarray<T>(g + momentum_ * buffers_[i]) : buffers_[i];
      }
      p.value -= lr_ * g;
    }
  }
  void zero_grad() {
    for (nn::Parameter<T>* p : parameters_) p->grad = xt::zeros_like(p->value);
  }
  void set_lr(T lr) { lr_ = lr; }
  [[nodiscard]] T lr() const noexcept { return lr_; }

 private:
  std::vector<nn::Parameter<T>*> parameters_;
  T lr_, momentum_, weight_decay_;
  bool nesterov_;
  std::vector<xt::xarray<T>> buffers_;
};

}  // namespace gyre::optim
