#pragma once
// Ready-made manifold-valued networks, the ones `gyre demo spd|grassmann` trains and the
// benchmarks time against PyTorch:
//
//   spdnet   BiMap(n₀→n₁, 1→C)–[BN]–ReEig–BiMap(n₁→n₂, C→C)–[BN]–ReEig–…–LogEig–Flatten–Linear(C·n_last²→K)
//            (SPDNet, Huang & Van Gool 2017, with Brooks et al.'s channels)
//   grnet    FRMap(n→m, K filters)–ReOrth–[BN]–ProjMap–ProjPooling(k)–Flatten–Linear(K/k·m²→classes)
//            (GrNet, Huang, Wu & Van Gool 2018, one block)
// with an optional batch normalization [BN] (nn/manifold_normalizations.hpp) where the papers put it.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <cstdint>
#include <memory>
#include <vector>

#include "gyre/nn/manifold_normalizations.hpp"
#include "gyre/nn/sequential.hpp"

namespace gyre::nn {

/// An SPDNet on SPD(sizes[0])[1] inputs with one BiMap–ReEig block per further size (sizes
/// decreasing), `channels` channels after the first BiMap, ReEig at ε, `classes` logits and the
/// normalization `norm` after every BiMap. Throws ShapeError for fewer than two sizes or a size
/// that grows.
template <class T>
[[nodiscard]] std::unique_ptr<Sequential<T>> spdnet(const std::vector<int>& sizes, int channels, int classes,
                                                    double epsilon = 1e-4, std::uint64_t seed = 0,
                                                    SpdNormalization norm = SpdNormalization::kNone);

/// A GrNet on Gr(n, p)[1] inputs: FRMap to m×p with `filters` filters, ReOrth, ProjMap,
/// ProjPooling over `pool` channels, `classes` logits and the normalization `norm` after ReOrth.
template <class T>
[[nodiscard]] std::unique_ptr<Sequential<T>> grnet(int n, int m, int p, int filters, int pool, int classes,
                                                   std::uint64_t seed = 0,
                                                   GrassmannNormalization norm = GrassmannNormalization::kNone);

extern template std::unique_ptr<Sequential<float>> spdnet(const std::vector<int>&, int, int, double, std::uint64_t,
                                                          SpdNormalization);
extern template std::unique_ptr<Sequential<double>> spdnet(const std::vector<int>&, int, int, double, std::uint64_t,
                                                           SpdNormalization);
extern template std::unique_ptr<Sequential<float>> grnet(int, int, int, int, int, int, std::uint64_t,
                                                         GrassmannNormalization);
extern template std::unique_ptr<Sequential<double>> grnet(int, int, int, int, int, int, std::uint64_t,
                                                          GrassmannNormalization);

}  // namespace gyre::nn
