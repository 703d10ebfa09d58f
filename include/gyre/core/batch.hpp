#pragma once
// Batched forms of the hot manifold operations over xtensor arrays with the batch as leading
// axis: (B, n) for vector points, (B, r, c) for matrix points. Each item is read through an
// Eigen::Map of the row-major buffer (xtensor's layout), the one-item function runs on it, and
// the items run in parallel over the cores. Tangent vectors have their points' ambient shape.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <cstddef>
#include <string>

#include <xtensor/xarray.hpp>

#include "gyre/core/error.hpp"
#include "gyre/core/manifold.hpp"
#include "gyre/core/parallel.hpp"
#include "gyre/core/validate.hpp"

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

template <class Object, class T>
void require_item_shape(const char* function, const char* what, const xt::xarray<T>& array) {
  constexpr std::size_t rank = item_rank<Object>();
  if (array.dimension() != rank + 1) {
    throw ShapeError(function, std::string(what) + " must have " + std::to_string(rank + 1) + " axes (batch first)",
                     std::to_string(array.dimension()) + " axes");
  }
  constexpr int rows = Object::RowsAtCompileTime;
  constexpr int cols = Object::ColsAtCompileTime;
  if ((rows != Eigen::Dynamic && array.shape()[1] != static_cast<std::size_t>(rows)) ||
      (rank == 2 && cols != Eigen::Dynamic && array.shape()[2] != static_cast<std::size_t>(cols))) {
    throw ShapeError(function, std::string(what) + " items have the wrong fixed size",
                     std::to_string(array.shape()[1]));
  }
}

template <class Object, class T>
Object item(const xt::xarray<T>& array, std::ptrdiff_t b) {
  const auto rows = static_cast<Eigen::Index>(array.shape()[1]);
  const auto cols = item_rank<Object>() == 2 ? static_cast<Eigen::Index>(array.shape()[2]) : 1;
  const T* data = array.data() + b * rows * cols;
  return Object(Eigen::Map<const RowMajorOf<Object>>(data, rows, cols));
}

template <class Object, class T>
void store(xt::xarray<T>& array, std::ptrdiff_t b, const Object& value) {
  const auto rows = static_cast<Eigen::Index>(array.shape()[1]);
  const auto cols = item_rank<Object>() == 2 ? static_cast<Eigen::Index>(array.shape()[2]) : 1;
  Eigen::Map<RowMajorOf<Object>>(array.data() + b * rows * cols, rows, cols) = value;
}

template <class T>
void require_same_shape(const char* function, const xt::xarray<T>& a, const xt::xarray<T>& b) {
  if (a.shape() != b.shape()) {
    throw ShapeError(function, "batched arguments must have equal shapes",
                     std::to_string(a.shape()[0]) + " vs " + std::to_string(b.shape()[0]) + " items");
  }
}

// Applies op(item of a, item of b) → Object for every batch item, in parallel.
template <class Result, class ArgA, class ArgB, class T, class Op>
xt::xarray<T> map2(const char* function, const xt::xarray<T>& a, const xt::xarray<T>& b, const Op& op) {
  require_item_shape<ArgA>(function, "first argument", a);
  require_item_shape<ArgB>(function, "second argument", b);
  require_same_shape(function, a, b);
  xt::xarray<T> out(a.shape());
  const auto count = static_cast<std::ptrdiff_t>(a.shape()[0]);
  parallel_for(count, [&](std::ptrdiff_t i) { store<Result>(out, i, op(item<ArgA>(a, i), item<ArgB>(b, i))); });
  return out;
}

// Runs check(i) on every item in parallel; the error of the first bad item is rethrown with the
// item's index added to its condition, under the batched function's name.
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

}  // namespace detail

/// exp(x[b], v[b]) for every b.
template <class M, class T = typename M::Scalar>
xt::xarray<T> exp(const M& m, const xt::xarray<T>& x, const xt::xarray<T>& v) {
  static_assert(is_manifold_v<M>, "batch::exp needs a Manifold");
  using P = typename M::Point;
  using V = typename M::Tangent;
  return detail::map2<P, P, V>("batch::exp", x, v, [&](const P& xi, const V& vi) { return m.exp(xi, vi); });
}

/// log(x[b], y[b]) for every b.
template <class M, class T = typename M::Scalar>
xt::xarray<T> log(const M& m, const xt::xarray<T>& x, const xt::xarray<T>& y) {
  static_assert(is_manifold_v<M>, "batch::log needs a Manifold");
  using P = typename M::Point;
  using V = typename M::Tangent;
  return detail::map2<V, P, P>("batch::log", x, y, [&](const P& xi, const P& yi) { return m.log(xi, yi); });
}

/// dist(x[b], y[b]) for every b, as a (B,) array.
template <class M, class T = typename M::Scalar>
xt::xarray<T> dist(const M& m, const xt::xarray<T>& x, const xt::xarray<T>& y) {
  static_assert(is_manifold_v<M>, "batch::dist needs a Manifold");
  using P = typename M::Point;
  detail::require_item_shape<P>("batch::dist", "first argument", x);
  detail::require_item_shape<P>("batch::dist", "second argument", y);
  detail::require_same_shape("batch::dist", x, y);
  const auto count = static_cast<std::ptrdiff_t>(x.shape()[0]);
  xt::xarray<T> out = xt::xarray<T>::from_shape({x.shape()[0]});
  parallel_for(count, [&](std::ptrdiff_t i) { out(i) = m.dist(detail::item<P>(x, i), detail::item<P>(y, i)); });
  return out;
}

/// transport(x[b], y[b], v[b]) for every b.
template <class M, class T = typename M::Scalar>
xt::xarray<T> transport(const M& m, const xt::xarray<T>& x, const xt::xarray<T>& y, const xt::xarray<T>& v) {
  static_assert(is_manifold_v<M>, "batch::transport needs a Manifold");
  using P = typename M::Point;
  using V = typename M::Tangent;
  detail::require_item_shape<P>("batch::transport", "first argument", x);
  detail::require_item_shape<P>("batch::transport", "second argument", y);
  detail::require_item_shape<V>("batch::transport", "third argument", v);
  detail::require_same_shape("batch::transport", x, y);
  detail::require_same_shape("batch::transport", x, v);
  xt::xarray<T> out(v.shape());
  const auto count = static_cast<std::ptrdiff_t>(x.shape()[0]);
  parallel_for(count, [&](std::ptrdiff_t i) {
    detail::store<V>(out, i, m.transport(detail::item<P>(x, i), detail::item<P>(y, i), detail::item<V>(v, i)));
  });
  return out;
}

}  // namespace gyre::batch
