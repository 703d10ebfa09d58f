// Riemannian BN: ManifoldBatchNorm with centring by parallel transport.
#include "gyre/nn/manifold_batch_norm.hpp"
#include "gyre/nn/manifold_batch_norm_impl.hpp"

namespace gyre::nn {

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
