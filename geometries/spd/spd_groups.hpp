#pragma once
// ============================================================================================
//  The Lie group structures on SPD(n) that LieBN (Chen et al. 2024) normalises with; each one
//  makes the matching metric left-invariant (LEM and LCM: bi-invariant), so "centring" a batch
//  is a group translation that moves its Fréchet mean to the identity without distorting it.
// ============================================================================================
//  SpdLogEuclideanGroup   P ⊙ Q = expm(log P + log Q); identity I; P⁻¹ the matrix inverse.
//                         (SPD, ⊙) ≅ (Sym(n), +) through log. Invariant metric: log-Euclidean.
//  SpdLogCholeskyGroup    in the Cholesky space, L ⊙ K = ⌊L⌋ + ⌊K⌋ + D(L)D(K); identity I;
//                         L⁻¹ = −⌊L⌋ + D(L)⁻¹. Abelian. Invariant metric: log-Cholesky.
//  SpdCholeskyGroup       P ⊙ Q = L Q Lᵀ with L = chol(P): the lower-triangular group acting by
//                         congruence, so (L_P L_Q)(L_P L_Q)ᵀ = P ⊙ Q. Non-abelian; the
//                         affine-invariant metric is left-invariant (d(G⊙P, G⊙Q) = d(P, Q)).
//  Each has identity(n), compose(P, Q), inverse(P); inputs are checked like the geometries'.
//  Derivatives: compose_vjp and inverse_vjp (gyre/core/group_derivatives.hpp), the Euclidean
//  gradients in P's and Q's entries for symmetric variations; the formula is next to each.
// ============================================================================================

#include "gyre/core/checks.hpp"
#include "gyre/core/group_derivatives.hpp"
#include "log_cholesky.hpp"
#include "spd_common.hpp"
#include "spd_group_derivatives.hpp"

