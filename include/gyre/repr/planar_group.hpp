#pragma once
// The subgroups of O(2) that act on the plane: C_N, D_N, SO(2) and O(2).
//
// Conventions (escnn's, pinned by ../shared/reference/escnn.json):
//   an element g = (f, θ) with f ∈ {0, 1} acts on ℝ² as rotation(θ) after flipᶠ, where the flip
//   maps (x, y) ↦ (−x, y); so g·p = R(θ)·Fᶠ·p with F = diag(−1, 1);
//   (f₁, θ₁)(f₂, θ₂) = (f₁ ⊕ f₂, θ₁ + (−1)^f₁ θ₂);
//   finite groups list their elements rotations first: C_N as r = 0…N−1 (θ = 2πr/N), D_N as
//   (0, r) for r = 0…N−1 then (1, r).
// The continuous groups are band-limited by a maximum frequency: it bounds the irreps they list and
// the size of the exact quadrature they offer for averaging band-limited functions over the group.

#include <string>
#include <vector>

namespace gyre::repr {

/// Which subgroup of O(2) a PlanarGroup is.
enum class PlanarGroupKind { kCyclic, kDihedral, kSO2, kO2 };

/// An element of a subgroup of O(2): rotation by `angle` after `flip` reflections (0 or 1).
struct PlanarElement {
  int flip = 0;
  double angle = 0.0;
};

/// A subgroup of O(2) acting on the plane, as a small value type.
class PlanarGroup {
 public:
  /// C_N, the N rotations by multiples of 2π/N (N ≥ 1).
  static PlanarGroup cyclic(int n);
  /// D_N, C_N and the N reflections (N ≥ 1); D_1 is the group of one flip.
  static PlanarGroup dihedral(int n);
  /// SO(2), band-limited at `max_frequency` ≥ 0.
  static PlanarGroup so2(int max_frequency);
  /// O(2), band-limited at `max_frequency` ≥ 0.
  static PlanarGroup o2(int max_frequency);

  [[nodiscard]] PlanarGroupKind kind() const noexcept { return kind_; }
  /// N for C_N and D_N; −1 for the continuous groups (escnn's convention).
  [[nodiscard]] int n() const noexcept { return n_; }
  /// The band limit of SO(2) and O(2); for C_N and D_N the highest irrep frequency, ⌊N/2⌋.
  [[nodiscard]] int max_frequency() const noexcept { return max_frequency_; }
  [[nodiscard]] bool is_finite() const noexcept { return n_ > 0; }
  [[nodiscard]] bool has_flips() const noexcept {
    return kind_ == PlanarGroupKind::kDihedral || kind_ == PlanarGroupKind::kO2;
  }
  /// |G| for finite groups; −1 for SO(2) and O(2).
  [[nodiscard]] int order() const noexcept;
  /// "C8", "D4", "SO(2)", "O(2)".
  [[nodiscard]] std::string name() const;

  [[nodiscard]] PlanarElement identity() const noexcept { return {}; }
  [[nodiscard]] PlanarElement compose(const PlanarElement& g, const PlanarElement& h) const;
  [[nodiscard]] PlanarElement inverse(const PlanarElement& g) const;
  /// Whether g belongs to this group (angle a multiple of 2π/N for finite groups, to 1e-9 rad).
  [[nodiscard]] bool contains(const PlanarElement& g) const;
  /// The elements of a finite group in escnn's order; throws DomainError for SO(2) and O(2).
  [[nodiscard]] std::vector<PlanarElement> elements() const;
  /// Elements with uniform weights such that the average over them of any function of the group
  /// whose rotational frequencies are at most `max_frequency` equals its Haar average exactly.
  /// For finite groups: all elements. For SO(2)/O(2): 2·max_frequency + 1 equispaced angles (×2 flips).
  [[nodiscard]] std::vector<PlanarElement> quadrature(int max_frequency) const;
  /// The element's index in elements() (finite groups only).
  [[nodiscard]] int index_of(const PlanarElement& g) const;

  friend bool operator==(const PlanarGroup& a, const PlanarGroup& b) noexcept {
    return a.kind_ == b.kind_ && a.n_ == b.n_ && a.max_frequency_ == b.max_frequency_;
  }
  friend bool operator!=(const PlanarGroup& a, const PlanarGroup& b) noexcept { return !(a == b); }

 private:
  PlanarGroup(PlanarGroupKind kind, int n, int max_frequency) : kind_(kind), n_(n), max_frequency_(max_frequency) {}
  PlanarGroupKind kind_;
  int n_;
  int max_frequency_;
};

}  // namespace gyre::repr
