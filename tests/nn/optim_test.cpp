// SGD and Adam against torch.optim's update formulas, step by step, and Adam on a quadratic.

#include <cmath>

#include <doctest/doctest.h>

#include <xtensor/xadapt.hpp>

#include "gyre/optim/adam.hpp"
#include "gyre/optim/sgd.hpp"

namespace {

gyre::nn::Parameter<double> parameter(std::initializer_list<double> values) {
  xt::xarray<double> v = xt::adapt(std::vector<double>(values), {values.size()});
  return {"p", v, xt::zeros_like(v)};
}

}  // namespace

TEST_CASE("Sgd: momentum, Nesterov and weight decay follow torch.optim.SGD") {
  auto p = parameter({1.0, -2.0});
  gyre::optim::Sgd<double> sgd({&p}, 0.1, 0.9, 0.01, true);
  // Hand-computed: g = ∇ + 0.01θ; b = g (step 1) then 0.9b + g; step with g + 0.9b.
  double theta = 1.0;
  double buffer = 0;
  for (int step = 0; step < 3; ++step) {
    const double grad = 2 * theta;  // ∇ of θ²
    p.grad = xt::xarray<double>{2 * p.value(0), 2 * p.value(1)};
    sgd.step();
    const double g = grad + 0.01 * theta;
    buffer = step == 0 ? g : 0.9 * buffer + g;
    theta -= 0.1 * (g + 0.9 * buffer);
    CHECK(p.value(0) == doctest::Approx(theta).epsilon(1e-15));
  }
}

TEST_CASE("Adam: first steps follow torch.optim.Adam, and it minimises a quadratic") {
  auto p = parameter({3.0});
  gyre::optim::Adam<double> adam({&p}, 0.1);
  p.grad = xt::xarray<double>{6.0};
  adam.step();
  // Step 1: m̂ = g, v̂ = g², so θ moves by lr·g/(|g| + ε) ≈ lr.
  CHECK(p.value(0) == doctest::Approx(3.0 - 0.1 * 6.0 / (6.0 + 1e-8)).epsilon(1e-15));
  for (int i = 0; i < 500; ++i) {
    p.grad = xt::xarray<double>{2 * (p.value(0) - 0.5)};
    adam.step();
  }
  CHECK(std::abs(p.value(0) - 0.5) <= 1e-3);  // converged to the minimiser 0.5
  CHECK_THROWS_AS(gyre::optim::Adam<double>({&p}, -1.0), gyre::DomainError);
}
