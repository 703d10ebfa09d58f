#include "gyre/nn/grassmann_layers.hpp"

#include <Eigen/Core>

#include "gyre/core/error.hpp"
#include "gyre/core/parallel.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/core/static_width.hpp"
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

// FRMap runs as three GEMMs per input channel instead of one small product per item: the
// channel's items are gathered side by side into X̂ = [X₀ … X_{B−1}] (n × B·p), the K filters stacked
// into Ŵ (K·m × n: the weight's (C, K, m, n) layout already is), and
//   forward Ŷ = Ŵ·X̂,   ∂L/∂Ŵ += Ĝ·X̂ᵀ,   ∂L/∂X̂ = ŴᵀĜ
// (Ĝ gathered like Ŷ). The gathers and scatters copy B·(n + K·m)·p entries; the products are
// B·K·m·n·p multiply-adds each, and one GEMM of that size runs at the blocked kernel's speed where
// 2·B·K small products did not (GrNet's FRMap 28 → 12, K = 8, B = 256: see the README's Performance).

namespace {

// X̂ (rows × B·cols) from channel c of a (B, C, rows, cols) row-major array: X̂(i, s·cols + j) = X[s, c](i, j).
template <class T>
void gather_items(const T* data, std::size_t batch, std::size_t channels, std::size_t c, Eigen::Index rows,
                  Eigen::Index cols, RowMatrix<T>& side_by_side) {
  side_by_side.resize(rows, static_cast<Eigen::Index>(batch) * cols);
  for (std::size_t s = 0; s < batch; ++s) {
    const ConstMap<T> item(data + (s * channels + c) * static_cast<std::size_t>(rows * cols), rows, cols);
    side_by_side.middleCols(static_cast<Eigen::Index>(s) * cols, cols) = item;
  }
}

// The inverse of gather_items: channel c of a (B, C, rows, cols) array from X̂.
template <class T>
void scatter_items(const RowMatrix<T>& side_by_side, std::size_t batch, std::size_t channels, std::size_t c,
                   Eigen::Index rows, Eigen::Index cols, T* data) {
  for (std::size_t s = 0; s < batch; ++s) {
    MutableMap<T>(data + (s * channels + c) * static_cast<std::size_t>(rows * cols), rows, cols) =
        side_by_side.middleCols(static_cast<Eigen::Index>(s) * cols, cols);
  }
}

// Ŷ's K blocks of m rows are channels c·K … c·K + K − 1 of the output: Ŷ(f·m + i, s·p + j) =
// Y[s, c·K + f](i, j). Item by item, straight between the array and Ŷ's blocks; for one sample
// the K items are contiguous in the array.
template <class T>
void gather_filters(const T* data, std::size_t batch, std::size_t channels, std::size_t c, std::size_t filters,
                    Eigen::Index m, Eigen::Index p, RowMatrix<T>& stacked) {
  stacked.resize(static_cast<Eigen::Index>(filters) * m, static_cast<Eigen::Index>(batch) * p);
  const auto item = static_cast<std::size_t>(m * p);
  for (std::size_t s = 0; s < batch; ++s) {
    for (std::size_t f = 0; f < filters; ++f) {
      stacked.block(static_cast<Eigen::Index>(f) * m, static_cast<Eigen::Index>(s) * p, m, p) =
          ConstMap<T>(data + (s * channels + c * filters + f) * item, m, p);
    }
  }
}

template <class T>
void scatter_filters(const RowMatrix<T>& stacked, std::size_t batch, std::size_t channels, std::size_t c,
                     std::size_t filters, Eigen::Index m, Eigen::Index p, T* data) {
  const auto item = static_cast<std::size_t>(m * p);
  for (std::size_t s = 0; s < batch; ++s) {
    for (std::size_t f = 0; f < filters; ++f) {
      MutableMap<T>(data + (s * channels + c * filters + f) * item, m, p) =
          stacked.block(static_cast<Eigen::Index>(f) * m, static_cast<Eigen::Index>(s) * p, m, p);
    }
  }
}

}  // namespace

