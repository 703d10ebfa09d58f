#include "gyre/geometry/common_batch_spaces.hpp"

namespace gyre {

template class BatchSpaceOf<SpdAffineInvariant<float>>;
template class BatchSpaceOf<SpdAffineInvariant<double>>;
template class BatchSpaceOf<Grassmann<float>>;
template class BatchSpaceOf<Grassmann<double>>;
template class BatchSpaceOf<Stiefel<float>>;
template class BatchSpaceOf<Stiefel<double>>;

}  // namespace gyre
