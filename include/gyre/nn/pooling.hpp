#pragma once
// Spatial and group pooling (escnn's PointwiseMaxPool, NormMaxPool, PointwiseAvgPool, GroupPooling)
// and a global average over the plane.
//   PointwiseMaxPool  max per channel over k×k windows: equivariant for permutation fields only.
//   NormMaxPool       per field, the field at the window position of largest ‖f‖ (any field).
//   PointwiseAvgPool  mean per channel (zero padding counted, as torch): commutes with any ρ.
//   GroupPooling      max over each permutation field's channels: one invariant (trivial) field each.
//   GlobalAveragePool mean over the plane: (N, C, H, W) ↦ (N, C, 1, 1), same field type.
// Windows are exact grid symmetries only when they tile the map symmetrically (odd sizes, or
// stride = kernel dividing the size): the checker shows what a given choice does.

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "gyre/core/error.hpp"
#include "gyre/nn/conv2d.hpp"
#include "gyre/nn/module.hpp"

namespace gyre::nn {

namespace detail {

inline void require_permutation_fields(const std::string& where, const FieldType& type) {
  for (const repr::Representation& rho : type.fields()) {
    if (!rho.is_permutation()) {
      throw DomainError(where, "needs permutation fields (regular, quotient, trivial)", rho.name());
    }
  }
}

inline void require_window(const std::string& where, int kernel, int stride, int padding) {
  if (!(kernel >= 1)) throw DomainError(where, "kernel size must be >= 1", kernel);
  if (!(stride >= 1)) throw DomainError(where, "stride must be >= 1", stride);
  if (!(padding >= 0 && 2 * padding <= kernel)) throw DomainError(where, "padding must be in [0, kernel/2]", padding);
}

}  // namespace detail

/// Max over k×k windows, channel by channel; permutation fields only.
template <class T>
class PointwiseMaxPool : public Module<T> {
 public:
  PointwiseMaxPool(FieldType type, int kernel, int stride = -1, int padding = 0)
      : type_(std::move(type)), kernel_(kernel), stride_(stride < 0 ? kernel : stride), padding_(padding) {
    detail::require_permutation_fields("PointwiseMaxPool", type_);
    detail::require_window("PointwiseMaxPool", kernel_, stride_, padding_);
  }

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override {
    require_field_type("PointwiseMaxPool::forward", type_, input.type);
    const Conv2dGeometry g{stride_, padding_, 1};
    const int h = static_cast<int>(input.data.shape(2));
    const int w = static_cast<int>(input.data.shape(3));
    const int oh = conv_output_size(h, kernel_, g);
    const int ow = conv_output_size(w, kernel_, g);
    const std::size_t planes = input.data.shape(0) * input.data.shape(1);
    GeometricTensor<T> output =
        GeometricTensor<T>::zeros(type_, input.data.shape(0), static_cast<std::size_t>(oh), static_cast<std::size_t>(ow));
    argmax_.assign(planes * static_cast<std::size_t>(oh * ow), 0);
    for (std::size_t q = 0; q < planes; ++q) {
      const T* in = input.data.data() + q * static_cast<std::size_t>(h * w);
      T* out = output.data.data() + q * static_cast<std::size_t>(oh * ow);
      for (int y = 0; y < oh; ++y)
        for (int x = 0; x < ow; ++x) {
          T best = -std::numeric_limits<T>::infinity();
          int where = -1;
          for (int a = 0; a < kernel_; ++a)
            for (int b = 0; b < kernel_; ++b) {
              const int iy = y * stride_ - padding_ + a;
              const int ix = x * stride_ - padding_ + b;
              if (iy < 0 || ix < 0 || iy >= h || ix >= w) continue;
              if (in[iy * w + ix] > best || where < 0) {
                best = in[iy * w + ix];
                where = iy * w + ix;
              }
            }
          out[y * ow + x] = best;
          argmax_[q * static_cast<std::size_t>(oh * ow) + static_cast<std::size_t>(y * ow + x)] = where;
        }
    }
    in_shape_ = input.data.shape();
    return output;
  }

  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override {
    require_field_type("PointwiseMaxPool::backward", type_, grad_output.type);
    GeometricTensor<T> grad = GeometricTensor<T>::zeros(type_, in_shape_[0], in_shape_[2], in_shape_[3]);
    const std::size_t out_plane = grad_output.data.shape(2) * grad_output.data.shape(3);
    const std::size_t in_plane = in_shape_[2] * in_shape_[3];
    if (argmax_.size() != grad_output.data.size()) {
      throw ShapeError("PointwiseMaxPool::backward", "grad_output must have the last forward output's shape",
                       grad_output.data.size());
    }
    for (std::size_t i = 0; i < argmax_.size(); ++i) {
      const std::size_t q = i / out_plane;
      grad.data.data()[q * in_plane + static_cast<std::size_t>(argmax_[i])] += grad_output.data.data()[i];
    }
    return grad;
  }

