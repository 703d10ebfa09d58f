#pragma once
// ============================================================================================
//  The hyperboloid model of hyperbolic n-space (curvature −1):
//  Hⁿ = {x ∈ ℝⁿ⁺¹ : ⟨x, x⟩_L = −1, x₀ > 0}, ⟨a, b⟩_L = −a₀b₀ + Σᵢ aᵢbᵢ (Minkowski).
// ============================================================================================
//  Tangents T_x = {v : ⟨x, v⟩_L = 0}, metric ⟨u, v⟩_L (positive definite there).
//  exp       exp_x(v) = cosh‖v‖·x + sinh‖v‖·v/‖v‖, re-projected onto Hⁿ by x₀ = √(1 + Σxᵢ²)
//            (geomstats rescales by √|⟨x,x⟩_L| instead, which turns rounding into a 1e-3 error
//            at distance 10).
//  log       log_x(y) = asinh(‖u‖)/‖u‖·u, u = y + ⟨x, y⟩_L·x formed as δ + ⟨x, δ⟩_L·x with δ = y − x
//            (no cancellation for nearby points; ‖u‖ = sinh d, so d = asinh‖u‖, not the
//            arccosh(−⟨x,y⟩_L) that geomstats rounds to 0 for close points).
//  dist      asinh‖u‖_L
//  transport along the geodesic x → y: w ↦ w + ⟨y, w⟩_L/(1 − ⟨x, y⟩_L)·(x + y)
//  Complete and simply connected: injectivity radius +∞.
//  Sampling  random_point = exp_o(Z/2) at the origin o = (1, 0, …, 0), Z standard in T_o (points
//            about one unit from o: coordinates grow like e^d, and so does the model's rounding);
//            random_tangent: a standard Gaussian of T_x (transported from T_o).
//  Gyro      the Poincaré ball's Möbius structure carried over by the isometry π: Hⁿ → Bⁿ,
//            π(x) = x₁..ₙ/(1 + x₀), and its inverse φ(b) = (1 + ‖b‖², 2b)/(1 − ‖b‖²): a ⊕ b =
//            φ(π a ⊕ π b), gyr and ⊗ likewise, ⊖a = φ(−π a) = (a₀, −a₁..ₙ), e = the origin. π and φ
//            are isometries fixing the origin, so every gyrogroup law, GyroBN's conditions and
//            r ⊗ a = exp_e(r·log_e a) carry over (GyroBN on the hyperboloid "through its ball model",
//            as GitZH-Chen/GyroBN's GyroBNH.py does). The VJPs chain the ball's between those of π, φ.
//  Conversions to and from the Poincaré ball of any κ < 0: geometries/stereographic/model_conversions.hpp.
// ============================================================================================

#include <cmath>
#include <limits>

#include "../stereographic/stereographic.hpp"
#include "gyre/core/checks.hpp"
#include "gyre/core/derivatives.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/group_derivatives.hpp"
#include "gyre/core/gyrogroup.hpp"
#include "gyre/core/manifold.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/core/types.hpp"
#include "gyre/core/validate.hpp"

namespace gyre {

/// ⟨a, b⟩_L = −a₀b₀ + Σ aᵢbᵢ.
template <class T>
[[nodiscard]] T minkowski_inner(const Vector<T>& a, const Vector<T>& b) {
  return a.tail(a.size() - 1).dot(b.tail(b.size() - 1)) - a(0) * b(0);
}

/// Hyperbolic n-space in the hyperboloid model.
template <class T>
class Hyperboloid {
 public:
  using Scalar = T;
  using Point = Vector<T>;
  using Tangent = Vector<T>;

  explicit Hyperboloid(int n) : n_(n), ball_(checked_dimension(n), -1.0) {}

  [[nodiscard]] int n() const { return n_; }
  [[nodiscard]] int dim() const { return n_; }
  [[nodiscard]] T injectivity_radius() const { return std::numeric_limits<T>::infinity(); }
  /// The origin (1, 0, …, 0).
  [[nodiscard]] Point origin() const { return Point::Unit(n_ + 1, 0); }

  [[nodiscard]] Point exp(const Point& x, const Tangent& v) const {
    if (checks_enabled()) check_point_tangent("Hyperboloid::exp", x, v);
    const T t = std::sqrt(std::max(T(0), minkowski_inner<T>(v, v)));
    const T sinh_ratio = t < T(1e-4) ? 1 + t * t / 6 : std::sinh(t) / t;  // error t⁴/120 < ε below 1e-4
    return on_hyperboloid(Point(std::cosh(t) * x + sinh_ratio * v));
  }

