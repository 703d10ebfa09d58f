#pragma once
// ============================================================================================
//  Derivatives of geometry: the optional vector–Jacobian products (VJPs) of exp, log and
//  transport, which a layer's backward pass chains through (LieBN's centring, GyroBN's
//  translations, a Riemannian layer whose output is exp_x(v)).
// ============================================================================================
//  Optional members of a Manifold (all const, [[nodiscard]]); G is the cotangent of the result,
//  i.e. the Euclidean gradient ∂L/∂result in the storage coordinates:
//    exp_vjp(x, v, G)          → ExpVjp{∂L/∂x, ∂L/∂v}          for y = exp(x, v)
//    log_vjp(x, y, G)          → LogVjp{∂L/∂x, ∂L/∂y}          for u = log(x, y)
//    transport_vjp(x, y, w, G) → TransportVjp{∂L/∂x, ∂L/∂y, ∂L/∂w}
//  Each result is a Euclidean gradient in the storage coordinates, exact (to rounding) for every
//  variation that keeps the inputs where they live: points moving on the manifold, tangent
//  vectors moving with their base point inside the tangent bundle. Components along directions
//  the inputs cannot move in (normal to the manifold, antisymmetric parts of symmetric storage)
//  are unspecified; a consumer that needs a Riemannian gradient applies egrad_to_rgrad.
//  Laws (gyre::check::derivative_laws, on seeded random cases, in double): for curves
//  x(t) = exp(x, tξ), y(t) = exp(y, tζ), v(t) = project(x(t), v + tη), and a random cotangent G,
//    ⟨G, d/dt exp(x(t), v(t))⟩ = ⟨∂L/∂x, x′(0)⟩ + ⟨∂L/∂v, v′(0)⟩      (the derivatives of the
//  curves by five-point central differences), and likewise for log and transport — derivatives
//  taken along the manifold, never by perturbing single entries (which leaves it for symmetric
//  or orthonormal storage).
//  Spaces with them: the sphere; SPD under the affine-invariant metric (with any (α, β): exp,
//  log and transport do not depend on them), the log-Euclidean, log-Cholesky and Euclidean
//  metrics, their power deformations (θ-AIM, θ-LCM, θ-Euclidean), and the (generalized)
//  Bures–Wasserstein metrics (transport, an integrated ODE, by the discrete adjoint of its RK4
//  steps);
//  SO(n) and O(n); the hyperboloid; the κ-stereographic spaces (every κ); the Grassmannian
//  (bases); Stiefel (log by implicit differentiation of exp). Not yet: the correlation manifold.
// ============================================================================================

#include <type_traits>
#include <utility>
#include <vector>

#include "gyre/core/manifold.hpp"

namespace gyre {

/// ∂L/∂x and ∂L/∂v of y = exp(x, v).
template <class Point, class Tangent>
struct ExpVjp {
  Point x;
  Tangent v;
};

/// ∂L/∂x and ∂L/∂y of u = log(x, y).
template <class Point>
struct LogVjp {
  Point x;
  Point y;
};

/// ∂L/∂x, ∂L/∂y and ∂L/∂w of transport(x, y, w).
template <class Point, class Tangent>
struct TransportVjp {
  Point x;
  Point y;
  Tangent w;
};

/// ∂L/∂x and ∂L/∂y summed over a batch and ∂L/∂wᵢ per item, of transport_many(x, y, {wᵢ}): the
/// optional batched transport of a space whose transport shares work along one geodesic.
template <class Point, class Tangent>
struct TransportManyVjp {
  Point x;
  Point y;
  std::vector<Tangent> w;
};

/// ∂L/∂x summed over a batch and ∂L/∂wᵢ per item, of a batched map f(x, wᵢ) (a transport between x
/// and a fixed point).
template <class Point, class Tangent>
struct BatchVjp {
  Point x;
  std::vector<Tangent> w;
};

/// Whether M has exp_vjp and log_vjp.
template <class M, class = void>
struct has_exp_log_vjp : std::false_type {};
template <class M>
struct has_exp_log_vjp<
    M, std::void_t<
           decltype(detail::cref<M>().exp_vjp(detail::arg<detail::point_t<M>>(), detail::arg<detail::tangent_t<M>>(),
                                              detail::arg<detail::point_t<M>>())),
           decltype(detail::cref<M>().log_vjp(detail::arg<detail::point_t<M>>(), detail::arg<detail::point_t<M>>(),
                                              detail::arg<detail::tangent_t<M>>()))>> : std::true_type {};
template <class M>
inline constexpr bool has_exp_log_vjp_v = has_exp_log_vjp<M>::value;

/// Whether M has transport_vjp.
template <class M, class = void>
struct has_transport_vjp : std::false_type {};
template <class M>
struct has_transport_vjp<M, std::void_t<decltype(detail::cref<M>().transport_vjp(
                                detail::arg<detail::point_t<M>>(), detail::arg<detail::point_t<M>>(),
                                detail::arg<detail::tangent_t<M>>(), detail::arg<detail::tangent_t<M>>()))>>
    : std::true_type {};
template <class M>
inline constexpr bool has_transport_vjp_v = has_transport_vjp<M>::value;

/// Whether M has the batched transport_many and transport_many_vjp.
template <class M, class = void>
struct has_transport_many : std::false_type {};
template <class M>
struct has_transport_many<M, std::void_t<decltype(detail::cref<M>().transport_many(
                                             detail::arg<detail::point_t<M>>(), detail::arg<detail::point_t<M>>(),
                                             detail::arg<std::vector<detail::tangent_t<M>>>())),
                                         decltype(detail::cref<M>().transport_many_vjp(
                                             detail::arg<detail::point_t<M>>(), detail::arg<detail::point_t<M>>(),
                                             detail::arg<std::vector<detail::tangent_t<M>>>(),
                                             detail::arg<std::vector<detail::tangent_t<M>>>()))>> : std::true_type {};
template <class M>
inline constexpr bool has_transport_many_v = has_transport_many<M>::value;

}  // namespace gyre
