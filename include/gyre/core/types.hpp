#pragma once
// Scalar-generic Eigen aliases used across Gyre.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <Eigen/Core>

namespace gyre {

template <class T>
using Vector = Eigen::Matrix<T, Eigen::Dynamic, 1>;
template <class T>
using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
template <class T>
using Vector2 = Eigen::Matrix<T, 2, 1>;
template <class T>
using Matrix2 = Eigen::Matrix<T, 2, 2>;
template <class T>
using Matrix3 = Eigen::Matrix<T, 3, 3>;

}  // namespace gyre
