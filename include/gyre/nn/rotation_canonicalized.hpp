#pragma once
// A backbone made invariant to rotations of its input images by orbit canonicalization
// (rotation_canonicalization.hpp; Nguyen et al., NeurReps 2023):
//   Φ(x) = φ(g_θ*(x)⁻¹·x),   θ*(g_α·x) = θ*(x) + α,
// so Φ(g·x) = Φ(x) exactly for quarter turns and up to bilinear resampling and the optimizer's
// tolerance otherwise. The input is C trivial fields of SO(2) on a grid; the backbone takes C
// channels on the same grid (of any group's trivial fields: a plain CNN) and may output anything.
//
// backward() returns ∂L/∂x through the resampling at fixed θ* (transform_adjoint) and through θ*
// itself (canonical_rotation_gradient, by implicit differentiation of E'(θ*; x) = 0). Items whose θ*
// is ambiguous keep θ* fixed in backward, as canonical_rotation_gradient documents.

#include <memory>
#include <string>
#include <vector>

#include "gyre/nn/module.hpp"
#include "gyre/nn/rotation_canonicalization.hpp"

namespace gyre::nn {

template <class T>
class RotationCanonicalized : public Module<T> {
 public:
  /// Throws ShapeError unless the backbone takes grid maps of trivial fields; the input type is then
  /// SO(2) (max frequency = the template's) × those C channels.
  explicit RotationCanonicalized(std::shared_ptr<Module<T>> backbone, RotationTemplate shape = {},
                                 CanonicalizationOptions options = {});

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override;
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override;
  std::vector<Parameter<T>*> parameters() override { return backbone_->parameters(); }
  void train(bool on = true) override;
  [[nodiscard]] const TensorType& in_type() const override { return in_type_; }
  [[nodiscard]] const TensorType& out_type() const override { return backbone_->out_type(); }
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::size_t pending_calls() const override { return calls_.size(); }
  void discard_saved() override;

  /// θ* of each item of the most recent forward(), for inspection and plots.
  [[nodiscard]] const std::vector<CanonicalRotation>& last_rotations() const noexcept { return last_rotations_; }

 private:
  struct Call {
    xt::xarray<T> input;  // (B, C, H, W)
    std::vector<CanonicalRotation> rotations;
  };
  std::shared_ptr<Module<T>> backbone_;
  RotationTemplate shape_;
  CanonicalizationOptions options_;
  TensorType in_type_;
  SavedCalls<Call> calls_;
  std::vector<CanonicalRotation> last_rotations_;
};

}  // namespace gyre::nn
