#pragma once
// BatchSpace: one geometry chosen at run time, applied to whole arrays of its points. This is what a
// manifold-valued feature (a fiber of a GeometricTensor) and a manifold-valued optimizer parameter
// hold: generic layers and optimizers call one virtual function per array, never one per item.
//
// Layout. An array holds items of the space along its trailing axes — (n) for vector points such as
// the sphere's, (r, c) for matrix points such as SPD or Stiefel — after any number of leading axes:
// (B, C, n, n) is B×C SPD matrices. Tangent vectors and Euclidean gradients have their points'
// shape; scalar results (inner, dist) have the leading axes only. Items are read through an
// Eigen::Map of the row-major buffer and run in parallel over the cores.
//
// BatchSpaceOf<M> adapts any geometry M (is_manifold_v) and takes its validity checks along: every
// item is checked as M's own operations check it, so an error names the geometry's function and the
// offending value; with several bad items, the one of lowest index is reported.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <cmath>
#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <xtensor/xarray.hpp>

#include "gyre/core/error.hpp"
#include "gyre/core/manifold.hpp"
#include "gyre/core/parallel.hpp"
#include "gyre/core/rng.hpp"

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
  [[nodiscard]] virtual Array dist(const Array& x, const Array& y) const = 0;
  /// Random points (the geometry's random_point) of shape leading + item_shape().
  [[nodiscard]] virtual Array random_points(const Shape& leading, Rng& rng) const = 0;
  /// Throws the geometry's error for the first item that is not a point of the space.
  virtual void check_points(const Array& x) const = 0;

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

