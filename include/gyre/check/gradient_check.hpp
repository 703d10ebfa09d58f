#pragma once
// The gradient checker, for users and tests: a module's backward pass against central finite
// differences. With a fixed random upstream gradient G the scalar L(x, θ) = ⟨G, f(x)⟩ has
// ∂L/∂x = backward(G) and ∂L/∂θ = the parameters' accumulated gradients; each is compared with
// (L(· + h) − L(· − h)) / 2h entry by entry. Run in double; piecewise-linear layers (ReLU, max
// pooling) need inputs away from their kinks, which random inputs are with probability 1.

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gyre/core/rng.hpp"
#include "gyre/nn/module.hpp"

namespace gyre::check {

/// The worst relative error of one gradient: max |analytic − numeric| / max(1, max |numeric|).
struct GradientError {
  std::string quantity;  // "input", or the parameter's name
  double relative_error = 0;
};

/// Every compared gradient.
struct GradientReport {
  std::vector<GradientError> errors;
  [[nodiscard]] double max_error() const {
    double worst = 0;
    for (const GradientError& e : errors) worst = std::max(worst, e.relative_error);
    return worst;
  }
};

/// Compares module.backward with central differences of step h at x (training mode).
inline GradientReport check_gradients(nn::Module<double>& module, nn::GeometricTensor<double> x, double step = 1e-6,
                                      std::uint64_t seed = 1) {
  module.train(true);
  const nn::GeometricTensor<double> y = module.forward(x);
  Rng rng(seed);
  xt::xtensor<double, 4> upstream = xt::xtensor<double, 4>::from_shape(y.data.shape());
  for (double& v : upstream) v = rng.normal<double>();
  const auto loss = [&]() {
    const nn::GeometricTensor<double> out = module.forward(x);
    double s = 0;
    for (std::size_t i = 0; i < upstream.size(); ++i) s += upstream.data()[i] * out.data.data()[i];
    return s;
  };
  module.zero_grad();
  static_cast<void>(module.forward(x));
  const nn::GeometricTensor<double> grad_x = module.backward(nn::GeometricTensor<double>(y.type, upstream));
  std::vector<xt::xarray<double>> analytic;
  for (nn::Parameter<double>* p : module.parameters()) analytic.push_back(p->grad);

  const auto compare = [&](const std::string& name, double* values, std::size_t n, const double* expected) {
    double worst = 0;
    double scale = 1;
    std::vector<double> numeric(n);
    for (std::size_t i = 0; i < n; ++i) {
      const double keep = values[i];
      values[i] = keep + step;
      const double up = loss();
      values[i] = keep - step;
      const double down = loss();
      values[i] = keep;
      numeric[i] = (up - down) / (2 * step);
      scale = std::max(scale, std::abs(numeric[i]));
    }
    for (std::size_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(expected[i] - numeric[i]));
    return GradientError{name, worst / scale};
  };
  GradientReport report;
  report.errors.push_back(compare("input", x.data.data(), x.data.size(), grad_x.data.data()));
  std::size_t i = 0;
  for (nn::Parameter<double>* p : module.parameters()) {
    report.errors.push_back(compare(p->name, p->value.data(), p->value.size(), analytic[i++].data()));
  }
  return report;
}

}  // namespace gyre::check
