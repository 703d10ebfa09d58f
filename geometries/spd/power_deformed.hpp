#pragma once
// ============================================================================================
//  The power deformation of an SPD metric (Thanwerdas & Pennec 2019; the θ-metrics of LieBN):
//      g^θ_P(U, V) = (1/θ²)·g_{P^θ}(Dpow_θ(P)[U], Dpow_θ(P)[V]),   θ ≠ 0.
// ============================================================================================
//  φ(P) = P^θ is then an isometry onto (SPD, g/θ²), whose geodesics are the base metric's, so
//      exp_P(V)        = φ⁻¹(exp_{φP}(dφ_P V))          log_P(Q) = dφ_P⁻¹(log_{φP}(φQ))
//      transport(P,Q,W) = dφ_Q⁻¹(transport_{φP→φQ}(dφ_P W))   dist = dist(φP, φQ)/|θ|
//  with dφ the Daleckii–Krein derivative of the power (exact for repeated eigenvalues). θ = 1 is
//  the base metric; θ → 0 tends to the log-Euclidean metric for the affine-invariant base.
//  Deforming the log-Euclidean metric changes nothing (log P^θ = θ log P), so Gyre offers this
//  for the affine-invariant, log-Cholesky and Euclidean bases (geomstats' power-affine and
//  power-Euclidean metrics are θ-AIM and θ-Euclidean).
//  VJPs (exp, log, transport) exist where the base metric has them: the chain rule through the
//  power's first and second Daleckii–Krein derivatives (Power::divided2).
// ============================================================================================

#include <cmath>
#include <string>
#include <type_traits>

#include "gyre/core/derivatives.hpp"
#include "gyre/core/manifold.hpp"
#include "spd_common.hpp"

namespace gyre {

/// The θ-power deformation of an SPD metric `Base` (a class of geometries/spd/).
template <class Base>
class PowerDeformed {
 public:
  using Scalar = typename Base::Scalar;
  using T = Scalar;
  using Point = Matrix<T>;
  using Tangent = Matrix<T>;

  PowerDeformed(Base base, double theta) : base_(std::move(base)), theta_(theta) {
    if (!(theta != 0) || !std::isfinite(theta)) {
      throw DomainError("PowerDeformed::PowerDeformed", "the power theta must be finite and ≠ 0", theta);
    }
  }

  [[nodiscard]] const Base& base() const { return base_; }
  [[nodiscard]] double theta() const { return theta_; }
  [[nodiscard]] int n() const { return base_.n(); }
  [[nodiscard]] int dim() const { return base_.dim(); }
  [[nodiscard]] T injectivity_radius() const { return base_.injectivity_radius() / std::abs(static_cast<T>(theta_)); }

