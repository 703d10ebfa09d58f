// conv2d's two engines agree: float conv2d / conv2d_backward (oneDNN when the build has it) against
// the im2col + Eigen reference run in double, on shapes that take oneDNN's blocked kernels
// (channels a multiple of 8) and on odd ones, for every stride, padding and dilation used.

#include <algorithm>
#include <cmath>

#include <doctest/doctest.h>

#include "gyre/core/rng.hpp"
#include "gyre/nn/conv2d.hpp"

namespace {

using gyre::nn::Conv2dGeometry;

template <class T>
xt::xtensor<T, 4> random_array(std::array<std::size_t, 4> shape, gyre::Rng& rng) {
  xt::xtensor<T, 4> a = xt::xtensor<T, 4>::from_shape(shape);
  for (T& v : a) v = rng.normal<T>();
  return a;
}

xt::xtensor<float, 4> to_float(const xt::xtensor<double, 4>& a) { return xt::cast<float>(a); }

// max |float − double| / max |double|: float rounding of sums of a few hundred N(0,1) products is
// ~1e-6 of the largest output, so 1e-5 passes a correct engine and fails any indexing mistake.
double relative_gap(const float* got, const double* expected, std::size_t n) {
  double gap = 0;
  double scale = 0;
  for (std::size_t i = 0; i < n; ++i) {
    gap = std::max(gap, std::abs(static_cast<double>(got[i]) - expected[i]));
    scale = std::max(scale, std::abs(expected[i]));
  }
  return gap / scale;
}

struct Case {
  std::array<std::size_t, 4> input;
  std::size_t out_channels;
  std::size_t kernel;
  Conv2dGeometry geometry;
};

const Case kCases[] = {
    {{2, 16, 20, 20}, 16, 5, {1, 2, 1}},  // R2Conv's C8 shape in small: blocked kernels
    {{3, 8, 13, 11}, 24, 3, {2, 1, 1}},   // stride 2
    {{1, 16, 12, 12}, 8, 3, {1, 2, 2}},   // dilation
    {{2, 3, 9, 10}, 5, 3, {1, 0, 1}},     // odd channel counts
    {{4, 1, 7, 7}, 2, 5, {3, 3, 2}},      // one channel, everything at once
};

}  // namespace

TEST_CASE("conv2d: float engine equals the double reference forward, with and without bias") {
  gyre::Rng rng(31);
  for (const Case& c : kCases) {
    CAPTURE(c.input[1]);
    CAPTURE(c.out_channels);
    CAPTURE(c.geometry.stride);
    CAPTURE(c.geometry.dilation);
    const auto in = random_array<double>(c.input, rng);
    const auto f = random_array<double>({c.out_channels, c.input[1], c.kernel, c.kernel}, rng);
    std::vector<double> bias(c.out_channels);
    for (double& b : bias) b = rng.normal<double>();
    for (const bool with_bias : {true, false}) {
      const std::vector<double> b = with_bias ? bias : std::vector<double>{};
      const auto expected = gyre::nn::conv2d_reference(in, f, b, c.geometry);
      const auto got = gyre::nn::conv2d(to_float(in), to_float(f), std::vector<float>(b.begin(), b.end()), c.geometry);
      REQUIRE(got.shape() == expected.shape());
      CHECK(relative_gap(got.data(), expected.data(), got.size()) <= 1e-5);
    }
  }
}

TEST_CASE("conv2d: float engine equals the double reference backward for input, filter and bias") {
  gyre::Rng rng(32);
  for (const Case& c : kCases) {
    CAPTURE(c.input[1]);
    CAPTURE(c.out_channels);
    CAPTURE(c.geometry.stride);
    const auto in = random_array<double>(c.input, rng);
    const auto f = random_array<double>({c.out_channels, c.input[1], c.kernel, c.kernel}, rng);
    const auto out = gyre::nn::conv2d_reference(in, f, {}, c.geometry);
    const auto upstream = random_array<double>({out.shape(0), out.shape(1), out.shape(2), out.shape(3)}, rng);
    const auto expected = gyre::nn::conv2d_backward_reference(in, f, upstream, c.geometry);
    for (const bool need_input : {true, false}) {
      const auto got = gyre::nn::conv2d_backward(to_float(in), to_float(f), to_float(upstream), c.geometry, need_input);
      REQUIRE(got.filter.shape() == expected.filter.shape());
      CHECK(relative_gap(got.filter.data(), expected.filter.data(), got.filter.size()) <= 1e-5);
      REQUIRE(got.bias.size() == expected.bias.size());
      CHECK(relative_gap(got.bias.data(), expected.bias.data(), got.bias.size()) <= 1e-5);
      if (need_input) {
        REQUIRE(got.input.shape() == expected.input.shape());
        CHECK(relative_gap(got.input.data(), expected.input.data(), got.input.size()) <= 1e-5);
      }
    }
  }
}

TEST_CASE("conv2d: float and double reference agree with each other (the reference is not oneDNN)") {
  gyre::Rng rng(33);
  const Case& c = kCases[0];
  const auto in = random_array<double>(c.input, rng);
  const auto f = random_array<double>({c.out_channels, c.input[1], c.kernel, c.kernel}, rng);
  const auto expected = gyre::nn::conv2d_reference(in, f, {}, c.geometry);
  const auto got = gyre::nn::conv2d_reference(to_float(in), to_float(f), {}, c.geometry);
  CHECK(relative_gap(got.data(), expected.data(), got.size()) <= 1e-5);
}
