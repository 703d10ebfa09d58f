#pragma once
// Where nn::transform samples a map and with which weights, shared by transform and its derivatives
// (transform_derivatives.cpp) so the forward map and its adjoint cannot drift apart.
//
// Output pixel p = (x, y) (x = col − (W−1)/2, y = (H−1)/2 − row) reads the source g⁻¹p = Fᶠ·R(−θ)·p.
// Bilinear interpolation reads the ≤ 4 pixels around it (zero outside the map).

#include <cmath>
#include <cstddef>

#include "gyre/repr/planar_group.hpp"

namespace gyre::nn::detail {

/// The source position of one output pixel in (row, col) units and its derivative in θ.
struct SourcePosition {
  double row = 0, col = 0;
  double row_per_angle = 0, col_per_angle = 0;
};

/// g⁻¹p for the pixels of an h × w map.
class GridSampler {
 public:
  GridSampler(std::size_t h, std::size_t w, const repr::PlanarElement& g)
      : cx_((static_cast<double>(w) - 1) / 2),
        cy_((static_cast<double>(h) - 1) / 2),
        cos_(std::cos(g.angle)),
        sin_(std::sin(g.angle)),
        flip_(g.flip) {}

  [[nodiscard]] SourcePosition at(std::size_t row, std::size_t col) const {
    const double px = static_cast<double>(col) - cx_;
    const double py = cy_ - static_cast<double>(row);
    const double sx = cos_ * px + sin_ * py;  // R(−θ)p
    const double sy = -sin_ * px + cos_ * py;
    // d/dθ R(−θ)p = (sy, −sx); the flip negates x after rotating.
    SourcePosition s;
    s.col = (flip_ ? -sx : sx) + cx_;
    s.row = cy_ - sy;
    s.col_per_angle = flip_ ? -sy : sy;
    s.row_per_angle = sx;
    return s;
  }

 private:
  double cx_, cy_, cos_, sin_;
  bool flip_;
};

/// One pixel bilinear interpolation reads: its flat index, weight and the weight's derivatives in
/// the source position.
struct BilinearTap {
  std::size_t index = 0;
  double weight = 0, weight_per_row = 0, weight_per_col = 0;
};

/// The taps of bilinear interpolation at (row, col) of an h × w map; returns how many (≤ 4) lie
/// inside the map.
inline int bilinear_taps(double row, double col, std::size_t h, std::size_t w, BilinearTap (&taps)[4]) {
  const double r0 = std::floor(row);
  const double c0 = std::floor(col);
  const double fr = row - r0;
  const double fc = col - c0;
  int count = 0;
  for (int dr = 0; dr < 2; ++dr) {
    for (int dc = 0; dc < 2; ++dc) {
      const double rr = r0 + dr;
      const double cc = c0 + dc;
      if (rr < 0 || cc < 0 || rr > static_cast<double>(h) - 1 || cc > static_cast<double>(w) - 1) continue;
      const double wr = dr ? fr : 1 - fr;
      const double wc = dc ? fc : 1 - fc;
      BilinearTap& t = taps[count++];
      t.index = static_cast<std::size_t>(rr) * w + static_cast<std::size_t>(cc);
      t.weight = wr * wc;
      t.weight_per_row = (dr ? 1.0 : -1.0) * wc;
      t.weight_per_col = wr * (dc ? 1.0 : -1.0);
    }
  }
  return count;
}

/// Calls visit(pixel, taps, count) for every output pixel of an h × w map under g: one tap of weight
/// 1 where g permutes pixels exactly (`exact`), else the bilinear taps at g⁻¹p.
template <class Visit>
void for_each_pixel_taps(std::size_t h, std::size_t w, const repr::PlanarElement& g, bool exact, Visit&& visit) {
  const GridSampler sampler(h, w, g);
  BilinearTap taps[4];
  for (std::size_t row = 0; row < h; ++row) {
    for (std::size_t col = 0; col < w; ++col) {
      const SourcePosition source = sampler.at(row, col);
      int count = 1;
      if (exact) {
        taps[0] = BilinearTap{
            static_cast<std::size_t>(std::lround(source.row)) * w + static_cast<std::size_t>(std::lround(source.col)),
            1.0, 0.0, 0.0};
      } else {
        count = bilinear_taps(source.row, source.col, h, w, taps);
      }
      visit(row * w + col, taps, count);
    }
  }
}

}  // namespace gyre::nn::detail
