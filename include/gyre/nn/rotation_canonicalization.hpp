#pragma once
// Orbit canonicalization of images under SO(2) (after Nguyen et al., "Learning symmetrization for
// equivariance with orbit distance minimization", NeurReps 2023): each image x is rotated to the
// point of its orbit closest to a fixed template t,
//   θ*(x) = argmin_θ ‖g_θ⁻¹·x − t‖²,    canonical(x) = g_θ*⁻¹·x,
// and any backbone applied to canonical(x) is invariant, because θ*(g_α·x) = θ*(x) + α.
//
// The template is t(p) = exp(−|p|²/2σ²)·Σ_k a_k·cos(k·φ_p) on the continuous plane (pixel p at
// (x, y) as nn::transform places it). Rotations keep ‖·‖, so the orbit distance is ‖x‖² + ‖t‖² −
// 2⟨g_θ⁻¹·x, t⟩, and ⟨g_θ⁻¹·x, t⟩ = ⟨x, g_θ·t⟩ is evaluated on x's own pixels with t rotated
// analytically: no interpolation of x enters θ*. With Z_k = Σ_p x(p)·w(|p|)·e^{ikφ_p} (all channels
// summed) the energy to minimise is the trigonometric polynomial
//   E(θ) = −Σ_k a_k·Re(Z_k·e^{−ikθ}),
// minimised on SO(2) in its exponential chart (θ ↦ exp(θJ)) by Riemannian Newton steps (gradient
// steps with backtracking where E'' ≤ 0) from 4K equispaced starts, K the highest frequency; a
// trigonometric polynomial of degree K has at most 2K critical points, so every basin has a start.
// θ* is equivariant exactly for quarter turns (pixel permutations) and to the optimizer's
// tolerance; the canonical map is then resampled by nn::transform (bilinear off the grid
// symmetries). An image whose minimum is not unique (E's minima tie within 1e-9·scale, e.g. an
// image with a k-fold symmetry the template's harmonics cannot see) is reported `ambiguous`, and the
// first minimum in angle order is used.

#include <vector>

#include "gyre/nn/geometric_tensor.hpp"

namespace gyre::nn {

/// The template's harmonics and Gaussian radius.
struct RotationTemplate {
  /// a_k for k = 1, 2, …; at least one must be non-zero.
  std::vector<double> weights{1.0, 0.5, 1.0 / 3};
  /// σ in pixels; 0 means a quarter of the map's smaller side.
  double sigma = 0;
};

/// The optimizer's stopping rule.
struct CanonicalizationOptions {
  /// Stop when |E'(θ)| ≤ tolerance·Σ_k k·|a_k|·|Z_k|.
  double tolerance = 1e-13;
  int max_iterations = 100;
};

/// One image's canonical rotation and how the optimizer reached it.
struct CanonicalRotation {
  double angle = 0;     // θ* in [0, 2π)
  double energy = 0;    // E(θ*)
  double gradient = 0;  // |E'(θ*)| relative to its scale
  int iterations = 0;   // Newton/gradient steps summed over the starts
  bool ambiguous = false;
};

/// θ* for each item of a grid tensor (B, C, H, W) of any field type (channels are summed as
/// scalars). Throws DomainError for non-finite maps, an all-zero template or σ < 0; ShapeError for
/// non-grid tensors. A map with E ≡ 0 up to rounding (no template harmonic present: Σ k|a_k Z_k| ≤
/// 1e-12·Σ_p |x(p)|·w(|p|)·Σ k|a_k|) is ambiguous with θ* = 0.
template <class T>
[[nodiscard]] std::vector<CanonicalRotation> canonical_rotations(const GeometricTensor<T>& x,
                                                                 const RotationTemplate& shape = {},
                                                                 const CanonicalizationOptions& options = {});

/// g_θ*⁻¹·x item by item (nn::transform by the element (0, −θ*)); the tensor's group must contain
/// every θ* (SO(2) or O(2)).
template <class T>
[[nodiscard]] GeometricTensor<T> canonicalize_rotation(const GeometricTensor<T>& x,
                                                       const std::vector<CanonicalRotation>& rotations);

/// ∂θ*/∂x for each item, shaped as x.data: implicit differentiation of E'(θ*; x) = 0, that is
/// ∂θ*/∂x = −∂ₓE'(θ*)/E''(θ*). Zero for ambiguous items and where E''(θ*) ≤ 0, where θ* is not a
/// differentiable function of x. `shape` must be the template θ* was found with.
template <class T>
[[nodiscard]] xt::xarray<T> canonical_rotation_gradient(const GeometricTensor<T>& x,
                                                        const std::vector<CanonicalRotation>& rotations,
                                                        const RotationTemplate& shape = {});

}  // namespace gyre::nn
