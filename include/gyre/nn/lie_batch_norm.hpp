#pragma once
// LieBN (Chen, Song, Liu & Sebe, "A Lie Group Approach to Riemannian Batch Normalization", ICLR
// 2024), written once against gyre/core/lie_normalization.hpp and instantiated for every structure
// that models it: SPD under LEM (α, β), LCM (θ) and AIM (θ, α, β), and SO(n).
//
// Per channel c, on a batch X₁ … X_B of channel c's points (data (B, C, n, n)), in deformed
// coordinates Dᵢ = φ(Xᵢ):
//   training  M = Fréchet mean of the Dᵢ, v = (1/B)·Σ ‖log_e(M⁻¹ ⊙ Dᵢ)‖² (B, not B − 1)
//   eval      M, v = the running mean and variance
//   output    φ⁻¹(φ(P) ⊙ exp_e(f·log_e(M⁻¹ ⊙ Dᵢ))),  f = s/√(v + ε)
// with learnable parameters P = bias() (C points of the fiber's space, initially the identity) and
// s = scale() (C standard deviations, initially 1; the reference's `shift`). In training mode with
// the converged mean the output batch has Fréchet mean P and Fréchet variance s²·v/(v + ε) ≈ s².
// Running statistics (deformed coordinates; mean initially the group identity e, variance 1) move
// after every training forward: mean ← geodesic(mean, M, momentum), variance ← (1 − m)·variance + m·v.
//
// Gradients: by default through everything, the mean and variance included (the mean's implicit
// derivative, or the reference iterations unrolled: lie_normalization.hpp). detach_statistics
// reproduces the reference code, which computes M and v on detached inputs (no gradient through
// them); normalize_variance = false centres and biases only (no scale parameter). A training batch
// needs B ≥ 2 (one point has variance 0: f would be s/√ε). The converged mean's tolerance 0 means
// 1000·ε (LieMeanOptions).
//
// Differences from the reference (GitZH-Chen/LieBN at ff2e6a5), each deliberate:
//   - the running mean starts at the group identity; the reference starts at eye(n) in deformed
//     coordinates, i.e. at expm(I) = e·I under LEM and at a non-identity Cholesky point under LCM;
//   - the default mean is converged Karcher (kReference gives the reference's K = 1 step);
//   - under AIM (θ ≠ 1) the scale receives its gradient through X^f (the reference's power
//     backward returns none for the exponent).
// The member definitions are in gyre/nn/lie_batch_norm_impl.hpp: libgyre instantiates the built-in
// structures below; a structure of your own includes that header too.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include <xtensor/xarray.hpp>

#include "gyre/core/lie_normalization.hpp"
#include "gyre/geometries/so/so_normalization.hpp"
#include "gyre/geometries/spd/spd_affine_normalization.hpp"
#include "gyre/geometries/spd/spd_normalization.hpp"
#include "gyre/nn/batch_norm_options.hpp"
#include "gyre/nn/module.hpp"

namespace gyre::nn {

/// LieBN's options: the options every manifold batch norm shares.
using LieBatchNormOptions = BatchNormOptions;

/// LieBN over a Lie normalization structure (see the header comment).
namespace lie_batch_norm_detail {
/// type: the structure's Spectral where it keeps eigensystems, else an empty placeholder.
struct NotSpectral {};
template <class S, class = void>
struct has_spectral : std::false_type {
  using type = NotSpectral;
};
template <class S>
struct has_spectral<S, std::void_t<typename S::Spectral>> : std::true_type {
  using type = typename S::Spectral;
};
}  // namespace lie_batch_norm_detail

template <class Structure>
class LieBatchNorm : public Module<typename Structure::Scalar> {
  static_assert(is_lie_normalization_v<Structure>, "LieBatchNorm needs a Lie normalization structure");

 public:
  using T = typename Structure::Scalar;
  using Point = typename Structure::Point;

