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
// ============================================================================================

#include "gyre/core/checks.hpp"
#include "log_cholesky.hpp"
#include "spd_common.hpp"

namespace gyre {

/// (SPD(n), ⊙) with P ⊙ Q = expm(log P + log Q).
template <class T>
struct SpdLogEuclideanGroup {
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
};

/// (SPD(n), ⊙) through the Cholesky space: L ⊙ K = ⌊L⌋ + ⌊K⌋ + D(L)D(K).
template <class T>
struct SpdLogCholeskyGroup {
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
};

/// (SPD(n), ⊙) with P ⊙ Q = chol(P)·Q·chol(P)ᵀ.
template <class T>
struct SpdCholeskyGroup {
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
};

}  // namespace gyre
