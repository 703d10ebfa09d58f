#pragma once
// ============================================================================================
//  Spectral functions of many small symmetric matrices at once, forward and backward: the
//  kernels under SPDNet's ReEig and LogEig layers (Huang & Van Gool 2017) and their relatives
//  (ExpEig, PowEig, the square roots of whitening layers).
// ============================================================================================
//  Forward   X = U·diag(λ)·Uᵀ  ↦  Y = U·diag(f(λ))·Uᵀ, per item, for f one of the functors of
//            symmetric_functions.hpp: Rectify{ε} (max(λ, ε), SPDNet's ReEig), Log, Exp,
//            Power{p}, Sqrt, InverseSqrt. The eigendecompositions go to batched_symmetric_eigen
//            (SIMD Jacobi up to n = 12, Eigen's solver above). Y is symmetrised, (Y + Yᵀ)/2.
//  Saved     U, λ and f(λ) per item: all that backward needs, so a layer calls forward once per
//            input and keeps the result for its backward pass.
//  Storage   the overloads that write into the caller's arrays reuse them when the shapes do not
//            change (an output that is also an input gets a new array instead). Fresh pages cost: with new arrays per call, faulting them in took half the
//            time of forward + backward at n = 30 (B = 1000, one core of a virtual machine).
//  Backward  given G = ∂L/∂Y, the Daleckii–Krein formula (Bhatia, Matrix Analysis, Thm V.3.3)
//                ∂L/∂X = U·(K ∘ (Uᵀ·sym(G)·U))·Uᵀ,   sym(G) = (G + Gᵀ)/2,
//                Kᵢⱼ = f[λᵢ, λⱼ] = (f(λᵢ) − f(λⱼ))/(λᵢ − λⱼ),  Kᵢᵢ = f′(λᵢ).
//            X is symmetric, so its gradient is too: ⟨∂L/∂X, H⟩ is the derivative of L along
//            every symmetric H, and ∂L/∂X is the symmetric matrix that says so.
//            K comes from the functors' divided(): forms that keep full relative accuracy for
//            equal, nearly equal and far apart eigenvalues (log1p for Log, expm1 for Exp and
//            Power, exact rationalisations for Sqrt and InverseSqrt), never the textbook
//            quotient, which loses every digit as λᵢ → λⱼ. Unlike SPDNet's code, which sets Kᵢⱼ
//            to 0 for exactly equal eigenvalues and divides by λᵢ − λⱼ otherwise, this is the
//            derivative at repeated eigenvalues too (the Daleckii–Krein formula needs no gap).
//  Rectify   derivative 1 where λ > ε and 0 where λ ≤ ε (SPDNet's convention at the kink, a
//            subgradient); straddling pairs get the exact quotient (max(λᵢ, ε) − max(λⱼ, ε))/(λᵢ − λⱼ).
//  Layout    X: (B, n, n) row-major items back to back (xtensor); values and f(λ): (B, n),
//            eigenvalues ascending; vectors: (B, n, n), the eigenvectors as columns.
//  Checks    (on unless gyre::ChecksOff) every item finite and symmetric to √ε relative to its
//            largest entry; for Log, Power, Sqrt and InverseSqrt every eigenvalue > 0; f(λ)
//            finite (Exp of λ > 709 overflows); backward, ∂L/∂Y and ∂L/∂X finite (Log′ of λ = 1e-300
//            is 1e300). Shapes are always checked. Errors name the item.
//  Range     each item is scaled by a power of two (exactly) before it is decomposed, so entries
//            anywhere in the normal range work (the solver's stopping test squares them).
//  Scalars   float and double, with every functor above (instantiated in the library).
// ============================================================================================

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <xtensor/xarray.hpp>

#include "gyre/linalg/symmetric_functions.hpp"

