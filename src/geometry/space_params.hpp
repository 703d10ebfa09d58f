#pragma once
// Reading a space's parameters for make_space, with the same DomainError wording everywhere, and
// wrapping a geometry into an AnyManifold: what the rows of src/geometry/spaces/ use. Private to the
// library (src/geometry).

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

template <class Group>
AnyManifold wrap_finite_group(const std::string& name, Group group) {
  return AnyManifold(name, std::make_shared<FiniteGroupModel<Group>>(name, std::move(group)));
}

template <class Group>
AnyManifold wrap_matrix_group(const std::string& name, Group group) {
  return AnyManifold(name, std::make_shared<MatrixGroupModel<Group>>(name, std::move(group)));
}

}  // namespace gyre::detail
