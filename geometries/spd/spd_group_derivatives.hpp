#pragma once
// The VJPs (gyre/core/group_derivatives.hpp) of the SPD group operations that several structures
// share: the matrix inverse P⁻¹ (⊖ of the affine-invariant and log-Euclidean gyrogroups, the
// inverse of the log-Euclidean Lie group), the power P^t (their ⊗) and the log-Euclidean product
// expm(log P + log Q). All through Daleckii–Krein (gyre/linalg/symmetric_functions.hpp): for a
// spectral function f, Df(P) is self-adjoint for the trace pairing, so the backward pass of
// P ↦ f(P) is G ↦ Df(P)[sym G] (sym: P moves in Sym(n), so only G's symmetric part is seen).
// Each validates its inputs as the operation does (checks on), naming `function`, plus the
// cotangent. The log-Cholesky group's derivatives live with the Cholesky space (log_cholesky.hpp).

#include <cmath>

#include "gyre/core/checks.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/group_derivatives.hpp"
#include "gyre/linalg/symmetric_functions.hpp"
#include "spd_common.hpp"

namespace gyre::spd {

/// Validates the inputs of a VJP of t ⊗ P (checks on): P SPD, t finite, G an n×n finite cotangent.
template <class T>
void check_scale_vjp_inputs(const char* function, T t, const Matrix<T>& p, const Matrix<T>& g, int n) {
  if (!checks_enabled()) return;
  check_spd(function, p, n);
  if (!std::isfinite(t)) throw DomainError(function, "scalar must be finite", t);
  check_cotangent(function, g, n);
}

/// ∂L/∂P of P⁻¹: Dx⁻¹(P)[sym G], i.e. −P⁻¹·sym(G)·P⁻¹ (the divided differences of x⁻¹ are
/// −1/(λᵢλⱼ)).
template <class T>
[[nodiscard]] Matrix<T> matrix_inverse_vjp(const char* function, const Matrix<T>& p, const Matrix<T>& g, int n) {
  if (checks_enabled()) {
    check_spd(function, p, n);
    check_cotangent(function, g, n);
  }
  return linalg::frechet_derivative(linalg::symmetric_eigen<T>(p), linalg::Power{-1.0}, linalg::symmetric_part<T>(g));
}

/// ∂L/∂t and ∂L/∂P of P^t = U·diag(λᵢᵗ)·Uᵀ: ∂P = Dxᵗ(P)[sym G]; d/dt P^t = P^t·log P, so
/// ∂t = ⟨sym G, U·diag(λᵢᵗ log λᵢ)·Uᵀ⟩ = Σᵢ (Uᵀ·sym G·U)ᵢᵢ·λᵢᵗ log λᵢ.
template <class T>
[[nodiscard]] GyroScaleVjp<T, Matrix<T>> matrix_power_vjp(const char* function, T t, const Matrix<T>& p,
                                                          const Matrix<T>& g, int n) {
  check_scale_vjp_inputs(function, t, p, g, n);
  const linalg::SymmetricEigen<T> e = linalg::symmetric_eigen<T>(p);
  const Matrix<T> s = linalg::symmetric_part<T>(g);
  const Vector<T> rotated = (e.vectors.transpose() * s * e.vectors).diagonal();
  T grad_t = 0;
  for (Eigen::Index i = 0; i < rotated.size(); ++i) {
    grad_t += rotated(i) * std::pow(e.values(i), t) * std::log(e.values(i));
  }
  return {grad_t, linalg::frechet_derivative(e, linalg::Power{static_cast<double>(t)}, s)};
}

/// ∂L/∂P and ∂L/∂Q of expm(log P + log Q): with Ā = Dexp(log P + log Q)[sym G],
/// ∂P = Dlog(P)[Ā] and ∂Q = Dlog(Q)[Ā].
template <class T>
[[nodiscard]] ComposeVjp<Matrix<T>> log_sum_vjp(const char* function, const Matrix<T>& p, const Matrix<T>& q,
                                                const Matrix<T>& g, int n) {
  if (checks_enabled()) {
    check_two_points(function, p, q, n);
    check_cotangent(function, g, n);
  }
  const linalg::SymmetricEigen<T> ep = linalg::symmetric_eigen<T>(p);
  const linalg::SymmetricEigen<T> eq = linalg::symmetric_eigen<T>(q);
  const linalg::SymmetricEigen<T> sum = linalg::symmetric_eigen<T>(
      linalg::symmetric_part<T>(Matrix<T>(linalg::apply(ep, linalg::Log{}) + linalg::apply(eq, linalg::Log{}))));
  const Matrix<T> grad_sum = linalg::frechet_derivative(sum, linalg::Exp{}, linalg::symmetric_part<T>(g));
  return {linalg::frechet_derivative(ep, linalg::Log{}, grad_sum),
          linalg::frechet_derivative(eq, linalg::Log{}, grad_sum)};
}

}  // namespace gyre::spd
