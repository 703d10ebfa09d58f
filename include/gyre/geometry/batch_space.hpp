#pragma once
// BatchSpace: one geometry chosen at run time, applied to whole arrays of its points. This is what a
// manifold-valued feature (a fiber of a GeometricTensor), a manifold-valued optimizer parameter and
// AnyManifold hold: callers make one virtual call per array, never one per item.
//
// Layout: core/batch.hpp's — items along the trailing axes ((n) for vector points such as the
// sphere's, (r, c) for matrix points such as SPD or Stiefel) after any number of leading axes, so
// (B, C, n, n) is B×C SPD matrices and an array without leading axes is one point. Tangent vectors
// and Euclidean gradients have their points' shape; scalar results (inner, norm, dist) have the
// leading axes only.
//
// BatchSpaceOf<M> adapts any geometry M (is_manifold_v) by forwarding to gyre::batch, so a geometry's
// whole-batch fast paths (included below; they exist exactly when libgyre is built with them) serve
// every BatchSpace of it. Items are checked as M's own operations check them: an error names the
// geometry's function, the offending value and, for arrays with leading axes, the item.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <cmath>
#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <xtensor/xarray.hpp>

#include "gyre/core/batch.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/manifold.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/geometries/grassmann/grassmann_batch.hpp"
#include "gyre/geometries/spd/affine_invariant_batch.hpp"
#include "gyre/geometry/batch_frechet_mean.hpp"

namespace gyre {

/// A geometry acting on arrays of its points (see the header comment).
template <class T>
class BatchSpace {
 public:
  using Array = xt::xarray<T>;
  using Shape = std::vector<std::size_t>;

  virtual ~BatchSpace() = default;

  /// How the space describes itself, e.g. "SPD(3, affine_invariant)"; equal names mean equal spaces.
  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  /// The shape of one point: {n + 1} for Sⁿ, {n, n} for SPD(n), {n, p} for St(n, p).
  [[nodiscard]] const Shape& item_shape() const noexcept { return item_shape_; }
  /// The manifold's dimension.
  [[nodiscard]] virtual int dim() const = 0;

  [[nodiscard]] virtual Array exp(const Array& x, const Array& v) const = 0;
  [[nodiscard]] virtual Array log(const Array& x, const Array& y) const = 0;
  [[nodiscard]] virtual Array retract(const Array& x, const Array& v) const = 0;
  /// Parallel transport of v ∈ T_x along the geodesic from x to y.
  [[nodiscard]] virtual Array transport(const Array& x, const Array& y, const Array& v) const = 0;
  /// Orthogonal projection of ambient arrays onto T_x.
  [[nodiscard]] virtual Array project(const Array& x, const Array& a) const = 0;
  /// The Riemannian gradient from the Euclidean one (see core/manifold.hpp).
  [[nodiscard]] virtual Array egrad_to_rgrad(const Array& x, const Array& g) const = 0;
  /// ⟨u, v⟩ₓ per item: the leading axes' shape.
  [[nodiscard]] virtual Array inner(const Array& x, const Array& u, const Array& v) const = 0;
  /// ‖v‖ₓ per item: the leading axes' shape.
  [[nodiscard]] virtual Array norm(const Array& x, const Array& v) const = 0;
  [[nodiscard]] virtual Array dist(const Array& x, const Array& y) const = 0;
  /// The weighted Fréchet mean of all items of `points` (weights empty: equal), one point: the
  /// geometry's own mean where it has one (a closed form), else the Karcher iteration.
  [[nodiscard]] virtual Array mean(const Array& points, const std::vector<T>& weights) const = 0;
  /// Random points (the geometry's random_point) of shape leading + item_shape().
  [[nodiscard]] virtual Array random_points(const Shape& leading, Rng& rng) const = 0;
  /// A standard Gaussian tangent vector at each point of x.
  [[nodiscard]] virtual Array random_tangents(const Array& x, Rng& rng) const = 0;
  /// Throws the geometry's error for the first item that is not a point of the space.
  virtual void check_points(const Array& x) const = 0;
  /// Throws the geometry's error for the first v[i] that is not a tangent vector at x[i].
  virtual void check_tangents(const Array& x, const Array& v) const = 0;

  /// The number of items in an array of this space's points (ShapeError if the trailing axes differ).
  [[nodiscard]] std::size_t item_count(const char* where, const Array& x) const {
    const std::size_t rank = item_shape_.size();
    bool fits = x.dimension() >= rank;
    for (std::size_t k = 0; fits && k < rank; ++k) fits = x.shape()[x.dimension() - rank + k] == item_shape_[k];
    if (!fits) throw ShapeError(where, "trailing axes must be the item shape of " + name_, shape_text(x));
    std::size_t count = 1;
    for (std::size_t k = 0; k + rank < x.dimension(); ++k) count *= x.shape()[k];
    return count;
  }

  static std::string shape_text(const Array& x) {
    std::string text = "(";
    for (std::size_t k = 0; k < x.dimension(); ++k) text += (k ? ", " : "") + std::to_string(x.shape()[k]);
    return text + ")";
  }

 protected:
  BatchSpace(std::string name, Shape item_shape) : name_(std::move(name)), item_shape_(std::move(item_shape)) {}

