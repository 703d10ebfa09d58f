#pragma once
// How a manifold batch norm moves points to the tangent space at its origin e and back
// (nn::ManifoldBatchNorm): the one place GyroBN and the transport-based Riemannian BN differ.
//
//   GyroCentring        centre(M, x) = log_e(⊖M ⊕ x)          place(P, z) = P ⊕ exp_e(z)
//                       (GyroBN, Chen et al. ICLR 2025; e the gyro identity; P ⊕ exp_e(f·w) is
//                       P ⊕ (f ⊗ (⊖M ⊕ x)) by the definition of ⊗)
//   TransportCentring   centre(M, x) = Γ_{M→e}(log_M x)        place(P, z) = exp_P(Γ_{e→P} z)
//                       (Riemannian BN: Brooks et al. 2019, Kobler et al. 2022, Lou et al. 2020;
//                       Γ the parallel transport along the geodesic; e any point, the identity or
//                       the origin by convention)
// Both keep distances: ‖centre(M, x)‖_e = d(M, x) (left gyrotranslations are isometries under
// GyroBN's conditions; transport is an isometry), and Σᵢ centre(M, xᵢ) = 0 exactly when M is the
// Karcher mean (Σ log_M xᵢ = 0, mapped linearly to T_e) — what makes the output's mean the bias.
// Each has centre_vjp(M, x, G) → {∂M, ∂x} and place_vjp(P, z, G) → {∂P, ∂z} (Euclidean gradients, as
// every VJP in Gyre), built from the space's exp/log/transport and gyro VJPs.

#include <type_traits>
#include <utility>
#include <vector>

#include "gyre/core/derivatives.hpp"
#include "gyre/core/group_derivatives.hpp"
#include "gyre/core/gyrogroup.hpp"
#include "gyre/core/manifold.hpp"

namespace gyre::nn {

/// GyroBN's centring (see the header comment).
template <class S>
struct GyroCentring {
  static_assert(is_manifold_v<S> && is_gyrogroup_v<S>, "GyroCentring needs a gyrogroup manifold");
  static_assert(has_gyro_vjp_v<S> && has_exp_log_vjp_v<S>, "GyroCentring needs the gyro and exp/log VJPs");
  using Space = S;
  using Point = typename S::Point;
  using Tangent = typename S::Tangent;
  static constexpr const char* kLayerName = "GyroBatchNorm";

  GyroCentring(S s) : space(std::move(s)), origin(space.gyro_identity()) {}  // NOLINT: a space is its centring

  /// The same centring over double, for spaces with `in_double()` (those with a cut locus).
  template <class U = S>
  [[nodiscard]] auto in_double() const -> GyroCentring<decltype(std::declval<const U&>().in_double())> {
    return {space.in_double()};
  }

  S space;
  Point origin;

  [[nodiscard]] Tangent centre(const Point& m, const Point& x) const {
    return space.log(origin, space.gyro_add(space.gyro_inverse(m), x));
  }
  [[nodiscard]] ComposeVjp<Point> centre_vjp(const Point& m, const Point& x, const Tangent& g) const {
    const Point inverse = space.gyro_inverse(m);
    const Point centred = space.gyro_add(inverse, x);
    const GyroAddVjp<Point> add = space.gyro_add_vjp(inverse, x, space.log_vjp(origin, centred, g).y);
    return {space.gyro_inverse_vjp(m, add.a), add.b};
  }
  [[nodiscard]] Point place(const Point& p, const Tangent& z) const { return space.gyro_add(p, space.exp(origin, z)); }
  [[nodiscard]] ComposeVjp<Point> place_vjp(const Point& p, const Tangent& z, const Point& g) const {
    const Point moved = space.exp(origin, z);
    const GyroAddVjp<Point> add = space.gyro_add_vjp(p, moved, g);
    return {add.a, space.exp_vjp(origin, z, add.b).v};
  }
};

/// A batched centring's VJP: ∂L/∂(the point all items share: the mean or the bias), summed over the
/// batch, and ∂L/∂(each item).
template <class Point, class Item>
struct SharedVjp {
  Point shared;
  std::vector<Item> items;
};

/// Whether a space has closed-form transports between a point and the identity (transport_to_identity,
/// transport_from_identity and their VJPs), which TransportCentring takes when its origin is the identity.
template <class S, class = void>
struct has_identity_transport : std::false_type {};
template <class S>
struct has_identity_transport<
    S, std::void_t<decltype(std::declval<const S&>().transport_to_identity_vjp(
           std::declval<const typename S::Point&>(), std::declval<const std::vector<typename S::Tangent>&>(),
           std::declval<const std::vector<typename S::Tangent>&>()))>> : std::true_type {};

/// The transport-based Riemannian BN's centring (see the header comment).
template <class S>
struct TransportCentring {
  static_assert(is_manifold_v<S> && has_exp_log_vjp_v<S> && has_transport_vjp_v<S>,
                "TransportCentring needs a manifold with exp, log and transport VJPs");
  using Space = S;
  using Point = typename S::Point;
  using Tangent = typename S::Tangent;
  static constexpr const char* kLayerName = "RiemannianBatchNorm";

  /// e = origin_point (checked to be a point of the space).
  TransportCentring(S s, Point origin_point) : space(std::move(s)), origin(std::move(origin_point)) {
    space.check_point(origin);
  }

  /// The same centring over double, for spaces with `in_double()` (those with a cut locus). The
  /// origin is checked again in double: the identity and the ball's centre are exact in float.
  template <class U = S>
  [[nodiscard]] auto in_double() const -> TransportCentring<decltype(std::declval<const U&>().in_double())> {
    return {space.in_double(), origin.template cast<double>()};
  }

