#pragma once
// ============================================================================================
//  SO(2) and O(2) in closed form: one class template, PlanarOrthogonal<T, kSpecial>, named
//  SO2<T> (so2.hpp) and O2<T> (o2/o2.hpp). The same conventions as SO(n)/O(n)
//  (so/orthogonal_group.hpp) with fixed-size 2×2 storage and atan2 instead of eigensolvers.
// ============================================================================================
//  Storage   points are 2×2 matrices X with XᵀX = I (det +1 for SO(2), ±1 for O(2)); tangent
//            vectors are ambient X·ω·J, J = [[0, −1], [1, 0]]. Algebra coordinates: [ω] (= a₂₁).
//  Metric    ⟨U, V⟩_X = ½·tr(UᵀV), so ‖X·ω·J‖ = |ω| and dist(X, Y) = |θ|, θ the angle of XᵀY.
//  exp/log   exp_X(X·ω·J) = X·R(ω); log_X(Y) = X·θ·J with θ = atan2 of XᵀY on the principal branch
//            (−π, π] (a half turn gives +π, one of the two minimising velocities).
//  transport SO(2) is abelian, so the left-trivialised vector is constant: P(X·ω·J) = Y·ω·J.
//  O(2)      two components: R(θ) and R(θ)·F with F = diag(−1, 1) (the flip (x, y) ↦ (−x, y)).
//            exp stays in X's component; log and transport between components throw
//            DomainError; dist between components is +∞. algebra_exp lands in SO(2);
//            algebra_log of a reflection throws; adjoint(g) = [det g] (a reflection reverses ω).
//  retract   = exp (already cheap). exp, compose and algebra_exp rebuild or re-normalise the
//            rotation, so long products do not drift.
//  Sampling  Haar: angle uniform in [−π, π); for O(2) a fair coin picks the component.
//  Cut locus the half turn; injectivity radius π.
// ============================================================================================

#include <cmath>
#include <limits>
#include <string>

#include <boost/math/constants/constants.hpp>

#include "gyre/core/checks.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/manifold.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/core/types.hpp"
#include "gyre/core/validate.hpp"

namespace gyre {

/// SO(2) (kSpecial) or O(2) in closed form; use the names SO2<T> and O2<T>.
template <class T, bool kSpecial>
class PlanarOrthogonal {
 public:
  using Scalar = T;
  using Point = Matrix2<T>;
  using Tangent = Matrix2<T>;
  using Algebra = Eigen::Matrix<T, 1, 1>;
  using ActedPoint = Vector2<T>;

  [[nodiscard]] int dim() const { return 1; }
  [[nodiscard]] int acted_dim() const { return 2; }
  [[nodiscard]] T injectivity_radius() const { return boost::math::constants::pi<T>(); }

  /// The rotation by θ.
  [[nodiscard]] static Point rotation(T theta) {
    Point r;
    const T c = std::cos(theta), s = std::sin(theta);
    r << c, -s, s, c;
    return r;
  }

  [[nodiscard]] Point exp(const Point& x, const Tangent& v) const {
    if (checks_enabled()) check_tangent_at(name("exp"), x, v);
    return normalised(x * rotation(rate(x, v)));
  }

  [[nodiscard]] Tangent log(const Point& x, const Point& y) const {
    if (checks_enabled()) check_two(name("log"), x, y);
    return x * generator(relative_angle(name("log"), x, y));
  }

  [[nodiscard]] Tangent transport(const Point& x, const Point& y, const Tangent& v) const {
    if (checks_enabled()) {
      check_two(name("transport"), x, y);
      check_tangent_at(name("transport"), x, v);
    }
    (void)relative_angle(name("transport"), x, y);  // rejects pairs in different components
    return y * generator(rate(x, v));
  }

  [[nodiscard]] T inner(const Point& x, const Tangent& u, const Tangent& v) const {
    if (checks_enabled()) {
      check_tangent_at(name("inner"), x, u);
      check_tangent_at(name("inner"), x, v);
    }
    return u.cwiseProduct(v).sum() / 2;
  }

  [[nodiscard]] T norm(const Point& x, const Tangent& v) const {
    if (checks_enabled()) check_tangent_at(name("norm"), x, v);
    return v.norm() / std::sqrt(T(2));
  }

  [[nodiscard]] T dist(const Point& x, const Point& y) const {
    if (checks_enabled()) check_two(name("dist"), x, y);
    const Point m = x.transpose() * y;
    if (!kSpecial && m.determinant() < 0) return std::numeric_limits<T>::infinity();
    return std::abs(angle_of(m));
  }

  [[nodiscard]] Tangent project(const Point& x, const Tangent& a) const {
    if (checks_enabled()) {
      check_point(name("project"), x);
      require_finite(name("project").c_str(), "ambient matrix", a);
    }
    const Point m = x.transpose() * a;
    return x * generator((m(1, 0) - m(0, 1)) / 2);
  }

  /// The Riemannian gradient from the Euclidean gradient g (∂f/∂x entrywise): the metric is
  /// ½·tr(UᵀV), half the ambient one, so it is twice the tangent part of g.
  [[nodiscard]] Tangent egrad_to_rgrad(const Point& x, const Tangent& g) const {
    if (checks_enabled()) {
      check_point(name("egrad_to_rgrad"), x);
      require_finite(name("egrad_to_rgrad").c_str(), "Euclidean gradient", g);
    }
    const Point m = x.transpose() * g;
    return x * generator(m(1, 0) - m(0, 1));
  }

