// The error types and the checks switch.
#include <cmath>

#include <doctest/doctest.h>

#include "gyre/core/checks.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/validate.hpp"

TEST_CASE("errors: the message reads gyre::<function>: <condition> (<value>)") {
  const gyre::DomainError error("Spd::log", "point is not positive definite", -0.00031);
  CHECK(std::string(error.what()) == "gyre::Spd::log: point is not positive definite (-0.00031)");
  CHECK(error.function() == "Spd::log");
  CHECK(error.condition() == "point is not positive definite");
  CHECK(error.value() == "-0.00031");
  CHECK(std::string(gyre::ShapeError("f", "must be 3×3", "2×4").what()) == "gyre::f: must be 3×3 (2×4)");
  CHECK(std::string(gyre::ConvergenceError("f", "no", 7).what()) == "gyre::f: no (7)");
  CHECK(std::string(gyre::IoError("f", "cannot open", "/x").what()) == "gyre::f: cannot open (/x)");
}

TEST_CASE("errors: every Gyre error is a gyre::Error and a std::runtime_error") {
  CHECK_THROWS_AS(throw gyre::DomainError("f", "c", 1), gyre::Error);
  CHECK_THROWS_AS(throw gyre::ShapeError("f", "c", 1), gyre::Error);
  CHECK_THROWS_AS(throw gyre::ConvergenceError("f", "c", 1), gyre::Error);
  CHECK_THROWS_AS(throw gyre::IoError("f", "c", 1), std::runtime_error);
}

TEST_CASE("errors: validation helpers reject NaN, Inf and wrong shapes") {
  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(2, 3);
  CHECK_THROWS_WITH_AS(gyre::require_shape("f", "point", m, 3, 3), "gyre::f: point must be 3×3 (2×3)",
                       gyre::ShapeError);
  m(1, 2) = INFINITY;
  CHECK_THROWS_WITH_AS(gyre::require_finite("f", "point", m), "gyre::f: point has a non-finite entry at (1, 2) (inf)",
                       gyre::DomainError);
  // A NaN residual must fail the tolerance check, not slip through a `residual > tolerance` test.
  CHECK_THROWS_AS(gyre::require_small("f", "c", std::nan(""), 1.0), gyre::DomainError);
  CHECK_NOTHROW(gyre::require_small("f", "c", 0.5, 1.0));
}

TEST_CASE("errors: ChecksOff scopes nest and restore the checks") {
  CHECK(gyre::checks_enabled());
  {
    gyre::ChecksOff outer;
    CHECK_FALSE(gyre::checks_enabled());
    {
      gyre::ChecksOff inner;
      CHECK_FALSE(gyre::checks_enabled());
    }
    CHECK_FALSE(gyre::checks_enabled());
  }
  CHECK(gyre::checks_enabled());
}
