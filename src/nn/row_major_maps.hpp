#pragma once
// Views of one item of a row-major (…, rows, cols) buffer as an Eigen matrix, for the layers that
// loop over batch items (BiMap, the Grassmann layers).

#include <Eigen/Core>

namespace gyre::nn::detail {

template <class T>
using RowMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using ConstMap = Eigen::Map<const RowMatrix<T>>;
template <class T>
using MutableMap = Eigen::Map<RowMatrix<T>>;

}  // namespace gyre::nn::detail
