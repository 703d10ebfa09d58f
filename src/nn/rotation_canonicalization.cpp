#include "gyre/nn/rotation_canonicalization.hpp"

#include <cmath>
#include <complex>
#include <string>

#include <boost/math/constants/constants.hpp>
#include <xtensor/xbuilder.hpp>
#include <xtensor/xview.hpp>

#include "gyre/core/error.hpp"
#include "gyre/nn/transform.hpp"

namespace gyre::nn {
namespace {

constexpr double kTwoPi = 2 * boost::math::constants::pi<double>();

// E(θ) = −Σ_k a_k·Re(Z_k e^{−ikθ}) and its first two derivatives.
struct Energy {
  std::vector<double> weights;
  std::vector<std::complex<double>> moments;  // Z_k, k = 1…K

  void evaluate(double theta, double& e, double& de, double& dde) const {
    e = de = dde = 0;
    for (std::size_t i = 0; i < weights.size(); ++i) {
      const double k = static_cast<double>(i + 1);
      const std::complex<double> z = moments[i] * std::polar(1.0, -k * theta);
      e -= weights[i] * z.real();
      de -= weights[i] * k * z.imag();  // d/dθ Re(Z e^{−ikθ}) = k·Im(Z e^{−ikθ})
      dde += weights[i] * k * k * z.real();
    }
  }
  [[nodiscard]] double gradient_scale() const {
    double s = 0;
    for (std::size_t i = 0; i < weights.size(); ++i)
      s += static_cast<double>(i + 1) * std::abs(weights[i] * moments[i]);
    return s;
  }
};

double wrap(double theta) {
  theta = std::fmod(theta, kTwoPi);
  return theta < 0 ? theta + kTwoPi : theta;
}

// One descent from `theta` in SO(2)'s exponential chart: Newton where E'' > 0, else a gradient step
// halved until E decreases.
CanonicalRotation descend(const Energy& energy, double theta, double scale, const CanonicalizationOptions& options) {
  CanonicalRotation r;
  double e, de, dde;
  energy.evaluate(theta, e, de, dde);
  while (r.iterations < options.max_iterations && std::abs(de) > options.tolerance * scale) {
    double step = dde > 0 ? -de / dde : -de / scale;
    double e_new, de_new, dde_new;
    energy.evaluate(theta + step, e_new, de_new, dde_new);
    for (int halvings = 0; halvings < 60 && e_new > e + 1e-15 * scale; ++halvings) {
      step /= 2;
      energy.evaluate(theta + step, e_new, de_new, dde_new);
    }
    theta += step;
    e = e_new;
    de = de_new;
    dde = dde_new;
    ++r.iterations;
  }
  r.angle = wrap(theta);
  r.energy = e;
  r.gradient = scale > 0 ? std::abs(de) / scale : 0;
  return r;
}

double template_sigma(const RotationTemplate& shape, std::size_t h, std::size_t w) {
  return shape.sigma > 0 ? shape.sigma : static_cast<double>(std::min(h, w)) / 4;
}

// Per pixel and harmonic k = 1…K: w(|p|)·e^{ikφ_p}, with (x, y) as nn::transform places pixel centres.
std::vector<std::complex<double>> template_basis(std::size_t h, std::size_t w, double sigma, std::size_t harmonics) {
  std::vector<std::complex<double>> basis(h * w * harmonics);
  for (std::size_t row = 0; row < h; ++row) {
    for (std::size_t col = 0; col < w; ++col) {
      const double px = static_cast<double>(col) - (static_cast<double>(w) - 1) / 2;
      const double py = (static_cast<double>(h) - 1) / 2 - static_cast<double>(row);
      const double radial = std::exp(-(px * px + py * py) / (2 * sigma * sigma));
      const double phi = std::atan2(py, px);
      for (std::size_t i = 0; i < harmonics; ++i) {
        basis[(row * w + col) * harmonics + i] =
            px == 0 && py == 0 ? 0.0 : radial * std::polar(1.0, static_cast<double>(i + 1) * phi);
      }
    }
  }
  return basis;
}

}  // namespace

template <class T>
std::vector<CanonicalRotation> canonical_rotations(const GeometricTensor<T>& x, const RotationTemplate& shape,
                                                   const CanonicalizationOptions& options) {
  if (x.type.base() != Base::kGrid) {
    throw ShapeError("canonical_rotations", "needs feature maps on a grid", x.type.describe());
  }
  for (const repr::Representation& rho : x.type.fields("canonical_rotations").fields()) {
    // The energy reads channels as scalars: only trivial fields keep θ*(g·x) = θ*(x) + α.
    if (!rho.is_trivial()) throw DomainError("canonical_rotations", "needs trivial (scalar) fields", rho.name());
  }
  bool any_weight = false;
  for (const double a : shape.weights) {
    if (!std::isfinite(a)) throw DomainError("canonical_rotations", "template weights must be finite", a);
    any_weight = any_weight || a != 0;
  }
  if (!any_weight) throw DomainError("canonical_rotations", "the template needs a non-zero weight", "all zero");
  if (!(shape.sigma >= 0) || !std::isfinite(shape.sigma)) {
    throw DomainError("canonical_rotations", "sigma must be finite and >= 0", shape.sigma);
  }
  const std::size_t batch = x.data.shape()[0], channels = x.data.shape()[1];
  const std::size_t h = x.data.shape()[2], w = x.data.shape()[3];
  const double sigma = template_sigma(shape, h, w);
  const std::size_t harmonics = shape.weights.size();
  const std::vector<std::complex<double>> basis = template_basis(h, w, sigma, harmonics);
  std::vector<CanonicalRotation> result;
  const int starts = 4 * static_cast<int>(harmonics);
  for (std::size_t b = 0; b < batch; ++b) {
    Energy energy{shape.weights, std::vector<std::complex<double>>(harmonics, 0.0)};
    // Scale by the largest |x| so that moments of maps near the largest double stay finite.
    const T* item = x.data.data() + b * channels * h * w;
    double largest = 0;
    for (std::size_t i = 0; i < channels * h * w; ++i) {
      const double v = static_cast<double>(item[i]);
      if (!std::isfinite(v)) throw DomainError("canonical_rotations", "maps must be finite", v);
      largest = std::max(largest, std::abs(v));
    }
    double mass = 0;  // Σ_p |x(p)|·w(|p|)·Σ_k k|a_k|: what |Z_k| terms of rounding size are measured against
    for (std::size_t c = 0; c < channels && largest > 0; ++c) {
      for (std::size_t p = 0; p < h * w; ++p) {
        const double v = static_cast<double>(item[c * h * w + p]) / largest;
        for (std::size_t i = 0; i < harmonics; ++i) {
          energy.moments[i] += v * basis[p * harmonics + i];
          mass += static_cast<double>(i + 1) * std::abs(shape.weights[i] * v * basis[p * harmonics + i]);
        }
      }
    }
    const double scale = energy.gradient_scale();
    // No template harmonic above rounding (a disc, or a k-fold symmetry the harmonics cannot see):
    // E is flat up to rounding and every angle is a minimum.
    if (!(scale > 1e-12 * mass)) {
      CanonicalRotation flat;
      flat.ambiguous = true;
      result.push_back(flat);
      continue;
    }
    std::vector<CanonicalRotation> minima;
    int iterations = 0;
    for (int s = 0; s < starts; ++s) {
      minima.push_back(descend(energy, kTwoPi * s / starts, scale, options));
      iterations += minima.back().iterations;
    }
    // The lowest minimum; a different angle within 1e-9·scale of it makes the choice ambiguous.
    CanonicalRotation best = minima.front();
    for (const CanonicalRotation& m : minima) {
      if (m.energy < best.energy - 1e-9 * scale ||
          (std::abs(m.energy - best.energy) <= 1e-9 * scale && m.angle < best.angle)) {
        best = m;
      }
    }
    for (const CanonicalRotation& m : minima) {
      const double apart = std::abs(std::remainder(m.angle - best.angle, kTwoPi));
      if (std::abs(m.energy - best.energy) <= 1e-9 * scale && apart > 1e-6) best.ambiguous = true;
    }
    best.iterations = iterations;
    result.push_back(best);
  }
  return result;
}

template <class T>
GeometricTensor<T> canonicalize_rotation(const GeometricTensor<T>& x, const std::vector<CanonicalRotation>& rotations) {
  if (rotations.size() != x.data.shape()[0]) {
    throw ShapeError("canonicalize_rotation", "needs one rotation per item", rotations.size());
  }
  GeometricTensor<T> result = x;
  for (std::size_t b = 0; b < rotations.size(); ++b) {
    const GeometricTensor<T> item(x.type, xt::xarray<T>(xt::view(x.data, xt::range(b, b + 1))));
    const GeometricTensor<T> turned = transform(item, repr::PlanarElement{0, -rotations[b].angle});
    xt::view(result.data, xt::range(b, b + 1)) = turned.data;
  }
  return result;
}

template <class T>
xt::xarray<T> canonical_rotation_gradient(const GeometricTensor<T>& x, const std::vector<CanonicalRotation>& rotations,
                                          const RotationTemplate& shape) {
  if (x.type.base() != Base::kGrid || x.data.dimension() != 4) {
    throw ShapeError("canonical_rotation_gradient", "needs feature maps on a grid", x.type.describe());
  }
  if (rotations.size() != x.data.shape()[0]) {
    throw ShapeError("canonical_rotation_gradient", "needs one rotation per item", rotations.size());
  }
  const std::size_t channels = x.data.shape()[1], h = x.data.shape()[2], w = x.data.shape()[3];
  const std::size_t plane = h * w, harmonics = shape.weights.size();
  const std::vector<std::complex<double>> basis = template_basis(h, w, template_sigma(shape, h, w), harmonics);
  xt::xarray<T> gradient = xt::zeros<T>(x.data.shape());
  for (std::size_t b = 0; b < rotations.size(); ++b) {
    if (rotations[b].ambiguous) continue;  // θ* jumps between tied minima: no derivative
    const double theta = rotations[b].angle;
    std::vector<std::complex<double>> turn(harmonics);  // e^{−ikθ*}
    for (std::size_t i = 0; i < harmonics; ++i) turn[i] = std::polar(1.0, -static_cast<double>(i + 1) * theta);
    // E is linear in x: ∂E'/∂x(p) = −Σ_k a_k·k·Im(b_k(p)·e^{−ikθ}), the same for every channel, and
    // E''(θ) = Σ_p x(p)·Σ_k a_k·k²·Re(b_k(p)·e^{−ikθ}).
    std::vector<double> slope(plane, 0.0);
    double curvature = 0;
    const T* item = x.data.data() + b * channels * plane;
    for (std::size_t p = 0; p < plane; ++p) {
      double bend = 0;
      for (std::size_t i = 0; i < harmonics; ++i) {
        const double k = static_cast<double>(i + 1);
        const std::complex<double> z = basis[p * harmonics + i] * turn[i];
        slope[p] -= shape.weights[i] * k * z.imag();
        bend += shape.weights[i] * k * k * z.real();
      }
      for (std::size_t c = 0; c < channels; ++c) curvature += static_cast<double>(item[c * plane + p]) * bend;
    }
    if (!(curvature > 0)) continue;  // not a strict minimum: θ* is not differentiable there
    T* out = gradient.data() + b * channels * plane;
    for (std::size_t c = 0; c < channels; ++c) {
      for (std::size_t p = 0; p < plane; ++p) out[c * plane + p] = static_cast<T>(-slope[p] / curvature);
    }
  }
  return gradient;
}

template std::vector<CanonicalRotation> canonical_rotations(const GeometricTensor<float>&, const RotationTemplate&,
                                                            const CanonicalizationOptions&);
template std::vector<CanonicalRotation> canonical_rotations(const GeometricTensor<double>&, const RotationTemplate&,
                                                            const CanonicalizationOptions&);
template GeometricTensor<float> canonicalize_rotation(const GeometricTensor<float>&,
                                                      const std::vector<CanonicalRotation>&);
template GeometricTensor<double> canonicalize_rotation(const GeometricTensor<double>&,
                                                       const std::vector<CanonicalRotation>&);

template xt::xarray<float> canonical_rotation_gradient(const GeometricTensor<float>&,
                                                       const std::vector<CanonicalRotation>&, const RotationTemplate&);
template xt::xarray<double> canonical_rotation_gradient(const GeometricTensor<double>&,
                                                        const std::vector<CanonicalRotation>&, const RotationTemplate&);

}  // namespace gyre::nn
