#include "gyre/nn/manifold_fibers.hpp"

#include <string>

#include "grassmann/grassmann.hpp"
#include "gyre/core/error.hpp"
#include "gyre/geometry/common_batch_spaces.hpp"
#include "so/so.hpp"
#include "spd/affine_invariant.hpp"

namespace gyre::nn {

TensorType spd_features(int n, int channels) {
  if (!(n >= 1)) throw ShapeError("spd_features", "matrix size n must be >= 1", n);
  const std::string name = "SPD(" + std::to_string(n) + ", affine_invariant)";
  return TensorType(Base::kNone, ManifoldFiber::of<SpdAffineInvariant>(channels, name, n));
}

TensorType grassmann_features(int n, int p, int channels) {
  if (!(p >= 1 && p < n)) {
    // Gr(n, n) is a single point: the geometry (and so the fiber) needs p < n.
    throw ShapeError("grassmann_features", "needs 1 <= p < n",
                     "n = " + std::to_string(n) + ", p = " + std::to_string(p));
  }
  const std::string name = "Gr(" + std::to_string(n) + ", " + std::to_string(p) + ")";
  return TensorType(Base::kNone, ManifoldFiber::of<Grassmann>(channels, name, n, p));
}

TensorType rotation_features(int n, int channels) {
  if (!(n >= 2)) throw ShapeError("rotation_features", "matrix size n must be >= 2", n);
  return TensorType(Base::kNone, ManifoldFiber::of<SO>(channels, "SO(" + std::to_string(n) + ")", n));
}

TensorType matrix_features(int rows, int cols, int channels) {
  if (!(rows >= 1 && cols >= 1)) {
    throw ShapeError("matrix_features", "needs rows, cols >= 1", std::to_string(rows) + "×" + std::to_string(cols));
  }
  return TensorType(Base::kNone,
                    EuclideanFiber{channels, {static_cast<std::size_t>(rows), static_cast<std::size_t>(cols)}});
}

}  // namespace gyre::nn