  [[nodiscard]] const FieldType& in_type() const override { return type_; }
  [[nodiscard]] const FieldType& out_type() const override { return type_; }
  [[nodiscard]] std::string describe() const override {
    return "PointwiseMaxPool(" + type_.describe() + ", k=" + std::to_string(kernel_) + ", stride " +
           std::to_string(stride_) + ")";
  }

 private:
  FieldType type_;
  int kernel_, stride_, padding_;
  std::vector<int> argmax_;
  std::array<std::size_t, 4> in_shape_{};
};

/// Per field, the field's value at the window position where its norm is largest.
template <class T>
class NormMaxPool : public Module<T> {
 public:
  NormMaxPool(FieldType type, int kernel, int stride = -1)
      : type_(std::move(type)), kernel_(kernel), stride_(stride < 0 ? kernel : stride) {
    detail::require_window("NormMaxPool", kernel_, stride_, 0);
  }

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override {
    require_field_type("NormMaxPool::forward", type_, input.type);
    const Conv2dGeometry g{stride_, 0, 1};
    const int h = static_cast<int>(input.data.shape(2));
    const int w = static_cast<int>(input.data.shape(3));
    const int oh = conv_output_size(h, kernel_, g);
    const int ow = conv_output_size(w, kernel_, g);
    const std::size_t n = input.data.shape(0);
    GeometricTensor<T> output = GeometricTensor<T>::zeros(type_, n, static_cast<std::size_t>(oh), static_cast<std::size_t>(ow));
    argmax_.assign(n * static_cast<std::size_t>(type_.n_fields() * oh * ow), 0);
    const std::size_t in_plane = static_cast<std::size_t>(h * w);
    const std::size_t out_plane = static_cast<std::size_t>(oh * ow);
    for (std::size_t i = 0; i < n; ++i)
      for (int f = 0; f < type_.n_fields(); ++f) {
        const std::size_t d = static_cast<std::size_t>(type_.fields()[static_cast<std::size_t>(f)].size());
        const std::size_t channel0 = i * static_cast<std::size_t>(type_.size()) + static_cast<std::size_t>(type_.field_offset(f));
        const T* in = input.data.data() + channel0 * in_plane;
        T* out = output.data.data() + channel0 * out_plane;
        for (int y = 0; y < oh; ++y)
          for (int x = 0; x < ow; ++x) {
            T best = -1;
            int where = 0;
            for (int a = 0; a < kernel_; ++a)
              for (int b = 0; b < kernel_; ++b) {
                const int p = (y * stride_ + a) * w + x * stride_ + b;
                T norm2 = 0;
                for (std::size_t c = 0; c < d; ++c) norm2 += in[c * in_plane + static_cast<std::size_t>(p)] * in[c * in_plane + static_cast<std::size_t>(p)];
                if (norm2 > best) {
                  best = norm2;
                  where = p;
                }
              }
            for (std::size_t c = 0; c < d; ++c) out[c * out_plane + static_cast<std::size_t>(y * ow + x)] = in[c * in_plane + static_cast<std::size_t>(where)];
            argmax_[(i * static_cast<std::size_t>(type_.n_fields()) + static_cast<std::size_t>(f)) * out_plane + static_cast<std::size_t>(y * ow + x)] = where;
          }
      }
    in_shape_ = input.data.shape();
    return output;
  }

  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override {
    require_field_type("NormMaxPool::backward", type_, grad_output.type);
    const std::size_t n = in_shape_[0];
    GeometricTensor<T> grad = GeometricTensor<T>::zeros(type_, n, in_shape_[2], in_shape_[3]);
    const std::size_t in_plane = in_shape_[2] * in_shape_[3];
    const std::size_t out_plane = grad_output.data.shape(2) * grad_output.data.shape(3);
    if (argmax_.size() != n * static_cast<std::size_t>(type_.n_fields()) * out_plane) {
      throw ShapeError("NormMaxPool::backward", "grad_output must have the last forward output's shape", grad_output.data.size());
    }
    for (std::size_t i = 0; i < n; ++i)
      for (int f = 0; f < type_.n_fields(); ++f) {
        const std::size_t d = static_cast<std::size_t>(type_.fields()[static_cast<std::size_t>(f)].size());
        const std::size_t channel0 = i * static_cast<std::size_t>(type_.size()) + static_cast<std::size_t>(type_.field_offset(f));
        for (std::size_t p = 0; p < out_plane; ++p) {
          const int where = argmax_[(i * static_cast<std::size_t>(type_.n_fields()) + static_cast<std::size_t>(f)) * out_plane + p];
          for (std::size_t c = 0; c < d; ++c) {
            grad.data.data()[(channel0 + c) * in_plane + static_cast<std::size_t>(where)] +=
                grad_output.data.data()[(channel0 + c) * out_plane + p];
          }
        }
      }
    return grad;
  }

