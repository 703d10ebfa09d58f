#pragma once
// Reading a space's parameters for make_space, with the same DomainError wording everywhere, and
// wrapping a geometry into an AnyManifold. Private to the library (src/geometry).

#include <memory>
#include <string>
#include <utility>

#include "gyre/geometry/any_manifold.hpp"
#include "gyre/geometry/any_manifold_model.hpp"

namespace gyre::detail {

/// An integer parameter: present, integral, and in [minimum, 10⁶].
[[nodiscard]] int integer_param(const std::string& space, const SpaceParams& params, const std::string& key,
                                int minimum);
/// A finite number, or `fallback` when absent.
[[nodiscard]] double number_param(const std::string& space, const SpaceParams& params, const std::string& key,
                                  double fallback);
/// A word, or `fallback` when absent.
[[nodiscard]] std::string word_param(const SpaceParams& params, const std::string& key, const std::string& fallback);
/// A matrix (DomainError naming the space when absent).
[[nodiscard]] const Eigen::MatrixXd& matrix_param(const std::string& space, const SpaceParams& params,
                                                  const std::string& key);

template <class Space>
AnyManifold wrap_manifold(const std::string& name, Space space) {
  return AnyManifold(name, std::make_shared<ManifoldModel<Space>>(name, std::move(space)));
}

// One factory per family of spaces, each in its own translation unit (src/geometry/spaces/):
// instantiating AnyManifold's model for many geometries in one file makes it the slowest
// compile of the project.
[[nodiscard]] AnyManifold make_spd_space(const std::string& name, const SpaceParams& params);
/// `stereographic` (n, kappa), `hyperboloid` (n) and `correlation` (n).
[[nodiscard]] AnyManifold make_constant_curvature_space(const std::string& name, const SpaceParams& params);
/// `grassmann` (n, p).
[[nodiscard]] AnyManifold make_grassmann_space(const std::string& name, const SpaceParams& params);
/// `stiefel` (n, p).
[[nodiscard]] AnyManifold make_stiefel_space(const std::string& name, const SpaceParams& params);
/// `glp`, `sl` (n, scale) and `lorentz` (max_rapidity).
[[nodiscard]] AnyManifold make_matrix_group_space(const std::string& name, const SpaceParams& params);

}  // namespace gyre::detail
