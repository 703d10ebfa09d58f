#pragma once
// ============================================================================================
//  The sphere Sⁿ = {x ∈ ℝⁿ⁺¹ : ‖x‖ = 1} with the round metric induced from ℝⁿ⁺¹.
//  This is the documented example geometry: copy its layout when you add a space.
// ============================================================================================
//  Storage   points and tangent vectors are vectors of ℝⁿ⁺¹; T_x Sⁿ = {v : ⟨x, v⟩ = 0}.
//  Metric    ⟨u, v⟩ₓ = uᵀv (Euclidean, induced); dist(x, y) = θ = the angle between x and y.
//  exp       expₓ(v) = cos‖v‖·x + sinc‖v‖·v, re-normalised to unit length.
//  log       logₓ(y) = θ·u/‖u‖ with u the component of y orthogonal to x, θ = atan2(‖u‖, ⟨x, y⟩).
//            u is formed from y − x when ⟨x, y⟩ ≥ 0 and from y + x otherwise (the difference is
//            small in both regimes, so u keeps full relative accuracy near x and near −x; the
//            textbook y − ⟨x, y⟩x loses digits in both).
//  transport along the geodesic x → y, with u = logₓ(y), θ = ‖u‖:
//            P(w) = w − ⟨u, w⟩·((1 − cos θ)/θ²·u + sinc θ·x)   (no division by θ anywhere).
//  Cut locus the antipode −x; injectivity radius π. log and transport at y = −x (where u vanishes
//            to rounding, ‖u‖ ≤ 4ε) throw DomainError: every direction is a minimising geodesic,
//            and picking one silently would hide a modelling error. dist(x, −x) = π is fine.
//            Near the antipode (θ = π − δ) log keeps a relative accuracy of about ε/δ: that is
//            the problem's conditioning, not the formula's.
//  retract   (x + v)/‖x + v‖.
//  Sampling  random_point: uniform on Sⁿ (a normalised Gaussian); random_tangent: a standard
//            Gaussian of T_x.
//  References: Absil, Mahony & Sepulchre 2008, Optimization Algorithms on Matrix Manifolds, ex. 5.4.1;
//            geomstats' Hypersphere (same conventions; pinned by shared/reference/geomstats.json).
// ============================================================================================

#include <cmath>
#include <limits>
#include <string>

#include <boost/math/constants/constants.hpp>

#include "gyre/core/derivatives.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/manifold.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/core/scalar_functions.hpp"
#include "gyre/core/types.hpp"
#include "gyre/core/validate.hpp"

namespace gyre {

/// The unit sphere Sⁿ ⊂ ℝⁿ⁺¹ with its round metric.
template <class T>
class Sphere {
 public:
  using Scalar = T;
  using Point = Vector<T>;
  using Tangent = Vector<T>;

  /// Sⁿ; n ≥ 1 is the manifold dimension, so points have n + 1 coordinates.
  explicit Sphere(int n) : n_(n) {
    if (n < 1) throw DomainError("Sphere::Sphere", "dimension n must be at least 1", n);
  }

  [[nodiscard]] int n() const { return n_; }
  [[nodiscard]] int dim() const { return n_; }
  [[nodiscard]] T injectivity_radius() const { return boost::math::constants::pi<T>(); }

  [[nodiscard]] Point exp(const Point& x, const Tangent& v) const {
    if (checks_enabled()) check_tangent_at_point("Sphere::exp", x, v);
    // stableNorm: ‖v‖ of entries near 1e300 is finite though their squares are not (a NaN otherwise).
    const T theta = v.stableNorm();
    if (!std::isfinite(theta)) throw DomainError("Sphere::exp", "the tangent vector's norm overflows", theta);
    Point y = std::cos(theta) * x + sinc(theta) * v;
    return y / y.norm();  // re-normalise: repeated exp must not drift off the sphere
  }

  [[nodiscard]] Tangent log(const Point& x, const Point& y) const {
    if (checks_enabled()) check_two_points("Sphere::log", x, y);
    return log_unchecked("Sphere::log", x, y);
  }

  [[nodiscard]] Tangent transport(const Point& x, const Point& y, const Tangent& w) const {
    if (checks_enabled()) {
      check_two_points("Sphere::transport", x, y);
      check_tangent("Sphere::transport", x, w);
    }
    const Tangent u = log_unchecked("Sphere::transport", x, y);
    const T theta = u.norm();
    return w - u.dot(w) * (one_minus_cos_over_sq(theta) * u + sinc(theta) * x);
  }

  [[nodiscard]] T inner(const Point& x, const Tangent& u, const Tangent& v) const {
    if (checks_enabled()) {
      check_tangent("Sphere::inner", x, u);
      check_tangent("Sphere::inner", x, v);
    }
    return u.dot(v);
  }

