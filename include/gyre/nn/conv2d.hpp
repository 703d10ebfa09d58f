#pragma once
// Plain 2-D cross-correlation (torch's conv2d) on (N, C, H, W) arrays: the engine under R2Conv.
// Two implementations of the same function:
//  - the reference: im2col per image + one GEMM (Eigen), images in parallel over the cores (when
//    there are fewer images than cores, the GEMM itself runs in parallel instead); any scalar type;
//  - oneDNN (Debian's libdnnl, the library under PyTorch's CPU convolutions), for float when Gyre
//    is built with it: blocked layouts and JIT kernels, plans cached per shape.
// conv2d / conv2d_backward pick oneDNN for float when it is there and the reference otherwise;
// tests compare the two.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <vector>

#include <xtensor/xtensor.hpp>

namespace gyre::nn {

/// Stride, zero padding and dilation, the same along both spatial axes.
struct Conv2dGeometry {
  int stride = 1;
  int padding = 0;
  int dilation = 1;
};

/// ⌊(input + 2·padding − dilation·(kernel − 1) − 1)/stride⌋ + 1; throws ShapeError if < 1.
[[nodiscard]] int conv_output_size(int input, int kernel, const Conv2dGeometry& geometry);

/// out[n, o, y, x] = bias[o] + Σ_{i, a, b} filter[o, i, a, b]·in[n, i, y·s − p + a·d, x·s − p + b·d].
/// `bias` is empty or has one entry per output channel.
template <class T>
[[nodiscard]] xt::xtensor<T, 4> conv2d(const xt::xtensor<T, 4>& input, const xt::xtensor<T, 4>& filter,
                                       const std::vector<T>& bias, const Conv2dGeometry& geometry);

/// The gradients of a loss L with respect to conv2d's input, filter and bias, given ∂L/∂out.
template <class T>
struct Conv2dGradients {
  xt::xtensor<T, 4> input;
  xt::xtensor<T, 4> filter;
  std::vector<T> bias;
};

/// Backward pass of conv2d; skips ∂L/∂input (left empty) when `need_input` is false.
template <class T>
[[nodiscard]] Conv2dGradients<T> conv2d_backward(const xt::xtensor<T, 4>& input, const xt::xtensor<T, 4>& filter,
                                                 const xt::xtensor<T, 4>& grad_output, const Conv2dGeometry& geometry,
                                                 bool need_input = true);

/// conv2d by im2col + Eigen GEMM, whatever the build: the reference the oneDNN path is tested against.
template <class T>
[[nodiscard]] xt::xtensor<T, 4> conv2d_reference(const xt::xtensor<T, 4>& input, const xt::xtensor<T, 4>& filter,
                                                 const std::vector<T>& bias, const Conv2dGeometry& geometry);

/// conv2d_backward by im2col + Eigen GEMM, whatever the build.
template <class T>
[[nodiscard]] Conv2dGradients<T> conv2d_backward_reference(const xt::xtensor<T, 4>& input,
                                                           const xt::xtensor<T, 4>& filter,
                                                           const xt::xtensor<T, 4>& grad_output,
                                                           const Conv2dGeometry& geometry, bool need_input = true);

/// Whether float conv2d runs on oneDNN in this build (benchmarks and reports print it).
[[nodiscard]] bool conv2d_uses_onednn() noexcept;

extern template xt::xtensor<float, 4> conv2d(const xt::xtensor<float, 4>&, const xt::xtensor<float, 4>&,
                                             const std::vector<float>&, const Conv2dGeometry&);
extern template xt::xtensor<double, 4> conv2d(const xt::xtensor<double, 4>&, const xt::xtensor<double, 4>&,
                                              const std::vector<double>&, const Conv2dGeometry&);
extern template Conv2dGradients<float> conv2d_backward(const xt::xtensor<float, 4>&, const xt::xtensor<float, 4>&,
                                                       const xt::xtensor<float, 4>&, const Conv2dGeometry&, bool);
extern template Conv2dGradients<double> conv2d_backward(const xt::xtensor<double, 4>&, const xt::xtensor<double, 4>&,
                                                        const xt::xtensor<double, 4>&, const Conv2dGeometry&, bool);
extern template xt::xtensor<float, 4> conv2d_reference(const xt::xtensor<float, 4>&, const xt::xtensor<float, 4>&,
                                                       const std::vector<float>&, const Conv2dGeometry&);
extern template xt::xtensor<double, 4> conv2d_reference(const xt::xtensor<double, 4>&, const xt::xtensor<double, 4>&,
                                                        const std::vector<double>&, const Conv2dGeometry&);
extern template Conv2dGradients<float> conv2d_backward_reference(const xt::xtensor<float, 4>&,
                                                                 const xt::xtensor<float, 4>&,
                                                                 const xt::xtensor<float, 4>&, const Conv2dGeometry&,
                                                                 bool);
extern template Conv2dGradients<double> conv2d_backward_reference(const xt::xtensor<double, 4>&,
                                                                  const xt::xtensor<double, 4>&,
                                                                  const xt::xtensor<double, 4>&, const Conv2dGeometry&,
                                                                  bool);

}  // namespace gyre::nn
