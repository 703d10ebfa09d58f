#pragma once
// ============================================================================================
//  SE(2) = SO(2) ⋉ ℝ², the rigid motions of the plane, with its left-invariant metric.
// ============================================================================================
//  Storage   an element g is a 3×3 homogeneous matrix [[R, t], [0, 0, 1]], R ∈ SO(2), t ∈ ℝ²;
//            act(g, p) = R·p + t on ℝ². compose(g, h) = g·h, inverse(g) = [[Rᵀ, −Rᵀt], [0, 1]].
//  Algebra   a = (v_x, v_y, ω) (translation first, rotation rate last);
//            hat(a) = [[0, −ω, v_x], [ω, 0, v_y], [0, 0, 0]], vee its inverse.
//            algebra_exp(a) = [[R(ω), V(ω)·v], [0, 0, 1]], V(ω) = sinc ω·I + ((1 − cos ω)/ω)·J,
//            J = [[0, −1], [1, 0]]; (1 − cos ω)/ω is evaluated as ω·½sinc²(ω/2), exact to ε near 0.
//            algebra_log(g): ω = atan2 of R on the principal branch (−π, π] (a rotation by π gives
//            +π), v = V(ω)⁻¹·t = (ω/2)·cot(ω/2)·t + (ω/2)·(t_y, −t_x), with (ω/2)·cot(ω/2) written
//            cos(ω/2)/sinc(ω/2): no division by ω, and accurate at ω = π.
//            adjoint(g) = [[R, (t_y, −t_x)ᵀ], [0, 0, 1]] (Ad(g)·a = vee(g·hat(a)·g⁻¹)).
//  Metric    the LEFT-INVARIANT metric for which (v_x, v_y, ω) are orthonormal coordinates of g·hat(a).
//            On SE(2) it is exactly the product metric of SO(2) × ℝ²: tangent vectors at g are
//            ambient 3×3 matrices V = [[R·ω·J, u], [0, 0, 0]] (u = R·v is the translation velocity
//            in the fixed frame), with ⟨U, V⟩_g = ½·tr(U_RᵀV_R) + u_Uᵀu_V, so ‖V‖² = ω² + ‖u‖².
//            SE(2) has no bi-invariant metric: this one is not right-invariant.
//  !! Geodesics are NOT one-parameter subgroups. The Riemannian exp turns and translates
//  !! independently: exp(g, V) = [[R·R(ω), t + u], [0, 0, 1]] (a straight line for the
//  !! translation), while the group exponential algebra_exp turns the translation with the
//  !! rotation (a circular arc). They agree only when ω = 0 or v = 0. Use algebra_exp/algebra_log
//  !! for Lie-theoretic formulas (BCH, adjoint), exp/log for distances, means and optimisation.
//  log       log(x, y) = [[θ·R_x·J, t_y − t_x], [0, 0, 0]], θ = principal angle of R_xᵀR_y.
//  transport [[R_x·ω·J, u], 0] ↦ [[R_y·ω·J, u], 0] (SO(2) is abelian; ℝ² is flat).
//  dist      √(θ² + ‖t_y − t_x‖²).
//  Cut locus relative rotation by π; injectivity radius π. There log returns the principal
//            velocity θ = +π (one of the two minimising ones), so transport(x, y, log(x, y)) =
//            −log(y, x) fails only on that measure-zero set; dist is fine there.
//  project   [[R·skew(RᵀA_R), a_t], [0, 0, 0]], orthogonal for ½⟨A_R, B_R⟩_F + a_tᵀb_t + ⟨rows₂⟩.
//  retract   = exp (it is already cheap).
//  Renormalisation  compose and exp replace the rotation block by its polar factor (nearest
//            rotation), so long products do not drift; algebra_exp builds R(ω) from cos and sin.
//            Bottom rows of results are exactly (0, 0, 1) (points) and 0 (tangents).
//  Sampling  random_point: angle uniform in [−π, π), translation a standard Gaussian of ℝ².
//            SE(2) is not compact and has no Haar probability measure; this is the documented
//            stand-in. random_tangent: ω and u standard Gaussian (orthonormal coordinates).
//  Validity  check_point: finite, bottom row (0, 0, 1) and RᵀR = I within √ε, det R > 0.
//            check_tangent: finite, bottom row 0, RᵀV_R skew, within √ε·max(1, ‖V‖).
//  References: Solà, Deray & Atchuthan 2018, "A micro Lie theory for state estimation in robotics",
//            app. C (SE(2): exp, V(ω), adjoint); Sophus' SE2 (same algebra order (v, ω)).
//            Geodesics of a product metric are products of geodesics of the factors.
// ============================================================================================