  [[nodiscard]] Point retract(const Point& x, const Tangent& v) const { return exp(x, v); }

  [[nodiscard]] Point random_point(Rng& rng) const {
    const T pi = boost::math::constants::pi<T>();
    Point g = rotation(rng.uniform<T>(-pi, pi));
    if (!kSpecial && rng.uniform_int(0, 1) == 1) g.col(0) *= -1;  // R(θ)·F
    return g;
  }

  [[nodiscard]] Tangent random_tangent(const Point& x, Rng& rng) const { return x * generator(rng.normal<T>()); }

  void check_point(const Point& x) const { check_point(name("check_point"), x); }
  void check_tangent(const Point& x, const Tangent& v) const { check_tangent_at(name("check_tangent"), x, v); }

  // ── group ──
  [[nodiscard]] Point identity() const { return Point::Identity(); }

  [[nodiscard]] Point compose(const Point& g, const Point& h) const {
    if (checks_enabled()) check_two(name("compose"), g, h);
    return normalised(g * h);
  }

  [[nodiscard]] Point inverse(const Point& g) const {
    if (checks_enabled()) check_point(name("inverse"), g);
    return g.transpose();
  }

  [[nodiscard]] Tangent hat(const Algebra& a) const { return generator(a(0)); }

  [[nodiscard]] Algebra vee(const Tangent& a) const {
    if (checks_enabled()) {
      require_finite(name("vee").c_str(), "algebra matrix", a);
      const T asymmetry = (a + a.transpose()).norm() / 2;
      require_small(name("vee").c_str(), "matrix is not skew (‖A + Aᵀ‖/2)", asymmetry,
                    membership_tolerance<T>() * std::max(T(1), a.norm()));
    }
    return Algebra((a(1, 0) - a(0, 1)) / 2);
  }

  [[nodiscard]] Point algebra_exp(const Algebra& a) const {
    if (checks_enabled()) require_finite(name("algebra_exp").c_str(), "algebra vector", a);
    return rotation(a(0));
  }

  [[nodiscard]] Algebra algebra_log(const Point& g) const {
    if (checks_enabled()) check_point(name("algebra_log"), g);
    if (!kSpecial && g.determinant() < 0) {
      throw DomainError(name("algebra_log"), "element is a reflection, outside the identity component (det)",
                        g.determinant());
    }
    return Algebra(angle_of(g));
  }

  [[nodiscard]] Eigen::Matrix<T, 1, 1> adjoint(const Point& g) const {
    if (checks_enabled()) check_point(name("adjoint"), g);
    return Eigen::Matrix<T, 1, 1>(g.determinant() > 0 ? T(1) : T(-1));
  }

  [[nodiscard]] ActedPoint act(const Point& g, const ActedPoint& p) const {
    if (checks_enabled()) {
      check_point(name("act"), g);
      require_finite(name("act").c_str(), "acted point", p);
    }
    return g * p;
  }

 private:
  static std::string name(const char* function) { return std::string(kSpecial ? "SO2::" : "O2::") + function; }

  static Tangent generator(T omega) {
    Tangent j;
    j << 0, -omega, omega, 0;
    return j;
  }

  // The principal angle of a rotation matrix; atan2 of the averaged entries is accurate at 0 and π.
  static T angle_of(const Point& m) { return std::atan2((m(1, 0) - m(0, 1)) / 2, (m(0, 0) + m(1, 1)) / 2); }

  // ω of V = X·ω·J.
  static T rate(const Point& x, const Tangent& v) {
    const Point a = x.transpose() * v;
    return (a(1, 0) - a(0, 1)) / 2;
  }

  static T relative_angle(const std::string& function, const Point& x, const Point& y) {
    const Point m = x.transpose() * y;
    if (!kSpecial && m.determinant() < 0) {
      throw DomainError(function, "points lie in different components of O(2) (det XᵀY)", m.determinant());
    }
    return angle_of(m);
  }

  // One Newton–Schulz step X·(3I − XᵀX)/2 against drift.
  static Point normalised(const Point& x) { return x * (3 * Point::Identity() - x.transpose() * x) / 2; }

  static void check_point(const std::string& function, const Point& x) {
    const char* f = function.c_str();
    require_finite(f, "point", x);
    const T error = (x.transpose() * x - Point::Identity()).norm();
    require_small(f, "point is not orthogonal (‖XᵀX − I‖_F)", error, membership_tolerance<T>());
    if (kSpecial) {
      const T det = x.determinant();
      if (!(det > 0)) throw DomainError(function, "point has determinant −1, not a rotation (det)", det);
    }
  }

  static void check_tangent_at(const std::string& function, const Point& x, const Tangent& v) {
    check_point(function, x);
    require_finite(function.c_str(), "tangent vector", v);
    const Point a = x.transpose() * v;
    const T error = (a + a.transpose()).norm() / 2;
    require_small(function.c_str(), "vector is not tangent at X: XᵀV is not skew (‖XᵀV + VᵀX‖_F/2)", error,
                  membership_tolerance<T>() * std::max(T(1), v.norm()));
  }

  static void check_two(const std::string& function, const Point& x, const Point& y) {
    check_point(function, x);
    check_point(function, y);
  }
};

}  // namespace gyre
