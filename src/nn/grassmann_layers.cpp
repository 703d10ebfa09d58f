#include "gyre/nn/grassmann_layers.hpp"

#include <Eigen/Core>

#include "gyre/core/error.hpp"
#include "gyre/core/parallel.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/geometry/common_batch_spaces.hpp"
#include "gyre/nn/manifold_fibers.hpp"
#include "row_major_maps.hpp"
#include "stiefel/stiefel.hpp"

namespace gyre::nn {

// Items are a few dozen rows at most: lazyProduct (coefficient-wise loops) skips the packing and
// zero-filling of Eigen's blocked GEMM, which cost more than the arithmetic here.

namespace {

using detail::ConstMap;
using detail::MutableMap;
using detail::RowMatrix;

std::string sizes_text(int n, int m, int p) {
  return "n = " + std::to_string(n) + ", m = " + std::to_string(m) + ", p = " + std::to_string(p);
}

/// (B, C, r, c) as (B·C, r, c) and back: the QR kernel takes one batch axis.
template <class T>
xt::xarray<T> reshaped(xt::xarray<T> data, std::vector<std::size_t> shape) {
  data.reshape(shape);
  return data;
}

template <class T>
Parameter<T> orthonormal_rows(int n, int m, int p, int in_channels, int filters, std::uint64_t seed) {
  if (!(p >= 1 && p <= m && m <= n)) throw ShapeError("FRMap", "needs 1 <= p <= m <= n", sizes_text(n, m, p));
  if (!(in_channels >= 1 && filters >= 1)) {
    throw ShapeError("FRMap", "channel and filter counts must be >= 1",
                     std::to_string(in_channels) + ", " + std::to_string(filters));
  }
  const Stiefel<T> stiefel(n, m);
  Rng rng(seed);
  const auto nu = static_cast<std::size_t>(n);
  const auto mu = static_cast<std::size_t>(m);
  xt::xarray<T> w = xt::zeros<T>({static_cast<std::size_t>(in_channels), static_cast<std::size_t>(filters), mu, nu});
  for (std::size_t k = 0; k < static_cast<std::size_t>(in_channels * filters); ++k) {
    MutableMap<T>(w.data() + k * mu * nu, m, n) = stiefel.random_point(rng).transpose();
  }
  return Parameter<T>("FRMap.weight", std::move(w));
}

}  // namespace

// ── FRMap ─────────────────────────────────────────────────────────────────────────────────

template <class T>
FRMap<T>::FRMap(int n, int m, int p, int in_channels, int filters, std::uint64_t seed)
    : n_(n),
      m_(m),
      p_(p),
      filters_(filters),
      in_type_(grassmann_features(n, p, in_channels)),
      out_type_(matrix_features(m, p, in_channels * filters)),
      weight_(orthonormal_rows<T>(n, m, p, in_channels, filters, seed)) {}

template <class T>
GeometricTensor<T> FRMap<T>::forward(const GeometricTensor<T>& input) {
  require_type("FRMap::forward", in_type_, input.type);
  const std::size_t batch = input.batch();
  const auto c = static_cast<std::size_t>(in_type_.channels());
  const auto k = static_cast<std::size_t>(filters_);
  const auto np = static_cast<std::size_t>(n_ * p_);
  const auto mp = static_cast<std::size_t>(m_ * p_);
  const auto mn = static_cast<std::size_t>(m_ * n_);
  xt::xarray<T> y = xt::xarray<T>::from_shape(
      {batch, c * k, static_cast<std::size_t>(m_), static_cast<std::size_t>(p_)});  // every item written
  const T* x = input.data.data();
  const T* w = weight_.value.data();
  T* out = y.data();
  parallel_for(static_cast<std::ptrdiff_t>(batch), 2.0 * static_cast<double>(c * k * mn * static_cast<std::size_t>(p_)),
               [&](std::ptrdiff_t s) {
                 const auto su = static_cast<std::size_t>(s);
                 for (std::size_t ci = 0; ci < c; ++ci) {
                   ConstMap<T> x_sc(x + (su * c + ci) * np, n_, p_);
                   for (std::size_t f = 0; f < k; ++f) {
                     ConstMap<T> w_cf(w + (ci * k + f) * mn, m_, n_);
                     MutableMap<T>(out + (su * c * k + ci * k + f) * mp, m_, p_).noalias() = w_cf.lazyProduct(x_sc);
                   }
                 }
               });
  inputs_.push(input.data);
  return GeometricTensor<T>(out_type_, std::move(y));
}

template <class T>
GeometricTensor<T> FRMap<T>::backward(const GeometricTensor<T>& grad_output) {
  require_type("FRMap::backward", out_type_, grad_output.type);
  const xt::xarray<T>& x_all = inputs_.top("FRMap::backward", describe());
  const std::size_t batch = x_all.shape()[0];
  if (grad_output.batch() != batch) {
    throw ShapeError("FRMap::backward", "grad_output must have the forward's batch size " + std::to_string(batch),
                     grad_output.batch());
  }
  const auto c = static_cast<std::size_t>(in_type_.channels());
  const auto k = static_cast<std::size_t>(filters_);
  const auto np = static_cast<std::size_t>(n_ * p_);
  const auto mp = static_cast<std::size_t>(m_ * p_);
  const auto mn = static_cast<std::size_t>(m_ * n_);
  const T* x = x_all.data();
  const T* w = weight_.value.data();
  const T* g = grad_output.data.data();
  xt::xarray<T> grad_x = xt::zeros_like(x_all);
  T* gx = grad_x.data();
  parallel_for(static_cast<std::ptrdiff_t>(batch), 2.0 * static_cast<double>(c * k * mn * static_cast<std::size_t>(p_)),
               [&](std::ptrdiff_t s) {
                 const auto su = static_cast<std::size_t>(s);
                 for (std::size_t ci = 0; ci < c; ++ci) {
                   MutableMap<T> gx_sc(gx + (su * c + ci) * np, n_, p_);
                   for (std::size_t f = 0; f < k; ++f) {
                     ConstMap<T> w_cf(w + (ci * k + f) * mn, m_, n_);
                     gx_sc.noalias() +=
                         w_cf.transpose().lazyProduct(ConstMap<T>(g + (su * c * k + ci * k + f) * mp, m_, p_));
                   }
                 }
               });
  T* gw = weight_.grad.data();
  parallel_for(static_cast<std::ptrdiff_t>(c * k), 2.0 * static_cast<double>(batch * mn * static_cast<std::size_t>(p_)),
               [&](std::ptrdiff_t j) {
                 const auto ju = static_cast<std::size_t>(j);
                 const std::size_t ci = ju / k;
                 RowMatrix<T> sum = RowMatrix<T>::Zero(m_, n_);
                 for (std::size_t s = 0; s < batch; ++s) {
                   sum.noalias() += ConstMap<T>(g + (s * c * k + ju) * mp, m_, p_)
                                        .lazyProduct(ConstMap<T>(x + (s * c + ci) * np, n_, p_).transpose());
                 }
                 MutableMap<T>(gw + ju * mn, m_, n_) += sum;
               });
  inputs_.drop();
  return GeometricTensor<T>(in_type_, std::move(grad_x));
}

template <class T>
std::string FRMap<T>::describe() const {
  return "FRMap(" + in_type_.describe() + " → " + out_type_.describe() + ")";
}

// ── ReOrth ────────────────────────────────────────────────────────────────────────────────

template <class T>
ReOrth<T>::ReOrth(int m, int p, int channels)
    : in_type_(matrix_features(m, p, channels)), out_type_(grassmann_features(m, p, channels)) {}

template <class T>
GeometricTensor<T> ReOrth<T>::forward(const GeometricTensor<T>& input) {
  require_type("ReOrth::forward", in_type_, input.type);
  const auto& s = input.data.shape();
  linalg::BatchedQr<T> qr = linalg::batched_qr(reshaped(input.data, {s[0] * s[1], s[2], s[3]}));
  xt::xarray<T> q = reshaped(qr.q, {s[0], s[1], s[2], s[3]});
  factors_.push(std::move(qr));
  return GeometricTensor<T>(out_type_, std::move(q));
}

template <class T>
GeometricTensor<T> ReOrth<T>::backward(const GeometricTensor<T>& grad_output) {
  require_type("ReOrth::backward", out_type_, grad_output.type);
  const linalg::BatchedQr<T>& qr = factors_.top("ReOrth::backward", describe());
  const auto& s = grad_output.data.shape();
  if (s[0] * s[1] != qr.q.shape()[0]) {
    throw ShapeError("ReOrth::backward",
                     "grad_output must have the forward's batch size " + std::to_string(qr.q.shape()[0] / s[1]), s[0]);
  }
  xt::xarray<T> grad = linalg::batched_qr_backward(qr, reshaped(grad_output.data, {s[0] * s[1], s[2], s[3]}));
  factors_.drop();
  return GeometricTensor<T>(in_type_, reshaped(std::move(grad), {s[0], s[1], s[2], s[3]}));
}

template <class T>
std::string ReOrth<T>::describe() const {
  return "ReOrth(" + in_type_.describe() + " → " + out_type_.describe() + ")";
}

// ── ProjMap ───────────────────────────────────────────────────────────────────────────────

template <class T>
ProjMap<T>::ProjMap(int m, int p, int channels)
    : m_(m), p_(p), in_type_(grassmann_features(m, p, channels)), out_type_(matrix_features(m, m, channels)) {}

template <class T>
GeometricTensor<T> ProjMap<T>::forward(const GeometricTensor<T>& input) {
  require_type("ProjMap::forward", in_type_, input.type);
  const std::size_t items = input.batch() * static_cast<std::size_t>(in_type_.channels());
  const auto mp = static_cast<std::size_t>(m_ * p_);
  const auto mm = static_cast<std::size_t>(m_ * m_);
  xt::xarray<T> y =
      xt::xarray<T>::from_shape({input.batch(), static_cast<std::size_t>(in_type_.channels()),
                                 static_cast<std::size_t>(m_), static_cast<std::size_t>(m_)});  // every item written
  const T* x = input.data.data();
  T* out = y.data();
  parallel_for(static_cast<std::ptrdiff_t>(items), 2.0 * static_cast<double>(mm * static_cast<std::size_t>(p_)),
               [&](std::ptrdiff_t j) {
                 const auto ju = static_cast<std::size_t>(j);
                 ConstMap<T> x_j(x + ju * mp, m_, p_);
                 MutableMap<T>(out + ju * mm, m_, m_).noalias() = x_j.lazyProduct(x_j.transpose());
               });
  inputs_.push(input.data);
  return GeometricTensor<T>(out_type_, std::move(y));
}

template <class T>
GeometricTensor<T> ProjMap<T>::backward(const GeometricTensor<T>& grad_output) {
  require_type("ProjMap::backward", out_type_, grad_output.type);
  const xt::xarray<T>& x_all = inputs_.top("ProjMap::backward", describe());
  if (grad_output.batch() != x_all.shape()[0]) {
    throw ShapeError("ProjMap::backward",
                     "grad_output must have the forward's batch size " + std::to_string(x_all.shape()[0]),
                     grad_output.batch());
  }
  const std::size_t items = x_all.shape()[0] * x_all.shape()[1];
  const auto mp = static_cast<std::size_t>(m_ * p_);
  const auto mm = static_cast<std::size_t>(m_ * m_);
  xt::xarray<T> grad_x = xt::xarray<T>::from_shape(x_all.shape());  // every item written
  const T* x = x_all.data();
  const T* g = grad_output.data.data();
  T* gx = grad_x.data();
  parallel_for(static_cast<std::ptrdiff_t>(items), 2.0 * static_cast<double>(mm * static_cast<std::size_t>(p_)),
               [&](std::ptrdiff_t j) {
                 const auto ju = static_cast<std::size_t>(j);
                 ConstMap<T> g_j(g + ju * mm, m_, m_);
                 MutableMap<T>(gx + ju * mp, m_, p_).noalias() =
                     (g_j + g_j.transpose()).lazyProduct(ConstMap<T>(x + ju * mp, m_, p_));
               });
  inputs_.drop();
  return GeometricTensor<T>(in_type_, std::move(grad_x));
}

template <class T>
std::string ProjMap<T>::describe() const {
  return "ProjMap(" + in_type_.describe() + " → " + out_type_.describe() + ")";
}

// ── ProjPooling ───────────────────────────────────────────────────────────────────────────

namespace {

int pooled_channels(int channels, int k) {
  if (!(k >= 1 && channels >= 1 && channels % k == 0)) {
    throw ShapeError("ProjPooling",
                     "the pooling size k must be >= 1 and divide the channel count " + std::to_string(channels), k);
  }
  return channels / k;
}

}  // namespace

template <class T>
ProjPooling<T>::ProjPooling(int m, int channels, int k)
    : k_(k),
      in_type_(matrix_features(m, m, channels)),
      out_type_(matrix_features(m, m, pooled_channels(channels, k))) {}

template <class T>
GeometricTensor<T> ProjPooling<T>::forward(const GeometricTensor<T>& input) {
  require_type("ProjPooling::forward", in_type_, input.type);
  const std::size_t batch = input.batch();
  const auto out_channels = static_cast<std::size_t>(out_type_.channels());
  const auto k = static_cast<std::size_t>(k_);
  const std::size_t item = input.data.shape()[2] * input.data.shape()[3];
  xt::xarray<T> y = xt::zeros<T>({batch, out_channels, input.data.shape()[2], input.data.shape()[3]});
  const T* x = input.data.data();
  T* out = y.data();
  const T scale = T(1) / static_cast<T>(k);
  for (std::size_t s = 0; s < batch * out_channels; ++s) {
    for (std::size_t j = 0; j < k; ++j) {
      for (std::size_t e = 0; e < item; ++e) out[s * item + e] += scale * x[(s * k + j) * item + e];
    }
  }
  batch_sizes_.push(batch);
  return GeometricTensor<T>(out_type_, std::move(y));
}

template <class T>
GeometricTensor<T> ProjPooling<T>::backward(const GeometricTensor<T>& grad_output) {
  require_type("ProjPooling::backward", out_type_, grad_output.type);
  const std::size_t batch = batch_sizes_.top("ProjPooling::backward", describe());
  if (grad_output.batch() != batch) {
    throw ShapeError("ProjPooling::backward", "grad_output must have the forward's batch size " + std::to_string(batch),
                     grad_output.batch());
  }
  const auto out_channels = static_cast<std::size_t>(out_type_.channels());
  const auto k = static_cast<std::size_t>(k_);
  const auto& shape = grad_output.data.shape();
  const std::size_t item = shape[2] * shape[3];
  xt::xarray<T> grad = xt::xarray<T>::from_shape({batch, out_channels * k, shape[2], shape[3]});  // every entry written
  const T* g = grad_output.data.data();
  T* gx = grad.data();
  const T scale = T(1) / static_cast<T>(k);
  for (std::size_t s = 0; s < batch * out_channels; ++s) {
    for (std::size_t j = 0; j < k; ++j) {
      for (std::size_t e = 0; e < item; ++e) gx[(s * k + j) * item + e] = scale * g[s * item + e];
    }
  }
  batch_sizes_.drop();
  return GeometricTensor<T>(in_type_, std::move(grad));
}

template <class T>
std::string ProjPooling<T>::describe() const {
  return "ProjPooling(" + in_type_.describe() + " → " + out_type_.describe() + ", k=" + std::to_string(k_) + ")";
}

template class FRMap<float>;
template class FRMap<double>;
template class ReOrth<float>;
template class ReOrth<double>;
template class ProjMap<float>;
template class ProjMap<double>;
template class ProjPooling<float>;
template class ProjPooling<double>;

}  // namespace gyre::nn
