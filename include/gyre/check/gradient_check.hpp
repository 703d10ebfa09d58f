#pragma once
// The gradient checker, for users and tests: a module's backward pass against central finite
// differences. With a fixed random upstream gradient G the scalar L(x, θ) = ⟨G, f(x)⟩ has
// ∂L/∂x = backward(G) and ∂L/∂θ = the parameters' accumulated gradients; each is compared with
// (L(· + h) − L(· − h)) / 2h entry by entry. Run in double; piecewise-linear layers (ReLU, max
// pooling) need inputs away from their kinks, which random inputs are with probability 1.
// Error budget in double: truncation ≈ h²·|L'''|/6 and rounding ≈ ε·|L|/h, so with h = 1e-6 and
// O(1) derivatives a correct backward shows errors near 1e-9 to 1e-10 and a wrong one near 1e-1.
// The module is left in training mode; every parameter's grad holds the analytic gradient.
//
// Manifold-valued quantities — an input whose type has a manifold fiber (SPD matrices, orthonormal
// bases), a parameter with a space (BiMap's Stiefel weights) — cannot be perturbed entry by entry:
// x + h·eᵢ leaves the manifold (a non-symmetric "SPD" matrix, a non-orthonormal basis), where the
// layer may reject it or the derivative means nothing. They are checked along the manifold instead:
// for random unit tangent directions V = project_x(N(0, 1)), the directional derivative ⟨∂L/∂x, V⟩
// (the Euclidean gradient paired with a tangent vector is the derivative along it) is compared with
// (L(R_x(hV)) − L(R_x(−hV))) / 2h, R the space's retraction; any retraction with R_x(tV) = x + tV +
// O(t²) gives the same derivative, and central differences keep the O(h²) budget above.
// Euclidean inputs that must stay symmetric (ExpEig's) take symmetric directions the same way.

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

/// How check_gradients perturbs its quantities.
struct GradientCheckOptions {
  double step = 1e-6;
  /// Seed of the upstream gradient G and of the random directions.
  std::uint64_t seed = 1;
  /// Random tangent directions per manifold-valued quantity.
  int directions = 12;
  /// Perturb a Euclidean input along random symmetric directions (for layers that need symmetric
  /// matrices, such as ExpEig) instead of entry by entry.
  bool symmetric_input = false;
};

namespace gradient_check_detail {

/// Symmetrises every trailing n×n item of a (…, n, n) array in place.
inline void symmetrise(xt::xarray<double>& a) {
  const std::size_t n = a.shape()[a.dimension() - 1];
  const std::size_t items = a.size() / (n * n);
  for (std::size_t k = 0; k < items; ++k) {
    double* m = a.data() + k * n * n;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = i + 1; j < n; ++j) m[i * n + j] = m[j * n + i] = 0.5 * (m[i * n + j] + m[j * n + i]);
    }
  }
}

/// The worst |analytic − numeric| relative to max(1, max |numeric|); NaN if any is not finite.
inline GradientError relative_gap(const std::string& name, const std::vector<double>& analytic,
                                  const std::vector<double>& numeric) {
  double worst = 0;
  double scale = 1;
  for (double v : numeric) scale = std::max(scale, std::abs(v));
  for (std::size_t i = 0; i < numeric.size(); ++i) {
    const double gap = std::abs(analytic[i] - numeric[i]);
    // A NaN or ∞ in backward's output (or in the loss) is the error itself, never skipped.
    if (!std::isfinite(gap)) return GradientError{name, std::numeric_limits<double>::quiet_NaN()};
    worst = std::max(worst, gap);
  }
  return GradientError{name, worst / scale};
}

/// Entry by entry: numeric ∂L/∂values[i] by central differences.
template <class Loss>
GradientError entrywise(const std::string& name, double* values, std::size_t n, const double* analytic, double step,
                        const Loss& loss) {
  std::vector<double> numeric(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double keep = values[i];
    values[i] = keep + step;
    const double up = loss();
    values[i] = keep - step;
    const double down = loss();
    values[i] = keep;
    numeric[i] = (up - down) / (2 * step);
  }
  return relative_gap(name, std::vector<double>(analytic, analytic + n), numeric);
}

