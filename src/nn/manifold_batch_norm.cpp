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
template class ManifoldBatchNorm<TransportCentring<Grassmann<float>>>;
template class ManifoldBatchNorm<TransportCentring<Grassmann<double>>>;
template class ManifoldBatchNorm<TransportCentring<Stereographic<float>>>;
template class ManifoldBatchNorm<TransportCentring<Stereographic<double>>>;
template class ManifoldBatchNorm<TransportCentring<Hyperboloid<float>>>;
template class ManifoldBatchNorm<TransportCentring<Hyperboloid<double>>>;
template class ManifoldBatchNorm<TransportCentring<SpdAffineInvariant<float>>>;
template class ManifoldBatchNorm<TransportCentring<SpdAffineInvariant<double>>>;
template class ManifoldBatchNorm<TransportCentring<SpdBuresWasserstein<float>>>;
template class ManifoldBatchNorm<TransportCentring<SpdBuresWasserstein<double>>>;

}  // namespace gyre::nn
