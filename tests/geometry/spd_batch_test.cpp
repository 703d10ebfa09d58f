// The batched affine-invariant fast paths (Cholesky whitening + the batched Jacobi solver) against
// the one-item functions (eigendecomposition roots P^±½ + Eigen's solver): two independent routes
// to exp, log, dist and the Karcher mean, over seeded random batches in float and double.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "gyre/core/checks.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/geometry/frechet_mean.hpp"
#include "spd/affine_invariant_batch.hpp"
#include "support/batch_test_support.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::Matrix;
using gyre::SpdAffineInvariant;
using gyre::test::pack;
using gyre::test::unpack;

template <class T>
double relative_gap(const Matrix<T>& a, const Matrix<T>& b) {
  return static_cast<double>((a - b).norm() / std::max(T(1), b.norm()));
}

TEST_CASE_TEMPLATE("batched AIM exp, log and dist agree with the one-item functions", T, float, double) {
  // Both routes lose about cond(P)·n·ε; random_spd's eigenvalues lie in [1/e, e].
  const double budget = gyre::test::tol<T>(1e-12, 2e-5f);
  for (const int n : {1, 3, 8, 20}) {  // 20: above the Jacobi kernel's sizes, Eigen per item
    for (const gyre::spd::AlphaBeta ab : {gyre::spd::AlphaBeta{1, 0}, gyre::spd::AlphaBeta{2, 0.3}}) {
      CAPTURE(n);
      const SpdAffineInvariant<T> m(n, ab);
      gyre::Rng rng(gyre::test::seeds(1)[0] + static_cast<std::uint64_t>(n));
      std::vector<Matrix<T>> x, y, v;
      for (int b = 0; b < 23; ++b) {
        x.push_back(m.random_point(rng));
        y.push_back(m.random_point(rng));
        v.push_back(m.random_tangent(x.back(), rng));
      }
      const auto logs = gyre::batch::log(m, pack(x), pack(y));
      const auto exps = gyre::batch::exp(m, pack(x), pack(v));
      const auto dists = gyre::batch::dist(m, pack(x), pack(y));
      double log_gap = 0, exp_gap = 0, dist_gap = 0;
      for (std::size_t b = 0; b < x.size(); ++b) {
        log_gap = std::max(log_gap, relative_gap<T>(unpack(logs, b), m.log(x[b], y[b])));
        exp_gap = std::max(exp_gap, relative_gap<T>(unpack(exps, b), m.exp(x[b], v[b])));
        const T d = m.dist(x[b], y[b]);
        dist_gap = std::max(dist_gap, static_cast<double>(std::abs(dists(b) - d) / std::max(T(1), d)));
      }
      CHECK(log_gap <= budget);
      CHECK(exp_gap <= budget);
      CHECK(dist_gap <= budget);
    }
  }
}

TEST_CASE_TEMPLATE("batched AIM Karcher mean equals the generic frechet_mean", T, float, double) {
  const double budget = gyre::test::tol<T>(1e-11, 1e-4f);
  for (const int n : {2, 6, 17}) {
    CAPTURE(n);
    const SpdAffineInvariant<T> m(n, {1.5, 0.2});
    gyre::Rng rng(gyre::test::seeds(2)[1] + static_cast<std::uint64_t>(n));
    std::vector<Matrix<T>> points;
    std::vector<T> weights;
    for (int b = 0; b < 41; ++b) {
      points.push_back(m.random_point(rng));
      weights.push_back(rng.uniform(T(0.1), T(2)));
    }
    const auto fast = gyre::batch::frechet_mean(m, pack(points), weights);
    const auto generic = gyre::frechet_mean(m, points, weights);
    CHECK(static_cast<double>(m.dist(fast.point, generic.point)) <= budget);
    CHECK(fast.last_step_norm <= 1e3 * std::numeric_limits<T>::epsilon());
    // One point is its own mean.
    const auto single = gyre::batch::frechet_mean(m, pack(std::vector<Matrix<T>>{points[0]}));
    CHECK(relative_gap<T>(single.point, points[0]) <= budget);
  }
}

TEST_CASE("batched AIM operations reject bad input and name the item") {
  const SpdAffineInvariant<double> m(4);
  gyre::Rng rng(11);
  std::vector<Matrix<double>> x, y;
  for (int b = 0; b < 9; ++b) {
    x.push_back(m.random_point(rng));
    y.push_back(m.random_point(rng));
  }
  std::vector<Matrix<double>> bad = y;
  bad[5](0, 0) = -3;  // not positive definite
  try {
    (void)gyre::batch::log(m, pack(x), pack(bad));
    FAIL("expected a DomainError");
  } catch (const gyre::DomainError& e) {
    CHECK(e.function() == "batch::log (SpdAffineInvariant)");
    CHECK(e.condition().find("positive definite") != std::string::npos);
    CHECK(e.condition().find("item 5") != std::string::npos);
  }
  std::vector<Matrix<double>> asymmetric = y;
  asymmetric[2](0, 1) += 0.5;
  CHECK_THROWS_AS((void)gyre::batch::exp(m, pack(x), pack(asymmetric)), gyre::DomainError);
  CHECK_THROWS_AS((void)gyre::batch::dist(m, pack(x), pack(bad)), gyre::DomainError);
  CHECK_THROWS_AS((void)gyre::batch::frechet_mean(m, pack(bad)), gyre::DomainError);
  CHECK_THROWS_AS((void)gyre::batch::frechet_mean(m, pack(x), std::vector<double>(9, -1.0)), gyre::DomainError);
  CHECK_THROWS_AS((void)gyre::batch::frechet_mean(m, pack(x), std::vector<double>(3, 1.0)), gyre::ShapeError);
  // Wrong item size, wrong rank, unequal lengths.
  CHECK_THROWS_AS((void)gyre::batch::log(SpdAffineInvariant<double>(5), pack(x), pack(y)), gyre::ShapeError);
  CHECK_THROWS_AS((void)gyre::batch::log(m, xt::xarray<double>::from_shape({4, 4}), pack(y)), gyre::ShapeError);
  std::vector<Matrix<double>> shorter(y.begin(), y.begin() + 4);
  CHECK_THROWS_AS((void)gyre::batch::log(m, pack(x), pack(shorter)), gyre::ShapeError);
  // With checks off, valid input gives the same result.
  const auto checked = gyre::batch::log(m, pack(x), pack(y));
  const gyre::ChecksOff off;
  const auto unchecked = gyre::batch::log(m, pack(x), pack(y));
  CHECK(checked == unchecked);
}

}  // namespace
