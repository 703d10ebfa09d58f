// The Riemannian batch norms of issue 14 item 7, forward + backward in training mode on one batch
// (float32): LieBN under LEM and AIM on 64 SPD(16) matrices, GyroBN on 64 points of Gr(16, 4), one
// channel each. Every layer runs twice: "Reference" is the reference code's computation (one
// Karcher step, no gradient through the batch statistics: detach_statistics, kReference, K = 1);
// "Default" is Gyre's default (converged Karcher mean, gradient through the mean and variance).
// tests/bench/compare_torch_batch_norm.py times the same layers written in PyTorch the way the
// LieBN and GyroBN reference code writes them (torch.linalg.eigh, torch.linalg.matrix_exp).

#include <cmath>

#include <Eigen/QR>
#include <benchmark/benchmark.h>

#include "gyre/core/rng.hpp"
#include "gyre/nn/lie_batch_norm.hpp"
#include "gyre/nn/manifold_batch_norm.hpp"
#include "gyre/nn/manifold_fibers.hpp"

namespace {

using gyre::nn::GeometricTensor;
constexpr std::size_t kBatch = 64;
constexpr int kSpdSize = 16;
constexpr int kGrassmannN = 16;
constexpr int kGrassmannP = 4;

// A·Aᵀ/16 + I with A 16×16 standard normal: eigenvalues in [1, ~6], so a condition below ~10.
GeometricTensor<float> spd_batch() {
  gyre::Rng rng(3);
  const auto n = static_cast<std::size_t>(kSpdSize);
  xt::xarray<float> x = xt::zeros<float>({kBatch, std::size_t{1}, n, n});
  for (std::size_t b = 0; b < kBatch; ++b) {
    const Eigen::MatrixXd a = rng.normal_matrix<double>(kSpdSize, kSpdSize);
    const Eigen::MatrixXd c = a * a.transpose() / 16.0 + Eigen::MatrixXd::Identity(kSpdSize, kSpdSize);
    for (int i = 0; i < kSpdSize; ++i) {
      for (int j = 0; j < kSpdSize; ++j) x(b, 0, i, j) = static_cast<float>(c(i, j));
    }
  }
  return GeometricTensor<float>(gyre::nn::spd_features(kSpdSize, 1), std::move(x));
}

Eigen::MatrixXd orthogonal(gyre::Rng& rng, int n) {
  return Eigen::HouseholderQR<Eigen::MatrixXd>(rng.normal_matrix<double>(n, n)).householderQ();
}

// (Q·cos Θ + Q⊥·S·sin Θ)·R: principal angles Θ ∈ [0.05, 0.75] (< π/4) from a common random base Q,
// S orthonormal columns of the complement's coordinates, R a random rotation of the representative.
GeometricTensor<float> grassmann_batch() {
  gyre::Rng rng(4);
  const int n = kGrassmannN;
  const int p = kGrassmannP;
  const Eigen::MatrixXd o = orthogonal(rng, n);
  const Eigen::MatrixXd base = o.leftCols(p);
  const Eigen::MatrixXd complement = o.rightCols(n - p);
  xt::xarray<float> x = xt::zeros<float>({kBatch, std::size_t{1}, std::size_t{kGrassmannN}, std::size_t{kGrassmannP}});
  for (std::size_t b = 0; b < kBatch; ++b) {
    const Eigen::MatrixXd s = orthogonal(rng, n - p).leftCols(p);
    Eigen::VectorXd cosines(p), sines(p);
    for (int k = 0; k < p; ++k) {
      const double theta = rng.uniform<double>(0.05, 0.75);
      cosines(k) = std::cos(theta);
      sines(k) = std::sin(theta);
    }
    const Eigen::MatrixXd point =
        (base * cosines.asDiagonal() + complement * s * sines.asDiagonal()) * orthogonal(rng, p);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < p; ++j) x(b, 0, i, j) = static_cast<float>(point(i, j));
    }
  }
  return GeometricTensor<float>(gyre::nn::grassmann_features(n, p, 1), std::move(x));
}

// The reference code's statistics: one Karcher step, no gradient through the mean and variance.
gyre::nn::BatchNormOptions reference_options() {
  gyre::nn::BatchNormOptions options;
  options.detach_statistics = true;
  options.mean_mode = gyre::LieMeanMode::kReference;
  options.karcher_steps = 1;
  return options;
}

template <class Layer>
void forward_backward(benchmark::State& state, Layer& layer, const GeometricTensor<float>& x) {
  gyre::Rng rng(5);
  xt::xarray<float> upstream = xt::xarray<float>::from_shape(x.data.shape());
  for (float& v : upstream) v = rng.normal<float>();
  const GeometricTensor<float> grad(layer.out_type(), upstream);
  for (auto _ : state) {
    layer.zero_grad();
    benchmark::DoNotOptimize(layer.forward(x).data.data());
    benchmark::DoNotOptimize(layer.backward(grad).data.data());
  }
}

template <class Structure>
void lie_batch_norm(benchmark::State& state, Structure structure, const gyre::nn::BatchNormOptions& options) {
  gyre::nn::LieBatchNorm<Structure> layer(structure, gyre::nn::spd_features(kSpdSize, 1), options);
  forward_backward(state, layer, spd_batch());
  state.counters["karcher_iterations"] = layer.mean_iterations().front();
}

void gyro_batch_norm(benchmark::State& state, const gyre::nn::BatchNormOptions& options) {
  gyre::nn::GyroBatchNorm<gyre::Grassmann<float>> layer(gyre::Grassmann<float>(kGrassmannN, kGrassmannP),
                                                        gyre::nn::grassmann_features(kGrassmannN, kGrassmannP, 1),
                                                        options);
  forward_backward(state, layer, grassmann_batch());
}

void BM_LieBnLemReference(benchmark::State& state) {
  lie_batch_norm(state, gyre::SpdLogEuclideanNormalization<float>(kSpdSize), reference_options());
}

void BM_LieBnLemDefault(benchmark::State& state) {
  lie_batch_norm(state, gyre::SpdLogEuclideanNormalization<float>(kSpdSize), {});
}

void BM_LieBnAimReference(benchmark::State& state) {
  lie_batch_norm(state, gyre::SpdAffineInvariantNormalization<float>(kSpdSize), reference_options());
}

void BM_LieBnAimDefault(benchmark::State& state) {
  lie_batch_norm(state, gyre::SpdAffineInvariantNormalization<float>(kSpdSize), {});
}

void BM_GyroBnGrassmannReference(benchmark::State& state) { gyro_batch_norm(state, reference_options()); }

void BM_GyroBnGrassmannDefault(benchmark::State& state) { gyro_batch_norm(state, {}); }

}  // namespace

BENCHMARK(BM_LieBnLemReference)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_LieBnLemDefault)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_LieBnAimReference)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_LieBnAimDefault)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_GyroBnGrassmannReference)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_GyroBnGrassmannDefault)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_MAIN();
