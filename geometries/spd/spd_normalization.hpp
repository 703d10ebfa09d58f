#pragma once
// ============================================================================================
//  LieBN's flat SPD structures (gyre/core/lie_normalization.hpp): the log-Euclidean (LEM) and
//  log-Cholesky (LCM) metrics, under which SPD(n) is a Lie group isomorphic to a vector space.
// ============================================================================================
//  In deformed coordinates the group is (V, +) with identity 0, log_e and exp_e are the identity,
//  the Fréchet mean is the arithmetic mean (exact: no iterations, whatever the mean mode) and the
//  running mean's geodesic is the straight line — as the reference code (GitZH-Chen/LieBN,
//  Geometry/Base/LieGroups.py: PullbackEuclideanMetric) computes them.
//  LEM (α, β)   φ(X) = logm X ∈ Sym(n); ‖A‖² = α·tr(A²) + β·tr(A)² (the O(n)-invariant inner
//               product; α > 0, α + nβ > 0).
//  LCM (θ)      φ(X) = ⌊L⌋ + log D(L) with L = chol(X^θ): a lower triangular matrix;
//               ‖A‖² = ‖A‖_F²/θ² (the θ-power deformed log-Cholesky metric, Chen et al. 2024
//               eq. 20; θ ≠ 0).
//  The bias P is a point of SPD(n) (original coordinates), deformed like the data.
// ============================================================================================

#include <cmath>
#include <string>
#include <vector>

#include "gyre/core/checks.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/group_derivatives.hpp"
#include "gyre/core/lie_normalization.hpp"
#include "gyre/linalg/symmetric_functions.hpp"
#include "log_cholesky.hpp"
#include "spd_common.hpp"

namespace gyre::spd {

namespace flat_normalization {

/// The arithmetic mean of deformed points (ShapeError for none).
template <class T>
[[nodiscard]] LieMean<Matrix<T>> mean(const char* function, const std::vector<Matrix<T>>& d) {
  if (d.empty()) throw ShapeError(function, "needs at least one point", 0);
  Matrix<T> sum = Matrix<T>::Zero(d.front().rows(), d.front().cols());
  for (const Matrix<T>& x : d) sum += x;
  return {sum / static_cast<T>(d.size()), 0};
}

/// ∂L/∂dᵢ = G/B for every i.
template <class T>
[[nodiscard]] std::vector<Matrix<T>> mean_vjp(const std::vector<Matrix<T>>& d, const Matrix<T>& g) {
  return std::vector<Matrix<T>>(d.size(), g / static_cast<T>(d.size()));
}

/// θ ≠ 0 and finite (DomainError otherwise).
template <class T>
void check_theta(const char* function, T theta) {
  if (!(std::isfinite(theta) && theta != 0)) throw DomainError(function, "θ must be finite and non-zero", theta);
}

/// X^θ and its eigendecomposition's use: the deformation of the power-deformed metrics.
template <class T>
[[nodiscard]] Matrix<T> power(const Matrix<T>& x, T theta) {
  if (theta == 1) return x;
  return linalg::apply(linalg::symmetric_eigen<T>(x), linalg::Power{static_cast<double>(theta)});
}

/// ∂L/∂X of X^θ: Dxᵗ(X)[sym G] (self-adjoint Daleckii–Krein).
template <class T>
[[nodiscard]] Matrix<T> power_vjp(const Matrix<T>& x, T theta, const Matrix<T>& g) {
  if (theta == 1) return linalg::symmetric_part<T>(g);
  return linalg::frechet_derivative(linalg::symmetric_eigen<T>(x), linalg::Power{static_cast<double>(theta)},
                                    linalg::symmetric_part<T>(g));
}

}  // namespace flat_normalization

/// f(X) kept with the eigensystem it came from, so that its VJP (the Daleckii–Krein formula on the
/// same eigenvectors) needs no second decomposition: LieBatchNorm keeps one per item and map from
/// forward to backward (the structures' optional *_spectral members, core/lie_normalization.hpp).
/// An empty eigensystem marks a map that is the identity (log_e on LEM, X^θ at θ = 1).
template <class T>
struct Spectral {
  Matrix<T> value;
  linalg::SymmetricEigen<T> eigen;
};

/// f(X) through X's eigensystem; DomainError naming `function` if f needs X positive definite and
/// it is not (to rounding).
template <class T, class F>
[[nodiscard]] Spectral<T> spectral(const char* function, const Matrix<T>& x, const F& f, bool needs_positive) {
  linalg::SymmetricEigen<T> e = linalg::symmetric_eigen<T>(x);
  if (needs_positive && !(e.values(0) > 0))
    throw DomainError(function, "matrix is not positive definite (smallest eigenvalue)", e.values(0));
  Matrix<T> value = linalg::apply(e, f);
  return {std::move(value), std::move(e)};
}

/// The identity map, kept in the same form.
template <class T>
[[nodiscard]] Spectral<T> unchanged(const Matrix<T>& x) {
  return {x, {}};
}

/// ∂L/∂X of the kept map: Df(X)[sym G] on the kept eigensystem, or sym G for the identity.
template <class T, class F>
[[nodiscard]] Matrix<T> spectral_vjp(const Spectral<T>& kept, const F& f, const Matrix<T>& g) {
  if (kept.eigen.values.size() == 0) return linalg::symmetric_part<T>(g);
  return linalg::frechet_derivative(kept.eigen, f, linalg::symmetric_part<T>(g));
}

}  // namespace gyre::spd