namespace gyre {

/// (SPD(n), ⊙) with P ⊙ Q = expm(log P + log Q).
template <class T>
struct SpdLogEuclideanGroup {
  using Scalar = T;
  using Point = Matrix<T>;
  int n;
  [[nodiscard]] Matrix<T> identity() const { return Matrix<T>::Identity(n, n); }
  [[nodiscard]] Matrix<T> compose(const Matrix<T>& p, const Matrix<T>& q) const {
    if (checks_enabled()) {
      spd::check_spd("SpdLogEuclideanGroup::compose", p, n);
      spd::check_spd("SpdLogEuclideanGroup::compose", q, n);
    }
    return linalg::symmetric_exp<T>(linalg::spd_log<T>(p) + linalg::spd_log<T>(q));
  }
  [[nodiscard]] Matrix<T> inverse(const Matrix<T>& p) const {
    if (checks_enabled()) spd::check_spd("SpdLogEuclideanGroup::inverse", p, n);
    return linalg::spd_power<T>(p, -1.0);
  }
  // Daleckii–Krein through expm and logm, and d(P⁻¹) = −P⁻¹dPP⁻¹ (spd_group_derivatives.hpp).
  [[nodiscard]] ComposeVjp<Point> compose_vjp(const Point& p, const Point& q, const Point& g) const {
    return spd::log_sum_vjp<T>("SpdLogEuclideanGroup::compose_vjp", p, q, g, n);
  }
  [[nodiscard]] Point inverse_vjp(const Point& p, const Point& g) const {
    return spd::matrix_inverse_vjp<T>("SpdLogEuclideanGroup::inverse_vjp", p, g, n);
  }
};

/// (SPD(n), ⊙) through the Cholesky space: L ⊙ K = ⌊L⌋ + ⌊K⌋ + D(L)D(K).
template <class T>
struct SpdLogCholeskyGroup {
  using Scalar = T;
  using Point = Matrix<T>;
  int n;
  [[nodiscard]] Matrix<T> identity() const { return Matrix<T>::Identity(n, n); }
  [[nodiscard]] Matrix<T> compose(const Matrix<T>& p, const Matrix<T>& q) const {
    if (checks_enabled()) {
      spd::check_spd("SpdLogCholeskyGroup::compose", p, n);
      spd::check_spd("SpdLogCholeskyGroup::compose", q, n);
    }
    const Matrix<T> l = spd::cholesky_factor<T>("SpdLogCholeskyGroup::compose", p);
    const Matrix<T> k = spd::cholesky_factor<T>("SpdLogCholeskyGroup::compose", q);
    Matrix<T> c = spd::strictly_lower<T>(l) + spd::strictly_lower<T>(k);
    c.diagonal() = l.diagonal().cwiseProduct(k.diagonal());
    return linalg::symmetric_part<T>(c * c.transpose());
  }
  [[nodiscard]] Matrix<T> inverse(const Matrix<T>& p) const {
    if (checks_enabled()) spd::check_spd("SpdLogCholeskyGroup::inverse", p, n);
    const Matrix<T> l = spd::cholesky_factor<T>("SpdLogCholeskyGroup::inverse", p);
    Matrix<T> c = -spd::strictly_lower<T>(l);
    c.diagonal() = l.diagonal().cwiseInverse();
    return linalg::symmetric_part<T>(c * c.transpose());
  }
  // Through the Cholesky space (log_cholesky.hpp): the inverse is the power t = −1 there.
  [[nodiscard]] ComposeVjp<Point> compose_vjp(const Point& p, const Point& q, const Point& g) const {
    return spd::cholesky_group_product_vjp<T>("SpdLogCholeskyGroup::compose_vjp", p, q, g, n);
  }
  [[nodiscard]] Point inverse_vjp(const Point& p, const Point& g) const {
    return spd::cholesky_group_power_vjp<T>("SpdLogCholeskyGroup::inverse_vjp", T(-1), p, g, n).a;
  }
};

/// (SPD(n), ⊙) with P ⊙ Q = chol(P)·Q·chol(P)ᵀ.
template <class T>
struct SpdCholeskyGroup {
  using Scalar = T;
  using Point = Matrix<T>;
  int n;
  [[nodiscard]] Matrix<T> identity() const { return Matrix<T>::Identity(n, n); }
  [[nodiscard]] Matrix<T> compose(const Matrix<T>& p, const Matrix<T>& q) const {
    if (checks_enabled()) {
      spd::check_spd("SpdCholeskyGroup::compose", p, n);
      spd::check_spd("SpdCholeskyGroup::compose", q, n);
    }
    const Matrix<T> l = spd::cholesky_factor<T>("SpdCholeskyGroup::compose", p);
    return linalg::symmetric_part<T>(l * q * l.transpose());
  }
  [[nodiscard]] Matrix<T> inverse(const Matrix<T>& p) const {
    if (checks_enabled()) spd::check_spd("SpdCholeskyGroup::inverse", p, n);
    const Matrix<T> l = spd::cholesky_factor<T>("SpdCholeskyGroup::inverse", p);
    const Matrix<T> l_inv = l.template triangularView<Eigen::Lower>().solve(Matrix<T>::Identity(n, n));
    return linalg::symmetric_part<T>(l_inv * l_inv.transpose());
  }
  // P ⊙ Q = L·Q·Lᵀ: ∂Q = sym(Lᵀ·G·L) and L̄ = (G + Gᵀ)·L·Q, taken to P by the Cholesky backward
  // pass (spd::cholesky_backward, the adjoint of dL = L·(L⁻¹ dP L⁻ᵀ)_½).
  [[nodiscard]] ComposeVjp<Point> compose_vjp(const Point& p, const Point& q, const Point& g) const {
    if (checks_enabled()) {
      spd::check_two_points("SpdCholeskyGroup::compose_vjp", p, q, n);
      spd::check_cotangent("SpdCholeskyGroup::compose_vjp", g, n);
    }
    const Matrix<T> l = spd::cholesky_factor<T>("SpdCholeskyGroup::compose_vjp", p);
    return {spd::cholesky_backward<T>(l, Matrix<T>((g + g.transpose()) * l * q)),
            linalg::symmetric_part<T>(l.transpose() * g * l)};
  }
  // P⁻¹ = M·Mᵀ with M = L⁻¹: M̄ = (G + Gᵀ)·M and dM = −M·dL·M, so L̄ = −Mᵀ·M̄·Mᵀ.
  [[nodiscard]] Point inverse_vjp(const Point& p, const Point& g) const {
    if (checks_enabled()) {
      spd::check_spd("SpdCholeskyGroup::inverse_vjp", p, n);
      spd::check_cotangent("SpdCholeskyGroup::inverse_vjp", g, n);
    }
    const Matrix<T> l = spd::cholesky_factor<T>("SpdCholeskyGroup::inverse_vjp", p);
    const Matrix<T> m = l.template triangularView<Eigen::Lower>().solve(Matrix<T>::Identity(n, n));
    return spd::cholesky_backward<T>(l, Matrix<T>(-m.transpose() * (g + g.transpose()) * m * m.transpose()));
  }
};

}  // namespace gyre
