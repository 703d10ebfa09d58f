#include "gyre/nn/transform.hpp"

#include <cmath>
#include <string>
#include <vector>

#include <boost/math/constants/constants.hpp>
#include <xtensor/xbuilder.hpp>

#include "grid_sampling.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/parallel.hpp"

namespace gyre::nn {
namespace {

constexpr double kHalfPi = boost::math::constants::half_pi<double>();

// Quarter turns of a grid symmetry, in [0, 4).
int quarter_turns(const repr::PlanarElement& g) {
  const long q = std::lround(g.angle / kHalfPi);
  return static_cast<int>(((q % 4) + 4) % 4);
}

// Throws unless x is a grid tensor whose group holds g (square maps for odd quarter turns);
// returns whether g permutes the pixels exactly.
template <class T>
bool check_transform(const GeometricTensor<T>& x, const repr::PlanarElement& g, const char* function) {
  if (x.type.base() != Base::kGrid) throw ShapeError(function, "needs feature maps on a grid", x.type.describe());
  const FieldType& fields = x.type.fields(function);
  if (!fields.group().contains(g)) {
    throw DomainError(function, "element is not in " + fields.group().name() + " (angle in rad)", g.angle);
  }
  const bool exact = is_grid_symmetry(g);
  const std::size_t h = x.data.shape(2);
  const std::size_t w = x.data.shape(3);
  if (exact && quarter_turns(g) % 2 == 1 && h != w) {
    throw ShapeError(function, "a quarter turn needs square feature maps", std::to_string(h) + "x" + std::to_string(w));
  }
  return exact;
}

}  // namespace

bool is_grid_symmetry(const repr::PlanarElement& g) {
  const double q = g.angle / kHalfPi;
  return std::isfinite(q) && std::abs(q - std::round(q)) * kHalfPi <= 1e-9;
}

template <class T>
GeometricTensor<T> transform(const GeometricTensor<T>& x, const repr::PlanarElement& g) {
  const bool exact = check_transform(x, g, "transform");
  const FieldType& fields = x.type.fields("transform");
  const std::size_t n = x.data.shape(0);
  const std::size_t c = x.data.shape(1);
  const std::size_t h = x.data.shape(2);
  const std::size_t w = x.data.shape(3);
  const Matrix<double> rho = fields.representation_matrix(g);
  xt::xtensor<T, 4> moved = xt::xtensor<T, 4>::from_shape({n, c, h, w});
  const std::size_t plane = h * w;
  parallel_for(static_cast<std::ptrdiff_t>(n), [&](std::ptrdiff_t item) {
    const T* in = x.data.data() + static_cast<std::size_t>(item) * c * plane;
    T* out = moved.data() + static_cast<std::size_t>(item) * c * plane;
    // First resample every channel at g⁻¹p, then mix channels by ρ(g).
    std::vector<T> sampled(c * plane);
    detail::for_each_pixel_taps(h, w, g, exact, [&](std::size_t pixel, const detail::BilinearTap* taps, int count) {
      for (std::size_t ch = 0; ch < c; ++ch) {
        double value = 0;
        for (int t = 0; t < count; ++t) value += taps[t].weight * static_cast<double>(in[ch * plane + taps[t].index]);
        sampled[ch * plane + pixel] = static_cast<T>(value);
      }
    });
    for (std::size_t o = 0; o < c; ++o) {
      T* dst = out + o * plane;
      std::fill(dst, dst + plane, T(0));
      for (std::size_t i = 0; i < c; ++i) {
        const double m = rho(static_cast<Eigen::Index>(o), static_cast<Eigen::Index>(i));
        if (m == 0.0) continue;
        const T mt = static_cast<T>(m);
        const T* src = sampled.data() + i * plane;
        for (std::size_t p = 0; p < plane; ++p) dst[p] += mt * src[p];
      }
    }
  });
  return GeometricTensor<T>(x.type, std::move(moved));
}

template <class T>
GeometricTensor<T> transform_adjoint(const GeometricTensor<T>& grad, const repr::PlanarElement& g) {
  const bool exact = check_transform(grad, g, "transform_adjoint");
  const FieldType& fields = grad.type.fields("transform_adjoint");
  const std::size_t n = grad.data.shape(0);
  const std::size_t c = grad.data.shape(1);
  const std::size_t h = grad.data.shape(2);
  const std::size_t w = grad.data.shape(3);
  const std::size_t plane = h * w;
  const Matrix<double> rho = fields.representation_matrix(g);
  xt::xtensor<T, 4> result = xt::zeros<T>({n, c, h, w});
  parallel_for(static_cast<std::ptrdiff_t>(n), [&](std::ptrdiff_t item) {
    const T* in = grad.data.data() + static_cast<std::size_t>(item) * c * plane;
    T* out = result.data() + static_cast<std::size_t>(item) * c * plane;
    // The forward's steps transposed in reverse order: unmix channels by ρ(g)ᵀ, then scatter each
    // pixel's gradient back to the pixels it was interpolated from.
    std::vector<double> unmixed(c * plane, 0.0);
    for (std::size_t o = 0; o < c; ++o) {
      for (std::size_t i = 0; i < c; ++i) {
        const double m = rho(static_cast<Eigen::Index>(o), static_cast<Eigen::Index>(i));
        if (m == 0.0) continue;
        for (std::size_t p = 0; p < plane; ++p) unmixed[i * plane + p] += m * static_cast<double>(in[o * plane + p]);
      }
    }
    std::vector<double> scattered(c * plane, 0.0);
    detail::for_each_pixel_taps(h, w, g, exact, [&](std::size_t pixel, const detail::BilinearTap* taps, int count) {
      for (std::size_t ch = 0; ch < c; ++ch) {
        for (int t = 0; t < count; ++t)
          scattered[ch * plane + taps[t].index] += taps[t].weight * unmixed[ch * plane + pixel];
      }
    });
    for (std::size_t i = 0; i < c * plane; ++i) out[i] = static_cast<T>(scattered[i]);
  });
  return GeometricTensor<T>(grad.type, std::move(result));
}

template <class T>
GeometricTensor<T> transform_angle_derivative(const GeometricTensor<T>& x, const repr::PlanarElement& g) {
  const bool exact = check_transform(x, g, "transform_angle_derivative");
  for (const repr::Representation& rho : x.type.fields("transform_angle_derivative").fields()) {
    // ρ(g) = 1 for every g: only the resampling depends on θ.
    if (!rho.is_trivial()) throw DomainError("transform_angle_derivative", "needs trivial (scalar) fields", rho.name());
  }
  const std::size_t n = x.data.shape(0);
  const std::size_t c = x.data.shape(1);
  const std::size_t h = x.data.shape(2);
  const std::size_t w = x.data.shape(3);
  const std::size_t plane = h * w;
  const detail::GridSampler sampler(h, w, g);
  xt::xtensor<T, 4> result = xt::xtensor<T, 4>::from_shape({n, c, h, w});
  parallel_for(static_cast<std::ptrdiff_t>(n), [&](std::ptrdiff_t item) {
    const T* in = x.data.data() + static_cast<std::size_t>(item) * c * plane;
    T* out = result.data() + static_cast<std::size_t>(item) * c * plane;
    for (std::size_t row = 0; row < h; ++row) {
      for (std::size_t col = 0; col < w; ++col) {
        detail::SourcePosition source = sampler.at(row, col);
        if (exact) {  // the forward reads the pixel itself: differentiate bilinear from that corner
          source.row = std::round(source.row);
          source.col = std::round(source.col);
        }
        detail::BilinearTap taps[4];
        const int count = detail::bilinear_taps(source.row, source.col, h, w, taps);
        for (std::size_t ch = 0; ch < c; ++ch) {
          double slope = 0;
          for (int t = 0; t < count; ++t) {
            const double per_angle =
                taps[t].weight_per_row * source.row_per_angle + taps[t].weight_per_col * source.col_per_angle;
            slope += per_angle * static_cast<double>(in[ch * plane + taps[t].index]);
          }
          out[ch * plane + row * w + col] = static_cast<T>(slope);
        }
      }
    }
  });
  return GeometricTensor<T>(x.type, std::move(result));
}

template GeometricTensor<float> transform(const GeometricTensor<float>&, const repr::PlanarElement&);
template GeometricTensor<double> transform(const GeometricTensor<double>&, const repr::PlanarElement&);

template GeometricTensor<float> transform_adjoint(const GeometricTensor<float>&, const repr::PlanarElement&);
template GeometricTensor<double> transform_adjoint(const GeometricTensor<double>&, const repr::PlanarElement&);
template GeometricTensor<float> transform_angle_derivative(const GeometricTensor<float>&, const repr::PlanarElement&);
template GeometricTensor<double> transform_angle_derivative(const GeometricTensor<double>&, const repr::PlanarElement&);

}  // namespace gyre::nn
