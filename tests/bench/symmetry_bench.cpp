// The cost of the symmetry wrappers against the layer or backbone they wrap (issue 15, item 8):
//   GroupDownsample D_N → D_N/2 on 8 regular fields, 8 × 16N × 32 × 32 float, N = 8, 32, 64: the
//     anti-aliased map as a GEMM (engine 0) or through the batched FFT (engine 1), naive sampling
//     (engine 2), and beside them one R2Conv (k = 3) on the D8 maps, the layer such a downsample follows;
//   FrameAveraging over E(3) on clouds of 5 points with positions and velocities (the n-body shape),
//     batch 256: the averaged network (8 backbone passes per cloud plus the PCA frames) against one
//     backbone forward, for a Flatten + Linear + Linear backbone;
//   RotationCanonicalized on 64 Fashion-MNIST-sized (29 × 29) images of smooth blobs: θ* (12 Newton
//     starts) and the resampling against one forward of the plain CNN it wraps (gyre demo symmetry's).

#include <cmath>
#include <memory>

#include <benchmark/benchmark.h>

#include "gyre/core/rng.hpp"
#include "gyre/nn/frame_averaging.hpp"
#include "gyre/nn/group_downsample.hpp"
#include "gyre/nn/linear.hpp"
#include "gyre/nn/models.hpp"
#include "gyre/nn/r2conv.hpp"
#include "gyre/nn/rotation_canonicalized.hpp"
#include "gyre/nn/sequential.hpp"
#include "gyre/repr/representation.hpp"

namespace {

using gyre::nn::FieldType;
using gyre::nn::GeometricTensor;

FieldType dihedral_fields(int n) {
  const auto group = gyre::repr::PlanarGroup::dihedral(n);
  return FieldType(group, gyre::repr::regular_representation(group), 8);
}
FieldType d8_fields() { return dihedral_fields(8); }

GeometricTensor<float> dihedral_maps(int n) {
  gyre::Rng rng(1);
  xt::xtensor<float, 4> x = xt::xtensor<float, 4>::from_shape({8, std::size_t(16 * n), 32, 32});
  for (float& v : x) v = rng.normal<float>();
  return GeometricTensor<float>(dihedral_fields(n), std::move(x));
}
GeometricTensor<float> d8_maps() { return dihedral_maps(8); }

// Arguments: N of D_N, and the engine (0 = dense GEMM, 1 = Fourier, 2 = naive sampling).
void BM_GroupDownsample(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0)), engine = static_cast<int>(state.range(1));
  gyre::nn::GroupDownsample<float> layer(
      dihedral_fields(n), 2, gyre::repr::SubgroupFamily::kSameFamily, engine != 2,
      engine == 1 ? gyre::nn::DownsampleEngine::kFourier : gyre::nn::DownsampleEngine::kDense);
  const auto x = dihedral_maps(n);
  const gyre::nn::NoGrad no_grad;
  for (auto _ : state) benchmark::DoNotOptimize(layer.forward(x).data.data());
}

void BM_R2ConvSameMaps(benchmark::State& state) {
  gyre::nn::R2ConvOptions options;
  options.padding = 1;
  gyre::nn::R2Conv<float> conv(d8_fields(), d8_fields(), 3, options);
  conv.eval();
  const auto x = d8_maps();
  const gyre::nn::NoGrad no_grad;
  for (auto _ : state) benchmark::DoNotOptimize(conv.forward(x).data.data());
}

std::shared_ptr<gyre::nn::Sequential<double>> cloud_backbone() {
  auto net = std::make_shared<gyre::nn::Sequential<double>>();
  const gyre::nn::TensorType cloud = gyre::nn::point_cloud_type(2, 5, 3);
  net->emplace<gyre::nn::Flatten<double>>(cloud);
  net->emplace<gyre::nn::Linear<double>>(30, 64, true, 1);
  net->emplace<gyre::nn::Linear<double>>(64, 4, true, 2);
  return net;
}

GeometricTensor<double> clouds() {
  gyre::Rng rng(2);
  xt::xarray<double> x = xt::zeros<double>({256, 2, 5, 3});
  for (double& v : x) v = rng.normal<double>();
  return GeometricTensor<double>(gyre::nn::point_cloud_type(2, 5, 3), std::move(x));
}

void BM_BackboneOnce(benchmark::State& state) {
  auto net = cloud_backbone();
  const auto x = clouds();
  const gyre::nn::NoGrad no_grad;
  for (auto _ : state) benchmark::DoNotOptimize(net->forward(x).data.data());
}

void BM_FrameAveragedE3(benchmark::State& state) {
  gyre::nn::FrameAveraging<double> net(cloud_backbone(), gyre::nn::FrameGroup::kE, gyre::nn::FrameOutput::kInvariant);
  const auto x = clouds();
  const gyre::nn::NoGrad no_grad;
  for (auto _ : state) benchmark::DoNotOptimize(net.forward(x).data.data());
}

}  // namespace

// 64 images of four Gaussian blobs each, off the centre (what θ* sees in a garment, smoothly).
xt::xarray<float> blob_images() {
  gyre::Rng rng(9);
  xt::xarray<float> images = xt::zeros<float>({std::size_t{64}, std::size_t{1}, std::size_t{29}, std::size_t{29}});
  for (std::size_t b = 0; b < 64; ++b) {
    for (int blob = 0; blob < 4; ++blob) {
      const double cx = rng.uniform(-8.0, 8.0), cy = rng.uniform(-8.0, 8.0);
      for (std::size_t r = 0; r < 29; ++r) {
        for (std::size_t c = 0; c < 29; ++c) {
          const double dx = static_cast<double>(c) - 14 - cx, dy = 14 - static_cast<double>(r) - cy;
          images(b, 0, r, c) += static_cast<float>(std::exp(-(dx * dx + dy * dy) / 12));
        }
      }
    }
  }
  return images;
}

void BM_CanonicalizeRotation(benchmark::State& state) {
  std::shared_ptr<gyre::nn::Sequential<float>> backbone = gyre::nn::plain_cnn(11, 14);
  gyre::nn::RotationCanonicalized<float> wrapped(backbone);
  const GeometricTensor<float> x(wrapped.in_type(), blob_images());
  for (auto _ : state) {
    const auto rotations = gyre::nn::canonical_rotations(x);
    benchmark::DoNotOptimize(gyre::nn::canonicalize_rotation(x, rotations));
  }
}

void BM_PlainCnnForward(benchmark::State& state) {
  auto net = gyre::nn::plain_cnn(11, 14);
  net->eval();
  const gyre::nn::NoGrad inference;
  const GeometricTensor<float> x(net->in_type(), blob_images());
  for (auto _ : state) benchmark::DoNotOptimize(net->forward(x));
}

BENCHMARK(BM_GroupDownsample)
    ->ArgsProduct({{8, 32, 64}, {0, 1, 2}})
    ->ArgNames({"N", "engine"})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_R2ConvSameMaps)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BackboneOnce)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FrameAveragedE3)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CanonicalizeRotation)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PlainCnnForward)->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
