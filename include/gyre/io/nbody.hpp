#pragma once
// A charged n-body system, the point-cloud task of the frame-averaging and EGNN papers: P particles
// in ℝᵈ with charges qᵢ = +1, −1, +1, … (fixed by index, so a network needs no charge input), moving
// under softened Coulomb forces
//   m·ẍᵢ = Σⱼ qᵢqⱼ·(xᵢ − xⱼ)/(|xᵢ − xⱼ|² + ε²)^{3/2}    (like charges repel),
// integrated by velocity Verlet. The task: from positions and velocities at t = 0 predict the
// positions at t = T. The dynamics commute with every isometry x ↦ Qx + b (velocities ↦ Qv), so the
// map is E(d)-equivariant. Initial states are isotropic Gaussians shifted by a random translation.

#include <cstdint>
#include <vector>

#include <xtensor/xarray.hpp>

#include "gyre/core/types.hpp"

namespace gyre::io {

/// The system and how its initial states are drawn.
struct NBodyOptions {
  int particles = 5;
  int dimension = 3;
  double duration = 1.0;  // T
  int steps = 1000;       // Verlet steps over T
  double softening = 0.1;
  double position_spread = 1.0;  // standard deviation of the positions about their centre
  double speed = 0.5;            // standard deviation of each velocity component
  double translation = 2.0;      // standard deviation of the centre
};

/// Samples in the layout of nn::point_cloud_type: states (N, 2, P, d) — channel 0 positions,
/// channel 1 velocities, at t = 0 — and targets (N, 1, P, d), the positions at t = T.
struct NBodyDataset {
  xt::xarray<float> states;
  xt::xarray<float> targets;
  std::vector<double> charges;
};

/// Positions (P × d) and velocities advanced by `steps` Verlet steps of duration/steps each (in place).
/// Throws ShapeError for mismatched sizes, DomainError for non-finite or non-positive settings.
void advance_nbody(Matrix<double>& positions, Matrix<double>& velocities, const std::vector<double>& charges,
                   const NBodyOptions& options);

/// Total energy Σ ½|vᵢ|² + Σ_{i<j} qᵢqⱼ/√(|xᵢ − xⱼ|² + ε²), conserved by the dynamics.
[[nodiscard]] double nbody_energy(const Matrix<double>& positions, const Matrix<double>& velocities,
                                  const std::vector<double>& charges, double softening);

/// N samples from `seed`; deterministic. Throws DomainError for P < 2, d ∉ {2, 3}, or bad settings.
[[nodiscard]] NBodyDataset simulate_nbody(std::size_t samples, const NBodyOptions& options, std::uint64_t seed);

}  // namespace gyre::io
