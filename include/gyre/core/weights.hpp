#pragma once
// The one validation of the weights of a weighted mean or variance (Fréchet means of every
// geometry, the SPD closed-form means, Fréchet variances), so that all answer bad weights alike.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "gyre/core/error.hpp"

namespace gyre {

/// Checks the weights of `count` points and returns their sum; empty weights become `fill` each.
/// ShapeError for no points or a count that does not match; DomainError for a weight that is
/// negative or not finite, and for weights that are all 0. Weights whose sum overflows are
/// rescaled in place (callers use only their ratios).
template <class T>
T checked_weights(const char* function, std::vector<T>& weights, std::size_t count, T fill) {
  if (count == 0) throw ShapeError(function, "needs at least one point", 0);
  if (weights.empty()) weights.assign(count, fill);
  if (weights.size() != count) {
    throw ShapeError(function, "needs one weight per point",
                     std::to_string(weights.size()) + " weights, " + std::to_string(count) + " points");
  }
  T total = 0;
  for (const T w : weights) {
    if (!(w >= 0) || !std::isfinite(w)) throw DomainError(function, "weights must be finite and ≥ 0", w);
    total += w;
  }
  if (!(total > 0)) throw DomainError(function, "weights must not all be 0", total);
  if (std::isinf(total)) {
    // Finite weights whose sum overflows (1e308 each): only ratios matter to every caller, so
    // divide them by the largest, exactly as far as a power of two goes.
    T largest = 0;
    for (const T w : weights) largest = std::max(largest, w);
    const T scale = std::ldexp(T(1), -std::ilogb(largest));
    total = 0;
    for (T& w : weights) total += (w *= scale);
  }
  return total;
}

}  // namespace gyre
