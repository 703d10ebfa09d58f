// LieBN on SPD under the log-Euclidean and log-Cholesky structures (one file per family: these instantiations are among the slowest to compile, and separate files build in parallel).
#include "gyre/nn/lie_batch_norm.hpp"
#include "gyre/nn/lie_batch_norm_impl.hpp"

namespace gyre::nn {

template class LieBatchNorm<SpdLogEuclideanNormalization<float>>;
template class LieBatchNorm<SpdLogEuclideanNormalization<double>>;
template class LieBatchNorm<SpdLogCholeskyNormalization<float>>;
template class LieBatchNorm<SpdLogCholeskyNormalization<double>>;

}  // namespace gyre::nn
