#pragma once
// The orthogonal group O(n): rotations and reflections of ℝⁿ, two components (det ±1), with the
// bi-invariant metric ½·tr(UᵀV). Conventions, formulas and the behaviour between components:
// so/orthogonal_group.hpp (shared with SO(n)).

#include "../so/orthogonal_group.hpp"

namespace gyre {

/// O(n), n ≥ 2 chosen at run time; points are n×n orthogonal matrices.
template <class T>
using O = OrthogonalGroup<T, false>;

static_assert(is_lie_group_v<O<float>> && is_lie_group_v<O<double>>);

}  // namespace gyre
