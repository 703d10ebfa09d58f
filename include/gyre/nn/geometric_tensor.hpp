#pragma once
// A feature tensor that carries its type (escnn's GeometricTensor, for every kind of feature):
// data of shape (B, C, base axes…, item axes…) and a TensorType saying what the axes mean
// (see tensor_type.hpp). Steerable feature maps are (N, C, H, W) of type grid × fields.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <cstddef>
#include <utility>
#include <vector>

#include <xtensor/xarray.hpp>
#include <xtensor/xtensor.hpp>

#include "gyre/core/error.hpp"
#include "gyre/nn/tensor_type.hpp"

namespace gyre::nn {

/// An xtensor of fixed rank N holding an xarray's buffer without copying (ShapeError if the rank differs).
template <std::size_t N, class T>
[[nodiscard]] xt::xtensor<T, N> to_fixed_rank(xt::xarray<T>&& array) {
  if (array.dimension() != N)
    throw ShapeError("to_fixed_rank", "array must have " + std::to_string(N) + " axes", array.dimension());
  typename xt::xtensor<T, N>::shape_type shape;
  typename xt::xtensor<T, N>::strides_type strides;
  std::copy(array.shape().begin(), array.shape().end(), shape.begin());
  std::copy(array.strides().begin(), array.strides().end(), strides.begin());
  return xt::xtensor<T, N>(std::move(array.storage()), std::move(shape), std::move(strides));
}

/// An xarray holding a fixed-rank xtensor's buffer without copying.
template <class T, std::size_t N>
[[nodiscard]] xt::xarray<T> to_any_rank(xt::xtensor<T, N>&& tensor) {
  typename xt::xarray<T>::shape_type shape(tensor.shape().begin(), tensor.shape().end());
  typename xt::xarray<T>::strides_type strides(tensor.strides().begin(), tensor.strides().end());
  return xt::xarray<T>(std::move(tensor.storage()), std::move(shape), std::move(strides));
}

/// A batch of features with their type; the constructor checks the data's shape against the type.
template <class T>
struct GeometricTensor {
  GeometricTensor(TensorType tensor_type, xt::xarray<T> values)
      : type(std::move(tensor_type)), data(std::move(values)) {
    type.check_shape("GeometricTensor", std::vector<std::size_t>(data.shape().begin(), data.shape().end()));
  }
  /// Feature maps (N, C, H, W) of a grid type, taking the buffer without a copy.
  GeometricTensor(TensorType tensor_type, xt::xtensor<T, 4>&& maps)
      : GeometricTensor(std::move(tensor_type), to_any_rank(std::move(maps))) {}
  GeometricTensor(TensorType tensor_type, const xt::xtensor<T, 4>& maps)
      : GeometricTensor(std::move(tensor_type), xt::xarray<T>(maps)) {}
  /// Any other xtensor expression (a cast, a broadcast, a sum), evaluated.
  template <class E>
  GeometricTensor(TensorType tensor_type, const xt::xexpression<E>& values)
      : GeometricTensor(std::move(tensor_type), xt::xarray<T>(values)) {}

  /// Zero feature maps of a grid type and spatial size.
  static GeometricTensor zeros(const TensorType& grid_type, std::size_t n, std::size_t h, std::size_t w) {
    // xt::zeros, not from_shape(…)·0: uninitialised memory may hold NaN, and NaN·0 is NaN.
    return GeometricTensor(grid_type,
                           xt::xarray<T>(xt::zeros<T>({n, static_cast<std::size_t>(grid_type.channels()), h, w})));
  }

  /// The batch size B.
  [[nodiscard]] std::size_t batch() const { return data.shape()[0]; }
  /// The data as (N, C, H, W) maps (a copy): for grid tensors whose layer code is written for rank 4.
  [[nodiscard]] xt::xtensor<T, 4> maps() const { return xt::xtensor<T, 4>(data); }

  TensorType type;
  xt::xarray<T> data;
};

}  // namespace gyre::nn
