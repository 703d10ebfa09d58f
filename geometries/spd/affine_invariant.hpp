#pragma once
// ============================================================================================
//  SPD(n) with the affine-invariant metric (AIM), optionally with the O(n)-invariant (α, β)
//  inner product of the LieBN paper: g_P(U, V) = α·tr(P⁻¹U P⁻¹V) + β·tr(P⁻¹U)·tr(P⁻¹V).
// ============================================================================================
//  Storage   points n×n SPD; tangent vectors n×n symmetric.
//  exp       exp_P(V) = P^½ expm(P^-½ V P^-½) P^½
//  log       log_P(Q) = P^½ logm(P^-½ Q P^-½) P^½
//  dist²     α·Σ log² μᵢ + β·(Σ log μᵢ)², μ = eig(P^-½ Q P^-½)
//  transport along the geodesic P → Q: W ↦ E W Eᵀ, E = P^½ (P^-½ Q P^-½)^½ P^-½ = (QP⁻¹)^½.
//  Every (α, β) metric has the same Levi-Civita connection (Pennec 2006; Thanwerdas & Pennec
//  2019), so exp, log and transport do not depend on α, β; inner, norm and dist do.
//  Complete (Cartan–Hadamard): exp is a global diffeomorphism, injectivity radius +∞.
//  Accuracy: exact formulas through one symmetric eigendecomposition each; on ill-conditioned P
//  (cond 1e6) results lose the digits the condition number implies, like any method.
//  retract   the second-order retraction P + V + ½ V P⁻¹ V (always SPD).
//  Sampling  random_spd (spd_common.hpp); random_tangent: P^½ S P^½, S standard for (α, β).
//  Gyrogroup P ⊕ Q = P^½QP^½, ⊖P = P⁻¹, t ⊗ P = P^t, gyr[P, Q]R = FRFᵀ with the orthogonal
//            F = (P^½QP^½)^-½ P^½ Q^½ (GyroBN's AIM structure; centring by ⊖M is SPDNetBN's M^-½XM^-½).
//  References: Pennec, Fillard & Ayache 2006; Chen et al. 2024 (LieBN) for (α, β);
//            geomstats' SPDAffineMetric (pinned by shared/reference/geomstats.json).
// ============================================================================================

#include <limits>
#include <vector>

#include "affine_invariant_mean_vjp.hpp"
#include "gyre/core/derivatives.hpp"
#include "gyre/core/gyrogroup.hpp"
#include "gyre/core/manifold.hpp"
#include "spd_common.hpp"
#include "spd_group_derivatives.hpp"

namespace gyre {

/// SPD(n) with the (α, β) affine-invariant metric.
template <class T>
class SpdAffineInvariant {
 public:
  using Scalar = T;
  using Point = Matrix<T>;
  using Tangent = Matrix<T>;

  explicit SpdAffineInvariant(int n, spd::AlphaBeta ab = {}) : n_(n), ab_(ab) {
    spd::check_size("SpdAffineInvariant::SpdAffineInvariant", n);
    spd::check_alpha_beta("SpdAffineInvariant::SpdAffineInvariant", ab, n);
  }

  [[nodiscard]] int n() const { return n_; }
  [[nodiscard]] const spd::AlphaBeta& alpha_beta() const { return ab_; }
  [[nodiscard]] int dim() const { return spd::spd_dimension(n_); }
  [[nodiscard]] T injectivity_radius() const { return std::numeric_limits<T>::infinity(); }

  [[nodiscard]] Point exp(const Point& p, const Tangent& v) const {
    if (checks_enabled()) spd::check_point_and_tangent("SpdAffineInvariant::exp", p, v, n_);
    const Roots r = roots(p);
    const Matrix<T> inner = linalg::symmetric_part<T>(r.inv_sqrt * v * r.inv_sqrt);
    return linalg::symmetric_part<T>(r.sqrt * linalg::symmetric_exp<T>(inner) * r.sqrt);
  }

  [[nodiscard]] Tangent log(const Point& p, const Point& q) const {
    if (checks_enabled()) spd::check_two_points("SpdAffineInvariant::log", p, q, n_);
    const Roots r = roots(p);
    return linalg::symmetric_part<T>(r.sqrt * linalg::apply(whitened(r, q), linalg::Log{}) * r.sqrt);
  }

