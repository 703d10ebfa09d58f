#pragma once
// AnyManifold: a space chosen by name at run time (`gyre geom`, `gyre selfcheck`, notebooks), one
// point at a time. Points, tangents and group elements travel as dynamic double matrices (vectors
// as n×1). For a manifold it is a thin adapter on the space's BatchSpace (batch_space()), which is
// what runs every manifold operation; group and gyrogroup operations go to the geometry itself.
// The registry below is the one table of spaces: a row names a space, its parameters, the families
// `gyre selfcheck` runs, and how to build it.
//
// Finite groups (C_N, D_N) fit the same wrapper: their elements travel as integer-valued n×1
// matrices (C_N: [k]; D_N: [f, k]); the manifold operations throw DomainError for them.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "gyre/core/rng.hpp"

namespace gyre {

template <class T>
class BatchSpace;

/// How a space's points (or group elements) are written: as vectors, matrices or integers.
enum class PointEncoding { kVector, kMatrix, kInteger, kIntegerVector };

/// The parameters of a space, by name: numbers ({"n": 3}, {"kappa": -1}), words
/// ({"metric": "log_cholesky"}) and matrices ({"M": …} for the generalized Bures–Wasserstein metric).
struct SpaceParams {
  std::map<std::string, double> numbers;
  std::map<std::string, std::string> words;
  std::map<std::string, Eigen::MatrixXd> matrices;

  SpaceParams() = default;
  /// Numbers only, as in {{"n", 3}}.
  SpaceParams(std::initializer_list<std::pair<const std::string, double>> numeric) : numbers(numeric) {}
};

/// A geometry chosen at run time; see the header comment.
class AnyManifold {
 public:
  using DynMatrix = Eigen::MatrixXd;

  struct Concept;  // implemented in any_manifold_model.hpp

  explicit AnyManifold(std::string name, std::shared_ptr<const Concept> model);

  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] bool is_manifold() const;
  [[nodiscard]] bool is_lie_group() const;
  [[nodiscard]] bool is_finite_group() const;
  [[nodiscard]] PointEncoding point_encoding() const;
  /// The dimension: of the manifold, or the order of a finite group.
  [[nodiscard]] int dim() const;
  /// The BatchSpace behind a manifold's operations (DomainError for finite groups and matrix groups
  /// without a metric): the same space for whole arrays of points, e.g. for a Parameter.
  [[nodiscard]] std::shared_ptr<const BatchSpace<double>> batch_space() const;

  // Manifold operations (DomainError for finite groups).
  [[nodiscard]] DynMatrix exp(const DynMatrix& x, const DynMatrix& v) const;
  [[nodiscard]] DynMatrix log(const DynMatrix& x, const DynMatrix& y) const;
  [[nodiscard]] DynMatrix transport(const DynMatrix& x, const DynMatrix& y, const DynMatrix& v) const;
  [[nodiscard]] double inner(const DynMatrix& x, const DynMatrix& u, const DynMatrix& v) const;
  [[nodiscard]] double norm(const DynMatrix& x, const DynMatrix& v) const;
  [[nodiscard]] double dist(const DynMatrix& x, const DynMatrix& y) const;
  [[nodiscard]] DynMatrix project(const DynMatrix& x, const DynMatrix& v) const;
  [[nodiscard]] DynMatrix retract(const DynMatrix& x, const DynMatrix& v) const;
  /// The Riemannian gradient at x from the Euclidean gradient g (core/manifold.hpp).
  [[nodiscard]] DynMatrix egrad_to_rgrad(const DynMatrix& x, const DynMatrix& g) const;
  [[nodiscard]] DynMatrix mean(const std::vector<DynMatrix>& points) const;
  [[nodiscard]] DynMatrix random_point(Rng& rng) const;
  [[nodiscard]] DynMatrix random_tangent(const DynMatrix& x, Rng& rng) const;
  /// Validates a point (or a finite group's element); throws the geometry's error.
  void check_point(const DynMatrix& x) const;
  void check_tangent(const DynMatrix& x, const DynMatrix& v) const;

  // Group operations (DomainError for spaces that are not groups).
  [[nodiscard]] DynMatrix identity() const;
  [[nodiscard]] DynMatrix compose(const DynMatrix& g, const DynMatrix& h) const;
  [[nodiscard]] DynMatrix inverse(const DynMatrix& g) const;
  /// g acting on a point p of ℝⁿ (a vector).
  [[nodiscard]] DynMatrix act(const DynMatrix& g, const DynMatrix& p) const;
  /// Lie groups only: Lie algebra coordinates → element, and back (principal branch).
  [[nodiscard]] DynMatrix algebra_exp(const DynMatrix& a) const;
  [[nodiscard]] DynMatrix algebra_log(const DynMatrix& g) const;

  // Gyrogroup operations (DomainError for spaces without a gyro structure in Gyre).
  [[nodiscard]] DynMatrix gyro_add(const DynMatrix& a, const DynMatrix& b) const;
  [[nodiscard]] DynMatrix gyro_inverse(const DynMatrix& a) const;
  /// gyr[a, b]c.
  [[nodiscard]] DynMatrix gyration(const DynMatrix& a, const DynMatrix& b, const DynMatrix& c) const;
  /// r ⊗ a.
  [[nodiscard]] DynMatrix gyro_scale(double r, const DynMatrix& a) const;

  /// The law residuals this space's self-check reports (`gyre selfcheck`): the manifold laws and, where
  /// the space has the structure, the Lie group and gyrogroup laws, as law → worst residual.
  [[nodiscard]] std::vector<std::pair<std::string, double>> self_check(std::size_t cases) const;

 private:
  std::string name_;
  std::shared_ptr<const Concept> self_;
};

/// The space registered under name (see `registered_spaces`), built from its parameters.
/// Unknown names and missing or invalid parameters throw DomainError.
[[nodiscard]] AnyManifold make_space(const std::string& name, const SpaceParams& params);

/// The BatchSpace<double> of the registered manifold `name` (make_space(name, params).batch_space()).
[[nodiscard]] std::shared_ptr<const BatchSpace<double>> make_batch_space(const std::string& name,
                                                                         const SpaceParams& params);

/// One registered space: its name, what its parameters mean, the parameter families
/// `gyre selfcheck` checks (one per structure the parameters select — each SPD metric and
/// deformation, each sign of κ, … — the first being the default example), and its factory.
struct SpaceInfo {
  std::string name;
  std::string description;
  std::vector<std::string> parameter_names;
  std::vector<SpaceParams> families;
  /// Builds the space from its parameters (DomainError for missing or invalid ones).
  std::function<AnyManifold(const SpaceParams&)> make;
};

/// Every space `make_space` knows, in a stable order (src/geometry/spaces/registered_spaces.inc).
[[nodiscard]] const std::vector<SpaceInfo>& registered_spaces();

}  // namespace gyre
