#pragma once
// Frame averaging (Puny et al., ICLR 2022): any backbone φ becomes exactly invariant or equivariant
// to O(d), SO(d), E(d) or SE(d) acting on point clouds, by averaging over the frame F(X)
// (point_frames.hpp):
//   invariant    Φ(X) = (1/|F|)·Σ_{g ∈ F(X)} φ(g⁻¹·X)
//   equivariant  Φ(X) = (1/|F|)·Σ_{g ∈ F(X)} g·φ(g⁻¹·X)
// Input: none × ℝ^(P×d)[C], data (B, C, P, d): channel 0 holds the P points (moved by R and t),
// channels 1… hold per-point vectors such as velocities (moved by R only). The frame of each item is
// built from channel 0. The backbone takes the same type and is run once per frame element — all
// elements of the batch in one forward call of B' = Σ|F| items — so a module with saved state works
// unchanged. Outputs: kInvariant (any backbone output, averaged), kVectors (the backbone's trailing
// axis is d and every d-vector is rotated back by R), kPositions (as kVectors, and channel 0 is also
// translated back by t).
//
// backward() returns ∂L/∂X through the backbone, the canonicalisation and the frame itself: the
// eigenvectors' derivative (Daleckii–Krein, ∂uᵢ = Σⱼ uⱼ·uⱼᵀ∂Σuᵢ/(λᵢ − λⱼ)) where the spectrum is
// simple. Where it is degenerate the frame is chosen by points (point_frames.hpp) and is held
// fixed in backward, as the reference holds every frame fixed (F_ops.detach()).

#include <memory>
#include <string>
#include <vector>

#include "gyre/nn/backbone_wrapper.hpp"
#include "gyre/nn/point_frames.hpp"

namespace gyre::nn {

/// How the backbone's output is averaged over the frame (see the header comment).
enum class FrameOutput { kInvariant, kVectors, kPositions };

/// The type of C channels of P points in ℝᵈ: none × ℝ^(P×d)[C].
[[nodiscard]] TensorType point_cloud_type(int channels, int points, int dimension);

namespace detail {

/// What FrameAveraging saves per forward.
template <class T>
struct FrameAveragingCall {
  xt::xarray<T> input;   // (B, C, P, d)
  xt::xarray<T> output;  // the backbone's outputs (B', …)
  std::vector<PointFrame> frames;
};

}  // namespace detail

/// A backbone made invariant or equivariant to a group of isometries by frame averaging.
template <class T>
class FrameAveraging : public BackboneWrapper<T, detail::FrameAveragingCall<T>> {
 public:
  /// Throws ShapeError unless the backbone's input type is point_cloud_type(C, P, d) with d = 2 or 3,
  /// and, for kVectors / kPositions, its output is Euclidean with trailing axis d.
  FrameAveraging(std::shared_ptr<Module<T>> backbone, FrameGroup group, FrameOutput output);

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override;
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override;
  [[nodiscard]] const TensorType& in_type() const override { return this->backbone_->in_type(); }
  [[nodiscard]] const TensorType& out_type() const override { return this->backbone_->out_type(); }
  [[nodiscard]] std::string describe() const override;

  /// The frames of the most recent forward() (one per item), for inspection and plots.
  [[nodiscard]] const std::vector<PointFrame>& last_frames() const noexcept { return last_frames_; }

 private:
  FrameGroup group_;
  FrameOutput output_;
  int channels_, points_, dimension_;
  std::vector<PointFrame> last_frames_;
};

}  // namespace gyre::nn
