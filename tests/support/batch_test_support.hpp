#pragma once
// Packing one-item Eigen matrices into (B, rows, cols) xtensor batches and back, for the tests of
// the batched fast paths.
#include <cstddef>
#include <vector>

#include <xtensor/xarray.hpp>

#include "gyre/core/types.hpp"

namespace gyre::test {

template <class T>
using RowMajorMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

template <class T>
xt::xarray<T> pack(const std::vector<Matrix<T>>& items) {
  const auto rows = static_cast<std::size_t>(items.front().rows());
  const auto cols = static_cast<std::size_t>(items.front().cols());
  xt::xarray<T> out = xt::xarray<T>::from_shape({items.size(), rows, cols});
  for (std::size_t b = 0; b < items.size(); ++b) {
    Eigen::Map<RowMajorMatrix<T>>(out.data() + b * rows * cols, items[b].rows(), items[b].cols()) = items[b];
  }
  return out;
}

template <class T>
Matrix<T> unpack(const xt::xarray<T>& batch, std::size_t b) {
  const auto rows = static_cast<Eigen::Index>(batch.shape()[1]);
  const auto cols = static_cast<Eigen::Index>(batch.shape()[2]);
  return Eigen::Map<const RowMajorMatrix<T>>(batch.data() + b * static_cast<std::size_t>(rows * cols), rows, cols);
}

}  // namespace gyre::test
