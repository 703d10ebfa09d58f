#pragma once
// The Stiefel manifold's internals (conventions in stiefel.hpp): the embedded-metric geodesic of
// Edelman, Arias & Smith 1998, its derivative, and the Gauss–Newton shooting that inverts it.
//
// Geodesic. With A = XᵀU (skew), S = UᵀU, K = [[A, −S], [I, A]] (2p×2p), E = expm(K) and
// N = expm(−A), the geodesic of Ÿ + Y·(ẎᵀẎ) = 0 from X with velocity U ends at
//   exp_X(U) = [X, U]·E·[N; 0] = X·(E₁₁N) + U·(E₂₁N)      (E₁₁, E₂₁ the left blocks of E).
// Its derivative in the direction H ∈ T_X (dA = XᵀH, dS = HᵀU + UᵀH, dK = [[dA, −dS], [0, dA]]):
//   D exp_X(U)[H] = H·(E₂₁N) + X·(dE₁₁N + E₁₁dN) + U·(dE₂₁N + E₂₁dN),
// where dE = L(K, dK) and dN = L(−A, −dA) are Fréchet derivatives of expm, read off the upper-right
// block of expm([[M, D], [0, M]]) = [[e^M, L(M, D)], [0, e^M]] (Higham 2008, Functions of Matrices,
// Thm 3.6). Matrix exponentials are Eigen's (unsupported/Eigen/MatrixFunctions: scaling and
// squaring with Padé approximants).
//
// Reduction. exp_X(U) lies in the column span of [X, U], and Y ↦ R·Y (R orthogonal) is an isometry.
// The reflection R that fixes W = span[X, Y] and negates W⊥ fixes X and Y, so it maps a unique
// minimising geodesic from X to Y onto itself: that geodesic lies in St(W, p). log therefore works
// in an orthonormal basis V = [X, Q] of a space of dimension m = min(n, 2p) that contains W:
// X becomes E_p = [I_p; 0], Y becomes Ỹ = VᵀY, and the unknowns are U = [Ω; B] (Ω skew p×p,
// B (m−p)×p): d = p(p−1)/2 + (m−p)·p of them, whatever n.
//
// Shooting. Gauss–Newton on r(U) = exp_E(U) − Ỹ (mp equations, d unknowns in orthonormal
// coordinates of T_E), from U₀ = the projection of Ỹ − E onto T_E rescaled to the length of the
// sphere's log, with backtracking on ‖r‖_F. Each iteration costs d Fréchet derivatives of a 4p×4p
// exponential: O(p⁵), independent of n.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/QR>
#include <Eigen/SVD>
#include <unsupported/Eigen/MatrixFunctions>

#include "gyre/core/types.hpp"

