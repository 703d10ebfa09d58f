#pragma once
// How AnyManifold wraps a concrete geometry: the virtual Concept and its models. A manifold's model
// is a thin adapter on the space's BatchSpace (geometry/batch_space.hpp): each manifold operation
// is the batched one on a single item, so AnyManifold, `gyre geom`, optimizers and network fibers
// run the same code; group, gyrogroup and self-check operations go to the geometry itself. Include
// this only where a space is registered (src/geometry/spaces/); users see any_manifold.hpp.

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gyre/check/finite_group_laws.hpp"
#include "gyre/check/gyrogroup_laws.hpp"
#include "gyre/check/lie_group_laws.hpp"
#include "gyre/check/manifold_laws.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/gyrogroup.hpp"
#include "gyre/core/manifold.hpp"
#include "gyre/core/validate.hpp"
#include "gyre/geometry/any_manifold.hpp"
#include "gyre/geometry/batch_space.hpp"

namespace gyre {

struct AnyManifold::Concept {
  virtual ~Concept() = default;
  virtual bool is_manifold() const = 0;
  virtual bool is_lie_group() const = 0;
  virtual bool is_finite_group() const = 0;
  virtual PointEncoding point_encoding() const = 0;
  virtual int dim() const = 0;
  /// The space's BatchSpace (nullptr for finite groups and groups without a metric).
  virtual std::shared_ptr<const BatchSpace<double>> batch_space() const { return nullptr; }
  virtual DynMatrix exp(const DynMatrix& x, const DynMatrix& v) const = 0;
  virtual DynMatrix log(const DynMatrix& x, const DynMatrix& y) const = 0;
  virtual DynMatrix transport(const DynMatrix& x, const DynMatrix& y, const DynMatrix& v) const = 0;
  virtual double inner(const DynMatrix& x, const DynMatrix& u, const DynMatrix& v) const = 0;
  virtual double norm(const DynMatrix& x, const DynMatrix& v) const = 0;
  virtual double dist(const DynMatrix& x, const DynMatrix& y) const = 0;
  virtual DynMatrix project(const DynMatrix& x, const DynMatrix& v) const = 0;
  virtual DynMatrix retract(const DynMatrix& x, const DynMatrix& v) const = 0;
  virtual DynMatrix egrad_to_rgrad(const DynMatrix& x, const DynMatrix& g) const = 0;
  virtual DynMatrix mean(const std::vector<DynMatrix>& points) const = 0;
  virtual DynMatrix random_point(Rng& rng) const = 0;
  virtual DynMatrix random_tangent(const DynMatrix& x, Rng& rng) const = 0;
  virtual void check_point(const DynMatrix& x) const = 0;
  virtual void check_tangent(const DynMatrix& x, const DynMatrix& v) const = 0;
  virtual DynMatrix identity() const = 0;
  virtual DynMatrix compose(const DynMatrix& g, const DynMatrix& h) const = 0;
  virtual DynMatrix inverse(const DynMatrix& g) const = 0;
  virtual DynMatrix act(const DynMatrix& g, const DynMatrix& p) const = 0;
  virtual DynMatrix algebra_exp(const DynMatrix& a) const = 0;
  virtual DynMatrix algebra_log(const DynMatrix& g) const = 0;
  virtual DynMatrix gyro_add(const DynMatrix& a, const DynMatrix& b) const = 0;
  virtual DynMatrix gyro_inverse(const DynMatrix& a) const = 0;
  virtual DynMatrix gyration(const DynMatrix& a, const DynMatrix& b, const DynMatrix& c) const = 0;
  virtual DynMatrix gyro_scale(double r, const DynMatrix& a) const = 0;
  virtual std::vector<std::pair<std::string, double>> self_check(std::size_t cases) const = 0;
};

namespace detail {

// A dynamic matrix as the Eigen type Object, with a ShapeError (not an Eigen assertion) when a
// fixed size does not match.
template <class Object>
Object from_dynamic(const std::string& function, const char* what, const Eigen::MatrixXd& m) {
  constexpr int rows = Object::RowsAtCompileTime;
  constexpr int cols = Object::ColsAtCompileTime;
  if ((rows != Eigen::Dynamic && m.rows() != rows) || (cols != Eigen::Dynamic && m.cols() != cols)) {
    throw ShapeError(
        function,
        std::string(what) + " must be " +
            shape_string(rows == Eigen::Dynamic ? m.rows() : rows, cols == Eigen::Dynamic ? m.cols() : cols),
        shape_string(m.rows(), m.cols()));
  }
  return m.template cast<typename Object::Scalar>();
}

inline std::vector<std::uint64_t> demo_seeds(std::size_t count) {
  std::vector<std::uint64_t> seeds(count);
  for (std::size_t i = 0; i < count; ++i) seeds[i] = 0x5eedULL + 7919 * i;
  return seeds;
}

inline void append(std::vector<std::pair<std::string, double>>& out, const check::LawReport& report) {
  for (const auto& entry : report.laws) out.emplace_back(entry.law, entry.worst);
  for (const auto& failure : report.failures)
    out.emplace_back("threw: " + failure, std::numeric_limits<double>::infinity());
}

}  // namespace detail

/// AnyManifold's model of a Manifold or LieGroup Space (double precision).
template <class Space>
class ManifoldModel final : public AnyManifold::Concept {
  static_assert(is_manifold_v<Space>, "ManifoldModel needs a Manifold");
  using Point = typename Space::Point;
  using Tangent = typename Space::Tangent;
  using DynMatrix = AnyManifold::DynMatrix;
  static constexpr bool kGroup = is_lie_group_v<Space>;
  static constexpr bool kGyro = is_gyrogroup_v<Space>;

