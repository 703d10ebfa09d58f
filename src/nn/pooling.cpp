#include "gyre/nn/pooling.hpp"

#include <algorithm>
#include <limits>

#include "gyre/core/error.hpp"
#include "gyre/nn/conv2d.hpp"

namespace gyre::nn {

namespace detail {

void require_permutation_fields(const std::string& where, const FieldType& type) {
  for (const repr::Representation& rho : type.fields()) {
    if (!rho.is_permutation()) {
      throw DomainError(where, "needs permutation fields (regular, quotient, trivial)", rho.name());
    }
  }
}

}  // namespace detail

namespace {

using Shape = std::array<std::size_t, 4>;

void require_window(const std::string& where, int kernel, int stride, int padding) {
  if (!(kernel >= 1)) throw DomainError(where, "kernel size must be >= 1", kernel);
  if (!(stride >= 1)) throw DomainError(where, "stride must be >= 1", stride);
  // torch's limit: a window never lies entirely in the padding.
  if (!(padding >= 0 && 2 * padding <= kernel)) throw DomainError(where, "padding must be in [0, kernel/2]", padding);
}

// (N, C, H', W') of a k×k window pooling; ShapeError (from conv_output_size) if the map is too small.
Shape pooled_shape(const Shape& in, int kernel, int stride, int padding) {
  const Conv2dGeometry g{stride, padding, 1};
  return {in[0], in[1], static_cast<std::size_t>(conv_output_size(static_cast<int>(in[2]), kernel, g)),
          static_cast<std::size_t>(conv_output_size(static_cast<int>(in[3]), kernel, g))};
}

template <class S>
Shape shape_of(const S& s) {
  return {s[0], s[1], s[2], s[3]};
}

template <class T>
void require_output_shape(const std::string& where, const Shape& expected, const GeometricTensor<T>& grad_output) {
  if (shape_of(grad_output.data.shape()) != expected) {
    throw ShapeError(where, "grad_output must have the last forward output's shape", grad_output.data.size());
  }
}

}  // namespace

// --- PointwiseMaxPool ---

template <class T>
PointwiseMaxPool<T>::PointwiseMaxPool(FieldType type, int kernel, int stride, int padding)
    : type_(std::move(type)), kernel_(kernel), stride_(stride < 0 ? kernel : stride), padding_(padding) {
  detail::require_permutation_fields("PointwiseMaxPool", type_);
  require_window("PointwiseMaxPool", kernel_, stride_, padding_);
}

template <class T>
GeometricTensor<T> PointwiseMaxPool<T>::forward(const GeometricTensor<T>& input) {
  require_field_type("PointwiseMaxPool::forward", type_, input.type);
  detail::PoolCall call;
  const Shape in_shape = shape_of(input.data.shape());
  const Shape out_shape = pooled_shape(in_shape, kernel_, stride_, padding_);
  const int h = static_cast<int>(in_shape[2]);
  const int w = static_cast<int>(in_shape[3]);
  const int oh = static_cast<int>(out_shape[2]);
  const int ow = static_cast<int>(out_shape[3]);
  const std::size_t planes = in_shape[0] * in_shape[1];
  GeometricTensor<T> output = GeometricTensor<T>::zeros(type_, out_shape[0], out_shape[2], out_shape[3]);
  call.argmax.assign(planes * out_shape[2] * out_shape[3], 0);
  for (std::size_t q = 0; q < planes; ++q) {
    const T* in = input.data.data() + q * in_shape[2] * in_shape[3];
    T* out = output.data.data() + q * out_shape[2] * out_shape[3];
    int* arg = call.argmax.data() + q * out_shape[2] * out_shape[3];
    for (int y = 0; y < oh; ++y) {
      for (int x = 0; x < ow; ++x) {
        T best = -std::numeric_limits<T>::infinity();
        int where = -1;
        for (int a = 0; a < kernel_; ++a) {
          const int iy = y * stride_ - padding_ + a;
          if (iy < 0 || iy >= h) continue;
          for (int b = 0; b < kernel_; ++b) {
            const int ix = x * stride_ - padding_ + b;
            if (ix < 0 || ix >= w) continue;
            if (where < 0 || in[iy * w + ix] > best) {
              best = in[iy * w + ix];
              where = iy * w + ix;
            }
          }
        }
        out[y * ow + x] = best;
        arg[y * ow + x] = where;
      }
    }
  }
  call.in_shape = in_shape;
  call.out_shape = out_shape;
  calls_.push(std::move(call));
  return output;
}

template <class T>
GeometricTensor<T> PointwiseMaxPool<T>::backward(const GeometricTensor<T>& grad_output) {
  require_field_type("PointwiseMaxPool::backward", type_, grad_output.type);
  const detail::PoolCall& call = calls_.top("PointwiseMaxPool::backward", describe());
  require_output_shape("PointwiseMaxPool::backward", call.out_shape, grad_output);
  GeometricTensor<T> grad = GeometricTensor<T>::zeros(type_, call.in_shape[0], call.in_shape[2], call.in_shape[3]);
  const std::size_t out_plane = call.out_shape[2] * call.out_shape[3];
  const std::size_t in_plane = call.in_shape[2] * call.in_shape[3];
  const T* go = grad_output.data.data();
  T* gi = grad.data.data();
  for (std::size_t i = 0; i < call.argmax.size(); ++i) {
    gi[(i / out_plane) * in_plane + static_cast<std::size_t>(call.argmax[i])] += go[i];
  }
  calls_.drop();  // only now: a backward that throws leaves the call to retry
  return grad;
}

template <class T>
std::string PointwiseMaxPool<T>::describe() const {
  return "PointwiseMaxPool(" + type_.describe() + ", k=" + std::to_string(kernel_) + ", stride " +
         std::to_string(stride_) + ", padding " + std::to_string(padding_) + ")";
}

// --- NormMaxPool ---

template <class T>
NormMaxPool<T>::NormMaxPool(FieldType type, int kernel, int stride)
    : type_(std::move(type)), kernel_(kernel), stride_(stride < 0 ? kernel : stride) {
  require_window("NormMaxPool", kernel_, stride_, 0);
}

template <class T>
GeometricTensor<T> NormMaxPool<T>::forward(const GeometricTensor<T>& input) {
  require_field_type("NormMaxPool::forward", type_, input.type);
  detail::PoolCall call;
  const Shape in_shape = shape_of(input.data.shape());
  const Shape out_shape = pooled_shape(in_shape, kernel_, stride_, 0);
  const int w = static_cast<int>(in_shape[3]);
  const int oh = static_cast<int>(out_shape[2]);
  const int ow = static_cast<int>(out_shape[3]);
  const std::size_t n = in_shape[0];
  const std::size_t fields = static_cast<std::size_t>(type_.n_fields());
  const std::size_t in_plane = in_shape[2] * in_shape[3];
  const std::size_t out_plane = out_shape[2] * out_shape[3];
  GeometricTensor<T> output = GeometricTensor<T>::zeros(type_, n, out_shape[2], out_shape[3]);
  call.argmax.assign(n * fields * out_plane, 0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t f = 0; f < fields; ++f) {
      const std::size_t d = static_cast<std::size_t>(type_.fields()[f].size());
      const std::size_t channel0 = i * static_cast<std::size_t>(type_.size()) +
                                   static_cast<std::size_t>(type_.field_offset(static_cast<int>(f)));
      const T* in = input.data.data() + channel0 * in_plane;
      T* out = output.data.data() + channel0 * out_plane;
      int* arg = call.argmax.data() + (i * fields + f) * out_plane;
      for (int y = 0; y < oh; ++y) {
        for (int x = 0; x < ow; ++x) {
          T best = -1;  // below every ‖f‖² ≥ 0: the first position is taken, a later one only if larger
          int where = 0;
          for (int a = 0; a < kernel_; ++a) {
            for (int b = 0; b < kernel_; ++b) {
              const std::size_t p = static_cast<std::size_t>((y * stride_ + a) * w + x * stride_ + b);
              T norm2 = 0;
              for (std::size_t c = 0; c < d; ++c) norm2 += in[c * in_plane + p] * in[c * in_plane + p];
              if (norm2 > best) {
                best = norm2;
                where = static_cast<int>(p);
              }
            }
          }
          const std::size_t o = static_cast<std::size_t>(y * ow + x);
          for (std::size_t c = 0; c < d; ++c)
            out[c * out_plane + o] = in[c * in_plane + static_cast<std::size_t>(where)];
          arg[o] = where;
        }
      }
    }
  }
  call.in_shape = in_shape;
  call.out_shape = out_shape;
  calls_.push(std::move(call));
  return output;
}