  [[nodiscard]] Tangent log(const Point& x, const Point& y) const {
    if (checks_enabled()) check_two_points("Hyperboloid::log", x, y);
    const Tangent u = chord(x, y);
    const T s = std::sqrt(std::max(T(0), minkowski_inner<T>(u, u)));
    return u * asinh_ratio(s);
  }

  [[nodiscard]] Tangent transport(const Point& x, const Point& y, const Tangent& w) const {
    if (checks_enabled()) {
      check_two_points("Hyperboloid::transport", x, y);
      check_tangent("Hyperboloid::transport", x, w);
    }
    // 1 − ⟨x, y⟩_L = 2 − ⟨x, δ⟩_L ≥ 2.
    const T denominator = 2 - minkowski_inner<T>(x, Point(y - x));
    return w + (minkowski_inner<T>(y, w) / denominator) * (x + y);
  }

  // ── Derivatives (gyre/core/derivatives.hpp) ──
  // Of the formulas above as functions of ambient x, v, y, with J = diag(−1, 1, …, 1) (so that
  // ∂⟨a, b⟩_L/∂a = Jb). exp: t = ‖v‖_L, ∂x = cosh t·G, ∂v = shc t·G + (shc t·⟨G, x⟩ + q⟨G, v⟩)·Jv with
  // shc t = sinh t/t, q = shc′(t)/t. log = h(s)·u with u = y + c·x, c = ⟨x, y⟩_L, s = ‖u‖_L,
  // h = asinh s/s: ∂u = p = h·G + (h′(s)/s)⟨G, u⟩·Ju, ∂x = c·p + ⟨p, x⟩·Jy, ∂y = p + ⟨p, x⟩·Jx.
  // transport = w + (a/D)(x + y) with a = ⟨y, w⟩_L, D = 1 − ⟨x, y⟩_L, m = ⟨G, x + y⟩:
  // ∂w = G + (m/D)·Jy, ∂x = (a/D)·G + (ma/D²)·Jy, ∂y = (a/D)·G + (m/D)·Jw + (ma/D²)·Jx.
  [[nodiscard]] ExpVjp<Point, Tangent> exp_vjp(const Point& x, const Tangent& v, const Point& g) const {
    if (checks_enabled()) {
      check_point_tangent("Hyperboloid::exp_vjp", x, v);
      check_cotangent("Hyperboloid::exp_vjp", g);
    }
    const T t = std::sqrt(std::max(T(0), minkowski_inner<T>(v, v)));
    const T shc = t < T(1e-4) ? 1 + t * t / 6 : std::sinh(t) / t;
    return {Point(std::cosh(t) * g),
            Tangent(shc * g + (shc * g.dot(x) + sinh_ratio_derivative_over_t(t) * g.dot(v)) * minkowski_dual(v))};
  }

  [[nodiscard]] LogVjp<Point> log_vjp(const Point& x, const Point& y, const Tangent& g) const {
    if (checks_enabled()) {
      check_two_points("Hyperboloid::log_vjp", x, y);
      check_cotangent("Hyperboloid::log_vjp", g);
    }
    const Tangent u = chord(x, y);
    const T s = std::sqrt(std::max(T(0), minkowski_inner<T>(u, u)));
    const Point p = asinh_ratio(s) * g + (asinh_ratio_derivative_over_s(s) * g.dot(u)) * minkowski_dual(u);
    const T c = minkowski_inner<T>(x, y);
    const T px = p.dot(x);
    return {Point(c * p + px * minkowski_dual(y)), Point(p + px * minkowski_dual(x))};
  }

  [[nodiscard]] TransportVjp<Point, Tangent> transport_vjp(const Point& x, const Point& y, const Tangent& w,
                                                           const Tangent& g) const {
    if (checks_enabled()) {
      check_two_points("Hyperboloid::transport_vjp", x, y);
      check_tangent("Hyperboloid::transport_vjp", x, w);
      check_cotangent("Hyperboloid::transport_vjp", g);
    }
    const T d = 2 - minkowski_inner<T>(x, Point(y - x));
    const T a = minkowski_inner<T>(y, w);
    const T m = g.dot(x + y);
    const Point jy = minkowski_dual(y);
    return {Point((a / d) * g + (m * a / (d * d)) * jy),
            Point((a / d) * g + (m / d) * minkowski_dual(w) + (m * a / (d * d)) * minkowski_dual(x)),
            Tangent(g + (m / d) * jy)};
  }

