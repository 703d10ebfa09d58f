#pragma once
// Restriction of a representation to a subgroup, and tensor products, both decomposed into irreps.
//
// Subgroups are taken as sets of (flip, angle) pairs inside the parent, so the embedding is the
// identity on elements: C_M ⊂ C_N and D_M ⊂ D_N for M | N (C_M rotates by multiples of 2π/M),
// C_N ⊂ D_N (the rotations), D₁ ⊂ D_N (the flip (x, y) ↦ (−x, y)), SO(2) ⊂ O(2), C_N ⊂ SO(2),
// and C_N, D_N ⊂ O(2). Res ρ(h) = ρ(h); the decomposition is computed (decompose), so the
// restricted representation lists the subgroup's irreps and the change of basis into them.

#include "gyre/repr/representation.hpp"

namespace gyre::repr {

/// Whether every element of `subgroup` lies in `group` (with SO(2) ⊂ O(2) and finite ⊂ continuous).
[[nodiscard]] bool is_subgroup(const PlanarGroup& subgroup, const PlanarGroup& group);

/// ρ restricted to `subgroup`; DomainError naming both groups if it is not a subgroup.
[[nodiscard]] Representation restrict_representation(const Representation& rho, const PlanarGroup& subgroup);

/// ρ₁ ⊗ ρ₂ (the Kronecker product of the matrices), decomposed into irreps.
[[nodiscard]] Representation tensor_product(const Representation& rho1, const Representation& rho2);

/// ⟨χ₁, χ₂⟩ = avg_g χ₁(g)χ₂(g) (exact quadrature for SO(2)/O(2)): Σ multiplicity products × dim End.
[[nodiscard]] double character_inner_product(const Representation& rho1, const Representation& rho2);

}  // namespace gyre::repr