template <class T>
GeometricTensor<T> NormMaxPool<T>::backward(const GeometricTensor<T>& grad_output) {
  require_field_type("NormMaxPool::backward", type_, grad_output.type);
  const detail::PoolCall& call = calls_.top("NormMaxPool::backward", describe());
  require_output_shape("NormMaxPool::backward", call.out_shape, grad_output);
  const std::size_t n = call.in_shape[0];
  const std::size_t fields = static_cast<std::size_t>(type_.n_fields());
  const std::size_t in_plane = call.in_shape[2] * call.in_shape[3];
  const std::size_t out_plane = call.out_shape[2] * call.out_shape[3];
  GeometricTensor<T> grad = GeometricTensor<T>::zeros(type_, n, call.in_shape[2], call.in_shape[3]);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t f = 0; f < fields; ++f) {
      const std::size_t d = static_cast<std::size_t>(type_.fields()[f].size());
      const std::size_t channel0 = i * static_cast<std::size_t>(type_.size()) +
                                   static_cast<std::size_t>(type_.field_offset(static_cast<int>(f)));
      const int* arg = call.argmax.data() + (i * fields + f) * out_plane;
      const T* go = grad_output.data.data() + channel0 * out_plane;
      T* gi = grad.data.data() + channel0 * in_plane;
      for (std::size_t p = 0; p < out_plane; ++p) {
        for (std::size_t c = 0; c < d; ++c)
          gi[c * in_plane + static_cast<std::size_t>(arg[p])] += go[c * out_plane + p];
      }
    }
  }
  calls_.drop();  // only now: a backward that throws leaves the call to retry
  return grad;
}

