// SPD(n): nearby points keep their distance to relative accuracy. For every metric Gyre offers,
// d(x, exp_x(t·v)) = t‖v‖ₓ and log_x(exp_x(t·v)) = t·v, checked relative to t for t down to 1e-10
// (double): a dist that returned 0, or lost the leading digits of a small log, fails here.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include "spd/spd.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::Matrix;

constexpr int kN = 4;
constexpr std::size_t kSeeds = 50;

// The steps: down to 1e-10 in double; in float ε/t must stay well below 1, so down to 1e-4.
template <class T>
std::vector<T> steps() {
  if constexpr (std::is_same_v<T, float>) return {1e-2f, 1e-3f, 1e-4f};
  return {1e-7, 1e-8, 1e-9, 1e-10};
}

// Checks d(x, exp_x(t v)) = t and log_x(exp_x(t v)) = t v for unit-speed v, relative to t.
//
// y = exp_x(t v) is rounded to ε‖y‖ absolute, a point whose true distance from x differs from t
// by up to ~g·ε‖y‖/λ_min(x), g the metric's scale (√(α + nβ) = 2 for the (2, 0.5) AIM, 1/θ for
// the power metrics); random_spd's eigenvalues lie in [1/e, e], so ‖y‖/λ_min ≤ 2e² ≈ 15 for n = 4.
// No algorithm does better than that ~15gε/t relative. Measured worst, in units of ε/t: dist 62
// (AIM (2, 0.5)), log 140 (power-affine, Frobenius norm). Budget 256ε/t: 5.7e-7 at t = 1e-7 in
// double, and a dist or log of 0 fails at every t.
template <class T, class M>
void check_small_steps(const M& metric, const std::string& name) {
  CAPTURE(name);
  const T eps = std::numeric_limits<T>::epsilon();
  const std::vector<std::uint64_t> seeds = gyre::test::seeds(kSeeds);
  std::size_t compared = 0;
  for (const std::uint64_t seed : seeds) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    const Matrix<T> x = gyre::spd::random_spd<T>(kN, rng);
    Matrix<T> v = metric.random_tangent(x, rng);
    v /= metric.norm(x, v);
    for (const T t : steps<T>()) {
      CAPTURE(t);
      const Matrix<T> step = t * v;
      const Matrix<T> y = metric.exp(x, step);
      const T budget = 256 * eps / t;  // relative to t; see above
      const T d = metric.dist(x, y);
      CHECK(std::abs(d - t) <= budget * t);
      const T log_gap = (metric.log(x, y) - step).norm();
      CHECK(log_gap <= budget * step.norm());
      ++compared;
    }
  }
  CHECK(compared == seeds.size() * steps<T>().size());
}

}  // namespace

TEST_CASE_TEMPLATE("SPD, every metric: small distances are accurate relative to the distance", T, float, double) {
  check_small_steps<T>(gyre::SpdAffineInvariant<T>(kN), "affine-invariant");
  check_small_steps<T>(gyre::SpdLogEuclidean<T>(kN), "log-Euclidean");
  check_small_steps<T>(gyre::SpdLogCholesky<T>(kN), "log-Cholesky");
  check_small_steps<T>(gyre::SpdBuresWasserstein<T>(kN), "Bures-Wasserstein");
  check_small_steps<T>(gyre::SpdEuclidean<T>(kN), "Euclidean");
  gyre::Rng rng(31);
  check_small_steps<T>(gyre::SpdGeneralizedBuresWasserstein<T>(gyre::spd::random_spd<T>(kN, rng)),
                       "generalized Bures-Wasserstein");
  check_small_steps<T>(gyre::PowerDeformed<gyre::SpdAffineInvariant<T>>(gyre::SpdAffineInvariant<T>(kN), 0.5),
                       "power-affine 0.5");
  check_small_steps<T>(gyre::PowerDeformed<gyre::SpdEuclidean<T>>(gyre::SpdEuclidean<T>(kN), 0.5),
                       "power-Euclidean 0.5");
  check_small_steps<T>(gyre::PowerDeformed<gyre::SpdLogCholesky<T>>(gyre::SpdLogCholesky<T>(kN), 0.5),
                       "power-log-Cholesky 0.5");
  check_small_steps<T>(gyre::SpdAffineInvariant<T>(kN, {2.0, 0.5}), "affine-invariant (2, 0.5)");
  check_small_steps<T>(gyre::SpdLogEuclidean<T>(kN, {2.0, 0.5}), "log-Euclidean (2, 0.5)");
}
