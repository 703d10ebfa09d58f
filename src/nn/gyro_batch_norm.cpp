// GyroBN: ManifoldBatchNorm with gyro-centring, on every gyrogroup it is instantiated for.
#include "gyre/nn/manifold_batch_norm.hpp"
#include "gyre/nn/manifold_batch_norm_impl.hpp"

namespace gyre::nn {

template class ManifoldBatchNorm<GyroCentring<Grassmann<float>>>;
template class ManifoldBatchNorm<GyroCentring<Grassmann<double>>>;
template class ManifoldBatchNorm<GyroCentring<Stereographic<float>>>;
template class ManifoldBatchNorm<GyroCentring<Stereographic<double>>>;
template class ManifoldBatchNorm<GyroCentring<SpdAffineInvariant<float>>>;
template class ManifoldBatchNorm<GyroCentring<SpdAffineInvariant<double>>>;
template class ManifoldBatchNorm<GyroCentring<SpdLogEuclidean<float>>>;
template class ManifoldBatchNorm<GyroCentring<SpdLogEuclidean<double>>>;
template class ManifoldBatchNorm<GyroCentring<SpdLogCholesky<float>>>;
template class ManifoldBatchNorm<GyroCentring<SpdLogCholesky<double>>>;

}  // namespace gyre::nn
