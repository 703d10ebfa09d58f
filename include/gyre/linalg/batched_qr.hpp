#pragma once
// ============================================================================================
//  Thin QR factorisations of many tall matrices at once, forward and backward: the
//  re-orthonormalisation (ReOrth) layer of GrNet (Huang et al. 2018), which maps the n×p output
//  of a full-rank mapping back to an orthonormal basis of its column space.
// ============================================================================================
//  Forward   A = Q·R per item, A n×p with n ≥ p and rank p, Q n×p with QᵀQ = I, R p×p upper
//            triangular with a positive diagonal: the one factorisation with that sign
//            convention (Householder QR as LAPACK's geqrf/orgqr compute it, written out for small
//            items, then the signs of the rows of R and the columns of Q flipped together where
//            Rₖₖ < 0).
//  Backward  given Ḡ_Q = ∂L/∂Q and optionally Ḡ_R = ∂L/∂R,
//                ∂L/∂A = (Ḡ_Q + Q·copyutl(Ḡ_R·Rᵀ − QᵀḠ_Q))·R⁻ᵀ,
//            copyutl(S) = triu(S) + triu(S, 1)ᵀ, the symmetric matrix with S's upper triangle.
//            Derivation: dA = dQ·R + Q·dR and X := Qᵀ·dA·R⁻¹ = C + dR·R⁻¹ with C = Qᵀ·dQ
//            antisymmetric (QᵀQ = I) and dR·R⁻¹ upper triangular, so C = tril(X, −1) −
//            tril(X, −1)ᵀ, dR = (X − C)·R and dQ = dA·R⁻¹ − Q·(X − C). Then
//            dL = ⟨Ḡ_Q, dQ⟩ + ⟨Ḡ_R, dR⟩ = ⟨Ḡ_Q·R⁻ᵀ, dA⟩ + ⟨S − tril(S − Sᵀ, −1), X⟩ with
//            S = Ḡ_R·Rᵀ − QᵀḠ_Q, and S − tril(S − Sᵀ, −1) = copyutl(S); ⟨W, X⟩ = ⟨Q·W·R⁻ᵀ, dA⟩.
//            This is the formula of Walter & Lehmann (2018) and Seeger et al. (2017) (their
//            copyltu(Sᵀ) is our copyutl(S)). Note that the antisymmetric variant
//            (Ḡ_Q + Q·(tril(M, −1)ᵀ − tril(M, −1)))·R⁻ᵀ with M = QᵀḠ_Q is NOT the gradient (it
//            is off by about 80% in a finite-difference check). Only the upper triangle of Ḡ_R
//            matters (R's lower triangle is constant), and the tests check all of it against
//            central differences.
//  Layout    A and Q: (B, n, p); R: (B, p, p); row-major items back to back (xtensor).
//  Storage   the overloads that write into the caller's arrays reuse them when the shapes do not
//            change (fresh pages are costly; see batched_spectral_function.hpp); an output that is
//            also an input gets a new array instead.
//  Checks    (on unless gyre::ChecksOff) every item finite and of full column rank: column k of
//            an item counts as dependent when |Rₖₖ| ≤ n·ε·‖aₖ‖, i.e. within the backward error
//            of Householder QR (columnwise, Higham 2002, Thm 19.4) of the span of the columns
//            before it; then Q's column k is rounding noise and ∂L/∂A does not exist. Backward:
//            the gradients and ∂L/∂A finite (R⁻ᵀ of a tiny A can overflow). Shapes are always
//            checked. Errors name the item and the column.
//  Range     each item is scaled by a power of two (exactly) before it is factorised, so entries
//            anywhere in the normal range work (Householder vectors square them).
//  Conditioning  backward divides by R: its error grows like κ(A)·ε.
// ============================================================================================

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <xtensor/xarray.hpp>

namespace gyre::linalg {

namespace detail {
// Keeps a parameter out of template argument deduction, so that a plain nullptr can be passed.
template <class T>
struct NonDeduced {
  using type = T;
};
}  // namespace detail

/// A batch of thin QR factorisations A[b] = q[b]·r[b] with positive diag(r[b]).
template <class T>
struct BatchedQr {
  xt::xarray<T> q;  ///< (B, n, p), orthonormal columns
  xt::xarray<T> r;  ///< (B, p, p), upper triangular, positive diagonal
};

/// The thin QR factorisations of a (B, n, p) batch, n ≥ p, into out (whose arrays keep their
/// storage when their shapes do not change). Throws ShapeError for another shape or n < p,
/// DomainError for an item that is not finite or not of full column rank.
template <class T>
void batched_qr(const xt::xarray<T>& a, BatchedQr<T>& out);

/// The thin QR factorisations of a (B, n, p) batch as new arrays.
template <class T>
[[nodiscard]] BatchedQr<T> batched_qr(const xt::xarray<T>& a) {
  BatchedQr<T> out;
  batched_qr(a, out);
  return out;
}

/// ∂L/∂A into grad_a (storage kept as above), given grad_q = ∂L/∂Q of shape (B, n, p) and, unless
/// null, grad_r = ∂L/∂R of shape (B, p, p) (null: L depends on Q only).
template <class T>
void batched_qr_backward(const BatchedQr<T>& qr, const xt::xarray<T>& grad_q,
                         const typename detail::NonDeduced<xt::xarray<T>>::type* grad_r, xt::xarray<T>& grad_a);

/// ∂L/∂A for L depending on Q only, given grad_q = ∂L/∂Q of shape (B, n, p).
template <class T>
[[nodiscard]] xt::xarray<T> batched_qr_backward(const BatchedQr<T>& qr, const xt::xarray<T>& grad_q) {
  xt::xarray<T> grad_a;
  batched_qr_backward(qr, grad_q, nullptr, grad_a);
  return grad_a;
}

/// ∂L/∂A for L depending on Q and R, given grad_q = ∂L/∂Q (B, n, p) and grad_r = ∂L/∂R (B, p, p).
template <class T>
[[nodiscard]] xt::xarray<T> batched_qr_backward(const BatchedQr<T>& qr, const xt::xarray<T>& grad_q,
                                                const xt::xarray<T>& grad_r) {
  xt::xarray<T> grad_a;
  batched_qr_backward(qr, grad_q, &grad_r, grad_a);
  return grad_a;
}

extern template void batched_qr(const xt::xarray<float>&, BatchedQr<float>&);
extern template void batched_qr(const xt::xarray<double>&, BatchedQr<double>&);
extern template void batched_qr_backward(const BatchedQr<float>&, const xt::xarray<float>&, const xt::xarray<float>*,
                                         xt::xarray<float>&);
extern template void batched_qr_backward(const BatchedQr<double>&, const xt::xarray<double>&, const xt::xarray<double>*,
                                         xt::xarray<double>&);

}  // namespace gyre::linalg
