#pragma once
// ============================================================================================
//  SPD(n) with Lin's log-Cholesky metric (LCM), the pullback by P = L·Lᵀ of a flat-diagonal
//  metric on the lower-triangular matrices with positive diagonal (the Cholesky space L₊).
// ============================================================================================
//  Notation  ⌊X⌋ strictly lower part, D(X) diagonal part, (A)_½ = ⌊A⌋ + ½D(A).
//  Cholesky  L = chol(P); a tangent U at P maps to X = L·(L⁻¹ U L⁻ᵀ)_½ at L, and back by
//            U = X Lᵀ + L Xᵀ.
//  Metric    g_P(U, V) = Σ_{i>j} Xᵢⱼ Yᵢⱼ + Σⱼ Xⱼⱼ Yⱼⱼ / Lⱼⱼ²
//  exp       K = ⌊L⌋ + ⌊X⌋ + D(L)·exp(D(X) D(L)⁻¹),  exp_P(V) = K Kᵀ
//  log       X = ⌊K⌋ − ⌊L⌋ + D(L)·log(D(K) D(L)⁻¹) with K = chol(Q), mapped back to U
//  dist²     ‖⌊K⌋ − ⌊L⌋‖²_F + ‖log D(K) − log D(L)‖²_F
//  transport along the geodesic P → Q (in L₊): X ↦ ⌊X⌋ + D(K) D(L)⁻¹ D(X)   (Lin 2019, Prop. 7)
//  mean      closed form: lower part the weighted mean of ⌊Lᵢ⌋, diagonal exp(weighted mean of log D(Lᵢ))
//  Complete (a product of a Euclidean space and n copies of ℝ₊ with d log): injectivity radius +∞.
//  retract   exp (a Cholesky factorisation and a few triangular products).
//  Gyrogroup the LCM group (LieBN): in L₊, L ⊕ K = ⌊L⌋ + ⌊K⌋ + D(L)D(K), ⊖L = −⌊L⌋ + D(L)⁻¹,
//            t ⊗ L = t⌊L⌋ + D(L)^t, gyr = id.
//  References: Z. Lin, "Riemannian geometry of symmetric positive definite matrices via Cholesky
//            decomposition", SIAM J. Matrix Anal. Appl. 40 (2019); geomstats pins the values.
// ============================================================================================

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <limits>
#include <vector>

#include <Eigen/Cholesky>

#include "gyre/core/derivatives.hpp"
#include "gyre/core/group_derivatives.hpp"
#include "gyre/core/gyrogroup.hpp"
#include "gyre/core/manifold.hpp"
#include "spd_common.hpp"
#include "spd_group_derivatives.hpp"

