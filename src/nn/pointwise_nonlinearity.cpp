#include "gyre/nn/pointwise_nonlinearity.hpp"

#include <cmath>

#include "gyre/core/error.hpp"

namespace gyre::nn {

template <class T>
PointwiseNonlinearity<T>::PointwiseNonlinearity(TensorType type, Pointwise kind, T alpha)
    : type_(std::move(type)), kind_(kind), alpha_(alpha) {
  if (type_.has_manifold()) {
    throw DomainError(name(), "pointwise nonlinearities act on fields or plain features, not manifold points",
                      type_.describe());
  }
  if (!type_.has_fields()) {
    if (kind_ == Pointwise::kELU && !(alpha_ > 0)) throw DomainError(name(), "alpha must be > 0", alpha_);
    return;
  }
  for (const repr::Representation& rho : type_.fields(name().c_str()).fields()) {
    if (!rho.is_permutation()) {
      throw DomainError(name(), "pointwise nonlinearities need permutation fields (regular, quotient, trivial)",
                        rho.name());
    }
  }
  if (kind_ == Pointwise::kELU && !(alpha_ > 0)) throw DomainError(name(), "alpha must be > 0", alpha_);
}

template <class T>
GeometricTensor<T> PointwiseNonlinearity<T>::forward(const GeometricTensor<T>& input) {
  require_type((name() + "::forward").c_str(), type_, input.type);
  GeometricTensor<T> output = input;
  T* y = output.data.data();
  const std::size_t n = output.data.size();
  if (kind_ == Pointwise::kReLU) {
    for (std::size_t i = 0; i < n; ++i) y[i] = y[i] > 0 ? y[i] : T(0);
  } else {
    // expm1 keeps the relative accuracy of α(eˣ − 1) for small |x|, where eˣ − 1 cancels.
    for (std::size_t i = 0; i < n; ++i) y[i] = y[i] > 0 ? y[i] : alpha_ * std::expm1(y[i]);
  }
  inputs_.push(input.data);
  return output;
}

template <class T>
GeometricTensor<T> PointwiseNonlinearity<T>::backward(const GeometricTensor<T>& grad_output) {
  require_type((name() + "::backward").c_str(), type_, grad_output.type);
  const xt::xarray<T>& input = inputs_.top((name() + "::backward").c_str(), describe());
  if (grad_output.data.shape() != input.shape()) {
    throw ShapeError(name() + "::backward", "grad_output must have the last forward output's shape",
                     grad_output.data.size());
  }
  GeometricTensor<T> grad = grad_output;
  const T* x = input.data();
  T* g = grad.data.data();
  const std::size_t n = grad.data.size();
  if (kind_ == Pointwise::kReLU) {
    for (std::size_t i = 0; i < n; ++i) g[i] = x[i] > 0 ? g[i] : T(0);
  } else {
    for (std::size_t i = 0; i < n; ++i) g[i] = x[i] > 0 ? g[i] : g[i] * alpha_ * std::exp(x[i]);
  }
  inputs_.drop();  // only now: a backward that throws leaves the call to retry
  return grad;
}

template <class T>
std::string PointwiseNonlinearity<T>::describe() const {
  return name() + "(" + (type_.has_fields() ? type_.fields().describe() : type_.describe()) + ")";
}

template class PointwiseNonlinearity<float>;
template class PointwiseNonlinearity<double>;
template class PointwiseReLU<float>;
template class PointwiseReLU<double>;
template class PointwiseELU<float>;
template class PointwiseELU<double>;

}  // namespace gyre::nn
