// Training utilities and the ready-made models: exact quarter-turn rotation of images, invariance
// of the steerable classifier, and a short training run that learns.

#include "gyre/nn/training.hpp"

#include <cmath>

#include <doctest/doctest.h>

#include "gyre/core/rng.hpp"
#include "gyre/nn/models.hpp"

namespace {

xt::xtensor<float, 4> random_images(std::size_t n, std::size_t size, std::uint64_t seed) {
  gyre::Rng rng(seed);
  xt::xtensor<float, 4> x = xt::xtensor<float, 4>::from_shape({n, 1, size, size});
  for (float& v : x) v = rng.uniform<float>(0.0f, 1.0f);
  return x;
}

constexpr double kQuarter = 1.5707963267948966;

}  // namespace

TEST_CASE("training: pad_to_odd keeps the image at the top left and zero-fills") {
  const auto x = random_images(2, 4, 1);
  const auto padded = gyre::nn::pad_to_odd(x);
  REQUIRE(padded.shape(2) == 5);
  CHECK(padded(1, 0, 3, 3) == x(1, 0, 3, 3));
  CHECK(padded(1, 0, 4, 2) == 0.0f);
  CHECK(padded(0, 0, 2, 4) == 0.0f);
}

TEST_CASE("training: a quarter turn of an image is numpy's rot90") {
  const auto x = random_images(1, 5, 2);
  const auto turned = gyre::nn::rotate_images(x, {kQuarter});
  for (std::size_t i = 0; i < 5; ++i)
    for (std::size_t j = 0; j < 5; ++j)
      CHECK(turned(0, 0, i, j) == x(0, 0, j, 4 - i));  // rot90: out[i][j] = in[j][n−1−i]
}

TEST_CASE("models: the C8-steerable classifier is invariant to quarter turns, the plain one is not") {
  auto steerable = gyre::nn::steerable_cnn(gyre::repr::PlanarGroup::cyclic(8), 2, 3);
  auto plain = gyre::nn::plain_cnn(4, 5);
  steerable->eval();
  plain->eval();
  const auto x = random_images(3, 29, 3);
  const auto logits = [](gyre::nn::Module<float>& net, const xt::xtensor<float, 4>& images) {
    return gyre::nn::flatten_logits(net.forward(gyre::nn::GeometricTensor<float>(net.in_type(), images)));
  };
  const auto relative_change = [&](gyre::nn::Module<float>& net, double angle) {
    const auto a = logits(net, x);
    const auto b = logits(net, gyre::nn::rotate_images(x, std::vector<double>(3, angle)));
    double diff = 0;
    double norm = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      diff += (a.data()[i] - b.data()[i]) * (a.data()[i] - b.data()[i]);
      norm += a.data()[i] * a.data()[i];
    }
    return std::sqrt(diff / norm);
  };
  for (int q = 1; q < 4; ++q) {
    CAPTURE(q);
    CHECK(relative_change(*steerable, q * kQuarter) <= 1e-5);  // float rounding through 4 conv layers
    CHECK(relative_change(*plain, q * kQuarter) > 1e-3);       // free filters see the rotation
  }
}

TEST_CASE("models: the D8 → D4 downsampling classifier is invariant to quarter turns, anti-aliased or naive") {
  const auto x = random_images(2, 29, 5);
  for (const bool anti_aliasing : {true, false}) {
    CAPTURE(anti_aliasing);
    auto net = gyre::nn::downsampling_cnn(gyre::repr::PlanarGroup::dihedral(8), 2, anti_aliasing, 1, 2);
    net->eval();
    CHECK(net->describe().find(anti_aliasing ? "anti-aliased" : "naive") != std::string::npos);
    CHECK(net->out_type().fields().group() == gyre::repr::PlanarGroup::dihedral(4));
    const gyre::nn::NoGrad no_grad;
    const auto a = gyre::nn::flatten_logits(net->forward(gyre::nn::GeometricTensor<float>(net->in_type(), x)));
    for (int q = 1; q < 4; ++q) {
      CAPTURE(q);
      const auto b = gyre::nn::flatten_logits(net->forward(gyre::nn::GeometricTensor<float>(
          net->in_type(), gyre::nn::rotate_images(x, std::vector<double>(2, q * kQuarter)))));
      double diff = 0, norm = 0;
      for (std::size_t i = 0; i < a.size(); ++i) {
        diff += (a.data()[i] - b.data()[i]) * (a.data()[i] - b.data()[i]);
        norm += a.data()[i] * a.data()[i];
      }
      CHECK(std::sqrt(diff / norm) <= 1e-5);  // float rounding through 4 conv layers and the downsampling
    }
  }
}

TEST_CASE("training: a few epochs on a small fixed set lower the loss") {
  gyre::Rng rng(4);
  // Two classes that differ by where the light is: a bright disc or a bright ring.
  xt::xtensor<float, 4> images = xt::zeros<float>({64, 1, 15, 15});
  std::vector<int> labels;
  for (std::size_t n = 0; n < 64; ++n) {
    const int label = static_cast<int>(n % 2);
    labels.push_back(label);
    for (std::size_t r = 0; r < 15; ++r)
      for (std::size_t c = 0; c < 15; ++c) {
        const double d = std::hypot(static_cast<double>(r) - 7, static_cast<double>(c) - 7);
        const bool lit = label == 0 ? d < 3 : (d > 4 && d < 6);
        images(n, 0, r, c) = (lit ? 1.0f : 0.0f) + 0.1f * rng.normal<float>();
      }
  }
  auto net = gyre::nn::steerable_cnn(gyre::repr::PlanarGroup::cyclic(4), 2, 2, 2);
  gyre::nn::TrainOptions options;
  options.epochs = 4;
  options.batch_size = 16;
  options.learning_rate = 1e-2f;
  const auto history = gyre::nn::train_classifier(*net, images, labels, options);
  REQUIRE(history.size() == 4);
  CHECK(history.back().loss < history.front().loss);
  CHECK(gyre::nn::rotated_accuracy(*net, images, labels, 0.3) >= 0.9);  // the shapes are rotation invariant
}
