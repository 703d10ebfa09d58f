#pragma once
// Frames for frame averaging on point clouds (Puny et al., "Frame Averaging for Invariant and
// Equivariant Network Design", ICLR 2022, §3.1): a small set F(X) ⊂ G with F(g·X) = g·F(X), so
// that averaging any function over F(X) makes it exactly invariant or equivariant.
//
// A cloud is P points in ℝᵈ (d = 2 or 3) as the rows of a P × d matrix. g = (R, t) acts on points by
// x ↦ R·x + t and on vectors by v ↦ R·v. Groups: O(d), SO(d) (t = 0) and E(d), SE(d).
//   Centre  t = the centroid for E(d)/SE(d), 0 for O(d)/SO(d).
//   Scatter Σ = Σᵢ (xᵢ − t)(xᵢ − t)ᵀ, unnormalised; eigenvalues in decreasing order, eigenvectors uᵢ.
//   Frame   R = [±u₁, …, ±u_d]: all 2ᵈ sign choices (O, E), or the 2ᵈ⁻¹ with det R = +1 (SO, SE).
// The canonical clouds are g⁻¹·X, rows (xᵢ − t)ᵀ·R.
//
// Degenerate spectra. Where eigenvalues tie (|λᵢ − λⱼ| ≤ 1e-8·λ₁: regular polygons, cubes, a sphere
// of points) the eigenvectors of the tied block are not determined by X, and the reference code's
// frame — whatever the eigensolver returns — loses invariance (errors up to 1.0). Gyre's rule, which
// keeps F(g·X) = g·F(X) exactly: inside a tied eigenspace E (dimension m ≥ 2), project the centred
// points onto E; every point whose projection has the largest norm (ties within 1e-9 relative) gives
// a first axis a₁ = its unit projection; for m = 3, every point whose projection orthogonal to a₁
// is largest gives a₂ the same way; the last axis of E completes an orthonormal basis, with both
// signs (O, E) or the sign that makes det R = +1 (SO, SE). The points of largest projection are
// permuted by any symmetry of X, so the set of frames is carried along: a regular n-gon gets the 2n
// elements of its own dihedral symmetry, and the invariance error stays at rounding (see the tests).
// When the projections all vanish (the tied block is the null space of Σ, e.g. points on a line in
// ℝ³), every basis of E gives the same canonical cloud, so the eigensolver's basis is kept: invariant
// outputs are exact; equivariant outputs with components in that null space are not determined.

#include <vector>

#include "gyre/core/types.hpp"

namespace gyre::nn {

/// The group a frame is built for.
enum class FrameGroup { kO, kSO, kE, kSE };

/// One cloud's frame: the elements (R, t) with t shared, and what they were built from.
struct PointFrame {
  /// t: the centroid (E, SE) or 0 (O, SO), as a d-vector.
  Vector<double> centre;
  /// The rotations R of the frame's elements (d × d, orthogonal), in a deterministic order.
  std::vector<Matrix<double>> rotations;
  /// The eigenvalues of Σ/s² in decreasing order, s = the largest |centred coordinate| (scale-free, so
  /// clouds at 1e±300 have a frame), and the eigenvectors the frame was built on (columns).
  Vector<double> eigenvalues;
  Matrix<double> eigenvectors;
  /// Whether some eigenvalues tied and the rule above chose the axes of their eigenspace.
  bool degenerate = false;
};

/// "O", "SO", "E", "SE".
[[nodiscard]] const char* frame_group_name(FrameGroup group) noexcept;

/// The frame of `points` (P × d, d = 2 or 3, P ≥ 1) for `group`. Throws ShapeError for other d or
/// P = 0, DomainError for a non-finite coordinate.
[[nodiscard]] PointFrame point_frame(FrameGroup group, const Matrix<double>& points);

}  // namespace gyre::nn