namespace gyre {

namespace spd {

/// ⌊A⌋: the strictly lower triangular part.
template <class T>
[[nodiscard]] Matrix<T> strictly_lower(const Matrix<T>& a) {
  return a.template triangularView<Eigen::StrictlyLower>();
}

/// The Cholesky factor of an SPD matrix (DomainError naming the function if it fails).
template <class T>
[[nodiscard]] Matrix<T> cholesky_factor(const char* function, const Matrix<T>& p) {
  const Eigen::LLT<Matrix<T>> llt(p);
  if (llt.info() != Eigen::Success) {
    throw DomainError(function, "Cholesky factorisation failed: matrix is not positive definite (size)", p.rows());
  }
  return llt.matrixL();
}

/// X = L·(L⁻¹ U L⁻ᵀ)_½: the tangent U at P = LLᵀ seen in the Cholesky space.
template <class T>
[[nodiscard]] Matrix<T> cholesky_tangent(const Matrix<T>& l, const Matrix<T>& u) {
  const auto tri = l.template triangularView<Eigen::Lower>();
  Matrix<T> a = tri.solve(u);                       // L⁻¹U
  a = tri.solve(a.transpose()).transpose().eval();  // L⁻¹ U L⁻ᵀ (U symmetric)
  Matrix<T> half = strictly_lower<T>(a);
  half.diagonal() = a.diagonal() / T(2);
  return tri * half;
}

/// U = X Lᵀ + L Xᵀ: a Cholesky-space tangent X at L back at P = LLᵀ.
template <class T>
[[nodiscard]] Matrix<T> spd_tangent(const Matrix<T>& l, const Matrix<T>& x) {
  const Matrix<T> xl = x * l.transpose();
  return xl + xl.transpose();
}

/// (A)_½ = ⌊A⌋ + ½D(A), which is self-adjoint for the trace pairing (a mask).
template <class T>
[[nodiscard]] Matrix<T> lower_half(const Matrix<T>& a) {
  Matrix<T> half = strictly_lower<T>(a);
  half.diagonal() = a.diagonal() / T(2);
  return half;
}

/// The gradient with respect to P of a loss with gradient L̄ with respect to L = chol(P):
/// sym(L⁻ᵀ·(LᵀL̄)_½·L⁻¹), from dL = L·(L⁻¹ dP L⁻ᵀ)_½ (Murray 2016).
template <class T>
[[nodiscard]] Matrix<T> cholesky_backward(const Matrix<T>& l, const Matrix<T>& grad_l) {
  const auto tri = l.template triangularView<Eigen::Lower>();
  const Matrix<T> inner =
      lower_half<T>(Matrix<T>(l.transpose() * Matrix<T>(grad_l.template triangularView<Eigen::Lower>())));
  Matrix<T> a = tri.transpose().solve(inner);                   // L⁻ᵀ·(·)
  a = tri.transpose().solve(a.transpose()).transpose().eval();  // ·L⁻¹
  return linalg::symmetric_part<T>(a);
}

/// Gradients with respect to L and U of ⟨X̄, X⟩ for X = cholesky_tangent(L, U) = L·(A)_½,
/// A = L⁻¹UL⁻ᵀ: L̄ = X̄·(A)_½ᵀ − L⁻ᵀ(Ā + Āᵀ)A with Ā = (LᵀX̄)_½, Ū = sym(L⁻ᵀĀL⁻¹).
template <class T>
void cholesky_tangent_backward(const Matrix<T>& l, const Matrix<T>& u, const Matrix<T>& grad_x, Matrix<T>& grad_l,
                               Matrix<T>& grad_u) {
  const auto tri = l.template triangularView<Eigen::Lower>();
  Matrix<T> a = tri.solve(u);
  a = tri.solve(a.transpose()).transpose().eval();  // L⁻¹UL⁻ᵀ
  const Matrix<T> grad_a = lower_half<T>(Matrix<T>(l.transpose() * grad_x));
  Matrix<T> back = tri.transpose().solve(grad_a);
  back = tri.transpose().solve(back.transpose()).transpose().eval();  // L⁻ᵀĀL⁻¹
  grad_u = linalg::symmetric_part<T>(back);
  grad_l = grad_x * lower_half<T>(a).transpose() - tri.transpose().solve(Matrix<T>((grad_a + grad_a.transpose()) * a));
}

// ── LieBN's log-Cholesky group in the Cholesky space (SpdLogCholeskyGroup, SpdLogCholesky's ⊕/⊖/⊗) ──

/// C = ⌊L⌋ + ⌊K⌋ + D(L)D(K): the Cholesky factor of P ⊙ Q for L = chol P, K = chol Q.
template <class T>
[[nodiscard]] Matrix<T> cholesky_group_product(const Matrix<T>& l, const Matrix<T>& k) {
  Matrix<T> c = strictly_lower<T>(l) + strictly_lower<T>(k);
  c.diagonal() = l.diagonal().cwiseProduct(k.diagonal());
  return c;
}

/// C = t⌊L⌋ + D(L)ᵗ: the Cholesky factor of t ⊗ P for L = chol P (t = −1: the group inverse).
template <class T>
[[nodiscard]] Matrix<T> cholesky_group_power(T t, const Matrix<T>& l) {
  Matrix<T> c = t * strictly_lower<T>(l);
  c.diagonal() = l.diagonal().array().pow(t).matrix();
  return c;
}

/// ∂L/∂P and ∂L/∂Q of CCᵀ with C = cholesky_group_product(chol P, chol Q): C̄ = tril((G + Gᵀ)C)
/// (from d(CCᵀ) = dC Cᵀ + C dCᵀ, C lower), then L̄ = ⌊C̄⌋ + D(C̄)D(K), K̄ = ⌊C̄⌋ + D(C̄)D(L), and
/// each factor back to its matrix by cholesky_backward, the adjoint of dL = L·(L⁻¹ dP L⁻ᵀ)_½.
/// Validates like the group's compose (checks on), naming `function`.
template <class T>
[[nodiscard]] ComposeVjp<Matrix<T>> cholesky_group_product_vjp(const char* function, const Matrix<T>& p,
                                                               const Matrix<T>& q, const Matrix<T>& g, int n) {
  if (checks_enabled()) {
    check_two_points(function, p, q, n);
    check_cotangent(function, g, n);
  }
  const Matrix<T> l = cholesky_factor<T>(function, p);
  const Matrix<T> k = cholesky_factor<T>(function, q);
  const Matrix<T> grad_c =
      Matrix<T>((g + g.transpose()) * cholesky_group_product<T>(l, k)).template triangularView<Eigen::Lower>();
  Matrix<T> grad_l = strictly_lower<T>(grad_c);
  Matrix<T> grad_k = grad_l;
  grad_l.diagonal() = grad_c.diagonal().cwiseProduct(k.diagonal());
  grad_k.diagonal() = grad_c.diagonal().cwiseProduct(l.diagonal());
  return {cholesky_backward<T>(l, grad_l), cholesky_backward<T>(k, grad_k)};
}

/// ∂L/∂t and ∂L/∂P of CCᵀ with C = cholesky_group_power(t, chol P): with C̄ = tril((G + Gᵀ)C),
/// ∂t = ⟨⌊C̄⌋, ⌊L⌋⟩ + Σⱼ C̄ⱼⱼ·Lⱼⱼᵗ·log Lⱼⱼ and L̄ = t⌊C̄⌋ + t·D(C̄)·D(L)ᵗ⁻¹, then cholesky_backward.
/// Validates like t ⊗ P (checks on), naming `function`.
template <class T>
[[nodiscard]] GyroScaleVjp<T, Matrix<T>> cholesky_group_power_vjp(const char* function, T t, const Matrix<T>& p,
                                                                  const Matrix<T>& g, int n) {
  check_scale_vjp_inputs(function, t, p, g, n);
  const Matrix<T> l = cholesky_factor<T>(function, p);
  const Matrix<T> grad_c =
      Matrix<T>((g + g.transpose()) * cholesky_group_power<T>(t, l)).template triangularView<Eigen::Lower>();
  Matrix<T> grad_l = t * strictly_lower<T>(grad_c);
  T grad_t = strictly_lower<T>(grad_c).cwiseProduct(l).sum();
  for (Eigen::Index j = 0; j < n; ++j) {
    const T power = std::pow(l(j, j), t);
    grad_t += grad_c(j, j) * power * std::log(l(j, j));
    grad_l(j, j) = grad_c(j, j) * t * power / l(j, j);
  }
  return {grad_t, cholesky_backward<T>(l, grad_l)};
}

}  // namespace spd

/// SPD(n) with the log-Cholesky metric.
template <class T>
class SpdLogCholesky {
 public:
  using Scalar = T;
  using Point = Matrix<T>;
  using Tangent = Matrix<T>;

