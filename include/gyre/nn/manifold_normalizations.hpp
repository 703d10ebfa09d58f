#pragma once
// The batch normalizations an SPD or Grassmann network can carry, by name: what `gyre demo spd`
// and `gyre demo grassmann` compare and what nn::spdnet / nn::grnet insert after each BiMap (before
// ReEig) or after ReOrth, where the papers' networks put them (Brooks et al. 2019; Chen et al.,
// LieBN, ICLR 2024 and GyroBN, ICLR 2025; Wang et al., GBW-RBN, CVPR 2025).
//
//   SPD        none | spdnet_bn (AIM, centre and bias only) | liebn_lem | liebn_lcm | liebn_aim (θ = 1)
//              | liebn_aim_deformed (AIM with θ = 0.5) | gyrobn (AIM) | gbw_rbn (learnt M, θ = 1)
//   Grassmann  none | gyrobn | rbn
// Every layer takes the shared options (BatchNormOptions: converged mean, ε = 1e-5, momentum 0.1).

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <memory>
#include <string>
#include <vector>

#include "gyre/nn/batch_norm_options.hpp"
#include "gyre/nn/module.hpp"

namespace gyre::nn {

/// The batch normalizations of SPD features (see the header comment).
enum class SpdNormalization { kNone, kSpdNetBn, kLieLem, kLieLcm, kLieAim, kLieAimDeformed, kGyroAim, kGbwRbn };
/// The batch normalizations of Grassmann features.
enum class GrassmannNormalization { kNone, kGyroBn, kRbn };

/// Every SPD normalization, in the order the demo reports them.
[[nodiscard]] const std::vector<SpdNormalization>& all_spd_normalizations();
/// Every Grassmann normalization.
[[nodiscard]] const std::vector<GrassmannNormalization>& all_grassmann_normalizations();
[[nodiscard]] std::string name_of(SpdNormalization kind);
[[nodiscard]] std::string name_of(GrassmannNormalization kind);
/// The normalization called `name` (DomainError listing the names otherwise).
[[nodiscard]] SpdNormalization spd_normalization(const std::string& name);
[[nodiscard]] GrassmannNormalization grassmann_normalization(const std::string& name);

/// The layer on spd_features(n, channels), or null for kNone.
template <class T>
[[nodiscard]] std::unique_ptr<Module<T>> spd_batch_norm(SpdNormalization kind, int n, int channels,
                                                        const BatchNormOptions& options = {});
/// The layer on grassmann_features(n, p, channels), or null for kNone.
template <class T>
[[nodiscard]] std::unique_ptr<Module<T>> grassmann_batch_norm(GrassmannNormalization kind, int n, int p, int channels,
                                                              const BatchNormOptions& options = {});

extern template std::unique_ptr<Module<float>> spd_batch_norm(SpdNormalization, int, int, const BatchNormOptions&);
extern template std::unique_ptr<Module<double>> spd_batch_norm(SpdNormalization, int, int, const BatchNormOptions&);
extern template std::unique_ptr<Module<float>> grassmann_batch_norm(GrassmannNormalization, int, int, int,
                                                                    const BatchNormOptions&);
extern template std::unique_ptr<Module<double>> grassmann_batch_norm(GrassmannNormalization, int, int, int,
                                                                     const BatchNormOptions&);

}  // namespace gyre::nn
