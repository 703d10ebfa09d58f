#pragma once
// ============================================================================================
//  The geometry interface: the one page a new geometry's author reads.
// ============================================================================================
//
// Every space in Gyre is a small value type (holding n, κ, N, …) whose const member functions
// act on Eigen points. Generic code (Fréchet means, optimizers, batch norms, the law checkers,
// `gyre geom`) is written once against the requirements below and checks them with the traits
// at its first line. The worked example to copy is geometries/sphere/sphere.hpp.
//
// ── Manifold ────────────────────────────────────────────────────────────────────────────────
//  Types
//    Scalar   float or double; every geometry is instantiated and tested with both.
//    Point    an Eigen vector or matrix (fixed size where the dimension is known at compile time).
//    Tangent  an Eigen object of the same ambient shape. Tangent vectors of matrix manifolds are
//             ambient matrices: T_X SO(n) = {X·A : A skew}, never the Lie algebra element A.
//  Members (all const, all [[nodiscard]])
//    dim()                      the manifold's dimension.
//    injectivity_radius()       r such that log inverts exp on ‖v‖ < r (π on S^n and SO(n)); +∞
//                               where exp is a global diffeomorphism.
//    exp(x, v)                  the Riemannian exponential: the geodesic from x with velocity v at
//                               time 1. Domain: all of T_x. Results are re-normalised onto the
//                               manifold, so repeated application does not drift.
//    log(x, y)                  the inverse of exp: the initial velocity of the minimising geodesic
//                               from x to y. Domain: y off the cut locus of x. At the cut locus
//                               (antipodes, rotations by π) each geometry documents what it does:
//                               return one of the minimising velocities, or throw DomainError.
//    transport(x, y, v)         parallel transport of v ∈ T_x along the geodesic t ↦ exp(x, t·log(x, y))
//                               to T_y. Same domain as log(x, y).
//    inner(x, u, v), norm(x, v) the metric ⟨u, v⟩ₓ and ‖v‖ₓ.
//    dist(x, y)                 the geodesic distance ‖log(x, y)‖ₓ; defined everywhere (also at the
//                               cut locus), symmetric.
//    project(x, a)              the orthogonal projection of an ambient a onto T_x.
//    retract(x, v)              a first-order retraction, cheaper than exp where one exists (exp
//                               otherwise); the result is on the manifold.
//    egrad_to_rgrad(x, G)       the Riemannian gradient of f at x from the Euclidean gradient G of
//                               an extension of f to the ambient space (G = ∂f/∂x entrywise, what
//                               a backward pass computes): the R ∈ T_x with ⟨R, W⟩ₓ = ⟨G, W⟩_F for
//                               every W ∈ T_x. The tangent part of G on the sphere, Stiefel and the
//                               Grassmannian; P·sym(G)·P for SPD under the affine-invariant metric.
//                               geometry/metric_gradient.hpp solves it from the metric for any
//                               geometry (the reference its closed form is tested against).
//    random_point(rng)          a random point; for compact spaces and groups the uniform (Haar)
//                               distribution, otherwise the documented one.
//    random_tangent(x, rng)     a standard Gaussian vector of T_x (in an orthonormal basis).
//    check_point(x)             throws ShapeError (wrong size), DomainError (NaN/Inf, off the
//                               manifold beyond membership_tolerance) — the one definition of validity.
//    check_tangent(x, v)        the same for v ∈ T_x.
//  Laws (checked on ≥ 200 seeded cases by gyre::check::manifold_laws for every geometry):
//    exp(x, log(x, y)) ≈ y                   y off the cut locus of x
//    log(x, exp(x, v)) ≈ v                   ‖v‖ < injectivity_radius
//    dist(x, y) = ‖log(x, y)‖ₓ = dist(y, x)
//    transport(x, y, ·) maps T_x into T_y and keeps ⟨·,·⟩ (an isometry)
//    transport(x, y, log(x, y)) = −log(y, x)   (the geodesic's velocity is parallel)
//    egrad_to_rgrad(x, G) ∈ T_x and ⟨egrad_to_rgrad(x, G), w⟩ₓ = ⟨G, w⟩_F for tangent w
//  Errors: every operation validates its inputs with check_point / check_tangent unless a
//  gyre::ChecksOff is alive; a result that would be undefined throws DomainError, never NaN.
//
// ── LieGroup ────────────────────────────────────────────────────────────────────────────────
//  A Manifold (with its bi-invariant metric where one exists, else a documented left-invariant
//  one) plus the group structure. Points are group elements.
//  Types    Algebra     Lie algebra coordinates, an Eigen vector of length dim().
//           ActedPoint  the points of the space the group acts on (R² for planar groups).
//  Members  identity(), compose(g, h) = g·h, inverse(g),
//           hat(a) (coordinates → algebra matrix), vee(A) (its inverse),
//           algebra_exp(a) = exp of hat(a) at the identity, algebra_log(g) (its inverse on the
//           identity component, principal branch; DomainError elsewhere),
//           adjoint(g): the matrix of a ↦ vee(g·hat(a)·g⁻¹),
//           act(g, p): the action on a point of ActedPoint; acted_dim(): that space's dimension.
//           Gyre's Lie groups are matrix groups: points are the group's matrices and hat(a) is a
//           matrix of the same size, so g·hat(a)·g⁻¹ is a matrix product.
//           random_point(rng) is Haar for compact groups.
//  Laws (gyre::check::lie_group_laws): associativity, identity, inverse, vee∘hat = id,
//       algebra_log∘algebra_exp = id on the principal domain, adjoint as above,
//       act(g·h, p) = act(g, act(h, p)). compose and algebra_exp re-normalise their results.
//
// ── MatrixGroup ─────────────────────────────────────────────────────────────────────────────
//  The group part of a LieGroup on its own (is_matrix_group_v): Scalar, Point, Algebra,
//  ActedPoint, dim(), identity, compose, inverse, hat, vee, algebra_exp, algebra_log, adjoint,
//  act, acted_dim, random_point, check_point — checked by the same lie_group_laws. GL⁺(n), SL(n)
//  and SO⁺(1,3) are matrix groups only: none has a bi-invariant metric, and Gyre does not invent
//  a left-invariant one whose log would need a numerical solve.
//
// ── Gyrogroup ───────────────────────────────────────────────────────────────────────────────
//  See gyre/core/gyrogroup.hpp (is_gyrogroup_v): the κ-stereographic spaces, SPD (AIM, LEM,
//  LCM), the Grassmannian and the correlation manifold are gyrogroups as well as manifolds.
//
// ── FiniteGroup ─────────────────────────────────────────────────────────────────────────────
//  A finite group acting on the plane (C_N, D_N). Element is a small value type.
//  Members  order(), elements(), identity(), compose, inverse, act(g, p), acted_dim(), matrix(g) (the
//           element as an orthogonal matrix), equality of elements with ==.
//  Laws (gyre::check::finite_group_laws): the group axioms, closure of elements(), matrix(·) a
//       homomorphism, act(g, p) = matrix(g)·p.
// ============================================================================================

