#pragma once
// R2Conv: the G-steerable convolution between two field types (escnn's R2Conv). The filter is a
// learnable combination of the steerable basis (FieldKernelBasis), expanded at every training step
// and once in evaluation mode; the convolution itself is conv2d (torch's cross-correlation).
// EquivariantLinear is the 1×1 case: a linear map between fields that commutes with the group.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gyre/nn/conv2d.hpp"
#include "gyre/nn/field_kernel_basis.hpp"
#include "gyre/nn/module.hpp"

namespace gyre::nn {

/// Options of R2Conv beyond the field types and the kernel size.
struct R2ConvOptions {
  int stride = 1;
  int padding = 0;
  int dilation = 1;
  /// A learnable bias on the trivial irreps of the output fields (none if they have none).
  bool bias = true;
  /// escnn's defaults for the kernel size when empty.
  std::optional<BasisParams> basis;
  /// Seed of the weight initialisation.
  std::uint64_t seed = 0;
};

/// A G-steerable convolution from `in` fields to `out` fields with a k×k filter.
template <class T>
class R2Conv : public Module<T> {
 public:
  /// Weights ~ N(0, 2·C_out/dim) (He's initialisation spread over the unit-norm basis elements).
  R2Conv(FieldType in, FieldType out, int kernel_size, R2ConvOptions options = {});

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override;
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override;
  std::vector<Parameter<T>*> parameters() override;
  [[nodiscard]] const TensorType& in_type() const override { return in_type_; }
  [[nodiscard]] const TensorType& out_type() const override { return out_type_; }
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::size_t pending_calls() const override { return inputs_.size(); }
  void discard_saved() override { inputs_.clear(); }
  void train(bool on = true) override;

  /// The expanded filter (C_out, C_in, k, k) for the current weights.
  [[nodiscard]] const xt::xtensor<T, 4>& filter();
  /// The expanded bias (C_out), zeros without a bias.
  [[nodiscard]] const std::vector<T>& expanded_bias();
  [[nodiscard]] const FieldKernelBasis& basis() const noexcept { return *basis_; }
  [[nodiscard]] const Conv2dGeometry& geometry() const noexcept { return geometry_; }

 private:
  void expand();

  FieldType in_;
  FieldType out_;
  TensorType in_type_, out_type_;
  int kernel_size_;
  Conv2dGeometry geometry_;
  std::shared_ptr<const FieldKernelBasis> basis_;
  Parameter<T> weight_;
  std::optional<Parameter<T>> bias_;
  xt::xtensor<T, 4> filter_;
  std::vector<T> full_bias_;
  bool expanded_ = false;
  SavedCalls<xt::xtensor<T, 4>> inputs_;
};

/// A G-equivariant linear map between fields at every pixel: R2Conv with a 1×1 filter.
template <class T>
class EquivariantLinear : public R2Conv<T> {
 public:
  EquivariantLinear(FieldType in, FieldType out, bool bias = true, std::uint64_t seed = 0);
  [[nodiscard]] std::string describe() const override;
};

extern template class R2Conv<float>;
extern template class R2Conv<double>;
extern template class EquivariantLinear<float>;
extern template class EquivariantLinear<double>;

}  // namespace gyre::nn