  [[nodiscard]] const FieldType& in_type() const override { return type_; }
  [[nodiscard]] const FieldType& out_type() const override { return type_; }
  [[nodiscard]] std::string describe() const override {
    return "NormMaxPool(" + type_.describe() + ", k=" + std::to_string(kernel_) + ")";
  }

 private:
  FieldType type_;
  int kernel_, stride_;
  std::vector<int> argmax_;
  std::array<std::size_t, 4> in_shape_{};
};

/// Mean over k×k windows per channel (zero padding counted in the mean, as torch's default).
template <class T>
class PointwiseAvgPool : public Module<T> {
 public:
  PointwiseAvgPool(FieldType type, int kernel, int stride = -1, int padding = 0)
      : type_(std::move(type)), kernel_(kernel), stride_(stride < 0 ? kernel : stride), padding_(padding) {
    detail::require_window("PointwiseAvgPool", kernel_, stride_, padding_);
  }

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override {
    require_field_type("PointwiseAvgPool::forward", type_, input.type);
    in_shape_ = input.data.shape();
    xt::xtensor<T, 4> out = conv2d(per_channel(input.data), box_filter(), {}, geometry());
    out.reshape({in_shape_[0], in_shape_[1], out.shape(2), out.shape(3)});
    return GeometricTensor<T>(type_, std::move(out));
  }

  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override {
    require_field_type("PointwiseAvgPool::backward", type_, grad_output.type);
    const xt::xtensor<T, 4> flat_input = xt::zeros<T>({in_shape_[0] * in_shape_[1], std::size_t(1), in_shape_[2], in_shape_[3]});
    xt::xtensor<T, 4> flat_grad = grad_output.data;
    flat_grad.reshape({grad_output.data.shape(0) * grad_output.data.shape(1), std::size_t(1), grad_output.data.shape(2),
                       grad_output.data.shape(3)});
    auto grads = conv2d_backward(flat_input, box_filter(), flat_grad, geometry());
    grads.input.reshape(in_shape_);
    return GeometricTensor<T>(type_, std::move(grads.input));
  }

  [[nodiscard]] const FieldType& in_type() const override { return type_; }
  [[nodiscard]] const FieldType& out_type() const override { return type_; }
  [[nodiscard]] std::string describe() const override {
    return "PointwiseAvgPool(" + type_.describe() + ", k=" + std::to_string(kernel_) + ", stride " +
           std::to_string(stride_) + ")";
  }

