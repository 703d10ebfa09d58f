#include "gyre/nn/eigenvalue_maps.hpp"

#include <cmath>
#include <utility>

#include "gyre/core/error.hpp"
#include "gyre/nn/manifold_fibers.hpp"

namespace gyre::nn {

namespace {

/// (B, C, n, n) as (B·C, n, n): the spectral kernels take one batch axis.
template <class T>
xt::xarray<T> items(const xt::xarray<T>& data) {
  xt::xarray<T> flat = data;
  const auto& s = data.shape();
  flat.reshape({s[0] * s[1], s[2], s[3]});
  return flat;
}

template <class T>
xt::xarray<T> features(xt::xarray<T>&& flat, std::size_t batch, std::size_t channels) {
  const std::size_t n = flat.shape()[1];
  flat.reshape({batch, channels, n, n});
  return std::move(flat);
}

}  // namespace

template <class T, class F>
EigenvalueMap<T, F>::EigenvalueMap(std::string name, F f, TensorType in, TensorType out)
    : name_(std::move(name)), f_(f), in_type_(std::move(in)), out_type_(std::move(out)) {}

template <class T, class F>
GeometricTensor<T> EigenvalueMap<T, F>::forward(const GeometricTensor<T>& input) {
  require_type((name_ + "::forward").c_str(), in_type_, input.type);
  linalg::SpectralForward<T> result = linalg::batched_spectral_function(items(input.data), f_);
  saved_.push(std::move(result.saved));
  const std::size_t channels = static_cast<std::size_t>(in_type_.channels());
  return GeometricTensor<T>(out_type_, features(std::move(result.value), input.batch(), channels));
}

template <class T, class F>
GeometricTensor<T> EigenvalueMap<T, F>::backward(const GeometricTensor<T>& grad_output) {
  const std::string where = name_ + "::backward";
  require_type(where.c_str(), out_type_, grad_output.type);
  const linalg::SpectralSaved<T>& saved = saved_.top(where.c_str(), describe());
  const std::size_t channels = static_cast<std::size_t>(in_type_.channels());
  if (grad_output.batch() * channels != saved.values.shape()[0]) {
    throw ShapeError(
        where, "grad_output must have the forward's batch size " + std::to_string(saved.values.shape()[0] / channels),
        grad_output.batch());
  }
  xt::xarray<T> grad = linalg::batched_spectral_function_backward(saved, f_, items(grad_output.data));
  saved_.drop();
  return GeometricTensor<T>(in_type_, features(std::move(grad), grad_output.batch(), channels));
}

template <class T, class F>
std::string EigenvalueMap<T, F>::describe() const {
  return name_ + "(" + in_type_.describe() + " → " + out_type_.describe() + ")";
}

template <class T>
ReEig<T>::ReEig(int n, int channels, double epsilon)
    : EigenvalueMap<T, linalg::Rectify>("ReEig", linalg::Rectify{epsilon}, spd_features(n, channels),
                                        spd_features(n, channels)) {
  // ε > 0 keeps the output SPD; a NaN ε would pass every comparison and clamp nothing.
  if (!(epsilon > 0 && std::isfinite(epsilon))) throw DomainError("ReEig", "epsilon must be > 0 and finite", epsilon);
}

template <class T>
LogEig<T>::LogEig(int n, int channels)
    : EigenvalueMap<T, linalg::Log>("LogEig", linalg::Log{}, spd_features(n, channels),
                                    matrix_features(n, n, channels)) {}

template <class T>
ExpEig<T>::ExpEig(int n, int channels)
    : EigenvalueMap<T, linalg::Exp>("ExpEig", linalg::Exp{}, matrix_features(n, n, channels),
                                    spd_features(n, channels)) {}

template <class T>
PowEig<T>::PowEig(int n, int channels, double p)
    : EigenvalueMap<T, linalg::Power>("PowEig", linalg::Power{p}, spd_features(n, channels),
                                      spd_features(n, channels)) {
  if (!std::isfinite(p)) throw DomainError("PowEig", "the power must be finite", p);
}

template class EigenvalueMap<float, linalg::Rectify>;
template class EigenvalueMap<double, linalg::Rectify>;
template class EigenvalueMap<float, linalg::Log>;
template class EigenvalueMap<double, linalg::Log>;
template class EigenvalueMap<float, linalg::Exp>;
template class EigenvalueMap<double, linalg::Exp>;
template class EigenvalueMap<float, linalg::Power>;
template class EigenvalueMap<double, linalg::Power>;
template class ReEig<float>;
template class ReEig<double>;
template class LogEig<float>;
template class LogEig<double>;
template class ExpEig<float>;
template class ExpEig<double>;
template class PowEig<float>;
template class PowEig<double>;

}  // namespace gyre::nn
