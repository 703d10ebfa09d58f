#pragma once
// ============================================================================================
//  The κ-stereographic model of the n-dimensional space of constant curvature κ (any real κ):
//  the Poincaré ball of radius 1/√−κ for κ < 0, ℝⁿ for κ = 0, the stereographically projected
//  sphere of radius 1/√κ for κ > 0 — one formula set, continuous through κ → 0.
// ============================================================================================
//  Storage   points and tangent vectors are vectors of ℝⁿ; for κ < 0 points satisfy ‖x‖ < 1/√−κ.
//  Metric    g_x = λ_x²·I, λ_x = 2/(1 + κ‖x‖²) (conformal).
//  Möbius    x ⊕ y = ((1 − 2κ⟨x,y⟩ − κ‖y‖²)x + (1 + κ‖x‖²)y) / (1 − 2κ⟨x,y⟩ + κ²‖x‖²‖y‖²)
//  scalar    r ⊗ x = tan_κ(r·arctan_κ‖x‖)·x/‖x‖
//  gyration  gyr[u, v]w = w + 2(A·u + B·v)/D in closed form (Ungar 2008), with
//            A = −κ²⟨u,w⟩‖v‖² − κ⟨v,w⟩ + 2κ²⟨u,v⟩⟨v,w⟩, B = −κ²⟨v,w⟩‖u‖² + κ⟨u,w⟩,
//            D = 1 − 2κ⟨u,v⟩ + κ²‖u‖²‖v‖²  — not ⊖(u⊕v) ⊕ (u ⊕ (v ⊕ w)), which loses ~3 digits at
//            ‖x‖ ≈ 0.999 (shared/reference/README.md).
//  exp       exp_x(v) = x ⊕ tan_κ(λ_x‖v‖/2)·v/‖v‖
//  log       log_x(y) = (2/λ_x)·arctan_κ(‖u‖)·u/‖u‖, u = (−x) ⊕ y
//  dist      2·arctan_κ‖(−x) ⊕ y‖
//  transport along the geodesic x → y: v ↦ (λ_x/λ_y)·gyr[y, −x]v (Ganea et al. 2018)
//  Accuracy  (−x) ⊕ y is formed from δ = y − x as ((1 + κ‖x‖²)δ + κ‖δ‖²x)/D with
//            D = (1 + κ⟨x,y⟩)² + κ²(‖x‖²‖δ‖² − ⟨x,δ⟩²), so nearby points keep full relative
//            accuracy in log and dist (geomstats returns dist 0 there); tan_κ/arctan_κ are ratios
//            with Taylor series near 0 (curvature_functions.hpp), so tiny tangents are exact.
//  Cut locus κ ≤ 0: none (injectivity radius +∞). κ > 0: the antipode; log there throws
//            DomainError; injectivity radius π/√κ. exp landing on the point at infinity throws.
//  retract   exp.  Sampling: random_point = exp_0(Z/2) with Z standard in the orthonormal frame at 0
//            (a spread of about one unit of distance, like geomstats' default box);
//            random_tangent = Z/λ_x.
//  Gyrogroup (⊕, ⊖x = −x, gyr, ⊗, identity 0): every κ (for κ > 0 away from the antipodes).
//  References: Ungar, "Analytic hyperbolic geometry and Einstein's relativity" (2008); Ganea,
//            Bécigneul & Hofmann 2018; Bachmann, Bécigneul & Ganea 2020 (κ-stereographic).
// ============================================================================================

#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include <boost/math/constants/constants.hpp>

#include "curvature_functions.hpp"
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

/// The n-dimensional κ-stereographic model.
template <class T>
class Stereographic {
 public:
  using Scalar = T;
  using Point = Vector<T>;
  using Tangent = Vector<T>;

  Stereographic(int n, double kappa) : n_(n), kappa_(static_cast<T>(kappa)) {
    if (n < 1) throw DomainError("Stereographic::Stereographic", "dimension n must be at least 1", n);
    if (!std::isfinite(kappa))
      throw DomainError("Stereographic::Stereographic", "curvature kappa must be finite", kappa);
  }

