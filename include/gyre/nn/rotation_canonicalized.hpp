#pragma once
// A backbone made invariant to rotations of its input images by orbit canonicalization
// (rotation_canonicalization.hpp; Nguyen et al., NeurReps 2023):
//   Φ(x) = φ(g_θ*(x)⁻¹·x),   θ*(g_α·x) = θ*(x) + α,
// so Φ(g·x) = Φ(x) exactly for quarter turns and up to bilinear resampling and the optimizer's
// tolerance otherwise. The input is C trivial fields of SO(2) on a grid; the backbone takes C
// channels on the same grid (of any group's trivial fields: a plain CNN) and may output anything.
// Where it outputs grid maps of trivial fields (a CNN ending in a global average) the wrapper
// declares them SO(2)-invariant fields, so the equivariance checker tests rotations of the input
// against them; other outputs keep the backbone's type.
//
// backward() returns ∂L/∂x through the resampling at fixed θ* (transform_adjoint) and through θ*
// itself (canonical_rotation_gradient, by implicit differentiation of E'(θ*; x) = 0). Items whose θ*
// is ambiguous keep θ* fixed in backward, as canonical_rotation_gradient documents.

#include <memory>
#include <string>
#include <vector>

#include "gyre/nn/backbone_wrapper.hpp"
#include "gyre/nn/rotation_canonicalization.hpp"

namespace gyre::nn {

namespace detail {

/// What RotationCanonicalized saves per forward.
template <class T>
struct RotationCanonicalizedCall {
  xt::xarray<T> input;  // (B, C, H, W)
  std::vector<CanonicalRotation> rotations;
};

}  // namespace detail

template <class T>
class RotationCanonicalized : public BackboneWrapper<T, detail::RotationCanonicalizedCall<T>> {
 public:
  /// Throws ShapeError unless the backbone takes grid maps of trivial fields; the input type is then
  /// SO(2) (max frequency = the template's) × those C channels.
  explicit RotationCanonicalized(std::shared_ptr<Module<T>> backbone, RotationTemplate shape = {},
                                 CanonicalizationOptions options = {});

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override;
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override;
  [[nodiscard]] const TensorType& in_type() const override { return in_type_; }
  [[nodiscard]] const TensorType& out_type() const override { return out_type_; }
  [[nodiscard]] std::string describe() const override;

  /// θ* of each item of the most recent forward(), for inspection and plots.
  [[nodiscard]] const std::vector<CanonicalRotation>& last_rotations() const noexcept { return last_rotations_; }

 private:
  RotationTemplate shape_;
  CanonicalizationOptions options_;
  TensorType in_type_, out_type_;
  std::vector<CanonicalRotation> last_rotations_;
};

}  // namespace gyre::nn