template <class T>
std::string NormMaxPool<T>::describe() const {
  return "NormMaxPool(" + type_.describe() + ", k=" + std::to_string(kernel_) + ", stride " + std::to_string(stride_) +
         ")";
}

// --- PointwiseAvgPool ---

template <class T>
PointwiseAvgPool<T>::PointwiseAvgPool(FieldType type, int kernel, int stride, int padding)
    : type_(std::move(type)), kernel_(kernel), stride_(stride < 0 ? kernel : stride), padding_(padding) {
  require_window("PointwiseAvgPool", kernel_, stride_, padding_);
}

template <class T>
GeometricTensor<T> PointwiseAvgPool<T>::forward(const GeometricTensor<T>& input) {
  require_field_type("PointwiseAvgPool::forward", type_, input.type);
  detail::PoolCall call;
  const Shape in_shape = shape_of(input.data.shape());
  const Shape out_shape = pooled_shape(in_shape, kernel_, stride_, padding_);
  const int h = static_cast<int>(in_shape[2]);
  const int w = static_cast<int>(in_shape[3]);
  const int oh = static_cast<int>(out_shape[2]);
  const int ow = static_cast<int>(out_shape[3]);
  const T inv_area = T(1) / static_cast<T>(kernel_ * kernel_);
  GeometricTensor<T> output = GeometricTensor<T>::zeros(type_, out_shape[0], out_shape[2], out_shape[3]);
  for (std::size_t q = 0; q < in_shape[0] * in_shape[1]; ++q) {
    const T* in = input.data.data() + q * in_shape[2] * in_shape[3];
    T* out = output.data.data() + q * out_shape[2] * out_shape[3];
    for (int y = 0; y < oh; ++y) {
      for (int x = 0; x < ow; ++x) {
        T sum = 0;
        for (int a = 0; a < kernel_; ++a) {
          const int iy = y * stride_ - padding_ + a;
          if (iy < 0 || iy >= h) continue;
          for (int b = 0; b < kernel_; ++b) {
            const int ix = x * stride_ - padding_ + b;
            if (ix >= 0 && ix < w) sum += in[iy * w + ix];
          }
        }
        out[y * ow + x] = sum * inv_area;
      }
    }
  }
  call.in_shape = in_shape;
  call.out_shape = out_shape;
  calls_.push(std::move(call));
  return output;
}

