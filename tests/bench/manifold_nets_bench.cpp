// The networks of `gyre demo spd` and `gyre demo grassmann`, forward + backward on one training
// batch (float32): an SPDNet on 256 SPD(7) matrices and a GrNet on 256 points of Gr(28, 4).
// tests/bench/compare_torch_manifold_nets.py times the same networks written in PyTorch
// (torch.linalg.eigh and torch.linalg.qr, as SPDNet's and GrNet's public code do) on the same shapes.

#include <Eigen/QR>
#include <benchmark/benchmark.h>

#include "gyre/core/rng.hpp"
#include "gyre/nn/manifold_fibers.hpp"
#include "gyre/nn/manifold_models.hpp"

namespace {

using gyre::nn::GeometricTensor;
constexpr std::size_t kBatch = 256;

// Covariances of 50 Gaussian samples in ℝ⁷ plus 1e-3·I: SPD with spread spectra, like region covariances.
GeometricTensor<float> spd_batch() {
  gyre::Rng rng(3);
  xt::xarray<float> x = xt::zeros<float>({kBatch, std::size_t{1}, std::size_t{7}, std::size_t{7}});
  for (std::size_t b = 0; b < kBatch; ++b) {
    Eigen::MatrixXd samples(7, 50);
    for (Eigen::Index i = 0; i < samples.size(); ++i) samples.data()[i] = rng.normal<double>();
    const Eigen::MatrixXd c = samples * samples.transpose() / 50.0 + 1e-3 * Eigen::MatrixXd::Identity(7, 7);
    for (int i = 0; i < 7; ++i) {
      for (int j = 0; j < 7; ++j) x(b, 0, i, j) = static_cast<float>(c(i, j));
    }
  }
  return GeometricTensor<float>(gyre::nn::spd_features(7, 1), std::move(x));
}

GeometricTensor<float> grassmann_batch() {
  gyre::Rng rng(4);
  xt::xarray<float> x = xt::zeros<float>({kBatch, std::size_t{1}, std::size_t{28}, std::size_t{4}});
  for (std::size_t b = 0; b < kBatch; ++b) {
    Eigen::MatrixXd g(28, 4);
    for (Eigen::Index i = 0; i < g.size(); ++i) g.data()[i] = rng.normal<double>();
    const Eigen::MatrixXd q =
        Eigen::HouseholderQR<Eigen::MatrixXd>(g).householderQ() * Eigen::MatrixXd::Identity(28, 4);
    for (int i = 0; i < 28; ++i) {
      for (int j = 0; j < 4; ++j) x(b, 0, i, j) = static_cast<float>(q(i, j));
    }
  }
  return GeometricTensor<float>(gyre::nn::grassmann_features(28, 4, 1), std::move(x));
}

void forward_backward(benchmark::State& state, gyre::nn::Sequential<float>& net, const GeometricTensor<float>& x) {
  gyre::Rng rng(5);
  xt::xarray<float> upstream = xt::xarray<float>::from_shape({kBatch, std::size_t{10}});
  for (float& v : upstream) v = rng.normal<float>();
  const GeometricTensor<float> grad(net.out_type(), upstream);
  for (auto _ : state) {
    net.zero_grad();
    benchmark::DoNotOptimize(net.forward(x).data.data());
    benchmark::DoNotOptimize(net.backward(grad).data.data());
  }
}

void BM_SpdNetForwardBackward(benchmark::State& state) {
  auto net = gyre::nn::spdnet<float>({7, 6, 4}, 8, 10, 1e-4, 11);
  forward_backward(state, *net, spd_batch());
}

void BM_GrNetForwardBackward(benchmark::State& state) {
  auto net = gyre::nn::grnet<float>(28, 12, 4, 8, 2, 10, 11);
  forward_backward(state, *net, grassmann_batch());
}

}  // namespace

BENCHMARK(BM_SpdNetForwardBackward)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_GrNetForwardBackward)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_MAIN();
