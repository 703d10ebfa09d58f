#pragma once
// Small-matrix kernels (GrNet's 12×4 items, Stiefel bases with a handful of columns) run several
// times faster when the number of columns is a compile-time constant: a row fits one vector
// register and the inner loops unroll. with_static_width turns a run-time width into that
// constant for the common small widths, and into 0 ("use the run-time width") otherwise.

#include <type_traits>

namespace gyre {

/// The largest width with_static_width turns into a compile-time constant.
inline constexpr int kMaxStaticWidth = 8;

/// Calls body(std::integral_constant<int, P>{}) with P = p for 1 ≤ p ≤ kMaxStaticWidth, and with
/// P = 0 otherwise: the body then reads the width from its run-time argument.
template <class Body>
decltype(auto) with_static_width(int p, Body&& body) {
  switch (p) {
    case 1:
      return body(std::integral_constant<int, 1>{});
    case 2:
      return body(std::integral_constant<int, 2>{});
    case 3:
      return body(std::integral_constant<int, 3>{});
    case 4:
      return body(std::integral_constant<int, 4>{});
    case 5:
      return body(std::integral_constant<int, 5>{});
    case 6:
      return body(std::integral_constant<int, 6>{});
    case 7:
      return body(std::integral_constant<int, 7>{});
    case 8:
      return body(std::integral_constant<int, 8>{});
    default:
      return body(std::integral_constant<int, 0>{});
  }
}

}  // namespace gyre