template <class T>
GeometricTensor<T> PointwiseAvgPool<T>::backward(const GeometricTensor<T>& grad_output) {
  require_field_type("PointwiseAvgPool::backward", type_, grad_output.type);
  const detail::PoolCall& call = calls_.top("PointwiseAvgPool::backward", describe());
  require_output_shape("PointwiseAvgPool::backward", call.out_shape, grad_output);
  const int h = static_cast<int>(call.in_shape[2]);
  const int w = static_cast<int>(call.in_shape[3]);
  const int oh = static_cast<int>(call.out_shape[2]);
  const int ow = static_cast<int>(call.out_shape[3]);
  const T inv_area = T(1) / static_cast<T>(kernel_ * kernel_);
  GeometricTensor<T> grad = GeometricTensor<T>::zeros(type_, call.in_shape[0], call.in_shape[2], call.in_shape[3]);
  for (std::size_t q = 0; q < call.in_shape[0] * call.in_shape[1]; ++q) {
    const T* go = grad_output.data.data() + q * call.out_shape[2] * call.out_shape[3];
    T* gi = grad.data.data() + q * call.in_shape[2] * call.in_shape[3];
    for (int y = 0; y < oh; ++y) {
      for (int x = 0; x < ow; ++x) {
        const T g = go[y * ow + x] * inv_area;
        for (int a = 0; a < kernel_; ++a) {
          const int iy = y * stride_ - padding_ + a;
          if (iy < 0 || iy >= h) continue;
          for (int b = 0; b < kernel_; ++b) {
            const int ix = x * stride_ - padding_ + b;
            if (ix >= 0 && ix < w) gi[iy * w + ix] += g;
          }
        }
      }
    }
  }
  calls_.drop();  // only now: a backward that throws leaves the call to retry
  return grad;
}

template <class T>
std::string PointwiseAvgPool<T>::describe() const {
  return "PointwiseAvgPool(" + type_.describe() + ", k=" + std::to_string(kernel_) + ", stride " +
         std::to_string(stride_) + ", padding " + std::to_string(padding_) + ")";
}

// --- GroupPooling ---

template <class T>
GroupPooling<T>::GroupPooling(FieldType type)
    : in_(std::move(type)), out_(in_.group(), repr::trivial_representation(in_.group()), in_.n_fields()) {
  detail::require_permutation_fields("GroupPooling", in_);
}

template <class T>
GeometricTensor<T> GroupPooling<T>::forward(const GeometricTensor<T>& input) {
  require_field_type("GroupPooling::forward", in_, input.type);
  detail::PoolCall call;
  const std::size_t n = input.data.shape(0);
  const std::size_t plane = input.data.shape(2) * input.data.shape(3);
  const std::size_t fields = static_cast<std::size_t>(in_.n_fields());
  GeometricTensor<T> output = GeometricTensor<T>::zeros(out_, n, input.data.shape(2), input.data.shape(3));
  call.argmax.assign(output.data.size(), 0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t f = 0; f < fields; ++f) {
      const std::size_t d = static_cast<std::size_t>(in_.fields()[f].size());
      const T* in = input.data.data() + (i * static_cast<std::size_t>(in_.size()) +
                                         static_cast<std::size_t>(in_.field_offset(static_cast<int>(f)))) *
                                            plane;
      const std::size_t out_offset = (i * fields + f) * plane;
      for (std::size_t p = 0; p < plane; ++p) {
        std::size_t best = 0;
        for (std::size_t c = 1; c < d; ++c) {
          if (in[c * plane + p] > in[best * plane + p]) best = c;
        }
        output.data.data()[out_offset + p] = in[best * plane + p];
        call.argmax[out_offset + p] = static_cast<int>(best);
      }
    }
  }
  call.in_shape = shape_of(input.data.shape());
  calls_.push(std::move(call));
  return output;
}

