#pragma once
// A learnable array, its accumulated gradient and, for a parameter constrained to a manifold, the
// space its value lies on (geoopt's ManifoldParameter). Layers own their parameters and hand out
// pointers; optimizers update them. A parameter without a space is Euclidean.
//
// The gradient is always the Euclidean one, ∂L/∂value entrywise, as backward passes compute it;
// Riemannian optimizers turn it into the Riemannian gradient with the space's egrad_to_rgrad.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <memory>
#include <string>
#include <utility>

#include <xtensor/xarray.hpp>

#include "gyre/geometry/batch_space.hpp"

namespace gyre::optim {

/// A learnable array, its gradient (same shape) and optionally its manifold.
template <class T>
struct Parameter {
  std::string name;
  xt::xarray<T> value;
  xt::xarray<T> grad;
  /// The manifold whose points the value holds (value's trailing axes are its item shape), or null.
  std::shared_ptr<const BatchSpace<T>> space;

  Parameter() = default;
  /// A Euclidean parameter with a zero gradient.
  Parameter(std::string parameter_name, xt::xarray<T> initial)
      : name(std::move(parameter_name)), value(std::move(initial)), grad(xt::zeros_like(value)) {}
  /// A Euclidean parameter with the given gradient.
  Parameter(std::string parameter_name, xt::xarray<T> initial, xt::xarray<T> gradient)
      : name(std::move(parameter_name)), value(std::move(initial)), grad(std::move(gradient)) {}
  /// A parameter on `manifold`; the value is checked to be a batch of its points.
  Parameter(std::string parameter_name, xt::xarray<T> initial, std::shared_ptr<const BatchSpace<T>> manifold)
      : name(std::move(parameter_name)),
        value(std::move(initial)),
        grad(xt::zeros_like(value)),
        space(std::move(manifold)) {
    if (space) space->check_points(value);
  }

  [[nodiscard]] bool on_manifold() const noexcept { return static_cast<bool>(space); }
};

}  // namespace gyre::optim