 private:
  std::string name_;
  Shape item_shape_;
};

/// The BatchSpace of one geometry value (see the header comment).
template <class M>
class BatchSpaceOf final : public BatchSpace<typename M::Scalar> {
  static_assert(is_manifold_v<M>, "BatchSpaceOf needs a geometry satisfying is_manifold");

 public:
  using T = typename M::Scalar;
  using Array = xt::xarray<T>;
  using Shape = std::vector<std::size_t>;
  using Point = typename M::Point;
  using Tangent = typename M::Tangent;

  /// name: how the space describes itself (equal names must mean equal spaces).
  BatchSpaceOf(M space, std::string name) : BatchSpace<T>(std::move(name), shape_of(space)), space_(std::move(space)) {}

  [[nodiscard]] const M& space() const noexcept { return space_; }
  [[nodiscard]] int dim() const override { return space_.dim(); }

  [[nodiscard]] Array exp(const Array& x, const Array& v) const override {
    check_item_shape("BatchSpace::exp", x);
    return batch::exp(space_, x, v);
  }
  [[nodiscard]] Array log(const Array& x, const Array& y) const override {
    check_item_shape("BatchSpace::log", x);
    return batch::log(space_, x, y);
  }
  [[nodiscard]] Array retract(const Array& x, const Array& v) const override {
    check_item_shape("BatchSpace::retract", x);
    return batch::retract(space_, x, v);
  }
  [[nodiscard]] Array transport(const Array& x, const Array& y, const Array& v) const override {
    check_item_shape("BatchSpace::transport", x);
    return batch::transport(space_, x, y, v);
  }
  [[nodiscard]] Array project(const Array& x, const Array& a) const override {
    check_item_shape("BatchSpace::project", x);
    return batch::project(space_, x, a);
  }
  [[nodiscard]] Array egrad_to_rgrad(const Array& x, const Array& g) const override {
    check_item_shape("BatchSpace::egrad_to_rgrad", x);
    return batch::egrad_to_rgrad(space_, x, g);
  }
  [[nodiscard]] Array inner(const Array& x, const Array& u, const Array& v) const override {
    check_item_shape("BatchSpace::inner", x);
    return batch::inner(space_, x, u, v);
  }
  [[nodiscard]] Array norm(const Array& x, const Array& v) const override {
    check_item_shape("BatchSpace::norm", x);
    return batch::norm(space_, x, v);
  }
  [[nodiscard]] Array dist(const Array& x, const Array& y) const override {
    check_item_shape("BatchSpace::dist", x);
    return batch::dist(space_, x, y);
  }
  [[nodiscard]] Array mean(const Array& points, const std::vector<T>& weights) const override {
    check_item_shape("BatchSpace::mean", points);
    Point result;
    if constexpr (has_own_mean_v) {
      if (weights.empty()) {
        const batch::detail::Items layout = batch::detail::items_of<Point>("BatchSpace::mean", "points", points);
        std::vector<Point> items;
        items.reserve(layout.count);
        for (std::size_t i = 0; i < layout.count; ++i)
          items.push_back(batch::detail::item<Point>(points, layout, static_cast<std::ptrdiff_t>(i)));
        result = space_.mean(items);
      } else {
        result = batch::frechet_mean(space_, points, weights).point;
      }
    } else {
      result = batch::frechet_mean(space_, points, weights).point;
    }
    Array out = Array::from_shape(this->item_shape());
    const batch::detail::Items one = batch::detail::items_of<Point>("BatchSpace::mean", "result", out);
    batch::detail::store<Point>(out, one, 0, result);
    return out;
  }
  [[nodiscard]] Array random_points(const Shape& leading, Rng& rng) const override {
    return batch::random_points(space_, leading, rng);
  }
  [[nodiscard]] Array random_tangents(const Array& x, Rng& rng) const override {
    check_item_shape("BatchSpace::random_tangents", x);
    return batch::random_tangents(space_, x, rng);
  }
  void check_points(const Array& x) const override {
    check_item_shape("BatchSpace::check_points", x);
    batch::check_points(space_, x);
  }
  void check_tangents(const Array& x, const Array& v) const override {
    check_item_shape("BatchSpace::check_tangents", x);
    batch::check_tangents(space_, x, v);
  }

 private:
  template <class Space, class = void>
  struct has_own_mean : std::false_type {};
  template <class Space>
  struct has_own_mean<Space, std::void_t<decltype(std::declval<const Space&>().mean(
                                 std::declval<const std::vector<typename Space::Point>&>()))>> : std::true_type {};
  static constexpr bool has_own_mean_v = has_own_mean<M>::value;

  static Shape shape_of(const M& space) {
    Rng rng(0);
    const Point p = space.random_point(rng);
    if (Point::ColsAtCompileTime == 1) return {static_cast<std::size_t>(p.rows())};
    return {static_cast<std::size_t>(p.rows()), static_cast<std::size_t>(p.cols())};
  }

  // The trailing axes must be this space's item shape (gyre::batch checks only what the types fix).
  void check_item_shape(const char* where, const Array& x) const { (void)this->item_count(where, x); }

  M space_;
};

/// A shared BatchSpace of a geometry value, e.g. make_batch_space(Sphere<double>(2), "S^2").
template <class M>
[[nodiscard]] std::shared_ptr<const BatchSpace<typename M::Scalar>> make_batch_space(M space, std::string name) {
  return std::make_shared<const BatchSpaceOf<M>>(std::move(space), std::move(name));
}

}  // namespace gyre
