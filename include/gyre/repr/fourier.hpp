#pragma once
// The Fourier transform on the finite groups C_N and D_N, in the basis of Gyre's real irreps:
//   f̂(ψ) = Σ_g f(g)·ψ(g)                                   (a d_ψ × d_ψ matrix per irrep)
//   f(g) = (1/|G|)·Σ_ψ (d_ψ / e_ψ)·tr(ψ(g)ᵀ·f̂(ψ))            (e_ψ = dim End(ψ): 2 for C_N's 2×2 irreps)
// A function is a vector of |G| values in elements() order. The rotation part is one real FFT
// (FFTW) of length N per flip coset — O(|G| log N) instead of O(|G|²) — and the result equals the
// direct sums (fourier_transform_direct) to rounding.

#include <vector>

#include "gyre/core/types.hpp"
#include "gyre/repr/planar_group.hpp"

namespace gyre::repr {

/// f̂(ψ) for every irrep of `group`, in irreps(group) order, computed with FFTW.
[[nodiscard]] std::vector<Matrix<double>> fourier_transform(const PlanarGroup& group, const Vector<double>& f);
/// The same by the defining sum, O(|G|²): the reference the FFT is tested against.
[[nodiscard]] std::vector<Matrix<double>> fourier_transform_direct(const PlanarGroup& group, const Vector<double>& f);
/// f from its coefficients (the inverse of fourier_transform).
[[nodiscard]] Vector<double> inverse_fourier_transform(const PlanarGroup& group,
                                                       const std::vector<Matrix<double>>& coefficients);

}  // namespace gyre::repr
