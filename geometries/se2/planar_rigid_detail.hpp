#pragma once
// Internals shared by SE(2) (se2.hpp) and E(2) (../e2/e2.hpp): every formula of both groups,
// written once for 3×3 homogeneous matrices [[R, t], [0, 0, 1]] with R ∈ O(2). The conventions
// are documented in se2.hpp and e2.hpp; the comments here say why a formula is written as it is.
// The public classes forward to RigidMotions<T> with their own function names for messages.

#include <algorithm>
#include <cmath>
#include <limits>

#include <boost/math/constants/constants.hpp>

#include "gyre/core/checks.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/core/scalar_functions.hpp"
#include "gyre/core/types.hpp"
#include "gyre/core/validate.hpp"

namespace gyre::detail::planar {

/// Which components of O(2) ⋉ ℝ² a group has: SE(2) only rotations, E(2) reflections too.
enum class Components { kRotationsOnly, kWithReflections };

/// R(θ) = [[cos θ, −sin θ], [sin θ, cos θ]].
template <class T>
Matrix2<T> rotation(T theta) {
  const T c = std::cos(theta);
  const T s = std::sin(theta);
  Matrix2<T> r;
  r << c, -s, s, c;
  return r;
}

/// J = [[0, −1], [1, 0]], so that hat of a rotation rate ω is ω·J.
template <class T>
Matrix2<T> generator() {
  Matrix2<T> j;
  j << 0, -1, 1, 0;
  return j;
}

/// The angle of a 2×2 matrix m close to a rotation, on the principal branch (−π, π].
/// (sin, cos) are read as the averages (m₁₀ − m₀₁)/2 and (m₀₀ + m₁₁)/2, whose atan2 is the angle
/// of the nearest rotation (see renormalised). atan2 returns −π for sin = −0 (and for sin within
/// rounding of 0 below it); that is the same rotation as +π, mapped there to stay in (−π, π].
template <class Derived>
typename Derived::Scalar principal_angle(const Eigen::MatrixBase<Derived>& m) {
  using T = typename Derived::Scalar;
  const T theta = std::atan2((m(1, 0) - m(0, 1)) / 2, (m(0, 0) + m(1, 1)) / 2);
  const T pi = boost::math::constants::pi<T>();
  return theta <= -pi ? pi : theta;
}

/// det m of a 2×2 matrix (written out: Eigen's determinant() needs <Eigen/LU>).
template <class Derived>
typename Derived::Scalar det2(const Eigen::MatrixBase<Derived>& m) {
  return m(0, 0) * m(1, 1) - m(0, 1) * m(1, 0);
}

/// The element of O(2) nearest to r in the Frobenius norm, in r's component (det r > 0: a
/// rotation). For rotations Q(θ), tr(Qᵀr) = cos θ·(r₀₀ + r₁₁) + sin θ·(r₁₀ − r₀₁) is maximal at
/// (cos θ, sin θ) ∝ (r₀₀ + r₁₁, r₁₀ − r₀₁); for reflections [[c, s], [s, −c]] at
/// (c, s) ∝ (r₀₀ − r₁₁, r₀₁ + r₁₀). This is the polar factor, without an SVD.
template <class T>
Matrix2<T> renormalised(const Matrix2<T>& r) {
  Matrix2<T> q;
  if (det2(r) >= 0) {
    const T c = (r(0, 0) + r(1, 1)) / 2;
    const T s = (r(1, 0) - r(0, 1)) / 2;
    const T length = std::hypot(c, s);
    q << c / length, -s / length, s / length, c / length;
  } else {
    const T c = (r(0, 0) - r(1, 1)) / 2;
    const T s = (r(0, 1) + r(1, 0)) / 2;
    const T length = std::hypot(c, s);
    q << c / length, s / length, s / length, -c / length;
  }
  return q;
}

/// The formulas of SE(2) and E(2) on homogeneous 3×3 matrices. Each operation takes the public
/// function name ("SE2::exp") for its messages and validates unless a ChecksOff is alive.
template <class T>
class RigidMotions {
 public:
  using Point = Matrix3<T>;
  using Tangent = Matrix3<T>;
  using Algebra = Eigen::Matrix<T, 3, 1>;
  using ActedPoint = Vector2<T>;

  explicit RigidMotions(Components components) : components_(components) {}

