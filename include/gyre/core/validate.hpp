#pragma once
// Shared validation helpers: the geometries' check_point / check_tangent are built from these so
// that every message about shapes, NaN and tolerances reads the same way.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <cmath>
#include <limits>
#include <string>

#include <Eigen/Core>

#include "gyre/core/checks.hpp"
#include "gyre/core/error.hpp"

namespace gyre {

/// How far a point may sit from its manifold (or a vector from its tangent space), relative to
/// its scale, and still be accepted: √ε (1.5e-8 in double, 3.5e-4 in float). Loose enough for
/// results of long float computations, tight enough to reject anything that is not on the space.
template <class T>
[[nodiscard]] T membership_tolerance() {
  return std::sqrt(std::numeric_limits<T>::epsilon());
}

/// "r×c" for messages.
inline std::string shape_string(Eigen::Index rows, Eigen::Index cols) {
  return std::to_string(rows) + "×" + std::to_string(cols);
}

/// Throws ShapeError unless m is rows×cols.
template <class Derived>
void require_shape(const char* function, const char* what, const Eigen::MatrixBase<Derived>& m, Eigen::Index rows,
                   Eigen::Index cols) {
  if (m.rows() != rows || m.cols() != cols) {
    throw ShapeError(function, std::string(what) + " must be " + shape_string(rows, cols),
                     shape_string(m.rows(), m.cols()));
  }
}

/// Throws ShapeError unless v is a vector of the given length.
template <class Derived>
void require_size(const char* function, const char* what, const Eigen::MatrixBase<Derived>& v, Eigen::Index size) {
  if (v.cols() != 1 || v.rows() != size) {
    throw ShapeError(function, std::string(what) + " must be a vector of length " + std::to_string(size),
                     shape_string(v.rows(), v.cols()));
  }
}

/// Throws DomainError naming the first NaN or Inf entry.
template <class Derived>
void require_finite(const char* function, const char* what, const Eigen::MatrixBase<Derived>& m) {
  for (Eigen::Index j = 0; j < m.cols(); ++j) {
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
      if (!std::isfinite(m(i, j))) {
        throw DomainError(
            function,
            std::string(what) + " has a non-finite entry at (" + std::to_string(i) + ", " + std::to_string(j) + ")",
            m(i, j));
      }
    }
  }
}

/// Throws DomainError unless residual ≤ tolerance; written so that a NaN residual fails too.
template <class T>
void require_small(const char* function, const std::string& condition, T residual, T tolerance) {
  if (!(residual <= tolerance)) throw DomainError(function, condition, residual);
}

}  // namespace gyre