namespace gyre::stiefel_detail {

/// (M + Mᵀ)/2.
template <class T>
[[nodiscard]] Matrix<T> sym(const Matrix<T>& m) {
  return (m + m.transpose()) / T(2);
}

/// U − X·sym(XᵀU): the orthogonal projection onto T_X for ⟨U, V⟩ = tr(UᵀV).
template <class T>
[[nodiscard]] Matrix<T> project(const Matrix<T>& x, const Matrix<T>& u) {
  return u - x * sym<T>(Matrix<T>(x.transpose() * u));
}

/// One Newton–Schulz step Y·(3I − YᵀY)/2 towards the nearest orthonormal frame: removes the O(ε)
/// drift of exponentials and retractions (the error squares).
template <class T>
[[nodiscard]] Matrix<T> reorthonormalise(const Matrix<T>& y) {
  const Eigen::Index p = y.cols();
  return y * (3 * Matrix<T>::Identity(p, p) - y.transpose() * y) / T(2);
}

/// The exponentials the geodesic from X with velocity U is made of (see the header).
template <class T>
struct Geodesic {
  Matrix<T> a;    // XᵀU
  Matrix<T> k;    // [[A, −S], [I, A]]
  Matrix<T> e;    // expm(K)
  Matrix<T> n;    // expm(−A)
  Matrix<T> end;  // X·(E₁₁N) + U·(E₂₁N), not re-normalised
};

template <class T>
[[nodiscard]] Geodesic<T> geodesic(const Matrix<T>& x, const Matrix<T>& u) {
  const Eigen::Index p = x.cols();
  Geodesic<T> g;
  // A is skew for a tangent U; its symmetric part is rounding, and expm(−A) must stay orthogonal.
  g.a = (x.transpose() * u - u.transpose() * x) / T(2);
  g.k.resize(2 * p, 2 * p);
  g.k << g.a, -(u.transpose() * u), Matrix<T>::Identity(p, p), g.a;
  g.e = g.k.exp();
  g.n = Matrix<T>(-g.a).exp();
  g.end = x * (g.e.topLeftCorner(p, p) * g.n) + u * (g.e.bottomLeftCorner(p, p) * g.n);
  return g;
}

/// exp_X(U) = X·(E₁₁N) + U·(E₂₁N) for exp, with K balanced for long U: with σ = ‖U‖_F > 1 and
/// D = diag(I, I/σ), K = D·K′·D⁻¹ for K′ = [[A, −S/σ], [σI, A]], whose blocks are all of size ‖U‖
/// where K's are of size ‖U‖² and 1. So E₁₁ = E′₁₁ and E₂₁ = E′₂₁/σ, and expm's scaling and squaring
/// runs on a norm of ‖U‖ rather than ‖U‖² (fewer squarings, each of which doubles the rounding).
/// Equal to geodesic(x, u).end (the shooting's form) up to rounding; for ‖U‖ ≤ 1 the same.
template <class T>
[[nodiscard]] Matrix<T> geodesic_end(const Matrix<T>& x, const Matrix<T>& u) {
  const T sigma = u.stableNorm();  // stable: ‖U‖² must not overflow for a huge but finite U
  if (!(sigma > 1)) return geodesic<T>(x, u).end;
  const Eigen::Index p = x.cols();
  const Matrix<T> a = (x.transpose() * u - u.transpose() * x) / T(2);
  const Matrix<T> unit = u / sigma;
  Matrix<T> k(2 * p, 2 * p);
  k << a, -sigma * (unit.transpose() * unit), sigma * Matrix<T>::Identity(p, p), a;
  const Matrix<T> e = k.exp();
  const Matrix<T> n = Matrix<T>(-a).exp();
  return x * (e.topLeftCorner(p, p) * n) + unit * (e.bottomLeftCorner(p, p) * n);
}

/// The polar factor W·Vᵀ of a full-column-rank Y = W·Σ·Vᵀ: the orthonormal frame nearest to Y. The
/// SVD is taken of Y scaled by its largest entry, so that no entry of YᵀY can overflow or
/// underflow (the polar factor does not change under positive scaling).
template <class T>
[[nodiscard]] Matrix<T> polar_factor(const Matrix<T>& y) {
  const Matrix<T> scaled = y / y.cwiseAbs().maxCoeff();
  const Eigen::JacobiSVD<Matrix<T>> svd(scaled, Eigen::ComputeThinU | Eigen::ComputeThinV);
  return svd.matrixU() * svd.matrixV().transpose();
}

/// L(M, D): the Fréchet derivative of expm at M in the direction D.
template <class T>
[[nodiscard]] Matrix<T> expm_derivative(const Matrix<T>& m, const Matrix<T>& d) {
  const Eigen::Index k = m.rows();
  Matrix<T> block = Matrix<T>::Zero(2 * k, 2 * k);
  block.topLeftCorner(k, k) = m;
  block.topRightCorner(k, k) = d;
  block.bottomRightCorner(k, k) = m;
  const Matrix<T> e = block.exp();
  return e.topRightCorner(k, k);
}

/// D exp_X(U)[H] (see the header), from the geodesic's exponentials g.
template <class T>
[[nodiscard]] Matrix<T> geodesic_derivative(const Matrix<T>& x, const Matrix<T>& u, const Geodesic<T>& g,
                                            const Matrix<T>& h) {
  const Eigen::Index p = x.cols();
  const Matrix<T> da = x.transpose() * h;
  Matrix<T> dk = Matrix<T>::Zero(2 * p, 2 * p);
  dk.topLeftCorner(p, p) = da;
  dk.topRightCorner(p, p) = -(h.transpose() * u + u.transpose() * h);
  dk.bottomRightCorner(p, p) = da;
  const Matrix<T> de = expm_derivative<T>(g.k, dk);
  const Matrix<T> dn = expm_derivative<T>(Matrix<T>(-g.a), Matrix<T>(-da));
  const auto e11 = g.e.topLeftCorner(p, p);
  const auto e21 = g.e.bottomLeftCorner(p, p);
  return h * (e21 * g.n) + x * (de.topLeftCorner(p, p) * g.n + e11 * dn) +
         u * (de.bottomLeftCorner(p, p) * g.n + e21 * dn);
}

/// ∂L/∂X and ∂L/∂U (ambient n×p) of end = X·(E₁₁N) + U·(E₂₁N) for the cotangent G of end: the
/// adjoint of the geodesic's formula, with the adjoint of expm's Fréchet derivative
/// L(M, ·)* = L(Mᵀ, ·) (Higham 2008, §3.2). From P₁ = E₁₁N, P₂ = E₂₁N:
///   ∂E₁₁ = XᵀG·Nᵀ, ∂E₂₁ = UᵀG·Nᵀ, ∂N = E₁₁ᵀXᵀG + E₂₁ᵀUᵀG, ∂K = L(Kᵀ, [[∂E₁₁, 0], [∂E₂₁, 0]]),
///   ∂A = ∂K₁₁ + ∂K₂₂ − L(A, ∂N) (N = expm(−A), A skew), ∂S = −∂K₁₂,
/// and A = (XᵀU − UᵀX)/2, S = UᵀU give ∂X = G·P₁ᵀ − U·skew(∂A), ∂U = G·P₂ᵀ + X·skew(∂A) + U(∂S + ∂Sᵀ).
template <class T>
struct GeodesicVjp {
  Matrix<T> x;
  Matrix<T> u;
};

template <class T>
[[nodiscard]] GeodesicVjp<T> geodesic_vjp(const Matrix<T>& x, const Matrix<T>& u, const Geodesic<T>& g,
                                          const Matrix<T>& cotangent) {
  const Eigen::Index p = x.cols();
  const auto e11 = g.e.topLeftCorner(p, p);
  const auto e21 = g.e.bottomLeftCorner(p, p);
  const Matrix<T> xg = x.transpose() * cotangent;
  const Matrix<T> ug = u.transpose() * cotangent;
  Matrix<T> grad_e = Matrix<T>::Zero(2 * p, 2 * p);
  grad_e.topLeftCorner(p, p) = xg * g.n.transpose();
  grad_e.bottomLeftCorner(p, p) = ug * g.n.transpose();
  const Matrix<T> grad_n = e11.transpose() * xg + e21.transpose() * ug;
  const Matrix<T> grad_k = expm_derivative<T>(Matrix<T>(g.k.transpose()), grad_e);
  const Matrix<T> grad_a =
      grad_k.topLeftCorner(p, p) + grad_k.bottomRightCorner(p, p) - expm_derivative<T>(g.a, grad_n);
  const Matrix<T> grad_s = -grad_k.topRightCorner(p, p);
  const Matrix<T> skew_a = (grad_a - grad_a.transpose()) / T(2);
  GeodesicVjp<T> vjp;
  vjp.x = cotangent * (e11 * g.n).transpose() - u * skew_a;
  vjp.u = cotangent * (e21 * g.n).transpose() + x * skew_a + u * (grad_s + grad_s.transpose());
  return vjp;
}

/// An orthonormal basis of T_X St(n, p) for ⟨U, V⟩ = tr(UᵀV), as the columns of an (np)×d matrix
/// (column-major n×p tangents): X·Ωᵢⱼ with Ωᵢⱼ = (eⱼeᵢᵀ − eᵢeⱼᵀ)/√2 for i < j, then X⊥·eₖeⱼᵀ with
/// X⊥ the orthogonal complement of X from a Householder QR.
template <class T>
[[nodiscard]] Matrix<T> tangent_basis(const Matrix<T>& x) {
  const Eigen::Index n = x.rows();
  const Eigen::Index p = x.cols();
  const Eigen::Index d = p * (p - 1) / 2 + (n - p) * p;
  const Eigen::HouseholderQR<Matrix<T>> qr(x);
  const Matrix<T> complement = (qr.householderQ() * Matrix<T>::Identity(n, n)).rightCols(n - p);
  Matrix<T> basis(n * p, d);
  Eigen::Index k = 0;
  const T half_root = std::sqrt(T(0.5));
  for (Eigen::Index i = 0; i < p; ++i) {
    for (Eigen::Index j = i + 1; j < p; ++j, ++k) {
      Matrix<T> h = Matrix<T>::Zero(n, p);
      h.col(i) = half_root * x.col(j);
      h.col(j) = -half_root * x.col(i);
      basis.col(k) = Eigen::Map<const Vector<T>>(h.data(), n * p);
    }
  }
  for (Eigen::Index j = 0; j < p; ++j) {
    for (Eigen::Index i = 0; i < n - p; ++i, ++k) {
      Matrix<T> h = Matrix<T>::Zero(n, p);
      h.col(j) = complement.col(i);
      basis.col(k) = Eigen::Map<const Vector<T>>(h.data(), n * p);
    }
  }
  return basis;
}

/// Orthonormal coordinates of T_E St(m, p) at E = [I_p; 0]: U = [Ω; B] ↦ (√2·Ω_ji for i < j, B
/// column-major), so that ‖coordinates‖ = ‖U‖_F.
template <class T>
[[nodiscard]] Matrix<T> tangent_from_coordinates(const Vector<T>& c, Eigen::Index m, Eigen::Index p) {
  Matrix<T> u = Matrix<T>::Zero(m, p);
  Eigen::Index k = 0;
  const T half_root = std::sqrt(T(0.5));
  for (Eigen::Index i = 0; i < p; ++i) {
    for (Eigen::Index j = i + 1; j < p; ++j, ++k) {
      u(j, i) = half_root * c(k);
      u(i, j) = -half_root * c(k);
    }
  }
  for (Eigen::Index j = 0; j < p; ++j) {
    for (Eigen::Index i = p; i < m; ++i, ++k) u(i, j) = c(k);
  }
  return u;
}

template <class T>
[[nodiscard]] Vector<T> coordinates_of_tangent(const Matrix<T>& u) {
  const Eigen::Index m = u.rows();
  const Eigen::Index p = u.cols();
  Vector<T> c(p * (p - 1) / 2 + (m - p) * p);
  Eigen::Index k = 0;
  const T root = std::sqrt(T(2));
  for (Eigen::Index i = 0; i < p; ++i) {
    for (Eigen::Index j = i + 1; j < p; ++j, ++k) c(k) = root * (u(j, i) - u(i, j)) / 2;
  }
  for (Eigen::Index j = 0; j < p; ++j) {
    for (Eigen::Index i = p; i < m; ++i, ++k) c(k) = u(i, j);
  }
  return c;
}

/// The outcome of the shooting: the velocity found, its residual and the iterations used.
template <class T>
struct Shot {
  Matrix<T> u;     // the tangent at X (n×p)
  T residual = 0;  // ‖exp_X(U) − Y‖_F (before re-normalisation)
  int iterations = 0;
};

/// Gauss–Newton shooting for exp_X(U) = Y (see the header). Does not throw: the caller judges the
/// residual.
template <class T>
[[nodiscard]] Shot<T> shoot(const Matrix<T>& x, const Matrix<T>& y, int max_iterations) {
  const Eigen::Index n = x.rows();
  const Eigen::Index p = x.cols();
  const Eigen::Index m = std::min(n, 2 * p);
  // V = [X, Q]: Q are columns p…m−1 of the Householder Q of [X, Y], so orthogonal to X, and
  // span V ⊇ span[X, Y] (the QR's R is zero below row 2p).
  Matrix<T> xy(n, 2 * p);
  xy << x, y;
  const Eigen::HouseholderQR<Matrix<T>> qr(xy);
  const Matrix<T> q = (qr.householderQ() * Matrix<T>::Identity(n, m)).rightCols(m - p);
  Matrix<T> e = Matrix<T>::Zero(m, p);
  e.topRows(p).setIdentity();
  Matrix<T> y_coordinates(m, p);
  y_coordinates.topRows(p) = x.transpose() * y;
  y_coordinates.bottomRows(m - p) = q.transpose() * y;
  // Points pass check_point up to √ε from the manifold; the shooting aims at the nearest frame so
  // that its residual can reach rounding level.
  const Matrix<T> y_small = polar_factor<T>(y_coordinates);

  const T eps = std::numeric_limits<T>::epsilon();
  // Start: the projection of Ỹ − E onto T_E (length sin θ on St(n, 1) = Sⁿ⁻¹), stretched to the
  // angle θ = 2·asin(‖Ỹ − E‖/2) of the chord — exactly the sphere's log for p = 1; for p > 1 the
  // same with the chord's root mean square over the columns, a guess. A projection that rounding
  // has swamped (below √ε: Y near −X) is not stretched; no step then lowers the residual.
  Matrix<T> start = project<T>(e, Matrix<T>(y_small - e));
  const T root_p = std::sqrt(static_cast<T>(p));
  const T angle = 2 * std::asin(std::min(T(1), (y_small - e).norm() / root_p / 2));
  if (start.norm() > std::sqrt(eps)) start *= angle * root_p / start.norm();
  Vector<T> c = coordinates_of_tangent<T>(start);
  const Eigen::Index d = c.size();

  const auto residual_of = [&](const Vector<T>& coordinates, Geodesic<T>& g) {
    g = geodesic<T>(e, tangent_from_coordinates<T>(coordinates, m, p));
    return Matrix<T>(g.end - y_small);
  };
  Geodesic<T> g;
  Matrix<T> r = residual_of(c, g);
  T r_norm = r.norm();
  Shot<T> shot;
  // The rounding floor of r: exp_E(U) is computed to a few ε per entry of its m×p result.
  const T floor = 4 * eps * std::sqrt(static_cast<T>(m * p));
  for (; shot.iterations < max_iterations; ++shot.iterations) {
    if (r_norm <= floor) break;
    const Matrix<T> u = tangent_from_coordinates<T>(c, m, p);
    Matrix<T> jacobian(m * p, d);
    for (Eigen::Index k = 0; k < d; ++k) {
      const Matrix<T> h = tangent_from_coordinates<T>(Vector<T>::Unit(d, k), m, p);
      const Matrix<T> column = geodesic_derivative<T>(e, u, g, h);
      jacobian.col(k) = Eigen::Map<const Vector<T>>(column.data(), m * p);
    }
    const Vector<T> step =
        jacobian.colPivHouseholderQr().solve(Vector<T>(-Eigen::Map<const Vector<T>>(r.data(), m * p)));
    // Backtracking: the full step once the iteration is in its quadratic regime, shorter ones far out.
    bool improved = false;
    T moved = 0;
    for (T t = 1; t > T(1e-3) && !improved; t /= 2) {
      Geodesic<T> trial_g;
      const Vector<T> trial = c + t * step;
      const Matrix<T> trial_r = residual_of(trial, trial_g);
      const T trial_norm = trial_r.norm();
      if (trial_norm < r_norm) {
        moved = t * step.norm();
        c = trial;
        g = trial_g;
        r = trial_r;
        r_norm = trial_norm;
        improved = true;
      }
    }
    // Stop when no step lowers ‖r‖ (stuck, or at the floor) or a step moved U by rounding only.
    if (!improved || moved <= 4 * eps * (1 + c.norm())) {
      ++shot.iterations;
      break;
    }
  }
  const Matrix<T> u_small = tangent_from_coordinates<T>(c, m, p);
  shot.u = project<T>(x, Matrix<T>(x * u_small.topRows(p) + q * u_small.bottomRows(m - p)));
  shot.residual = r_norm;
  return shot;
}

}  // namespace gyre::stiefel_detail
