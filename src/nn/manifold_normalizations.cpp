#include "gyre/nn/manifold_normalizations.hpp"

#include <utility>

#include "gyre/core/error.hpp"
#include "gyre/nn/gbw_batch_norm.hpp"
#include "gyre/nn/lie_batch_norm.hpp"
#include "gyre/nn/manifold_batch_norm.hpp"
#include "gyre/nn/manifold_fibers.hpp"

namespace gyre::nn {

namespace {

// The power deformation of the demo's deformed AIM variant (the LieBN paper's experiments use
// θ ∈ {0.5, 1, 1.5}; 0.5 compresses the spectrum, which tames the ReEig-rectified features).
constexpr double kDeformedAimTheta = 0.5;

template <class Kind>
std::string names_of(const std::vector<Kind>& kinds) {
  std::string names;
  for (const Kind k : kinds) names += (names.empty() ? "" : ", ") + name_of(k);
  return names;
}

}  // namespace

const std::vector<SpdNormalization>& all_spd_normalizations() {
  static const std::vector<SpdNormalization> kinds = {SpdNormalization::kNone,    SpdNormalization::kSpdNetBn,
                                                      SpdNormalization::kLieLem,  SpdNormalization::kLieLcm,
                                                      SpdNormalization::kLieAim,  SpdNormalization::kLieAimDeformed,
                                                      SpdNormalization::kGyroAim, SpdNormalization::kGbwRbn};
  return kinds;
}

const std::vector<GrassmannNormalization>& all_grassmann_normalizations() {
  static const std::vector<GrassmannNormalization> kinds = {
      GrassmannNormalization::kNone, GrassmannNormalization::kGyroBn, GrassmannNormalization::kRbn};
  return kinds;
}

std::string name_of(SpdNormalization kind) {
  switch (kind) {
    case SpdNormalization::kNone:
      return "none";
    case SpdNormalization::kSpdNetBn:
      return "spdnet_bn";
    case SpdNormalization::kLieLem:
      return "liebn_lem";
    case SpdNormalization::kLieLcm:
      return "liebn_lcm";
    case SpdNormalization::kLieAim:
      return "liebn_aim";
    case SpdNormalization::kLieAimDeformed:
      return "liebn_aim_deformed";
    case SpdNormalization::kGyroAim:
      return "gyrobn";
    case SpdNormalization::kGbwRbn:
      return "gbw_rbn";
  }
  return "?";
}

std::string name_of(GrassmannNormalization kind) {
  switch (kind) {
    case GrassmannNormalization::kNone:
      return "none";
    case GrassmannNormalization::kGyroBn:
      return "gyrobn";
    case GrassmannNormalization::kRbn:
      return "rbn";
  }
  return "?";
}

SpdNormalization spd_normalization(const std::string& name) {
  for (const SpdNormalization k : all_spd_normalizations())
    if (name_of(k) == name) return k;
  throw DomainError("spd_normalization", "unknown normalization (" + names_of(all_spd_normalizations()) + ")", name);
}

GrassmannNormalization grassmann_normalization(const std::string& name) {
  for (const GrassmannNormalization k : all_grassmann_normalizations())
    if (name_of(k) == name) return k;
  throw DomainError("grassmann_normalization",
                    "unknown normalization (" + names_of(all_grassmann_normalizations()) + ")", name);
}

template <class T>
std::unique_ptr<Module<T>> spd_batch_norm(SpdNormalization kind, int n, int channels, const BatchNormOptions& options) {
  const TensorType type = spd_features(n, channels);
  switch (kind) {
    case SpdNormalization::kNone:
      return nullptr;
    case SpdNormalization::kSpdNetBn: {
      BatchNormOptions centre_only = options;
      centre_only.normalize_variance = false;
      return std::make_unique<GyroBatchNorm<SpdAffineInvariant<T>>>(SpdAffineInvariant<T>(n), type, centre_only);
    }
    case SpdNormalization::kLieLem:
      return std::make_unique<LieBatchNorm<SpdLogEuclideanNormalization<T>>>(SpdLogEuclideanNormalization<T>(n), type,
                                                                             options);
    case SpdNormalization::kLieLcm:
      return std::make_unique<LieBatchNorm<SpdLogCholeskyNormalization<T>>>(SpdLogCholeskyNormalization<T>(n), type,
                                                                            options);
    case SpdNormalization::kLieAim:
      return std::make_unique<LieBatchNorm<SpdAffineInvariantNormalization<T>>>(SpdAffineInvariantNormalization<T>(n),
                                                                                type, options);
    case SpdNormalization::kLieAimDeformed:
      return std::make_unique<LieBatchNorm<SpdAffineInvariantNormalization<T>>>(
          SpdAffineInvariantNormalization<T>(n, static_cast<T>(kDeformedAimTheta)), type, options);
    case SpdNormalization::kGyroAim:
      return std::make_unique<GyroBatchNorm<SpdAffineInvariant<T>>>(SpdAffineInvariant<T>(n), type, options);
    case SpdNormalization::kGbwRbn: {
      GbwBatchNormOptions gbw;
      gbw.batch_norm = options;
      return std::make_unique<GbwBatchNorm<T>>(type, gbw);
    }
  }
  throw DomainError("spd_batch_norm", "unknown normalization", static_cast<int>(kind));
}

template <class T>
std::unique_ptr<Module<T>> grassmann_batch_norm(GrassmannNormalization kind, int n, int p, int channels,
                                                const BatchNormOptions& options) {
  const TensorType type = grassmann_features(n, p, channels);
  const Grassmann<T> space(n, p);
  switch (kind) {
    case GrassmannNormalization::kNone:
      return nullptr;
    case GrassmannNormalization::kGyroBn:
      return std::make_unique<GyroBatchNorm<Grassmann<T>>>(space, type, options);
    case GrassmannNormalization::kRbn:
      return std::make_unique<RiemannianBatchNorm<Grassmann<T>>>(
          TransportCentring<Grassmann<T>>(space, space.gyro_identity()), type, options);
  }
  throw DomainError("grassmann_batch_norm", "unknown normalization", static_cast<int>(kind));
}

template std::unique_ptr<Module<float>> spd_batch_norm(SpdNormalization, int, int, const BatchNormOptions&);
template std::unique_ptr<Module<double>> spd_batch_norm(SpdNormalization, int, int, const BatchNormOptions&);
template std::unique_ptr<Module<float>> grassmann_batch_norm(GrassmannNormalization, int, int, int,
                                                             const BatchNormOptions&);
template std::unique_ptr<Module<double>> grassmann_batch_norm(GrassmannNormalization, int, int, int,
                                                              const BatchNormOptions&);

}  // namespace gyre::nn
