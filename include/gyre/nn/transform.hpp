#pragma once
// The action of a subgroup of O(2) on feature maps: [g·f](p) = ρ(g)·f(g⁻¹p) (escnn's convention),
// with pixel (row, col) at x = col − (W−1)/2, y = (H−1)/2 − row and g = (f, θ) acting on ℝ² as
// rotation(θ) after flipᶠ, flip: (x, y) ↦ (−x, y).
//
// Rotations by multiples of 90° and flips map the pixel centres of a square map onto each other:
// they act as exact index permutations (numpy's rot90 and flip). Any other element resamples the
// map by bilinear interpolation, zero outside it: that is an approximation, and the equivariance
// checker reports it as such.

#include "gyre/nn/geometric_tensor.hpp"
#include "gyre/repr/planar_group.hpp"

namespace gyre::nn {

/// Whether g maps the pixel centres of a square grid onto each other (θ a multiple of 90° to 1e-9).
[[nodiscard]] bool is_grid_symmetry(const repr::PlanarElement& g);

/// g·x; throws DomainError if g is not in x's group, ShapeError if g is a grid symmetry of odd
/// quarter turns and the maps are not square.
template <class T>
[[nodiscard]] GeometricTensor<T> transform(const GeometricTensor<T>& x, const repr::PlanarElement& g);

/// The adjoint of transform(·, g): ∂L/∂x from ∂L/∂(g·x), for modules that act on their input.
/// Same checks as transform.
template <class T>
[[nodiscard]] GeometricTensor<T> transform_adjoint(const GeometricTensor<T>& grad, const repr::PlanarElement& g);

/// ∂(g·x)/∂θ at g = (f, θ) for maps of trivial fields (DomainError otherwise): the derivative of the
/// bilinear resampling. At a grid symmetry, where transform reads pixels exactly, it is the one-sided
/// derivative of bilinear interpolation from that pixel; bilinear is only piecewise smooth.
template <class T>
[[nodiscard]] GeometricTensor<T> transform_angle_derivative(const GeometricTensor<T>& x, const repr::PlanarElement& g);

extern template GeometricTensor<float> transform(const GeometricTensor<float>&, const repr::PlanarElement&);
extern template GeometricTensor<double> transform(const GeometricTensor<double>&, const repr::PlanarElement&);

}  // namespace gyre::nn