  explicit SpdLogCholesky(int n) : n_(n) { spd::check_size("SpdLogCholesky::SpdLogCholesky", n); }

  [[nodiscard]] int n() const { return n_; }
  [[nodiscard]] int dim() const { return spd::spd_dimension(n_); }
  [[nodiscard]] T injectivity_radius() const { return std::numeric_limits<T>::infinity(); }

  [[nodiscard]] Point exp(const Point& p, const Tangent& v) const {
    if (checks_enabled()) spd::check_point_and_tangent("SpdLogCholesky::exp", p, v, n_);
    const Matrix<T> l = spd::cholesky_factor<T>("SpdLogCholesky::exp", p);
    const Matrix<T> k = cholesky_exp(l, spd::cholesky_tangent<T>(l, v));
    return linalg::symmetric_part<T>(k * k.transpose());
  }

  [[nodiscard]] Tangent log(const Point& p, const Point& q) const {
    if (checks_enabled()) spd::check_two_points("SpdLogCholesky::log", p, q, n_);
    const Matrix<T> l = spd::cholesky_factor<T>("SpdLogCholesky::log", p);
    const Matrix<T> k = spd::cholesky_factor<T>("SpdLogCholesky::log", q);
    return spd::spd_tangent<T>(l, cholesky_log(l, k));
  }