  [[nodiscard]] Point exp(const Point& p, const Tangent& v) const {
    if (checks_enabled()) check_point_tangent("PowerDeformed::exp", p, v);
    const Mapped m = map(p);
    return linalg::spd_power<T>(base_.exp(m.power, linalg::frechet_derivative(m.eigen, power(), v)), 1.0 / theta_);
  }
  [[nodiscard]] Tangent log(const Point& p, const Point& q) const {
    if (checks_enabled()) check_two_points("PowerDeformed::log", p, q);
    const Mapped m = map(p);
    return linalg::inverse_frechet_derivative(m.eigen, power(), base_.log(m.power, linalg::spd_power<T>(q, theta_)));
  }
  [[nodiscard]] Tangent transport(const Point& p, const Point& q, const Tangent& w) const {
    if (checks_enabled()) {
      check_two_points("PowerDeformed::transport", p, q);
      spd::check_symmetric_tangent("PowerDeformed::transport", w, n());
    }
    const Mapped mp = map(p);
    const Mapped mq = map(q);
    const Tangent moved = base_.transport(mp.power, mq.power, linalg::frechet_derivative(mp.eigen, power(), w));
    return linalg::inverse_frechet_derivative(mq.eigen, power(), moved);
  }
  /// VJPs (gyre/core/derivatives.hpp), where the base metric has them: the chain rule through
  /// φ = (·)^θ, its inverse (·)^(1/θ) and dφ, whose adjoints are Daleckii–Krein derivatives (self-
  /// adjoint) and, for the dependence of dφ_P on P, the second-order Daleckii–Krein pullback.
  ///   exp: Y = ψ(exp′(φP, dφ_P V)), ψ = (·)^(1/θ): ∂Z = dψ_Z[G]; base VJP → (∂φP, ∂W);
  ///        ∂V = dφ_P[∂W], ∂P = dφ_P[∂φP] + D²φ_P*(∂W, V).
  ///   log: U = dφ_P⁻¹[H], H = log′(φP, φQ): K = dφ_P⁻¹[G] is H's cotangent, and dφ_P[U] = H gives
  ///        ∂P = −D²φ_P*(K, U) + dφ_P[∂φP], ∂Q = dφ_Q[∂φQ].
  ///   transport: R = dφ_Q⁻¹[transport′(φP, φQ, dφ_P W)], by the same two rules.
  template <class B = Base, std::enable_if_t<has_exp_log_vjp_v<B>, int> = 0>
  [[nodiscard]] ExpVjp<Point, Tangent> exp_vjp(const Point& p, const Tangent& v, const Point& g) const {
    if (checks_enabled()) {
      check_point_tangent("PowerDeformed::exp_vjp", p, v);
      spd::check_cotangent("PowerDeformed::exp_vjp", g, n());
    }
    const Mapped m = map(p);
    const Tangent w = linalg::frechet_derivative(m.eigen, power(), v);
    const Point z = base_.exp(m.power, w);
    const Point grad_z =
        linalg::frechet_derivative(linalg::symmetric_eigen<T>(z), inverse_power(), linalg::symmetric_part<T>(g));
    const auto base_vjp = base_.exp_vjp(m.power, w, grad_z);
    const Matrix<T> grad_w = linalg::symmetric_part<T>(base_vjp.v);
    return {Point(linalg::frechet_derivative(m.eigen, power(), linalg::symmetric_part<T>(base_vjp.x)) +
                  linalg::frechet_derivative_pullback(m.eigen, power(), grad_w, v)),
            Tangent(linalg::frechet_derivative(m.eigen, power(), grad_w))};
  }
  template <class B = Base, std::enable_if_t<has_exp_log_vjp_v<B>, int> = 0>
  [[nodiscard]] LogVjp<Point> log_vjp(const Point& p, const Point& q, const Tangent& g) const {
    if (checks_enabled()) {
      check_two_points("PowerDeformed::log_vjp", p, q);
      spd::check_cotangent("PowerDeformed::log_vjp", g, n());
    }
    const Mapped mp = map(p);
    const Mapped mq = map(q);
    const Tangent u = linalg::inverse_frechet_derivative(mp.eigen, power(), base_.log(mp.power, mq.power));
    const Matrix<T> k = linalg::inverse_frechet_derivative(mp.eigen, power(), linalg::symmetric_part<T>(g));
    const auto base_vjp = base_.log_vjp(mp.power, mq.power, k);
    return {Point(linalg::frechet_derivative(mp.eigen, power(), linalg::symmetric_part<T>(base_vjp.x)) -
                  linalg::frechet_derivative_pullback(mp.eigen, power(), k, u)),
            Point(linalg::frechet_derivative(mq.eigen, power(), linalg::symmetric_part<T>(base_vjp.y)))};
  }
  template <class B = Base, std::enable_if_t<has_transport_vjp_v<B>, int> = 0>
  [[nodiscard]] TransportVjp<Point, Tangent> transport_vjp(const Point& p, const Point& q, const Tangent& w,
                                                           const Tangent& g) const {
    if (checks_enabled()) {
      check_two_points("PowerDeformed::transport_vjp", p, q);
      spd::check_symmetric_tangent("PowerDeformed::transport_vjp", w, n());
      spd::check_cotangent("PowerDeformed::transport_vjp", g, n());
    }
    const Mapped mp = map(p);
    const Mapped mq = map(q);
    const Tangent mapped_w = linalg::frechet_derivative(mp.eigen, power(), w);
    const Tangent moved = base_.transport(mp.power, mq.power, mapped_w);
    const Tangent r = linalg::inverse_frechet_derivative(mq.eigen, power(), moved);
    const Matrix<T> k = linalg::inverse_frechet_derivative(mq.eigen, power(), linalg::symmetric_part<T>(g));
    const auto base_vjp = base_.transport_vjp(mp.power, mq.power, mapped_w, k);
    const Matrix<T> grad_w = linalg::symmetric_part<T>(base_vjp.w);
    return {Point(linalg::frechet_derivative(mp.eigen, power(), linalg::symmetric_part<T>(base_vjp.x)) +
                  linalg::frechet_derivative_pullback(mp.eigen, power(), grad_w, w)),
            Point(linalg::frechet_derivative(mq.eigen, power(), linalg::symmetric_part<T>(base_vjp.y)) -
                  linalg::frechet_derivative_pullback(mq.eigen, power(), k, r)),
            Tangent(linalg::frechet_derivative(mp.eigen, power(), grad_w))};
  }