  [[nodiscard]] Tangent transport(const Point& p, const Point& q, const Tangent& w) const {
    if (checks_enabled()) {
      spd::check_two_points("SpdAffineInvariant::transport", p, q, n_);
      spd::check_symmetric_tangent("SpdAffineInvariant::transport", w, n_);
    }
    const Roots r = roots(p);
    const Matrix<T> e = r.sqrt * linalg::apply(whitened(r, q), linalg::Sqrt{}) * r.inv_sqrt;
    return linalg::symmetric_part<T>(e * w * e.transpose());
  }

  [[nodiscard]] T inner(const Point& p, const Tangent& u, const Tangent& v) const {
    if (checks_enabled()) {
      spd::check_point_and_tangent("SpdAffineInvariant::inner", p, u, n_);
      spd::check_symmetric_tangent("SpdAffineInvariant::inner", v, n_);
    }
    const Roots r = roots(p);
    return spd::alpha_beta_inner<T>(ab_, r.inv_sqrt * u * r.inv_sqrt, r.inv_sqrt * v * r.inv_sqrt);
  }

  [[nodiscard]] T norm(const Point& p, const Tangent& v) const { return std::sqrt(std::max(T(0), inner(p, v, v))); }

  [[nodiscard]] T dist(const Point& p, const Point& q) const {
    if (checks_enabled()) spd::check_two_points("SpdAffineInvariant::dist", p, q, n_);
    const linalg::SymmetricEigen<T> e = whitened(roots(p), q);
    T sum_sq = 0;
    T sum = 0;
    for (Eigen::Index i = 0; i < e.values.size(); ++i) {
      const T l = std::log(e.values(i));
      sum_sq += l * l;
      sum += l;
    }
    return std::sqrt(std::max(T(0), static_cast<T>(ab_.alpha) * sum_sq + static_cast<T>(ab_.beta) * sum * sum));
  }

  /// The Riemannian gradient from the Euclidean gradient G = ∂f/∂P: with S = sym(G), the solution
  /// of α·tr(P⁻¹RP⁻¹W) + β·tr(P⁻¹R)·tr(P⁻¹W) = tr(SW) for all symmetric W, which is
  /// (P·S·P − β·tr(SP)/(α + nβ)·P)/α; P·S·P for the usual metric (α = 1, β = 0).
  [[nodiscard]] Tangent egrad_to_rgrad(const Point& p, const Tangent& g) const {
    const Matrix<T> s = spd::project_to_symmetric("SpdAffineInvariant::egrad_to_rgrad", p, g, n_);
    const T alpha = static_cast<T>(ab_.alpha);
    const T beta = static_cast<T>(ab_.beta);
    Matrix<T> r = p * s * p;
    if (beta != 0) r -= (beta * s.cwiseProduct(p).sum() / (alpha + static_cast<T>(n_) * beta)) * p;
    return linalg::symmetric_part<T>(r / alpha);
  }

  [[nodiscard]] Tangent project(const Point& p, const Tangent& a) const {
    return spd::project_to_symmetric("SpdAffineInvariant::project", p, a, n_);
  }

  [[nodiscard]] Point retract(const Point& p, const Tangent& v) const {
    if (checks_enabled()) spd::check_point_and_tangent("SpdAffineInvariant::retract", p, v, n_);
    // P + V + ½VP⁻¹V = ½(P + (P + V)P⁻¹(P + V)): SPD since P⁻¹ is.
    const Eigen::LLT<Matrix<T>> llt(p);
    return linalg::symmetric_part<T>(p + v + v * llt.solve(v) / T(2));
  }

  [[nodiscard]] Point random_point(Rng& rng) const { return spd::random_spd<T>(n_, rng); }

  [[nodiscard]] Tangent random_tangent(const Point& p, Rng& rng) const {
    const Roots r = roots(p);
    return linalg::symmetric_part<T>(r.sqrt * spd::random_symmetric<T>(n_, ab_, rng) * r.sqrt);
  }