  [[nodiscard]] int n() const { return n_; }
  [[nodiscard]] T kappa() const { return kappa_; }
  /// The same model over double: where the derivative of a float batch's mean is assembled
  /// (frechet_mean_vjp; for κ > 0 there is a cut locus).
  [[nodiscard]] Stereographic<double> in_double() const { return {n_, static_cast<double>(kappa_)}; }
  [[nodiscard]] int dim() const { return n_; }
  [[nodiscard]] T injectivity_radius() const {
    if (kappa_ <= 0) return std::numeric_limits<T>::infinity();
    return boost::math::constants::pi<T>() / std::sqrt(kappa_);
  }
  /// λ_x = 2/(1 + κ‖x‖²).
  [[nodiscard]] T conformal_factor(const Point& x) const { return T(2) / (1 + kappa_ * x.squaredNorm()); }

  // ── Gyrogroup operations ──────────────────────────────────────────────────────────────
  [[nodiscard]] Point gyro_identity() const { return Point::Zero(n_); }
  // On the projected sphere (κ > 0) ⊕ fails near antipodal pairs, and gyr[a, b] of three random
  // points often reaches one: the law checker pulls its random points this far towards 0.
  [[nodiscard]] double gyro_law_shrink() const { return kappa_ > 0 ? 0.4 : 1.0; }
  [[nodiscard]] Point gyro_add(const Point& x, const Point& y) const {
    if (checks_enabled()) check_two_points("Stereographic::gyro_add", x, y);
    return finite_result("Stereographic::gyro_add", mobius_add(x, y));
  }
  [[nodiscard]] Point gyro_inverse(const Point& x) const {
    if (checks_enabled()) check_point("Stereographic::gyro_inverse", x);
    return -x;
  }
  /// gyr[u, v]w in closed form.
  [[nodiscard]] Point gyration(const Point& u, const Point& v, const Point& w) const {
    if (checks_enabled()) {
      check_two_points("Stereographic::gyration", u, v);
      check_vector("Stereographic::gyration", "vector", w);
    }
    return gyration_unchecked(u, v, w);
  }
  /// r ⊗ x = tan_κ(r·arctan_κ‖x‖)·x/‖x‖ (no division: both are written as ratios).
  [[nodiscard]] Point gyro_scale(T r, const Point& x) const {
    if (checks_enabled()) {
      check_point("Stereographic::gyro_scale", x);
      if (!std::isfinite(r)) throw DomainError("Stereographic::gyro_scale", "scalar must be finite", r);
    }
    const T x2 = x.squaredNorm();
    const T s = std::sqrt(x2) * curvature::arctan_ratio(kappa_ * x2);  // arctan_κ‖x‖
    const T rs = r * s;
    return finite_result("Stereographic::gyro_scale", Point(x * (r * curvature::arctan_ratio(kappa_ * x2) *
                                                                 curvature::tan_ratio(kappa_ * rs * rs))));
  }

