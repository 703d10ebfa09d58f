#include "gyre/nn/gyro_batch_norm.hpp"

#include "gyre/nn/gyro_batch_norm_impl.hpp"

namespace gyre::nn {

template class GyroBatchNorm<Grassmann<float>>;
template class GyroBatchNorm<Grassmann<double>>;
template class GyroBatchNorm<Stereographic<float>>;
template class GyroBatchNorm<Stereographic<double>>;
template class GyroBatchNorm<SpdAffineInvariant<float>>;
template class GyroBatchNorm<SpdAffineInvariant<double>>;
template class GyroBatchNorm<SpdLogEuclidean<float>>;
template class GyroBatchNorm<SpdLogEuclidean<double>>;
template class GyroBatchNorm<SpdLogCholesky<float>>;
template class GyroBatchNorm<SpdLogCholesky<double>>;

}  // namespace gyre::nn
