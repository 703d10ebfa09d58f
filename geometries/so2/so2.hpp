#pragma once
// The rotation group SO(2) in closed form, 2×2 matrices. Conventions: planar_orthogonal.hpp.

#include "planar_orthogonal.hpp"

namespace gyre {

/// SO(2): planar rotations with the metric ½·tr(UᵀV) (dist = |angle|).
template <class T>
using SO2 = PlanarOrthogonal<T, true>;

static_assert(is_lie_group_v<SO2<float>> && is_lie_group_v<SO2<double>>);

}  // namespace gyre
