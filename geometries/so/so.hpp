#pragma once
// The special orthogonal group SO(n): rotations of ℝⁿ with the bi-invariant metric ½·tr(UᵀV).
// Conventions, formulas and cut-locus behaviour: orthogonal_group.hpp (shared with O(n)).

#include "orthogonal_group.hpp"

namespace gyre {

/// SO(n), n ≥ 2 chosen at run time; points are n×n rotation matrices.
template <class T>
using SO = OrthogonalGroup<T, true>;

static_assert(is_lie_group_v<SO<float>> && is_lie_group_v<SO<double>>);

}  // namespace gyre
