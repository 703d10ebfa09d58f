#pragma once
// Batch normalization on a manifold through the tangent space at an origin e, written once and
// specialised by how points reach T_e (nn/batch_norm_centring.hpp):
//   GyroBatchNorm<G>        = ManifoldBatchNorm<GyroCentring<G>>: GyroBN (Chen, Song, Liu & Sebe,
//                             "Gyrogroup Batch Normalization", ICLR 2025) on any gyrogroup that is a
//                             manifold with the gyro and exp/log VJPs — instantiated on the
//                             Grassmannian, the κ-stereographic spaces (the Poincaré ball at κ = −1,
//                             the projected sphere at κ > 0), the hyperboloid (the ball's structure
//                             through the isometry), the correlation manifold (its Cholesky rows'
//                             Poincaré balls) and SPD under the affine-invariant, log-Euclidean and
//                             log-Cholesky gyro structures;
//   RiemannianBatchNorm<M>  = ManifoldBatchNorm<TransportCentring<M>>: the transport-based Riemannian
//                             BN (Brooks et al. 2019 with Kobler et al.'s variance, Lou et al. 2020 on
//                             hyperbolic space) on any manifold with exp/log/transport VJPs —
//                             instantiated on the Grassmannian, the κ-stereographic spaces, the
//                             hyperboloid, the correlation manifold, SPD under AIM and under
//                             Bures–Wasserstein.
//
// Per channel c, on a batch x₁ … x_B (data (B, C, item…)), with wᵢ = centre(M, xᵢ) ∈ T_e:
//   training  M = Fréchet mean of the xᵢ, v = (κ/B)·Σ ‖wᵢ‖²_e = (κ/B)·Σ d(M, xᵢ)², κ = metric_scale (1)
//   eval      M, v = the running mean and variance
//   output    place(P, f·wᵢ),  f = s/√(v + ε)
// with learnable P = bias() (C points, initially e) and s = scale() (C standard deviations,
// initially 1). In training mode with the converged mean the output batch has Fréchet mean P and
// variance s²·v/(v + ε). Running mean ← geodesic(mean, M, momentum), running variance ← (1 − m)·
// variance + m·v, from e and 1.
//
// Mean modes: kConverged (the default: Karcher to a tolerance, 0 meaning frechet_mean's 8·ε in
// double and 1000·ε in float, where the step stalls above 8ε; with
// the implicit derivative of geometry/frechet_mean_vjp.hpp) and kReference (the GyroBN code's: K
// Karcher steps from the first item, no stopping test, unrolled derivative). detach_statistics
// reproduces the references' .detach(); normalize_variance = false leaves out the scaling — on SPD
// under AIM, GyroBN and the Riemannian BN then both are SPDNetBN (Brooks et al. 2019).
// Float layers on spaces with a cut locus (the Grassmannian, κ-stereographic) centre, place and take
// their statistics and derivatives in double (detail::working_centring); data and parameters stay
// float.
// Differences from the GyroBN code (GitZH-Chen/GyroBN at eaa2bfb), each deliberate: the Grassmann
// reference's default exp_mode='cayley' computes (I − A)(I + A)⁻¹ ≈ exp(−2A) where exp(A) is meant,
// so it neither centres the batch nor scales its variance as the theory says — Gyre uses the true
// exponential everywhere; its bias is a point of the space (a manifold parameter, optimised by a
// Riemannian optimizer) rather than a Euclidean (n−p)×p block mapped through exp; the Poincaré-ball
// reference keeps the running variance as a cumulative average over batches, Gyre uses momentum
// as every other normalization.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <xtensor/xarray.hpp>

#include "gyre/geometries/correlation/correlation.hpp"
#include "gyre/geometries/grassmann/grassmann.hpp"
#include "gyre/geometries/hyperboloid/hyperboloid.hpp"
#include "gyre/geometries/spd/affine_invariant.hpp"
#include "gyre/geometries/spd/bures_wasserstein.hpp"
#include "gyre/geometries/spd/log_cholesky.hpp"
#include "gyre/geometries/spd/log_euclidean.hpp"
#include "gyre/geometries/stereographic/stereographic.hpp"
#include "gyre/nn/batch_norm_centring.hpp"
#include "gyre/nn/batch_norm_options.hpp"
#include "gyre/nn/module.hpp"

namespace gyre::nn {

/// GyroBN's options: the options every manifold batch norm shares.
using GyroBatchNormOptions = BatchNormOptions;

namespace detail {

/// Where a manifold batch norm computes its statistics: in the centring's own precision, except for
/// float spaces with a cut locus (those with `in_double()`: Grassmann, κ-stereographic), which work in
/// double. Their float features can come within float rounding of the batch mean's cut locus, where
/// the float log is undetermined (GrNet with GyroBN stopped so: cos θ = 1.6e-7 < 4ε), while the
/// float data still determine it in double.
template <class C, class = void>
struct working_centring {
  using type = C;
};
template <class C>
struct working_centring<C, std::enable_if_t<std::is_same_v<typename C::Space::Scalar, float>,
                                            std::void_t<decltype(std::declval<const C&>().in_double())>>> {
  using type = decltype(std::declval<const C&>().in_double());
};

}  // namespace detail

/// Batch normalization through T_e with a centring policy (see the header comment).
template <class Centring>
class ManifoldBatchNorm : public Module<typename Centring::Space::Scalar> {
 public:
  using Space = typename Centring::Space;
  using T = typename Space::Scalar;
  using Point = typename Space::Point;
  using Tangent = typename Space::Tangent;
  /// The centring the statistics are computed with: Centring itself, or its double twin.
  using Working = typename detail::working_centring<Centring>::type;

