// fit_regressor and regression_error: the MSE loop recovers a linear map, the reported error is
// torch's MSELoss computed by hand, and bad sizes or targets are clear errors.

#include "gyre/nn/fit.hpp"

#include <cmath>
#include <limits>

#include <doctest/doctest.h>

#include "gyre/core/error.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/nn/linear.hpp"

namespace {

// y = A·x for a fixed random A (4 × 6), on N standard normal inputs.
void linear_problem(std::size_t n, std::uint64_t seed, xt::xarray<float>& x, xt::xarray<float>& y) {
  gyre::Rng rng(seed);
  xt::xarray<float> a = xt::xarray<float>::from_shape({4, 6});
  for (float& v : a) v = rng.normal<float>();
  x = xt::xarray<float>::from_shape({n, std::size_t{6}});
  for (float& v : x) v = rng.normal<float>();
  y = xt::zeros<float>({n, std::size_t{4}});
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t o = 0; o < 4; ++o)
      for (std::size_t k = 0; k < 6; ++k) y(i, o) += a(o, k) * x(i, k);
}

}  // namespace

TEST_CASE("fit_regressor: Adam on the mean squared error recovers a linear map") {
  xt::xarray<float> x, y;
  linear_problem(512, 3, x, y);
  gyre::nn::Linear<float> net(6, 4, true, 5);
  const double before = gyre::nn::regression_error(net, x, y);
  gyre::nn::FitOptions options;
  options.epochs = 60;
  options.batch_size = 32;
  options.learning_rate = 1e-2f;
  int calls = 0;
  int epochs_seen = 0;
  const auto epochs = gyre::nn::fit_regressor(
      net, x, y, options, [&](std::size_t, std::size_t, double) { ++calls; },
      [&](int e) { CHECK(e == epochs_seen++); });
  CHECK(epochs.size() == 60);
  CHECK(epochs_seen == 60);
  CHECK(calls == 60 * 16);
  const double after = gyre::nn::regression_error(net, x, y);
  CAPTURE(before);
  CAPTURE(after);
  // A convex problem the model can represent exactly: the error falls by 4 orders of magnitude.
  CHECK(after <= 1e-4 * before);
  CHECK(std::abs(epochs.back().mse - after) <= 10 * after + 1e-6);  // the last epoch's running error
}

TEST_CASE("regression_error: torch's MSELoss, the mean over samples and entries, by hand") {
  gyre::nn::Linear<float> net(6, 4, true, 7);
  xt::xarray<float> x, y;
  linear_problem(10, 9, x, y);
  double sum = 0;
  {
    const gyre::nn::NoGrad no_grad;
    const auto out = net.forward(gyre::nn::GeometricTensor<float>(net.in_type(), x)).data;
    for (std::size_t i = 0; i < y.size(); ++i) {
      const double r = static_cast<double>(out.data()[i]) - y.data()[i];
      sum += r * r;
    }
  }
  // Batches of 3 against one batch of 10: float outputs may round differently (1e-6 relative).
  CHECK(gyre::nn::regression_error(net, x, y, 3) == doctest::Approx(sum / 40).epsilon(1e-6));
}

TEST_CASE("fit_regressor: wrong shapes, empty and non-finite data are clear errors") {
  gyre::nn::Linear<float> net(6, 4, true, 1);
  xt::xarray<float> x, y;
  linear_problem(8, 1, x, y);
  const gyre::nn::FitOptions options;
  const xt::xarray<float> short_targets = xt::zeros<float>({7, 4});
  CHECK_THROWS_AS(gyre::nn::fit_regressor(net, x, short_targets, options), gyre::ShapeError);
  const xt::xarray<float> wide_targets = xt::zeros<float>({8, 5});
  CHECK_THROWS_WITH_AS(gyre::nn::fit_regressor(net, x, wide_targets, options),
                       doctest::Contains("the network's output must have the targets' shape"), gyre::ShapeError);
  const xt::xarray<float> no_x = xt::zeros<float>({0, 6}), no_y = xt::zeros<float>({0, 4});
  CHECK_THROWS_AS(gyre::nn::fit_regressor(net, no_x, no_y, options), gyre::ShapeError);
  xt::xarray<float> bad = y;
  bad(2, 1) = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH_AS(gyre::nn::fit_regressor(net, x, bad, options), doctest::Contains("targets must be finite"),
                       gyre::DomainError);
  gyre::nn::FitOptions zero_batch;
  zero_batch.batch_size = 0;
  CHECK_THROWS_AS(gyre::nn::fit_regressor(net, x, y, zero_batch), gyre::DomainError);
  // Targets of 1e30: the squared error overflows float; Adam's steps are scale-free, so the
  // parameters stay finite, and the loop does not fail silently either way.
  const xt::xarray<float> huge = y * 1e30f;
  CHECK_NOTHROW(gyre::nn::fit_regressor(net, x, huge, options));
}

TEST_CASE("Linear: an empty batch gives empty outputs and gradients and leaves the parameters' gradients alone") {
  gyre::nn::Linear<double> net(6, 4, true, 3);
  net.zero_grad();
  const xt::xarray<double> none = xt::zeros<double>({std::size_t{0}, std::size_t{6}});
  const auto y = net.forward(gyre::nn::GeometricTensor<double>(net.in_type(), none));
  CHECK(y.data.shape() == std::vector<std::size_t>{0, 4});
  const auto g = net.backward(gyre::nn::GeometricTensor<double>(net.out_type(), y.data));
  CHECK(g.data.shape() == std::vector<std::size_t>{0, 6});
  for (const auto* p : net.parameters()) {
    for (const double v : p->grad) CHECK(v == 0.0);
  }
}
