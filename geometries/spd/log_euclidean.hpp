#pragma once
// ============================================================================================
//  SPD(n) with the log-Euclidean metric (LEM), optionally with the (α, β) inner product:
//  g_P(U, V) = ⟨Dlog_P U, Dlog_P V⟩^(α,β). logm is an isometry onto the flat (Sym(n), ⟨·,·⟩^(α,β)).
// ============================================================================================
//  exp       exp_P(V) = expm(log P + Dlog_P V)
//  log       log_P(Q) = Dexp_{log P}(log Q − log P) = (Dlog_P)⁻¹(log Q − log P)
//  dist      ‖log Q − log P‖^(α,β)
//  transport along the geodesic P → Q: W ↦ (Dlog_Q)⁻¹(Dlog_P W) (the flat transport, mapped back)
//  mean      closed form: expm(Σ wᵢ log Pᵢ / Σ wᵢ)
//  Dlog, Dexp are Daleckii–Krein operators (gyre/linalg/symmetric_functions.hpp), accurate for
//  repeated eigenvalues. The power deformation of LEM is LEM itself (log P^θ = θ log P).
//  Complete and flat: injectivity radius +∞.
//  retract   exp (already cheap: two eigendecompositions).
//  Gyrogroup the LEM group: P ⊕ Q = expm(log P + log Q), ⊖P = P⁻¹, t ⊗ P = P^t, gyr = id.
//  References: Arsigny, Fillard, Pennec & Ayache 2007; Chen et al. 2024 (LieBN) for (α, β).
// ============================================================================================

#include <limits>
#include <vector>

#include "gyre/core/derivatives.hpp"
#include "gyre/core/gyrogroup.hpp"
#include "gyre/core/manifold.hpp"
#include "spd_common.hpp"
#include "spd_group_derivatives.hpp"

namespace gyre {

/// SPD(n) with the (α, β) log-Euclidean metric.
template <class T>
class SpdLogEuclidean {
 public:
  using Scalar = T;
  using Point = Matrix<T>;
  using Tangent = Matrix<T>;

  explicit SpdLogEuclidean(int n, spd::AlphaBeta ab = {}) : n_(n), ab_(ab) {
    spd::check_size("SpdLogEuclidean::SpdLogEuclidean", n);
    spd::check_alpha_beta("SpdLogEuclidean::SpdLogEuclidean", ab, n);
  }

  [[nodiscard]] int n() const { return n_; }
  [[nodiscard]] const spd::AlphaBeta& alpha_beta() const { return ab_; }
  [[nodiscard]] int dim() const { return spd::spd_dimension(n_); }
  [[nodiscard]] T injectivity_radius() const { return std::numeric_limits<T>::infinity(); }

  [[nodiscard]] Point exp(const Point& p, const Tangent& v) const {
    if (checks_enabled()) spd::check_point_and_tangent("SpdLogEuclidean::exp", p, v, n_);
    const linalg::SymmetricEigen<T> e = linalg::symmetric_eigen<T>(p);
    return linalg::symmetric_exp<T>(linalg::apply(e, linalg::Log{}) + linalg::frechet_derivative(e, linalg::Log{}, v));
  }

  [[nodiscard]] Tangent log(const Point& p, const Point& q) const {
    if (checks_enabled()) spd::check_two_points("SpdLogEuclidean::log", p, q, n_);
    const linalg::SymmetricEigen<T> e = linalg::symmetric_eigen<T>(p);
    const Matrix<T> difference = linalg::spd_log<T>(q) - linalg::apply(e, linalg::Log{});
    return linalg::inverse_frechet_derivative(e, linalg::Log{}, difference);
  }

  [[nodiscard]] Tangent transport(const Point& p, const Point& q, const Tangent& w) const {
    if (checks_enabled()) {
      spd::check_two_points("SpdLogEuclidean::transport", p, q, n_);
      spd::check_symmetric_tangent("SpdLogEuclidean::transport", w, n_);
    }
    const Matrix<T> flat = linalg::frechet_derivative(linalg::symmetric_eigen<T>(p), linalg::Log{}, w);
    return linalg::inverse_frechet_derivative(linalg::symmetric_eigen<T>(q), linalg::Log{}, flat);
  }

