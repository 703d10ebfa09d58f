#pragma once
// How Riemannian optimizers move a parameter that lives on a manifold (Bécigneul & Ganea 2019,
// "Riemannian Adaptive Optimization Methods"; geoopt's RiemannianSGD / RiemannianAdam):
//
//   r ← egrad_to_rgrad(x, ∇ + λ·x)     the Riemannian gradient of the (weight-decayed) loss
//   y ← retract(x, −η·d) or exp(x, −η·d) for the optimizer's direction d ∈ T_x
//   state vectors (momentum, Adam's first moment) ← transported from T_x to T_y
//
// The transport is the space's parallel transport along the geodesic from x to y, or the
// projection onto T_y (cheaper; what geoopt uses on the sphere and on Stiefel). Neither choice
// changes a Euclidean parameter, which follows torch.optim exactly.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <xtensor/xarray.hpp>

#include "gyre/geometry/batch_space.hpp"

namespace gyre::optim {

/// The step from x along a tangent direction.
enum class ManifoldStep {
  kRetract,  ///< the space's retraction (first order, cheaper; what geoopt uses)
  kExp,      ///< the Riemannian exponential (exact geodesic steps)
};

/// How state vectors follow the point from T_x to T_y.
enum class StateTransport {
  kParallel,    ///< the space's parallel transport along the geodesic x → y
  kProjection,  ///< orthogonal projection onto T_y
};

/// The manifold options shared by Riemannian Sgd and Adam.
struct ManifoldOptions {
  ManifoldStep step = ManifoldStep::kRetract;
  StateTransport transport = StateTransport::kParallel;
};

namespace detail {

template <class T>
[[nodiscard]] xt::xarray<T> move_point(const BatchSpace<T>& space, const xt::xarray<T>& x, const xt::xarray<T>& v,
                                       ManifoldStep step) {
  return step == ManifoldStep::kExp ? space.exp(x, v) : space.retract(x, v);
}

template <class T>
[[nodiscard]] xt::xarray<T> carry_state(const BatchSpace<T>& space, const xt::xarray<T>& x, const xt::xarray<T>& y,
                                        const xt::xarray<T>& state, StateTransport transport) {
  return transport == StateTransport::kParallel ? space.transport(x, y, state) : space.project(y, state);
}

}  // namespace detail
}  // namespace gyre::optim
