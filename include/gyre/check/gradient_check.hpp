#pragma once
// The gradient checker, for users and tests: a module's backward pass against central finite
// differences. With a fixed random upstream gradient G the scalar L(x, θ) = ⟨G, f(x)⟩ has
// ∂L/∂x = backward(G) and ∂L/∂θ = the parameters' accumulated gradients; each is compared with
// (L(· + h) − L(· − h)) / 2h entry by entry. Run in double; piecewise-linear layers (ReLU, max
// pooling) need inputs away from their kinks, which random inputs are with probability 1.
// Error budget in double: truncation ≈ h²·|L'''|/6 and rounding ≈ ε·|L|/h, so with h = 1e-6 and
// O(1) derivatives a correct backward shows errors near 1e-9 to 1e-10 and a wrong one near 1e-1.
// The module is left in training mode; every parameter's grad holds the analytic gradient.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gyre/core/error.hpp"
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
    // A NaN error is the result, never skipped (std::max would drop it).
    for (const GradientError& e : errors) {
      if (std::isnan(e.relative_error)) return e.relative_error;
      worst = std::max(worst, e.relative_error);
    }
    return worst;
  }
  /// The error of one quantity ("input" or a parameter name); NaN if it was not compared.
  [[nodiscard]] double error_of(const std::string& quantity) const {
    for (const GradientError& e : errors) {
      if (e.quantity == quantity) return e.relative_error;
    }
    return std::numeric_limits<double>::quiet_NaN();
  }
};

/// Compares module.backward with central differences of step h at x (training mode); the upstream
/// gradient G has independent N(0, 1) entries drawn from Rng(seed).
inline GradientReport check_gradients(nn::Module<double>& module, const nn::GeometricTensor<double>& input,
                                      double step = 1e-6, std::uint64_t seed = 1) {
  nn::GeometricTensor<double> x = input;  // perturbed entry by entry below
  module.train(true);
  const nn::TensorType out_type = [&] {
    const nn::NoGrad no_grad;
    return module.forward(x).type;
  }();
  Rng rng(seed);
  xt::xarray<double> upstream;
  {
    const nn::NoGrad no_grad;
    upstream = xt::xarray<double>::from_shape(module.forward(x).data.shape());
  }
  for (double& v : upstream) v = rng.normal<double>();
  // The differenced forwards are never differentiated: they save nothing.
  const auto loss = [&]() {
    const nn::NoGrad no_grad;
    const nn::GeometricTensor<double> out = module.forward(x);
    double s = 0;
    for (std::size_t i = 0; i < upstream.size(); ++i) s += upstream.data()[i] * out.data.data()[i];
    return s;
  };
  module.zero_grad();
  static_cast<void>(module.forward(x));
  const nn::GeometricTensor<double> grad_x = module.backward(nn::GeometricTensor<double>(out_type, upstream));
  std::vector<xt::xarray<double>> analytic;
  for (nn::Parameter<double>* p : module.parameters()) {
    if (p->grad.shape() != p->value.shape()) {
      throw ShapeError("check_gradients", "a parameter's grad must have its value's shape", p->name);
    }
    analytic.push_back(p->grad);
  }
  if (grad_x.data.shape() != x.data.shape()) {
    throw ShapeError("check_gradients", "backward must return the input's shape", grad_x.data.size());
  }

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
    for (std::size_t i = 0; i < n; ++i) {
      const double gap = std::abs(expected[i] - numeric[i]);
      // A NaN or ∞ in backward's output (or in the loss) is the error itself, never skipped.
      if (!std::isfinite(gap)) return GradientError{name, std::numeric_limits<double>::quiet_NaN()};
      worst = std::max(worst, gap);
    }
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