  // ── Gyro derivatives (gyre/core/group_derivatives.hpp) ──
  // ⊕ through the Möbius sum's VJP (mobius_add_vjp below); ⊖x = −x. For r ⊗ x = x·f with
  // f = r·ρ·τ, ρ = arctan_ratio(κ‖x‖²), τ = tan_ratio(w), w = κr²s², s² = ‖x‖²ρ² (so that
  // tan_κ(r·s) = r·s·τ): ∂f/∂r = ρ(τ + 2wτ′) and ∂f/∂‖x‖² = r(κρ′τ + ρτ′·κr²(ρ² + 2κ‖x‖²ρρ′)),
  // hence ∂r = ⟨G, x⟩·∂f/∂r and ∂x = f·G + 2⟨G, x⟩·∂f/∂‖x‖²·x.
  [[nodiscard]] GyroAddVjp<Point> gyro_add_vjp(const Point& x, const Point& y, const Point& g) const {
    if (checks_enabled()) {
      check_two_points("Stereographic::gyro_add_vjp", x, y);
      check_vector("Stereographic::gyro_add_vjp", "cotangent", g);
    }
    static_cast<void>(finite_result("Stereographic::gyro_add_vjp", mobius_add(x, y)));  // refuses ∞ as ⊕ does
    Pair sum = mobius_add_vjp(x, y, g);
    return {std::move(sum.first), std::move(sum.second)};
  }
  [[nodiscard]] Point gyro_inverse_vjp(const Point& x, const Point& g) const {
    if (checks_enabled()) {
      check_point("Stereographic::gyro_inverse_vjp", x);
      check_vector("Stereographic::gyro_inverse_vjp", "cotangent", g);
    }
    return -g;
  }
  [[nodiscard]] GyroScaleVjp<T, Point> gyro_scale_vjp(T r, const Point& x, const Point& g) const {
    if (checks_enabled()) {
      check_point("Stereographic::gyro_scale_vjp", x);
      if (!std::isfinite(r)) throw DomainError("Stereographic::gyro_scale_vjp", "scalar must be finite", r);
      check_vector("Stereographic::gyro_scale_vjp", "cotangent", g);
    }
    const T k = kappa_;
    const T x2 = x.squaredNorm();
    const T rho = curvature::arctan_ratio(k * x2);
    const T rho_prime = curvature::arctan_ratio_derivative(k * x2);
    const T w = k * r * r * x2 * rho * rho;
    const T tau = curvature::tan_ratio(w);
    const T tau_prime = curvature::tan_ratio_derivative(w);
    const T f = r * rho * tau;
    static_cast<void>(finite_result("Stereographic::gyro_scale_vjp", Point(x * f)));  // as r ⊗ x
    const T gx = g.dot(x);
    const T df_dx2 = r * k * (rho_prime * tau + rho * tau_prime * r * r * (rho * rho + 2 * k * x2 * rho * rho_prime));
    return {gx * rho * (tau + 2 * w * tau_prime), Point(f * g + (2 * gx * df_dx2) * x)};
  }

  // ── Manifold ──────────────────────────────────────────────────────────────────────────
  [[nodiscard]] Point exp(const Point& x, const Tangent& v) const {
    if (checks_enabled()) {
      check_point("Stereographic::exp", x);
      check_vector("Stereographic::exp", "tangent vector", v);
    }
    const T half = conformal_factor(x) / 2;
    const T a2 = half * half * v.squaredNorm();  // (λ‖v‖/2)²
    const Point step = v * (half * curvature::tan_ratio(kappa_ * a2));
    return finite_result("Stereographic::exp", mobius_add(x, step));
  }

  [[nodiscard]] Tangent log(const Point& x, const Point& y) const {
    if (checks_enabled()) check_two_points("Stereographic::log", x, y);
    const Point u = difference("Stereographic::log", x, y);
    const T u2 = u.squaredNorm();
    return u * (T(2) / conformal_factor(x) * curvature::arctan_ratio(kappa_ * u2));
  }

  [[nodiscard]] Tangent transport(const Point& x, const Point& y, const Tangent& v) const {
    if (checks_enabled()) {
      check_two_points("Stereographic::transport", x, y);
      check_vector("Stereographic::transport", "tangent vector", v);
    }
    if (kappa_ > 0) static_cast<void>(difference("Stereographic::transport", x, y));  // refuses antipodes
    return gyration_unchecked(y, Point(-x), v) * (conformal_factor(x) / conformal_factor(y));
  }

  // ── Derivatives (gyre/core/derivatives.hpp) ──
  // Chain rules through the VJPs of the Möbius sum and of the closed-form gyration (private
  // below), the conformal factor (dλ = −λ²κ⟨x, dx⟩) and the curvature ratios' derivatives:
  //   exp = x ⊕ c·v with c = h·tan_ratio(κh²‖v‖²), h = λ_x/2;
  //   log = (2/λ_x)·arctan_ratio(κ‖u‖²)·u with u = (−x) ⊕ y;
  //   transport = (λ_x/λ_y)·gyr[y, −x]v.
  [[nodiscard]] ExpVjp<Point, Tangent> exp_vjp(const Point& x, const Tangent& v, const Point& g) const {
    if (checks_enabled()) {
      check_point("Stereographic::exp_vjp", x);
      check_vector("Stereographic::exp_vjp", "tangent vector", v);
      check_vector("Stereographic::exp_vjp", "cotangent", g);
    }
    const T h = conformal_factor(x) / 2;
    const T v2 = v.squaredNorm();
    const T z = kappa_ * h * h * v2;
    const T tau = curvature::tan_ratio(z);
    const T tau_prime = curvature::tan_ratio_derivative(z);
    const T c = h * tau;
    const Pair sum = mobius_add_vjp(x, Point(c * v), g);
    const T s = sum.second.dot(v);
    // c = h·τ(κh²‖v‖²): ∂c/∂h = τ + 2κh²‖v‖²τ′, ∂h/∂x = −2κh²x, ∂c/∂v = 2κh³τ′·v.
    return {Point(sum.first - (s * (tau + 2 * z * tau_prime) * 2 * kappa_ * h * h) * x),
            Tangent(c * sum.second + (s * 2 * kappa_ * h * h * h * tau_prime) * v)};
  }

