#include "gyre/nn/bimap.hpp"

#include <Eigen/Core>

#include "gyre/core/error.hpp"
#include "gyre/core/parallel.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/geometry/batch_space.hpp"
#include "gyre/geometry/common_batch_spaces.hpp"
#include "gyre/nn/manifold_fibers.hpp"
#include "row_major_maps.hpp"
#include "stiefel/stiefel.hpp"

namespace gyre::nn {

namespace {

using detail::ConstMap;
using detail::MutableMap;
using detail::RowMatrix;

void check_sizes(int n_in, int n_out, int in_channels, int out_channels) {
  const std::string sizes = "n_in = " + std::to_string(n_in) + ", n_out = " + std::to_string(n_out);
  if (!(n_out >= 1 && n_out <= n_in))
    throw ShapeError("BiMap", "needs 1 <= n_out <= n_in (W has orthonormal columns)", sizes);
  if (!(in_channels >= 1 && out_channels >= 1)) {
    throw ShapeError("BiMap", "channel counts must be >= 1",
                     std::to_string(in_channels) + " → " + std::to_string(out_channels));
  }
}

template <class T>
Parameter<T> haar_weight(int n_in, int n_out, int in_channels, int out_channels, std::uint64_t seed) {
  check_sizes(n_in, n_out, in_channels, out_channels);
  const std::string name = "St(" + std::to_string(n_in) + ", " + std::to_string(n_out) + ")";
  auto space = make_batch_space(Stiefel<T>(n_in, n_out), name);
  Rng rng(seed);
  xt::xarray<T> w =
      space->random_points({static_cast<std::size_t>(out_channels), static_cast<std::size_t>(in_channels)}, rng);
  return Parameter<T>("BiMap.weight", std::move(w), std::move(space));
}

}  // namespace

template <class T>
BiMap<T>::BiMap(int n_in, int n_out, int in_channels, int out_channels, std::uint64_t seed)
    : n_in_(n_in),
      n_out_(n_out),
      in_type_(spd_features(n_in, in_channels)),
      out_type_(spd_features(n_out, out_channels)),
      weight_(haar_weight<T>(n_in, n_out, in_channels, out_channels, seed)) {}

template <class T>
GeometricTensor<T> BiMap<T>::forward(const GeometricTensor<T>& input) {
  require_type("BiMap::forward", in_type_, input.type);
  const auto batch = static_cast<std::ptrdiff_t>(input.batch());
  const auto ci = static_cast<std::size_t>(in_type_.channels());
  const auto co = static_cast<std::size_t>(out_type_.channels());
  const auto a = static_cast<Eigen::Index>(n_in_);
  const auto b = static_cast<Eigen::Index>(n_out_);
  xt::xarray<T> y = xt::zeros<T>({input.batch(), co, static_cast<std::size_t>(b), static_cast<std::size_t>(b)});
  const T* x = input.data.data();
  const T* w = weight_.value.data();
  T* out = y.data();
  parallel_for(batch, 4.0 * static_cast<double>(co * ci) * a * a * b, [&](std::ptrdiff_t s) {
    for (std::size_t o = 0; o < co; ++o) {
      MutableMap<T> y_so(out + (static_cast<std::size_t>(s) * co + o) * static_cast<std::size_t>(b * b), b, b);
      for (std::size_t i = 0; i < ci; ++i) {
        ConstMap<T> x_si(x + (static_cast<std::size_t>(s) * ci + i) * static_cast<std::size_t>(a * a), a, a);
        ConstMap<T> w_oi(w + (o * ci + i) * static_cast<std::size_t>(a * b), a, b);
        y_so.noalias() += w_oi.transpose().lazyProduct(x_si.lazyProduct(w_oi).eval());
      }
      y_so = (T(0.5) * (y_so + y_so.transpose())).eval();  // exactly symmetric, as SPD checks expect
    }
  });
  inputs_.push(input.data);
  return GeometricTensor<T>(out_type_, std::move(y));
}

template <class T>
GeometricTensor<T> BiMap<T>::backward(const GeometricTensor<T>& grad_output) {
  require_type("BiMap::backward", out_type_, grad_output.type);
  const xt::xarray<T>& x_all = inputs_.top("BiMap::backward", describe());
  if (grad_output.batch() != x_all.shape()[0]) {
    throw ShapeError("BiMap::backward",
                     "grad_output must have the forward's batch size " + std::to_string(x_all.shape()[0]),
                     grad_output.batch());
  }
  const std::size_t batch = x_all.shape()[0];
  const auto ci = static_cast<std::size_t>(in_type_.channels());
  const auto co = static_cast<std::size_t>(out_type_.channels());
  const auto a = static_cast<Eigen::Index>(n_in_);
  const auto b = static_cast<Eigen::Index>(n_out_);
  const auto aa = static_cast<std::size_t>(a * a);
  const auto bb = static_cast<std::size_t>(b * b);
  const auto ab = static_cast<std::size_t>(a * b);
  // sym(G) once per item: both gradients use it.
  xt::xarray<T> g_sym = grad_output.data;
  for (std::size_t k = 0; k < batch * co; ++k) {
    MutableMap<T> g(g_sym.data() + k * bb, b, b);
    g = (T(0.5) * (g + g.transpose())).eval();
  }
  const T* x = x_all.data();
  const T* w = weight_.value.data();
  const T* g = g_sym.data();
  xt::xarray<T> grad_x = xt::zeros<T>({batch, ci, static_cast<std::size_t>(a), static_cast<std::size_t>(a)});
  T* gx = grad_x.data();
  parallel_for(static_cast<std::ptrdiff_t>(batch), 4.0 * static_cast<double>(co * ci) * a * a * b,
               [&](std::ptrdiff_t s) {
                 const auto su = static_cast<std::size_t>(s);
                 for (std::size_t i = 0; i < ci; ++i) {
                   MutableMap<T> gx_si(gx + (su * ci + i) * aa, a, a);
                   for (std::size_t o = 0; o < co; ++o) {
                     ConstMap<T> w_oi(w + (o * ci + i) * ab, a, b);
                     ConstMap<T> g_so(g + (su * co + o) * bb, b, b);
                     gx_si.noalias() += w_oi.lazyProduct(g_so.lazyProduct(w_oi.transpose()).eval());
                   }
                 }
               });
  // ∂L/∂W[o, i] = 2·Σ_s X[s, i]·W[o, i]·G[s, o]: one weight per task, so no two tasks write the same memory.
  T* gw = weight_.grad.data();
  parallel_for(static_cast<std::ptrdiff_t>(co * ci), 4.0 * static_cast<double>(batch) * a * a * b,
               [&](std::ptrdiff_t k) {
                 const auto ku = static_cast<std::size_t>(k);
                 const std::size_t o = ku / ci;
                 const std::size_t i = ku % ci;
                 ConstMap<T> w_oi(w + ku * ab, a, b);
                 RowMatrix<T> sum = RowMatrix<T>::Zero(a, b);
                 for (std::size_t s = 0; s < batch; ++s) {
                   ConstMap<T> x_si(x + (s * ci + i) * aa, a, a);
                   ConstMap<T> g_so(g + (s * co + o) * bb, b, b);
                   sum.noalias() += x_si.lazyProduct(w_oi.lazyProduct(g_so).eval());
                 }
                 MutableMap<T>(gw + ku * ab, a, b) += T(2) * sum;
               });
  inputs_.drop();
  return GeometricTensor<T>(in_type_, std::move(grad_x));
}

template <class T>
std::string BiMap<T>::describe() const {
  return "BiMap(" + in_type_.describe() + " → " + out_type_.describe() + ")";
}

template class BiMap<float>;
template class BiMap<double>;

}  // namespace gyre::nn