/// Along random unit directions V: ⟨analytic, V⟩ against (L(move(x, hV)) − L(move(x, −hV)))/2h.
/// tangent(x, raw) makes a direction admissible at x, move(x, v) steps along it.
template <class Loss, class Tangent, class Move>
GradientError along_directions(const std::string& name, xt::xarray<double>& values, const xt::xarray<double>& analytic,
                               const GradientCheckOptions& options, Rng& rng, const Loss& loss, const Tangent& tangent,
                               const Move& move) {
  const xt::xarray<double> base = values;
  std::vector<double> predicted;
  std::vector<double> numeric;
  for (int d = 0; d < options.directions; ++d) {
    xt::xarray<double> raw = xt::xarray<double>::from_shape(base.shape());
    for (double& v : raw) v = rng.normal<double>();
    xt::xarray<double> direction = tangent(base, raw);
    double norm = 0;
    for (double v : direction) norm += v * v;
    norm = std::sqrt(norm);
    if (!(norm > 0)) continue;  // the tangent space is {0} (a 0-dimensional manifold)
    direction /= norm;
    double pairing = 0;
    for (std::size_t i = 0; i < direction.size(); ++i) pairing += analytic.data()[i] * direction.data()[i];
    values = move(base, direction * options.step);
    const double up = loss();
    values = move(base, direction * -options.step);
    const double down = loss();
    values = base;
    predicted.push_back(pairing);
    numeric.push_back((up - down) / (2 * options.step));
  }
  return relative_gap(name, predicted, numeric);
}

}  // namespace gradient_check_detail

/// Compares module.backward with central differences at x (training mode): entry by entry for
/// Euclidean quantities, along the manifold for manifold-valued ones (see the header comment). The
/// upstream gradient G has independent N(0, 1) entries drawn from Rng(options.seed).
inline GradientReport check_gradients(nn::Module<double>& module, const nn::GeometricTensor<double>& input,
                                      const GradientCheckOptions& options) {
  namespace detail = gradient_check_detail;
  nn::GeometricTensor<double> x = input;  // perturbed below
  module.train(true);
  const nn::TensorType out_type = [&] {
    const nn::NoGrad no_grad;
    return module.forward(x).type;
  }();
  Rng rng(options.seed);
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

  const auto along_space = [&](const std::string& name, xt::xarray<double>& values, const xt::xarray<double>& grad,
                               const BatchSpace<double>& space) {
    return detail::along_directions(
        name, values, grad, options, rng, loss,
        [&](const xt::xarray<double>& at, const xt::xarray<double>& raw) { return space.project(at, raw); },
        [&](const xt::xarray<double>& at, const xt::xarray<double>& v) { return space.retract(at, v); });
  };
  GradientReport report;
  if (input.type.has_manifold()) {
    report.errors.push_back(along_space("input", x.data, grad_x.data, input.type.manifold().space<double>()));
  } else if (options.symmetric_input) {
    report.errors.push_back(detail::along_directions(
        "input", x.data, grad_x.data, options, rng, loss,
        [](const xt::xarray<double>&, xt::xarray<double> raw) {
          detail::symmetrise(raw);
          return raw;
        },
        [](const xt::xarray<double>& at, const xt::xarray<double>& v) { return xt::xarray<double>(at + v); }));
  } else {
    report.errors.push_back(
        detail::entrywise("input", x.data.data(), x.data.size(), grad_x.data.data(), options.step, loss));
  }
  std::size_t i = 0;
  for (nn::Parameter<double>* p : module.parameters()) {
    const xt::xarray<double>& grad = analytic[i++];
    if (p->space) {
      report.errors.push_back(along_space(p->name, p->value, grad, *p->space));
    } else {
      report.errors.push_back(
          detail::entrywise(p->name, p->value.data(), p->value.size(), grad.data(), options.step, loss));
    }
  }
  return report;
}

/// The same with a step h and seed, other options at their defaults.
inline GradientReport check_gradients(nn::Module<double>& module, const nn::GeometricTensor<double>& input,
                                      double step = 1e-6, std::uint64_t seed = 1) {
  GradientCheckOptions options;
  options.step = step;
  options.seed = seed;
  return check_gradients(module, input, options);
}

}  // namespace gyre::check