namespace gyre {

/// LieBN's log-Euclidean structure on SPD(n) with the (α, β) inner product (header comment).
template <class T>
struct SpdLogEuclideanNormalization {
  using Scalar = T;
  using Point = Matrix<T>;

  SpdLogEuclideanNormalization(int size, T alpha_weight = 1, T beta_weight = 0)
      : n(size), alpha_beta{static_cast<double>(alpha_weight), static_cast<double>(beta_weight)} {
    if (n < 1) throw ShapeError("SpdLogEuclideanNormalization", "n must be >= 1", n);
    spd::check_alpha_beta("SpdLogEuclideanNormalization", alpha_beta, n);
  }

  int n;
  spd::AlphaBeta alpha_beta;

  [[nodiscard]] std::string name() const {
    return "SPD(" + std::to_string(n) + ", LieBN-LEM, α = " + std::to_string(alpha_beta.alpha) +
           ", β = " + std::to_string(alpha_beta.beta) + ")";
  }
  void check_point(const Point& x) const { spd::check_spd("SpdLogEuclideanNormalization", x, n); }

  [[nodiscard]] Point deform(const Point& x) const {
    if (checks_enabled()) check_point(x);
    return linalg::spd_log<T>(x);
  }
  [[nodiscard]] Point deform_vjp(const Point& x, const Point& g) const {
    return linalg::frechet_derivative(linalg::symmetric_eigen<T>(x), linalg::Log{}, linalg::symmetric_part<T>(g));
  }
  [[nodiscard]] Point undeform(const Point& d) const { return linalg::symmetric_exp<T>(d); }
  [[nodiscard]] Point undeform_vjp(const Point& d, const Point& g) const {
    return linalg::frechet_derivative(linalg::symmetric_eigen<T>(d), linalg::Exp{}, linalg::symmetric_part<T>(g));
  }

  // The same maps with their eigensystems kept (core/lie_normalization.hpp's optional members).
  using Spectral = spd::Spectral<T>;
  [[nodiscard]] Spectral deform_spectral(const Point& x) const {
    if (checks_enabled()) check_point(x);
    return spd::spectral<T>("SpdLogEuclideanNormalization::deform", x, linalg::Log{}, true);
  }
  [[nodiscard]] Point deform_vjp_spectral(const Spectral& kept, const Point& g) const {
    return spd::spectral_vjp<T>(kept, linalg::Log{}, g);
  }
  [[nodiscard]] Spectral undeform_spectral(const Point& d) const {
    return spd::spectral<T>("SpdLogEuclideanNormalization::undeform", d, linalg::Exp{}, false);
  }
  [[nodiscard]] Point undeform_vjp_spectral(const Spectral& kept, const Point& g) const {
    return spd::spectral_vjp<T>(kept, linalg::Exp{}, g);
  }
  [[nodiscard]] Spectral log_identity_spectral(const Point& d) const { return spd::unchanged<T>(d); }
  [[nodiscard]] Point log_identity_vjp_spectral(const Spectral& kept, const Point& g) const {
    return spd::spectral_vjp<T>(kept, linalg::Log{}, g);
  }
  [[nodiscard]] Spectral exp_identity_spectral(const Point& a) const { return spd::unchanged<T>(a); }
  [[nodiscard]] Point exp_identity_vjp_spectral(const Spectral& kept, const Point& g) const {
    return spd::spectral_vjp<T>(kept, linalg::Exp{}, g);
  }