  [[nodiscard]] T inner(const Point& p, const Tangent& u, const Tangent& v) const {
    if (checks_enabled()) {
      check_point_tangent("PowerDeformed::inner", p, u);
      spd::check_symmetric_tangent("PowerDeformed::inner", v, n());
    }
    const Mapped m = map(p);
    const T theta = static_cast<T>(theta_);
    return base_.inner(m.power, linalg::frechet_derivative(m.eigen, power(), u),
                       linalg::frechet_derivative(m.eigen, power(), v)) /
           (theta * theta);
  }
  [[nodiscard]] T norm(const Point& p, const Tangent& v) const { return std::sqrt(std::max(T(0), inner(p, v, v))); }
  [[nodiscard]] T dist(const Point& p, const Point& q) const {
    if (checks_enabled()) check_two_points("PowerDeformed::dist", p, q);
    return base_.dist(linalg::spd_power<T>(p, theta_), linalg::spd_power<T>(q, theta_)) /
           std::abs(static_cast<T>(theta_));
  }
  /// The Riemannian gradient from the Euclidean gradient G: the metric is the base one at P^θ
  /// pulled back by D = dφ_P (φ(P) = P^θ, self-adjoint) and divided by θ², so
  /// R = D⁻¹(θ²·base gradient at P^θ of D⁻¹(sym G)).
  [[nodiscard]] Tangent egrad_to_rgrad(const Point& p, const Tangent& g) const {
    if (checks_enabled()) {
      require_shape("PowerDeformed::egrad_to_rgrad", "Euclidean gradient", g, n(), n());
      require_finite("PowerDeformed::egrad_to_rgrad", "Euclidean gradient", g);
      check_point_tangent("PowerDeformed::egrad_to_rgrad", p, linalg::symmetric_part<T>(g));
    }
    const Mapped m = map(p);
    const T theta = static_cast<T>(theta_);
    const Matrix<T> pulled = linalg::inverse_frechet_derivative(m.eigen, power(), linalg::symmetric_part<T>(g));
    return linalg::inverse_frechet_derivative(m.eigen, power(),
                                              Matrix<T>(theta * theta * base_.egrad_to_rgrad(m.power, pulled)));
  }
  [[nodiscard]] Tangent project(const Point& p, const Tangent& a) const { return base_.project(p, a); }
  [[nodiscard]] Point retract(const Point& p, const Tangent& v) const { return exp(p, v); }
  [[nodiscard]] Point random_point(Rng& rng) const { return base_.random_point(rng); }
  /// dφ_P⁻¹(θ·Z) with Z standard for the base metric at P^θ: standard for g^θ.
  [[nodiscard]] Tangent random_tangent(const Point& p, Rng& rng) const {
    const Mapped m = map(p);
    return linalg::inverse_frechet_derivative(m.eigen, power(),
                                              Matrix<T>(static_cast<T>(theta_) * base_.random_tangent(m.power, rng)));
  }
  void check_point(const Point& p) const { base_.check_point(p); }
  void check_tangent(const Point& p, const Tangent& v) const { base_.check_tangent(p, v); }

 private:
  struct Mapped {
    linalg::SymmetricEigen<T> eigen;  // of P
    Matrix<T> power;                  // P^θ
  };
  Mapped map(const Point& p) const {
    Mapped m{linalg::symmetric_eigen<T>(p), {}};
    m.power = linalg::apply(m.eigen, power());
    return m;
  }
  linalg::Power power() const { return linalg::Power{theta_}; }
  linalg::Power inverse_power() const { return linalg::Power{1.0 / theta_}; }

  void check_point_tangent(const char* function, const Point& p, const Tangent& v) const {
    spd::check_spd(function, p, n());
    spd::check_symmetric_tangent(function, v, n());
  }
  void check_two_points(const char* function, const Point& p, const Point& q) const {
    spd::check_spd(function, p, n());
    spd::check_spd(function, q, n());
  }

  Base base_;
  double theta_;
};

}  // namespace gyre
