#pragma once
// What the batched linalg kernels share: row-major views of (B, …) items, shapes and item names
// for messages, and the product that suits a small matrix.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>

#include <Eigen/Core>
#include <xtensor/xarray.hpp>

namespace gyre::linalg::detail {

template <class T>
using RowMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using ConstItem = Eigen::Map<const RowMajor<T>>;
template <class T>
using Item = Eigen::Map<RowMajor<T>>;

// Up to this many rows the coefficient-wise (lazy) product beats Eigen's blocked GEMM, whose
// packing costs more than the arithmetic of a small matrix (as in spd_affine_invariant_batch.cpp).
inline constexpr int kMaxLazyRows = 16;

/// a·b into a Work matrix, lazily for small a.
template <class Work, class A, class B>
Work multiply(const A& a, const B& b) {
  if (a.rows() <= kMaxLazyRows) return a.lazyProduct(b);
  return a * b;
}

/// The exponent e that brings a's largest |entry| into [1, 2) when a is scaled by 2⁻ᵉ (0 for an
/// empty, zero or non-finite a). Power-of-two scaling is exact; it keeps the squares that Jacobi's
/// stopping test and Householder's column norms form from overflowing beyond about 1e154 (1e19 in
/// float) or underflowing below the inverse, where both silently return wrong factors.
template <class Derived>
int scale_exponent(const Eigen::MatrixBase<Derived>& a) {
  if (a.size() == 0) return 0;
  const auto largest = a.cwiseAbs().maxCoeff();
  return (largest > 0 && std::isfinite(largest)) ? std::ilogb(largest) : 0;
}

/// a·2ᵉ, exactly (as long as no entry leaves the normal range). Two multiplications by powers of
/// two that are themselves normal numbers (2ᵉ alone is not, for the e of a subnormal item), which
/// vectorise where a scalbn per entry did not (it was a fifth of GrNet's re-orthonormalisation).
template <class Derived>
auto times_power_of_two(const Eigen::MatrixBase<Derived>& a, int e) {
  using Scalar = typename Derived::Scalar;
  constexpr int kLargest = std::numeric_limits<Scalar>::max_exponent - 2;
  const int first = std::clamp(e, -kLargest, kLargest);
  return (a * std::ldexp(Scalar(1), first)) * std::ldexp(Scalar(1), e - first);
}

/// "(B, n, p)" for messages.
template <class T>
std::string shape_string(const xt::xarray<T>& a) {
  std::string shape = "(";
  for (std::size_t k = 0; k < a.dimension(); ++k) shape += (k ? ", " : "") + std::to_string(a.shape()[k]);
  return shape + ")";
}

/// "item i" for messages.
inline std::string item_string(std::ptrdiff_t i) { return "item " + std::to_string(i); }

/// Item i of a batch of r×c matrices.
template <class T>
ConstItem<T> item(const xt::xarray<T>& a, std::ptrdiff_t i, int r, int c) {
  return ConstItem<T>(
      a.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(r) * static_cast<std::size_t>(c), r, c);
}
template <class T>
Item<T> item(xt::xarray<T>& a, std::ptrdiff_t i, int r, int c) {
  return Item<T>(a.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(r) * static_cast<std::size_t>(c), r,
                 c);
}

}  // namespace gyre::linalg::detail