 public:
  ManifoldModel(std::string name, Space space)
      : name_(std::move(name)),
        space_(std::move(space)),
        batch_(std::make_shared<const BatchSpaceOf<Space>>(space_, name_)) {}

  bool is_manifold() const override { return true; }
  bool is_lie_group() const override { return kGroup; }
  bool is_finite_group() const override { return false; }
  PointEncoding point_encoding() const override {
    return Point::ColsAtCompileTime == 1 ? PointEncoding::kVector : PointEncoding::kMatrix;
  }
  int dim() const override { return batch_->dim(); }
  std::shared_ptr<const BatchSpace<double>> batch_space() const override { return batch_; }

  DynMatrix exp(const DynMatrix& x, const DynMatrix& v) const override {
    return matrix(batch_->exp(item(x, "point"), item(v, "tangent vector")));
  }
  DynMatrix log(const DynMatrix& x, const DynMatrix& y) const override {
    return matrix(batch_->log(item(x, "point"), item(y, "point")));
  }
  DynMatrix transport(const DynMatrix& x, const DynMatrix& y, const DynMatrix& v) const override {
    return matrix(batch_->transport(item(x, "point"), item(y, "point"), item(v, "tangent vector")));
  }
  double inner(const DynMatrix& x, const DynMatrix& u, const DynMatrix& v) const override {
    return batch_->inner(item(x, "point"), item(u, "tangent vector"), item(v, "tangent vector"))();
  }
  double norm(const DynMatrix& x, const DynMatrix& v) const override {
    return batch_->norm(item(x, "point"), item(v, "tangent vector"))();
  }
  double dist(const DynMatrix& x, const DynMatrix& y) const override {
    return batch_->dist(item(x, "point"), item(y, "point"))();
  }
  DynMatrix project(const DynMatrix& x, const DynMatrix& v) const override {
    return matrix(batch_->project(item(x, "point"), item(v, "ambient vector")));
  }
  DynMatrix retract(const DynMatrix& x, const DynMatrix& v) const override {
    return matrix(batch_->retract(item(x, "point"), item(v, "tangent vector")));
  }
  DynMatrix egrad_to_rgrad(const DynMatrix& x, const DynMatrix& g) const override {
    return matrix(batch_->egrad_to_rgrad(item(x, "point"), item(g, "Euclidean gradient")));
  }
  DynMatrix mean(const std::vector<DynMatrix>& points) const override {
    std::vector<std::size_t> shape{points.size()};
    shape.insert(shape.end(), batch_->item_shape().begin(), batch_->item_shape().end());
    xt::xarray<double> stacked = xt::xarray<double>::from_shape(shape);
    const std::size_t size = item_rows() * item_cols();
    for (std::size_t i = 0; i < points.size(); ++i) {
      const xt::xarray<double> one = item(points[i], "point");
      std::copy(one.data(), one.data() + size, stacked.data() + i * size);
    }
    return matrix(batch_->mean(stacked, {}));
  }
  DynMatrix random_point(Rng& rng) const override { return matrix(batch_->random_points({}, rng)); }
  DynMatrix random_tangent(const DynMatrix& x, Rng& rng) const override {
    return matrix(batch_->random_tangents(item(x, "point"), rng));
  }
  void check_point(const DynMatrix& x) const override { batch_->check_points(item(x, "point")); }
  void check_tangent(const DynMatrix& x, const DynMatrix& v) const override {
    batch_->check_tangents(item(x, "point"), item(v, "tangent vector"));
  }

