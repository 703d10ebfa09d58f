#pragma once
// Orbit canonicalization of sets of 4-momenta under the Lorentz group SO⁺(1,3) (after Nguyen et al.,
// NeurReps 2023): Λ*(P) = argmin_Λ c(Λ⁻¹·P) for a fixed energy c, so that Λ*(M·P) = M·Λ*(P) and the
// canonical set Λ*(P)⁻¹·P is invariant; any backbone on it is Lorentz invariant.
//
// Momenta are the rows (E, pₓ, p_y, p_z) of an n × 4 matrix, η = diag(1, −1, −1, −1). The energy is
//   c(Q) = Σᵢ qᵢ⁰ − ε·(q₁ᶻ + q₂ˣ),   0 < ε < ½,
// linear in Q: its boost part is least in the centre-of-momentum frame (Σᵢ qᵢ⁰ ≥ √(P·P), equality
// there) and its rotation part, Wahba's problem, turns q₁ towards +z and q₂ into the xz half-plane
// x > 0. c ≥ (1 − 2ε)·Σqᵢ⁰ since |qᶻ| ≤ q⁰ for causal momenta, so the minimum exists; it is unique
// when the total momentum is timelike and q₁, q₂ are not parallel in the centre-of-momentum frame.
// It is found on the group in its exponential chart (Λ ← Λ·exp(hat(a)), geometries/lorentz) by
// saddle-free Newton steps (the symmetrised Hessian's eigenvalues taken by magnitude) with
// backtracking, from the identity, until ‖∇c‖ ≤ tolerance·Σᵢ qᵢ⁰.

#include "gyre/core/types.hpp"

namespace gyre::nn {

/// The energy's alignment weight and the optimizer's stopping rule.
struct LorentzCanonicalizationOptions {
  double alignment = 0.25;  // ε
  double tolerance = 1e-12;
  int max_iterations = 200;
};

/// Λ* and how the optimizer reached it.
struct LorentzCanonicalFrame {
  Matrix<double> transform;  // Λ* ∈ SO⁺(1,3)
  int iterations = 0;
  double gradient = 0;  // ‖∇c‖ / Σᵢ qᵢ⁰ at Λ*
};

/// Λ* for the momenta (n × 4, n ≥ 2). Throws ShapeError for other shapes, DomainError for non-finite
/// entries, a momentum that is not future-directed causal (E ≥ |p| to 1e-12·E), a total momentum
/// that is not timelike, ε ∉ (0, ½), and ConvergenceError if the optimizer does not reach the
/// tolerance.
[[nodiscard]] LorentzCanonicalFrame canonical_lorentz_frame(const Matrix<double>& momenta,
                                                            const LorentzCanonicalizationOptions& options = {});

/// The canonical momenta: rows (Λ*⁻¹·pᵢ)ᵀ.
[[nodiscard]] Matrix<double> canonicalize_lorentz(const Matrix<double>& momenta, const LorentzCanonicalFrame& frame);

/// ∂L/∂P (n × 4, rows like the momenta) from ∂L/∂Q for Q = canonicalize_lorentz(P, Λ*(P)), through
/// the transformation at fixed Λ* and through Λ* itself. Λ* is defined by ∇c(Λ*; P) = 0; perturbing
/// P by dP moves it to Λ*·exp(hat(da)) with H·da = b, H_kl = ⟨u, G_k·G_l·Q⟩ (the Hessian at the
/// minimum) and b_k = ⟨u, G_k·Λ*⁻¹·dP⟩, so that dQ = Λ*⁻¹·dP − hat(da)·Q and
///   P̄ = (Λ*⁻ᵀ·(Q̄ − Σ_k w_k·G_kᵀ·u))ᵀ,   H·w = r,   r_l = ⟨Q̄, G_l·Q⟩.
/// Where H is not positive definite (the minimum is not strict, and Λ* not differentiable) Λ* is held
/// fixed. `options.alignment` must be the one Λ* was found with.
[[nodiscard]] Matrix<double> canonicalize_lorentz_backward(const Matrix<double>& momenta,
                                                           const LorentzCanonicalFrame& frame,
                                                           const Matrix<double>& grad_canonical,
                                                           const LorentzCanonicalizationOptions& options = {});

}  // namespace gyre::nn