  [[nodiscard]] Tangent transport(const Point& p, const Point& q, const Tangent& w) const {
    if (checks_enabled()) {
      spd::check_two_points("SpdLogCholesky::transport", p, q, n_);
      spd::check_symmetric_tangent("SpdLogCholesky::transport", w, n_);
    }
    const Matrix<T> l = spd::cholesky_factor<T>("SpdLogCholesky::transport", p);
    const Matrix<T> k = spd::cholesky_factor<T>("SpdLogCholesky::transport", q);
    const Matrix<T> x = spd::cholesky_tangent<T>(l, w);
    Matrix<T> moved = spd::strictly_lower<T>(x);
    moved.diagonal() = k.diagonal().cwiseQuotient(l.diagonal()).cwiseProduct(x.diagonal());
    return spd::spd_tangent<T>(k, moved);
  }

  // ── Derivatives (gyre/core/derivatives.hpp) ──
  // Backwards through P = LLᵀ (spd::cholesky_backward), U ↦ X = L(L⁻¹UL⁻ᵀ)_½
  // (spd::cholesky_tangent_backward), the entrywise maps of L₊, and Y = KKᵀ (K̄ = tril((Ȳ + Ȳᵀ)K)),
  // U = XLᵀ + LXᵀ (X̄ = (Ū + Ūᵀ)L, L̄ = (Ū + Ūᵀ)X). On the diagonal, with r = Xⱼⱼ/Lⱼⱼ:
  // exp's Kⱼⱼ = Lⱼⱼeʳ gives ∂L = eʳ(1 − r), ∂X = eʳ; log's Xⱼⱼ = Lⱼⱼ log(Kⱼⱼ/Lⱼⱼ) gives
  // ∂K = Lⱼⱼ/Kⱼⱼ, ∂L = log(Kⱼⱼ/Lⱼⱼ) − 1; transport's Dⱼⱼ = (Kⱼⱼ/Lⱼⱼ)Xⱼⱼ gives the quotient rule.
  [[nodiscard]] ExpVjp<Point, Tangent> exp_vjp(const Point& p, const Tangent& v, const Point& g) const {
    if (checks_enabled()) {
      spd::check_point_and_tangent("SpdLogCholesky::exp_vjp", p, v, n_);
      check_cotangent("SpdLogCholesky::exp_vjp", g);
    }
    const Matrix<T> l = spd::cholesky_factor<T>("SpdLogCholesky::exp_vjp", p);
    const Matrix<T> x = spd::cholesky_tangent<T>(l, v);
    const Matrix<T> k = cholesky_exp(l, x);
    const Matrix<T> grad_k = Matrix<T>((g + g.transpose()) * k).template triangularView<Eigen::Lower>();
    Matrix<T> grad_l = spd::strictly_lower<T>(grad_k);
    Matrix<T> grad_x = spd::strictly_lower<T>(grad_k);
    for (Eigen::Index j = 0; j < n_; ++j) {
      const T r = x(j, j) / l(j, j);
      grad_l(j, j) = grad_k(j, j) * std::exp(r) * (1 - r);
      grad_x(j, j) = grad_k(j, j) * std::exp(r);
    }
    Matrix<T> grad_l_tangent, grad_v;
    spd::cholesky_tangent_backward<T>(l, v, grad_x, grad_l_tangent, grad_v);
    return {spd::cholesky_backward<T>(l, Matrix<T>(grad_l + grad_l_tangent)), grad_v};
  }

  [[nodiscard]] LogVjp<Point> log_vjp(const Point& p, const Point& q, const Tangent& g) const {
    if (checks_enabled()) {
      spd::check_two_points("SpdLogCholesky::log_vjp", p, q, n_);
      check_cotangent("SpdLogCholesky::log_vjp", g);
    }
    const Matrix<T> l = spd::cholesky_factor<T>("SpdLogCholesky::log_vjp", p);
    const Matrix<T> k = spd::cholesky_factor<T>("SpdLogCholesky::log_vjp", q);
    const Matrix<T> x = cholesky_log(l, k);
    const Matrix<T> sym2 = g + g.transpose();
    const Matrix<T> grad_x = sym2 * l;
    Matrix<T> grad_l = sym2 * x - spd::strictly_lower<T>(grad_x);
    Matrix<T> grad_k = spd::strictly_lower<T>(grad_x);
    for (Eigen::Index j = 0; j < n_; ++j) {
      grad_k(j, j) = grad_x(j, j) * l(j, j) / k(j, j);
      grad_l(j, j) += grad_x(j, j) * (std::log(k(j, j) / l(j, j)) - 1);
    }
    return {spd::cholesky_backward<T>(l, grad_l), spd::cholesky_backward<T>(k, grad_k)};
  }