  DynMatrix identity() const override {
    if constexpr (kGroup)
      return space_.identity();
    else
      throw not_a_group("identity");
  }
  DynMatrix compose(const DynMatrix& g, const DynMatrix& h) const override {
    if constexpr (kGroup)
      return space_.compose(point(g), point(h));
    else
      throw not_a_group("compose");
  }
  DynMatrix inverse(const DynMatrix& g) const override {
    if constexpr (kGroup)
      return space_.inverse(point(g));
    else
      throw not_a_group("inverse");
  }
  DynMatrix act(const DynMatrix& g, const DynMatrix& p) const override {
    if constexpr (kGroup) {
      return space_.act(point(g), detail::from_dynamic<typename Space::ActedPoint>(name_ + "::act", "acted point", p));
    } else {
      throw not_a_group("act");
    }
  }
  DynMatrix algebra_exp(const DynMatrix& a) const override {
    if constexpr (kGroup) {
      return space_.algebra_exp(
          detail::from_dynamic<typename Space::Algebra>(name_ + "::algebra_exp", "algebra vector", a));
    } else {
      throw not_a_group("algebra_exp");
    }
  }
  DynMatrix algebra_log(const DynMatrix& g) const override {
    if constexpr (kGroup)
      return space_.algebra_log(point(g));
    else
      throw not_a_group("algebra_log");
  }

  DynMatrix gyro_add(const DynMatrix& a, const DynMatrix& b) const override {
    if constexpr (kGyro)
      return space_.gyro_add(point(a), point(b));
    else
      throw not_a_gyrogroup("gyro_add");
  }
  DynMatrix gyro_inverse(const DynMatrix& a) const override {
    if constexpr (kGyro)
      return space_.gyro_inverse(point(a));
    else
      throw not_a_gyrogroup("gyro_inverse");
  }
  DynMatrix gyration(const DynMatrix& a, const DynMatrix& b, const DynMatrix& c) const override {
    if constexpr (kGyro)
      return space_.gyration(point(a), point(b), point(c));
    else
      throw not_a_gyrogroup("gyration");
  }
  DynMatrix gyro_scale(double r, const DynMatrix& a) const override {
    if constexpr (kGyro)
      return space_.gyro_scale(static_cast<typename Space::Scalar>(r), point(a));
    else
      throw not_a_gyrogroup("gyro_scale");
  }

  std::vector<std::pair<std::string, double>> self_check(std::size_t cases) const override {
    std::vector<std::pair<std::string, double>> out;
    detail::append(out, check::manifold_laws(space_, detail::demo_seeds(cases)));
    if constexpr (kGroup) detail::append(out, check::lie_group_laws(space_, detail::demo_seeds(cases)));
    if constexpr (kGyro) detail::append(out, check::gyrogroup_laws(space_, detail::demo_seeds(cases)));
    return out;
  }

 private:
  Point point(const DynMatrix& m) const { return detail::from_dynamic<Point>(name_, "point", m); }
  std::size_t item_rows() const { return batch_->item_shape()[0]; }
  std::size_t item_cols() const { return batch_->item_shape().size() == 2 ? batch_->item_shape()[1] : 1; }
  // One point or vector as a BatchSpace item (ShapeError naming the space when it does not fit).
  xt::xarray<double> item(const DynMatrix& m, const char* what) const {
    const auto rows = static_cast<Eigen::Index>(item_rows());
    const auto cols = static_cast<Eigen::Index>(item_cols());
    if (m.rows() != rows || m.cols() != cols) {
      throw ShapeError(name_, std::string(what) + " must be " + shape_string(rows, cols),
                       shape_string(m.rows(), m.cols()));
    }
    xt::xarray<double> out = xt::xarray<double>::from_shape(batch_->item_shape());
    Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(out.data(), rows, cols) = m;
    return out;
  }
  DynMatrix matrix(const xt::xarray<double>& a) const {
    const auto rows = static_cast<Eigen::Index>(item_rows());
    const auto cols = static_cast<Eigen::Index>(item_cols());
    return Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(a.data(), rows,
                                                                                                    cols);
  }
  DomainError not_a_group(const char* op) const {
    return DomainError(name_ + "::" + op, "the space is not a group", name_);
  }
  DomainError not_a_gyrogroup(const char* op) const {
    return DomainError(name_ + "::" + op, "the space has no gyrogroup structure in Gyre", name_);
  }

  std::string name_;
  Space space_;
  std::shared_ptr<const BatchSpaceOf<Space>> batch_;
};

/// AnyManifold's model of a FiniteGroup whose elements convert to and from integer vectors
/// through group.to_integers(g) and group.from_integers(v) (which validates).
template <class Group>
class FiniteGroupModel final : public AnyManifold::Concept {
  static_assert(is_finite_group_v<Group>, "FiniteGroupModel needs a FiniteGroup");
  using DynMatrix = AnyManifold::DynMatrix;

