#pragma once
// The batch spaces of the geometries the network layers hold (SPD features and weights, Grassmann
// features, Stiefel weights), instantiated once in the library (src/geometry/common_batch_spaces.cpp)
// instead of in every layer's translation unit: each BatchSpaceOf<M> compiles every operation of M
// for whole arrays, about a minute of compile time per type and file.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include "gyre/geometries/grassmann/grassmann.hpp"
#include "gyre/geometries/spd/affine_invariant.hpp"
#include "gyre/geometries/stiefel/stiefel.hpp"
#include "gyre/geometry/batch_space.hpp"

namespace gyre {

extern template class BatchSpaceOf<SpdAffineInvariant<float>>;
extern template class BatchSpaceOf<SpdAffineInvariant<double>>;
extern template class BatchSpaceOf<Grassmann<float>>;
extern template class BatchSpaceOf<Grassmann<double>>;
extern template class BatchSpaceOf<Stiefel<float>>;
extern template class BatchSpaceOf<Stiefel<double>>;

}  // namespace gyre
