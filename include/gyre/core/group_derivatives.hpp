#pragma once
// ============================================================================================
//  Derivatives of the group and gyrogroup operations: the optional vector–Jacobian products
//  (VJPs) that a layer's backward pass chains through where it centres, biases or scales with
//  the algebra rather than with exp and log (LieBN's P ↦ M⁻¹ ⊙ P, GyroBN's ⊖M ⊕ X and t ⊗ X).
//  The companion of gyre/core/derivatives.hpp (exp, log, transport), with the same contract.
// ============================================================================================
//  Optional members (all const, [[nodiscard]]); G is the cotangent of the result, i.e. the
//  Euclidean gradient ∂L/∂result in the storage coordinates:
//    group (a matrix or Lie group's compose / inverse):
//      compose_vjp(a, b, G)        → ComposeVjp{∂L/∂a, ∂L/∂b}       for c = compose(a, b)
//      inverse_vjp(a, G)           → ∂L/∂a (a Point)                for c = inverse(a)
//    gyro (a gyrogroup's ⊕, ⊖, ⊗, gyrogroup.hpp):
//      gyro_add_vjp(a, b, G)       → GyroAddVjp{∂L/∂a, ∂L/∂b}       for c = a ⊕ b
//      gyro_inverse_vjp(a, G)      → ∂L/∂a (a Point)                for c = ⊖a
//      gyro_scale_vjp(r, a, G)     → GyroScaleVjp{∂L/∂r, ∂L/∂a}     for c = r ⊗ a
//  Each result is a Euclidean gradient in the storage coordinates, exact (to rounding) for every
//  variation that keeps the inputs on the space (symmetric for SPD, orthonormal for SO(n) and
//  Grassmann bases, unit diagonal for correlations); components along directions the inputs
//  cannot move in are unspecified. Inputs are validated like the operation's own (its check
//  functions, the same DomainError/ShapeError naming the VJP), plus the cotangent's shape and
//  finiteness; where the operation refuses an input (an antipode of the projected sphere, a
//  principal angle of π/2 with the Grassmannian's identity) its VJP refuses it too.
//  Laws (gyre::check::group_derivative_laws, in double): for curves a(t) = exp(a, tξ),
//  b(t) = exp(b, tζ) on a manifold that carries the operations (for the SPD Lie groups, which
//  are not manifolds themselves: SPD under the affine-invariant metric), r(t) = r + t and a
//  Gaussian cotangent G,  ⟨G, d/dt compose(a(t), b(t))⟩ = ⟨∂L/∂a, a′(0)⟩ + ⟨∂L/∂b, b′(0)⟩, and
//  likewise for each operation (for ⊗ also ⟨G, d/dr r ⊗ a⟩ = ∂L/∂r).
//  Spaces with them:
//    group  SO(n) and O(n); the SPD Lie groups of LieBN (spd_groups.hpp): SpdLogEuclideanGroup,
//           SpdLogCholeskyGroup, SpdCholeskyGroup.
//    gyro   SPD under the affine-invariant, log-Euclidean and log-Cholesky metrics; the
//           κ-stereographic spaces (every κ, 0 included); the Grassmannian (bases); the
//           correlation matrices (row by row in their Poincaré balls).
//  Not applicable: the sphere, the hyperboloid and Stiefel have neither a group nor a gyro
//  structure in Gyre (their gyrovector form is the κ-stereographic model).
// ============================================================================================

#include <type_traits>
#include <utility>

#include "gyre/core/manifold.hpp"

namespace gyre {

/// ∂L/∂a and ∂L/∂b of c = compose(a, b) (or of c = a ⊕ b).
template <class Point>
struct ComposeVjp {
  Point a;
  Point b;
};

/// ∂L/∂a and ∂L/∂b of c = a ⊕ b: the same pair as a composition's.
template <class Point>
using GyroAddVjp = ComposeVjp<Point>;

/// ∂L/∂r and ∂L/∂a of c = r ⊗ a.
template <class Scalar, class Point>
struct GyroScaleVjp {
  Scalar r;
  Point a;
};

/// Whether G has compose_vjp and inverse_vjp.
template <class G, class = void>
struct has_group_vjp : std::false_type {};
template <class G>
struct has_group_vjp<G, std::void_t<typename G::Scalar,
                                    decltype(detail::cref<G>().compose_vjp(detail::arg<detail::point_t<G>>(),
                                                                           detail::arg<detail::point_t<G>>(),
                                                                           detail::arg<detail::point_t<G>>())),
                                    decltype(detail::cref<G>().inverse_vjp(detail::arg<detail::point_t<G>>(),
                                                                           detail::arg<detail::point_t<G>>()))>>
    : std::true_type {};
template <class G>
inline constexpr bool has_group_vjp_v = has_group_vjp<G>::value;

/// Whether G has gyro_add_vjp, gyro_inverse_vjp and gyro_scale_vjp.
template <class G, class = void>
struct has_gyro_vjp : std::false_type {};
template <class G>
struct has_gyro_vjp<G, std::void_t<decltype(detail::cref<G>().gyro_add_vjp(detail::arg<detail::point_t<G>>(),
                                                                           detail::arg<detail::point_t<G>>(),
                                                                           detail::arg<detail::point_t<G>>())),
                                   decltype(detail::cref<G>().gyro_inverse_vjp(detail::arg<detail::point_t<G>>(),
                                                                               detail::arg<detail::point_t<G>>())),
                                   decltype(detail::cref<G>().gyro_scale_vjp(
                                       std::declval<typename G::Scalar>(), detail::arg<detail::point_t<G>>(),
                                       detail::arg<detail::point_t<G>>()))>> : std::true_type {};
template <class G>
inline constexpr bool has_gyro_vjp_v = has_gyro_vjp<G>::value;

}  // namespace gyre