  [[nodiscard]] TransportVjp<Point, Tangent> transport_vjp(const Point& p, const Point& q, const Tangent& w,
                                                           const Tangent& g) const {
    if (checks_enabled()) {
      spd::check_two_points("SpdLogCholesky::transport_vjp", p, q, n_);
      spd::check_symmetric_tangent("SpdLogCholesky::transport_vjp", w, n_);
      check_cotangent("SpdLogCholesky::transport_vjp", g);
    }
    const Matrix<T> l = spd::cholesky_factor<T>("SpdLogCholesky::transport_vjp", p);
    const Matrix<T> k = spd::cholesky_factor<T>("SpdLogCholesky::transport_vjp", q);
    const Matrix<T> x = spd::cholesky_tangent<T>(l, w);
    Matrix<T> moved = spd::strictly_lower<T>(x);
    moved.diagonal() = k.diagonal().cwiseQuotient(l.diagonal()).cwiseProduct(x.diagonal());
    const Matrix<T> sym2 = g + g.transpose();
    const Matrix<T> grad_moved = sym2 * k;
    Matrix<T> grad_k = sym2 * moved;
    Matrix<T> grad_x = spd::strictly_lower<T>(grad_moved);
    Matrix<T> grad_l = Matrix<T>::Zero(n_, n_);
    for (Eigen::Index j = 0; j < n_; ++j) {
      grad_x(j, j) = grad_moved(j, j) * k(j, j) / l(j, j);
      grad_k(j, j) += grad_moved(j, j) * x(j, j) / l(j, j);
      grad_l(j, j) = -grad_moved(j, j) * k(j, j) * x(j, j) / (l(j, j) * l(j, j));
    }
    Matrix<T> grad_l_tangent, grad_w;
    spd::cholesky_tangent_backward<T>(l, w, grad_x, grad_l_tangent, grad_w);
    return {spd::cholesky_backward<T>(l, Matrix<T>(grad_l + grad_l_tangent)), spd::cholesky_backward<T>(k, grad_k),
            grad_w};
  }

  [[nodiscard]] T inner(const Point& p, const Tangent& u, const Tangent& v) const {
    if (checks_enabled()) {
      spd::check_point_and_tangent("SpdLogCholesky::inner", p, u, n_);
      spd::check_symmetric_tangent("SpdLogCholesky::inner", v, n_);
    }
    const Matrix<T> l = spd::cholesky_factor<T>("SpdLogCholesky::inner", p);
    return cholesky_inner(l, spd::cholesky_tangent<T>(l, u), spd::cholesky_tangent<T>(l, v));
  }

  [[nodiscard]] T norm(const Point& p, const Tangent& v) const { return std::sqrt(std::max(T(0), inner(p, v, v))); }

  [[nodiscard]] T dist(const Point& p, const Point& q) const {
    if (checks_enabled()) spd::check_two_points("SpdLogCholesky::dist", p, q, n_);
    const Matrix<T> l = spd::cholesky_factor<T>("SpdLogCholesky::dist", p);
    const Matrix<T> k = spd::cholesky_factor<T>("SpdLogCholesky::dist", q);
    T sum = (spd::strictly_lower<T>(k) - spd::strictly_lower<T>(l)).squaredNorm();
    for (int j = 0; j < n_; ++j) {
      const T d = std::log(k(j, j) / l(j, j));
      sum += d * d;
    }
    return std::sqrt(sum);
  }