  [[nodiscard]] T norm(const Point& x, const Tangent& v) const {
    if (checks_enabled()) check_tangent("Sphere::norm", x, v);
    return v.norm();
  }

  [[nodiscard]] T dist(const Point& x, const Point& y) const {
    if (checks_enabled()) check_two_points("Sphere::dist", x, y);
    return orthogonal_part(x, y).theta;
  }

  [[nodiscard]] Tangent project(const Point& x, const Tangent& a) const {
    if (checks_enabled()) {
      check_point("Sphere::project", x);
      require_size("Sphere::project", "ambient vector", a, x.size());
      require_finite("Sphere::project", "ambient vector", a);
    }
    return a - x.dot(a) * x;
  }

  /// The Riemannian gradient from the Euclidean gradient g of an extension of f to ℝⁿ⁺¹: the
  /// round metric is the ambient one, so it is the tangent part of g.
  [[nodiscard]] Tangent egrad_to_rgrad(const Point& x, const Tangent& g) const {
    if (checks_enabled()) {
      check_point("Sphere::egrad_to_rgrad", x);
      require_size("Sphere::egrad_to_rgrad", "Euclidean gradient", g, x.size());
      require_finite("Sphere::egrad_to_rgrad", "Euclidean gradient", g);
    }
    return g - x.dot(g) * x;
  }

  // ── Derivatives (gyre/core/derivatives.hpp) ────────────────────────────────────────────
  // Of the formulas above as functions of ambient x, v, y (their re-normalisations move nothing
  // along the manifold). With θ = ‖v‖, c = cos θ, s = sinc θ, q = s′(θ)/θ:
  //   exp:  ∂x = c·G,  ∂v = s·G + (q⟨G, v⟩ − s⟨G, x⟩)·v
  //   log = f(c)(y − c·x) with c = ⟨x, y⟩, f = θ/sin θ, f′(c) = q/s³; with k = f′⟨G, y − cx⟩ − f⟨G, x⟩:
  //         ∂x = k·y − c·f·G,  ∂y = k·x + f·G
  //   transport = w − m(a·u + s·x) with u = log(x, y), m = ⟨u, w⟩, a = (1 − cos θ)/θ², r = a′(θ)/θ,
  //         K = a⟨G, u⟩ + s⟨G, x⟩: ∂w = G − K·u, ∂x ∋ −m·s·G, ∂u = −K·w − m·a·G − m(r⟨G, u⟩ + q⟨G, x⟩)·u,
  //         and ∂u flows on through log_vjp.
  [[nodiscard]] ExpVjp<Point, Tangent> exp_vjp(const Point& x, const Tangent& v, const Point& g) const {
    if (checks_enabled()) {
      check_tangent_at_point("Sphere::exp_vjp", x, v);
      require_size("Sphere::exp_vjp", "cotangent", g, x.size());
      require_finite("Sphere::exp_vjp", "cotangent", g);
    }
    const T theta = v.norm();
    const T s = sinc(theta);
    return {std::cos(theta) * g, s * g + (sinc_derivative_over_theta(theta) * g.dot(v) - s * g.dot(x)) * v};
  }

  [[nodiscard]] LogVjp<Point> log_vjp(const Point& x, const Point& y, const Tangent& g) const {
    if (checks_enabled()) {
      check_two_points("Sphere::log_vjp", x, y);
      require_size("Sphere::log_vjp", "cotangent", g, x.size());
      require_finite("Sphere::log_vjp", "cotangent", g);
    }
    return log_vjp_unchecked("Sphere::log_vjp", x, y, g);
  }

  [[nodiscard]] TransportVjp<Point, Tangent> transport_vjp(const Point& x, const Point& y, const Tangent& w,
                                                           const Tangent& g) const {
    if (checks_enabled()) {
      check_two_points("Sphere::transport_vjp", x, y);
      check_tangent("Sphere::transport_vjp", x, w);
      require_size("Sphere::transport_vjp", "cotangent", g, x.size());
      require_finite("Sphere::transport_vjp", "cotangent", g);
    }
    const Tangent u = log_unchecked("Sphere::transport_vjp", x, y);
    const T theta = u.norm();
    const T a = one_minus_cos_over_sq(theta);
    const T s = sinc(theta);
    const T m = u.dot(w);
    const T k = a * g.dot(u) + s * g.dot(x);
    const Tangent grad_u = -k * w - m * a * g -
                           m *
                               (one_minus_cos_over_sq_derivative_over_theta(theta) * g.dot(u) +
                                sinc_derivative_over_theta(theta) * g.dot(x)) *
                               u;
    LogVjp<Point> through_log = log_vjp_unchecked("Sphere::transport_vjp", x, y, grad_u);
    return {Point(through_log.x - m * s * g), std::move(through_log.y), Tangent(g - k * u)};
  }

