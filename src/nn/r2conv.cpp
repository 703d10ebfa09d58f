#include "gyre/nn/r2conv.hpp"

#include <cmath>

#include "gyre/core/error.hpp"
#include "gyre/core/rng.hpp"

namespace gyre::nn {

template <class T>
R2Conv<T>::R2Conv(FieldType in, FieldType out, int kernel_size, R2ConvOptions options)
    : in_(std::move(in)),
      out_(std::move(out)),
      in_type_(in_),
      out_type_(out_),
      kernel_size_(kernel_size),
      geometry_{options.stride, options.padding, options.dilation} {
  const char* const where = "R2Conv";
  if (in_.group() != out_.group()) {
    throw DomainError(where, "input and output fields belong to different groups (" + in_.describe() + ")",
                      out_.describe());
  }
  if (!(kernel_size >= 1)) throw DomainError(where, "kernel size must be >= 1", kernel_size);
  if (!(options.stride >= 1)) throw DomainError(where, "stride must be >= 1", options.stride);
  if (!(options.padding >= 0)) throw DomainError(where, "padding must be >= 0", options.padding);
  if (!(options.dilation >= 1)) throw DomainError(where, "dilation must be >= 1", options.dilation);
  const BasisParams params = options.basis ? *options.basis : default_basis_params(kernel_size, options.dilation);
  basis_ = cached_field_kernel_basis(out_, in_, kernel_size, params, options.dilation);

  Rng rng(options.seed);
  const std::size_t dim = static_cast<std::size_t>(basis_->dim());
  weight_.name = "weight";
  weight_.value = xt::xarray<T>::from_shape({dim});
  const double scale = dim > 0 ? std::sqrt(2.0 * out_.size() / static_cast<double>(dim)) : 0.0;
  for (std::size_t i = 0; i < dim; ++i) weight_.value(i) = static_cast<T>(scale * rng.normal<double>());
  weight_.grad = xt::zeros<T>({dim});
  if (options.bias && basis_->bias_dim() > 0) {
    const std::size_t n = static_cast<std::size_t>(basis_->bias_dim());
    bias_ = Parameter<T>{"bias", xt::zeros<T>({n}), xt::zeros<T>({n})};
  }
  full_bias_.assign(static_cast<std::size_t>(out_.size()), T(0));
}

template <class T>
void R2Conv<T>::expand() {
  const std::size_t k = static_cast<std::size_t>(kernel_size_);
  filter_ = xt::xtensor<T, 4>::from_shape(
      {static_cast<std::size_t>(out_.size()), static_cast<std::size_t>(in_.size()), k, k});
  basis_->expand(weight_.value.data(), filter_.data());
  if (bias_) basis_->expand_bias(bias_->value.data(), full_bias_.data());
  expanded_ = true;
}

template <class T>
const xt::xtensor<T, 4>& R2Conv<T>::filter() {
  if (this->training() || !expanded_) expand();
  return filter_;
}

template <class T>
const std::vector<T>& R2Conv<T>::expanded_bias() {
  if (this->training() || !expanded_) expand();
  return full_bias_;
}

template <class T>
void R2Conv<T>::train(bool on) {
  Module<T>::train(on);
  expanded_ = false;  // the weights may change while training: expand afresh when evaluation starts
}

template <class T>
GeometricTensor<T> R2Conv<T>::forward(const GeometricTensor<T>& input) {
  require_field_type("R2Conv::forward", in_, input.type);
  const xt::xtensor<T, 4>& f = filter();
  xt::xtensor<T, 4> maps = input.maps();
  GeometricTensor<T> output(out_type_, conv2d(maps, f, bias_ ? full_bias_ : std::vector<T>{}, geometry_));
  inputs_.push(std::move(maps));
  return output;
}

template <class T>
GeometricTensor<T> R2Conv<T>::backward(const GeometricTensor<T>& grad_output) {
  require_field_type("R2Conv::backward", out_, grad_output.type);
  const xt::xtensor<T, 4>& input = inputs_.top("R2Conv::backward", describe());
  Conv2dGradients<T> grads = conv2d_backward(input, filter_, grad_output.maps(), geometry_);
  basis_->project(grads.filter.data(), weight_.grad.data());
  if (bias_) basis_->project_bias(grads.bias.data(), bias_->grad.data());
  inputs_.drop();  // only now: a backward that throws leaves the call to retry
  return GeometricTensor<T>(in_type_, std::move(grads.input));
}

template <class T>
std::vector<Parameter<T>*> R2Conv<T>::parameters() {
  std::vector<Parameter<T>*> result{&weight_};
  if (bias_) result.push_back(&*bias_);
  return result;
}

template <class T>
std::string R2Conv<T>::describe() const {
  return "R2Conv(" + in_.describe() + " → " + out_.describe() + ", k=" + std::to_string(kernel_size_) + ", stride " +
         std::to_string(geometry_.stride) + ", padding " + std::to_string(geometry_.padding) +
         (geometry_.dilation != 1 ? ", dilation " + std::to_string(geometry_.dilation) : std::string()) + ", " +
         std::to_string(basis_->dim()) + " weights)";
}

template <class T>
EquivariantLinear<T>::EquivariantLinear(FieldType in, FieldType out, bool bias, std::uint64_t seed)
    : R2Conv<T>(std::move(in), std::move(out), 1, R2ConvOptions{1, 0, 1, bias, std::nullopt, seed}) {}

template <class T>
std::string EquivariantLinear<T>::describe() const {
  return "EquivariantLinear(" + this->in_type().describe() + " → " + this->out_type().describe() + ", " +
         std::to_string(this->basis().dim()) + " weights)";
}

template class R2Conv<float>;
template class R2Conv<double>;
template class EquivariantLinear<float>;
template class EquivariantLinear<double>;

}  // namespace gyre::nn