  /// The Riemannian gradient from the Euclidean gradient G: with P = LLᵀ the metric is
  /// ⟨Φ(U), M·Φ(V)⟩, Φ(U) = L·(L⁻¹UL⁻ᵀ)_½ lower triangular and M weighting diagonal entries by
  /// 1/L_jj². Φ⁻¹(K) = LKᵀ + KLᵀ has adjoint S ↦ 2·tril(SL), so Φ(R) = M⁻¹·2·tril(SL):
  /// R = LKᵀ + KLᵀ with K = 2·tril(SL), its diagonal scaled by L_jj².
  [[nodiscard]] Tangent egrad_to_rgrad(const Point& p, const Tangent& g) const {
    const Matrix<T> s = spd::project_to_symmetric("SpdLogCholesky::egrad_to_rgrad", p, g, n_);
    const Matrix<T> l = spd::cholesky_factor<T>("SpdLogCholesky::egrad_to_rgrad", p);
    Matrix<T> k = (T(2) * s * l).template triangularView<Eigen::Lower>();
    for (Eigen::Index j = 0; j < l.rows(); ++j) k(j, j) *= l(j, j) * l(j, j);
    return spd::spd_tangent<T>(l, k);
  }

  [[nodiscard]] Tangent project(const Point& p, const Tangent& a) const {
    return spd::project_to_symmetric("SpdLogCholesky::project", p, a, n_);
  }

  [[nodiscard]] Point retract(const Point& p, const Tangent& v) const { return exp(p, v); }

  [[nodiscard]] Point random_point(Rng& rng) const { return spd::random_spd<T>(n_, rng); }

  /// A standard Gaussian in an orthonormal basis of g_P: in the Cholesky space, N(0, 1) below the
  /// diagonal and N(0, Lⱼⱼ²) on it.
  [[nodiscard]] Tangent random_tangent(const Point& p, Rng& rng) const {
    const Matrix<T> l = spd::cholesky_factor<T>("SpdLogCholesky::random_tangent", p);
    Matrix<T> x = spd::strictly_lower<T>(rng.normal_matrix<T>(n_, n_));
    for (int j = 0; j < n_; ++j) x(j, j) = l(j, j) * rng.normal<T>();
    return spd::spd_tangent<T>(l, x);
  }

  /// The weighted Fréchet mean in closed form (weights default to 1/N).
  [[nodiscard]] Point mean(const std::vector<Point>& points, std::vector<T> weights = {}) const {
    const T total = spd::checked_weight_total("SpdLogCholesky::mean", points, weights, n_);
    Matrix<T> lower = Matrix<T>::Zero(n_, n_);
    Vector<T> log_diagonal = Vector<T>::Zero(n_);
    for (std::size_t i = 0; i < points.size(); ++i) {
      const Matrix<T> l = spd::cholesky_factor<T>("SpdLogCholesky::mean", points[i]);
      lower += weights[i] * spd::strictly_lower<T>(l);
      log_diagonal += weights[i] * l.diagonal().array().log().matrix();
    }
    Matrix<T> k = lower / total;
    k.diagonal() = (log_diagonal / total).array().exp().matrix();
    return linalg::symmetric_part<T>(k * k.transpose());
  }

  // ── Gyrogroup (the LCM group of spd_groups.hpp; abelian, gyr = id) ──
  [[nodiscard]] Point gyro_identity() const { return Point::Identity(n_, n_); }
  /// In L₊: L ⊕ K = ⌊L⌋ + ⌊K⌋ + D(L)D(K).
  [[nodiscard]] Point gyro_add(const Point& p, const Point& q) const {
    if (checks_enabled()) spd::check_two_points("SpdLogCholesky::gyro_add", p, q, n_);
    const Matrix<T> l = spd::cholesky_factor<T>("SpdLogCholesky::gyro_add", p);
    const Matrix<T> k = spd::cholesky_factor<T>("SpdLogCholesky::gyro_add", q);
    Matrix<T> c = spd::strictly_lower<T>(l) + spd::strictly_lower<T>(k);
    c.diagonal() = l.diagonal().cwiseProduct(k.diagonal());
    return linalg::symmetric_part<T>(c * c.transpose());
  }
  /// In L₊: ⊖L = −⌊L⌋ + D(L)⁻¹.
  [[nodiscard]] Point gyro_inverse(const Point& p) const { return gyro_scale(T(-1), p); }
  [[nodiscard]] Point gyration(const Point& p, const Point& q, const Point& r) const {
    if (checks_enabled()) {
      spd::check_two_points("SpdLogCholesky::gyration", p, q, n_);
      spd::check_spd("SpdLogCholesky::gyration", r, n_);
    }
    return r;
  }
  /// In L₊: t ⊗ L = t⌊L⌋ + D(L)^t.
  [[nodiscard]] Point gyro_scale(T t, const Point& p) const {
    if (checks_enabled()) {
      spd::check_spd("SpdLogCholesky::gyro_scale", p, n_);
      if (!std::isfinite(t)) throw DomainError("SpdLogCholesky::gyro_scale", "scalar must be finite", t);
    }
    const Matrix<T> l = spd::cholesky_factor<T>("SpdLogCholesky::gyro_scale", p);
    Matrix<T> c = t * spd::strictly_lower<T>(l);
    c.diagonal() = l.diagonal().array().pow(t).matrix();
    return linalg::symmetric_part<T>(c * c.transpose());
  }

