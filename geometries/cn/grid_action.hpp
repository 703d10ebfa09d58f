#pragma once
// ============================================================================================
//  The exact action of C_N and D_N on square pixel grids (escnn's conventions), shared by
//  cn.hpp and dn.hpp.
// ============================================================================================
//  Grid      an image is an xtensor array (…, H, W), H = W = n; pixel (row, col) sits at
//            x = col − (n − 1)/2, y = (n − 1)/2 − row (x to the right, y up).
//  Action    a function transforms as [g·f](p) = f(g⁻¹p). An element g = R(q·90°)·F^flip
//            (F: (x, y) ↦ (−x, y)) acts as numpy's flip on the last axis when flip = 1, then as
//            numpy's rot90(·, q) on the last two axes (counterclockwise):
//              flip:  out[i][j] = in[i][n−1−j]
//              q = 1: out[i][j] = in[j][n−1−i]   (rot90([[1, 2], [3, 4]]) = [[2, 4], [1, 3]])
//              q = 2: out[i][j] = in[n−1−i][n−1−j]
//              q = 3: out[i][j] = in[n−1−j][i]
//            These are exact index permutations, and act_on_grid(g·h) = act_on_grid(g)∘act_on_grid(h).
//  Domain    only elements whose rotation is a multiple of 90° map pixel centres onto pixel
//            centres; any other element throws DomainError ("not an exact symmetry of the pixel
//            grid") rather than interpolating. Non-square or rank < 2 arrays throw ShapeError.
//  References: escnn 1.0.13 (shared/reference/escnn.json, meta.conventions); numpy rot90 and flip.
// ============================================================================================

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <cstddef>
#include <string>
#include <vector>

#include <xtensor/xarray.hpp>

#include "gyre/core/error.hpp"
#include "gyre/core/manifold.hpp"
#include "gyre/core/validate.hpp"

namespace gyre {

/// How a grid-preserving element moves the pixel grid: first mirror the columns if flip = 1
/// (x ↦ −x), then rotate counterclockwise by quarter_turns·90°.
struct GridMotion {
  int flip = 0;
  int quarter_turns = 0;  ///< in [0, 4)
};

/// [g·image](p) = image(g⁻¹p) on the last two axes (…, n, n) of image: an exact permutation of
/// pixels. The group provides check_element(g), grid_motion(g) (std::optional<GridMotion>, empty
/// when g is not a symmetry of the grid) and rotation_degrees(g).
template <class Group, class V>
[[nodiscard]] xt::xarray<V> act_on_grid(const Group& group, const typename Group::Element& g,
                                        const xt::xarray<V>& image) {
  static_assert(is_finite_group_v<Group>, "act_on_grid needs a FiniteGroup");
  const std::size_t rank = image.dimension();
  if (rank < 2) {
    throw ShapeError("act_on_grid", "image needs at least two axes (…, H, W)", std::to_string(rank) + " axes");
  }
  const std::size_t n = image.shape()[rank - 2];
  if (image.shape()[rank - 1] != n) {
    throw ShapeError("act_on_grid", "image must be square in its last two axes (H×W)",
                     shape_string(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(image.shape()[rank - 1])));
  }
  group.check_element(g);
  const auto motion = group.grid_motion(g);
  if (!motion) {
    throw DomainError("act_on_grid", "element is not an exact symmetry of the pixel grid (rotation in degrees)",
                      group.rotation_degrees(g));
  }
  xt::xarray<V> out(image.shape());
  const std::size_t plane = n * n;
  if (plane == 0) return out;

  // The source pixel of every output pixel, once for all leading indices: out = rot90(flip(in), q),
  // so out[i][j] = flip(in)[a][b] with (a, b) the rot90 source, and flip(in)[a][b] = in[a][n−1−b].
  std::vector<std::size_t> source(plane);
  const std::size_t last = n - 1;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      std::size_t a = i;
      std::size_t b = j;
      switch (motion->quarter_turns) {
        case 1:
          a = j;
          b = last - i;
          break;
        case 2:
          a = last - i;
          b = last - j;
          break;
        case 3:
          a = last - j;
          b = i;
          break;
        default:
          break;
      }
      if (motion->flip == 1) b = last - b;
      source[i * n + j] = a * n + b;
    }
  }
  // xt::xarray is row-major and contiguous: the (…) leading indices enumerate whole n×n planes.
  const std::size_t planes = image.size() / plane;
  for (std::size_t s = 0; s < planes; ++s) {
    const V* in = image.data() + s * plane;
    V* to = out.data() + s * plane;
    for (std::size_t p = 0; p < plane; ++p) to[p] = in[source[p]];
  }
  return out;
}

}  // namespace gyre
