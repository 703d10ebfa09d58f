#pragma once
// Real irreducible representations of the subgroups of O(2), in escnn's basis.
//
// An irrep is named by (j, k): j ∈ {0, 1} is how it treats the flip, k ≥ 0 its rotation frequency.
//   k = 0:           ψ(f, θ) = [(−1)^(j·f)]                          (1×1)
//   2k = N (finite): ψ(f, θ) = [cos(kθ)·(−1)^(j·f)]                  (1×1, cos(kθ) = ±1)
//   otherwise:       ψ(f, θ) = R(kθ)·diag(1, −1)ᶠ                    (2×2; flip groups use j = 1)
// with R(α) = [[cos α, −sin α], [sin α, cos α]]. Groups without flips only have j = 0.
// Names follow escnn: "irrep_k" without flips, "irrep_j,k" with flips, except D₁ (the flip group), which
// escnn builds as C₂: its irreps are "irrep_0" (trivial, j = 0) and "irrep_1" (the flip's sign, j = 1).

#include <string>
#include <vector>

#include "gyre/core/types.hpp"
#include "gyre/repr/planar_group.hpp"

namespace gyre::repr {

/// A real irrep of a subgroup of O(2), identified by its flip index j and frequency k.
struct Irrep {
  int flip_frequency = 0;
  int frequency = 0;

  friend bool operator==(const Irrep& a, const Irrep& b) noexcept {
    return a.flip_frequency == b.flip_frequency && a.frequency == b.frequency;
  }
  friend bool operator!=(const Irrep& a, const Irrep& b) noexcept { return !(a == b); }
};

/// The irreps of `group` in escnn's order (for SO(2)/O(2): up to the group's band limit).
[[nodiscard]] std::vector<Irrep> irreps(const PlanarGroup& group);
/// Whether ψ is an irrep of `group` (frequency within the band limit for continuous groups).
[[nodiscard]] bool is_irrep_of(const PlanarGroup& group, const Irrep& psi);
/// 1 or 2.
[[nodiscard]] int irrep_size(const PlanarGroup& group, const Irrep& psi);
/// dim End_G(ψ): 2 for the 2×2 irreps of C_N and SO(2) (complex type), 1 otherwise.
[[nodiscard]] int endomorphism_dim(const PlanarGroup& group, const Irrep& psi);
/// ψ(g) as a matrix.
[[nodiscard]] Matrix<double> irrep_matrix(const PlanarGroup& group, const Irrep& psi, const PlanarElement& g);
/// tr ψ(g).
[[nodiscard]] double irrep_character(const PlanarGroup& group, const Irrep& psi, const PlanarElement& g);
/// escnn's name: "irrep_3", "irrep_1,2".
[[nodiscard]] std::string irrep_name(const PlanarGroup& group, const Irrep& psi);
/// Parses an escnn irrep name for `group`; throws DomainError naming the text if it is not one.
[[nodiscard]] Irrep parse_irrep(const PlanarGroup& group, const std::string& name);

}  // namespace gyre::repr
