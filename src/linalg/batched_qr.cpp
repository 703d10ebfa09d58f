#include "gyre/linalg/batched_qr.hpp"

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <utility>

#include <Eigen/QR>

#include "batched_detail.hpp"
#include "gyre/core/checks.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/parallel.hpp"

namespace gyre::linalg {

namespace {

constexpr const char* kForward = "batched_qr";
constexpr const char* kBackward = "batched_qr_backward";

using detail::item;
using detail::item_string;
using detail::multiply;
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
      const Eigen::HouseholderQR<Tall> householder(ai);
      Square r = householder.matrixQR().topRows(p).template triangularView<Eigen::Upper>();
      Tall q = Tall::Identity(n, p);
      householder.householderQ().applyThisOnTheLeft(q);
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
  with_work_types<T>(n, p, [&](auto tall, auto square) {
    using Tall = decltype(tall);
    using Square = decltype(square);
    parallel_for(static_cast<std::ptrdiff_t>(count), 8.0 * n * p * p, [&](std::ptrdiff_t i) {
      const auto q = item(qr.q, i, n, p);
      const auto r = item(qr.r, i, p, p);
      const auto g = item(grad_q, i, n, p);
      Square s = -multiply<Square>(q.transpose(), g);
      if (grad_r != nullptr) s += multiply<Square>(item(*grad_r, i, p, p), r.transpose());
      Square w = s.template triangularView<Eigen::Upper>();
      w.template triangularView<Eigen::StrictlyLower>() = s.transpose();
      Tall z = g + multiply<Tall>(q, w);
      // Z·R⁻ᵀ: the solve of X·Rᵀ = Z, Rᵀ lower triangular.
      r.template triangularView<Eigen::Upper>().transpose().template solveInPlace<Eigen::OnTheRight>(z);
      // Finite factors and gradients can still give an infinite ∂L/∂A: R⁻ᵀ of an A near 1e-300.
      if (checks && !z.allFinite()) {
        throw DomainError(kBackward, "∂L/∂A of " + item_string(i) + " overflows (smallest Rₖₖ)",
                          r.diagonal().minCoeff());
      }
      item(grad_a, i, n, p) = z;
    });
  });
}

template void batched_qr(const xt::xarray<float>&, BatchedQr<float>&);
template void batched_qr(const xt::xarray<double>&, BatchedQr<double>&);
template void batched_qr_backward(const BatchedQr<float>&, const xt::xarray<float>&, const xt::xarray<float>*,
                                  xt::xarray<float>&);
template void batched_qr_backward(const BatchedQr<double>&, const xt::xarray<double>&, const xt::xarray<double>*,
                                  xt::xarray<double>&);

}  // namespace gyre::linalg
