#include "gyre/optim/adam.hpp"

#include <algorithm>
#include <cmath>

#include "gyre/core/error.hpp"
#include "optimizer_detail.hpp"

namespace gyre::optim {

template <class T>
Adam<T>::Adam(std::vector<Parameter<T>*> parameters, AdamOptions<T> options)
    : parameters_(std::move(parameters)), options_(options) {
  const AdamOptions<T>& o = options_;
  if (!(o.lr > 0)) throw DomainError("Adam", "learning rate must be > 0", o.lr);
  if (!(o.beta1 >= 0 && o.beta1 < 1)) throw DomainError("Adam", "beta1 must be in [0, 1)", o.beta1);
  if (!(o.beta2 >= 0 && o.beta2 < 1)) throw DomainError("Adam", "beta2 must be in [0, 1)", o.beta2);
  if (!(o.eps > 0)) throw DomainError("Adam", "eps must be > 0", o.eps);
  if (!(o.weight_decay >= 0)) throw DomainError("Adam", "weight decay must be >= 0", o.weight_decay);
  detail::require_parameters("Adam", parameters_);
  for (Parameter<T>* p : parameters_) {
    m_.push_back(xt::zeros_like(p->value));
    if (p->on_manifold()) {
      // One second moment per point: the shape of ⟨r, r⟩ₓ.
      v_.push_back(xt::zeros_like(p->space->inner(p->value, m_.back(), m_.back())));
    } else {
      v_.push_back(xt::zeros_like(p->value));
    }
    v_max_.push_back(o.amsgrad ? v_.back() : xt::xarray<T>());
  }
}

template <class T>
Adam<T>::Adam(std::vector<Parameter<T>*> parameters, T lr, T beta1, T beta2, T eps, T weight_decay)
    : Adam(std::move(parameters), AdamOptions<T>{lr, beta1, beta2, eps, weight_decay, false, {}}) {}

template <class T>
void Adam<T>::step() {
  for (const Parameter<T>* p : parameters_) detail::require_gradient_shape("Adam::step", *p);
  ++t_;
  const double correction1 = 1 - std::pow(static_cast<double>(options_.beta1), static_cast<double>(t_));
  const double correction2 = 1 - std::pow(static_cast<double>(options_.beta2), static_cast<double>(t_));
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    if (parameters_[i]->on_manifold()) {
      manifold_step(i, correction1, correction2);
    } else {
      euclidean_step(i, correction1, correction2);
    }
  }
}

template <class T>
void Adam<T>::euclidean_step(std::size_t i, double correction1, double correction2) {
  const AdamOptions<T>& o = options_;
  const T step_size = static_cast<T>(static_cast<double>(o.lr) / correction1);
  const T sqrt_correction2 = static_cast<T>(std::sqrt(correction2));
  Parameter<T>& p = *parameters_[i];
  T* theta = p.value.data();
  const T* grad = p.grad.data();
  T* m = m_[i].data();
  T* v = v_[i].data();
  T* v_max = o.amsgrad ? v_max_[i].data() : nullptr;
  for (std::size_t k = 0; k < p.value.size(); ++k) {
    const T g = grad[k] + o.weight_decay * theta[k];
    m[k] += (1 - o.beta1) * (g - m[k]);
    v[k] = o.beta2 * v[k] + (1 - o.beta2) * g * g;
    T second = v[k];
    if (v_max != nullptr) second = v_max[k] = std::max(v_max[k], v[k]);
    theta[k] -= step_size * (m[k] / (std::sqrt(second) / sqrt_correction2 + o.eps));
  }
}

template <class T>
void Adam<T>::manifold_step(std::size_t i, double correction1, double correction2) {
  const AdamOptions<T>& o = options_;
  Parameter<T>& p = *parameters_[i];
  const BatchSpace<T>& space = *p.space;
  const xt::xarray<T> r = space.egrad_to_rgrad(p.value, p.grad + o.weight_decay * p.value);
  xt::xarray<T>& m = m_[i];
  xt::xarray<T>& v = v_[i];
  m = o.beta1 * m + (1 - o.beta1) * r;
  v = o.beta2 * v + (1 - o.beta2) * space.inner(p.value, r, r);
  const xt::xarray<T>* second = &v;
  if (o.amsgrad) {
    v_max_[i] = xt::maximum(v_max_[i], v);
    second = &v_max_[i];
  }
  // −η·(m/(1 − β₁ᵗ)) / (√(v/(1 − β₂ᵗ)) + ε), one denominator per point (geoopt's order of operations).
  const std::size_t points = second->size();
  const std::size_t per_point = m.size() / points;
  xt::xarray<T> step = xt::xarray<T>::from_shape(m.shape());
  for (std::size_t j = 0; j < points; ++j) {
    const T denominator = std::sqrt(second->data()[j] / static_cast<T>(correction2)) + o.eps;
    for (std::size_t k = j * per_point; k < (j + 1) * per_point; ++k) {
      step.data()[k] = -o.lr * ((m.data()[k] / static_cast<T>(correction1)) / denominator);
    }
  }
  xt::xarray<T> next = detail::move_point(space, p.value, step, o.manifold.step);
  m = detail::carry_state(space, p.value, next, m, o.manifold.transport);
  p.value = std::move(next);
}

template <class T>
void Adam<T>::zero_grad() {
  detail::zero_gradients(parameters_);
}

template <class T>
void Adam<T>::set_lr(T lr) {
  if (!(lr > 0)) throw DomainError("Adam::set_lr", "learning rate must be > 0", lr);
  options_.lr = lr;
}

template class Adam<float>;
template class Adam<double>;

}  // namespace gyre::optim