  [[nodiscard]] LogVjp<Point> log_vjp(const Point& x, const Point& y, const Tangent& g) const {
    if (checks_enabled()) {
      check_two_points("Stereographic::log_vjp", x, y);
      check_vector("Stereographic::log_vjp", "cotangent", g);
    }
    const Point u = difference("Stereographic::log_vjp", x, y);
    const T z = kappa_ * u.squaredNorm();
    const T b = 1 + kappa_ * x.squaredNorm();  // 2/λ_x
    const T rho = curvature::arctan_ratio(z);
    const T gu_dot = g.dot(u);
    const Point grad_u = b * rho * g + (2 * kappa_ * b * curvature::arctan_ratio_derivative(z) * gu_dot) * u;
    const Pair sum = mobius_add_vjp(Point(-x), y, grad_u);
    return {Point((2 * kappa_ * rho * gu_dot) * x - sum.first), sum.second};
  }

  [[nodiscard]] TransportVjp<Point, Tangent> transport_vjp(const Point& x, const Point& y, const Tangent& v,
                                                           const Tangent& g) const {
    if (checks_enabled()) {
      check_two_points("Stereographic::transport_vjp", x, y);
      check_vector("Stereographic::transport_vjp", "tangent vector", v);
      check_vector("Stereographic::transport_vjp", "cotangent", g);
    }
    if (kappa_ > 0) static_cast<void>(difference("Stereographic::transport_vjp", x, y));
    const T lx = conformal_factor(x);
    const T ly = conformal_factor(y);
    const T s = lx / ly;
    const Point minus_x = -x;
    const T moved_dot = g.dot(gyration_unchecked(y, minus_x, v));
    const Triple gyr = gyration_vjp(y, minus_x, v, Point(s * g));
    // s = λ_x/λ_y: ds = s(−λ_x κ⟨x, dx⟩ + λ_y κ⟨y, dy⟩).
    return {Point(-gyr.v - (moved_dot * s * lx * kappa_) * x), Point(gyr.u + (moved_dot * s * ly * kappa_) * y),
            Tangent(gyr.w)};
  }

  [[nodiscard]] T inner(const Point& x, const Tangent& u, const Tangent& v) const {
    if (checks_enabled()) {
      check_point("Stereographic::inner", x);
      check_vector("Stereographic::inner", "tangent vector", u);
      check_vector("Stereographic::inner", "tangent vector", v);
    }
    const T l = conformal_factor(x);
    return l * l * u.dot(v);
  }
  [[nodiscard]] T norm(const Point& x, const Tangent& v) const {
    if (checks_enabled()) {
      check_point("Stereographic::norm", x);
      check_vector("Stereographic::norm", "tangent vector", v);
    }
    return conformal_factor(x) * v.norm();
  }

  [[nodiscard]] T dist(const Point& x, const Point& y) const {
    if (checks_enabled()) check_two_points("Stereographic::dist", x, y);
    const Point u = difference_or_infinity(x, y);
    const T u_norm = u.norm();
    if (!std::isfinite(u_norm)) return injectivity_radius();  // κ > 0 antipodes: π/√κ
    return 2 * u_norm * curvature::arctan_ratio(kappa_ * u_norm * u_norm);
  }

