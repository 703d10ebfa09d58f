// The removable-singularity functions against long-double references, near 0 and far from it.
#include "gyre/core/scalar_functions.hpp"

#include <cmath>

#include <doctest/doctest.h>

namespace {

long double ref_one_minus_cos_over_sq(long double t) {
  // 2 sin²(t/2)/t² has no cancellation.
  const long double s = std::sin(t / 2);
  return 2 * s * s / (t * t);
}
long double ref_theta_minus_sin_over_cube(long double t) {
  // Taylor series summed to convergence in long double for small t; direct form elsewhere.
  if (std::abs(t) > 1) return (t - std::sin(t)) / (t * t * t);
  long double term = 1.0L / 6, sum = 0, t2 = t * t;
  for (int k = 1; k < 30; ++k) {
    sum += term;
    term *= -t2 / ((2 * k + 2) * (2 * k + 3));
  }
  return sum;
}

}  // namespace

TEST_CASE_TEMPLATE("scalar functions: full relative accuracy from 1e-12 to 3", T, float, double) {
  const T eps = std::numeric_limits<T>::epsilon();
  for (const double t : {1e-12, 1e-8, 1e-4, 1e-2, 0.1, 0.19, 0.21, 0.5, 0.99, 1.01, 2.0, 3.0}) {
    CAPTURE(t);
    const T theta = static_cast<T>(t);
    const long double lt = theta;
    // A few ε: each is a handful of well-conditioned operations.
    CHECK(std::abs(gyre::sinc(theta) - std::sin(lt) / lt) <= 4 * eps);
    CHECK(std::abs(gyre::one_minus_cos_over_sq(theta) - ref_one_minus_cos_over_sq(lt)) <=
          4 * eps * ref_one_minus_cos_over_sq(lt));
    // (θ − sin θ)/θ³ loses up to log₁₀(6/θ²) digits in the direct branch; the thresholds keep that under 200ε.
    CHECK(std::abs(gyre::theta_minus_sin_over_cube(theta) - ref_theta_minus_sin_over_cube(lt)) <=
          200 * eps * ref_theta_minus_sin_over_cube(lt));
  }
  CHECK(gyre::sinc(T(0)) == T(1));
  CHECK(gyre::one_minus_cos_over_sq(T(0)) == T(0.5));
}