  // ── Manifold: the product metric of SO(2) × ℝ² (= the left-invariant metric) ──────────────

  Point exp(const char* function, const Point& x, const Tangent& v) const {
    if (checks_enabled()) check_tangent_at_point(function, x, v);
    // The geodesic is a geodesic of each factor: R·R(ω) on SO(2), a straight line on ℝ².
    return homogeneous(renormalised<T>(rotation_block(x) * rotation(rotation_rate(x, v))),
                       translation(x) + translation(v));
  }

  Tangent log(const char* function, const Point& x, const Point& y) const {
    if (checks_enabled()) check_two_points(function, x, y);
    require_same_component(function, x, y);
    return tangent_at(x, relative_angle(x, y), translation(y) - translation(x));
  }

  Tangent transport(const char* function, const Point& x, const Point& y, const Tangent& v) const {
    if (checks_enabled()) {
      check_two_points(function, x, y);
      check_tangent(function, x, v);
    }
    require_same_component(function, x, y);
    // SO(2) is abelian with a bi-invariant metric, so transport along any geodesic carries
    // R_x·ω·J to R_y·ω·J; on ℝ² transport is the identity.
    return tangent_at(y, rotation_rate(x, v), translation(v));
  }

  T inner(const char* function, const Point& x, const Tangent& u, const Tangent& v) const {
    if (checks_enabled()) {
      check_point(function, x);
      check_tangent(function, x, u);
      check_tangent(function, x, v);
    }
    // ½·tr(U_RᵀV_R) + u_tᵀv_t: the ½ makes ‖R·ω·J‖ = |ω|.
    return rotation_block(u).cwiseProduct(rotation_block(v)).sum() / 2 + translation(u).dot(translation(v));
  }

  T norm(const char* function, const Point& x, const Tangent& v) const {
    if (checks_enabled()) check_tangent_at_point(function, x, v);
    return std::sqrt(rotation_block(v).squaredNorm() / 2 + translation(v).squaredNorm());
  }

  T dist(const char* function, const Point& x, const Point& y) const {
    if (checks_enabled()) check_two_points(function, x, y);
    if (!same_component(x, y)) return std::numeric_limits<T>::infinity();
    return std::hypot(relative_angle(x, y), (translation(y) - translation(x)).norm());
  }

  Tangent project(const char* function, const Point& x, const Tangent& a) const {
    if (checks_enabled()) {
      check_point(function, x);
      require_finite(function, "ambient matrix", a);
    }
    // Orthogonal for the ambient product ½⟨A_R, B_R⟩_F + a_tᵀb_t + (bottom rows)ᵀ: keep R·skew(RᵀA_R)
    // and the translation column, drop the bottom row.
    const Matrix2<T> omega = rotation_block(x).transpose() * rotation_block(a);
    return tangent_at(x, (omega(1, 0) - omega(0, 1)) / 2, translation(a));
  }

  // The Riemannian gradient from the Euclidean gradient g (∂f/∂x entrywise): the metric halves the
  // ambient product on the rotation block and keeps it on the translation, so the rotation part is
  // twice its projection and the translation part is g's translation column.
  Tangent egrad_to_rgrad(const char* function, const Point& x, const Tangent& g) const {
    if (checks_enabled()) {
      check_point(function, x);
      require_finite(function, "Euclidean gradient", g);
    }
    const Matrix2<T> omega = rotation_block(x).transpose() * rotation_block(g);
    return tangent_at(x, omega(1, 0) - omega(0, 1), translation(g));
  }

  Point random_point(Rng& rng) const {
    const bool reflect = components_ == Components::kWithReflections && rng.uniform_int(0, 1) == 1;
    const T pi = boost::math::constants::pi<T>();
    Matrix2<T> r = rotation(rng.uniform<T>(-pi, pi));
    if (reflect) r.col(1) = -r.col(1);  // R(θ)·diag(1, −1): uniform on the reflections too
    const Vector2<T> t = rng.normal_matrix<T>(2, 1);
    return homogeneous(r, t);
  }

  Tangent random_tangent(const char* function, const Point& x, Rng& rng) const {
    if (checks_enabled()) check_point(function, x);
    const T omega = rng.normal<T>();
    const Vector2<T> u = rng.normal_matrix<T>(2, 1);
    return tangent_at(x, omega, u);
  }

