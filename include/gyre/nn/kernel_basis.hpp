#pragma once
// Steerable kernel bases on the plane (Weiler & Cesa 2019, "General E(2)-Equivariant Steerable CNNs",
// §2.5–2.6 and appendix F), with escnn's radial rings and frequency cut-offs.
//
// A kernel κ: ℝ² → ℝ^(d_out×d_in) is G-steerable when κ(g·p) = ρ_out(g)·κ(p)·ρ_in(g)ᵀ. Expand it in polar
// coordinates as rings × circular harmonics: κ(p) = Σᵣ bᵣ(|p|) Σⱼ Σₘ Cᵣⱼₘ Yⱼₘ(φ), where
//   bᵣ(ρ) = exp(−(ρ − rᵣ)²/(2σᵣ²))     escnn's Gaussian rings, and
//   Y₀ = 1, Yⱼ = (cos jφ, sin jφ)        the harmonics of the circle, harmonic j ≤ the ring's cut-off.
// The constraint is linear in the coefficients C and splits by irrep pair and harmonic j. For each
// (ψ_out, ψ_in, j) we solve it exactly in the harmonic domain: the solutions are the fixed points of the
// orthogonal action (S_g C)ₙ = Σₘ Aⱼ(g⁻¹)ₘₙ ψ_out(g)ᵀ Cₘ ψ_in(g) of G on coefficients (Aⱼ: how Yⱼ moves),
// i.e. the range of the projector avg_g S_g. The average is a finite sum for C_N and D_N and an exact
// quadrature for SO(2) and O(2), whose integrands are trigonometric polynomials of known degree; no
// sampling of the plane enters. The number of solutions equals dim Hom_G(ψ_in ⊗ Yⱼ, ψ_out), the
// count escnn reports (Wigner–Eckart). Representations built from irreps by Q inherit the solutions as
// Q_out·C·Q_inᵀ.
//
// Sampling: the grid of a k×k filter has pixel (row, col) at x = (col − (k−1)/2)·dilation,
// y = ((k−1)/2 − row)·dilation (escnn). At the origin only j = 0 is non-zero, as in escnn.

#include <memory>
#include <string>
#include <vector>

#include "gyre/core/types.hpp"
#include "gyre/repr/representation.hpp"

namespace gyre::nn {

/// Radial rings, their widths and the highest harmonic allowed on each (escnn's basis parameters).
struct BasisParams {
  std::vector<double> rings;
  std::vector<double> sigma;
  std::vector<int> max_frequency_per_ring;
  /// The highest harmonic on any ring.
  int maximum_frequency = 0;
};

/// escnn's defaults for a k×k filter (compute_basis_params with frequencies_cutoff = −1):
/// ⌈k/2⌉ rings at 0 … (k−1)/2 (× dilation), σ = 0.6 (0.4 on the last ring, 0.005 at radius 0), and
/// the cut-off 0 at r = 0, min(2r, 2 if r = k/2 else 2r − (r+1) mod 2) elsewhere.
[[nodiscard]] BasisParams default_basis_params(int kernel_size, int dilation = 1);
/// Validates user-given parameters (equal lengths, radii ≥ 0, σ > 0, cut-offs ≥ 0); fills maximum_frequency.
[[nodiscard]] BasisParams make_basis_params(std::vector<double> rings, std::vector<double> sigma,
                                            std::vector<int> max_frequency_per_ring);

/// The solutions C (each d_out × d_in × dim Yⱼ, stored as d_out·d_in·dimYⱼ numbers in (o, i, m) order,
/// orthonormal) of the steerability constraint for one irrep pair and one harmonic j.
[[nodiscard]] std::vector<Vector<double>> harmonic_solutions(const repr::PlanarGroup& group, const repr::Irrep& out,
                                                             const repr::Irrep& in, int j);

/// The sampled steerable basis between two representations for a k×k filter: `dim()` elements, each
/// a d_out × d_in × k × k array, stored as the rows of `samples()` in (o, i, row, col) order.
class KernelBasis {
 public:
  KernelBasis(const repr::Representation& out, const repr::Representation& in, int kernel_size,
              const BasisParams& params, int dilation = 1);

  [[nodiscard]] int dim() const noexcept { return static_cast<int>(samples_.rows()); }
  [[nodiscard]] int kernel_size() const noexcept { return kernel_size_; }
  [[nodiscard]] int out_size() const noexcept { return out_size_; }
  [[nodiscard]] int in_size() const noexcept { return in_size_; }
  /// dim() × (d_out·d_in·k·k); each row normalised to unit Frobenius norm.
  [[nodiscard]] const Matrix<double>& samples() const noexcept { return samples_; }
  /// Numerical rank of samples(): singular values above 1e-5 × the largest (escnn's criterion).
  [[nodiscard]] int rank() const;

 private:
  int kernel_size_;
  int out_size_;
  int in_size_;
  Matrix<double> samples_;
};

/// The basis for (out, in, k, params, dilation), built once per process and shared (thread safe).
[[nodiscard]] std::shared_ptr<const KernelBasis> cached_kernel_basis(const repr::Representation& out,
                                                                     const repr::Representation& in, int kernel_size,
                                                                     const BasisParams& params, int dilation = 1);

}  // namespace gyre::nn
