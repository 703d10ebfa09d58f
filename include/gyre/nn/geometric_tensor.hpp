#pragma once
// A feature map (N, C, H, W) that carries its field type, as escnn's GeometricTensor.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <xtensor/xtensor.hpp>

#include "gyre/core/error.hpp"
#include "gyre/nn/field_type.hpp"

namespace gyre::nn {

/// A batch of feature maps, shape (N, C, H, W), with C = type.size().
template <class T>
struct GeometricTensor {
  GeometricTensor(FieldType field_type, xt::xtensor<T, 4> values) : type(std::move(field_type)), data(std::move(values)) {
    if (static_cast<int>(data.shape(1)) != type.size()) {
      throw ShapeError("GeometricTensor", "channel count must equal the field type's size " + std::to_string(type.size()) +
                                              " (" + type.describe() + ")",
                       data.shape(1));
    }
  }
  /// Zeros of the given type and spatial size.
  static GeometricTensor zeros(const FieldType& field_type, std::size_t n, std::size_t h, std::size_t w) {
    // xt::zeros, not from_shape(…)·0: uninitialised memory may hold NaN, and NaN·0 is NaN.
    return GeometricTensor(field_type, xt::zeros<T>({n, static_cast<std::size_t>(field_type.size()), h, w}));
  }

  FieldType type;
  xt::xtensor<T, 4> data;
};

}  // namespace gyre::nn