  [[nodiscard]] Point identity() const { return Point::Zero(n, n); }
  [[nodiscard]] Point translate(const Point& b, const Point& d) const { return b + d; }
  [[nodiscard]] ComposeVjp<Point> translate_vjp(const Point&, const Point&, const Point& g) const {
    const Point s = linalg::symmetric_part<T>(g);
    return {s, s};
  }
  [[nodiscard]] Point untranslate(const Point& m, const Point& d) const { return d - m; }
  [[nodiscard]] ComposeVjp<Point> untranslate_vjp(const Point&, const Point&, const Point& g) const {
    const Point s = linalg::symmetric_part<T>(g);
    return {-s, s};
  }
  [[nodiscard]] Point log_identity(const Point& d) const { return d; }
  [[nodiscard]] Point log_identity_vjp(const Point&, const Point& g) const { return linalg::symmetric_part<T>(g); }
  [[nodiscard]] Point exp_identity(const Point& a) const { return a; }
  [[nodiscard]] Point exp_identity_vjp(const Point&, const Point& g) const { return linalg::symmetric_part<T>(g); }

  [[nodiscard]] T squared_norm(const Point& a) const { return spd::alpha_beta_inner<T>(alpha_beta, a, a); }
  [[nodiscard]] Point squared_norm_gradient(const Point& a) const {
    return T(2 * alpha_beta.alpha) * a + T(2 * alpha_beta.beta) * a.trace() * Point::Identity(n, n);
  }

  [[nodiscard]] Point geodesic(const Point& p, const Point& q, T t) const { return (1 - t) * p + t * q; }
  [[nodiscard]] LieMean<Point> mean(const std::vector<Point>& d, const LieMeanOptions<T>&) const {
    return spd::flat_normalization::mean<T>("SpdLogEuclideanNormalization::mean", d);
  }
  [[nodiscard]] std::vector<Point> mean_vjp(const std::vector<Point>& d, const LieMeanOptions<T>&,
                                            const LieMean<Point>&, const Point& g) const {
    return spd::flat_normalization::mean_vjp<T>(d, linalg::symmetric_part<T>(g));
  }
};

/// LieBN's θ-deformed log-Cholesky structure on SPD(n) (header comment).
template <class T>
struct SpdLogCholeskyNormalization {
  using Scalar = T;
  using Point = Matrix<T>;

  SpdLogCholeskyNormalization(int size, T power = 1) : n(size), theta(power) {
    if (n < 1) throw ShapeError("SpdLogCholeskyNormalization", "n must be >= 1", n);
    spd::flat_normalization::check_theta("SpdLogCholeskyNormalization", theta);
  }

  int n;
  T theta;

  [[nodiscard]] std::string name() const {
    return "SPD(" + std::to_string(n) + ", LieBN-LCM, θ = " + std::to_string(theta) + ")";
  }
  void check_point(const Point& x) const { spd::check_spd("SpdLogCholeskyNormalization", x, n); }

