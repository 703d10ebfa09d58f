#pragma once
// A high-order central difference for checking backward passes whose functions are badly scaled
// (eigenvalues spread over eight decades, columns over six): evaluated in long double, with a
// step that makes the perturbed inputs exact.

#include <cmath>

namespace gyre::test {

/// The largest power of two ≤ x (x > 0). With such a step h, x ± k·h (k ≤ 3) needs no more bits than
/// x and h together, so a perturbed entry is exact in long double (64 bits) for every entry of a
/// double matrix that is not far below h·2⁻¹⁰ in magnitude: the direction is exactly the one meant.
inline long double power_of_two_step(double x) { return std::ldexp(1.0L, std::ilogb(x)); }

/// d/dt L(t) at t = 0 by the seven-point central difference: truncation h⁶·|L⁽⁷⁾|/140, rounding
/// about 1.7·|L|·ε_L/h, so h can be 10⁻² of the scale on which L is smooth.
template <class Loss>
long double seven_point_derivative(const Loss& loss, long double h) {
  return (loss(3 * h) - 9 * loss(2 * h) + 45 * loss(h) - 45 * loss(-h) + 9 * loss(-2 * h) - loss(-3 * h)) / (60 * h);
}

}  // namespace gyre::test
