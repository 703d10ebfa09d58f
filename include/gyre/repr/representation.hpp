#pragma once
// Orthogonal representations of the subgroups of O(2), always kept decomposed into irreps:
//   ρ(g) = Q · (ψ₁(g) ⊕ ψ₂(g) ⊕ …) · Qᵀ
// with Q orthogonal (the change of basis). Everything the kernel bases need — which irreps, in which
// basis — is therefore explicit, as in escnn.

#include <functional>
#include <string>
#include <vector>

#include "gyre/core/types.hpp"
#include "gyre/repr/irrep.hpp"
#include "gyre/repr/planar_group.hpp"

namespace gyre::repr {

/// An orthogonal representation ρ(g) = Q·(⊕ᵢ ψᵢ(g))·Qᵀ of a subgroup of O(2).
class Representation {
 public:
  /// Validates that every irrep belongs to `group` and Q is square, of the right size and orthogonal.
  Representation(PlanarGroup group, std::string name, std::vector<Irrep> irreps, Matrix<double> change_of_basis);

  [[nodiscard]] const PlanarGroup& group() const noexcept { return group_; }
  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  [[nodiscard]] int size() const noexcept { return static_cast<int>(change_of_basis_.rows()); }
  /// The irreps in the order of Q's column blocks.
  [[nodiscard]] const std::vector<Irrep>& irreps() const noexcept { return irreps_; }
  /// Q: its columns, block by block, span the copies of irreps() in order.
  [[nodiscard]] const Matrix<double>& change_of_basis() const noexcept { return change_of_basis_; }
  /// First column of Q belonging to irrep copy i.
  [[nodiscard]] int irrep_offset(int i) const { return offsets_.at(static_cast<std::size_t>(i)); }

  [[nodiscard]] Matrix<double> matrix(const PlanarElement& g) const;
  [[nodiscard]] double character(const PlanarElement& g) const;
  /// How many copies of the trivial irrep ρ contains.
  [[nodiscard]] int trivial_multiplicity() const;
  /// Whether ρ is the trivial representation of size 1.
  [[nodiscard]] bool is_trivial() const;
  /// Whether every ρ(g) is a permutation matrix (regular, quotient and trivial representations of
  /// finite groups): then pointwise nonlinearities and max pooling commute with the group.
  [[nodiscard]] bool is_permutation() const noexcept { return permutation_; }

  /// Same group, irreps and Q (the name is a label only).
  [[nodiscard]] bool equivalent_to(const Representation& other) const;

 private:
  PlanarGroup group_;
  std::string name_;
  std::vector<Irrep> irreps_;
  Matrix<double> change_of_basis_;
  std::vector<int> offsets_;
  bool permutation_ = false;
};

/// ψ as a representation (Q = I).
[[nodiscard]] Representation irrep_representation(const PlanarGroup& group, const Irrep& psi);
/// The trivial representation of size 1.
[[nodiscard]] Representation trivial_representation(const PlanarGroup& group);
/// Finite groups: the regular representation ρ(g)e_h = e_{gh} on ℝ^|G| (escnn's "regular").
/// SO(2)/O(2): escnn's band-limited regular representation of frequency L = the group's band limit,
/// the direct sum of ψ₀ … ψ_L (O(2): ψ₀,₀ ⊕ ψ₁,₀ ⊕ ψ₁,ₗ ⊕ ψ₁,ₗ for l = 1…L) with Q = I, named "regular_L".
[[nodiscard]] Representation regular_representation(const PlanarGroup& group);
/// The quotient representation on functions of G/H for the subgroup H = C_M ⊂ C_N (M divides N)
/// or H = {e, flip} ⊂ D_N: the permutation action on the cosets gH.
[[nodiscard]] Representation quotient_representation(const PlanarGroup& group, int subgroup_rotations,
                                                     bool subgroup_has_flip);
/// ρ₁ ⊕ ρ₂ ⊕ … (all of the same group).
[[nodiscard]] Representation direct_sum(const std::vector<Representation>& parts, const std::string& name);
/// P·ρ·Pᵀ for an orthogonal P.
[[nodiscard]] Representation change_basis(const Representation& rho, const Matrix<double>& p, const std::string& name);

/// Decomposes the orthogonal representation g ↦ matrix(g) of size `size` into irreps of `group`:
/// returns ρ with irreps() in `group`'s irrep order and Q such that Q·⊕ψ·Qᵀ = matrix.
/// For SO(2)/O(2), `band_limit` bounds the frequencies that matrix() contains (the Haar averages are
/// then exact quadratures). Throws DomainError if matrix() is not an orthogonal representation.
[[nodiscard]] Representation decompose(const PlanarGroup& group, const std::string& name, int size,
                                       const std::function<Matrix<double>(const PlanarElement&)>& matrix,
                                       int band_limit = -1);
/// The highest irrep frequency in ρ (for continuous groups' quadratures).
[[nodiscard]] int max_irrep_frequency(const Representation& rho);

/// escnn's field names: "irrep_k", "irrep_j,k", "regular", "regular_L", "trivial".
[[nodiscard]] Representation representation_by_name(const PlanarGroup& group, const std::string& name);

}  // namespace gyre::repr