  // D = ⌊L⌋ + log D(L), L = chol(X^θ).
  [[nodiscard]] Point deform(const Point& x) const {
    if (checks_enabled()) check_point(x);
    const Point l =
        spd::cholesky_factor<T>("SpdLogCholeskyNormalization::deform", spd::flat_normalization::power<T>(x, theta));
    Point d = spd::strictly_lower<T>(l);
    d.diagonal() = l.diagonal().array().log().matrix();
    return d;
  }
  // L̄ = ⌊Ḡ⌋ + D(Ḡ)·D(L)⁻¹, then the Cholesky backward pass and X^θ's.
  [[nodiscard]] Point deform_vjp(const Point& x, const Point& g) const {
    const Point p = spd::flat_normalization::power<T>(x, theta);
    const Point l = spd::cholesky_factor<T>("SpdLogCholeskyNormalization::deform_vjp", p);
    Point grad_l = spd::strictly_lower<T>(g);
    grad_l.diagonal() = g.diagonal().cwiseQuotient(l.diagonal());
    return spd::flat_normalization::power_vjp<T>(x, theta, spd::cholesky_backward<T>(l, grad_l));
  }
  // X = (LLᵀ)^(1/θ), L = ⌊D⌋ + exp D(D).
  [[nodiscard]] Point undeform(const Point& d) const {
    const Point l = factor_of(d);
    return spd::flat_normalization::power<T>(linalg::symmetric_part<T>(l * l.transpose()), T(1) / theta);
  }
  // P̄ = D(·)^(1/θ)[sym Ḡ], L̄ = 2·P̄·L (lower part), D̄ = ⌊L̄⌋ + D(L̄)·D(L).
  [[nodiscard]] Point undeform_vjp(const Point& d, const Point& g) const {
    const Point l = factor_of(d);
    const Point p = linalg::symmetric_part<T>(l * l.transpose());
    const Point grad_p = spd::flat_normalization::power_vjp<T>(p, T(1) / theta, g);
    const Point grad_l = T(2) * grad_p * l;
    Point grad_d = spd::strictly_lower<T>(grad_l);
    grad_d.diagonal() = grad_l.diagonal().cwiseProduct(l.diagonal());
    return grad_d;
  }

  [[nodiscard]] Point identity() const { return Point::Zero(n, n); }
  [[nodiscard]] Point translate(const Point& b, const Point& d) const { return b + d; }
  [[nodiscard]] ComposeVjp<Point> translate_vjp(const Point&, const Point&, const Point& g) const {
    const Point lower = g.template triangularView<Eigen::Lower>();
    return {lower, lower};
  }
  [[nodiscard]] Point untranslate(const Point& m, const Point& d) const { return d - m; }
  [[nodiscard]] ComposeVjp<Point> untranslate_vjp(const Point&, const Point&, const Point& g) const {
    const Point lower = g.template triangularView<Eigen::Lower>();
    return {-lower, lower};
  }
  [[nodiscard]] Point log_identity(const Point& d) const { return d; }
  [[nodiscard]] Point log_identity_vjp(const Point&, const Point& g) const {
    return g.template triangularView<Eigen::Lower>();
  }
  [[nodiscard]] Point exp_identity(const Point& a) const { return a; }
  [[nodiscard]] Point exp_identity_vjp(const Point&, const Point& g) const {
    return g.template triangularView<Eigen::Lower>();
  }

  [[nodiscard]] T squared_norm(const Point& a) const { return a.squaredNorm() / (theta * theta); }
  [[nodiscard]] Point squared_norm_gradient(const Point& a) const { return T(2) * a / (theta * theta); }

  [[nodiscard]] Point geodesic(const Point& p, const Point& q, T t) const { return (1 - t) * p + t * q; }
  [[nodiscard]] LieMean<Point> mean(const std::vector<Point>& d, const LieMeanOptions<T>&) const {
    return spd::flat_normalization::mean<T>("SpdLogCholeskyNormalization::mean", d);
  }
  [[nodiscard]] std::vector<Point> mean_vjp(const std::vector<Point>& d, const LieMeanOptions<T>&,
                                            const LieMean<Point>&, const Point& g) const {
    return spd::flat_normalization::mean_vjp<T>(d, Point(g.template triangularView<Eigen::Lower>()));
  }

 private:
  [[nodiscard]] Point factor_of(const Point& d) const {
    Point l = spd::strictly_lower<T>(d);
    l.diagonal() = d.diagonal().array().exp().matrix();
    return l;
  }
};

static_assert(is_lie_normalization_v<SpdLogEuclideanNormalization<float>> &&
              is_lie_normalization_v<SpdLogEuclideanNormalization<double>>);
static_assert(is_lie_normalization_v<SpdLogCholeskyNormalization<float>> &&
              is_lie_normalization_v<SpdLogCholeskyNormalization<double>>);

}  // namespace gyre
