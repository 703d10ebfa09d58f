#include "gyre/nn/lie_batch_norm.hpp"

#include "gyre/nn/lie_batch_norm_impl.hpp"

namespace gyre::nn {

template class LieBatchNorm<SpdLogEuclideanNormalization<float>>;
template class LieBatchNorm<SpdLogEuclideanNormalization<double>>;
template class LieBatchNorm<SpdLogCholeskyNormalization<float>>;
template class LieBatchNorm<SpdLogCholeskyNormalization<double>>;
template class LieBatchNorm<SpdAffineInvariantNormalization<float>>;
template class LieBatchNorm<SpdAffineInvariantNormalization<double>>;
template class LieBatchNorm<SoNormalization<float>>;
template class LieBatchNorm<SoNormalization<double>>;

}  // namespace gyre::nn