  // ── Group ─────────────────────────────────────────────────────────────────────────────────

  Point compose(const char* function, const Point& g, const Point& h) const {
    if (checks_enabled()) check_two_points(function, g, h);
    // Re-normalised: a long product of rotation blocks would otherwise drift off O(2).
    return homogeneous(renormalised<T>(rotation_block(g) * rotation_block(h)),
                       rotation_block(g) * translation(h) + translation(g));
  }

  Point inverse(const char* function, const Point& g) const {
    if (checks_enabled()) check_point(function, g);
    const Matrix2<T> rt = rotation_block(g).transpose();
    return homogeneous(rt, -(rt * translation(g)));
  }

  Tangent hat(const char* function, const Algebra& a) const {
    if (checks_enabled()) require_finite(function, "algebra vector", a);
    Tangent m = Tangent::Zero();
    m(0, 1) = -a(2);
    m(1, 0) = a(2);
    m(0, 2) = a(0);
    m(1, 2) = a(1);
    return m;
  }

  Algebra vee(const char* function, const Tangent& m) const {
    if (checks_enabled()) {
      require_finite(function, "matrix", m);
      const Matrix2<T> r = m.template topLeftCorner<2, 2>();
      const T off = std::sqrt((r + r.transpose()).squaredNorm() / 4 + m.row(2).squaredNorm());
      require_small(function, "matrix is not in the Lie algebra (distance over max(1, ‖A‖))",
                    off / std::max(T(1), m.norm()), membership_tolerance<T>());
    }
    return Algebra(m(0, 2), m(1, 2), (m(1, 0) - m(0, 1)) / 2);
  }

  Point algebra_exp(const char* function, const Algebra& a) const {
    if (checks_enabled()) require_finite(function, "algebra vector", a);
    const T omega = a(2);
    // exp([[ωJ, v], [0, 0]]) = [[R(ω), V(ω)·v], [0, 1]] with V(ω) = ∫₀¹ R(sω) ds
    //   = sinc ω·I + ((1 − cos ω)/ω)·J, and (1 − cos ω)/ω = ω·½sinc²(ω/2) (no cancellation near 0).
    // cos and sin are correctly rounded, so R(ω) is orthogonal to ε without a further re-normalisation.
    const T s = sinc(omega);
    const T c = omega * one_minus_cos_over_sq(omega);
    const Vector2<T> t(s * a(0) - c * a(1), c * a(0) + s * a(1));
    return homogeneous(rotation(omega), t);
  }

  Algebra algebra_log(const char* function, const Point& g) const {
    if (checks_enabled()) check_point(function, g);
    require_identity_component(function, g);
    const T omega = principal_angle(rotation_block(g));
    // V(ω)⁻¹ = (ω/2)·cot(ω/2)·I − (ω/2)·J: |V|² = sinc²(ω/2) and sin ω/ω = sinc(ω/2)·cos(ω/2).
    // (ω/2)·cot(ω/2) is written cos(ω/2)/sinc(ω/2): no division by ω, and sinc(ω/2) ≥ 2/π on
    // the principal branch, so ω = π (where it is 0) is as accurate as anywhere else.
    const T alpha = std::cos(omega / 2) / sinc(omega / 2);
    const T half = omega / 2;
    const Vector2<T> t = translation(g);
    return Algebra(alpha * t(0) + half * t(1), -half * t(0) + alpha * t(1), omega);
  }

  Matrix3<T> adjoint(const char* function, const Point& g) const {
    if (checks_enabled()) check_point(function, g);
    // g·hat(v, ω)·g⁻¹ = [[R·ωJ·Rᵀ, R·v − R·ωJ·Rᵀ·t], [0, 0]] and R·J·Rᵀ = det R·J, so
    // ω' = det R·ω and v' = R·v + ω'·(t_y, −t_x).
    const T det = det2(rotation_block(g)) >= 0 ? T(1) : T(-1);
    Matrix3<T> ad = Matrix3<T>::Zero();
    ad.template topLeftCorner<2, 2>() = rotation_block(g);
    ad(0, 2) = det * g(1, 2);
    ad(1, 2) = -det * g(0, 2);
    ad(2, 2) = det;
    return ad;
  }