template <class T>
GeometricTensor<T> FRMap<T>::forward(const GeometricTensor<T>& input) {
  require_type("FRMap::forward", in_type_, input.type);
  const std::size_t batch = input.batch();
  const auto c = static_cast<std::size_t>(in_type_.channels());
  const auto k = static_cast<std::size_t>(filters_);
  xt::xarray<T> y = xt::xarray<T>::from_shape(
      {batch, c * k, static_cast<std::size_t>(m_), static_cast<std::size_t>(p_)});  // every item written
  RowMatrix<T> x_hat, y_hat;
  for (std::size_t ci = 0; ci < c; ++ci) {
    gather_items(input.data.data(), batch, c, ci, n_, p_, x_hat);
    const ConstMap<T> w_hat(weight_.value.data() + ci * k * static_cast<std::size_t>(m_ * n_),
                            static_cast<Eigen::Index>(k) * m_, n_);
    y_hat.noalias() = w_hat * x_hat;
    scatter_filters(y_hat, batch, c * k, ci, k, m_, p_, y.data());
  }
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
  const auto mn = static_cast<std::size_t>(m_ * n_);
  xt::xarray<T> grad_x = xt::xarray<T>::from_shape(x_all.shape());  // every item written
  RowMatrix<T> x_hat, g_hat, grad_x_hat;
  for (std::size_t ci = 0; ci < c; ++ci) {
    gather_items(x_all.data(), batch, c, ci, n_, p_, x_hat);
    gather_filters(grad_output.data.data(), batch, c * k, ci, k, m_, p_, g_hat);
    const auto rows = static_cast<Eigen::Index>(k) * m_;
    const ConstMap<T> w_hat(weight_.value.data() + ci * k * mn, rows, n_);
    MutableMap<T>(weight_.grad.data() + ci * k * mn, rows, n_).noalias() += g_hat * x_hat.transpose();
    grad_x_hat.noalias() = w_hat.transpose() * g_hat;
    scatter_items(grad_x_hat, batch, c, ci, n_, p_, grad_x.data());
  }
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

namespace {

// X·Xᵀ of one row-major m×p item: its lower triangle by dot products of rows, mirrored. Plain loops
// with p fixed at compile time where it is small (GrNet's bases have p ≤ 8), so that a row is one
// vector register: for 12×4 items Eigen's lazy product of dynamic maps ran 5× the instructions.
template <int P, class T>
void projector(const T* x, int m, int p, T* out) {
  const int width = P > 0 ? P : p;
  for (int i = 0; i < m; ++i) {
    const T* row_i = x + i * width;
    for (int j = 0; j <= i; ++j) {
      const T* row_j = x + j * width;
      T sum = 0;
      for (int k = 0; k < width; ++k) sum += row_i[k] * row_j[k];
      out[i * m + j] = sum;
      out[j * m + i] = sum;
    }
  }
}

// (G + Gᵀ)·X of one item (G m×m, X and the result m×p, row-major): row i of the result gathers the
// rows of X weighted by Gᵢⱼ + Gⱼᵢ.
template <int P, class T>
void projector_backward(const T* g, const T* x, int m, int p, T* out) {
  const int width = P > 0 ? P : p;
  for (int i = 0; i < m; ++i) {
    T row[P > 0 ? P : 1];  // the accumulator stays in registers when P is fixed
    T* accumulator = P > 0 ? row : out + i * width;
    for (int k = 0; k < width; ++k) accumulator[k] = 0;
    for (int j = 0; j < m; ++j) {
      const T weight = g[i * m + j] + g[j * m + i];
      const T* x_row = x + j * width;
      for (int k = 0; k < width; ++k) accumulator[k] += weight * x_row[k];
    }
    if (P > 0) {
      for (int k = 0; k < width; ++k) out[i * width + k] = accumulator[k];
    }
  }
}

}  // namespace

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
                 with_static_width(
                     p_, [&](auto width) { projector<decltype(width)::value>(x + ju * mp, m_, p_, out + ju * mm); });
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
                 with_static_width(p_, [&](auto width) {
                   projector_backward<decltype(width)::value>(g + ju * mm, x + ju * mp, m_, p_, gx + ju * mp);
                 });
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
