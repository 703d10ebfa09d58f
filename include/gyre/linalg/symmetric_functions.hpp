#pragma once
// ============================================================================================
//  Functions of symmetric matrices through the eigendecomposition S = U·diag(λ)·Uᵀ, and their
//  Fréchet derivatives: the building blocks of the SPD geometries and of the layers above them.
// ============================================================================================
//  f(S)          = U·diag(f(λᵢ))·Uᵀ                                   (apply)
//  Df(S)[H]      = U·(Γ ∘ (UᵀHU))·Uᵀ,  Γᵢⱼ = f[λᵢ, λⱼ]               (frechet_derivative)
//  Df(S)⁻¹[H]    = U·((UᵀHU) ⊘ Γ)·Uᵀ                                  (inverse_frechet_derivative)
//  Γ is the matrix of first divided differences f[a, b] = (f(a) − f(b))/(a − b), f[a, a] = f′(a)
//  (Daleckii & Krein 1965; Bhatia, Matrix Analysis, Thm V.3.3). Each function below evaluates
//  f[a, b] in a form that keeps full relative accuracy when a and b are close or equal, e.g.
//  log[a, b] = log1p(δ)/(b·δ) with δ = (a − b)/b, so repeated and near-repeated eigenvalues cost
//  no digits (the textbook quotient loses all of them as a → b).
//  Γ is symmetric, so Df(S) is self-adjoint for ⟨A, B⟩ = tr(AᵀB): the backward pass of X ↦ f(X)
//  is G ↦ Df(S)[G] with the same formula.
// ============================================================================================

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include <Eigen/Eigenvalues>

#include "gyre/core/error.hpp"
#include "gyre/core/types.hpp"
#include "gyre/linalg/eigen_convergence.hpp"

