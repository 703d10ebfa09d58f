#pragma once
// Asserts a gradient checker report: exactly `quantities` were compared, in order, each within tolerance.

#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "gyre/check/gradient_check.hpp"

namespace gyre::test {

inline void check_report(const check::GradientReport& report, const std::vector<std::string>& quantities,
                         double tolerance) {
  std::vector<std::string> compared;
  for (const auto& e : report.errors) {
    compared.push_back(e.quantity);
    CAPTURE(e.quantity);
    CHECK(e.relative_error <= tolerance);
  }
  CHECK(compared == quantities);
}

}  // namespace gyre::test