namespace gyre::linalg {

/// What the backward pass of a batched spectral function needs: X[b] = vectors[b]·diag(values[b])·vectors[b]ᵀ.
template <class T>
struct SpectralSaved {
  xt::xarray<T> vectors;  ///< (B, n, n): the eigenvectors of each item as columns
  xt::xarray<T> values;   ///< (B, n): the eigenvalues of each item, ascending
  xt::xarray<T> mapped;   ///< (B, n): f(values)
};

/// The value of a batched spectral function with its saved state.
template <class T>
struct SpectralForward {
  xt::xarray<T> value;  ///< (B, n, n): Y[b] = U·diag(f(λ))·Uᵀ
  SpectralSaved<T> saved;
};

/// Y[b] = f(X[b]) for a (B, n, n) batch of symmetric matrices, with the state for backward,
/// written into out (whose arrays keep their storage when their shapes do not change; if out holds
/// x, out gets new arrays). Throws ShapeError for a batch that is not (B, n, n), DomainError for an item that
/// is not finite, not symmetric, or outside f's domain (see the header).
template <class T, class F>
void batched_spectral_function(const xt::xarray<T>& x, const F& f, SpectralForward<T>& out);

/// Y[b] = f(X[b]) with the state for backward, as a new value.
template <class T, class F>
[[nodiscard]] SpectralForward<T> batched_spectral_function(const xt::xarray<T>& x, const F& f) {
  SpectralForward<T> out;
  batched_spectral_function(x, f, out);
  return out;
}

/// ∂L/∂X[b] = U·(K ∘ (Uᵀ·sym(G[b])·U))·Uᵀ into grad_x (storage kept as above; new if an input), given
/// grad_y = ∂L/∂Y, (B, n, n) as the forward's value. The result is symmetric. Throws ShapeError
/// if grad_y does not match, DomainError if it is not finite.
template <class T, class F>
void batched_spectral_function_backward(const SpectralSaved<T>& saved, const F& f, const xt::xarray<T>& grad_y,
                                        xt::xarray<T>& grad_x);

/// ∂L/∂X as a new array.
template <class T, class F>
[[nodiscard]] xt::xarray<T> batched_spectral_function_backward(const SpectralSaved<T>& saved, const F& f,
                                                               const xt::xarray<T>& grad_y) {
  xt::xarray<T> grad_x;
  batched_spectral_function_backward(saved, f, grad_y, grad_x);
  return grad_x;
}

// The instantiations libgyre provides.
extern template void batched_spectral_function(const xt::xarray<float>&, const Rectify&, SpectralForward<float>&);
extern template void batched_spectral_function(const xt::xarray<float>&, const Log&, SpectralForward<float>&);
extern template void batched_spectral_function(const xt::xarray<float>&, const Exp&, SpectralForward<float>&);
extern template void batched_spectral_function(const xt::xarray<float>&, const Power&, SpectralForward<float>&);
extern template void batched_spectral_function(const xt::xarray<float>&, const Sqrt&, SpectralForward<float>&);
extern template void batched_spectral_function(const xt::xarray<float>&, const InverseSqrt&, SpectralForward<float>&);
extern template void batched_spectral_function(const xt::xarray<double>&, const Rectify&, SpectralForward<double>&);
extern template void batched_spectral_function(const xt::xarray<double>&, const Log&, SpectralForward<double>&);
extern template void batched_spectral_function(const xt::xarray<double>&, const Exp&, SpectralForward<double>&);
extern template void batched_spectral_function(const xt::xarray<double>&, const Power&, SpectralForward<double>&);
extern template void batched_spectral_function(const xt::xarray<double>&, const Sqrt&, SpectralForward<double>&);
extern template void batched_spectral_function(const xt::xarray<double>&, const InverseSqrt&, SpectralForward<double>&);

extern template void batched_spectral_function_backward(const SpectralSaved<float>&, const Rectify&,
                                                        const xt::xarray<float>&, xt::xarray<float>&);
extern template void batched_spectral_function_backward(const SpectralSaved<float>&, const Log&,
                                                        const xt::xarray<float>&, xt::xarray<float>&);
extern template void batched_spectral_function_backward(const SpectralSaved<float>&, const Exp&,
                                                        const xt::xarray<float>&, xt::xarray<float>&);
extern template void batched_spectral_function_backward(const SpectralSaved<float>&, const Power&,
                                                        const xt::xarray<float>&, xt::xarray<float>&);
extern template void batched_spectral_function_backward(const SpectralSaved<float>&, const Sqrt&,
                                                        const xt::xarray<float>&, xt::xarray<float>&);
extern template void batched_spectral_function_backward(const SpectralSaved<float>&, const InverseSqrt&,
                                                        const xt::xarray<float>&, xt::xarray<float>&);
extern template void batched_spectral_function_backward(const SpectralSaved<double>&, const Rectify&,
                                                        const xt::xarray<double>&, xt::xarray<double>&);
extern template void batched_spectral_function_backward(const SpectralSaved<double>&, const Log&,
                                                        const xt::xarray<double>&, xt::xarray<double>&);
extern template void batched_spectral_function_backward(const SpectralSaved<double>&, const Exp&,
                                                        const xt::xarray<double>&, xt::xarray<double>&);
extern template void batched_spectral_function_backward(const SpectralSaved<double>&, const Power&,
                                                        const xt::xarray<double>&, xt::xarray<double>&);
extern template void batched_spectral_function_backward(const SpectralSaved<double>&, const Sqrt&,
                                                        const xt::xarray<double>&, xt::xarray<double>&);
extern template void batched_spectral_function_backward(const SpectralSaved<double>&, const InverseSqrt&,
                                                        const xt::xarray<double>&, xt::xarray<double>&);

}  // namespace gyre::linalg
