#pragma once
// ============================================================================================
//  E(2) = O(2) ⋉ ℝ², the isometries of the plane (rotations, translations and reflections),
//  with its left-invariant metric. Two components: det R = +1 (SE(2)) and det R = −1.
// ============================================================================================
//  Everything is as in se2/se2.hpp (the formulas are shared through se2/planar_rigid_detail.hpp);
//  what differs:
//  Storage   g = [[R, t], [0, 0, 1]] with R ∈ O(2); a reflection block is [[c, s], [s, −c]].
//  Metric    the same left-invariant (product O(2) × ℝ²) metric on each component. Tangent vectors
//            at g are [[R·ω·J, u], [0, 0, 0]] in both components.
//  !! Geodesics are NOT one-parameter subgroups (see se2.hpp); the group exponential is algebra_exp.
//  Components  no curve joins them: log(x, y) and transport(x, y, ·) throw DomainError when
//            det R_x ≠ det R_y (also under ChecksOff: the result is undefined, not unchecked), and
//            dist(x, y) = +∞ there (the infimum over an empty set of curves). Within a component,
//            log(x, y) = [[θ·R_x·J, t_y − t_x], 0] with θ the principal angle of the rotation R_xᵀR_y.
//  Algebra   the Lie algebra is se(2): algebra_exp lands in SE(2) (det R = +1); algebra_log of a
//            reflection throws DomainError (it is outside the identity component).
//  adjoint   g·hat(v, ω)·g⁻¹ has ω' = det R·ω (R·J·Rᵀ = det R·J) and v' = R·v + ω'·(t_y, −t_x):
//            adjoint(g) = [[R, det R·(t_y, −t_x)ᵀ], [0, 0, det R]].
//  Cut locus relative rotation by π within a component; injectivity radius π.
//  Sampling  random_point: each component with probability ½, angle uniform in [−π, π),
//            translation a standard Gaussian (E(2) is not compact: no Haar probability measure).
//  Validity  check_point: finite, bottom row (0, 0, 1) and RᵀR = I within √ε (either determinant).
//  References: as se2.hpp; escnn's O(2) ⋉ ℝ² (flipRot2dOnR2) for the role of E(2) in steerable CNNs.
// ============================================================================================

#include <boost/math/constants/constants.hpp>

#include "../se2/planar_rigid_detail.hpp"
#include "gyre/core/manifold.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/core/types.hpp"

namespace gyre {

/// The Euclidean group E(2) of the plane (reflections included) with its left-invariant metric.
template <class T>
class E2 {
 public:
  using Scalar = T;
  using Point = Matrix3<T>;
  using Tangent = Matrix3<T>;
  using Algebra = Eigen::Matrix<T, 3, 1>;
  using ActedPoint = Vector2<T>;

  [[nodiscard]] int dim() const { return 3; }
  [[nodiscard]] int acted_dim() const { return 2; }
  [[nodiscard]] T injectivity_radius() const { return boost::math::constants::pi<T>(); }

  /// The Riemannian exponential (NOT algebra_exp); stays in x's component.
  [[nodiscard]] Point exp(const Point& x, const Tangent& v) const { return core_.exp("E2::exp", x, v); }
  /// The Riemannian log; DomainError when x and y lie in different components.
  [[nodiscard]] Tangent log(const Point& x, const Point& y) const { return core_.log("E2::log", x, y); }
  /// Parallel transport; DomainError when x and y lie in different components.
  [[nodiscard]] Tangent transport(const Point& x, const Point& y, const Tangent& v) const {
    return core_.transport("E2::transport", x, y, v);
  }
  [[nodiscard]] T inner(const Point& x, const Tangent& u, const Tangent& v) const {
    return core_.inner("E2::inner", x, u, v);
  }
  [[nodiscard]] T norm(const Point& x, const Tangent& v) const { return core_.norm("E2::norm", x, v); }
  /// The geodesic distance; +∞ between components.
  [[nodiscard]] T dist(const Point& x, const Point& y) const { return core_.dist("E2::dist", x, y); }
  [[nodiscard]] Tangent project(const Point& x, const Tangent& a) const { return core_.project("E2::project", x, a); }
  /// The Riemannian gradient from the Euclidean gradient g (∂f/∂x entrywise).
  [[nodiscard]] Tangent egrad_to_rgrad(const Point& x, const Tangent& g) const {
    return core_.egrad_to_rgrad("E2::egrad_to_rgrad", x, g);
  }
  [[nodiscard]] Point retract(const Point& x, const Tangent& v) const { return core_.exp("E2::retract", x, v); }
  [[nodiscard]] Point random_point(Rng& rng) const { return core_.random_point(rng); }
  [[nodiscard]] Tangent random_tangent(const Point& x, Rng& rng) const {
    return core_.random_tangent("E2::random_tangent", x, rng);
  }
  void check_point(const Point& x) const { core_.check_point("E2::check_point", x); }
  void check_tangent(const Point& x, const Tangent& v) const {
    core_.check_tangent_at_point("E2::check_tangent", x, v);
  }

  [[nodiscard]] Point identity() const { return Point::Identity(); }
  /// g·h, with the O(2) block re-normalised within its component.
  [[nodiscard]] Point compose(const Point& g, const Point& h) const { return core_.compose("E2::compose", g, h); }
  [[nodiscard]] Point inverse(const Point& g) const { return core_.inverse("E2::inverse", g); }
  [[nodiscard]] Tangent hat(const Algebra& a) const { return core_.hat("E2::hat", a); }
  [[nodiscard]] Algebra vee(const Tangent& m) const { return core_.vee("E2::vee", m); }
  /// The group exponential exp(hat(a)), an element of SE(2).
  [[nodiscard]] Point algebra_exp(const Algebra& a) const { return core_.algebra_exp("E2::algebra_exp", a); }
  /// The principal group logarithm on the identity component; DomainError for reflections.
  [[nodiscard]] Algebra algebra_log(const Point& g) const { return core_.algebra_log("E2::algebra_log", g); }
  [[nodiscard]] Matrix3<T> adjoint(const Point& g) const { return core_.adjoint("E2::adjoint", g); }
  [[nodiscard]] ActedPoint act(const Point& g, const ActedPoint& p) const { return core_.act("E2::act", g, p); }

 private:
  detail::planar::RigidMotions<T> core_{detail::planar::Components::kWithReflections};
};

static_assert(is_lie_group_v<E2<float>> && is_lie_group_v<E2<double>>);
static_assert(is_manifold_v<E2<float>> && is_manifold_v<E2<double>>);

}  // namespace gyre