  /// features: none × (the structure's space)[C], whose space also carries the bias parameter.
  /// Throws ShapeError for a fiber whose items are not n×n, DomainError for ε ≤ 0 or a momentum
  /// outside [0, 1].
  LieBatchNorm(Structure structure, TensorType features, LieBatchNormOptions options = {});

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override;
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override;
  std::vector<Parameter<T>*> parameters() override {
    if (!options_.normalize_variance) return {&bias_};
    return {&bias_, &scale_};
  }
  [[nodiscard]] const TensorType& in_type() const override { return type_; }
  [[nodiscard]] const TensorType& out_type() const override { return type_; }
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::size_t pending_calls() const override { return saved_.size(); }
  void discard_saved() override { saved_.clear(); }

  [[nodiscard]] const Structure& structure() const noexcept { return structure_; }
  [[nodiscard]] const LieBatchNormOptions& options() const noexcept { return options_; }
  /// P: (C, n, n) points of the fiber's space.
  [[nodiscard]] Parameter<T>& bias() noexcept { return bias_; }
  /// s: (C) standard deviations.
  [[nodiscard]] Parameter<T>& scale() noexcept { return scale_; }
  /// Running mean (C, n, n) in deformed coordinates, running variance (C).
  [[nodiscard]] const xt::xarray<T>& running_mean() const noexcept { return running_mean_; }
  [[nodiscard]] const xt::xarray<T>& running_variance() const noexcept { return running_variance_; }
  /// Replaces the running statistics (ShapeError for wrong shapes, DomainError for a negative or
  /// non-finite variance).
  void set_running_statistics(xt::xarray<T> mean, xt::xarray<T> variance);
  /// The last training forward's batch statistics: mean (C, n, n, deformed) and variance (C).
  [[nodiscard]] const xt::xarray<T>& batch_mean() const noexcept { return batch_mean_; }
  [[nodiscard]] const xt::xarray<T>& batch_variance() const noexcept { return batch_variance_; }
  /// Karcher iterations each channel's mean took in the last training forward.
  [[nodiscard]] const std::vector<int>& mean_iterations() const noexcept { return mean_iterations_; }

 private:
  // Whether the structure keeps its maps' eigensystems (core/lie_normalization.hpp's optional members).
  static constexpr bool kSpectral = lie_batch_norm_detail::has_spectral<Structure>::value;
  using Kept = typename lie_batch_norm_detail::has_spectral<Structure>::type;

  struct ChannelCall {
    std::vector<Point> x, d, y, a, s, z;
    std::vector<Kept> kept_x, kept_y, kept_s, kept_z;  // φ(x), log_e(y), exp_e(f·a), φ⁻¹(z) (kSpectral only)
    Point bias_deformed;
    LieMean<Point> mean;
    T variance = 0;
    T factor = 0;
  };
  struct Call {
    bool batch_statistics = false;
    std::vector<ChannelCall> channels;
  };

  [[nodiscard]] LieMeanOptions<T> mean_options() const;

  Structure structure_;
  TensorType type_;
  LieBatchNormOptions options_;
  int n_;
  int channels_;
  Parameter<T> bias_;
  Parameter<T> scale_;
  xt::xarray<T> running_mean_, running_variance_;
  xt::xarray<T> batch_mean_, batch_variance_;
  std::vector<int> mean_iterations_;
  SavedCalls<Call> saved_;
};

extern template class LieBatchNorm<SpdLogEuclideanNormalization<float>>;
extern template class LieBatchNorm<SpdLogEuclideanNormalization<double>>;
extern template class LieBatchNorm<SpdLogCholeskyNormalization<float>>;
extern template class LieBatchNorm<SpdLogCholeskyNormalization<double>>;
extern template class LieBatchNorm<SpdAffineInvariantNormalization<float>>;
extern template class LieBatchNorm<SpdAffineInvariantNormalization<double>>;
extern template class LieBatchNorm<SoNormalization<float>>;
extern template class LieBatchNorm<SoNormalization<double>>;

}  // namespace gyre::nn
