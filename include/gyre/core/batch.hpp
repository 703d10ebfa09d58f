#pragma once
// Batched forms of the whole manifold interface over xtensor arrays, and the one implementation of
// batch loops in Gyre: BatchSpace (geometry/batch_space.hpp) forwards here, and a geometry may
// declare faster overloads for whole batches in its own folder (spd/affine_invariant_batch.hpp,
// grassmann/grassmann_batch.hpp), which overload resolution prefers to these templates.
//
// Layout. An array holds items of the space along its trailing axes — (n) for vector points, (r, c)
// for matrix points — after any number of leading axes: (B, C, n, n) is B×C matrices, and an array
// without leading axes is one item. Tangent vectors and Euclidean gradients have their points'
// shape; scalar results (inner, norm, dist) have the leading shape.
//
// Items are read through an Eigen::Map of the row-major buffer (xtensor's layout) into the
// geometry's Point and Tangent types, which the one-item functions take, and results are written in
// place; items run in parallel over the cores when the batch is big enough to pay for it. An item's
// error is rethrown with its index added ("… in item 5"), for the bad item of lowest index.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <cmath>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include <xtensor/xarray.hpp>

#include "gyre/core/error.hpp"
#include "gyre/core/manifold.hpp"
#include "gyre/core/parallel.hpp"
#include "gyre/core/rng.hpp"

namespace gyre::batch {

namespace detail {

// Eigen forbids RowMajor column vectors; a vector's layout is the same either way.
template <class Object>
using RowMajorOf = std::conditional_t<
    Object::ColsAtCompileTime == 1, Object,
    Eigen::Matrix<typename Object::Scalar, Object::RowsAtCompileTime, Object::ColsAtCompileTime, Eigen::RowMajor>>;

template <class Object>
constexpr std::size_t item_rank() {
  return Object::ColsAtCompileTime == 1 ? 1 : 2;
}

template <class T>
std::string shape_text(const xt::xarray<T>& a) {
  std::string text = "(";
  for (std::size_t k = 0; k < a.dimension(); ++k) text += (k ? ", " : "") + std::to_string(a.shape()[k]);
  return text + ")";
}

/// Where the items of one array are: how many, and each one's rows and columns.
struct Items {
  std::size_t count = 1;
  Eigen::Index rows = 0;
  Eigen::Index cols = 1;
  /// Whether the array has leading axes (errors then name the item).
  bool batched = false;

