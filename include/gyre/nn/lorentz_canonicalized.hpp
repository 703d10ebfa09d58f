#pragma once
// A backbone made invariant to the Lorentz group SO⁺(1,3) by orbit canonicalization
// (lorentz_canonicalization.hpp; Nguyen et al., NeurReps 2023): each set of n four-momenta P is
// moved to its canonical form Q = Λ*(P)⁻¹·P and the backbone runs on Q, so Φ(M·P) = Φ(P) for every
// M ∈ SO⁺(1,3), to the optimizer's tolerance.
//
// Type: none × ℝ^(n×4)[1], data (B, 1, n, 4), rows (E, pₓ, p_y, p_z); the backbone takes the same
// type and may output anything (invariant outputs: jet tagging, invariant masses). backward()
// returns ∂L/∂P through the transformation and through Λ*(P) by implicit differentiation
// (canonicalize_lorentz_backward).

#include <memory>
#include <string>
#include <vector>

#include "gyre/nn/backbone_wrapper.hpp"
#include "gyre/nn/lorentz_canonicalization.hpp"

namespace gyre::nn {

/// The type of sets of n four-momenta: none × ℝ^(n×4)[1].
[[nodiscard]] TensorType momenta_type(int n);

namespace detail {

/// What LorentzCanonicalized saves per forward.
struct LorentzCanonicalizedCall {
  std::vector<Matrix<double>> momenta;  // n × 4 per item
  std::vector<LorentzCanonicalFrame> frames;
};

}  // namespace detail

template <class T>
class LorentzCanonicalized : public BackboneWrapper<T, detail::LorentzCanonicalizedCall> {
 public:
  /// Throws ShapeError unless the backbone takes momenta_type(n) for some n ≥ 2.
  explicit LorentzCanonicalized(std::shared_ptr<Module<T>> backbone, LorentzCanonicalizationOptions options = {});

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override;
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override;
  [[nodiscard]] const TensorType& in_type() const override { return this->backbone_->in_type(); }
  [[nodiscard]] const TensorType& out_type() const override { return this->backbone_->out_type(); }
  [[nodiscard]] std::string describe() const override;

  /// Λ* of each item of the most recent forward().
  [[nodiscard]] const std::vector<LorentzCanonicalFrame>& last_frames() const noexcept { return last_frames_; }

 private:
  LorentzCanonicalizationOptions options_;
  int particles_ = 0;
  std::vector<LorentzCanonicalFrame> last_frames_;
};

}  // namespace gyre::nn
