#pragma once
// ============================================================================================
//  The derivative of the matrix exponential at a skew-symmetric Ω, its adjoint and its inverse:
//  the backward passes of exp and log on rotation groups (and of anything that calls expm on a
//  skew matrix).
// ============================================================================================
//  Ω is normal: iΩ is Hermitian, iΩ = U·diag(μ)·U*, so Ω = U·diag(−iμ)·U* and Daleckii–Krein
//  holds as for symmetric matrices (Bhatia, Matrix Analysis, V.3):
//    Dexp(Ω)[H]  = U·(Γ ∘ (U*HU))·U*,   Γⱼₖ = exp[−iμⱼ, −iμₖ] = e^{−i(μⱼ+μₖ)/2}·sinc((μⱼ − μₖ)/2)
//  (the divided difference in a form without cancellation). For the real trace pairing the
//  adjoint swaps Γ for its conjugate; the inverse divides by Γ, which vanishes only where
//  μⱼ − μₖ = ±2π (a rotation angle of π: the cut locus, where log is not differentiable).
// ============================================================================================

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <cmath>
#include <complex>
#include <limits>

#include <Eigen/Eigenvalues>

#include "gyre/core/error.hpp"
#include "gyre/core/scalar_functions.hpp"
#include "gyre/core/types.hpp"
#include "gyre/linalg/eigen_convergence.hpp"

namespace gyre::linalg {

/// Ω = U·diag(−iμ)·U* for a real skew-symmetric Ω, and the divided differences Γ of exp there.
template <class T>
struct SkewSpectrum {
  using Complex = std::complex<T>;
  using ComplexMatrix = Eigen::Matrix<Complex, Eigen::Dynamic, Eigen::Dynamic>;
  ComplexMatrix u;
  ComplexMatrix gamma;

  explicit SkewSpectrum(const Matrix<T>& omega) {
    const ComplexMatrix hermitian = omega.template cast<Complex>() * Complex(0, 1);
    const Eigen::SelfAdjointEigenSolver<ComplexMatrix> solver(hermitian, Eigen::ComputeEigenvectors);
    require_eigen_converged(solver, "SkewSpectrum", omega);
    u = solver.eigenvectors();
    const auto& mu = solver.eigenvalues();
    const Eigen::Index n = mu.size();
    gamma.resize(n, n);
    for (Eigen::Index j = 0; j < n; ++j) {
      for (Eigen::Index k = 0; k < n; ++k) {
        gamma(j, k) = sinc((mu(j) - mu(k)) / 2) * std::exp(Complex(0, -(mu(j) + mu(k)) / 2));
      }
    }
  }
};

/// Dexp(Ω)*[G]: the gradient with respect to Ω of ⟨G, expm(Ω)⟩ (real G, real result).
template <class T>
[[nodiscard]] Matrix<T> expm_derivative_adjoint(const SkewSpectrum<T>& s, const Matrix<T>& g) {
  using ComplexMatrix = typename SkewSpectrum<T>::ComplexMatrix;
  const ComplexMatrix inner = s.u.adjoint() * g.template cast<std::complex<T>>() * s.u;
  return (s.u * ComplexMatrix(s.gamma.conjugate().cwiseProduct(inner)) * s.u.adjoint()).real();
}

/// (Dexp(Ω)*)⁻¹[G]: the gradient with respect to Z = expm(Ω) of ⟨G, Ω⟩ where Ω = logm(Z) is the
/// principal logarithm. DomainError where Γ vanishes (rotation angle π).
template <class T>
[[nodiscard]] Matrix<T> expm_derivative_adjoint_inverse(const SkewSpectrum<T>& s, const Matrix<T>& g) {
  using ComplexMatrix = typename SkewSpectrum<T>::ComplexMatrix;
  const T smallest = s.gamma.cwiseAbs().minCoeff();
  if (!(smallest > 16 * std::numeric_limits<T>::epsilon())) {
    throw DomainError("expm_derivative_adjoint_inverse",
                      "log is not differentiable at a rotation by π (smallest divided difference)", smallest);
  }
  const ComplexMatrix inner = s.u.adjoint() * g.template cast<std::complex<T>>() * s.u;
  return (s.u * ComplexMatrix(inner.cwiseQuotient(s.gamma.conjugate())) * s.u.adjoint()).real();
}

}  // namespace gyre::linalg
