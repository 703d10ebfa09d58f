// BatchSpace, the one type-erased batched geometry: every operation on (B, C, item…) arrays equals
// the one-item function on each item (the generic route runs the same one-item code, so equality is
// to the last bit; the SPD and Grassmann fast paths take another route and are held to rounding),
// and errors name the bad item (the registry's spaces on it: tests/tools/registry_batch_space_test.cpp).
#include "gyre/geometry/batch_space.hpp"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "grassmann/grassmann.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/geometry/frechet_mean.hpp"
#include "hyperboloid/hyperboloid.hpp"
#include "so/so.hpp"
#include "spd/spd.hpp"
#include "sphere/sphere.hpp"
#include "stiefel/stiefel.hpp"
#include "support/test_support.hpp"

namespace {

template <class Object>
using RowMajorOf = std::conditional_t<
    Object::ColsAtCompileTime == 1, Object,
    Eigen::Matrix<typename Object::Scalar, Object::RowsAtCompileTime, Object::ColsAtCompileTime, Eigen::RowMajor>>;

// Item i of a BatchSpace array, as the geometry's own type.
template <class Object, class T>
Object item_of(const xt::xarray<T>& a, std::size_t i, Eigen::Index rows, Eigen::Index cols) {
  return Eigen::Map<const RowMajorOf<Object>>(a.data() + i * static_cast<std::size_t>(rows * cols), rows, cols);
}

template <class Object, class T>
void put_item(xt::xarray<T>& a, std::size_t i, const Object& value) {
  Eigen::Map<RowMajorOf<Object>>(a.data() + i * static_cast<std::size_t>(value.size()), value.rows(), value.cols()) =
      value;
}

template <class Object>
double gap(const Object& a, const Object& b) {
  return static_cast<double>((a - b).norm()) / std::max(1.0, static_cast<double>(b.norm()));
}

// Every operation of `space` on a (2, 3, item…) batch against M's one-item functions; `budget` is
// the relative gap allowed (0 where the batch runs the one-item code itself).
template <class M>
void check_against_items(const M& m, const std::string& name, double budget) {
  using T = typename M::Scalar;
  using P = typename M::Point;
  using V = typename M::Tangent;
  const auto space = gyre::make_batch_space(m, name);
  const std::vector<std::size_t> leading{2, 3};
  const std::size_t count = 6;
  for (const std::uint64_t seed : gyre::test::seeds(4)) {
    gyre::Rng rng(seed);
    const xt::xarray<T> x = space->random_points(leading, rng);
    REQUIRE(x.dimension() == 2 + space->item_shape().size());
    const auto rows = static_cast<Eigen::Index>(space->item_shape()[0]);
    const auto cols = space->item_shape().size() == 2 ? static_cast<Eigen::Index>(space->item_shape()[1]) : 1;
    xt::xarray<T> v = xt::xarray<T>::from_shape(x.shape());
    xt::xarray<T> w = xt::xarray<T>::from_shape(x.shape());
    for (std::size_t i = 0; i < count; ++i) {
      const P xi = item_of<P>(x, i, rows, cols);
      // Short steps keep exp and log inside every space's injectivity radius.
      put_item<V>(v, i, V(T(0.3) * m.random_tangent(xi, rng)));
      put_item<V>(w, i, V(m.random_tangent(xi, rng)));
    }
    const xt::xarray<T> near = space->exp(x, v);
    const xt::xarray<T> logs = space->log(x, near);
    const xt::xarray<T> retracted = space->retract(x, v);
    const xt::xarray<T> moved = space->transport(x, near, w);
    const xt::xarray<T> projected = space->project(x, w);
    const xt::xarray<T> rgrad = space->egrad_to_rgrad(x, w);
    const xt::xarray<T> inner = space->inner(x, v, w);
    const xt::xarray<T> norms = space->norm(x, w);
    const xt::xarray<T> dists = space->dist(x, near);  // within every space's injectivity radius
    CHECK(inner.shape() == std::vector<std::size_t>(leading.begin(), leading.end()));
    CHECK(dists.shape() == inner.shape());
    for (std::size_t i = 0; i < count; ++i) {
      CAPTURE(i);
      const P xi = item_of<P>(x, i, rows, cols);
      const V vi = item_of<V>(v, i, rows, cols);
      const V wi = item_of<V>(w, i, rows, cols);
      const P near_i = m.exp(xi, vi);
      CHECK(gap<P>(item_of<P>(near, i, rows, cols), near_i) <= budget);
      CHECK(gap<V>(item_of<V>(logs, i, rows, cols), m.log(xi, item_of<P>(near, i, rows, cols))) <= budget);
      CHECK(gap<P>(item_of<P>(retracted, i, rows, cols), m.retract(xi, vi)) <= budget);
      CHECK(gap<V>(item_of<V>(moved, i, rows, cols), m.transport(xi, item_of<P>(near, i, rows, cols), wi)) <= budget);
      CHECK(gap<V>(item_of<V>(projected, i, rows, cols), m.project(xi, wi)) <= budget);
      CHECK(gap<V>(item_of<V>(rgrad, i, rows, cols), m.egrad_to_rgrad(xi, wi)) <= budget);
      CHECK(std::abs(static_cast<double>(inner.data()[i] - m.inner(xi, vi, wi))) <=
            budget * std::max(1.0, std::abs(static_cast<double>(inner.data()[i]))));
      CHECK(std::abs(static_cast<double>(norms.data()[i] - m.norm(xi, wi))) <=
            budget * std::max(1.0, static_cast<double>(norms.data()[i])));
      CHECK(std::abs(static_cast<double>(dists.data()[i] - m.dist(xi, item_of<P>(near, i, rows, cols)))) <=
            budget * std::max(1.0, static_cast<double>(dists.data()[i])));
    }
    CHECK_NOTHROW(space->check_points(x));
    CHECK_NOTHROW(space->check_tangents(x, v));
    const xt::xarray<T> tangents = space->random_tangents(x, rng);
    CHECK_NOTHROW(space->check_tangents(x, tangents));

    // The mean of six points near one is the Fréchet mean of the one-item route (a closed form where
    // the geometry has one), to the Karcher iteration's stopping tolerance.
    const P center = item_of<P>(x, 0, rows, cols);
    xt::xarray<T> cluster = xt::xarray<T>::from_shape(x.shape());
    std::vector<P> items;
    for (std::size_t i = 0; i < count; ++i) {
      items.push_back(m.exp(center, V(T(0.3) * m.random_tangent(center, rng))));
      put_item<P>(cluster, i, items.back());
    }
    const xt::xarray<T> mean = space->mean(cluster, {});
    CHECK(mean.shape() == space->item_shape());
    CHECK(gap<P>(item_of<P>(mean, 0, rows, cols), gyre::frechet_mean(m, items).point) <=
          std::max(budget, static_cast<double>(gyre::test::tol<T>(1e-10, 1e-4f))));
  }
}

TEST_CASE("BatchSpace runs every manifold operation on any leading axes, item for item") {
  // The generic route runs the one-item functions on copies of the items: equal to the last bit.
  check_against_items(gyre::Sphere<double>(3), "S^3", 0.0);
  check_against_items(gyre::Hyperboloid<double>(2), "H^2", 0.0);
  check_against_items(gyre::SO<double>(3), "SO(3)", 0.0);
  check_against_items(gyre::Stiefel<double>(5, 2), "St(5, 2)", 0.0);
  check_against_items(gyre::SpdLogEuclidean<double>(3), "SPD(3, LE)", 0.0);
  check_against_items(gyre::Sphere<float>(2), "S^2", 0.0);
  // The fast paths (whitened batched Jacobi for SPD-AIM exp/log/dist, the Gram eigendecomposition for
  // the Grassmann log) against the one-item eigendecompositions: rounding of well-conditioned
  // problems, n·ε·cond with cond ≤ e² for random_spd.
#if GYRE_HAS_BATCHED_FAST_PATHS
  const double fast_budget = 1e-12;
#else
  const double fast_budget = 0.0;
#endif
  check_against_items(gyre::SpdAffineInvariant<double>(3), "SPD(3)", fast_budget);
  check_against_items(gyre::Grassmann<double>(5, 2), "Gr(5, 2)", fast_budget);
  check_against_items(gyre::SpdAffineInvariant<float>(3), "SPD(3)", 2e-5);
}

TEST_CASE("BatchSpace errors name the operation, the item and the value") {
  const auto space = gyre::make_batch_space(gyre::Sphere<double>(2), "S^2");
  gyre::Rng rng(gyre::test::seeds(1)[0]);
  xt::xarray<double> x = space->random_points({2, 3}, rng);
  const xt::xarray<double> y = space->random_points({2, 3}, rng);
  // Item 4 (row 1, column 1) off the sphere.
  x(1, 1, 0) = 2;
  CHECK_THROWS_WITH_AS((void)space->log(x, y), doctest::Contains("in item 4"), gyre::DomainError);
  CHECK_THROWS_WITH_AS(space->check_points(x), doctest::Contains("in item 4"), gyre::DomainError);
  x(1, 1, 0) = std::nan("");
  CHECK_THROWS_WITH_AS((void)space->dist(x, y), doctest::Contains("in item 4"), gyre::DomainError);
  // Shapes: a wrong item shape, unequal leading axes, an empty batch.
  const xt::xarray<double> wrong = xt::zeros<double>({2, 4});
  CHECK_THROWS_WITH_AS(space->check_points(wrong), doctest::Contains("item shape of S^2"), gyre::ShapeError);
  const xt::xarray<double> fewer = space->random_points({2}, rng);
  CHECK_THROWS_AS((void)space->dist(y, fewer), gyre::ShapeError);
  const xt::xarray<double> none = space->random_points({0}, rng);
  CHECK(space->dist(none, none).size() == 0);
  CHECK_THROWS_WITH_AS((void)space->mean(none, {}), doctest::Contains("at least one point"), gyre::Error);
  // Huge and tiny tangent vectors: exp stays on the sphere or says why, never a silent NaN.
  const xt::xarray<double> p = space->random_points({}, rng);
  for (const double scale : {1e300, 1e-300}) {
    CAPTURE(scale);
    xt::xarray<double> v = space->random_tangents(p, rng) * scale;
    try {
      const xt::xarray<double> q = space->exp(p, v);
      CHECK_NOTHROW(space->check_points(q));
    } catch (const gyre::DomainError& e) {
      CHECK(std::string(e.what()).find("Sphere") != std::string::npos);
    }
  }
}

}  // namespace
