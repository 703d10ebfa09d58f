#include "gyre/linalg/batched_qr.hpp"

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "batched_detail.hpp"
#include "gyre/core/checks.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/parallel.hpp"
#include "gyre/core/static_width.hpp"

namespace gyre::linalg {

namespace {

constexpr const char* kForward = "batched_qr";
constexpr const char* kBackward = "batched_qr_backward";

using detail::item;
using detail::item_string;
using detail::scale_exponent;
using detail::shape_string;
using detail::times_power_of_two;

// Column-major work matrices (Householder QR works on columns) on the stack up to n = 64,
// p = 32, GrNet's sizes after its first mapping; heap matrices above.
constexpr int kMaxStackRows = 64;
constexpr int kMaxStackColumns = 32;
template <class T>
using StackTall = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, kMaxStackRows, kMaxStackColumns>;
template <class T>
using StackSquare =
    Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, kMaxStackColumns, kMaxStackColumns>;
template <class T>
using HeapMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;

// Runs body with the (tall, square) work-matrix types that fit n×p.
template <class T, class Body>
void with_work_types(int n, int p, const Body& body) {
  if (n <= kMaxStackRows && p <= kMaxStackColumns) {
    body(StackTall<T>(), StackSquare<T>());
  } else {
    body(HeapMatrix<T>(), HeapMatrix<T>());
  }
}

// Householder QR of a column-major n×p matrix a (leading dimension n), in place, as LAPACK's
// geqrf/orgqr do it: reflector k, H = I − τ·v·vᵀ with v = [1; v₊], maps column k's rows k… onto
// β·e₁ with β = −sign(α)·‖x‖ (no cancellation in α − β); v₊ is stored below the diagonal and R on
// and above it. Then Q = H₀·…·H_{p−1}·[I; 0] (n×p, column-major), applied from the last reflector.
// Written out because for GrNet's 12×4 items Eigen's HouseholderQR and householderQ() cost 4× the
// arithmetic in expression overhead. Inputs are scaled to entries ≤ 1, so no sum of squares overflows.
template <class T>
void householder_qr(T* a, int n, int p, T* tau, T* q) {
  for (int k = 0; k < p; ++k) {
    T* column = a + k * n;
    const T alpha = column[k];
    T tail = 0;
    for (int i = k + 1; i < n; ++i) tail += column[i] * column[i];
    if (tail == 0) {  // already triangular here: H = I, Rₖₖ = α
      tau[k] = 0;
      continue;
    }
    const T norm = std::sqrt(alpha * alpha + tail);
    const T beta = alpha <= 0 ? norm : -norm;
    const T pivot = alpha - beta;
    for (int i = k + 1; i < n; ++i) column[i] /= pivot;
    tau[k] = (beta - alpha) / beta;
    column[k] = beta;
    for (int j = k + 1; j < p; ++j) {
      T* target = a + j * n;
      T w = target[k];
      for (int i = k + 1; i < n; ++i) w += column[i] * target[i];
      w *= tau[k];
      target[k] -= w;
      for (int i = k + 1; i < n; ++i) target[i] -= w * column[i];
    }
  }
  for (int j = 0; j < p; ++j) {
    for (int i = 0; i < n; ++i) q[i + j * n] = i == j ? T(1) : T(0);
  }
  for (int k = p - 1; k >= 0; --k) {
    if (tau[k] == 0) continue;
    const T* v = a + k * n;        // v[k] = 1, v[k+1…] below the diagonal
    for (int j = k; j < p; ++j) {  // columns before k are zero in rows ≥ k
      T* target = q + j * n;
      T w = target[k];
      for (int i = k + 1; i < n; ++i) w += v[i] * target[i];
      w *= tau[k];
      target[k] -= w;
      for (int i = k + 1; i < n; ++i) target[i] -= w * v[i];
    }
  }
}

// ∂L/∂A of one item (row-major: q, g and z n×p, r and gr p×p; gr may be null) by the formula in the
// header: S = Ḡ_R·Rᵀ − QᵀḠ_Q, Z = Ḡ_Q + Q·copyutl(S), then Z·R⁻ᵀ row by row (x·Rᵀ = z is a back
// substitution with the upper triangular R). Written out for the same reason as householder_qr,
// with p fixed at compile time where it is small (P > 0; P = 0 reads it from `runtime_p`), so that
// a row of Z stays in registers and the loops over it unroll.
template <int P, class T>
void qr_backward_item(const T* q, const T* r, const T* g, const T* gr, int n, int runtime_p, T* z) {
  const int p = P > 0 ? P : runtime_p;
  constexpr int kStackColumns = 32;
  T stack[kStackColumns * kStackColumns + kStackColumns];
  std::vector<T> heap;
  T* s = stack;
  if (P == 0 && p > kStackColumns) {
    heap.resize(static_cast<std::size_t>(p) * static_cast<std::size_t>(p + 1));
    s = heap.data();
  }
  T* inverse_diagonal = s + p * p;  // 1/Rₖₖ: one division per column instead of one per entry
  for (int b = 0; b < p; ++b) inverse_diagonal[b] = T(1) / r[b * p + b];
  // Only S's upper triangle is used: copyutl mirrors it.
  for (int a = 0; a < p; ++a) {
    for (int b = a; b < p; ++b) {
      T sum = 0;
      for (int i = 0; i < n; ++i) sum -= q[i * p + a] * g[i * p + b];
      if (gr != nullptr) {
        for (int c = b; c < p; ++c) sum += gr[a * p + c] * r[b * p + c];  // (Ḡ_R·Rᵀ)_ab, R_bc = 0 for c < b
      }
      s[a * p + b] = sum;
      s[b * p + a] = sum;
    }
  }
  for (int i = 0; i < n; ++i) {
    const T* q_row = q + i * p;
    T* z_row = z + i * p;
    for (int b = 0; b < p; ++b) {
      T sum = g[i * p + b];
      for (int a = 0; a < p; ++a) sum += q_row[a] * s[a * p + b];
      z_row[b] = sum;
    }
    for (int b = p - 1; b >= 0; --b) {
      T sum = z_row[b];
      for (int c = b + 1; c < p; ++c) sum -= z_row[c] * r[b * p + c];
      z_row[b] = sum * inverse_diagonal[b];
    }
  }
}

template <class T>
void require_shape(const char* function, const char* what, const xt::xarray<T>& a, std::size_t count, int rows,
                   int cols) {
  if (a.dimension() != 3 || a.shape()[0] != count || a.shape()[1] != static_cast<std::size_t>(rows) ||
      a.shape()[2] != static_cast<std::size_t>(cols)) {
    throw ShapeError(function,
                     std::string(what) + " must have shape (" + std::to_string(count) + ", " + std::to_string(rows) +
                         ", " + std::to_string(cols) + ")",
                     shape_string(a));
  }
}

template <class T>
void require_finite(const char* function, const char* what, const xt::xarray<T>& a, int rows, int cols) {
  parallel_for(static_cast<std::ptrdiff_t>(a.shape()[0]), 2.0 * rows * cols, [&](std::ptrdiff_t i) {
    if (!item(a, i, rows, cols).allFinite()) {
      throw DomainError(function, std::string(what) + " of " + item_string(i) + " has a non-finite entry (NaN or Inf)",
                        "NaN/Inf");
    }
  });
}

}  // namespace

template <class T>
void batched_qr(const xt::xarray<T>& a, BatchedQr<T>& out) {
  // a held by out would be resized or overwritten while it is read: new arrays, then moved in.
  if (&a == &out.q || &a == &out.r) {
    BatchedQr<T> fresh;
    batched_qr(a, fresh);
    out = std::move(fresh);
    return;
  }
  if (a.dimension() != 3 || a.shape()[1] < a.shape()[2]) {
    throw ShapeError(kForward, "input must be a (B, n, p) array with n ≥ p", shape_string(a));
  }
  const auto count = static_cast<std::ptrdiff_t>(a.shape()[0]);
  const int n = static_cast<int>(a.shape()[1]);
  const int p = static_cast<int>(a.shape()[2]);
  const bool checks = checks_enabled();
  if (checks) require_finite(kForward, "input", a, n, p);
  // resize keeps the storage when the shape is unchanged: no fresh pages to fault in.
  out.q.resize(a.shape());
  out.r.resize({a.shape()[0], a.shape()[2], a.shape()[2]});
  // A column within n·ε·‖aₖ‖ of the span of the ones before it is numerically dependent.
  const T rank_tolerance = static_cast<T>(n) * std::numeric_limits<T>::epsilon();
  with_work_types<T>(n, p, [&](auto tall, auto square) {
    using Tall = decltype(tall);
    using Square = decltype(square);
    parallel_for(count, 8.0 * n * p * p, [&](std::ptrdiff_t i) {
      // Factorised scaled by 2⁻ᵉ (exact; see scale_exponent): A = Q·(2ᵉ·R̂) when 2⁻ᵉ·A = Q·R̂.
      const int e = scale_exponent(item(a, i, n, p));
      const Tall ai = times_power_of_two(item(a, i, n, p), -e);
      Tall factors = ai;
      Tall q(n, p);
      Square tau(p, 1);
      householder_qr(factors.data(), n, p, tau.data(), q.data());
      Square r = factors.topRows(p).template triangularView<Eigen::Upper>();
      for (int k = 0; k < p; ++k) {
        const T column_norm = ai.col(k).norm();
        if (checks && !(std::abs(r(k, k)) > rank_tolerance * column_norm)) {
          throw DomainError(kForward,
                            "column " + std::to_string(k) + " of " + item_string(i) +
                                " depends on the columns before it: not of full column rank (|Rₖₖ| / ‖aₖ‖)",
                            column_norm > 0 ? std::abs(r(k, k)) / column_norm : T(0));
        }
        // Q·D and D·R with D = diag(±1): the same product, with Rₖₖ > 0.
        if (r(k, k) < 0) {
          r.row(k) = -r.row(k);
          q.col(k) = -q.col(k);
        }
      }
      item(out.q, i, n, p) = q;
      item(out.r, i, p, p) = times_power_of_two(r, e);
    });
  });
}

// ∂L/∂A = (Ḡ_Q + Q·copyutl(S))·R⁻ᵀ with S = Ḡ_R·Rᵀ − QᵀḠ_Q (derived in the header).
template <class T>
void batched_qr_backward(const BatchedQr<T>& qr, const xt::xarray<T>& grad_q,
                         const typename detail::NonDeduced<xt::xarray<T>>::type* grad_r, xt::xarray<T>& grad_a) {
  // grad_a that is an input would be resized or overwritten while it is read: a new array, moved in.
  if (&grad_a == &grad_q || &grad_a == grad_r || &grad_a == &qr.q || &grad_a == &qr.r) {
    xt::xarray<T> fresh;
    batched_qr_backward(qr, grad_q, grad_r, fresh);
    grad_a = std::move(fresh);
    return;
  }
  if (qr.q.dimension() != 3 || qr.r.dimension() != 3 || qr.r.shape()[0] != qr.q.shape()[0] ||
      qr.r.shape()[1] != qr.q.shape()[2] || qr.r.shape()[2] != qr.q.shape()[2]) {
    throw ShapeError(kBackward, "saved factors are not those of a batched_qr (q, r)",
                     shape_string(qr.q) + ", " + shape_string(qr.r));
  }
  const std::size_t count = qr.q.shape()[0];
  const int n = static_cast<int>(qr.q.shape()[1]);
  const int p = static_cast<int>(qr.q.shape()[2]);
  require_shape(kBackward, "gradient with respect to Q", grad_q, count, n, p);
  if (grad_r != nullptr) require_shape(kBackward, "gradient with respect to R", *grad_r, count, p, p);
  const bool checks = checks_enabled();
  if (checks) {
    require_finite(kBackward, "gradient with respect to Q", grad_q, n, p);
    if (grad_r != nullptr) require_finite(kBackward, "gradient with respect to R", *grad_r, p, p);
  }
  grad_a.resize(grad_q.shape());
  const auto nu = static_cast<std::size_t>(n);
  const auto pu = static_cast<std::size_t>(p);
  parallel_for(static_cast<std::ptrdiff_t>(count), 8.0 * n * p * p, [&](std::ptrdiff_t i) {
    const std::size_t iu = static_cast<std::size_t>(i);
    const T* r = qr.r.data() + iu * pu * pu;
    const T* gr = grad_r != nullptr ? grad_r->data() + iu * pu * pu : nullptr;
    T* z = grad_a.data() + iu * nu * pu;
    with_static_width(p, [&](auto width) {
      qr_backward_item<decltype(width)::value>(qr.q.data() + iu * nu * pu, r, grad_q.data() + iu * nu * pu, gr, n, p,
                                               z);
    });
    // Finite factors and gradients can still give an infinite ∂L/∂A: R⁻ᵀ of an A near 1e-300.
    if (checks && !item(grad_a, i, n, p).allFinite()) {
      throw DomainError(kBackward, "∂L/∂A of " + item_string(i) + " overflows (smallest Rₖₖ)",
                        item(qr.r, i, p, p).diagonal().minCoeff());
    }
  });
}

template void batched_qr(const xt::xarray<float>&, BatchedQr<float>&);
template void batched_qr(const xt::xarray<double>&, BatchedQr<double>&);
template void batched_qr_backward(const BatchedQr<float>&, const xt::xarray<float>&, const xt::xarray<float>*,
                                  xt::xarray<float>&);
template void batched_qr_backward(const BatchedQr<double>&, const xt::xarray<double>&, const xt::xarray<double>*,
                                  xt::xarray<double>&);

}  // namespace gyre::linalg