  [[nodiscard]] Tangent project(const Point& x, const Tangent& a) const {
    if (checks_enabled()) {
      check_point("Stereographic::project", x);
      check_vector("Stereographic::project", "ambient vector", a);
    }
    return a;
  }
  /// The Riemannian gradient from the Euclidean gradient g: the metric is conformal, λₓ²·⟨·,·⟩,
  /// so it is g / λₓ².
  [[nodiscard]] Tangent egrad_to_rgrad(const Point& x, const Tangent& g) const {
    if (checks_enabled()) {
      check_point("Stereographic::egrad_to_rgrad", x);
      check_vector("Stereographic::egrad_to_rgrad", "Euclidean gradient", g);
    }
    const T l = conformal_factor(x);
    return g / (l * l);
  }
  [[nodiscard]] Point retract(const Point& x, const Tangent& v) const { return exp(x, v); }

  [[nodiscard]] Point random_point(Rng& rng) const {
    // λ₀ = 2, so Z/4 has Riemannian length |Z|/2.
    return exp(Point::Zero(n_), Tangent(rng.normal_matrix<T>(n_, 1) / T(4)));
  }
  [[nodiscard]] Tangent random_tangent(const Point& x, Rng& rng) const {
    return rng.normal_matrix<T>(n_, 1) / conformal_factor(x);
  }

  void check_point(const Point& x) const { check_point("Stereographic::check_point", x); }
  void check_tangent(const Point& x, const Tangent& v) const {
    check_point("Stereographic::check_tangent", x);
    check_vector("Stereographic::check_tangent", "tangent vector", v);
  }

 private:
  // The textbook Möbius sum (used where no cancellation threatens: exp, ⊕).
  Point mobius_add(const Point& x, const Point& y) const {
    const T xy = x.dot(y);
    const T x2 = x.squaredNorm();
    const T y2 = y.squaredNorm();
    const T k = kappa_;
    const T denominator = 1 - 2 * k * xy + k * k * x2 * y2;
    return ((1 - 2 * k * xy - k * y2) * x + (1 + k * x2) * y) / denominator;
  }

  // (−x) ⊕ y from δ = y − x (see the header); +∞ entries when κ > 0 and y is x's antipode.
  Point difference_or_infinity(const Point& x, const Point& y) const {
    const Point delta = y - x;
    const T x2 = x.squaredNorm();
    const T d2 = delta.squaredNorm();
    const T xd = x.dot(delta);
    const T k = kappa_;
    const T first = 1 + k * x.dot(y);
    const T denominator = first * first + k * k * std::max(T(0), x2 * d2 - xd * xd);
    const Point numerator = (1 + k * x2) * delta + (k * d2) * x;
    if (!(denominator > 0)) return Point::Constant(n_, std::numeric_limits<T>::infinity());
    return numerator / denominator;
  }

  Point difference(const char* function, const Point& x, const Point& y) const {
    const Point u = difference_or_infinity(x, y);
    // On the sphere, ‖u‖ = tan(θ/2)/√κ grows without bound as y nears the antipode; at 1/ε of
    // that scale the direction is rounding noise.
    const T limit =
        T(1) / (std::numeric_limits<T>::epsilon() * std::sqrt(std::max(kappa_, std::numeric_limits<T>::min())));
    if (!(u.norm() < limit)) {
      throw DomainError(function, "points are antipodal on the sphere, the log is not unique (‖(−x) ⊕ y‖)",
                        static_cast<double>(u.norm()));
    }
    return u;
  }

  Point gyration_unchecked(const Point& u, const Point& v, const Point& w) const {
    const T k = kappa_;
    const T uw = u.dot(w);
    const T vw = v.dot(w);
    const T uv = u.dot(v);
    const T u2 = u.squaredNorm();
    const T v2 = v.squaredNorm();
    const T a = -k * k * uw * v2 - k * vw + 2 * k * k * uv * vw;
    const T b = -k * k * vw * u2 + k * uw;
    const T d = 1 - 2 * k * uv + k * k * u2 * v2;
    return w + (2 / d) * (a * u + b * v);
  }

  using Pair = std::pair<Point, Point>;
  struct Triple {
    Point u, v, w;
  };