  // ── Derivatives (gyre/core/derivatives.hpp) ──
  // With D_P = Dlog(P) (self-adjoint) and ∂_P⟨K, D_P[V]⟩ its second-order pullback
  // (linalg::frechet_derivative_pullback):
  //   exp = expm(A), A = log P + D_P[V]: with Ā = Dexp(A)[sym G], ∂V = D_P[Ā], ∂P = D_P[Ā] + ∂_P⟨Ā, D_P[V]⟩;
  //   log X solves D_P[X] = log Q − log P: with Z = D_P⁻¹[sym G], ∂Q = D_Q[Z], ∂P = −D_P[Z] − ∂_P⟨Z, D_P[X]⟩;
  //   transport X solves D_Q[X] = D_P[W]: with Z = D_Q⁻¹[sym G], ∂W = D_P[Z], ∂P = ∂_P⟨Z, D_P[W]⟩,
  //   ∂Q = −∂_Q⟨Z, D_Q[X]⟩.
  [[nodiscard]] ExpVjp<Point, Tangent> exp_vjp(const Point& p, const Tangent& v, const Point& g) const {
    if (checks_enabled()) {
      spd::check_point_and_tangent("SpdLogEuclidean::exp_vjp", p, v, n_);
      check_cotangent("SpdLogEuclidean::exp_vjp", g);
    }
    const linalg::SymmetricEigen<T> e = linalg::symmetric_eigen<T>(p);
    const linalg::SymmetricEigen<T> a = linalg::symmetric_eigen<T>(
        linalg::symmetric_part<T>(linalg::apply(e, linalg::Log{}) + linalg::frechet_derivative(e, linalg::Log{}, v)));
    const Matrix<T> grad_a = linalg::frechet_derivative(a, linalg::Exp{}, linalg::symmetric_part<T>(g));
    const Matrix<T> grad_v = linalg::frechet_derivative(e, linalg::Log{}, grad_a);
    return {linalg::symmetric_part<T>(grad_v + linalg::frechet_derivative_pullback(e, linalg::Log{}, grad_a, v)),
            grad_v};
  }

  [[nodiscard]] LogVjp<Point> log_vjp(const Point& p, const Point& q, const Tangent& g) const {
    if (checks_enabled()) {
      spd::check_two_points("SpdLogEuclidean::log_vjp", p, q, n_);
      check_cotangent("SpdLogEuclidean::log_vjp", g);
    }
    const linalg::SymmetricEigen<T> ep = linalg::symmetric_eigen<T>(p);
    const linalg::SymmetricEigen<T> eq = linalg::symmetric_eigen<T>(q);
    const Matrix<T> x = linalg::inverse_frechet_derivative(
        ep, linalg::Log{}, Matrix<T>(linalg::apply(eq, linalg::Log{}) - linalg::apply(ep, linalg::Log{})));
    const Matrix<T> z = linalg::inverse_frechet_derivative(ep, linalg::Log{}, linalg::symmetric_part<T>(g));
    return {linalg::symmetric_part<T>(Matrix<T>(-linalg::frechet_derivative(ep, linalg::Log{}, z) -
                                                linalg::frechet_derivative_pullback(ep, linalg::Log{}, z, x))),
            linalg::frechet_derivative(eq, linalg::Log{}, z)};
  }