 public:
  FiniteGroupModel(std::string name, Group group) : name_(std::move(name)), group_(std::move(group)) {}

  bool is_manifold() const override { return false; }
  bool is_lie_group() const override { return false; }
  bool is_finite_group() const override { return true; }
  PointEncoding point_encoding() const override {
    return group_.to_integers(group_.identity()).size() == 1 ? PointEncoding::kInteger : PointEncoding::kIntegerVector;
  }
  int dim() const override { return group_.order(); }

  DynMatrix exp(const DynMatrix&, const DynMatrix&) const override { throw not_a_manifold("exp"); }
  DynMatrix log(const DynMatrix&, const DynMatrix&) const override { throw not_a_manifold("log"); }
  DynMatrix transport(const DynMatrix&, const DynMatrix&, const DynMatrix&) const override {
    throw not_a_manifold("transport");
  }
  double inner(const DynMatrix&, const DynMatrix&, const DynMatrix&) const override { throw not_a_manifold("inner"); }
  double norm(const DynMatrix&, const DynMatrix&) const override { throw not_a_manifold("norm"); }
  double dist(const DynMatrix&, const DynMatrix&) const override { throw not_a_manifold("dist"); }
  DynMatrix project(const DynMatrix&, const DynMatrix&) const override { throw not_a_manifold("project"); }
  DynMatrix retract(const DynMatrix&, const DynMatrix&) const override { throw not_a_manifold("retract"); }
  DynMatrix egrad_to_rgrad(const DynMatrix&, const DynMatrix&) const override {
    throw not_a_manifold("egrad_to_rgrad");
  }
  DynMatrix mean(const std::vector<DynMatrix>&) const override { throw not_a_manifold("mean"); }
  DynMatrix random_point(Rng& rng) const override {
    const auto elements = group_.elements();
    return to_dynamic(elements[static_cast<std::size_t>(rng.uniform_int(0, static_cast<long>(elements.size()) - 1))]);
  }
  DynMatrix random_tangent(const DynMatrix&, Rng&) const override { throw not_a_manifold("random_tangent"); }
  void check_point(const DynMatrix& x) const override { (void)element(x); }
  void check_tangent(const DynMatrix&, const DynMatrix&) const override { throw not_a_manifold("check_tangent"); }

  DynMatrix identity() const override { return to_dynamic(group_.identity()); }
  DynMatrix compose(const DynMatrix& g, const DynMatrix& h) const override {
    return to_dynamic(group_.compose(element(g), element(h)));
  }
  DynMatrix inverse(const DynMatrix& g) const override { return to_dynamic(group_.inverse(element(g))); }
  DynMatrix act(const DynMatrix& g, const DynMatrix& p) const override {
    return group_.act(element(g), detail::from_dynamic<typename Group::ActedPoint>(name_ + "::act", "acted point", p));
  }
  DynMatrix algebra_exp(const DynMatrix&) const override { throw not_a_manifold("algebra_exp"); }
  DynMatrix algebra_log(const DynMatrix&) const override { throw not_a_manifold("algebra_log"); }
  DynMatrix gyro_add(const DynMatrix&, const DynMatrix&) const override { throw not_a_manifold("gyro_add"); }
  DynMatrix gyro_inverse(const DynMatrix&) const override { throw not_a_manifold("gyro_inverse"); }
  DynMatrix gyration(const DynMatrix&, const DynMatrix&, const DynMatrix&) const override {
    throw not_a_manifold("gyration");
  }
  DynMatrix gyro_scale(double, const DynMatrix&) const override { throw not_a_manifold("gyro_scale"); }

  std::vector<std::pair<std::string, double>> self_check(std::size_t cases) const override {
    std::vector<std::pair<std::string, double>> out;
    detail::append(out, check::finite_group_laws(group_, detail::demo_seeds(cases)));
    return out;
  }

 private:
  typename Group::Element element(const DynMatrix& m) const {
    for (Eigen::Index i = 0; i < m.size(); ++i) {
      if (m(i) != std::round(m(i))) throw DomainError(name_, "group elements are integers", m(i));
    }
    if (m.cols() != 1)
      throw ShapeError(name_, "a group element is an integer or a list of integers", shape_string(m.rows(), m.cols()));
    return group_.from_integers(m.cast<int>());
  }
  DynMatrix to_dynamic(const typename Group::Element& g) const { return group_.to_integers(g).template cast<double>(); }
  DomainError not_a_manifold(const char* op) const {
    return DomainError(name_ + "::" + op, "the space is a finite group, not a manifold", name_);
  }