  [[nodiscard]] std::size_t size() const { return static_cast<std::size_t>(rows * cols); }
};

/// The items of `array` read as Object (ShapeError when its trailing axes cannot hold one).
template <class Object, class T>
Items items_of(const char* function, const char* what, const xt::xarray<T>& array) {
  constexpr std::size_t rank = item_rank<Object>();
  const std::size_t axes = array.dimension();
  if (axes < rank) {
    throw ShapeError(function,
                     std::string(what) + " must end in the " + (rank == 1 ? "vector" : "matrix") + " axes of its items",
                     shape_text(array));
  }
  Items items;
  items.rows = static_cast<Eigen::Index>(array.shape()[axes - rank]);
  items.cols = rank == 2 ? static_cast<Eigen::Index>(array.shape()[axes - 1]) : 1;
  constexpr int rows = Object::RowsAtCompileTime;
  constexpr int cols = Object::ColsAtCompileTime;
  if ((rows != Eigen::Dynamic && items.rows != rows) || (rank == 2 && cols != Eigen::Dynamic && items.cols != cols)) {
    throw ShapeError(function, std::string(what) + " items have the wrong fixed size", shape_text(array));
  }
  for (std::size_t k = 0; k + rank < axes; ++k) items.count *= array.shape()[k];
  items.batched = axes > rank;
  return items;
}

template <class T>
void require_same_shape(const char* function, const xt::xarray<T>& a, const xt::xarray<T>& b) {
  if (a.shape() != b.shape()) {
    throw ShapeError(function, "batched arguments must have equal shapes (" + shape_text(a) + ")", shape_text(b));
  }
}

/// The leading axes of `array` (its shape without the item axes).
template <class T>
std::vector<std::size_t> leading_shape(const xt::xarray<T>& array, std::size_t item_rank) {
  return std::vector<std::size_t>(array.shape().begin(), array.shape().end() - static_cast<std::ptrdiff_t>(item_rank));
}

template <class Object, class T>
Object item(const xt::xarray<T>& array, const Items& items, std::ptrdiff_t i) {
  const T* data = array.data() + static_cast<std::ptrdiff_t>(items.size()) * i;
  return Object(Eigen::Map<const RowMajorOf<Object>>(data, items.rows, items.cols));
}

template <class Object, class T>
void store(xt::xarray<T>& array, const Items& items, std::ptrdiff_t i, const Object& value) {
  if (value.rows() != items.rows || value.cols() != items.cols) {
    throw ShapeError("batch::store", "an item's result must have its argument's shape",
                     std::to_string(value.rows()) + "×" + std::to_string(value.cols()));
  }
  T* data = array.data() + static_cast<std::ptrdiff_t>(items.size()) * i;
  Eigen::Map<RowMajorOf<Object>>(data, items.rows, items.cols) = value;
}

// The rough cost of one item's operation: a few dozen products or one decomposition of its
// entries, 30·(entries)^{3/2} flops (parallel_for runs small batches serially).
inline double item_work(const Items& items) {
  const double entries = static_cast<double>(items.size());
  return 30.0 * entries * std::sqrt(entries);
}

/// Runs body(i) for every item, in parallel when it pays; an item's Gyre error is rethrown with its
/// index when the array has leading axes (the geometry's own function name is kept).
template <class Body>
void for_each_item(const Items& items, const Body& body) {
  parallel_for(static_cast<std::ptrdiff_t>(items.count), item_work(items), [&](std::ptrdiff_t i) {
    if (!items.batched) return body(i);
    const std::string where = " in item " + std::to_string(i);
    try {
      body(i);
    } catch (const ShapeError& e) {
      throw ShapeError(e.function(), e.condition() + where, e.value());
    } catch (const DomainError& e) {
      throw DomainError(e.function(), e.condition() + where, e.value());
    } catch (const ConvergenceError& e) {
      throw ConvergenceError(e.function(), e.condition() + where, e.value());
    }
  });
}

// Runs check(i) on every item in parallel; the error of the first bad item is rethrown with the
// item's index added to its condition, under the batched function's name (the fast paths' checks).
template <class Check>
void check_items(const char* function, std::ptrdiff_t count, const Check& check) {
  parallel_for(count, [&](std::ptrdiff_t i) {
    try {
      check(i);
    } catch (const ShapeError& e) {
      throw ShapeError(function, e.condition() + " in item " + std::to_string(i), e.value());
    } catch (const DomainError& e) {
      throw DomainError(function, e.condition() + " in item " + std::to_string(i), e.value());
    }
  });
}

// out[i] = op(a[i], b[i]) with out shaped as a.
template <class Result, class A, class B, class T, class Op>
xt::xarray<T> map2(const char* function, const xt::xarray<T>& a, const xt::xarray<T>& b, const Op& op) {
  const Items items = items_of<A>(function, "first argument", a);
  (void)items_of<B>(function, "second argument", b);
  require_same_shape(function, a, b);
  xt::xarray<T> out = xt::xarray<T>::from_shape(a.shape());
  for_each_item(
      items, [&](std::ptrdiff_t i) { store<Result>(out, items, i, op(item<A>(a, items, i), item<B>(b, items, i))); });
  return out;
}

// out[i] = op(a[i], b[i], c[i]) with out shaped as a.
template <class Result, class A, class B, class C, class T, class Op>
xt::xarray<T> map3(const char* function, const xt::xarray<T>& a, const xt::xarray<T>& b, const xt::xarray<T>& c,
                   const Op& op) {
  const Items items = items_of<A>(function, "first argument", a);
  (void)items_of<B>(function, "second argument", b);
  (void)items_of<C>(function, "third argument", c);
  require_same_shape(function, a, b);
  require_same_shape(function, a, c);
  xt::xarray<T> out = xt::xarray<T>::from_shape(a.shape());
  for_each_item(items, [&](std::ptrdiff_t i) {
    store<Result>(out, items, i, op(item<A>(a, items, i), item<B>(b, items, i), item<C>(c, items, i)));
  });
  return out;
}

// out[i] = op(a[i], b[i]) as scalars, out shaped as a's leading axes.
template <class A, class B, class T, class Op>
xt::xarray<T> scalar2(const char* function, const xt::xarray<T>& a, const xt::xarray<T>& b, const Op& op) {
  const Items items = items_of<A>(function, "first argument", a);
  (void)items_of<B>(function, "second argument", b);
  require_same_shape(function, a, b);
  xt::xarray<T> out = xt::xarray<T>::from_shape(leading_shape(a, item_rank<A>()));
  for_each_item(items, [&](std::ptrdiff_t i) { out.data()[i] = op(item<A>(a, items, i), item<B>(b, items, i)); });
  return out;
}

}  // namespace detail

/// exp(x[i], v[i]) for every item.
template <class M, class T = typename M::Scalar>
xt::xarray<T> exp(const M& m, const xt::xarray<T>& x, const xt::xarray<T>& v) {
  static_assert(is_manifold_v<M>, "batch::exp needs a Manifold");
  using P = typename M::Point;
  using V = typename M::Tangent;
  return detail::map2<P, P, V>("batch::exp", x, v, [&](const P& xi, const V& vi) { return m.exp(xi, vi); });
}

/// log(x[i], y[i]) for every item.
template <class M, class T = typename M::Scalar>
xt::xarray<T> log(const M& m, const xt::xarray<T>& x, const xt::xarray<T>& y) {
  static_assert(is_manifold_v<M>, "batch::log needs a Manifold");
  using P = typename M::Point;
  using V = typename M::Tangent;
  return detail::map2<V, P, P>("batch::log", x, y, [&](const P& xi, const P& yi) { return m.log(xi, yi); });
}

/// retract(x[i], v[i]) for every item.
template <class M, class T = typename M::Scalar>
xt::xarray<T> retract(const M& m, const xt::xarray<T>& x, const xt::xarray<T>& v) {
  static_assert(is_manifold_v<M>, "batch::retract needs a Manifold");
  using P = typename M::Point;
  using V = typename M::Tangent;
  return detail::map2<P, P, V>("batch::retract", x, v, [&](const P& xi, const V& vi) { return m.retract(xi, vi); });
}

/// The projection of the ambient a[i] onto T_{x[i]} for every item.
template <class M, class T = typename M::Scalar>
xt::xarray<T> project(const M& m, const xt::xarray<T>& x, const xt::xarray<T>& a) {
  static_assert(is_manifold_v<M>, "batch::project needs a Manifold");
  using P = typename M::Point;
  using V = typename M::Tangent;
  return detail::map2<V, P, V>("batch::project", x, a, [&](const P& xi, const V& ai) { return m.project(xi, ai); });
}

/// The Riemannian gradients at x[i] from the Euclidean ones g[i] (core/manifold.hpp).
template <class M, class T = typename M::Scalar>
xt::xarray<T> egrad_to_rgrad(const M& m, const xt::xarray<T>& x, const xt::xarray<T>& g) {
  static_assert(is_manifold_v<M>, "batch::egrad_to_rgrad needs a Manifold");
  using P = typename M::Point;
  using V = typename M::Tangent;
  return detail::map2<V, P, V>("batch::egrad_to_rgrad", x, g,
                               [&](const P& xi, const V& gi) { return m.egrad_to_rgrad(xi, gi); });
}

/// transport(x[i], y[i], v[i]) for every item: v[i] ∈ T_{x[i]} carried to T_{y[i]}.
template <class M, class T = typename M::Scalar>
xt::xarray<T> transport(const M& m, const xt::xarray<T>& x, const xt::xarray<T>& y, const xt::xarray<T>& v) {
  static_assert(is_manifold_v<M>, "batch::transport needs a Manifold");
  using P = typename M::Point;
  using V = typename M::Tangent;
  return detail::map3<V, P, P, V>("batch::transport", x, y, v,
                                  [&](const P& xi, const P& yi, const V& vi) { return m.transport(xi, yi, vi); });
}

/// ⟨u[i], v[i]⟩ at x[i] for every item: an array of the leading shape.
template <class M, class T = typename M::Scalar>
xt::xarray<T> inner(const M& m, const xt::xarray<T>& x, const xt::xarray<T>& u, const xt::xarray<T>& v) {
  static_assert(is_manifold_v<M>, "batch::inner needs a Manifold");
  using P = typename M::Point;
  using V = typename M::Tangent;
  const char* function = "batch::inner";
  const detail::Items items = detail::items_of<P>(function, "first argument", x);
  (void)detail::items_of<V>(function, "second argument", u);
  (void)detail::items_of<V>(function, "third argument", v);
  detail::require_same_shape(function, x, u);
  detail::require_same_shape(function, x, v);
  xt::xarray<T> out = xt::xarray<T>::from_shape(detail::leading_shape(x, detail::item_rank<P>()));
  detail::for_each_item(items, [&](std::ptrdiff_t i) {
    out.data()[i] = m.inner(detail::item<P>(x, items, i), detail::item<V>(u, items, i), detail::item<V>(v, items, i));
  });
  return out;
}

/// ‖v[i]‖ at x[i] for every item: an array of the leading shape.
template <class M, class T = typename M::Scalar>
xt::xarray<T> norm(const M& m, const xt::xarray<T>& x, const xt::xarray<T>& v) {
  static_assert(is_manifold_v<M>, "batch::norm needs a Manifold");
  using P = typename M::Point;
  using V = typename M::Tangent;
  return detail::scalar2<P, V>("batch::norm", x, v, [&](const P& xi, const V& vi) { return m.norm(xi, vi); });
}

/// dist(x[i], y[i]) for every item: an array of the leading shape.
template <class M, class T = typename M::Scalar>
xt::xarray<T> dist(const M& m, const xt::xarray<T>& x, const xt::xarray<T>& y) {
  static_assert(is_manifold_v<M>, "batch::dist needs a Manifold");
  using P = typename M::Point;
  return detail::scalar2<P, P>("batch::dist", x, y, [&](const P& xi, const P& yi) { return m.dist(xi, yi); });
}

/// Random points (the geometry's random_point, drawn in item order from rng) of shape
/// leading + the items' shape, the items' shape being that of one random point.
template <class M>
xt::xarray<typename M::Scalar> random_points(const M& m, const std::vector<std::size_t>& leading, Rng& rng) {
  static_assert(is_manifold_v<M>, "batch::random_points needs a Manifold");
  using P = typename M::Point;
  const P first = m.random_point(rng);
  std::vector<std::size_t> shape = leading;
  shape.push_back(static_cast<std::size_t>(first.rows()));
  if (detail::item_rank<P>() == 2) shape.push_back(static_cast<std::size_t>(first.cols()));
  xt::xarray<typename M::Scalar> out = xt::xarray<typename M::Scalar>::from_shape(shape);
  const detail::Items items = detail::items_of<P>("batch::random_points", "result", out);
  if (items.count == 0) return out;
  detail::store<P>(out, items, 0, first);
  for (std::size_t i = 1; i < items.count; ++i)
    detail::store<P>(out, items, static_cast<std::ptrdiff_t>(i), m.random_point(rng));
  return out;
}

/// A standard Gaussian tangent vector at each x[i] (drawn in item order from rng).
template <class M, class T = typename M::Scalar>
xt::xarray<T> random_tangents(const M& m, const xt::xarray<T>& x, Rng& rng) {
  static_assert(is_manifold_v<M>, "batch::random_tangents needs a Manifold");
  using P = typename M::Point;
  using V = typename M::Tangent;
  const detail::Items items = detail::items_of<P>("batch::random_tangents", "points", x);
  xt::xarray<T> out = xt::xarray<T>::from_shape(x.shape());
  for (std::size_t i = 0; i < items.count; ++i) {
    const auto k = static_cast<std::ptrdiff_t>(i);
    detail::store<V>(out, items, k, m.random_tangent(detail::item<P>(x, items, k), rng));
  }
  return out;
}

/// Throws the geometry's error (naming the item) for the first item that is not a point.
template <class M, class T = typename M::Scalar>
void check_points(const M& m, const xt::xarray<T>& x) {
  static_assert(is_manifold_v<M>, "batch::check_points needs a Manifold");
  using P = typename M::Point;
  const detail::Items items = detail::items_of<P>("batch::check_points", "points", x);
  detail::for_each_item(items, [&](std::ptrdiff_t i) { m.check_point(detail::item<P>(x, items, i)); });
}

/// Throws the geometry's error (naming the item) for the first v[i] that is not tangent at x[i].
template <class M, class T = typename M::Scalar>
void check_tangents(const M& m, const xt::xarray<T>& x, const xt::xarray<T>& v) {
  static_assert(is_manifold_v<M>, "batch::check_tangents needs a Manifold");
  using P = typename M::Point;
  using V = typename M::Tangent;
  const char* function = "batch::check_tangents";
  const detail::Items items = detail::items_of<P>(function, "points", x);
  (void)detail::items_of<V>(function, "tangent vectors", v);
  detail::require_same_shape(function, x, v);
  detail::for_each_item(
      items, [&](std::ptrdiff_t i) { m.check_tangent(detail::item<P>(x, items, i), detail::item<V>(v, items, i)); });
}

}  // namespace gyre::batch
