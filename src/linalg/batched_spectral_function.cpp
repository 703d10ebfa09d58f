#include "gyre/linalg/batched_spectral_function.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include <Eigen/Core>

#include "batched_detail.hpp"
#include "gyre/core/checks.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/parallel.hpp"
#include "gyre/core/validate.hpp"
#include "gyre/linalg/batched_symmetric_eigen.hpp"

namespace gyre::linalg {

namespace {

constexpr const char* kForward = "batched_spectral_function";
constexpr const char* kBackward = "batched_spectral_function_backward";

using detail::ConstItem;
using detail::item;
using detail::item_string;
using detail::multiply;
using detail::RowMajor;
using detail::scale_exponent;
using detail::shape_string;
using detail::times_power_of_two;

// Work matrices on the stack up to the sizes SPDNet-style layers use (n ≤ 32: 8 KiB per double
// matrix); larger items take heap matrices, whose allocation is small beside their n³ work.
constexpr int kMaxStackSize = 32;
template <class T>
using Stack = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor, kMaxStackSize, kMaxStackSize>;

// Runs body with the work-matrix type that fits n.
template <class T, class Body>
void with_work_type(int n, const Body& body) {
  if (n <= kMaxStackSize) {
    body(Stack<T>());
  } else {
    body(RowMajor<T>());
  }
}

template <class F>
void check_parameters(const F& f) {
  if constexpr (std::is_same_v<F, Power>) {
    if (!std::isfinite(f.p)) throw DomainError(kForward, "Power needs a finite exponent (p)", f.p);
  }
  if constexpr (std::is_same_v<F, Rectify>) {
    if (!std::isfinite(f.epsilon)) throw DomainError(kForward, "Rectify needs a finite threshold (epsilon)", f.epsilon);
  }
}

// Finite and symmetric to √ε relative to the largest entry (the asymmetry that products such as
// W·X·Wᵀ leave is a few ε; anything near √ε is not a symmetric matrix).
template <class T>
void check_symmetric_items(const xt::xarray<T>& x, int n) {
  parallel_for(static_cast<std::ptrdiff_t>(x.shape()[0]), 4.0 * n * n, [&](std::ptrdiff_t i) {
    const ConstItem<T> xi = item(x, i, n, n);
    if (!xi.allFinite())
      throw DomainError(kForward, item_string(i) + " has a non-finite entry (NaN or Inf)", "NaN/Inf");
    const T scale = xi.cwiseAbs().maxCoeff();
    const T asymmetry = (xi - xi.transpose()).cwiseAbs().maxCoeff();
    if (!(asymmetry <= membership_tolerance<T>() * scale)) {
      throw DomainError(kForward, item_string(i) + " is not symmetric (max |Xᵢⱼ − Xⱼᵢ| / max |Xᵢⱼ|)",
                        asymmetry / scale);
    }
  });
}

}  // namespace

template <class T, class F>
void batched_spectral_function(const xt::xarray<T>& x, const F& f, SpectralForward<T>& out) {
  // x held by out would be resized or overwritten while it is read: new arrays, then moved in.
  if (&x == &out.value || &x == &out.saved.vectors || &x == &out.saved.values || &x == &out.saved.mapped) {
    SpectralForward<T> fresh;
    batched_spectral_function(x, f, fresh);
    out = std::move(fresh);
    return;
  }
  if (x.dimension() != 3 || x.shape()[1] != x.shape()[2]) {
    throw ShapeError(kForward, "input must be a (B, n, n) array of square matrices", shape_string(x));
  }
  check_parameters(f);
  const int n = static_cast<int>(x.shape()[1]);
  const auto count = static_cast<std::ptrdiff_t>(x.shape()[0]);
  const bool checks = checks_enabled();
  if (checks && n > 0) check_symmetric_items(x, n);

  SpectralSaved<T>& saved = out.saved;
  // resize keeps the storage when the shape is unchanged: no fresh pages to fault in.
  saved.vectors.resize(x.shape());
  saved.values.resize({x.shape()[0], x.shape()[1]});
  saved.mapped.resize({x.shape()[0], x.shape()[1]});
  out.value.resize(x.shape());
  if (n == 0) return;  // f of a 0×0 matrix is 0×0: nothing to decompose, and no λ₀ to check
  // Each item scaled by 2⁻ᵉ into out.value, which is free until the last step writes Y there: the
  // solver's stopping test squares entries (see scale_exponent). U is unchanged, λ scales back.
  parallel_for(count, 8.0 * n * n * n, [&](std::ptrdiff_t i) {
    const ConstItem<T> xi = item(x, i, n, n);
    item(out.value, i, n, n) = times_power_of_two(xi, -scale_exponent(xi));
  });
  batched_symmetric_eigen<T>(n, count, out.value.data(), saved.values.data(), saved.vectors.data());

  with_work_type<T>(n, [&](auto work) {
    using Work = decltype(work);
    parallel_for(count, 8.0 * n * n * n, [&](std::ptrdiff_t i) {
      T* lambda = saved.values.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(n);
      const int e = scale_exponent(item(x, i, n, n));
      for (int k = 0; k < n; ++k) lambda[k] = std::scalbn(lambda[k], e);
      T* mapped = saved.mapped.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(n);
      if (checks && F::kPositiveDomain && !(lambda[0] > 0)) {
        throw DomainError(kForward,
                          item_string(i) + " is not positive definite, as " + F::kName + " needs (smallest eigenvalue)",
                          lambda[0]);
      }
      for (int k = 0; k < n; ++k) {
        mapped[k] = f.value(lambda[k]);
        if (checks && !std::isfinite(mapped[k])) {
          throw DomainError(
              kForward,
              std::string(F::kName) + " of an eigenvalue of " + item_string(i) + " is not finite (eigenvalue)",
              lambda[k]);
        }
      }
      const ConstItem<T> u = item(std::as_const(saved.vectors), i, n, n);
      const Work scaled = u * Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, 1>>(mapped, n).asDiagonal();
      const Work y = multiply<Work>(scaled, u.transpose());
      item(out.value, i, n, n) = T(0.5) * y + T(0.5) * y.transpose();  // halves first: Y may be near overflow
    });
  });
}

template <class T, class F>
void batched_spectral_function_backward(const SpectralSaved<T>& saved, const F& f, const xt::xarray<T>& grad_y,
                                        xt::xarray<T>& grad_x) {
  // grad_x that is an input would be resized or overwritten while it is read: a new array, moved in.
  if (&grad_x == &grad_y || &grad_x == &saved.vectors || &grad_x == &saved.values || &grad_x == &saved.mapped) {
    xt::xarray<T> fresh;
    batched_spectral_function_backward(saved, f, grad_y, fresh);
    grad_x = std::move(fresh);
    return;
  }
  if (saved.vectors.dimension() != 3 || saved.values.dimension() != 2 || saved.mapped.shape() != saved.values.shape() ||
      saved.vectors.shape()[0] != saved.values.shape()[0] || saved.vectors.shape()[1] != saved.values.shape()[1]) {
    throw ShapeError(kBackward, "saved state is not that of a forward pass (vectors, values)",
                     shape_string(saved.vectors) + ", " + shape_string(saved.values));
  }
  if (grad_y.shape() != saved.vectors.shape()) {
    throw ShapeError(kBackward, "gradient must have the forward value's shape " + shape_string(saved.vectors),
                     shape_string(grad_y));
  }
  const int n = static_cast<int>(saved.vectors.shape()[1]);
  const auto count = static_cast<std::ptrdiff_t>(saved.vectors.shape()[0]);
  const bool checks = checks_enabled();
  if (checks) {
    parallel_for(count, 8.0 * n * n * n, [&](std::ptrdiff_t i) {
      if (!item(grad_y, i, n, n).allFinite()) {
        throw DomainError(kBackward, "gradient of " + item_string(i) + " has a non-finite entry (NaN or Inf)",
                          "NaN/Inf");
      }
    });
  }
  grad_x.resize(grad_y.shape());
  if (n == 0) return;
  with_work_type<T>(n, [&](auto work) {
    using Work = decltype(work);
    parallel_for(count, 8.0 * n * n * n, [&](std::ptrdiff_t i) {
      const T* lambda = saved.values.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(n);
      const ConstItem<T> u = item(saved.vectors, i, n, n);
      const ConstItem<T> g = item(grad_y, i, n, n);
      const Work g_sym = (g + g.transpose()) / T(2);
      Work rotated = multiply<Work>(u.transpose(), multiply<Work>(g_sym, u));
      // K ∘ (Uᵀ·sym(G)·U), K symmetric: one divided difference per pair.
      T largest_k = 0;
      for (int j = 0; j < n; ++j) {
        const T kjj = f.divided(lambda[j], lambda[j]);
        largest_k = std::max(largest_k, std::abs(kjj));
        rotated(j, j) *= kjj;
        for (int k = j + 1; k < n; ++k) {
          const T kjk = f.divided(lambda[j], lambda[k]);
          largest_k = std::max(largest_k, std::abs(kjk));
          rotated(j, k) *= kjk;
          rotated(k, j) *= kjk;
        }
      }
      const Work d = multiply<Work>(multiply<Work>(u, rotated), u.transpose());
      auto grad = item(grad_x, i, n, n);
      grad = T(0.5) * d + T(0.5) * d.transpose();
      // Finite λ and G can still give an infinite ∂L/∂X: Log′(1e-300) = 1e300 times a large G.
      if (checks && !grad.allFinite()) {
        throw DomainError(kBackward, "∂L/∂X of " + item_string(i) + " overflows (largest |f[λᵢ, λⱼ]|)", largest_k);
      }
    });
  });
}

template void batched_spectral_function(const xt::xarray<float>&, const Rectify&, SpectralForward<float>&);
template void batched_spectral_function(const xt::xarray<float>&, const Log&, SpectralForward<float>&);
template void batched_spectral_function(const xt::xarray<float>&, const Exp&, SpectralForward<float>&);
template void batched_spectral_function(const xt::xarray<float>&, const Power&, SpectralForward<float>&);
template void batched_spectral_function(const xt::xarray<float>&, const Sqrt&, SpectralForward<float>&);
template void batched_spectral_function(const xt::xarray<float>&, const InverseSqrt&, SpectralForward<float>&);
template void batched_spectral_function(const xt::xarray<double>&, const Rectify&, SpectralForward<double>&);
template void batched_spectral_function(const xt::xarray<double>&, const Log&, SpectralForward<double>&);
template void batched_spectral_function(const xt::xarray<double>&, const Exp&, SpectralForward<double>&);
template void batched_spectral_function(const xt::xarray<double>&, const Power&, SpectralForward<double>&);
template void batched_spectral_function(const xt::xarray<double>&, const Sqrt&, SpectralForward<double>&);
template void batched_spectral_function(const xt::xarray<double>&, const InverseSqrt&, SpectralForward<double>&);

template void batched_spectral_function_backward(const SpectralSaved<float>&, const Rectify&, const xt::xarray<float>&,
                                                 xt::xarray<float>&);
template void batched_spectral_function_backward(const SpectralSaved<float>&, const Log&, const xt::xarray<float>&,
                                                 xt::xarray<float>&);
template void batched_spectral_function_backward(const SpectralSaved<float>&, const Exp&, const xt::xarray<float>&,
                                                 xt::xarray<float>&);
template void batched_spectral_function_backward(const SpectralSaved<float>&, const Power&, const xt::xarray<float>&,
                                                 xt::xarray<float>&);
template void batched_spectral_function_backward(const SpectralSaved<float>&, const Sqrt&, const xt::xarray<float>&,
                                                 xt::xarray<float>&);
template void batched_spectral_function_backward(const SpectralSaved<float>&, const InverseSqrt&,
                                                 const xt::xarray<float>&, xt::xarray<float>&);
template void batched_spectral_function_backward(const SpectralSaved<double>&, const Rectify&,
                                                 const xt::xarray<double>&, xt::xarray<double>&);
template void batched_spectral_function_backward(const SpectralSaved<double>&, const Log&, const xt::xarray<double>&,
                                                 xt::xarray<double>&);
template void batched_spectral_function_backward(const SpectralSaved<double>&, const Exp&, const xt::xarray<double>&,
                                                 xt::xarray<double>&);
template void batched_spectral_function_backward(const SpectralSaved<double>&, const Power&, const xt::xarray<double>&,
                                                 xt::xarray<double>&);
template void batched_spectral_function_backward(const SpectralSaved<double>&, const Sqrt&, const xt::xarray<double>&,
                                                 xt::xarray<double>&);
template void batched_spectral_function_backward(const SpectralSaved<double>&, const InverseSqrt&,
                                                 const xt::xarray<double>&, xt::xarray<double>&);

}  // namespace gyre::linalg
