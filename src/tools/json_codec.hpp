#pragma once
// JSON ↔ Eigen for the gyre command: numbers, flat arrays (vectors) and nested row-major arrays
// (matrices) in, the same out, shaped by the space's PointEncoding.

#include <functional>
#include <stdexcept>
#include <string>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "gyre/geometry/any_manifold.hpp"

namespace gyre::tools {

/// A request that is not well formed (not an object, a missing field, a non-numeric entry).
class RequestError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Runs `body` and returns its result; a Gyre error, a malformed request or any other exception
/// becomes the error reply {"error": {"type": "DomainError" | "ShapeError" | …, "message": …}}.
/// Never throws: the JSON-lines commands answer every line.
[[nodiscard]] nlohmann::json reply_or_error(const std::function<nlohmann::json()>& body);

/// A number as 1×1, a flat array as n×1, a list of equally long rows as r×c; else RequestError
/// (or ShapeError for ragged rows).
[[nodiscard]] Eigen::MatrixXd decode_matrix(const nlohmann::json& value, const std::string& what);

/// A point, tangent or element written as the space writes it: a flat array, nested rows, an
/// integer, or a flat integer array.
[[nodiscard]] nlohmann::json encode_point(const Eigen::MatrixXd& value, PointEncoding encoding);

/// A vector (n×1) as a flat array.
[[nodiscard]] nlohmann::json encode_vector(const Eigen::MatrixXd& value);

/// A matrix as a list of its rows, each a flat array (any shape, including 1 × n and n × 1).
[[nodiscard]] nlohmann::json encode_rows(const Eigen::MatrixXd& value);

/// A scalar; +∞ and −∞ (dist between components) are written as the strings "inf" and "-inf",
/// since JSON has no infinities.
[[nodiscard]] nlohmann::json encode_scalar(double value);

}  // namespace gyre::tools
