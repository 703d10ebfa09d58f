#include "gyre/nn/transform.hpp"

#include <cmath>

#include <boost/math/constants/constants.hpp>

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

}  // namespace

bool is_grid_symmetry(const repr::PlanarElement& g) {
  const double q = g.angle / kHalfPi;
  return std::isfinite(q) && std::abs(q - std::round(q)) * kHalfPi <= 1e-9;
}

template <class T>
GeometricTensor<T> transform(const GeometricTensor<T>& x, const repr::PlanarElement& g) {
  if (x.type.base() != Base::kGrid) throw ShapeError("transform", "needs feature maps on a grid", x.type.describe());
  const FieldType& fields = x.type.fields("transform");
  if (!fields.group().contains(g)) {
    throw DomainError("transform", "element is not in " + fields.group().name() + " (angle in rad)", g.angle);
  }
  const std::size_t n = x.data.shape(0);
  const std::size_t c = x.data.shape(1);
  const std::size_t h = x.data.shape(2);
  const std::size_t w = x.data.shape(3);
  const bool exact = is_grid_symmetry(g);
  if (exact && quarter_turns(g) % 2 == 1 && h != w) {
    throw ShapeError("transform", "a quarter turn needs square feature maps",
                     std::to_string(h) + "x" + std::to_string(w));
  }
  // Source position of each output pixel: g⁻¹p = Fᶠ·R(−θ)·p.
  const double cx = (static_cast<double>(w) - 1) / 2;
  const double cy = (static_cast<double>(h) - 1) / 2;
  const double cos_t = std::cos(g.angle);
  const double sin_t = std::sin(g.angle);
  const Matrix<double> rho = fields.representation_matrix(g);
  xt::xtensor<T, 4> moved = xt::xtensor<T, 4>::from_shape({n, c, h, w});
  const std::size_t plane = h * w;
  parallel_for(static_cast<std::ptrdiff_t>(n), [&](std::ptrdiff_t item) {
    const T* in = x.data.data() + static_cast<std::size_t>(item) * c * plane;
    T* out = moved.data() + static_cast<std::size_t>(item) * c * plane;
    // First resample every channel at g⁻¹p, then mix channels by ρ(g).
    std::vector<T> sampled(c * plane);
    for (std::size_t row = 0; row < h; ++row) {
      for (std::size_t col = 0; col < w; ++col) {
        const double px = static_cast<double>(col) - cx;
        const double py = cy - static_cast<double>(row);
        double sx = cos_t * px + sin_t * py;  // R(−θ)p
        const double sy = -sin_t * px + cos_t * py;
        if (g.flip) sx = -sx;
        const double src_col = sx + cx;
        const double src_row = cy - sy;
        const std::size_t pixel = row * w + col;
        if (exact) {
          const long r = std::lround(src_row);
          const long s = std::lround(src_col);
          for (std::size_t ch = 0; ch < c; ++ch) {
            sampled[ch * plane + pixel] =
                in[ch * plane + static_cast<std::size_t>(r) * w + static_cast<std::size_t>(s)];
          }
          continue;
        }
        const double r0 = std::floor(src_row);
        const double c0 = std::floor(src_col);
        const double fr = src_row - r0;
        const double fc = src_col - c0;
        for (std::size_t ch = 0; ch < c; ++ch) {
          double value = 0;
          for (int dr = 0; dr < 2; ++dr) {
            for (int dc = 0; dc < 2; ++dc) {
              const double rr = r0 + dr;
              const double cc = c0 + dc;
              if (rr < 0 || cc < 0 || rr > static_cast<double>(h) - 1 || cc > static_cast<double>(w) - 1) continue;
              const double weight = (dr ? fr : 1 - fr) * (dc ? fc : 1 - fc);
              value += weight * static_cast<double>(
                                    in[ch * plane + static_cast<std::size_t>(rr) * w + static_cast<std::size_t>(cc)]);
            }
          }
          sampled[ch * plane + pixel] = static_cast<T>(value);
        }
      }
    }
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

template GeometricTensor<float> transform(const GeometricTensor<float>&, const repr::PlanarElement&);
template GeometricTensor<double> transform(const GeometricTensor<double>&, const repr::PlanarElement&);

}  // namespace gyre::nn
