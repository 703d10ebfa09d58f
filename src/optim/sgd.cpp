#include "gyre/optim/sgd.hpp"

#include "gyre/core/error.hpp"
#include "optimizer_detail.hpp"

namespace gyre::optim {

template <class T>
Sgd<T>::Sgd(std::vector<Parameter<T>*> parameters, T lr, T momentum, T weight_decay, bool nesterov)
    : parameters_(std::move(parameters)), lr_(lr), momentum_(momentum), weight_decay_(weight_decay), nesterov_(nesterov) {
  if (!(lr > 0)) throw DomainError("Sgd", "learning rate must be > 0", lr);
  if (!(momentum >= 0)) throw DomainError("Sgd", "momentum must be >= 0", momentum);
  if (!(weight_decay >= 0)) throw DomainError("Sgd", "weight decay must be >= 0", weight_decay);
  if (nesterov && !(momentum > 0)) throw DomainError("Sgd", "Nesterov momentum needs momentum > 0", momentum);
  buffers_.resize(parameters_.size());
  have_buffer_.assign(parameters_.size(), false);
}

template <class T>
void Sgd<T>::step() {
  for (const Parameter<T>* p : parameters_) detail::require_gradient_shape("Sgd::step", *p);
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    Parameter<T>& p = *parameters_[i];
    const std::size_t n = p.value.size();
    T* theta = p.value.data();
    const T* grad = p.grad.data();
    const bool first = momentum_ > 0 && !have_buffer_[i];
    if (first) {
      buffers_[i] = xt::zeros_like(p.value);
      have_buffer_[i] = true;
    }
    T* b = momentum_ > 0 ? buffers_[i].data() : nullptr;
    for (std::size_t k = 0; k < n; ++k) {
      T g = grad[k] + weight_decay_ * theta[k];
      if (b != nullptr) {
        b[k] = first ? g : momentum_ * b[k] + g;
        g = nesterov_ ? g + momentum_ * b[k] : b[k];
      }
      theta[k] -= lr_ * g;
    }
  }
}

template <class T>
void Sgd<T>::zero_grad() {
  detail::zero_gradients(parameters_);
}

template <class T>
void Sgd<T>::set_lr(T lr) {
  if (!(lr > 0)) throw DomainError("Sgd::set_lr", "learning rate must be > 0", lr);
  lr_ = lr;
}

template class Sgd<float>;
template class Sgd<double>;

}  // namespace gyre::optim
