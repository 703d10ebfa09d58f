#pragma once
// What every SPD(n) metric shares: the one definition of a valid point and tangent vector, the
// sampling of points, and the orthonormal sampling of symmetric matrices under the O(n)-invariant
// inner products ⟨A, B⟩^(α,β) = α·tr(AB) + β·tr(A)·tr(B) (α > 0, α + nβ > 0) of the LieBN paper
// (Chen et al. 2024), which the affine-invariant and log-Euclidean metrics are built on.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <cmath>
#include <string>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/QR>

#include "gyre/core/checks.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/core/types.hpp"
#include "gyre/core/validate.hpp"
#include "gyre/core/weights.hpp"
#include "gyre/linalg/eigen_convergence.hpp"
#include "gyre/linalg/haar.hpp"
#include "gyre/linalg/symmetric_functions.hpp"

namespace gyre::spd {

/// The O(n)-invariant inner product on symmetric matrices, α·tr(AB) + β·tr(A)·tr(B).
struct AlphaBeta {
  double alpha = 1;
  double beta = 0;
};

/// Throws DomainError unless α > 0 and α + nβ > 0 (the inner product is then positive definite).
inline void check_alpha_beta(const char* function, const AlphaBeta& ab, int n) {
  if (!(ab.alpha > 0) || !std::isfinite(ab.alpha)) throw DomainError(function, "alpha must be > 0", ab.alpha);
  if (!(ab.alpha + n * ab.beta > 0) || !std::isfinite(ab.beta)) {
    throw DomainError(function, "alpha + n·beta must be > 0 (beta)", ab.beta);
  }
}

/// α·tr(AB) + β·tr(A)·tr(B) for symmetric A, B.
template <class T>
[[nodiscard]] T alpha_beta_inner(const AlphaBeta& ab, const Matrix<T>& a, const Matrix<T>& b) {
  return static_cast<T>(ab.alpha) * a.cwiseProduct(b).sum() + static_cast<T>(ab.beta) * a.trace() * b.trace();
}

/// Throws ShapeError / DomainError unless p is an n×n finite symmetric matrix whose smallest
/// eigenvalue is positive; the message names that eigenvalue.
template <class T>
void check_spd(const char* function, const Matrix<T>& p, int n) {
  require_shape(function, "SPD point", p, n, n);
  require_finite(function, "SPD point", p);
  const T scale = std::max(T(1), p.cwiseAbs().maxCoeff());
  require_small(function, "point is not symmetric (max |P − Pᵀ| / max(1, max |P|))",
                (p - p.transpose()).cwiseAbs().maxCoeff() / scale, membership_tolerance<T>());
  // A Cholesky factorisation exists exactly for positive definite matrices and costs a sixth of
  // an eigendecomposition; the smallest eigenvalue is computed only for the error message.
  if (Eigen::LLT<Matrix<T>>(p).info() == Eigen::Success) return;
  const Eigen::SelfAdjointEigenSolver<Matrix<T>> solver(p, Eigen::EigenvaluesOnly);
  linalg::require_eigen_converged(solver, function, p);
  const T smallest = solver.eigenvalues()(0);
  if (!(smallest > 0)) throw DomainError(function, "point is not positive definite (smallest eigenvalue)", smallest);
}

/// Throws unless v is an n×n finite symmetric matrix (T_P SPD(n) = Sym(n) at every P).
template <class T>
void check_symmetric_tangent(const char* function, const Matrix<T>& v, int n) {
  require_shape(function, "tangent vector", v, n, n);
  require_finite(function, "tangent vector", v);
  const T scale = std::max(T(1), v.cwiseAbs().maxCoeff());
  require_small(function, "tangent vector is not symmetric (max |V − Vᵀ| / max(1, max |V|))",
                (v - v.transpose()).cwiseAbs().maxCoeff() / scale, membership_tolerance<T>());
}

/// Throws unless g is an n×n finite matrix: the cotangent a VJP takes (not necessarily symmetric).
template <class T>
void check_cotangent(const char* function, const Matrix<T>& g, int n) {
  require_shape(function, "cotangent", g, n, n);
  require_finite(function, "cotangent", g);
}

/// check_spd(p) and check_symmetric_tangent(v): what exp, inner and check_tangent validate.
template <class T>
void check_point_and_tangent(const char* function, const Matrix<T>& p, const Matrix<T>& v, int n) {
  check_spd(function, p, n);
  check_symmetric_tangent(function, v, n);
}

/// check_spd on both points: what log and dist validate.
template <class T>
void check_two_points(const char* function, const Matrix<T>& p, const Matrix<T>& q, int n) {
  check_spd(function, p, n);
  check_spd(function, q, n);
}

/// The orthogonal projection of an ambient n×n matrix onto T_P SPD(n) = Sym(n), for every metric
/// (Sym(n) is the whole tangent space, so the projection is the symmetric part whatever the metric).
template <class T>
[[nodiscard]] Matrix<T> project_to_symmetric(const char* function, const Matrix<T>& p, const Matrix<T>& a, int n) {
  if (checks_enabled()) {
    check_spd(function, p, n);
    require_shape(function, "ambient matrix", a, n, n);
    require_finite(function, "ambient matrix", a);
  }
  return linalg::symmetric_part<T>(a);
}

/// Validates the points and weights of a weighted mean (weights default to 1 each) and returns
/// the weights' sum: ShapeError for no points or a count mismatch, DomainError for a negative or
/// non-finite weight, all-zero weights, or a point that is not SPD.
template <class T>
[[nodiscard]] T checked_weight_total(const char* function, const std::vector<Matrix<T>>& points,
                                     std::vector<T>& weights, int n) {
  const T total = checked_weights<T>(function, weights, points.size(), T(1));
  for (const Matrix<T>& point : points) check_spd(function, point, n);
  return total;
}

/// The documented random SPD point: Q·diag(e^{s₁}, …, e^{sₙ})·Qᵀ with Q Haar on O(n) and sᵢ
/// uniform in [−1, 1], so eigenvalues lie in [1/e, e] (condition number ≤ e²).
template <class T>
[[nodiscard]] Matrix<T> random_spd(int n, Rng& rng) {
  const Matrix<T> q = linalg::haar_orthogonal<T>(n, rng);
  Vector<T> eigenvalues(n);
  for (int i = 0; i < n; ++i) eigenvalues(i) = std::exp(rng.uniform<T>(T(-1), T(1)));
  return linalg::symmetric_part<T>(q * eigenvalues.asDiagonal() * q.transpose());
}

/// A standard Gaussian symmetric matrix for ⟨·,·⟩^(α,β): its coordinates in an orthonormal basis
/// are independent N(0, 1). For α = 1, β = 0: diagonal N(0, 1), off-diagonal N(0, ½).
template <class T>
[[nodiscard]] Matrix<T> random_symmetric(int n, const AlphaBeta& ab, Rng& rng) {
  Matrix<T> s = rng.normal_matrix<T>(n, n);
  s = linalg::symmetric_part<T>(s);  // off-diagonal variance ½, diagonal 1: Frobenius-standard
  const T mean_trace = s.trace() / static_cast<T>(n);
  Matrix<T> traceless = s;
  traceless.diagonal().array() -= mean_trace;
  // ‖T‖²_(α,β) = α‖T‖² on traceless parts and (α + nβ)·c²·n on c·I: rescale each part.
  return traceless / static_cast<T>(std::sqrt(ab.alpha)) +
         Matrix<T>::Identity(n, n) * (mean_trace / static_cast<T>(std::sqrt(ab.alpha + n * ab.beta)));
}

/// The dimension of SPD(n), n(n + 1)/2.
[[nodiscard]] inline int spd_dimension(int n) { return n * (n + 1) / 2; }

/// Throws DomainError unless n ≥ 1.
inline void check_size(const char* function, int n) {
  if (n < 1) throw DomainError(function, "matrix size n must be at least 1", n);
}

}  // namespace gyre::spd
