// checked_weights: the one validation of mean and variance weights.
#include "gyre/core/weights.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include <doctest/doctest.h>

TEST_CASE("weights: empty weights are filled, and the total is returned") {
  std::vector<double> weights;
  CHECK(gyre::checked_weights("f", weights, 4, 0.25) == doctest::Approx(1.0).epsilon(1e-15));
  CHECK(weights == std::vector<double>(4, 0.25));
  std::vector<double> given{1, 2, 0};
  CHECK(gyre::checked_weights("f", given, 3, 1.0) == 3.0);
}

TEST_CASE("weights: bad weights are Gyre errors naming the function, the condition and the value") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> none;
  CHECK_THROWS_WITH_AS(gyre::checked_weights("mean", none, 0, 1.0), "gyre::mean: needs at least one point (0)",
                       gyre::ShapeError);
  std::vector<double> short_list{1};
  CHECK_THROWS_WITH_AS(gyre::checked_weights("mean", short_list, 2, 1.0),
                       "gyre::mean: needs one weight per point (1 weights, 2 points)", gyre::ShapeError);
  for (const double bad : {-1.0, nan, inf, -inf}) {
    CAPTURE(bad);
    std::vector<double> weights{1, bad};
    CHECK_THROWS_AS(gyre::checked_weights("mean", weights, 2, 1.0), gyre::DomainError);
  }
  std::vector<double> zeros{0, 0};
  CHECK_THROWS_WITH_AS(gyre::checked_weights("mean", zeros, 2, 1.0), "gyre::mean: weights must not all be 0 (0)",
                       gyre::DomainError);
}

TEST_CASE_TEMPLATE("weights: huge weights whose sum overflows keep their ratios, tiny ones are kept as given", T, float,
                   double) {
  const T huge = std::numeric_limits<T>::max() / 2;
  std::vector<T> weights{huge, huge, huge / 2};
  const T total = gyre::checked_weights("mean", weights, 3, T(1));
  REQUIRE(std::isfinite(total));
  CHECK(weights[0] / total == doctest::Approx(0.4).epsilon(1e-6));
  CHECK(weights[2] / weights[0] == T(0.5));  // rescaled by a power of two: ratios exact
  const T tiny = std::numeric_limits<T>::denorm_min() * 4;
  std::vector<T> small{tiny, tiny};
  CHECK(gyre::checked_weights("mean", small, 2, T(1)) == 2 * tiny);
  CHECK(small[0] == tiny);
}
