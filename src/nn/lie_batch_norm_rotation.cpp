// LieBN on SO(n) (its own file: see lie_batch_norm_spd.cpp).
#include "gyre/nn/lie_batch_norm.hpp"
#include "gyre/nn/lie_batch_norm_impl.hpp"

namespace gyre::nn {

template class LieBatchNorm<SoNormalization<float>>;
template class LieBatchNorm<SoNormalization<double>>;

}  // namespace gyre::nn
