#pragma once
// GyroBN (Chen, Song, Liu & Sebe, "Gyrogroup Batch Normalization", ICLR 2025), written once against
// the gyrogroup interface (gyre/core/gyrogroup.hpp) and the manifold's exp/log: any space that is
// both, with the gyro and exp/log VJPs, gets it — Gyre instantiates the Grassmannian, the
// κ-stereographic spaces (the Poincaré ball at κ = −1, the projected sphere at κ > 0) and SPD under
// the affine-invariant, log-Euclidean and log-Cholesky gyro structures.
//
// Per channel c, on a batch x₁ … x_B (data (B, C, item…)):
//   training  M = Fréchet mean of the xᵢ, v = (1/B)·Σ d(M, xᵢ)² = (1/B)·Σ ‖log_e(⊖M ⊕ xᵢ)‖²_e
//             (left gyrotranslations are isometries: GyroBN's two conditions, checked for every
//             gyrogroup by gyre::check::gyrogroup_laws)
//   eval      M, v = the running mean and variance
//   output    P ⊕ (f ⊗ (⊖M ⊕ xᵢ)),  f = s/√(v + ε)
// with learnable P = bias() (C points, initially e) and s = scale() (C standard deviations,
// initially 1). In training mode with the converged mean the output batch has Fréchet mean P and
// variance s²·v/(v + ε) (GyroBN's Theorem: gyro-translation moves the mean, gyro-scaling scales
// the variance about e). Running mean ← geodesic(mean, M, momentum), running variance ← (1 − m)·
// variance + m·v, from e and 1.
//
// Mean modes: kConverged (the default: Karcher to a tolerance, implicit derivative from
// geometry/frechet_mean_vjp.hpp) and kReference (the GyroBN code's: K Karcher steps from the first
// item, no stopping test, unrolled derivative). detach_statistics reproduces the references' .detach().
// normalize_variance = false leaves out the scaling: SPDNetBN (Brooks et al. 2019) on SPD under AIM.
// Differences from the references (GitZH-Chen/GyroBN at eaa2bfb), each deliberate: the Grassmann
// reference's default exp_mode='cayley' computes (I − A)(I + A)⁻¹ ≈ exp(−2A) where exp(A) is meant,
// so it neither centres the batch nor scales its variance as the theory says — Gyre uses the true
// exponential everywhere; its bias is a point of the space (a manifold parameter, optimised by a
// Riemannian optimizer) rather than a Euclidean (n−p)×p block mapped through exp; the Poincaré-ball
// reference keeps the running variance as a cumulative average over batches, Gyre uses momentum
// as every other normalization.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <string>
#include <vector>

#include <xtensor/xarray.hpp>

#include "gyre/core/derivatives.hpp"
#include "gyre/core/group_derivatives.hpp"
#include "gyre/core/gyrogroup.hpp"
#include "gyre/core/lie_normalization.hpp"
#include "gyre/geometries/grassmann/grassmann.hpp"
#include "gyre/geometries/spd/affine_invariant.hpp"
#include "gyre/geometries/spd/log_cholesky.hpp"
#include "gyre/geometries/spd/log_euclidean.hpp"
#include "gyre/geometries/stereographic/stereographic.hpp"
#include "gyre/nn/batch_norm_options.hpp"
#include "gyre/nn/module.hpp"

namespace gyre::nn {

/// GyroBN's options: the options every manifold batch norm shares (tolerance 0: frechet_mean's 8·ε).
using GyroBatchNormOptions = BatchNormOptions;

/// GyroBN over a gyrogroup that is also a manifold with VJPs (see the header comment).
template <class Space>
class GyroBatchNorm : public Module<typename Space::Scalar> {
  static_assert(is_manifold_v<Space> && is_gyrogroup_v<Space>, "GyroBatchNorm needs a gyrogroup manifold");
  static_assert(has_gyro_vjp_v<Space> && has_exp_log_vjp_v<Space>, "GyroBatchNorm needs the gyro and exp/log VJPs");

 public:
  using T = typename Space::Scalar;
  using Point = typename Space::Point;
  using Tangent = typename Space::Tangent;

  /// features: none × (this space)[C]; the fiber's space also carries the bias parameter.
  /// DomainError for ε ≤ 0, a momentum outside [0, 1] or a bad mean budget.
  GyroBatchNorm(Space space, TensorType features, GyroBatchNormOptions options = {});

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

  [[nodiscard]] const Space& space() const noexcept { return space_; }
  [[nodiscard]] const GyroBatchNormOptions& options() const noexcept { return options_; }
  /// P: (C, item…) points of the space.
  [[nodiscard]] Parameter<T>& bias() noexcept { return bias_; }
  /// s: (C) standard deviations.
  [[nodiscard]] Parameter<T>& scale() noexcept { return scale_; }
  [[nodiscard]] const xt::xarray<T>& running_mean() const noexcept { return running_mean_; }
  [[nodiscard]] const xt::xarray<T>& running_variance() const noexcept { return running_variance_; }
  /// Replaces the running statistics (the space's error for a mean off the space, ShapeError for
  /// wrong shapes, DomainError for a negative or non-finite variance).
  void set_running_statistics(xt::xarray<T> mean, xt::xarray<T> variance);
  /// The last training forward's batch mean (C, item…) and variance (C).
  [[nodiscard]] const xt::xarray<T>& batch_mean() const noexcept { return batch_mean_; }
  [[nodiscard]] const xt::xarray<T>& batch_variance() const noexcept { return batch_variance_; }

 private:
  struct ChannelCall {
    std::vector<Point> x, centred, scaled;
    Point mean, inverse_mean;
    std::vector<Tangent> logs;  // log_e of the centred items
    T variance = 0;
    T factor = 0;
  };
  struct Call {
    bool batch_statistics = false;
    std::vector<ChannelCall> channels;
  };

  [[nodiscard]] Point batch_mean_of(const std::vector<Point>& items) const;
  [[nodiscard]] std::vector<Point> batch_mean_vjp(const std::vector<Point>& items, const Point& mean,
                                                  const Point& g) const;
  // 2·flat_e(u): the Euclidean gradient of ‖u‖²_e, from a Frobenius-orthonormal basis of T_e.
  [[nodiscard]] Tangent squared_norm_gradient(const Tangent& u) const;

  Space space_;
  TensorType type_;
  GyroBatchNormOptions options_;
  int channels_;
  Point identity_;
  std::vector<Tangent> identity_basis_;
  Parameter<T> bias_;
  Parameter<T> scale_;
  xt::xarray<T> running_mean_, running_variance_;
  xt::xarray<T> batch_mean_, batch_variance_;
  SavedCalls<Call> saved_;
};

extern template class GyroBatchNorm<Grassmann<float>>;
extern template class GyroBatchNorm<Grassmann<double>>;
extern template class GyroBatchNorm<Stereographic<float>>;
extern template class GyroBatchNorm<Stereographic<double>>;
extern template class GyroBatchNorm<SpdAffineInvariant<float>>;
extern template class GyroBatchNorm<SpdAffineInvariant<double>>;
extern template class GyroBatchNorm<SpdLogEuclidean<float>>;
extern template class GyroBatchNorm<SpdLogEuclidean<double>>;
extern template class GyroBatchNorm<SpdLogCholesky<float>>;
extern template class GyroBatchNorm<SpdLogCholesky<double>>;

}  // namespace gyre::nn
