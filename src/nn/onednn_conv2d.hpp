#pragma once
// conv2d and its backward pass in single precision through oneDNN (Debian's libdnnl), the engine
// PyTorch's CPU convolutions run on. Private to the library: conv2d<float> calls it when Gyre is
// built with oneDNN, and falls back to the im2col + Eigen reference when oneDNN has no kernel for
// a shape (these functions then return nothing). Primitives are built once per shape and cached.

#include <optional>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "gyre/nn/conv2d.hpp"

namespace gyre::nn::detail {

/// conv2d's forward; the caller has checked the shapes. Empty when oneDNN cannot run this shape.
[[nodiscard]] std::optional<xt::xtensor<float, 4>> onednn_conv2d(const xt::xtensor<float, 4>& input,
                                                                 const xt::xtensor<float, 4>& filter,
                                                                 const std::vector<float>& bias,
                                                                 const Conv2dGeometry& geometry, int out_height,
                                                                 int out_width);

/// conv2d_backward; the caller has checked the shapes. Empty when oneDNN cannot run this shape.
[[nodiscard]] std::optional<Conv2dGradients<float>> onednn_conv2d_backward(const xt::xtensor<float, 4>& input,
                                                                           const xt::xtensor<float, 4>& filter,
                                                                           const xt::xtensor<float, 4>& grad_output,
                                                                           const Conv2dGeometry& geometry,
                                                                           bool need_input);

}  // namespace gyre::nn::detail
