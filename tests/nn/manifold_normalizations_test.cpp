// The normalizations SPD and Grassmann networks carry by name (gyre/nn/manifold_normalizations.hpp):
// names round trip, each layer keeps its features' type and normalises a training batch without
// leaving the manifold, and spdnet / grnet put one where the papers do.

#include "gyre/nn/manifold_normalizations.hpp"

#include <string>

#include <doctest/doctest.h>

#include "gyre/core/error.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/nn/manifold_fibers.hpp"
#include "gyre/nn/manifold_models.hpp"
#include "spd/spd_common.hpp"

namespace {

using gyre::nn::GeometricTensor;

xt::xarray<double> spd_batch(std::size_t batch, std::size_t channels, int n, std::uint64_t seed) {
  gyre::Rng rng(seed);
  xt::xarray<double> x = xt::zeros<double>({batch, channels, static_cast<std::size_t>(n), static_cast<std::size_t>(n)});
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t c = 0; c < channels; ++c) {
      const gyre::Matrix<double> p = gyre::spd::random_spd<double>(n, rng);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) x(b, c, i, j) = p(i, j);
    }
  return x;
}

}  // namespace

TEST_CASE("SPD normalizations by name: each keeps spd_features and its output stays SPD") {
  for (const gyre::nn::SpdNormalization kind : gyre::nn::all_spd_normalizations()) {
    const std::string name = gyre::nn::name_of(kind);
    CAPTURE(name);
    CHECK(gyre::nn::spd_normalization(name) == kind);
    auto layer = gyre::nn::spd_batch_norm<double>(kind, 3, 2);
    if (kind == gyre::nn::SpdNormalization::kNone) {
      CHECK(layer == nullptr);
      continue;
    }
    REQUIRE(layer != nullptr);
    CHECK(layer->in_type() == gyre::nn::spd_features(3, 2));
    CHECK(layer->out_type() == gyre::nn::spd_features(3, 2));
    const GeometricTensor<double> out =
        layer->forward(GeometricTensor<double>(layer->in_type(), spd_batch(5, 2, 3, 7)));
    layer->in_type().manifold().space<double>().check_points(out.data);  // throws if any output is not SPD
  }
  CHECK_THROWS_AS((void)gyre::nn::spd_normalization("batchnorm"), gyre::DomainError);
  CHECK_THROWS_AS((void)gyre::nn::grassmann_normalization("liebn_lem"), gyre::DomainError);
  for (const gyre::nn::GrassmannNormalization kind : gyre::nn::all_grassmann_normalizations()) {
    CHECK(gyre::nn::grassmann_normalization(gyre::nn::name_of(kind)) == kind);
    const auto layer = gyre::nn::grassmann_batch_norm<double>(kind, 5, 2, 2);
    CHECK((layer == nullptr) == (kind == gyre::nn::GrassmannNormalization::kNone));
    if (layer) CHECK(layer->in_type() == gyre::nn::grassmann_features(5, 2, 2));
  }
}

TEST_CASE("spdnet and grnet put a normalization after every BiMap and after ReOrth") {
  const auto plain = gyre::nn::spdnet<double>({7, 6, 4}, 3, 10, 1e-4, 1);
  const auto normed = gyre::nn::spdnet<double>({7, 6, 4}, 3, 10, 1e-4, 1, gyre::nn::SpdNormalization::kLieLem);
  CHECK(normed->size() == plain->size() + 2);
  CHECK(normed->describe().find("LieBatchNorm") != std::string::npos);
  const auto gr = gyre::nn::grnet<double>(10, 6, 2, 4, 2, 10, 1, gyre::nn::GrassmannNormalization::kGyroBn);
  CHECK(gr->size() == gyre::nn::grnet<double>(10, 6, 2, 4, 2, 10, 1)->size() + 1);
  CHECK(gr->describe().find("GyroBatchNorm") != std::string::npos);
}
