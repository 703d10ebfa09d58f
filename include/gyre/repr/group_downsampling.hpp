#pragma once
// Subsampling a finite group to a subgroup without aliasing (Rahman & Yeh, "Group Downsampling with
// Equivariant Anti-aliasing", ICLR 2025), for C_N and D_N.
//
// A signal on G is a vector of |G| values in escnn's element order (C_N: r; D_N: f·N + r). Sampling
// on a subgroup H keeps the values at H's elements: (S f)ᵢ = f(hᵢ), H listed in its own escnn order.
// The rate is the index [G : H] = |G| / |H|:
//   C_N → C_{N/k}       rate k, k | N;
//   D_N → D_{N/k}       rate k, k | N;
//   D_N → C_{2N/k}      rate k even, k/2 | N (rate 2: the rotations C_N).
// A rate that gives no subgroup is refused (the reference implementation falls back to index sets
// that are not subgroups, e.g. D_6 at rate 4).
//
// The sampling theorem: f is recovered from S f when f lies in a band V with dim V = |H| and S
// injective on V; then f = U·S f with U = B·(S B)⁻¹ for an orthonormal basis B of V. Anti-aliasing
// projects onto V before sampling, so the downsampling operator is D = S·P with P = B·Bᵀ.
// Gyre's V is the smoothest such band that H preserves, built deterministically:
//   L is the Laplacian of G's Cayley graph with right generators r^{±1} (and the flip s for D_N),
//   L = deg·I − Σ_gen R_gen. Right translations commute with the left action of G, so L's eigenspaces
//   are G-invariant. Walking them by increasing eigenvalue, each eigenspace E contributes the part
//   of E orthogonal to {w ∈ E : S w ∈ S V} (the directions whose samples are new); V is complete at
//   dim |H|. Every piece is H-invariant, so P commutes with H and D is exactly H-equivariant; below
//   the subgroup's Nyquist band V is G-invariant, so only a Nyquist component can break
//   G-equivariance. For C_N this is the ideal low-pass to frequencies < M/2 (M = |H|) plus, for even
//   M, the cosine half of frequency M/2; for D_N → D_M the same on each flip coset; for D_N → C_M the
//   low-pass of the flip-symmetric part (f(0, θ) + f(1, θ))/2.
// The reference's analytical mode with its equivariance correction reduces to (1/k)·identity
// (plain subsampling) and its optimiser mode depends on where SLSQP stops; this one is closed.

#include <vector>

#include "gyre/core/types.hpp"
#include "gyre/repr/irrep.hpp"
#include "gyre/repr/planar_group.hpp"

namespace gyre::repr {

/// Which subgroup a rate selects from D_N: the dihedral D_{N/k} or the rotations C_{2N/k}.
enum class SubgroupFamily { kSameFamily, kRotations };

/// A subgroup H ⊂ G reached by subsampling at a rate, and where its elements sit in G.
struct SubgroupSampling {
  PlanarGroup group;
  PlanarGroup subgroup;
  int rate = 1;
  /// indices[i]: the index in group.elements() of subgroup.elements()[i].
  std::vector<int> indices;
};

/// H for C_N or D_N at `rate` = [G : H]; throws DomainError naming the rate when no such subgroup
/// exists (rate < 1, rate ∤ N, an odd rate to the rotations) or G is not C_N / D_N.
[[nodiscard]] SubgroupSampling subsample_group(const PlanarGroup& group, int rate,
                                               SubgroupFamily family = SubgroupFamily::kSameFamily);

/// The Cayley-graph Laplacian L = deg·I − Σ_gen R_gen (right generators r, r⁻¹ and, for D_N, s):
/// (R_gen f)(g) = f(g·gen). Symmetric, positive semi-definite, commutes with the left action of G.
[[nodiscard]] Matrix<double> cayley_laplacian(const PlanarGroup& group);

/// The anti-aliasing operators of one subsampling, all in escnn's element orders.
struct BandLimiting {
  SubgroupSampling sampling;
  /// B (|G| × |H|): an orthonormal basis of the band V.
  Matrix<double> band;
  /// P = B·Bᵀ (|G| × |G|): the orthogonal projector onto V; commutes with H's action.
  Matrix<double> projector;
  /// D = S·P (|H| × |G|): anti-aliasing followed by sampling.
  Matrix<double> downsample;
  /// U = B·(S·B)⁻¹ (|G| × |H|): reconstruction, U·S·f = f for every f in V.
  Matrix<double> upsample;
};

/// The band and operators of `sampling`, by the eigenspace walk described above.
[[nodiscard]] BandLimiting band_limiting(const SubgroupSampling& sampling);

/// The band projector in Fourier space: P = F⁻¹·diag(mask)·F for GroupFourierTransform's packing,
/// a 0/1 entry per packed coefficient. Every band above is a mask there: per frequency k of the
/// subgroup's rotation order M, all of k < M/2, the cosine half of k = M/2 (C_N: c; D_N: the
/// diagonal M₀₀, M₁₁), nothing above; towards the rotations only the flip-symmetric coefficients
/// (the irreps' first column; the sign irreps dropped). Tested equal to band_limiting's projector.
[[nodiscard]] Vector<double> band_mask(const SubgroupSampling& sampling);

/// The regular representation's matrix of g acting on signals: (λ_g f)(x) = f(g⁻¹·x), i.e. e_x ↦ e_{g·x}.
[[nodiscard]] Matrix<double> left_translation(const PlanarGroup& group, const PlanarElement& g);

}  // namespace gyre::repr
