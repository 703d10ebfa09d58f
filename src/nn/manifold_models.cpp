#include "gyre/nn/manifold_models.hpp"

#include <string>
#include <utility>

#include "gyre/core/error.hpp"
#include "gyre/nn/bimap.hpp"
#include "gyre/nn/eigenvalue_maps.hpp"
#include "gyre/nn/grassmann_layers.hpp"
#include "gyre/nn/linear.hpp"
#include "gyre/nn/manifold_fibers.hpp"

namespace gyre::nn {

template <class T>
std::unique_ptr<Sequential<T>> spdnet(const std::vector<int>& sizes, int channels, int classes, double epsilon,
                                      std::uint64_t seed, SpdNormalization norm) {
  if (sizes.size() < 2) throw ShapeError("spdnet", "needs an input size and at least one BiMap size", sizes.size());
  auto net = std::make_unique<Sequential<T>>();
  for (std::size_t k = 1; k < sizes.size(); ++k) {
    if (sizes[k] > sizes[k - 1]) {
      throw ShapeError("spdnet", "BiMap sizes must not grow (" + std::to_string(sizes[k - 1]) + " → …)", sizes[k]);
    }
    net->add(std::make_unique<BiMap<T>>(sizes[k - 1], sizes[k], k == 1 ? 1 : channels, channels, seed + k));
    if (auto bn = spd_batch_norm<T>(norm, sizes[k], channels)) net->add(std::move(bn));
    net->add(std::make_unique<ReEig<T>>(sizes[k], channels, epsilon));
  }
  const int n = sizes.back();
  net->add(std::make_unique<LogEig<T>>(n, channels));
  net->add(std::make_unique<Flatten<T>>(matrix_features(n, n, channels)));
  net->add(std::make_unique<Linear<T>>(channels * n * n, classes, true, seed));
  return net;
}

template <class T>
std::unique_ptr<Sequential<T>> grnet(int n, int m, int p, int filters, int pool, int classes, std::uint64_t seed,
                                     GrassmannNormalization norm) {
  auto net = std::make_unique<Sequential<T>>();
  net->add(std::make_unique<FRMap<T>>(n, m, p, 1, filters, seed + 1));
  net->add(std::make_unique<ReOrth<T>>(m, p, filters));
  if (auto bn = grassmann_batch_norm<T>(norm, m, p, filters)) net->add(std::move(bn));
  net->add(std::make_unique<ProjMap<T>>(m, p, filters));
  net->add(std::make_unique<ProjPooling<T>>(m, filters, pool));
  net->add(std::make_unique<Flatten<T>>(matrix_features(m, m, filters / pool)));
  net->add(std::make_unique<Linear<T>>(filters / pool * m * m, classes, true, seed));
  return net;
}

template std::unique_ptr<Sequential<float>> spdnet(const std::vector<int>&, int, int, double, std::uint64_t,
                                                   SpdNormalization);
template std::unique_ptr<Sequential<double>> spdnet(const std::vector<int>&, int, int, double, std::uint64_t,
                                                    SpdNormalization);
template std::unique_ptr<Sequential<float>> grnet(int, int, int, int, int, int, std::uint64_t, GrassmannNormalization);
template std::unique_ptr<Sequential<double>> grnet(int, int, int, int, int, int, std::uint64_t, GrassmannNormalization);

}  // namespace gyre::nn