  // ── Derivatives (gyre/core/derivatives.hpp) ──
  // Chain rules through the Daleckii–Krein derivatives of P^½, P^-½, expm, logm and sqrtm (each
  // self-adjoint for the trace pairing), with S = P^½, R = P^-½ and, for any product Y = A·M·A of
  // symmetric factors, ∂A = G·A·M + M·A·G and ∂M = A·G·A.
  //   exp = S expm(R V R) S,  log = S logm(R Q R) S,  transport = E W Eᵀ with E = S sqrtm(R Q R) R.
  [[nodiscard]] ExpVjp<Point, Tangent> exp_vjp(const Point& p, const Tangent& v, const Point& g) const {
    if (checks_enabled()) {
      spd::check_point_and_tangent("SpdAffineInvariant::exp_vjp", p, v, n_);
      check_cotangent("SpdAffineInvariant::exp_vjp", g);
    }
    const Pullback root(p);
    const linalg::SymmetricEigen<T> inner =
        linalg::symmetric_eigen<T>(linalg::symmetric_part<T>(root.inv_sqrt * v * root.inv_sqrt));
    const Matrix<T> e = linalg::apply(inner, linalg::Exp{});
    const Matrix<T> grad_inner =
        linalg::frechet_derivative(inner, linalg::Exp{}, linalg::symmetric_part<T>(root.sqrt * g * root.sqrt));
    const Matrix<T> grad_sqrt = g * root.sqrt * e + e * root.sqrt * g;
    const Matrix<T> grad_inv_sqrt = grad_inner * root.inv_sqrt * v + v * root.inv_sqrt * grad_inner;
    return {root.to_p(grad_sqrt, grad_inv_sqrt), linalg::symmetric_part<T>(root.inv_sqrt * grad_inner * root.inv_sqrt)};
  }

  [[nodiscard]] LogVjp<Point> log_vjp(const Point& p, const Point& q, const Tangent& g) const {
    if (checks_enabled()) {
      spd::check_two_points("SpdAffineInvariant::log_vjp", p, q, n_);
      check_cotangent("SpdAffineInvariant::log_vjp", g);
    }
    const Pullback root(p);
    const linalg::SymmetricEigen<T> w = whitened(Roots{root.sqrt, root.inv_sqrt}, q);
    const Matrix<T> l = linalg::apply(w, linalg::Log{});
    const Matrix<T> grad_w =
        linalg::frechet_derivative(w, linalg::Log{}, linalg::symmetric_part<T>(root.sqrt * g * root.sqrt));
    const Matrix<T> grad_sqrt = g * root.sqrt * l + l * root.sqrt * g;
    const Matrix<T> grad_inv_sqrt = grad_w * root.inv_sqrt * q + q * root.inv_sqrt * grad_w;
    return {root.to_p(grad_sqrt, grad_inv_sqrt), linalg::symmetric_part<T>(root.inv_sqrt * grad_w * root.inv_sqrt)};
  }

  /// ∂L/∂xᵢ of the converged Karcher mean of `points` from g = ∂L/∂mean, matrix-free by conjugate
  /// gradients (affine_invariant_mean_vjp.hpp): frechet_mean_vjp takes it in place of assembling the
  /// Jacobian from d·B log VJPs. ShapeError for no points.
  [[nodiscard]] std::vector<Point> frechet_mean_vjp(const Point& mean, const std::vector<Point>& points,
                                                    const Point& g) const {
    if (points.empty()) throw ShapeError("SpdAffineInvariant::frechet_mean_vjp", "needs at least one point", 0);
    if (checks_enabled()) {
      spd::check_spd("SpdAffineInvariant::frechet_mean_vjp", mean, n_);
      for (const Point& x : points) spd::check_spd("SpdAffineInvariant::frechet_mean_vjp", x, n_);
      check_cotangent("SpdAffineInvariant::frechet_mean_vjp", g);
    }
    return spd::affine_invariant_mean_vjp<T>(points, mean, g);
  }