  S space;
  Point origin;

  [[nodiscard]] Tangent centre(const Point& m, const Point& x) const {
    return space.transport(m, origin, space.log(m, x));
  }
  [[nodiscard]] ComposeVjp<Point> centre_vjp(const Point& m, const Point& x, const Tangent& g) const {
    const Tangent u = space.log(m, x);
    const TransportVjp<Point, Tangent> moved = space.transport_vjp(m, origin, u, g);
    const LogVjp<Point> logged = space.log_vjp(m, x, moved.w);
    return {Point(moved.x + logged.x), logged.y};
  }
  [[nodiscard]] Point place(const Point& p, const Tangent& z) const {
    return space.exp(p, space.transport(origin, p, z));
  }
  [[nodiscard]] ComposeVjp<Point> place_vjp(const Point& p, const Tangent& z, const Point& g) const {
    const Tangent t = space.transport(origin, p, z);
    const ExpVjp<Point, Tangent> stepped = space.exp_vjp(p, t, g);
    const TransportVjp<Point, Tangent> moved = space.transport_vjp(origin, p, z, stepped.v);
    return {Point(stepped.x + moved.y), moved.w};
  }

  // The same maps on a whole batch, where the space transports a batch along one geodesic at once
  // (transport_many: SPD's Bures–Wasserstein, whose transport integrates an ODE). ManifoldBatchNorm
  // takes them in place of the per-item calls.
  template <class U = S, std::enable_if_t<has_transport_many_v<U>, int> = 0>
  [[nodiscard]] std::vector<Tangent> centre_all(const Point& m, const std::vector<Point>& xs) const {
    if (at_identity()) return space.transport_to_identity(m, logs_at(m, xs));
    return space.transport_many(m, origin, logs_at(m, xs));
  }
  template <class U = S, std::enable_if_t<has_transport_many_v<U>, int> = 0>
  [[nodiscard]] SharedVjp<Point, Point> centre_all_vjp(const Point& m, const std::vector<Point>& xs,
                                                       const std::vector<Tangent>& gs) const {
    BatchVjp<Point, Tangent> moved;
    if (at_identity()) {
      moved = space.transport_to_identity_vjp(m, logs_at(m, xs), gs);
    } else {
      TransportManyVjp<Point, Tangent> both = space.transport_many_vjp(m, origin, logs_at(m, xs), gs);
      moved = {std::move(both.x), std::move(both.w)};
    }
    SharedVjp<Point, Point> vjp{moved.x, {}};
    vjp.items.reserve(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) {
      LogVjp<Point> logged = space.log_vjp(m, xs[i], moved.w[i]);
      vjp.shared += logged.x;
      vjp.items.push_back(std::move(logged.y));
    }
    return vjp;
  }
  template <class U = S, std::enable_if_t<has_transport_many_v<U>, int> = 0>
  [[nodiscard]] std::vector<Point> place_all(const Point& p, const std::vector<Tangent>& zs) const {
    std::vector<Point> placed =
        at_identity() ? space.transport_from_identity(p, zs) : space.transport_many(origin, p, zs);
    for (Point& t : placed) t = space.exp(p, t);
    return placed;
  }
  template <class U = S, std::enable_if_t<has_transport_many_v<U>, int> = 0>
  [[nodiscard]] SharedVjp<Point, Tangent> place_all_vjp(const Point& p, const std::vector<Tangent>& zs,
                                                        const std::vector<Point>& gs) const {
    const std::vector<Tangent> moved =
        at_identity() ? space.transport_from_identity(p, zs) : space.transport_many(origin, p, zs);
    Point shared = Point::Zero(p.rows(), p.cols());
    std::vector<Tangent> stepped_v;
    stepped_v.reserve(zs.size());
    for (std::size_t i = 0; i < zs.size(); ++i) {
      ExpVjp<Point, Tangent> stepped = space.exp_vjp(p, moved[i], gs[i]);
      shared += stepped.x;
      stepped_v.push_back(std::move(stepped.v));
    }
    if (at_identity()) {
      BatchVjp<Point, Tangent> back = space.transport_from_identity_vjp(p, zs, stepped_v);
      return {Point(shared + back.x), std::move(back.w)};
    }
    TransportManyVjp<Point, Tangent> back = space.transport_many_vjp(origin, p, zs, stepped_v);
    return {Point(shared + back.y), std::move(back.w)};
  }

 private:
  // Whether the space transports to and from the identity in closed form and the origin is the
  // identity (SPD's Bures–Wasserstein metric at e = I: no ODE for the batch norms).
  [[nodiscard]] bool at_identity() const {
    if constexpr (has_identity_transport<S>::value) {
      return origin.isIdentity(0);
    } else {
      return false;
    }
  }
  [[nodiscard]] std::vector<Tangent> logs_at(const Point& m, const std::vector<Point>& xs) const {
    std::vector<Tangent> logs;
    logs.reserve(xs.size());
    for (const Point& x : xs) logs.push_back(space.log(m, x));
    return logs;
  }
};

/// Whether a centring has the batched maps (centre_all, place_all and their VJPs).
template <class C, class = void>
struct has_batched_centring : std::false_type {};
template <class C>
struct has_batched_centring<
    C, std::void_t<decltype(std::declval<const C&>().centre_all(
           std::declval<const typename C::Point&>(), std::declval<const std::vector<typename C::Point>&>()))>>
    : std::true_type {};

}  // namespace gyre::nn
