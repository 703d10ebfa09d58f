// SGD and Adam against torch.optim's update formulas, step by step, and Adam on a quadratic.

#include <cmath>

#include <doctest/doctest.h>
#include <xtensor/xadapt.hpp>

#include "gyre/optim/adam.hpp"
#include "gyre/optim/sgd.hpp"
#include "support/test_support.hpp"

namespace {

gyre::optim::Parameter<double> parameter(std::initializer_list<double> values) {
  xt::xarray<double> v = xt::adapt(std::vector<double>(values), {values.size()});
  return {"p", v, xt::zeros_like(v)};
}

// A named parameter of any scalar type with a zero gradient.
template <class T>
struct TestParameter {
  TestParameter(std::initializer_list<T> values) {
    p.value = xt::adapt(std::vector<T>(values), {values.size()});
    p.grad = xt::zeros_like(p.value);
    p.name = "p";
  }
  gyre::optim::Parameter<T> p;
};

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
    CHECK(p.value(0) == doctest::Approx(theta).epsilon(1e-15));  // the same few operations on O(1) numbers: ≤ 2 ulps
  }
}

TEST_CASE("Adam: first steps follow torch.optim.Adam, and it minimises a quadratic") {
  auto p = parameter({3.0});
  gyre::optim::Adam<double> adam({&p}, 0.1);
  p.grad = xt::xarray<double>{6.0};
  adam.step();
  // Step 1: m̂ = g, v̂ = g², so θ moves by lr·g/(|g| + ε) ≈ lr.
  CHECK(p.value(0) ==
        doctest::Approx(3.0 - 0.1 * 6.0 / (6.0 + 1e-8)).epsilon(1e-15));  // √(g²) = |g| exactly; 3 roundings
  for (int i = 0; i < 500; ++i) {
    p.grad = xt::xarray<double>{2 * (p.value(0) - 0.5)};
    adam.step();
  }
  // Converged to the minimiser 0.5: Adam's steps shrink with m̂/√v̂ as the gradient dies out; after
  // 500 steps the gap measures 7.5e-12, so 1e-8 shows convergence while a stalled run stays O(1) away.
  CHECK(std::abs(p.value(0) - 0.5) <= 1e-8);
  CHECK_THROWS_AS(gyre::optim::Adam<double>({&p}, -1.0), gyre::DomainError);
}

TEST_CASE_TEMPLATE("Sgd: plain and heavy-ball steps follow torch.optim.SGD", T, float, double) {
  const double tolerance = gyre::test::tol<T>(1e-15, 1e-6f);  // relative; a few roundings of O(1) numbers
  TestParameter<T> p({T(1), T(-2)});
  gyre::optim::Sgd<T> plain({&p.p}, T(0.1), T(0), T(0.01));
  p.p.grad = xt::xarray<T>{T(0.5), T(-0.25)};
  plain.step();
  // θ ← θ − η·(∇ + λθ)
  CHECK(std::abs(static_cast<double>(p.p.value(0)) - (1 - 0.1 * (0.5 + 0.01))) <= tolerance);
  CHECK(std::abs(static_cast<double>(p.p.value(1)) - (-2 - 0.1 * (-0.25 - 0.02))) <= tolerance * 2);

  TestParameter<T> q({T(1)});
  gyre::optim::Sgd<T> heavy({&q.p}, T(0.1), T(0.9));
  double theta = 1;
  double buffer = 0;
  for (int step = 0; step < 3; ++step) {
    q.p.grad = xt::xarray<T>{T(2) * q.p.value(0)};  // ∇ of θ²
    const double g = static_cast<double>(q.p.grad(0));
    heavy.step();
    buffer = step == 0 ? g : 0.9 * buffer + g;  // b = g on the first step (no dampening)
    theta -= 0.1 * buffer;
    CHECK(std::abs(static_cast<double>(q.p.value(0)) - theta) <= tolerance * std::max(1.0, std::abs(theta)));
  }
  heavy.zero_grad();
  CHECK(q.p.grad.shape() == q.p.value.shape());
  CHECK(q.p.grad(0) == T(0));
}

TEST_CASE_TEMPLATE("Adam: two steps with weight decay follow torch.optim.Adam", T, float, double) {
  const double tolerance = gyre::test::tol<T>(1e-14, 1e-6f);  // relative; a handful of roundings
  TestParameter<T> p({T(0.5)});
  gyre::optim::Adam<T> adam({&p.p}, T(0.01), T(0.8), T(0.99), T(1e-8), T(0.1));
  double theta = 0.5;
  double m = 0;
  double v = 0;
  for (int t = 1; t <= 2; ++t) {
    const double grad = t == 1 ? 3.0 : -1.0;
    p.p.grad = xt::xarray<T>{static_cast<T>(grad)};
    const double g = grad + 0.1 * static_cast<double>(p.p.value(0));
    adam.step();
    m = 0.8 * m + 0.2 * g;
    v = 0.99 * v + 0.01 * g * g;
    const double m_hat = m / (1 - std::pow(0.8, t));
    const double v_hat = v / (1 - std::pow(0.99, t));
    theta -= 0.01 * m_hat / (std::sqrt(v_hat) + 1e-8);
    CHECK(std::abs(static_cast<double>(p.p.value(0)) - theta) <= tolerance * std::abs(theta));
  }
  CHECK(adam.steps() == 2);
}

TEST_CASE("optimizers: invalid settings are DomainErrors and a mis-shaped gradient is a ShapeError") {
  TestParameter<double> p({1.0, 2.0});
  CHECK_THROWS_WITH_AS(gyre::optim::Sgd<double>({&p.p}, 0.0), "gyre::Sgd: learning rate must be > 0 (0)",
                       gyre::DomainError);
  CHECK_THROWS_WITH_AS(gyre::optim::Sgd<double>({&p.p}, 0.1, 0.0, 0.0, true),
                       "gyre::Sgd: Nesterov momentum needs momentum > 0 (0)", gyre::DomainError);
  CHECK_THROWS_WITH_AS(gyre::optim::Adam<double>({&p.p}, 0.1, 1.0), "gyre::Adam: beta1 must be in [0, 1) (1)",
                       gyre::DomainError);
  CHECK_THROWS_WITH_AS(gyre::optim::Adam<double>({&p.p}, 0.1, 0.9, 0.999, 1e-8, -1.0),
                       "gyre::Adam: weight decay must be >= 0 (-1)", gyre::DomainError);
  gyre::optim::Adam<double> adam({&p.p}, 0.1);
  CHECK_THROWS_WITH_AS(adam.set_lr(-0.5), "gyre::Adam::set_lr: learning rate must be > 0 (-0.5)", gyre::DomainError);
  p.p.grad = xt::xarray<double>{1.0};
  CHECK_THROWS_WITH_AS(adam.step(), "gyre::Adam::step: gradient shape must equal the value's shape (2 entries) (p)",
                       gyre::ShapeError);
  CHECK(adam.steps() == 0);  // a rejected step changes nothing
  CHECK(p.p.value(0) == 1.0);
  gyre::optim::Sgd<double> sgd({&p.p}, 0.1);
  CHECK_THROWS_AS(sgd.step(), gyre::ShapeError);
  adam.zero_grad();
  CHECK(p.p.grad.shape() == p.p.value.shape());
}
