#pragma once
// The manifold fibers SPD and Grassmann networks pass between their layers, named once so that
// every layer builds the same type: SPD(n) under the affine-invariant metric (where SPDNet's
// BiMap, ReEig and LogEig live) and Gr(n, p) as orthonormal n×p bases (GrNet's representation).

#include "gyre/nn/tensor_type.hpp"

namespace gyre::nn {

/// none × SPD(n)[channels]: data (B, channels, n, n).
[[nodiscard]] TensorType spd_features(int n, int channels);
/// none × Gr(n, p)[channels]: data (B, channels, n, p), orthonormal columns; ShapeError unless 1 ≤ p < n.
[[nodiscard]] TensorType grassmann_features(int n, int p, int channels);
/// none × SO(n)[channels]: data (B, channels, n, n), rotation matrices (ShapeError unless n ≥ 2).
[[nodiscard]] TensorType rotation_features(int n, int channels);
/// none × ℝ^(rows×cols)[channels]: data (B, channels, rows, cols), plain matrices.
[[nodiscard]] TensorType matrix_features(int rows, int cols, int channels);

}  // namespace gyre::nn
