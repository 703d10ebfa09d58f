#pragma once
// Conjugate gradients on Sym(n) for the self-adjoint positive definite operators of the SPD
// geometries' mean derivatives (affine_invariant_mean_vjp.hpp, SpdBuresWasserstein::
// frechet_mean_vjp): each is a sum over the batch, well conditioned, and applied matrix-free.

#include <limits>

#include "gyre/core/error.hpp"
#include "spd_common.hpp"

namespace gyre::spd {

/// Solves H[x] = rhs on Sym(n) for a self-adjoint positive definite H, stopping at a residual of
/// ε·‖rhs‖ or after 4·dim + 10 steps. DomainError (naming `function`) where a search direction finds
/// H not positive definite: the mean is not a non-degenerate minimum there.
template <class T, class Apply>
[[nodiscard]] Matrix<T> symmetric_conjugate_gradient(const char* function, const Apply& apply_h, const Matrix<T>& rhs) {
  const auto n = static_cast<int>(rhs.rows());
  Matrix<T> x = Matrix<T>::Zero(n, n);
  Matrix<T> r = rhs;
  Matrix<T> p = r;
  T rr = r.squaredNorm();
  const T stop = std::numeric_limits<T>::epsilon() * std::numeric_limits<T>::epsilon() * rr;
  const int budget = 4 * spd_dimension(n) + 10;
  for (int k = 0; k < budget && rr > stop; ++k) {
    const Matrix<T> hp = apply_h(p);
    const T curvature = p.cwiseProduct(hp).sum();
    if (!(curvature > 0)) {
      throw DomainError(function, "the mean's Jacobian is not positive definite (⟨p, H p⟩ of a search direction)",
                        curvature);
    }
    const T alpha = rr / curvature;
    x += alpha * p;
    r -= alpha * hp;
    const T rr_next = r.squaredNorm();
    p = r + (rr_next / rr) * p;
    rr = rr_next;
  }
  return x;
}

}  // namespace gyre::spd