  [[nodiscard]] Point retract(const Point& x, const Tangent& v) const {
    if (checks_enabled()) check_tangent_at_point("Sphere::retract", x, v);
    const Point y = x + v;
    return y / y.norm();  // ‖x + v‖ ≥ 1 because v ⟂ x, so this never divides by zero
  }

  [[nodiscard]] Point random_point(Rng& rng) const {
    Point x = rng.normal_matrix<T>(n_ + 1, 1);
    // A standard Gaussian in ℝⁿ⁺¹ is zero with probability 0 and never in practice; still, redraw.
    while (x.norm() == 0) x = rng.normal_matrix<T>(n_ + 1, 1);
    return x / x.norm();
  }

  [[nodiscard]] Tangent random_tangent(const Point& x, Rng& rng) const {
    const Tangent a = rng.normal_matrix<T>(n_ + 1, 1);
    return a - x.dot(a) * x;
  }

  void check_point(const Point& x) const { check_point("Sphere::check_point", x); }
  void check_tangent(const Point& x, const Tangent& v) const {
    check_point("Sphere::check_tangent", x);
    check_tangent("Sphere::check_tangent", x, v);
  }

 private:
  Tangent log_unchecked(const char* function, const Point& x, const Point& y) const {
    const Orthogonal parts = orthogonal_part(x, y);
    if (parts.u_norm <= 4 * std::numeric_limits<T>::epsilon() && parts.cos_theta < 0) {
      throw DomainError(function, "points are antipodal, the log is not unique (‖y + x‖)",
                        static_cast<double>((y + x).norm()));
    }
    // θ/‖u‖ → 1 as ‖u‖ → 0 (then θ ≈ ‖u‖), and ‖u‖ = 0 only for y = x: return 0 there.
    if (parts.u_norm == 0) return Tangent::Zero(x.size());
    return (parts.theta / parts.u_norm) * parts.u;
  }

  LogVjp<Point> log_vjp_unchecked(const char* function, const Point& x, const Point& y, const Tangent& g) const {
    const Orthogonal parts = orthogonal_part(x, y);
    if (parts.u_norm <= 4 * std::numeric_limits<T>::epsilon() && parts.cos_theta < 0) {
      throw DomainError(function, "points are antipodal, the log is not differentiable (‖y + x‖)",
                        static_cast<double>((y + x).norm()));
    }
    const T s = sinc(parts.theta);
    const T f = T(1) / s;
    const T f_prime = sinc_derivative_over_theta(parts.theta) / (s * s * s);
    const T k = f_prime * g.dot(parts.u) - f * g.dot(x);
    return {Point(k * y - parts.cos_theta * f * g), Point(k * x + f * g)};
  }

  struct Orthogonal {
    Tangent u;    // the component of y orthogonal to x
    T u_norm;     // ‖u‖ = sin θ
    T cos_theta;  // ⟨x, y⟩
    T theta;      // the angle between x and y
  };

  // u = y − ⟨x, y⟩x formed from whichever of y ∓ x is small (see the header).
  static Orthogonal orthogonal_part(const Point& x, const Point& y) {
    const T c = x.dot(y);
    const Point d = c >= 0 ? Point(y - x) : Point(y + x);
    Orthogonal parts;
    parts.u = d - x.dot(d) * x;
    parts.u_norm = parts.u.norm();
    parts.cos_theta = c;
    parts.theta = std::atan2(parts.u_norm, c);
    return parts;
  }

  void check_point(const char* function, const Point& x) const {
    require_size(function, "point", x, n_ + 1);
    require_finite(function, "point", x);
    const T error = std::abs(x.norm() - 1);
    require_small(function, "point is not a unit vector (|‖x‖ − 1|)", error, membership_tolerance<T>());
  }

  void check_tangent(const char* function, const Point& x, const Tangent& v) const {
    require_size(function, "tangent vector", v, n_ + 1);
    require_finite(function, "tangent vector", v);
    const T error = std::abs(x.dot(v)) / std::max(T(1), v.norm());
    require_small(function, "vector is not tangent at x (|⟨x, v⟩|/max(1, ‖v‖))", error, membership_tolerance<T>());
  }

  void check_tangent_at_point(const char* function, const Point& x, const Tangent& v) const {
    check_point(function, x);
    check_tangent(function, x, v);
  }

  void check_two_points(const char* function, const Point& x, const Point& y) const {
    check_point(function, x);
    check_point(function, y);
  }

  int n_;
};

static_assert(is_manifold_v<Sphere<float>> && is_manifold_v<Sphere<double>>);

}  // namespace gyre