  /// features: none × (this space)[C]; the fiber's space also carries the bias parameter.
  /// DomainError for ε ≤ 0, a momentum outside [0, 1] or a bad mean budget.
  ManifoldBatchNorm(Centring centring, TensorType features, BatchNormOptions options = {});

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

  [[nodiscard]] const Space& space() const noexcept { return centring_.space; }
  [[nodiscard]] const BatchNormOptions& options() const noexcept { return options_; }
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
  using W = typename Working::Space::Scalar;
  using WPoint = typename Working::Point;
  using WTangent = typename Working::Tangent;
  static constexpr bool kWidened = !std::is_same_v<Working, Centring>;
  // Whether the centring maps a whole batch at once (TransportCentring on a space with transport_many).
  static constexpr bool kBatched = has_batched_centring<Working>::value;

  struct ChannelCall {
    std::vector<WPoint> x;
    std::vector<WTangent> w;  // centre(M, xᵢ) ∈ T_e
    WPoint mean;
    W variance = 0;
    W factor = 0;
  };
  struct Call {
    bool batch_statistics = false;
    std::vector<ChannelCall> channels;
  };

  [[nodiscard]] WPoint batch_mean_of(const std::vector<WPoint>& items) const;
  [[nodiscard]] std::vector<WPoint> batch_mean_vjp(const std::vector<WPoint>& items, const WPoint& mean,
                                                   const WPoint& g) const;
  // 2κ·flat_e(u): the Euclidean gradient of κ‖u‖²_e, from a Frobenius-orthonormal basis of T_e.
  [[nodiscard]] WTangent squared_norm_gradient(const WTangent& u) const;
  static WPoint widen(const Point& p) { return p.template cast<W>(); }
  static Point narrow(const WPoint& p) { return p.template cast<T>(); }

  Centring centring_;
  Working working_;
  TensorType type_;
  BatchNormOptions options_;
  int channels_;
  std::vector<WTangent> origin_basis_;
  Parameter<T> bias_;
  Parameter<T> scale_;
  xt::xarray<T> running_mean_, running_variance_;
  xt::xarray<T> batch_mean_, batch_variance_;
  SavedCalls<Call> saved_;
};

/// GyroBN on a gyrogroup G (constructible from the space itself).
template <class G>
using GyroBatchNorm = ManifoldBatchNorm<GyroCentring<G>>;
/// The transport-based Riemannian BN on a manifold M (constructed from TransportCentring(space, e)).
template <class M>
using RiemannianBatchNorm = ManifoldBatchNorm<TransportCentring<M>>;

extern template class ManifoldBatchNorm<GyroCentring<Grassmann<float>>>;
extern template class ManifoldBatchNorm<GyroCentring<Grassmann<double>>>;
extern template class ManifoldBatchNorm<GyroCentring<Stereographic<float>>>;
extern template class ManifoldBatchNorm<GyroCentring<Stereographic<double>>>;
extern template class ManifoldBatchNorm<GyroCentring<SpdAffineInvariant<float>>>;
extern template class ManifoldBatchNorm<GyroCentring<SpdAffineInvariant<double>>>;
extern template class ManifoldBatchNorm<GyroCentring<SpdLogEuclidean<float>>>;
extern template class ManifoldBatchNorm<GyroCentring<SpdLogEuclidean<double>>>;
extern template class ManifoldBatchNorm<GyroCentring<SpdLogCholesky<float>>>;
extern template class ManifoldBatchNorm<GyroCentring<SpdLogCholesky<double>>>;
extern template class ManifoldBatchNorm<GyroCentring<Hyperboloid<float>>>;
extern template class ManifoldBatchNorm<GyroCentring<Hyperboloid<double>>>;
extern template class ManifoldBatchNorm<GyroCentring<Correlation<float>>>;
extern template class ManifoldBatchNorm<GyroCentring<Correlation<double>>>;
extern template class ManifoldBatchNorm<TransportCentring<Correlation<float>>>;
extern template class ManifoldBatchNorm<TransportCentring<Correlation<double>>>;
extern template class ManifoldBatchNorm<TransportCentring<Grassmann<float>>>;
extern template class ManifoldBatchNorm<TransportCentring<Grassmann<double>>>;
extern template class ManifoldBatchNorm<TransportCentring<Stereographic<float>>>;
extern template class ManifoldBatchNorm<TransportCentring<Stereographic<double>>>;
extern template class ManifoldBatchNorm<TransportCentring<Hyperboloid<float>>>;
extern template class ManifoldBatchNorm<TransportCentring<Hyperboloid<double>>>;
extern template class ManifoldBatchNorm<TransportCentring<SpdAffineInvariant<float>>>;
extern template class ManifoldBatchNorm<TransportCentring<SpdAffineInvariant<double>>>;
extern template class ManifoldBatchNorm<TransportCentring<SpdBuresWasserstein<float>>>;
extern template class ManifoldBatchNorm<TransportCentring<SpdBuresWasserstein<double>>>;

}  // namespace gyre::nn
