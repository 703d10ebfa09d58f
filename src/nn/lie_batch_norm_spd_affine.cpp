// LieBN on SPD under the affine-invariant structure (its own file: see lie_batch_norm_spd.cpp).
#include "gyre/nn/lie_batch_norm.hpp"
#include "gyre/nn/lie_batch_norm_impl.hpp"

namespace gyre::nn {

template class LieBatchNorm<SpdAffineInvariantNormalization<float>>;
template class LieBatchNorm<SpdAffineInvariantNormalization<double>>;

}  // namespace gyre::nn
