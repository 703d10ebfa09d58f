// R2Conv on the target case: C8, 16 regular fields in and out (128 channels), kernel 5,
// padding 2, input 8×128×64×64 float32. Evaluation forward (filter expanded once), training
// forward + backward (filter expanded every step), and building the basis without the cache.
// tests/bench/compare_torch.py runs this beside PyTorch's conv2d and prints the ratios.

#include <benchmark/benchmark.h>

#include "gyre/core/rng.hpp"
#include "gyre/nn/r2conv.hpp"
#include "gyre/repr/representation.hpp"

namespace {

using gyre::nn::FieldType;
using gyre::nn::GeometricTensor;

FieldType target_type() {
  const auto group = gyre::repr::PlanarGroup::cyclic(8);
  return FieldType(group, gyre::repr::regular_representation(group), 16);
}

GeometricTensor<float> target_input() {
  gyre::Rng rng(1);
  xt::xtensor<float, 4> x = xt::xtensor<float, 4>::from_shape({8, 128, 64, 64});
  for (float& v : x) v = rng.normal<float>();
  return GeometricTensor<float>(target_type(), std::move(x));
}

gyre::nn::R2ConvOptions target_options() {
  gyre::nn::R2ConvOptions options;
  options.padding = 2;
  return options;
}

void BM_R2ConvForwardEval(benchmark::State& state) {
  gyre::nn::R2Conv<float> conv(target_type(), target_type(), 5, target_options());
  conv.eval();
  const auto x = target_input();
  for (auto _ : state) benchmark::DoNotOptimize(conv.forward(x).data.data());
}

void BM_R2ConvForwardBackwardTrain(benchmark::State& state) {
  gyre::nn::R2Conv<float> conv(target_type(), target_type(), 5, target_options());
  const auto x = target_input();
  for (auto _ : state) {
    auto y = conv.forward(x);
    benchmark::DoNotOptimize(conv.backward(y).data.data());
  }
}

void BM_R2ConvBasisConstruction(benchmark::State& state) {
  const FieldType type = target_type();
  const auto params = gyre::nn::default_basis_params(5);
  for (auto _ : state) {
    // Uncached on purpose: the representation-pair basis and the field assembly, built afresh.
    gyre::nn::KernelBasis pair(type.fields()[0], type.fields()[0], 5, params);
    gyre::nn::FieldKernelBasis field(type, type, 5, params);
    benchmark::DoNotOptimize(field.dim() + pair.dim());
  }
}

}  // namespace

BENCHMARK(BM_R2ConvForwardEval)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_R2ConvForwardBackwardTrain)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_R2ConvBasisConstruction)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
