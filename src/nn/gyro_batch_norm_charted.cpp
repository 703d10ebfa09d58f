// GyroBN on the spaces whose gyro structure is carried through a chart onto balls: the hyperboloid
// (the Poincaré ball's, by the isometry) and the correlation manifold (the poly-Poincaré balls of its
// Cholesky rows); and the transport-based Riemannian BN on the correlation manifold.
#include "gyre/nn/manifold_batch_norm.hpp"
#include "gyre/nn/manifold_batch_norm_impl.hpp"

namespace gyre::nn {

template class ManifoldBatchNorm<GyroCentring<Hyperboloid<float>>>;
template class ManifoldBatchNorm<GyroCentring<Hyperboloid<double>>>;
template class ManifoldBatchNorm<GyroCentring<Correlation<float>>>;
template class ManifoldBatchNorm<GyroCentring<Correlation<double>>>;
template class ManifoldBatchNorm<TransportCentring<Correlation<float>>>;
template class ManifoldBatchNorm<TransportCentring<Correlation<double>>>;

}  // namespace gyre::nn