  ActedPoint act(const char* function, const Point& g, const ActedPoint& p) const {
    if (checks_enabled()) {
      check_point(function, g);
      require_finite(function, "acted point", p);
    }
    return rotation_block(g) * p + translation(g);
  }

  // ── Validation ────────────────────────────────────────────────────────────────────────────

  void check_point(const char* function, const Point& g) const {
    require_finite(function, "point", g);
    const T bottom = std::max({std::abs(g(2, 0)), std::abs(g(2, 1)), std::abs(g(2, 2) - 1)});
    require_small(function, "bottom row is not (0, 0, 1) (largest deviation)", bottom, membership_tolerance<T>());
    const Matrix2<T> r = rotation_block(g);
    const T orthogonality = (r.transpose() * r - Matrix2<T>::Identity()).norm();
    require_small(function, "rotation block is not orthogonal (‖RᵀR − I‖)", orthogonality, membership_tolerance<T>());
    if (components_ == Components::kRotationsOnly && !(det2(r) > 0)) {
      throw DomainError(function, "rotation block is a reflection (det R)", det2(r));
    }
  }

  void check_tangent(const char* function, const Point& x, const Tangent& v) const {
    require_finite(function, "tangent vector", v);
    const T scale = std::max(T(1), v.norm());
    require_small(function, "tangent vector's bottom row is not zero (‖row‖/max(1, ‖v‖))", v.row(2).norm() / scale,
                  membership_tolerance<T>());
    const Matrix2<T> omega = rotation_block(x).transpose() * rotation_block(v);
    require_small(function, "vector is not tangent at x (‖RᵀV_R + V_RᵀR‖/max(1, ‖v‖))",
                  (omega + omega.transpose()).norm() / scale, membership_tolerance<T>());
  }

  void check_tangent_at_point(const char* function, const Point& x, const Tangent& v) const {
    check_point(function, x);
    check_tangent(function, x, v);
  }

 private:
  static Matrix2<T> rotation_block(const Matrix3<T>& m) { return m.template topLeftCorner<2, 2>(); }
  static Vector2<T> translation(const Matrix3<T>& m) { return m.template topRightCorner<2, 1>(); }

  static Point homogeneous(const Matrix2<T>& r, const Vector2<T>& t) {
    Point g = Point::Identity();
    g.template topLeftCorner<2, 2>() = r;
    g.template topRightCorner<2, 1>() = t;
    return g;
  }

  // [[ω·R_x·J, u], [0, 0, 0]]: the tangent vector at x with rotation rate ω and translation velocity u.
  static Tangent tangent_at(const Point& x, T omega, const Vector2<T>& u) {
    Tangent v = Tangent::Zero();
    v.template topLeftCorner<2, 2>() = omega * (rotation_block(x) * generator<T>());
    v.template topRightCorner<2, 1>() = u;
    return v;
  }

  // ω of v = [[R·ωJ, u], …]: the skew part of RᵀV_R, read as (Ω₁₀ − Ω₀₁)/2.
  static T rotation_rate(const Point& x, const Tangent& v) {
    const Matrix2<T> omega = rotation_block(x).transpose() * rotation_block(v);
    return (omega(1, 0) - omega(0, 1)) / 2;
  }

  // The principal angle of R_xᵀR_y (a rotation when x, y share a component).
  static T relative_angle(const Point& x, const Point& y) {
    return principal_angle(Matrix2<T>(rotation_block(x).transpose() * rotation_block(y)));
  }

  static bool same_component(const Point& x, const Point& y) {
    return (det2(rotation_block(x)) >= 0) == (det2(rotation_block(y)) >= 0);
  }

  // Not a validation but a definition: no curve joins the two components, so log and transport
  // are undefined there; checked also under ChecksOff.
  static void require_same_component(const char* function, const Point& x, const Point& y) {
    if (!same_component(x, y)) {
      throw DomainError(function, "points lie in different components of E(2) (det Rₓ·det R_y)", -1);
    }
  }

  static void require_identity_component(const char* function, const Point& g) {
    const T det = det2(rotation_block(g));
    if (!(det > 0)) throw DomainError(function, "element is a reflection, outside the identity component (det R)", det);
  }

  void check_two_points(const char* function, const Point& x, const Point& y) const {
    check_point(function, x);
    check_point(function, y);
  }

  Components components_;
};

}  // namespace gyre::detail::planar
