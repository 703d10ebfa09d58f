#include "gyre/optim/sgd.hpp"

#include "gyre/core/error.hpp"
#include "optimizer_detail.hpp"

namespace gyre::optim {

template <class T>
Sgd<T>::Sgd(std::vector<Parameter<T>*> parameters, SgdOptions<T> options)
    : parameters_(std::move(parameters)), options_(options) {
  const SgdOptions<T>& o = options_;
  if (!(o.lr > 0)) throw DomainError("Sgd", "learning rate must be > 0", o.lr);
  if (!(o.momentum >= 0)) throw DomainError("Sgd", "momentum must be >= 0", o.momentum);
  if (!(o.dampening >= 0 && o.dampening <= 1)) throw DomainError("Sgd", "dampening must be in [0, 1]", o.dampening);
  if (!(o.weight_decay >= 0)) throw DomainError("Sgd", "weight decay must be >= 0", o.weight_decay);
  if (o.nesterov && !(o.momentum > 0)) throw DomainError("Sgd", "Nesterov momentum needs momentum > 0", o.momentum);
  if (o.nesterov && o.dampening != 0) throw DomainError("Sgd", "Nesterov momentum needs dampening 0", o.dampening);
  detail::require_parameters("Sgd", parameters_);
  buffers_.resize(parameters_.size());
  have_buffer_.assign(parameters_.size(), false);
}

template <class T>
Sgd<T>::Sgd(std::vector<Parameter<T>*> parameters, T lr, T momentum, T weight_decay, bool nesterov)
    : Sgd(std::move(parameters), SgdOptions<T>{lr, momentum, T(0), weight_decay, nesterov, {}}) {}

template <class T>
void Sgd<T>::step() {
  for (const Parameter<T>* p : parameters_) detail::require_gradient_shape("Sgd::step", *p);
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    if (parameters_[i]->on_manifold()) {
      manifold_step(i);
    } else {
      euclidean_step(i);
    }
  }
}

template <class T>
void Sgd<T>::euclidean_step(std::size_t i) {
  const SgdOptions<T>& o = options_;
  Parameter<T>& p = *parameters_[i];
  const std::size_t n = p.value.size();
  T* theta = p.value.data();
  const T* grad = p.grad.data();
  const bool first = o.momentum > 0 && !have_buffer_[i];
  if (first) {
    buffers_[i] = xt::zeros_like(p.value);
    have_buffer_[i] = true;
  }
  T* b = o.momentum > 0 ? buffers_[i].data() : nullptr;
  for (std::size_t k = 0; k < n; ++k) {
    T g = grad[k] + o.weight_decay * theta[k];
    if (b != nullptr) {
      b[k] = first ? g : o.momentum * b[k] + (1 - o.dampening) * g;
      g = o.nesterov ? g + o.momentum * b[k] : b[k];
    }
    theta[k] -= o.lr * g;
  }
}

template <class T>
void Sgd<T>::manifold_step(std::size_t i) {
  const SgdOptions<T>& o = options_;
  Parameter<T>& p = *parameters_[i];
  const BatchSpace<T>& space = *p.space;
  const xt::xarray<T> r = space.egrad_to_rgrad(p.value, p.grad + o.weight_decay * p.value);
  if (!(o.momentum > 0)) {
    p.value = detail::move_point(space, p.value, xt::xarray<T>(-o.lr * r), o.manifold.step);
    return;
  }
  xt::xarray<T>& b = buffers_[i];
  if (!have_buffer_[i]) {
    b = r;
    have_buffer_[i] = true;
  } else {
    b = o.momentum * b + (1 - o.dampening) * r;
  }
  const xt::xarray<T> direction = o.nesterov ? xt::xarray<T>(r + o.momentum * b) : b;
  xt::xarray<T> next = detail::move_point(space, p.value, xt::xarray<T>(-o.lr * direction), o.manifold.step);
  b = detail::carry_state(space, p.value, next, b, o.manifold.transport);
  p.value = std::move(next);
}

template <class T>
void Sgd<T>::zero_grad() {
  detail::zero_gradients(parameters_);
}

template <class T>
void Sgd<T>::set_lr(T lr) {
  if (!(lr > 0)) throw DomainError("Sgd::set_lr", "learning rate must be > 0", lr);
  options_.lr = lr;
}

template class Sgd<float>;
template class Sgd<double>;

}  // namespace gyre::optim