#include <type_traits>
#include <utility>

#include "gyre/core/rng.hpp"

namespace gyre {

namespace detail {
template <class M>
using point_t = typename M::Point;
template <class M>
using tangent_t = typename M::Tangent;
template <class M>
const M& cref();
template <class X>
const X& arg();
}  // namespace detail

/// A Riemannian manifold as Gyre's generic algorithms use it (requirements and laws above).
template <class M, class = void>
struct is_manifold : std::false_type {};

template <class M>
struct is_manifold<
    M, std::void_t<
           typename M::Scalar, typename M::Point, typename M::Tangent, decltype(detail::cref<M>().dim()),
           decltype(detail::cref<M>().injectivity_radius()),
           decltype(detail::cref<M>().exp(detail::arg<detail::point_t<M>>(), detail::arg<detail::tangent_t<M>>())),
           decltype(detail::cref<M>().log(detail::arg<detail::point_t<M>>(), detail::arg<detail::point_t<M>>())),
           decltype(detail::cref<M>().transport(detail::arg<detail::point_t<M>>(), detail::arg<detail::point_t<M>>(),
                                                detail::arg<detail::tangent_t<M>>())),
           decltype(detail::cref<M>().inner(detail::arg<detail::point_t<M>>(), detail::arg<detail::tangent_t<M>>(),
                                            detail::arg<detail::tangent_t<M>>())),
           decltype(detail::cref<M>().norm(detail::arg<detail::point_t<M>>(), detail::arg<detail::tangent_t<M>>())),
           decltype(detail::cref<M>().dist(detail::arg<detail::point_t<M>>(), detail::arg<detail::point_t<M>>())),
           decltype(detail::cref<M>().project(detail::arg<detail::point_t<M>>(), detail::arg<detail::tangent_t<M>>())),
           decltype(detail::cref<M>().retract(detail::arg<detail::point_t<M>>(), detail::arg<detail::tangent_t<M>>())),
           decltype(detail::cref<M>().egrad_to_rgrad(detail::arg<detail::point_t<M>>(),
                                                     detail::arg<detail::tangent_t<M>>())),
           decltype(detail::cref<M>().random_point(std::declval<Rng&>())),
           decltype(detail::cref<M>().random_tangent(detail::arg<detail::point_t<M>>(), std::declval<Rng&>())),
           decltype(detail::cref<M>().check_point(detail::arg<detail::point_t<M>>())),
           decltype(detail::cref<M>().check_tangent(detail::arg<detail::point_t<M>>(),
                                                    detail::arg<detail::tangent_t<M>>()))>>
    : std::is_floating_point<typename M::Scalar> {};

template <class M>
inline constexpr bool is_manifold_v = is_manifold<M>::value;

/// The group part of a LieGroup (requirements and laws above): a matrix group with its Lie algebra
/// and action, and random_point/check_point. GL⁺(n), SL(n) and SO⁺(1,3) are matrix groups that
/// Gyre gives no Riemannian metric (none is bi-invariant, and a left-invariant one has no closed
/// form log); they satisfy this trait but not is_lie_group.
template <class G, class = void>
struct is_matrix_group : std::false_type {};

template <class G>
struct is_matrix_group<
    G, std::void_t<
           typename G::Scalar, typename G::Point, typename G::Algebra, typename G::ActedPoint,
           decltype(detail::cref<G>().dim()), decltype(detail::cref<G>().identity()),
           decltype(detail::cref<G>().compose(detail::arg<detail::point_t<G>>(), detail::arg<detail::point_t<G>>())),
           decltype(detail::cref<G>().inverse(detail::arg<detail::point_t<G>>())),
           decltype(detail::cref<G>().hat(detail::arg<typename G::Algebra>())),
           decltype(detail::cref<G>().vee(detail::arg<detail::point_t<G>>())),
           decltype(detail::cref<G>().algebra_exp(detail::arg<typename G::Algebra>())),
           decltype(detail::cref<G>().algebra_log(detail::arg<detail::point_t<G>>())),
           decltype(detail::cref<G>().adjoint(detail::arg<detail::point_t<G>>())),
           decltype(detail::cref<G>().act(detail::arg<detail::point_t<G>>(), detail::arg<typename G::ActedPoint>())),
           decltype(detail::cref<G>().acted_dim()), decltype(detail::cref<G>().random_point(std::declval<Rng&>())),
           decltype(detail::cref<G>().check_point(detail::arg<detail::point_t<G>>()))>>
    : std::is_floating_point<typename G::Scalar> {};

template <class G>
inline constexpr bool is_matrix_group_v = is_matrix_group<G>::value;

/// A Lie group that is also a Manifold (requirements and laws above).
template <class G>
struct is_lie_group : std::bool_constant<is_matrix_group_v<G> && is_manifold_v<G>> {};

template <class G>
inline constexpr bool is_lie_group_v = is_lie_group<G>::value;

/// A finite group acting on the plane (requirements and laws above).
template <class G, class = void>
struct is_finite_group : std::false_type {};

template <class G>
struct is_finite_group<
    G, std::void_t<
           typename G::Scalar, typename G::Element, typename G::ActedPoint, decltype(detail::cref<G>().order()),
           decltype(detail::cref<G>().elements()), decltype(detail::cref<G>().identity()),
           decltype(detail::cref<G>().compose(detail::arg<typename G::Element>(), detail::arg<typename G::Element>())),
           decltype(detail::cref<G>().inverse(detail::arg<typename G::Element>())),
           decltype(detail::cref<G>().matrix(detail::arg<typename G::Element>())),
           decltype(detail::cref<G>().act(detail::arg<typename G::Element>(), detail::arg<typename G::ActedPoint>())),
           decltype(detail::cref<G>().acted_dim()),
           decltype(detail::arg<typename G::Element>() == detail::arg<typename G::Element>())>>
    : std::is_floating_point<typename G::Scalar> {};

template <class G>
inline constexpr bool is_finite_group_v = is_finite_group<G>::value;

}  // namespace gyre