namespace gyre::linalg {

/// S = vectors·diag(values)·vectorsᵀ, eigenvalues ascending.
template <class T>
struct SymmetricEigen {
  Vector<T> values;
  Matrix<T> vectors;
};

/// The eigendecomposition of the symmetric part of s (s is assumed symmetric to rounding).
template <class T>
[[nodiscard]] SymmetricEigen<T> symmetric_eigen(const Matrix<T>& s) {
  const Eigen::SelfAdjointEigenSolver<Matrix<T>> solver(s, Eigen::ComputeEigenvectors);
  require_eigen_converged(solver, "symmetric_eigen", s);
  return {solver.eigenvalues(), solver.eigenvectors()};
}

/// (A + Aᵀ)/2: removes the rounding asymmetry of products such as X·S·Xᵀ.
template <class T>
[[nodiscard]] Matrix<T> symmetric_part(const Matrix<T>& a) {
  return (a + a.transpose()) / T(2);
}

// ── Spectral functions: value f(x) and divided difference f[a, b] ─────────────────────────────
//  Each also names itself (kName, for messages) and says whether its domain is (0, ∞)
//  (kPositiveDomain: the batched kernels reject a matrix with an eigenvalue ≤ 0 for these).

namespace detail {

/// hₖ(x, y) = Σᵢ xⁱ·y^(k−i), the complete homogeneous polynomial of degree k in two variables:
/// the second divided difference of r^(k+2) at (x, 0, y).
template <class T>
T complete_homogeneous(int k, T x, T y) {
  T h = 0, power_x = 1;
  for (int i = 0; i <= k; ++i, power_x *= x) h += power_x * std::pow(y, T(k - i));
  return h;
}

/// f[a, b, c] for a spectral function with an accurate first difference: the points sorted
/// a ≤ b ≤ c, the quotient (f[a, b] − f[b, c])/(a − c) where c − a ≥ b/100 (relative error
/// ≤ ε·b/(c − a)), else near(rₐ, r_c, b), f's series about the middle point (r = (· − b)/b).
template <class F, class T, class Near>
T second_divided(const F& f, T a, T b, T c, const Near& near) {
  if (a > b) std::swap(a, b);
  if (b > c) std::swap(b, c);
  if (a > b) std::swap(a, b);
  if (c - a >= b / 100) return (f.divided(a, b) - f.divided(b, c)) / (a - c);
  return near((a - b) / b, (c - b) / b, b);
}

}  // namespace detail

/// log on (0, ∞).
struct Log {
  static constexpr const char* kName = "Log";
  static constexpr bool kPositiveDomain = true;
  template <class T>
  T value(T x) const {
    return std::log(x);
  }
  template <class T>
  T divided(T a, T b) const {
    if (a == b) return T(1) / a;
    const T lo = std::min(a, b);
    const T delta = (std::max(a, b) - lo) / lo;
    return std::log1p(delta) / (lo * delta);
  }
  /// The second divided difference log[a, b, c] (symmetric in its arguments), for the second
  /// derivative D²log. Sorted a ≤ b ≤ c: where c − a ≥ b/100, the quotient of two accurate first
  /// differences (relative error ≤ ε·b/(c − a)); closer, the series about b,
  /// b²·log[a, b, c] = Σₖ (−1)^{k+1} hₖ(rₐ, r_c)/(k + 2) with r = (· − b)/b and hₖ the complete
  /// homogeneous polynomial of degree k, to k = 7 (truncation below 1e-17).
  template <class T>
  T divided2(T a, T b, T c) const {
    return detail::second_divided(*this, a, b, c, [](T ra, T rc, T middle) {
      T sum = 0, sign = -1;
      for (int k = 0; k <= 7; ++k) {
        sum += sign * detail::complete_homogeneous(k, ra, rc) / T(k + 2);
        sign = -sign;
      }
      return sum / (middle * middle);
    });
  }
};

/// exp on ℝ.
struct Exp {
  static constexpr const char* kName = "Exp";
  static constexpr bool kPositiveDomain = false;
  template <class T>
  T value(T x) const {
    return std::exp(x);
  }
  template <class T>
  T divided(T a, T b) const {
    if (a == b) return std::exp(a);
    const T hi = std::max(a, b);
    const T d = hi - std::min(a, b);
    // (eᵃ − eᵇ)/(a − b) = e^hi·(1 − e^−d)/d, the bracket as −expm1(−d): no cancellation as d → 0,
    // and no overflow while e^hi is finite (e^lo·expm1(d) overflows once d alone passes ~709,
    // or ~88 in float, as with eigenvalues −50 and 50).
    return std::exp(hi) * (-std::expm1(-d) / d);
  }
};

/// x^p on (0, ∞) for any real p.
struct Power {
  static constexpr const char* kName = "Power";
  static constexpr bool kPositiveDomain = true;
  double p;
  template <class T>
  T value(T x) const {
    return std::pow(x, static_cast<T>(p));
  }
  template <class T>
  T divided(T a, T b) const {
    const T q = static_cast<T>(p);
    if (a == b) return q * std::pow(a, q - 1);
    const T lo = std::min(a, b);
    const T delta = (std::max(a, b) - lo) / lo;
    // (a^p − b^p)/(a − b) = b^(p−1)·((1 + δ)^p − 1)/δ, the bracket via expm1∘log1p.
    return std::pow(lo, q - 1) * (std::expm1(q * std::log1p(delta)) / delta);
  }
  /// The second divided difference x^p[a, b, c], for D²(x^p) (the power-deformed metrics' VJPs).
  /// As Log::divided2: sorted a ≤ b ≤ c, where c − a ≥ b/100 the quotient of two accurate first
  /// differences; closer, the series about b, b^(2−p)·x^p[a, b, c] = Σ_{k≥2} C(p, k)·h_{k−2}(rₐ, r_c)
  /// (C the binomial coefficient, r = (· − b)/b, h the complete homogeneous polynomial), to k = 9:
  /// the first term left out is below 1e-16 relative for |p| ≤ 10.
  template <class T>
  T divided2(T a, T b, T c) const {
    const T q = static_cast<T>(p);
    return detail::second_divided(*this, a, b, c, [q](T ra, T rc, T middle) {
      T sum = 0;
      T binomial = q * (q - 1) / 2;  // C(p, k) for k = 2
      for (int k = 2; k <= 9; ++k) {
        sum += binomial * detail::complete_homogeneous(k - 2, ra, rc);
        binomial *= (q - T(k)) / T(k + 1);
      }
      return std::pow(middle, q - 2) * sum;
    });
  }
};

/// √x on (0, ∞); √[a, b] = 1/(√a + √b) exactly.
struct Sqrt {
  static constexpr const char* kName = "Sqrt";
  static constexpr bool kPositiveDomain = true;
  template <class T>
  T value(T x) const {
    return std::sqrt(x);
  }
  template <class T>
  T divided(T a, T b) const {
    return T(1) / (std::sqrt(a) + std::sqrt(b));
  }
};

/// 1/√x on (0, ∞); (1/√)[a, b] = −1/(√a·√b·(√a + √b)).
struct InverseSqrt {
  static constexpr const char* kName = "InverseSqrt";
  static constexpr bool kPositiveDomain = true;
  template <class T>
  T value(T x) const {
    return T(1) / std::sqrt(x);
  }
  template <class T>
  T divided(T a, T b) const {
    const T ra = std::sqrt(a);
    const T rb = std::sqrt(b);
    return T(-1) / (ra * rb * (ra + rb));
  }
};

/// max(x, ε) on ℝ: the eigenvalue rectification of SPDNet's ReEig layer (Huang & Van Gool 2017,
/// eq. 6), which keeps a matrix's eigenvalues at least ε.
/// At the kink x = ε it takes the convention of SPDNet's code: derivative 1 where x > ε and 0
/// where x ≤ ε (the subgradient 0 at x = ε exactly). Off the diagonal of Γ no convention is
/// needed: for a < b the quotient (max(b, ε) − max(a, ε))/(b − a) is 1 when ε < a, 0 when b ≤ ε,
/// and (b − ε)/(b − a) ∈ (0, 1] when the two straddle ε, each term a difference of two exact
/// numbers, so correctly rounded to a few ulps however close a and b are.
struct Rectify {
  static constexpr const char* kName = "Rectify";
  static constexpr bool kPositiveDomain = false;
  double epsilon;
  template <class T>
  T value(T x) const {
    return std::max(x, static_cast<T>(epsilon));
  }
  template <class T>
  T divided(T a, T b) const {
    const T e = static_cast<T>(epsilon);
    const T lo = std::min(a, b);
    const T hi = std::max(a, b);
    if (lo > e) return T(1);
    if (!(hi > e)) return T(0);
    return (hi - e) / (hi - lo);  // lo ≤ ε < hi, so hi − lo > 0
  }
};

// ── Applying them ─────────────────────────────────────────────────────────────────────────

/// U·diag(f(λ))·Uᵀ.
template <class T, class F>
[[nodiscard]] Matrix<T> apply(const SymmetricEigen<T>& e, const F& f) {
  Vector<T> fx(e.values.size());
  for (Eigen::Index i = 0; i < fx.size(); ++i) fx(i) = f.value(e.values(i));
  return symmetric_part<T>(e.vectors * fx.asDiagonal() * e.vectors.transpose());
}

/// Γᵢⱼ = f[λᵢ, λⱼ].
template <class T, class F>
[[nodiscard]] Matrix<T> divided_differences(const SymmetricEigen<T>& e, const F& f) {
  const Eigen::Index n = e.values.size();
  Matrix<T> gamma(n, n);
  for (Eigen::Index j = 0; j < n; ++j) {
    for (Eigen::Index i = j; i < n; ++i) {
      gamma(i, j) = gamma(j, i) = f.divided(e.values(i), e.values(j));
    }
  }
  return gamma;
}

/// Df(S)[H] = U·(Γ ∘ (UᵀHU))·Uᵀ for symmetric H (Daleckii–Krein).
template <class T, class F>
[[nodiscard]] Matrix<T> frechet_derivative(const SymmetricEigen<T>& e, const F& f, const Matrix<T>& h) {
  const Matrix<T> rotated = e.vectors.transpose() * h * e.vectors;
  return symmetric_part<T>(e.vectors * divided_differences(e, f).cwiseProduct(rotated) * e.vectors.transpose());
}

/// The gradient with respect to S of ⟨K, Df(S)[V]⟩ for symmetric K, V: the adjoint of the second
/// derivative, U·M·Uᵀ with Mₐᵦ = Σⱼ f[λₐ, λᵦ, λⱼ]·(K̃ₐⱼṼᵦⱼ + ṼₐⱼK̃ᵦⱼ), K̃ = UᵀKU, Ṽ = UᵀVU
/// (Daleckii–Krein of second order; F needs divided2). O(n³).
template <class T, class F>
[[nodiscard]] Matrix<T> frechet_derivative_pullback(const SymmetricEigen<T>& e, const F& f, const Matrix<T>& k,
                                                    const Matrix<T>& v) {
  const Matrix<T> kt = e.vectors.transpose() * k * e.vectors;
  const Matrix<T> vt = e.vectors.transpose() * v * e.vectors;
  const Eigen::Index n = e.values.size();
  Matrix<T> m(n, n);
  for (Eigen::Index a = 0; a < n; ++a) {
    for (Eigen::Index b = a; b < n; ++b) {
      T sum = 0;
      for (Eigen::Index j = 0; j < n; ++j) {
        sum += f.divided2(e.values(a), e.values(b), e.values(j)) * (kt(a, j) * vt(b, j) + vt(a, j) * kt(b, j));
      }
      m(a, b) = m(b, a) = sum;
    }
  }
  return symmetric_part<T>(e.vectors * m * e.vectors.transpose());
}

/// Df(S)⁻¹[H] = U·((UᵀHU) ⊘ Γ)·Uᵀ; f must be strictly monotone on the spectrum (Γ has no zero).
template <class T, class F>
[[nodiscard]] Matrix<T> inverse_frechet_derivative(const SymmetricEigen<T>& e, const F& f, const Matrix<T>& h) {
  const Matrix<T> rotated = e.vectors.transpose() * h * e.vectors;
  return symmetric_part<T>(e.vectors * rotated.cwiseQuotient(divided_differences(e, f)) * e.vectors.transpose());
}

// ── Shorthands for one-off calls ──────────────────────────────────────────────────────────

/// The principal logarithm of an SPD matrix (DomainError if an eigenvalue is ≤ 0).
template <class T>
[[nodiscard]] Matrix<T> spd_log(const Matrix<T>& p) {
  const SymmetricEigen<T> e = symmetric_eigen<T>(p);
  if (!(e.values(0) > 0)) {
    throw DomainError("spd_log", "matrix is not positive definite (smallest eigenvalue)", e.values(0));
  }
  return apply(e, Log{});
}

/// The exponential of a symmetric matrix.
template <class T>
[[nodiscard]] Matrix<T> symmetric_exp(const Matrix<T>& s) {
  return apply(symmetric_eigen<T>(s), Exp{});
}

/// P^p for SPD P and real p (DomainError if an eigenvalue is ≤ 0).
template <class T>
[[nodiscard]] Matrix<T> spd_power(const Matrix<T>& p, double exponent) {
  const SymmetricEigen<T> e = symmetric_eigen<T>(p);
  if (!(e.values(0) > 0)) {
    throw DomainError("spd_power", "matrix is not positive definite (smallest eigenvalue)", e.values(0));
  }
  return apply(e, Power{exponent});
}

}  // namespace gyre::linalg