  [[nodiscard]] TransportVjp<Point, Tangent> transport_vjp(const Point& p, const Point& q, const Tangent& w,
                                                           const Tangent& g) const {
    if (checks_enabled()) {
      spd::check_two_points("SpdLogEuclidean::transport_vjp", p, q, n_);
      spd::check_symmetric_tangent("SpdLogEuclidean::transport_vjp", w, n_);
      check_cotangent("SpdLogEuclidean::transport_vjp", g);
    }
    const linalg::SymmetricEigen<T> ep = linalg::symmetric_eigen<T>(p);
    const linalg::SymmetricEigen<T> eq = linalg::symmetric_eigen<T>(q);
    const Matrix<T> x =
        linalg::inverse_frechet_derivative(eq, linalg::Log{}, linalg::frechet_derivative(ep, linalg::Log{}, w));
    const Matrix<T> z = linalg::inverse_frechet_derivative(eq, linalg::Log{}, linalg::symmetric_part<T>(g));
    return {linalg::frechet_derivative_pullback(ep, linalg::Log{}, z, w),
            Point(-linalg::frechet_derivative_pullback(eq, linalg::Log{}, z, x)),
            linalg::frechet_derivative(ep, linalg::Log{}, z)};
  }

  [[nodiscard]] T inner(const Point& p, const Tangent& u, const Tangent& v) const {
    if (checks_enabled()) {
      spd::check_point_and_tangent("SpdLogEuclidean::inner", p, u, n_);
      spd::check_symmetric_tangent("SpdLogEuclidean::inner", v, n_);
    }
    const linalg::SymmetricEigen<T> e = linalg::symmetric_eigen<T>(p);
    return spd::alpha_beta_inner<T>(ab_, linalg::frechet_derivative(e, linalg::Log{}, u),
                                    linalg::frechet_derivative(e, linalg::Log{}, v));
  }

  [[nodiscard]] T norm(const Point& p, const Tangent& v) const { return std::sqrt(std::max(T(0), inner(p, v, v))); }

  [[nodiscard]] T dist(const Point& p, const Point& q) const {
    if (checks_enabled()) spd::check_two_points("SpdLogEuclidean::dist", p, q, n_);
    const Matrix<T> d = linalg::spd_log<T>(q) - linalg::spd_log<T>(p);
    return std::sqrt(std::max(T(0), spd::alpha_beta_inner<T>(ab_, d, d)));
  }

  /// The Riemannian gradient from the Euclidean gradient G = ∂f/∂P: the metric pulls α·tr(AB) +
  /// β·tr(A)·tr(B) back through D = d log_P, which is self-adjoint with D(I) = P⁻¹, so R solves
  /// α·D²R + β·tr(DR)·D(I) = sym(G): with T = D⁻¹(sym G), R = D⁻¹((T − β·tr(T)/(α + nβ)·I)/α).
  [[nodiscard]] Tangent egrad_to_rgrad(const Point& p, const Tangent& g) const {
    const Matrix<T> s = spd::project_to_symmetric("SpdLogEuclidean::egrad_to_rgrad", p, g, n_);
    const linalg::SymmetricEigen<T> e = linalg::symmetric_eigen<T>(p);
    Matrix<T> t = linalg::inverse_frechet_derivative(e, linalg::Log{}, s);
    const T alpha = static_cast<T>(ab_.alpha);
    const T beta = static_cast<T>(ab_.beta);
    if (beta != 0) t.diagonal().array() -= beta * t.trace() / (alpha + static_cast<T>(n_) * beta);
    return linalg::inverse_frechet_derivative(e, linalg::Log{}, Matrix<T>(t / alpha));
  }

  [[nodiscard]] Tangent project(const Point& p, const Tangent& a) const {
    return spd::project_to_symmetric("SpdLogEuclidean::project", p, a, n_);
  }

  [[nodiscard]] Point retract(const Point& p, const Tangent& v) const { return exp(p, v); }

  [[nodiscard]] Point random_point(Rng& rng) const { return spd::random_spd<T>(n_, rng); }

  [[nodiscard]] Tangent random_tangent(const Point& p, Rng& rng) const {
    return linalg::inverse_frechet_derivative(linalg::symmetric_eigen<T>(p), linalg::Log{},
                                              spd::random_symmetric<T>(n_, ab_, rng));
  }