template <class T>
GeometricTensor<T> GroupPooling<T>::backward(const GeometricTensor<T>& grad_output) {
  require_field_type("GroupPooling::backward", out_, grad_output.type);
  const detail::PoolCall& call = calls_.top("GroupPooling::backward", describe());
  require_output_shape(
      "GroupPooling::backward",
      Shape{call.in_shape[0], static_cast<std::size_t>(out_.size()), call.in_shape[2], call.in_shape[3]}, grad_output);
  const std::size_t plane = call.in_shape[2] * call.in_shape[3];
  const std::size_t fields = static_cast<std::size_t>(in_.n_fields());
  GeometricTensor<T> grad = GeometricTensor<T>::zeros(in_, call.in_shape[0], call.in_shape[2], call.in_shape[3]);
  for (std::size_t i = 0; i < call.in_shape[0]; ++i) {
    for (std::size_t f = 0; f < fields; ++f) {
      const std::size_t out_offset = (i * fields + f) * plane;
      T* g = grad.data.data() + (i * static_cast<std::size_t>(in_.size()) +
                                 static_cast<std::size_t>(in_.field_offset(static_cast<int>(f)))) *
                                    plane;
      for (std::size_t p = 0; p < plane; ++p) {
        g[static_cast<std::size_t>(call.argmax[out_offset + p]) * plane + p] += grad_output.data.data()[out_offset + p];
      }
    }
  }
  calls_.drop();  // only now: a backward that throws leaves the call to retry
  return grad;
}

template <class T>
std::string GroupPooling<T>::describe() const {
  return "GroupPooling(" + in_.describe() + ")";
}

// --- GlobalAveragePool ---

template <class T>
GeometricTensor<T> GlobalAveragePool<T>::forward(const GeometricTensor<T>& input) {
  require_field_type("GlobalAveragePool::forward", type_, input.type);
  detail::PoolCall call;
  call.in_shape = shape_of(input.data.shape());
  const std::size_t plane = call.in_shape[2] * call.in_shape[3];
  if (plane == 0) throw ShapeError("GlobalAveragePool::forward", "feature maps must be non-empty", plane);
  GeometricTensor<T> output = GeometricTensor<T>::zeros(type_, call.in_shape[0], 1, 1);
  for (std::size_t q = 0; q < call.in_shape[0] * call.in_shape[1]; ++q) {
    const T* in = input.data.data() + q * plane;
    T sum = 0;
    for (std::size_t p = 0; p < plane; ++p) sum += in[p];
    output.data.data()[q] = sum / static_cast<T>(plane);
  }
  calls_.push(std::move(call));
  return output;
}

template <class T>
GeometricTensor<T> GlobalAveragePool<T>::backward(const GeometricTensor<T>& grad_output) {
  require_field_type("GlobalAveragePool::backward", type_, grad_output.type);
  const detail::PoolCall& call = calls_.top("GlobalAveragePool::backward", describe());
  require_output_shape("GlobalAveragePool::backward", Shape{call.in_shape[0], call.in_shape[1], 1, 1}, grad_output);
  GeometricTensor<T> grad = GeometricTensor<T>::zeros(type_, call.in_shape[0], call.in_shape[2], call.in_shape[3]);
  const std::size_t plane = call.in_shape[2] * call.in_shape[3];
  for (std::size_t q = 0; q < call.in_shape[0] * call.in_shape[1]; ++q) {
    const T g = grad_output.data.data()[q] / static_cast<T>(plane);
    std::fill(grad.data.data() + q * plane, grad.data.data() + (q + 1) * plane, g);
  }
  calls_.drop();  // only now: a backward that throws leaves the call to retry
  return grad;
}

template <class T>
std::string GlobalAveragePool<T>::describe() const {
  return "GlobalAveragePool(" + type_.describe() + ")";
}

template class PointwiseMaxPool<float>;
template class PointwiseMaxPool<double>;
template class NormMaxPool<float>;
template class NormMaxPool<double>;
template class PointwiseAvgPool<float>;
template class PointwiseAvgPool<double>;
template class GroupPooling<float>;
template class GroupPooling<double>;
template class GlobalAveragePool<float>;
template class GlobalAveragePool<double>;

}  // namespace gyre::nn
