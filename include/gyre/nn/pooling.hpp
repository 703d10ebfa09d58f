#pragma once
// Spatial and group pooling (escnn's PointwiseMaxPool, NormMaxPool, PointwiseAvgPool, GroupPooling)
// and a global average over the plane.
//   PointwiseMaxPool  max per channel over k×k windows (zero padding never wins: padded positions are
//                     skipped, as torch): equivariant for permutation fields only.
//   NormMaxPool       per field, the field at the window position of largest ‖f‖ (any field); ties go
//                     to the first position in row-major order.
//   PointwiseAvgPool  mean per channel (zero padding counted, torch's count_include_pad): a linear
//                     map on the plane applied to every channel, so it commutes with any ρ.
//   GroupPooling      max over each permutation field's channels: one trivial (invariant) field each.
//   GlobalAveragePool mean over the plane: (N, C, H, W) ↦ (N, C, 1, 1), same field type (a mean over
//                     the plane is invariant under rotating the plane and commutes with ρ on channels).
// Windows are exact grid symmetries only when they tile the map symmetrically (odd sizes, or
// stride = kernel dividing the size): check::check_equivariance shows what a given choice does.
// A stride of −1 means stride = kernel. backward() always differentiates the most recent forward().

#include <array>
#include <string>
#include <vector>

#include "gyre/nn/module.hpp"

namespace gyre::nn {

namespace detail {

/// Throws DomainError "gyre::<where>: needs permutation fields (…) (<name>)" at the first field that
/// is not a permutation representation.
void require_permutation_fields(const std::string& where, const FieldType& type);

/// What a pooling layer's backward needs from one forward call.
struct PoolCall {
  std::vector<int> argmax;  // the winning input position per output value (max pools)
  std::array<std::size_t, 4> in_shape{};
  std::array<std::size_t, 4> out_shape{};
};

}  // namespace detail

/// Max over k×k windows, channel by channel; permutation fields only.
template <class T>
class PointwiseMaxPool : public Module<T> {
 public:
  /// Throws DomainError for non-permutation fields, kernel < 1, stride < 1 or padding ∉ [0, kernel/2].
  PointwiseMaxPool(FieldType type, int kernel, int stride = -1, int padding = 0);

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override;
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override;
  [[nodiscard]] const TensorType& in_type() const override { return type_tensor_; }
  [[nodiscard]] const TensorType& out_type() const override { return type_tensor_; }
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::size_t pending_calls() const override { return calls_.size(); }
  void discard_saved() override { calls_.clear(); }

 private:
  FieldType type_;
  TensorType type_tensor_{type_};
  SavedCalls<detail::PoolCall> calls_;
  int kernel_, stride_, padding_;
};

/// Per field, the field's value at the window position where its norm is largest.
template <class T>
class NormMaxPool : public Module<T> {
 public:
  /// Any fields; throws DomainError for kernel < 1 or stride < 1.
  NormMaxPool(FieldType type, int kernel, int stride = -1);

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override;
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override;
  [[nodiscard]] const TensorType& in_type() const override { return type_tensor_; }
  [[nodiscard]] const TensorType& out_type() const override { return type_tensor_; }
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::size_t pending_calls() const override { return calls_.size(); }
  void discard_saved() override { calls_.clear(); }

 private:
  FieldType type_;
  TensorType type_tensor_{type_};
  SavedCalls<detail::PoolCall> calls_;
  int kernel_, stride_;
};

/// Mean over k×k windows per channel (zero padding counted in the mean, as torch's default).
template <class T>
class PointwiseAvgPool : public Module<T> {
 public:
  /// Any fields; throws DomainError for kernel < 1, stride < 1 or padding ∉ [0, kernel/2].
  PointwiseAvgPool(FieldType type, int kernel, int stride = -1, int padding = 0);

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override;
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override;
  [[nodiscard]] const TensorType& in_type() const override { return type_tensor_; }
  [[nodiscard]] const TensorType& out_type() const override { return type_tensor_; }
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::size_t pending_calls() const override { return calls_.size(); }
  void discard_saved() override { calls_.clear(); }

 private:
  FieldType type_;
  TensorType type_tensor_{type_};
  SavedCalls<detail::PoolCall> calls_;
  int kernel_, stride_, padding_;
};

/// Max over the channels of each permutation field: one trivial (invariant) field per field.
template <class T>
class GroupPooling : public Module<T> {
 public:
  /// Throws DomainError for non-permutation fields.
  explicit GroupPooling(FieldType type);

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override;
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override;
  [[nodiscard]] const TensorType& in_type() const override { return in_tensor_; }
  [[nodiscard]] const TensorType& out_type() const override { return out_tensor_; }
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::size_t pending_calls() const override { return calls_.size(); }
  void discard_saved() override { calls_.clear(); }

 private:
  FieldType in_;
  FieldType out_;
  TensorType in_tensor_{in_}, out_tensor_{out_};
  SavedCalls<detail::PoolCall> calls_;
};

/// The mean over the plane of every channel: (N, C, H, W) ↦ (N, C, 1, 1).
template <class T>
class GlobalAveragePool : public Module<T> {
 public:
  explicit GlobalAveragePool(FieldType type) : type_(std::move(type)) {}

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override;
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override;
  [[nodiscard]] const TensorType& in_type() const override { return type_tensor_; }
  [[nodiscard]] const TensorType& out_type() const override { return type_tensor_; }
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::size_t pending_calls() const override { return calls_.size(); }
  void discard_saved() override { calls_.clear(); }

 private:
  FieldType type_;
  TensorType type_tensor_{type_};
  SavedCalls<detail::PoolCall> calls_;
};

extern template class PointwiseMaxPool<float>;
extern template class PointwiseMaxPool<double>;
extern template class NormMaxPool<float>;
extern template class NormMaxPool<double>;
extern template class PointwiseAvgPool<float>;
extern template class PointwiseAvgPool<double>;
extern template class GroupPooling<float>;
extern template class GroupPooling<double>;
extern template class GlobalAveragePool<float>;
extern template class GlobalAveragePool<double>;

}  // namespace gyre::nn