  std::string name_;
  Group group_;
};

/// AnyManifold's model of a matrix group without a Riemannian metric in Gyre (GL⁺(n), SL(n),
/// SO⁺(1,3)): the group operations, the algebra and the action; manifold operations throw.
template <class Group>
class MatrixGroupModel final : public AnyManifold::Concept {
  static_assert(is_matrix_group_v<Group>, "MatrixGroupModel needs a matrix group");
  using DynMatrix = AnyManifold::DynMatrix;
  using Point = typename Group::Point;

 public:
  MatrixGroupModel(std::string name, Group group) : name_(std::move(name)), group_(std::move(group)) {}

  bool is_manifold() const override { return false; }
  bool is_lie_group() const override { return false; }
  bool is_finite_group() const override { return false; }
  PointEncoding point_encoding() const override { return PointEncoding::kMatrix; }
  int dim() const override { return group_.dim(); }

  DynMatrix exp(const DynMatrix&, const DynMatrix&) const override { throw no_metric("exp"); }
  DynMatrix log(const DynMatrix&, const DynMatrix&) const override { throw no_metric("log"); }
  DynMatrix transport(const DynMatrix&, const DynMatrix&, const DynMatrix&) const override {
    throw no_metric("transport");
  }
  double inner(const DynMatrix&, const DynMatrix&, const DynMatrix&) const override { throw no_metric("inner"); }
  double norm(const DynMatrix&, const DynMatrix&) const override { throw no_metric("norm"); }
  double dist(const DynMatrix&, const DynMatrix&) const override { throw no_metric("dist"); }
  DynMatrix project(const DynMatrix&, const DynMatrix&) const override { throw no_metric("project"); }
  DynMatrix retract(const DynMatrix&, const DynMatrix&) const override { throw no_metric("retract"); }
  DynMatrix egrad_to_rgrad(const DynMatrix&, const DynMatrix&) const override { throw no_metric("egrad_to_rgrad"); }
  DynMatrix mean(const std::vector<DynMatrix>&) const override { throw no_metric("mean"); }
  DynMatrix random_point(Rng& rng) const override { return group_.random_point(rng); }
  DynMatrix random_tangent(const DynMatrix&, Rng&) const override { throw no_metric("random_tangent"); }
  void check_point(const DynMatrix& x) const override { group_.check_point(point(x)); }
  void check_tangent(const DynMatrix&, const DynMatrix&) const override { throw no_metric("check_tangent"); }

  DynMatrix identity() const override { return group_.identity(); }
  DynMatrix compose(const DynMatrix& g, const DynMatrix& h) const override {
    return group_.compose(point(g), point(h));
  }
  DynMatrix inverse(const DynMatrix& g) const override { return group_.inverse(point(g)); }
  DynMatrix act(const DynMatrix& g, const DynMatrix& p) const override {
    return group_.act(point(g), detail::from_dynamic<typename Group::ActedPoint>(name_ + "::act", "acted point", p));
  }
  DynMatrix algebra_exp(const DynMatrix& a) const override {
    return group_.algebra_exp(
        detail::from_dynamic<typename Group::Algebra>(name_ + "::algebra_exp", "algebra vector", a));
  }
  DynMatrix algebra_log(const DynMatrix& g) const override { return group_.algebra_log(point(g)); }
  DynMatrix gyro_add(const DynMatrix&, const DynMatrix&) const override { throw no_metric("gyro_add"); }
  DynMatrix gyro_inverse(const DynMatrix&) const override { throw no_metric("gyro_inverse"); }
  DynMatrix gyration(const DynMatrix&, const DynMatrix&, const DynMatrix&) const override {
    throw no_metric("gyration");
  }
  DynMatrix gyro_scale(double, const DynMatrix&) const override { throw no_metric("gyro_scale"); }

  std::vector<std::pair<std::string, double>> self_check(std::size_t cases) const override {
    std::vector<std::pair<std::string, double>> out;
    check::LieGroupLawOptions options;
    options.max_algebra_norm = 1.0;  // inside the principal domain of every group here
    detail::append(out, check::lie_group_laws(group_, detail::demo_seeds(cases), options));
    return out;
  }

 private:
  Point point(const DynMatrix& m) const { return detail::from_dynamic<Point>(name_, "matrix", m); }
  DomainError no_metric(const char* op) const {
    return DomainError(name_ + "::" + op, "the space is a matrix group without a Riemannian metric in Gyre", name_);
  }

  std::string name_;
  Group group_;
};

}  // namespace gyre
