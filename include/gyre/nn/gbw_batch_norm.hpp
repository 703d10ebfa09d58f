#pragma once
// GBW-RBN: Riemannian batch normalization of SPD features under the generalised Bures–Wasserstein
// metric with a power deformation (Wang et al., "Learning to Normalize on the SPD Manifold under
// Bures–Wasserstein Geometry", CVPR 2025; code jjscc/GBWBN, GBWBN_SPDNet/spd/nn.py, BatchNormSPD).
//
// The GBW metric with respect to an SPD matrix M is the Bures–Wasserstein metric read through the
// congruence X ↦ M^-½·X·M^-½, and the power deformation X ↦ X^θ scales distances by 1/|θ|. So, per
// channel c, with A = M_c^-½ and the deformation φ(X) = A·X^θ·A (an isometry onto SPD with the BW
// metric scaled by 1/θ²):
//   Y_i = φ(X_i),  P = φ(W_c),  Z = RBN_BW(Y; bias P, scale s_c, metric scale 1/θ²),
//   output_i = φ⁻¹(Z_i) = (M_c^½·Z_i·M_c^½)^(1/θ)
// where RBN_BW is RiemannianBatchNorm<SpdBuresWasserstein> at the identity (Karcher mean, parallel
// transport to I, scaling by s/√(v + ε), transport to P, exp). Learnable: the bias W_c (an SPD matrix
// in the input's coordinates, as the reference's `weight`), the metric M_c (SPD, as the reference's
// `M`; fixed at I with learn_metric = false) and s_c. θ is fixed (the reference's `po`, default 1).
// The output batch has GBW Fréchet mean W_c and variance s²·v/(v + ε) (converged mean, training).
//
// Centring and biasing transport between the mean (the bias) and I. Those points commute, so the
// BW parallel transport has a closed form there (SpdBuresWasserstein::transport_to_identity): the
// reference's pal1/pal2, entries rescaled by √(2/(λᵢ+λⱼ)) in the mean's eigenbasis, are that
// transport exactly, and Gyre computes the same map.
// Differences from the reference, each deliberate (the README lists them):
//  - the variance is the batch's Fréchet variance about its mean; the reference's cal_var measures
//    the squared distances of the uncentred batch to I;
//  - the mean is converged by default (kReference: K Karcher steps); the reference takes one
//    fixed-point step of the BW barycenter map from the arithmetic mean;
//  - one M per channel; the reference pools all channels into one batch with one M.
// Gradients: through φ and φ⁻¹ by Daleckii–Krein (eigendecompositions of X_i, W, M and the
// outputs' pre-images), through the normalization by RiemannianBatchNorm's backward (with or
// without the statistics, detach_statistics as the reference's no_grad).

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <string>
#include <vector>

#include <xtensor/xarray.hpp>

#include "gyre/geometries/spd/bures_wasserstein.hpp"
#include "gyre/nn/batch_norm_options.hpp"
#include "gyre/nn/manifold_batch_norm.hpp"
#include "gyre/nn/module.hpp"

namespace gyre::nn {

/// GBW-RBN's options: the shared batch-norm options, the power θ and whether M is learnt.
struct GbwBatchNormOptions {
  BatchNormOptions batch_norm;
  /// The power deformation X ↦ X^θ (θ ≠ 0, finite; the reference's default 1).
  double theta = 1;
  /// false: M stays the identity (plain power-deformed BW), and parameters() leaves it out.
  bool learn_metric = true;
};

/// GBW-RBN on SPD(n)[C] features (see the header comment).
template <class T>
class GbwBatchNorm : public Module<T> {
 public:
  /// features: spd_features(n, C). ShapeError for other types; DomainError for θ = 0 or non-finite
  /// and for the shared options' bad values.
  GbwBatchNorm(TensorType features, GbwBatchNormOptions options = {});

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override;
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override;
  std::vector<Parameter<T>*> parameters() override;
  [[nodiscard]] const TensorType& in_type() const override { return type_; }
  [[nodiscard]] const TensorType& out_type() const override { return type_; }
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::size_t pending_calls() const override { return saved_.size(); }
  void discard_saved() override {
    saved_.clear();
    inner_.discard_saved();
  }
  void train(bool on = true) override {
    Module<T>::train(on);
    inner_.train(on);
  }

  [[nodiscard]] const GbwBatchNormOptions& options() const noexcept { return options_; }
  /// W: (C, n, n), the bias in the input's coordinates.
  [[nodiscard]] Parameter<T>& bias() noexcept { return bias_; }
  /// M: (C, n, n), the GBW metric's matrix.
  [[nodiscard]] Parameter<T>& metric() noexcept { return metric_; }
  /// s: (C) standard deviations.
  [[nodiscard]] Parameter<T>& scale() noexcept { return inner_.scale(); }
  /// Running statistics, in the deformed coordinates φ(·) of the metric at the time they were taken
  /// (as the reference keeps them).
  [[nodiscard]] const xt::xarray<T>& running_mean() const noexcept { return inner_.running_mean(); }
  [[nodiscard]] const xt::xarray<T>& running_variance() const noexcept { return inner_.running_variance(); }
  void set_running_statistics(xt::xarray<T> mean, xt::xarray<T> variance) {
    inner_.set_running_statistics(std::move(mean), std::move(variance));
  }
  /// The last training forward's batch mean (deformed coordinates) and variance.
  [[nodiscard]] const xt::xarray<T>& batch_mean() const noexcept { return inner_.batch_mean(); }
  [[nodiscard]] const xt::xarray<T>& batch_variance() const noexcept { return inner_.batch_variance(); }
  /// The normalization in deformed coordinates (its bias is overwritten by φ(W) at every forward).
  [[nodiscard]] const RiemannianBatchNorm<SpdBuresWasserstein<T>>& inner() const noexcept { return inner_; }

 private:
  struct Call {
    xt::xarray<T> input;   // X
    xt::xarray<T> output;  // φ⁻¹(Z)
  };

  TensorType type_;
  GbwBatchNormOptions options_;
  int n_, channels_;
  Parameter<T> bias_, metric_;
  RiemannianBatchNorm<SpdBuresWasserstein<T>> inner_;
  SavedCalls<Call> saved_;
};

extern template class GbwBatchNorm<float>;
extern template class GbwBatchNorm<double>;

}  // namespace gyre::nn
