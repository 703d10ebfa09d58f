#include "gyre/optim/adam.hpp"

#include <cmath>

#include "gyre/core/error.hpp"
#include "optimizer_detail.hpp"

namespace gyre::optim {

template <class T>
Adam<T>::Adam(std::vector<Parameter<T>*> parameters, T lr, T beta1, T beta2, T eps, T weight_decay)
    : parameters_(std::move(parameters)), lr_(lr), beta1_(beta1), beta2_(beta2), eps_(eps), weight_decay_(weight_decay) {
  if (!(lr > 0)) throw DomainError("Adam", "learning rate must be > 0", lr);
  if (!(beta1 >= 0 && beta1 < 1)) throw DomainError("Adam", "beta1 must be in [0, 1)", beta1);
  if (!(beta2 >= 0 && beta2 < 1)) throw DomainError("Adam", "beta2 must be in [0, 1)", beta2);
  if (!(eps > 0)) throw DomainError("Adam", "eps must be > 0", eps);
  if (!(weight_decay >= 0)) throw DomainError("Adam", "weight decay must be >= 0", weight_decay);
  for (Parameter<T>* p : parameters_) {
    m_.push_back(xt::zeros_like(p->value));
    v_.push_back(xt::zeros_like(p->value));
  }
}

template <class T>
void Adam<T>::step() {
  for (const Parameter<T>* p : parameters_) detail::require_gradient_shape("Adam::step", *p);
  ++t_;
  const double correction1 = 1 - std::pow(static_cast<double>(beta1_), static_cast<double>(t_));
  const double correction2 = 1 - std::pow(static_cast<double>(beta2_), static_cast<double>(t_));
  const T step_size = static_cast<T>(static_cast<double>(lr_) / correction1);
  const T sqrt_correction2 = static_cast<T>(std::sqrt(correction2));
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    Parameter<T>& p = *parameters_[i];
    T* theta = p.value.data();
    const T* grad = p.grad.data();
    T* m = m_[i].data();
    T* v = v_[i].data();
    for (std::size_t k = 0; k < p.value.size(); ++k) {
      const T g = grad[k] + weight_decay_ * theta[k];
      m[k] += (1 - beta1_) * (g - m[k]);
      v[k] = beta2_ * v[k] + (1 - beta2_) * g * g;
      theta[k] -= step_size * (m[k] / (std::sqrt(v[k]) / sqrt_correction2 + eps_));
    }
  }
}

template <class T>
void Adam<T>::zero_grad() {
  detail::zero_gradients(parameters_);
}

template <class T>
void Adam<T>::set_lr(T lr) {
  if (!(lr > 0)) throw DomainError("Adam::set_lr", "learning rate must be > 0", lr);
  lr_ = lr;
}

template class Adam<float>;
template class Adam<double>;

}  // namespace gyre::optim