  /// The weighted Fréchet mean in closed form, expm(Σ wᵢ log Pᵢ / Σ wᵢ) (weights default to 1/N).
  [[nodiscard]] Point mean(const std::vector<Point>& points, std::vector<T> weights = {}) const {
    const T total = spd::checked_weight_total("SpdLogEuclidean::mean", points, weights, n_);
    Matrix<T> sum = Matrix<T>::Zero(n_, n_);
    for (std::size_t i = 0; i < points.size(); ++i) sum += weights[i] * linalg::spd_log<T>(points[i]);
    return linalg::symmetric_exp<T>(sum / total);
  }

  // ── Gyrogroup (the LEM group; abelian, so every gyration is the identity) ──
  [[nodiscard]] Point gyro_identity() const { return Point::Identity(n_, n_); }
  /// P ⊕ Q = expm(log P + log Q).
  [[nodiscard]] Point gyro_add(const Point& p, const Point& q) const {
    if (checks_enabled()) spd::check_two_points("SpdLogEuclidean::gyro_add", p, q, n_);
    return linalg::symmetric_exp<T>(linalg::spd_log<T>(p) + linalg::spd_log<T>(q));
  }
  [[nodiscard]] Point gyro_inverse(const Point& p) const {
    if (checks_enabled()) spd::check_spd("SpdLogEuclidean::gyro_inverse", p, n_);
    return linalg::spd_power<T>(p, -1.0);
  }
  [[nodiscard]] Point gyration(const Point& p, const Point& q, const Point& r) const {
    if (checks_enabled()) {
      spd::check_two_points("SpdLogEuclidean::gyration", p, q, n_);
      spd::check_spd("SpdLogEuclidean::gyration", r, n_);
    }
    return r;
  }
  /// t ⊗ P = P^t.
  [[nodiscard]] Point gyro_scale(T t, const Point& p) const {
    if (checks_enabled()) {
      spd::check_spd("SpdLogEuclidean::gyro_scale", p, n_);
      if (!std::isfinite(t)) throw DomainError("SpdLogEuclidean::gyro_scale", "scalar must be finite", t);
    }
    return linalg::spd_power<T>(p, static_cast<double>(t));
  }

  // ── Gyro derivatives (gyre/core/group_derivatives.hpp): ⊕, ⊖ and ⊗ by Daleckii–Krein
  //    (spd_group_derivatives.hpp) ──
  [[nodiscard]] GyroAddVjp<Point> gyro_add_vjp(const Point& p, const Point& q, const Point& g) const {
    return spd::log_sum_vjp<T>("SpdLogEuclidean::gyro_add_vjp", p, q, g, n_);
  }
  [[nodiscard]] Point gyro_inverse_vjp(const Point& p, const Point& g) const {
    return spd::matrix_inverse_vjp<T>("SpdLogEuclidean::gyro_inverse_vjp", p, g, n_);
  }
  [[nodiscard]] GyroScaleVjp<T, Point> gyro_scale_vjp(T t, const Point& p, const Point& g) const {
    return spd::matrix_power_vjp<T>("SpdLogEuclidean::gyro_scale_vjp", t, p, g, n_);
  }

  void check_point(const Point& p) const { spd::check_spd("SpdLogEuclidean::check_point", p, n_); }
  void check_tangent(const Point& p, const Tangent& v) const {
    spd::check_point_and_tangent("SpdLogEuclidean::check_tangent", p, v, n_);
  }

 private:
  void check_cotangent(const char* function, const Matrix<T>& g) const { spd::check_cotangent(function, g, n_); }

  int n_;
  spd::AlphaBeta ab_;
};

static_assert(is_manifold_v<SpdLogEuclidean<float>> && is_manifold_v<SpdLogEuclidean<double>>);
static_assert(is_gyrogroup_v<SpdLogEuclidean<float>> && is_gyrogroup_v<SpdLogEuclidean<double>>);

}  // namespace gyre