  [[nodiscard]] T inner(const Point& x, const Tangent& u, const Tangent& v) const {
    if (checks_enabled()) {
      check_point_tangent("Hyperboloid::inner", x, u);
      check_tangent("Hyperboloid::inner", x, v);
    }
    return minkowski_inner<T>(u, v);
  }
  [[nodiscard]] T norm(const Point& x, const Tangent& v) const { return std::sqrt(std::max(T(0), inner(x, v, v))); }
  [[nodiscard]] T dist(const Point& x, const Point& y) const {
    if (checks_enabled()) check_two_points("Hyperboloid::dist", x, y);
    const Tangent u = chord(x, y);
    return std::asinh(std::sqrt(std::max(T(0), minkowski_inner<T>(u, u))));
  }
  /// a + ⟨x, a⟩_L·x.
  [[nodiscard]] Tangent project(const Point& x, const Tangent& a) const {
    if (checks_enabled()) {
      check_point("Hyperboloid::project", x);
      require_size("Hyperboloid::project", "ambient vector", a, n_ + 1);
      require_finite("Hyperboloid::project", "ambient vector", a);
    }
    return a + minkowski_inner<T>(x, a) * x;
  }
  /// The Riemannian gradient from the Euclidean gradient g of an extension of f to ℝⁿ⁺¹: the
  /// metric is Minkowski's, so g is raised by J = diag(−1, 1, …, 1) (⟨Jg, w⟩_L = gᵀw) and then
  /// projected onto T_x along x.
  [[nodiscard]] Tangent egrad_to_rgrad(const Point& x, const Tangent& g) const {
    if (checks_enabled()) {
      check_point("Hyperboloid::egrad_to_rgrad", x);
      require_size("Hyperboloid::egrad_to_rgrad", "Euclidean gradient", g, n_ + 1);
      require_finite("Hyperboloid::egrad_to_rgrad", "Euclidean gradient", g);
    }
    Tangent raised = g;
    raised(0) = -raised(0);
    return raised + minkowski_inner<T>(x, raised) * x;
  }
  [[nodiscard]] Point retract(const Point& x, const Tangent& v) const { return exp(x, v); }

  [[nodiscard]] Point random_point(Rng& rng) const {
    return exp(origin(), Tangent(random_tangent(origin(), rng) / T(2)));
  }
  [[nodiscard]] Tangent random_tangent(const Point& x, Rng& rng) const {
    Tangent z = Tangent::Zero(n_ + 1);
    z.tail(n_) = rng.normal_matrix<T>(n_, 1);
    return transport(origin(), x, z);
  }

  // ── Gyrogroup (the ball's, through π and φ: see the header comment) ──
  [[nodiscard]] Point gyro_identity() const { return origin(); }
  [[nodiscard]] Point gyro_add(const Point& a, const Point& b) const {
    if (checks_enabled()) check_two_points("Hyperboloid::gyro_add", a, b);
    return from_ball("Hyperboloid::gyro_add", ball_.gyro_add(to_ball(a), to_ball(b)));
  }
  [[nodiscard]] Point gyro_inverse(const Point& a) const {
    if (checks_enabled()) check_point("Hyperboloid::gyro_inverse", a);
    return mirrored(a);
  }
  [[nodiscard]] Point gyration(const Point& a, const Point& b, const Point& c) const {
    if (checks_enabled()) {
      check_two_points("Hyperboloid::gyration", a, b);
      check_point("Hyperboloid::gyration", c);
    }
    return from_ball("Hyperboloid::gyration", ball_.gyration(to_ball(a), to_ball(b), to_ball(c)));
  }
  [[nodiscard]] Point gyro_scale(T r, const Point& a) const {
    if (checks_enabled()) check_point("Hyperboloid::gyro_scale", a);
    return from_ball("Hyperboloid::gyro_scale", ball_.gyro_scale(r, to_ball(a)));
  }