  [[nodiscard]] TransportVjp<Point, Tangent> transport_vjp(const Point& p, const Point& q, const Tangent& w,
                                                           const Tangent& g) const {
    if (checks_enabled()) {
      spd::check_two_points("SpdAffineInvariant::transport_vjp", p, q, n_);
      spd::check_symmetric_tangent("SpdAffineInvariant::transport_vjp", w, n_);
      check_cotangent("SpdAffineInvariant::transport_vjp", g);
    }
    const Pullback root(p);
    const linalg::SymmetricEigen<T> white = whitened(Roots{root.sqrt, root.inv_sqrt}, q);
    const Matrix<T> h = linalg::apply(white, linalg::Sqrt{});
    const Matrix<T> e = root.sqrt * h * root.inv_sqrt;
    const Matrix<T> grad_e = (g + g.transpose()) * e * w;
    const Matrix<T> grad_white = linalg::frechet_derivative(
        white, linalg::Sqrt{}, linalg::symmetric_part<T>(root.sqrt * grad_e * root.inv_sqrt));
    const Matrix<T> grad_sqrt = grad_e * root.inv_sqrt * h;
    const Matrix<T> grad_inv_sqrt =
        h * root.sqrt * grad_e + grad_white * root.inv_sqrt * q + q * root.inv_sqrt * grad_white;
    return {root.to_p(grad_sqrt, grad_inv_sqrt), linalg::symmetric_part<T>(root.inv_sqrt * grad_white * root.inv_sqrt),
            linalg::symmetric_part<T>(e.transpose() * g * e)};
  }

  // ── Gyrogroup (GyroBN's AIM structure; identity I) ──
  /// P ⊕ Q = P^½ Q P^½.
  [[nodiscard]] Point gyro_identity() const { return Point::Identity(n_, n_); }
  [[nodiscard]] Point gyro_add(const Point& p, const Point& q) const {
    if (checks_enabled()) spd::check_two_points("SpdAffineInvariant::gyro_add", p, q, n_);
    const Roots r = roots(p);
    return linalg::symmetric_part<T>(r.sqrt * q * r.sqrt);
  }
  /// ⊖P = P⁻¹.
  [[nodiscard]] Point gyro_inverse(const Point& p) const {
    if (checks_enabled()) spd::check_spd("SpdAffineInvariant::gyro_inverse", p, n_);
    return linalg::spd_power<T>(p, -1.0);
  }
  /// gyr[P, Q]R = F R Fᵀ with the orthogonal F = (P^½QP^½)^-½ P^½ Q^½.
  [[nodiscard]] Point gyration(const Point& p, const Point& q, const Point& r) const {
    if (checks_enabled()) {
      spd::check_two_points("SpdAffineInvariant::gyration", p, q, n_);
      spd::check_spd("SpdAffineInvariant::gyration", r, n_);
    }
    const Roots rp = roots(p);
    const Matrix<T> sum = linalg::symmetric_part<T>(rp.sqrt * q * rp.sqrt);
    const Matrix<T> f = linalg::spd_power<T>(sum, -0.5) * rp.sqrt * linalg::spd_power<T>(q, 0.5);
    return linalg::symmetric_part<T>(f * r * f.transpose());
  }
  /// t ⊗ P = P^t.
  [[nodiscard]] Point gyro_scale(T t, const Point& p) const {
    if (checks_enabled()) {
      spd::check_spd("SpdAffineInvariant::gyro_scale", p, n_);
      if (!std::isfinite(t)) throw DomainError("SpdAffineInvariant::gyro_scale", "scalar must be finite", t);
    }
    return linalg::spd_power<T>(p, static_cast<double>(t));
  }

