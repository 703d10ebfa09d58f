#include "gyre/nn/conv2d.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>

#include <Eigen/Core>
#include <omp.h>

#include "gyre/core/error.hpp"
#include "gyre/core/parallel.hpp"
#ifdef GYRE_HAVE_ONEDNN
#include "onednn_conv2d.hpp"
#endif

namespace gyre::nn {
namespace {

template <class T>
using RowMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using RowMap = Eigen::Map<RowMatrix<T>>;
template <class T>
using ConstRowMap = Eigen::Map<const RowMatrix<T>>;

struct Shape {
  int channels, height, width, kernel, out_height, out_width;
  Conv2dGeometry geometry;
};

// Output rows are processed in tiles so that the im2col buffer stays in cache (a whole 64×64 image
// with 128 channels and a 5×5 kernel would need 52 MB); ~512 output pixels per tile keeps the GEMM
// large enough to run at full speed.
constexpr int kTilePixels = 512;

int tile_rows(const Shape& s) { return std::max(1, kTilePixels / std::max(1, s.out_width)); }

// cols[(c·k + a)·k + b, (y − y0)·W' + x] = in[c, y·s − p + a·d, x·s − p + b·d] for y in [y0, y1)
// (0 outside the image).
template <class T>
void im2col(const T* image, const Shape& s, int y0, int y1, T* cols) {
  const int k = s.kernel;
  const int stride = s.geometry.stride;
  const int pad = s.geometry.padding;
  const int dil = s.geometry.dilation;
  const std::size_t row_length = static_cast<std::size_t>(y1 - y0) * static_cast<std::size_t>(s.out_width);
  for (int c = 0; c < s.channels; ++c) {
    const T* channel = image + static_cast<std::size_t>(c) * s.height * s.width;
    for (int a = 0; a < k; ++a) {
      for (int b = 0; b < k; ++b) {
        T* row = cols + (static_cast<std::size_t>(c) * k * k + static_cast<std::size_t>(a) * k + b) * row_length;
        // Output columns x whose input column x·s − p + b·d lies inside [0, W).
        const int offset = b * dil - pad;
        int x_begin = 0;
        while (x_begin < s.out_width && x_begin * stride + offset < 0) ++x_begin;
        int x_end = s.out_width;
        while (x_end > x_begin && (x_end - 1) * stride + offset >= s.width) --x_end;
        for (int y = y0; y < y1; ++y) {
          T* out = row + static_cast<std::size_t>(y - y0) * s.out_width;
          const int iy = y * stride - pad + a * dil;
          if (iy < 0 || iy >= s.height) {
            std::fill(out, out + s.out_width, T(0));
            continue;
          }
          const T* in = channel + static_cast<std::size_t>(iy) * s.width;
          std::fill(out, out + x_begin, T(0));
          if (stride == 1) {
            std::memcpy(out + x_begin, in + x_begin + offset, sizeof(T) * static_cast<std::size_t>(x_end - x_begin));
          } else {
            for (int x = x_begin; x < x_end; ++x) out[x] = in[x * stride + offset];
          }
          std::fill(out + x_end, out + s.out_width, T(0));
        }
      }
    }
  }
}

// The adjoint of im2col on output rows [y0, y1): image[c, iy, ix] += cols[…] over every (a, b, y, x)
// that read it.
template <class T>
void col2im(const T* cols, const Shape& s, int y0, int y1, T* image) {
  const int k = s.kernel;
  const int stride = s.geometry.stride;
  const int pad = s.geometry.padding;
  const int dil = s.geometry.dilation;
  const std::size_t row_length = static_cast<std::size_t>(y1 - y0) * static_cast<std::size_t>(s.out_width);
  for (int c = 0; c < s.channels; ++c) {
    T* channel = image + static_cast<std::size_t>(c) * s.height * s.width;
    for (int a = 0; a < k; ++a) {
      for (int b = 0; b < k; ++b) {
        const T* row = cols + (static_cast<std::size_t>(c) * k * k + static_cast<std::size_t>(a) * k + b) * row_length;
        const int offset = b * dil - pad;
        int x_begin = 0;
        while (x_begin < s.out_width && x_begin * stride + offset < 0) ++x_begin;
        int x_end = s.out_width;
        while (x_end > x_begin && (x_end - 1) * stride + offset >= s.width) --x_end;
        for (int y = y0; y < y1; ++y) {
          const int iy = y * stride - pad + a * dil;
          if (iy < 0 || iy >= s.height) continue;
          const T* in = row + static_cast<std::size_t>(y - y0) * s.out_width;
          T* out = channel + static_cast<std::size_t>(iy) * s.width;
          for (int x = x_begin; x < x_end; ++x) out[x * stride + offset] += in[x];
        }
      }
    }
  }
}

template <class T>
Shape check_shapes(const char* where, const xt::xtensor<T, 4>& input, const xt::xtensor<T, 4>& filter,
                   const Conv2dGeometry& geometry) {
  if (!(geometry.stride >= 1)) throw DomainError(where, "stride must be >= 1", geometry.stride);
  if (!(geometry.padding >= 0)) throw DomainError(where, "padding must be >= 0", geometry.padding);
  if (!(geometry.dilation >= 1)) throw DomainError(where, "dilation must be >= 1", geometry.dilation);
  if (filter.shape(2) != filter.shape(3)) {
    throw ShapeError(where, "filter must be square (O, I, k, k)",
                     std::to_string(filter.shape(2)) + "x" + std::to_string(filter.shape(3)));
  }
  if (input.shape(1) != filter.shape(1)) {
    throw ShapeError(where, "input channels must equal the filter's " + std::to_string(filter.shape(1)),
                     input.shape(1));
  }
  Shape s{};
  s.channels = static_cast<int>(input.shape(1));
  s.height = static_cast<int>(input.shape(2));
  s.width = static_cast<int>(input.shape(3));
  s.kernel = static_cast<int>(filter.shape(2));
  s.geometry = geometry;
  s.out_height = conv_output_size(s.height, s.kernel, geometry);
  s.out_width = conv_output_size(s.width, s.kernel, geometry);
  return s;
}

// Images in parallel when there are enough of them; otherwise one at a time so that Eigen's GEMM
// can use the cores itself (it runs single-threaded inside an OpenMP region).
template <class Body>
void for_each_image(std::ptrdiff_t n, const Body& body) {
  if (n >= omp_get_max_threads()) {
    parallel_for(n, body);
  } else {
    for (std::ptrdiff_t i = 0; i < n; ++i) body(i);
  }
}

template <class T>
Shape check_backward_shapes(const xt::xtensor<T, 4>& input, const xt::xtensor<T, 4>& filter,
                            const xt::xtensor<T, 4>& grad_output, const Conv2dGeometry& geometry) {
  const Shape s = check_shapes("conv2d_backward", input, filter, geometry);
  if (grad_output.shape(0) != input.shape(0) || grad_output.shape(1) != filter.shape(0) ||
      static_cast<int>(grad_output.shape(2)) != s.out_height || static_cast<int>(grad_output.shape(3)) != s.out_width) {
    throw ShapeError("conv2d_backward", "grad_output must have the forward output's shape",
                     std::to_string(grad_output.shape(0)) + "x" + std::to_string(grad_output.shape(1)) + "x" +
                         std::to_string(grad_output.shape(2)) + "x" + std::to_string(grad_output.shape(3)));
  }
  return s;
}

template <class T>
void check_bias(const std::vector<T>& bias, std::size_t out_channels) {
  if (!bias.empty() && bias.size() != out_channels) {
    throw ShapeError("conv2d", "bias must have one entry per output channel " + std::to_string(out_channels),
                     bias.size());
  }
}

}  // namespace

int conv_output_size(int input, int kernel, const Conv2dGeometry& geometry) {
  const int span = geometry.dilation * (kernel - 1) + 1;
  const int size = (input + 2 * geometry.padding - span) / geometry.stride + 1;
  if (input + 2 * geometry.padding < span || size < 1) {
    throw ShapeError(
        "conv_output_size",
        "padded input " + std::to_string(input + 2 * geometry.padding) + " is smaller than the dilated kernel", span);
  }
  return size;
}

template <class T>
xt::xtensor<T, 4> conv2d_reference(const xt::xtensor<T, 4>& input, const xt::xtensor<T, 4>& filter,
                                   const std::vector<T>& bias, const Conv2dGeometry& geometry) {
  const Shape s = check_shapes("conv2d", input, filter, geometry);
  const int out_channels = static_cast<int>(filter.shape(0));
  check_bias(bias, filter.shape(0));
  const std::size_t n = input.shape(0);
  xt::xtensor<T, 4> output =
      xt::xtensor<T, 4>::from_shape({n, static_cast<std::size_t>(out_channels), static_cast<std::size_t>(s.out_height),
                                     static_cast<std::size_t>(s.out_width)});
  const int patch = s.channels * s.kernel * s.kernel;
  const int pixels = s.out_height * s.out_width;
  const ConstRowMap<T> f(filter.data(), out_channels, patch);
  const std::size_t in_stride = static_cast<std::size_t>(s.channels) * s.height * s.width;
  const std::size_t out_stride = static_cast<std::size_t>(out_channels) * pixels;
  const int rows_per_tile = tile_rows(s);
  for_each_image(static_cast<std::ptrdiff_t>(n), [&](std::ptrdiff_t i) {
    RowMatrix<T> cols(patch, rows_per_tile * s.out_width);
    RowMap<T> out(output.data() + static_cast<std::size_t>(i) * out_stride, out_channels, pixels);
    for (int y0 = 0; y0 < s.out_height; y0 += rows_per_tile) {
      const int y1 = std::min(s.out_height, y0 + rows_per_tile);
      const int tile = (y1 - y0) * s.out_width;
      im2col(input.data() + static_cast<std::size_t>(i) * in_stride, s, y0, y1, cols.data());
      out.middleCols(y0 * s.out_width, tile).noalias() = f * Eigen::Map<const RowMatrix<T>>(cols.data(), patch, tile);
    }
    if (!bias.empty()) {
      for (int o = 0; o < out_channels; ++o) out.row(o).array() += bias[static_cast<std::size_t>(o)];
    }
  });
  return output;
}

template <class T>
Conv2dGradients<T> conv2d_backward_reference(const xt::xtensor<T, 4>& input, const xt::xtensor<T, 4>& filter,
                                             const xt::xtensor<T, 4>& grad_output, const Conv2dGeometry& geometry,
                                             bool need_input) {
  const Shape s = check_backward_shapes(input, filter, grad_output, geometry);
  const int out_channels = static_cast<int>(filter.shape(0));
  const std::size_t n = input.shape(0);
  const int patch = s.channels * s.kernel * s.kernel;
  const int pixels = s.out_height * s.out_width;
  const ConstRowMap<T> f(filter.data(), out_channels, patch);
  const std::size_t in_stride = static_cast<std::size_t>(s.channels) * s.height * s.width;
  const std::size_t out_stride = static_cast<std::size_t>(out_channels) * pixels;

  Conv2dGradients<T> grads;
  if (need_input) grads.input = xt::xtensor<T, 4>::from_shape(input.shape());
  // One filter-gradient accumulator per thread, summed afterwards: no atomics in the hot loop.
  const int threads = omp_get_max_threads();
  std::vector<RowMatrix<T>> partial(static_cast<std::size_t>(threads), RowMatrix<T>::Zero(out_channels, patch));
  std::vector<std::vector<T>> partial_bias(static_cast<std::size_t>(threads),
                                           std::vector<T>(static_cast<std::size_t>(out_channels), T(0)));
  const int rows_per_tile = tile_rows(s);
  for_each_image(static_cast<std::ptrdiff_t>(n), [&](std::ptrdiff_t i) {
    const std::size_t t = static_cast<std::size_t>(omp_get_thread_num());
    const ConstRowMap<T> g(grad_output.data() + static_cast<std::size_t>(i) * out_stride, out_channels, pixels);
    for (int o = 0; o < out_channels; ++o) partial_bias[t][static_cast<std::size_t>(o)] += g.row(o).sum();
    RowMatrix<T> cols(patch, rows_per_tile * s.out_width);
    T* image_grad = need_input ? grads.input.data() + static_cast<std::size_t>(i) * in_stride : nullptr;
    if (need_input) std::fill(image_grad, image_grad + in_stride, T(0));
    for (int y0 = 0; y0 < s.out_height; y0 += rows_per_tile) {
      const int y1 = std::min(s.out_height, y0 + rows_per_tile);
      const int tile = (y1 - y0) * s.out_width;
      Eigen::Map<RowMatrix<T>> c(cols.data(), patch, tile);
      const auto g_tile = g.middleCols(y0 * s.out_width, tile);
      im2col(input.data() + static_cast<std::size_t>(i) * in_stride, s, y0, y1, cols.data());
      partial[t].noalias() += g_tile * c.transpose();
      if (need_input) {
        c.noalias() = f.transpose() * g_tile;
        col2im(cols.data(), s, y0, y1, image_grad);
      }
    }
  });
  grads.filter = xt::xtensor<T, 4>::from_shape(filter.shape());
  RowMap<T> total(grads.filter.data(), out_channels, patch);
  total.setZero();
  grads.bias.assign(static_cast<std::size_t>(out_channels), T(0));
  for (std::size_t t = 0; t < partial.size(); ++t) {
    total += partial[t];
    for (int o = 0; o < out_channels; ++o)
      grads.bias[static_cast<std::size_t>(o)] += partial_bias[t][static_cast<std::size_t>(o)];
  }
  return grads;
}

template <class T>
xt::xtensor<T, 4> conv2d(const xt::xtensor<T, 4>& input, const xt::xtensor<T, 4>& filter, const std::vector<T>& bias,
                         const Conv2dGeometry& geometry) {
#ifdef GYRE_HAVE_ONEDNN
  if constexpr (std::is_same_v<T, float>) {
    const Shape s = check_shapes("conv2d", input, filter, geometry);
    check_bias(bias, filter.shape(0));
    if (auto output = detail::onednn_conv2d(input, filter, bias, geometry, s.out_height, s.out_width)) {
      return std::move(*output);
    }
  }
#endif
  return conv2d_reference(input, filter, bias, geometry);
}

template <class T>
Conv2dGradients<T> conv2d_backward(const xt::xtensor<T, 4>& input, const xt::xtensor<T, 4>& filter,
                                   const xt::xtensor<T, 4>& grad_output, const Conv2dGeometry& geometry,
                                   bool need_input) {
#ifdef GYRE_HAVE_ONEDNN
  if constexpr (std::is_same_v<T, float>) {
    static_cast<void>(check_backward_shapes(input, filter, grad_output, geometry));
    if (auto grads = detail::onednn_conv2d_backward(input, filter, grad_output, geometry, need_input)) {
      return std::move(*grads);
    }
  }
#endif
  return conv2d_backward_reference(input, filter, grad_output, geometry, need_input);
}

bool conv2d_uses_onednn() noexcept {
#ifdef GYRE_HAVE_ONEDNN
  return true;
#else
  return false;
#endif
}

#define GYRE_INSTANTIATE_CONV2D(T)                                                                             \
  template xt::xtensor<T, 4> conv2d(const xt::xtensor<T, 4>&, const xt::xtensor<T, 4>&, const std::vector<T>&, \
                                    const Conv2dGeometry&);                                                    \
  template xt::xtensor<T, 4> conv2d_reference(const xt::xtensor<T, 4>&, const xt::xtensor<T, 4>&,              \
                                              const std::vector<T>&, const Conv2dGeometry&);                   \
  template Conv2dGradients<T> conv2d_backward(const xt::xtensor<T, 4>&, const xt::xtensor<T, 4>&,              \
                                              const xt::xtensor<T, 4>&, const Conv2dGeometry&, bool);          \
  template Conv2dGradients<T> conv2d_backward_reference(const xt::xtensor<T, 4>&, const xt::xtensor<T, 4>&,    \
                                                        const xt::xtensor<T, 4>&, const Conv2dGeometry&, bool);
GYRE_INSTANTIATE_CONV2D(float)
GYRE_INSTANTIATE_CONV2D(double)
#undef GYRE_INSTANTIATE_CONV2D

}  // namespace gyre::nn