  // ── Gyro derivatives (gyre/core/group_derivatives.hpp): through the Cholesky space, see
  //    spd::cholesky_group_product_vjp and spd::cholesky_group_power_vjp; ⊖ is ⊗ at t = −1 ──
  [[nodiscard]] GyroAddVjp<Point> gyro_add_vjp(const Point& p, const Point& q, const Point& g) const {
    return spd::cholesky_group_product_vjp<T>("SpdLogCholesky::gyro_add_vjp", p, q, g, n_);
  }
  [[nodiscard]] Point gyro_inverse_vjp(const Point& p, const Point& g) const {
    return spd::cholesky_group_power_vjp<T>("SpdLogCholesky::gyro_inverse_vjp", T(-1), p, g, n_).a;
  }
  [[nodiscard]] GyroScaleVjp<T, Point> gyro_scale_vjp(T t, const Point& p, const Point& g) const {
    return spd::cholesky_group_power_vjp<T>("SpdLogCholesky::gyro_scale_vjp", t, p, g, n_);
  }

  void check_point(const Point& p) const { spd::check_spd("SpdLogCholesky::check_point", p, n_); }
  void check_tangent(const Point& p, const Tangent& v) const {
    spd::check_point_and_tangent("SpdLogCholesky::check_tangent", p, v, n_);
  }

  // ── The Cholesky space L₊ itself (the layers and the Lie group work there) ──
  /// exp in L₊: ⌊L⌋ + ⌊X⌋ + D(L)·exp(D(X) D(L)⁻¹).
  [[nodiscard]] static Matrix<T> cholesky_exp(const Matrix<T>& l, const Matrix<T>& x) {
    Matrix<T> k = spd::strictly_lower<T>(l) + spd::strictly_lower<T>(x);
    for (Eigen::Index j = 0; j < l.rows(); ++j) k(j, j) = l(j, j) * std::exp(x(j, j) / l(j, j));
    return k;
  }
  /// log in L₊: ⌊K⌋ − ⌊L⌋ + D(L)·log(D(K) D(L)⁻¹).
  [[nodiscard]] static Matrix<T> cholesky_log(const Matrix<T>& l, const Matrix<T>& k) {
    Matrix<T> x = spd::strictly_lower<T>(k) - spd::strictly_lower<T>(l);
    for (Eigen::Index j = 0; j < l.rows(); ++j) x(j, j) = l(j, j) * std::log(k(j, j) / l(j, j));
    return x;
  }
  /// The metric of L₊ at L.
  [[nodiscard]] static T cholesky_inner(const Matrix<T>& l, const Matrix<T>& x, const Matrix<T>& y) {
    T sum = spd::strictly_lower<T>(x).cwiseProduct(spd::strictly_lower<T>(y)).sum();
    for (Eigen::Index j = 0; j < l.rows(); ++j) sum += x(j, j) * y(j, j) / (l(j, j) * l(j, j));
    return sum;
  }

 private:
  void check_cotangent(const char* function, const Matrix<T>& g) const { spd::check_cotangent(function, g, n_); }

  int n_;
};

static_assert(is_manifold_v<SpdLogCholesky<float>> && is_manifold_v<SpdLogCholesky<double>>);
static_assert(is_gyrogroup_v<SpdLogCholesky<float>> && is_gyrogroup_v<SpdLogCholesky<double>>);

}  // namespace gyre