  // ── Gyro derivatives (gyre/core/group_derivatives.hpp) ──
  // P ⊕ Q = S·Q·S with S = P^½ (a product A·M·A of symmetric factors: ∂A = G·A·M + M·A·G,
  // ∂M = A·G·A), then ∂P = D√(P)[sym ∂S]; ⊖P = P⁻¹ and t ⊗ P = P^t by Daleckii–Krein
  // (spd_group_derivatives.hpp).
  [[nodiscard]] GyroAddVjp<Point> gyro_add_vjp(const Point& p, const Point& q, const Point& g) const {
    if (checks_enabled()) {
      spd::check_two_points("SpdAffineInvariant::gyro_add_vjp", p, q, n_);
      check_cotangent("SpdAffineInvariant::gyro_add_vjp", g);
    }
    const linalg::SymmetricEigen<T> e = linalg::symmetric_eigen<T>(p);
    const Matrix<T> root = linalg::apply(e, linalg::Sqrt{});
    const Matrix<T> grad_root = g * root * q + q * root * g;
    return {linalg::frechet_derivative(e, linalg::Sqrt{}, linalg::symmetric_part<T>(grad_root)),
            linalg::symmetric_part<T>(root * g * root)};
  }
  [[nodiscard]] Point gyro_inverse_vjp(const Point& p, const Point& g) const {
    return spd::matrix_inverse_vjp<T>("SpdAffineInvariant::gyro_inverse_vjp", p, g, n_);
  }
  [[nodiscard]] GyroScaleVjp<T, Point> gyro_scale_vjp(T t, const Point& p, const Point& g) const {
    return spd::matrix_power_vjp<T>("SpdAffineInvariant::gyro_scale_vjp", t, p, g, n_);
  }

  void check_point(const Point& p) const { spd::check_spd("SpdAffineInvariant::check_point", p, n_); }
  void check_tangent(const Point& p, const Tangent& v) const {
    spd::check_point_and_tangent("SpdAffineInvariant::check_tangent", p, v, n_);
  }

  /// P^½ and P^-½, from one eigendecomposition (public for the layers and the group action).
  struct Roots {
    Matrix<T> sqrt;
    Matrix<T> inv_sqrt;
  };
  [[nodiscard]] static Roots roots(const Point& p) {
    const linalg::SymmetricEigen<T> e = linalg::symmetric_eigen<T>(p);
    return {linalg::apply(e, linalg::Sqrt{}), linalg::apply(e, linalg::InverseSqrt{})};
  }

 private:
  // P's eigendecomposition with S = P^½ and R = P^-½, and the pullback of gradients with respect
  // to S and R to one with respect to P.
  struct Pullback {
    explicit Pullback(const Point& p)
        : eigen(linalg::symmetric_eigen<T>(p)),
          sqrt(linalg::apply(eigen, linalg::Sqrt{})),
          inv_sqrt(linalg::apply(eigen, linalg::InverseSqrt{})) {}
    [[nodiscard]] Matrix<T> to_p(const Matrix<T>& grad_sqrt, const Matrix<T>& grad_inv_sqrt) const {
      return linalg::symmetric_part<T>(
          linalg::frechet_derivative(eigen, linalg::Sqrt{}, linalg::symmetric_part<T>(grad_sqrt)) +
          linalg::frechet_derivative(eigen, linalg::InverseSqrt{}, linalg::symmetric_part<T>(grad_inv_sqrt)));
    }
    linalg::SymmetricEigen<T> eigen;
    Matrix<T> sqrt;
    Matrix<T> inv_sqrt;
  };

  void check_cotangent(const char* function, const Matrix<T>& g) const { spd::check_cotangent(function, g, n_); }

  // The eigendecomposition of P^-½ Q P^-½.
  static linalg::SymmetricEigen<T> whitened(const Roots& r, const Point& q) {
    linalg::SymmetricEigen<T> e = linalg::symmetric_eigen<T>(linalg::symmetric_part<T>(r.inv_sqrt * q * r.inv_sqrt));
    // Rounding can push the eigenvalues of a nearly singular product to ≤ 0 only if P or Q is
    // not SPD to working precision, which check_point rejects; clamp to the smallest normal.
    for (Eigen::Index i = 0; i < e.values.size(); ++i) {
      e.values(i) = std::max(e.values(i), std::numeric_limits<T>::min());
    }
    return e;
  }

  int n_;
  spd::AlphaBeta ab_;
};

static_assert(is_manifold_v<SpdAffineInvariant<float>> && is_manifold_v<SpdAffineInvariant<double>>);
static_assert(is_gyrogroup_v<SpdAffineInvariant<float>> && is_gyrogroup_v<SpdAffineInvariant<double>>);

}  // namespace gyre