namespace batch_space_detail {

// Eigen forbids RowMajor column vectors; a vector's layout is the same either way.
template <class Object>
using RowMajorOf = std::conditional_t<
    Object::ColsAtCompileTime == 1, Object,
    Eigen::Matrix<typename Object::Scalar, Object::RowsAtCompileTime, Object::ColsAtCompileTime, Eigen::RowMajor>>;

}  // namespace batch_space_detail

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
    return map2<Tangent>("BatchSpace::exp", x, v, [&](const Point& a, const Tangent& b) { return space_.exp(a, b); });
  }
  [[nodiscard]] Array log(const Array& x, const Array& y) const override {
    return map2<Point>("BatchSpace::log", x, y, [&](const Point& a, const Point& b) { return space_.log(a, b); });
  }
  [[nodiscard]] Array retract(const Array& x, const Array& v) const override {
    return map2<Tangent>("BatchSpace::retract", x, v,
                         [&](const Point& a, const Tangent& b) { return space_.retract(a, b); });
  }
  [[nodiscard]] Array project(const Array& x, const Array& a) const override {
    return map2<Tangent>("BatchSpace::project", x, a,
                         [&](const Point& p, const Tangent& b) { return space_.project(p, b); });
  }
  [[nodiscard]] Array egrad_to_rgrad(const Array& x, const Array& g) const override {
    return map2<Tangent>("BatchSpace::egrad_to_rgrad", x, g,
                         [&](const Point& p, const Tangent& b) { return space_.egrad_to_rgrad(p, b); });
  }
  [[nodiscard]] Array transport(const Array& x, const Array& y, const Array& v) const override {
    const std::size_t n = this->item_count("BatchSpace::transport", x);
    require_same_shape("BatchSpace::transport", x, y);
    require_same_shape("BatchSpace::transport", x, v);
    Array out = Array::from_shape(x.shape());
    parallel_for(static_cast<std::ptrdiff_t>(n), item_work(), [&](std::ptrdiff_t i) {
      store(out, i, Tangent(space_.transport(item<Point>(x, i), item<Point>(y, i), item<Tangent>(v, i))));
    });
    return out;
  }
  [[nodiscard]] Array inner(const Array& x, const Array& u, const Array& v) const override {
    const std::size_t n = this->item_count("BatchSpace::inner", x);
    require_same_shape("BatchSpace::inner", x, u);
    require_same_shape("BatchSpace::inner", x, v);
    Array out = Array::from_shape(leading_shape(x));
    parallel_for(static_cast<std::ptrdiff_t>(n), item_work(), [&](std::ptrdiff_t i) {
      out.data()[i] = space_.inner(item<Point>(x, i), item<Tangent>(u, i), item<Tangent>(v, i));
    });
    return out;
  }
  [[nodiscard]] Array dist(const Array& x, const Array& y) const override {
    const std::size_t n = this->item_count("BatchSpace::dist", x);
    require_same_shape("BatchSpace::dist", x, y);
    Array out = Array::from_shape(leading_shape(x));
    parallel_for(static_cast<std::ptrdiff_t>(n), item_work(),
                 [&](std::ptrdiff_t i) { out.data()[i] = space_.dist(item<Point>(x, i), item<Point>(y, i)); });
    return out;
  }
  [[nodiscard]] Array random_points(const Shape& leading, Rng& rng) const override {
    Shape shape = leading;
    shape.insert(shape.end(), this->item_shape().begin(), this->item_shape().end());
    Array out = Array::from_shape(shape);
    const std::size_t n = this->item_count("BatchSpace::random_points", out);
    for (std::size_t i = 0; i < n; ++i) store(out, static_cast<std::ptrdiff_t>(i), Point(space_.random_point(rng)));
    return out;
  }
  void check_points(const Array& x) const override {
    const std::size_t n = this->item_count("BatchSpace::check_points", x);
    for (std::size_t i = 0; i < n; ++i) space_.check_point(item<Point>(x, static_cast<std::ptrdiff_t>(i)));
  }

 private:
  static Shape shape_of(const M& space) {
    Rng rng(0);
    const Point p = space.random_point(rng);
    if (Point::ColsAtCompileTime == 1) return {static_cast<std::size_t>(p.rows())};
    return {static_cast<std::size_t>(p.rows()), static_cast<std::size_t>(p.cols())};
  }

  Shape leading_shape(const Array& x) const {
    return Shape(x.shape().begin(), x.shape().end() - static_cast<std::ptrdiff_t>(this->item_shape().size()));
  }

  // The rough cost of one item's operation: a few dozen matrix products or one decomposition of
  // its points, 30·(entries)^{3/2} flops; parallel_for runs small batches serially below its threshold.
  double item_work() const {
    const double entries = static_cast<double>(item_size());
    return 30.0 * entries * std::sqrt(entries);
  }

  std::size_t item_size() const {
    std::size_t size = 1;
    for (std::size_t s : this->item_shape()) size *= s;
    return size;
  }

  template <class Object>
  Object item(const Array& a, std::ptrdiff_t i) const {
    const auto rows = static_cast<Eigen::Index>(this->item_shape()[0]);
    const auto cols = this->item_shape().size() == 2 ? static_cast<Eigen::Index>(this->item_shape()[1]) : 1;
    using Map = Eigen::Map<const batch_space_detail::RowMajorOf<Object>>;
    return Object(Map(a.data() + i * rows * cols, rows, cols));
  }

  template <class Object>
  void store(Array& a, std::ptrdiff_t i, const Object& value) const {
    const auto rows = static_cast<Eigen::Index>(this->item_shape()[0]);
    const auto cols = this->item_shape().size() == 2 ? static_cast<Eigen::Index>(this->item_shape()[1]) : 1;
    using Map = Eigen::Map<batch_space_detail::RowMajorOf<Object>>;
    Map(a.data() + i * rows * cols, rows, cols) = value;
  }

  static void require_same_shape(const char* where, const Array& a, const Array& b) {
    if (a.shape() != b.shape()) {
      throw ShapeError(where, "arguments must have equal shapes (" + BatchSpace<T>::shape_text(a) + ")",
                       BatchSpace<T>::shape_text(b));
    }
  }

  // out[i] = op(item i of a, item i of b), with the result shaped as a.
  template <class Second, class Op>
  Array map2(const char* where, const Array& a, const Array& b, const Op& op) const {
    const std::size_t n = this->item_count(where, a);
    require_same_shape(where, a, b);
    Array out = Array::from_shape(a.shape());
    parallel_for(static_cast<std::ptrdiff_t>(n), item_work(),
                 [&](std::ptrdiff_t i) { store(out, i, Tangent(op(item<Point>(a, i), item<Second>(b, i)))); });
    return out;
  }

  M space_;
};

/// A shared BatchSpace of a geometry value, e.g. make_batch_space(Sphere<double>(2), "S^2").
template <class M>
[[nodiscard]] std::shared_ptr<const BatchSpace<typename M::Scalar>> make_batch_space(M space, std::string name) {
  return std::make_shared<const BatchSpaceOf<M>>(std::move(space), std::move(name));
}

}  // namespace gyre