  // ── Gyro derivatives (gyre/core/group_derivatives.hpp) ──
  // π's VJP: ∂x₀ = −⟨x₁..ₙ, ḡ⟩/(1 + x₀)², ∂x₁..ₙ = ḡ/(1 + x₀). φ's: with q = 1 − ‖b‖², x₀ = (1 + ‖b‖²)/q
  // and x₁..ₙ = 2b/q, ∂b = (4g₀/q²)·b + (2/q)·g₁..ₙ + (4⟨b, g₁..ₙ⟩/q²)·b. ⊖ is linear: ∂a = (g₀, −g₁..ₙ).
  [[nodiscard]] GyroAddVjp<Point> gyro_add_vjp(const Point& a, const Point& b, const Point& g) const {
    if (checks_enabled()) {
      check_two_points("Hyperboloid::gyro_add_vjp", a, b);
      check_cotangent("Hyperboloid::gyro_add_vjp", g);
    }
    const Vector<T> p = to_ball(a);
    const Vector<T> q = to_ball(b);
    const Vector<T> sum = ball_.gyro_add(p, q);
    const GyroAddVjp<Vector<T>> inner = ball_.gyro_add_vjp(p, q, from_ball_vjp(sum, g));
    return {to_ball_vjp(a, inner.a), to_ball_vjp(b, inner.b)};
  }
  [[nodiscard]] Point gyro_inverse_vjp(const Point& a, const Point& g) const {
    if (checks_enabled()) {
      check_point("Hyperboloid::gyro_inverse_vjp", a);
      check_cotangent("Hyperboloid::gyro_inverse_vjp", g);
    }
    return mirrored(g);
  }
  [[nodiscard]] GyroScaleVjp<T, Point> gyro_scale_vjp(T r, const Point& a, const Point& g) const {
    if (checks_enabled()) {
      check_point("Hyperboloid::gyro_scale_vjp", a);
      if (!std::isfinite(r)) throw DomainError("Hyperboloid::gyro_scale_vjp", "scalar must be finite", r);
      check_cotangent("Hyperboloid::gyro_scale_vjp", g);
    }
    const Vector<T> p = to_ball(a);
    const GyroScaleVjp<T, Vector<T>> inner = ball_.gyro_scale_vjp(r, p, from_ball_vjp(ball_.gyro_scale(r, p), g));
    return {inner.r, to_ball_vjp(a, inner.a)};
  }

  void check_point(const Point& x) const { check_point("Hyperboloid::check_point", x); }
  void check_tangent(const Point& x, const Tangent& v) const {
    check_point_tangent("Hyperboloid::check_tangent", x, v);
  }

 private:
  static int checked_dimension(int n) {
    if (n < 1) throw DomainError("Hyperboloid::Hyperboloid", "dimension n must be at least 1", n);
    return n;
  }
  // π and φ (header comment); φ keeps x₀ = √(1 + Σxᵢ²) so that its result is on Hⁿ to rounding.
  static Vector<T> to_ball(const Point& x) { return x.tail(x.size() - 1) / (1 + x(0)); }
  static Point from_ball(const char* function, const Vector<T>& b) {
    const T squared = b.squaredNorm();
    if (!(squared < 1))
      throw DomainError(function, "the result is not inside the ball model (‖b‖)", std::sqrt(squared));
    Point x(b.size() + 1);
    x.tail(b.size()) = b * (T(2) / (1 - squared));
    return on_hyperboloid(std::move(x));
  }
  static Point to_ball_vjp(const Point& x, const Vector<T>& grad_ball) {
    const T denominator = 1 + x(0);
    Point grad(x.size());
    grad(0) = -x.tail(x.size() - 1).dot(grad_ball) / (denominator * denominator);
    grad.tail(x.size() - 1) = grad_ball / denominator;
    return grad;
  }
  static Vector<T> from_ball_vjp(const Vector<T>& b, const Point& g) {
    const T q = 1 - b.squaredNorm();
    const Vector<T> tail = g.tail(g.size() - 1);
    return (4 * (g(0) + b.dot(tail)) / (q * q)) * b + (2 / q) * tail;
  }
  // (x₀, −x₁..ₙ): ⊖ on Hⁿ, and its own adjoint.
  static Vector<T> mirrored(const Vector<T>& x) {
    Vector<T> out = -x;
    out(0) = x(0);
    return out;
  }

