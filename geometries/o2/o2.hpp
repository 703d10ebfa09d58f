#pragma once
// The orthogonal group O(2) (rotations and reflections) in closed form. Conventions:
// so2/planar_orthogonal.hpp.

#include "../so2/planar_orthogonal.hpp"

namespace gyre {

/// O(2): two components, R(θ) and R(θ)·F with F = diag(−1, 1).
template <class T>
using O2 = PlanarOrthogonal<T, false>;

static_assert(is_lie_group_v<O2<float>> && is_lie_group_v<O2<double>>);

}  // namespace gyre
