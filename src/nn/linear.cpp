#include "gyre/nn/linear.hpp"

#include <cmath>
#include <functional>
#include <numeric>

#include <Eigen/Core>

#include "gyre/core/error.hpp"
#include "gyre/core/rng.hpp"

namespace gyre::nn {

namespace {

template <class T>
using Map = Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;
template <class T>
using ConstMap = Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;

TensorType scalars(int channels) { return TensorType(Base::kNone, EuclideanFiber{channels}); }

template <class T>
xt::xarray<T> uniform(const std::vector<std::size_t>& shape, T bound, Rng& rng) {
  xt::xarray<T> values = xt::xarray<T>::from_shape(shape);
  for (T& v : values) v = rng.uniform<T>(-bound, bound);
  return values;
}

}  // namespace

template <class T>
Linear<T>::Linear(int in, int out, bool bias, std::uint64_t seed) : in_type_(scalars(in)), out_type_(scalars(out)) {
  Rng rng(seed);
  const T bound = T(1) / std::sqrt(static_cast<T>(in));
  const auto rows = static_cast<std::size_t>(out);
  const auto cols = static_cast<std::size_t>(in);
  weight_ = Parameter<T>("Linear.weight", uniform<T>({rows, cols}, bound, rng));
  if (bias) bias_.emplace("Linear.bias", uniform<T>({rows}, bound, rng));
}

template <class T>
GeometricTensor<T> Linear<T>::forward(const GeometricTensor<T>& input) {
  require_type("Linear::forward", in_type_, input.type);
  const auto batch = static_cast<Eigen::Index>(input.batch());
  const auto in = static_cast<Eigen::Index>(input.data.shape()[1]);
  const auto out = static_cast<Eigen::Index>(weight_.value.shape()[0]);
  xt::xarray<T> y = xt::xarray<T>::from_shape({input.batch(), static_cast<std::size_t>(out)});
  if (batch > 0) {  // Eigen may not map null data
    Map<T> y_map(y.data(), batch, out);
    // Y = X·Wᵀ (+ b): one GEMM over the batch.
    y_map.noalias() =
        ConstMap<T>(input.data.data(), batch, in) * ConstMap<T>(weight_.value.data(), out, in).transpose();
    if (bias_) y_map.rowwise() += Eigen::Map<const Eigen::Matrix<T, 1, Eigen::Dynamic>>(bias_->value.data(), out);
  }
  inputs_.push(input.data);
  return GeometricTensor<T>(out_type_, std::move(y));
}

template <class T>
GeometricTensor<T> Linear<T>::backward(const GeometricTensor<T>& grad_output) {
  require_type("Linear::backward", out_type_, grad_output.type);
  const xt::xarray<T>& x = inputs_.top("Linear::backward", describe());
  if (grad_output.batch() != x.shape()[0]) {
    throw ShapeError("Linear::backward",
                     "grad_output must have the forward's batch size " + std::to_string(x.shape()[0]),
                     grad_output.batch());
  }
  const auto batch = static_cast<Eigen::Index>(x.shape()[0]);
  const auto in = static_cast<Eigen::Index>(x.shape()[1]);
  const auto out = static_cast<Eigen::Index>(weight_.value.shape()[0]);
  xt::xarray<T> grad_x = xt::xarray<T>::from_shape({x.shape()[0], x.shape()[1]});
  // An empty batch adds nothing (and Eigen may not reduce over maps of null data).
  if (batch > 0) {
    const ConstMap<T> g(grad_output.data.data(), batch, out);
    Map<T>(weight_.grad.data(), out, in).noalias() += g.transpose() * ConstMap<T>(x.data(), batch, in);
    if (bias_) {
      Eigen::Map<Eigen::Matrix<T, 1, Eigen::Dynamic>>(bias_->grad.data(), out) += g.colwise().sum();
    }
    Map<T>(grad_x.data(), batch, in).noalias() = g * ConstMap<T>(weight_.value.data(), out, in);
  }
  inputs_.drop();
  return GeometricTensor<T>(in_type_, std::move(grad_x));
}

template <class T>
std::vector<Parameter<T>*> Linear<T>::parameters() {
  std::vector<Parameter<T>*> params{&weight_};
  if (bias_) params.push_back(&*bias_);
  return params;
}

template <class T>
std::string Linear<T>::describe() const {
  return "Linear(" + std::to_string(in_type_.channels()) + " → " + std::to_string(out_type_.channels()) +
         (bias_ ? "" : ", no bias") + ")";
}

namespace {

TensorType flattened(const TensorType& in) {
  if (in.base() != Base::kNone || !in.is_euclidean()) {
    throw ShapeError("Flatten", "needs Euclidean features without a base (none × ℝ^(shape)[C])", in.describe());
  }
  const std::vector<std::size_t> item = in.item_shape();
  const std::size_t size = std::accumulate(item.begin(), item.end(), std::size_t{1}, std::multiplies<>());
  return scalars(static_cast<int>(static_cast<std::size_t>(in.channels()) * size));
}

// The same numbers under another Euclidean type of the same size per sample: (B, C, item…).
template <class T>
GeometricTensor<T> reshaped(const GeometricTensor<T>& x, const TensorType& to) {
  std::vector<std::size_t> shape{x.batch(), static_cast<std::size_t>(to.channels())};
  for (std::size_t extent : to.item_shape()) shape.push_back(extent);
  xt::xarray<T> data = x.data;
  data.reshape(shape);
  return GeometricTensor<T>(to, std::move(data));
}

void check_batch(const char* where, std::size_t forward_batch, std::size_t batch) {
  if (batch != forward_batch) {
    throw ShapeError(where, "grad_output must have the forward's batch size " + std::to_string(forward_batch), batch);
  }
}

}  // namespace

template <class T>
Reshape<T>::Reshape(std::string name, TensorType in, TensorType out)
    : name_(std::move(name)), in_type_(std::move(in)), out_type_(std::move(out)) {}

template <class T>
GeometricTensor<T> Reshape<T>::forward(const GeometricTensor<T>& input) {
  require_type((name_ + "::forward").c_str(), in_type_, input.type);
  batch_sizes_.push(input.batch());
  return reshaped(input, out_type_);
}

template <class T>
GeometricTensor<T> Reshape<T>::backward(const GeometricTensor<T>& grad_output) {
  const std::string where = name_ + "::backward";
  require_type(where.c_str(), out_type_, grad_output.type);
  check_batch(where.c_str(), batch_sizes_.top(where.c_str(), describe()), grad_output.batch());
  batch_sizes_.drop();
  return reshaped(grad_output, in_type_);
}

template <class T>
std::string Reshape<T>::describe() const {
  return name_ + "(" + in_type_.describe() + " → " + out_type_.describe() + ")";
}

template <class T>
Flatten<T>::Flatten(TensorType in) : Reshape<T>("Flatten", in, flattened(in)) {}

template <class T>
Unflatten<T>::Unflatten(TensorType out) : Reshape<T>("Unflatten", flattened(out), out) {}

template class Linear<float>;
template class Linear<double>;
template class Reshape<float>;
template class Reshape<double>;
template class Flatten<float>;
template class Flatten<double>;
template class Unflatten<float>;
template class Unflatten<double>;

}  // namespace gyre::nn
