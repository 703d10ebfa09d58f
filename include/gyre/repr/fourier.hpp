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

namespace gyre::repr {

/// The Fourier transform of a batch of functions on C_N or D_N, packed in |G| reals per function,
/// with FFTW plans over the whole batch (fftw for double, fftwf for float).
/// Packing, irrep by irrep in irreps(group) order: a 1×1 irrep's coefficient; a 2×2 irrep of C_N
/// (whose coefficients are c·I + s·J) its first column (c, s); a 2×2 irrep of D_N its four entries
/// row-major. forward() equals fourier_transform() packed; inverse() inverts it.
template <class T>
class GroupFourierTransform {
 public:
  /// Throws DomainError unless `group` is C_N or D_N.
  explicit GroupFourierTransform(PlanarGroup group);

  [[nodiscard]] const PlanarGroup& group() const noexcept { return group_; }
  /// |G|: values per function and packed coefficients per function.
  [[nodiscard]] int size() const noexcept { return group_.order(); }
  /// signals: `batch` rows of |G| values; coefficients: `batch` rows of |G| packed coefficients.
  void forward(const T* signals, T* coefficients, std::size_t batch) const;
  void inverse(const T* coefficients, T* signals, std::size_t batch) const;

 private:
  PlanarGroup group_;
};

extern template class GroupFourierTransform<float>;
extern template class GroupFourierTransform<double>;

}  // namespace gyre::repr