  // u = y + ⟨x, y⟩_L·x = δ + ⟨x, δ⟩_L·x with δ = y − x (since ⟨x, x⟩_L = −1).
  static Tangent chord(const Point& x, const Point& y) {
    const Point delta = y - x;
    return delta + minkowski_inner<T>(x, delta) * x;
  }
  // asinh(s)/s, 1 at 0 (series below 1e-4, where s⁴·3/40 < ε).
  static T asinh_ratio(T s) { return s < T(1e-4) ? 1 - s * s / 6 : std::asinh(s) / s; }
  // Ja: the vector whose Euclidean pairing is the Minkowski one, ⟨Ja, b⟩ = ⟨a, b⟩_L.
  static Vector<T> minkowski_dual(const Vector<T>& a) {
    Vector<T> out = a;
    out(0) = -out(0);
    return out;
  }
  // (t cosh t − sinh t)/t³, → 1/3 at 0: series 1/3 + t²/30 + t⁴/840 + t⁶/45360 below 0.1.
  static T sinh_ratio_derivative_over_t(T t) {
    const T t2 = t * t;
    if (t < T(0.1)) return T(1) / 3 + t2 * (T(1) / 30 + t2 * (T(1) / 840 + t2 / 45360));
    return (t * std::cosh(t) - std::sinh(t)) / (t2 * t);
  }
  // (asinh s/s)′/s = (s/√(1 + s²) − asinh s)/s³, → −1/3 at 0: series −1/3 + 3s²/10 − 15s⁴/56 +
  // 35s⁶/144 below 0.01 (truncation s⁸/4, relative, below ε); above, the direct form loses at
  // most log₁₀(1/s²) digits.
  static T asinh_ratio_derivative_over_s(T s) {
    const T s2 = s * s;
    if (s < T(0.01)) return T(-1) / 3 + s2 * (T(3) / 10 + s2 * (T(-15) / 56 + s2 * T(35) / 144));
    return (s / std::sqrt(1 + s2) - std::asinh(s)) / (s2 * s);
  }
  void check_cotangent(const char* function, const Vector<T>& g) const {
    require_size(function, "cotangent", g, n_ + 1);
    require_finite(function, "cotangent", g);
  }

  static Point on_hyperboloid(Point y) {
    y(0) = std::sqrt(1 + y.tail(y.size() - 1).squaredNorm());
    return y;
  }

  void check_point(const char* function, const Point& x) const {
    require_size(function, "point", x, n_ + 1);
    require_finite(function, "point", x);
    if (!(x(0) > 0)) throw DomainError(function, "point is not on the upper sheet (x₀)", x(0));
    // |⟨x,x⟩_L + 1|/max(1, x₀²), formed as a ratio where x₀ > 1: x₀² overflows for far points
    // (x₀ = cosh 400 in double, cosh 50 in float), and inf − inf would report a valid point as NaN.
    const T error = x(0) > 1 ? std::abs((x.tail(n_) / x(0)).squaredNorm() - 1 + 1 / (x(0) * x(0)))
                             : std::abs(minkowski_inner<T>(x, x) + 1);
    require_small(function, "point is not on the hyperboloid (|⟨x,x⟩_L + 1|/max(1, x₀²))", error,
                  membership_tolerance<T>());
  }
  void check_tangent(const char* function, const Point& x, const Tangent& v) const {
    require_size(function, "tangent vector", v, n_ + 1);
    require_finite(function, "tangent vector", v);
    const T error = std::abs(minkowski_inner<T>(x, v)) / std::max(T(1), x.norm() * v.norm());
    require_small(function, "vector is not tangent at x (|⟨x,v⟩_L|/max(1, ‖x‖‖v‖))", error, membership_tolerance<T>());
  }
  void check_point_tangent(const char* function, const Point& x, const Tangent& v) const {
    check_point(function, x);
    check_tangent(function, x, v);
  }
  void check_two_points(const char* function, const Point& x, const Point& y) const {
    check_point(function, x);
    check_point(function, y);
  }

  int n_;
  Stereographic<T> ball_;  // Bⁿ at κ = −1, whose gyro structure Hⁿ carries
};

static_assert(is_manifold_v<Hyperboloid<float>> && is_manifold_v<Hyperboloid<double>>);
static_assert(is_gyrogroup_v<Hyperboloid<double>> && has_gyro_vjp_v<Hyperboloid<double>>);

}  // namespace gyre