#include <boost/math/constants/constants.hpp>

#include "gyre/core/manifold.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/core/types.hpp"
#include "planar_rigid_detail.hpp"

namespace gyre {

/// The special Euclidean group SE(2) of the plane with its left-invariant (product) metric.
template <class T>
class SE2 {
 public:
  using Scalar = T;
  using Point = Matrix3<T>;
  using Tangent = Matrix3<T>;
  using Algebra = Eigen::Matrix<T, 3, 1>;
  using ActedPoint = Vector2<T>;

  [[nodiscard]] int dim() const { return 3; }
  [[nodiscard]] int acted_dim() const { return 2; }
  [[nodiscard]] T injectivity_radius() const { return boost::math::constants::pi<T>(); }

  /// The Riemannian exponential (NOT algebra_exp; see the header).
  [[nodiscard]] Point exp(const Point& x, const Tangent& v) const { return core_.exp("SE2::exp", x, v); }
  [[nodiscard]] Tangent log(const Point& x, const Point& y) const { return core_.log("SE2::log", x, y); }
  [[nodiscard]] Tangent transport(const Point& x, const Point& y, const Tangent& v) const {
    return core_.transport("SE2::transport", x, y, v);
  }
  [[nodiscard]] T inner(const Point& x, const Tangent& u, const Tangent& v) const {
    return core_.inner("SE2::inner", x, u, v);
  }
  [[nodiscard]] T norm(const Point& x, const Tangent& v) const { return core_.norm("SE2::norm", x, v); }
  [[nodiscard]] T dist(const Point& x, const Point& y) const { return core_.dist("SE2::dist", x, y); }
  [[nodiscard]] Tangent project(const Point& x, const Tangent& a) const { return core_.project("SE2::project", x, a); }
  /// The Riemannian gradient from the Euclidean gradient g (∂f/∂x entrywise).
  [[nodiscard]] Tangent egrad_to_rgrad(const Point& x, const Tangent& g) const {
    return core_.egrad_to_rgrad("SE2::egrad_to_rgrad", x, g);
  }
  [[nodiscard]] Point retract(const Point& x, const Tangent& v) const { return core_.exp("SE2::retract", x, v); }
  [[nodiscard]] Point random_point(Rng& rng) const { return core_.random_point(rng); }
  [[nodiscard]] Tangent random_tangent(const Point& x, Rng& rng) const {
    return core_.random_tangent("SE2::random_tangent", x, rng);
  }
  void check_point(const Point& x) const { core_.check_point("SE2::check_point", x); }
  void check_tangent(const Point& x, const Tangent& v) const {
    core_.check_tangent_at_point("SE2::check_tangent", x, v);
  }

  [[nodiscard]] Point identity() const { return Point::Identity(); }
  /// g·h, with the rotation block re-normalised.
  [[nodiscard]] Point compose(const Point& g, const Point& h) const { return core_.compose("SE2::compose", g, h); }
  [[nodiscard]] Point inverse(const Point& g) const { return core_.inverse("SE2::inverse", g); }
  [[nodiscard]] Tangent hat(const Algebra& a) const { return core_.hat("SE2::hat", a); }
  [[nodiscard]] Algebra vee(const Tangent& m) const { return core_.vee("SE2::vee", m); }
  /// The group exponential exp(hat(a)) (a one-parameter subgroup, not a geodesic).
  [[nodiscard]] Point algebra_exp(const Algebra& a) const { return core_.algebra_exp("SE2::algebra_exp", a); }
  /// The principal group logarithm, ω ∈ (−π, π].
  [[nodiscard]] Algebra algebra_log(const Point& g) const { return core_.algebra_log("SE2::algebra_log", g); }
  [[nodiscard]] Matrix3<T> adjoint(const Point& g) const { return core_.adjoint("SE2::adjoint", g); }
  [[nodiscard]] ActedPoint act(const Point& g, const ActedPoint& p) const { return core_.act("SE2::act", g, p); }

 private:
  detail::planar::RigidMotions<T> core_{detail::planar::Components::kRotationsOnly};
};

static_assert(is_lie_group_v<SE2<float>> && is_lie_group_v<SE2<double>>);
static_assert(is_manifold_v<SE2<float>> && is_manifold_v<SE2<double>>);

}  // namespace gyre