  // ∂/∂x, ∂/∂y of ⟨G, x ⊕ y⟩ with x ⊕ y = (A·x + B·y)/D (see mobius_add).
  Pair mobius_add_vjp(const Point& x, const Point& y, const Point& g) const {
    const T k = kappa_;
    const T xy = x.dot(y);
    const T x2 = x.squaredNorm();
    const T y2 = y.squaredNorm();
    const T a = 1 - 2 * k * xy - k * y2;
    const T b = 1 + k * x2;
    const T d = 1 - 2 * k * xy + k * k * x2 * y2;
    const T gx = g.dot(x);
    const T gy = g.dot(y);
    const T gm = (a * gx + b * gy) / d;  // ⟨G, x ⊕ y⟩
    Point grad_x = (a * g + (2 * k * gy) * x - (2 * k * gx) * y + gm * ((2 * k) * y - (2 * k * k * y2) * x)) / d;
    Point grad_y = (b * g - (2 * k * gx) * (x + y) + gm * ((2 * k) * x - (2 * k * k * x2) * y)) / d;
    return {std::move(grad_x), std::move(grad_y)};
  }

  // ∂/∂u, ∂/∂v, ∂/∂w of ⟨G, gyr[u, v]w⟩ with gyr[u, v]w = w + (2/d)(a·u + b·v) (see gyration_unchecked).
  Triple gyration_vjp(const Point& u, const Point& v, const Point& w, const Point& g) const {
    const T k = kappa_;
    const T k2 = k * k;
    const T uw = u.dot(w);
    const T vw = v.dot(w);
    const T uv = u.dot(v);
    const T u2 = u.squaredNorm();
    const T v2 = v.squaredNorm();
    const T a = -k2 * uw * v2 - k * vw + 2 * k2 * uv * vw;
    const T b = -k2 * vw * u2 + k * uw;
    const T d = 1 - 2 * k * uv + k2 * u2 * v2;
    const T gu = g.dot(u);
    const T gv = g.dot(v);
    const T alpha = 2 * gu / d;                   // multiplies da
    const T beta = 2 * gv / d;                    // multiplies db
    const T e = 2 * (a * gu + b * gv) / (d * d);  // multiplies −dd
    Triple out;
    out.u = (2 * a / d) * g + alpha * (Point((-k2 * v2) * w + (2 * k2 * vw) * v)) +
            beta * (Point((-2 * k2 * vw) * u + k * w)) - e * Point((-2 * k) * v + (2 * k2 * v2) * u);
    out.v = (2 * b / d) * g + alpha * Point((-2 * k2 * uw) * v - k * w + (2 * k2) * (vw * u + uv * w)) +
            beta * Point((-k2 * u2) * w) - e * Point((-2 * k) * u + (2 * k2 * u2) * v);
    out.w = g + alpha * Point((-k2 * v2) * u - k * v + (2 * k2 * uv) * v) + beta * Point((-k2 * u2) * v + k * u);
    return out;
  }

  Point finite_result(const char* function, const Point& p) const {
    if (!p.allFinite()) {
      throw DomainError(function, "the result is the point at infinity of the projected sphere (kappa)",
                        static_cast<double>(kappa_));
    }
    return p;
  }

  void check_vector(const char* function, const char* what, const Point& v) const {
    require_size(function, what, v, n_);
    require_finite(function, what, v);
  }
  void check_point(const char* function, const Point& x) const {
    check_vector(function, "point", x);
    if (kappa_ < 0) {
      // κ‖x‖² > −1 with a margin of a few ulps: ‖x‖√−κ < 1.
      const T scaled = x.norm() * std::sqrt(-kappa_);
      if (!(scaled < 1)) throw DomainError(function, "point is not inside the ball (‖x‖·√−κ)", scaled);
    }
  }
  void check_two_points(const char* function, const Point& x, const Point& y) const {
    check_point(function, x);
    check_point(function, y);
  }

  int n_;
  T kappa_;
};

static_assert(is_manifold_v<Stereographic<float>> && is_manifold_v<Stereographic<double>>);
static_assert(is_gyrogroup_v<Stereographic<float>> && is_gyrogroup_v<Stereographic<double>>);

}  // namespace gyre