 private:
  [[nodiscard]] Conv2dGeometry geometry() const { return {stride_, padding_, 1}; }
  [[nodiscard]] xt::xtensor<T, 4> box_filter() const {
    const std::size_t k = static_cast<std::size_t>(kernel_);
    return xt::xtensor<T, 4>(xt::ones<T>({std::size_t(1), std::size_t(1), k, k}) / static_cast<T>(kernel_ * kernel_));
  }
  // Every channel as its own image: (N·C, 1, H, W), so one box filter averages them all.
  static xt::xtensor<T, 4> per_channel(const xt::xtensor<T, 4>& x) {
    xt::xtensor<T, 4> flat = x;
    flat.reshape({x.shape(0) * x.shape(1), std::size_t(1), x.shape(2), x.shape(3)});
    return flat;
  }
  FieldType type_;
  int kernel_, stride_, padding_;
  std::array<std::size_t, 4> in_shape_{};
};

/// Max over the channels of each permutation field: one trivial (invariant) field per field.
template <class T>
class GroupPooling : public Module<T> {
 public:
  explicit GroupPooling(FieldType type)
      : in_(std::move(type)), out_(in_.group(), repr::trivial_representation(in_.group()), in_.n_fields()) {
    detail::require_permutation_fields("GroupPooling", in_);
  }

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override {
    require_field_type("GroupPooling::forward", in_, input.type);
    const std::size_t n = input.data.shape(0);
    const std::size_t plane = input.data.shape(2) * input.data.shape(3);
    GeometricTensor<T> output = GeometricTensor<T>::zeros(out_, n, input.data.shape(2), input.data.shape(3));
    argmax_.assign(output.data.size(), 0);
    for (std::size_t i = 0; i < n; ++i)
      for (int f = 0; f < in_.n_fields(); ++f) {
        const std::size_t d = static_cast<std::size_t>(in_.fields()[static_cast<std::size_t>(f)].size());
        const T* in = input.data.data() + (i * static_cast<std::size_t>(in_.size()) + static_cast<std::size_t>(in_.field_offset(f))) * plane;
        const std::size_t out_offset = (i * static_cast<std::size_t>(in_.n_fields()) + static_cast<std::size_t>(f)) * plane;
        for (std::size_t p = 0; p < plane; ++p) {
          std::size_t best = 0;
          for (std::size_t c = 1; c < d; ++c) {
            if (in[c * plane + p] > in[best * plane + p]) best = c;
          }
          output.data.data()[out_offset + p] = in[best * plane + p];
          argmax_[out_offset + p] = static_cast<int>(best);
        }
      }
    in_shape_ = input.data.shape();
    return output;
  }

  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override {
    require_field_type("GroupPooling::backward", out_, grad_output.type);
    if (argmax_.size() != grad_output.data.size()) {
      throw ShapeError("GroupPooling::backward", "grad_output must have the last forward output's shape",
                       grad_output.data.size());
    }
    GeometricTensor<T> grad = GeometricTensor<T>::zeros(in_, in_shape_[0], in_shape_[2], in_shape_[3]);
    const std::size_t plane = in_shape_[2] * in_shape_[3];
    for (std::size_t i = 0; i < in_shape_[0]; ++i)
      for (int f = 0; f < in_.n_fields(); ++f) {
        const std::size_t out_offset = (i * static_cast<std::size_t>(in_.n_fields()) + static_cast<std::size_t>(f)) * plane;
        T* g = grad.data.data() + (i * static_cast<std::size_t>(in_.size()) + static_cast<std::size_t>(in_.field_offset(f))) * plane;
        for (std::size_t p = 0; p < plane; ++p) {
          g[static_cast<std::size_t>(argmax_[out_offset + p]) * plane + p] += grad_output.data.data()[out_offset + p];
        }
      }
    return grad;
  }

  [[nodiscard]] const FieldType& in_type() const override { return in_; }
  [[nodiscard]] const FieldType& out_type() const override { return out_; }
  [[nodiscard]] std::string describe() const override { return "GroupPooling(" + in_.describe() + ")"; }

 private:
  FieldType in_;
  FieldType out_;
  std::vector<int> argmax_;
  std::array<std::size_t, 4> in_shape_{};
};

/// The mean over the plane of every channel: (N, C, H, W) ↦ (N, C, 1, 1).
template <class T>
class GlobalAveragePool : public Module<T> {
 public:
  explicit GlobalAveragePool(FieldType type) : type_(std::move(type)) {}

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override {
    require_field_type("GlobalAveragePool::forward", type_, input.type);
    in_shape_ = input.data.shape();
    const std::size_t plane = in_shape_[2] * in_shape_[3];
    GeometricTensor<T> output = GeometricTensor<T>::zeros(type_, in_shape_[0], 1, 1);
    for (std::size_t q = 0; q < in_shape_[0] * in_shape_[1]; ++q) {
      const T* in = input.data.data() + q * plane;
      T sum = 0;
      for (std::size_t p = 0; p < plane; ++p) sum += in[p];
      output.data.data()[q] = sum / static_cast<T>(plane);
    }
    return output;
  }

  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override {
    require_field_type("GlobalAveragePool::backward", type_, grad_output.type);
    GeometricTensor<T> grad = GeometricTensor<T>::zeros(type_, in_shape_[0], in_shape_[2], in_shape_[3]);
    const std::size_t plane = in_shape_[2] * in_shape_[3];
    for (std::size_t q = 0; q < in_shape_[0] * in_shape_[1]; ++q) {
      const T g = grad_output.data.data()[q] / static_cast<T>(plane);
      std::fill(grad.data.data() + q * plane, grad.data.data() + (q + 1) * plane, g);
    }
    return grad;
  }

  [[nodiscard]] const FieldType& in_type() const override { return type_; }
  [[nodiscard]] const FieldType& out_type() const override { return type_; }
  [[nodiscard]] std::string describe() const override { return "GlobalAveragePool(" + type_.describe() + ")"; }

 private:
  FieldType type_;
  std::array<std::size_t, 4> in_shape_{};
};

}  // namespace gyre::nn
