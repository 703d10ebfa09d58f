#pragma once
// Shared test helpers: seeds, per-type tolerances, and the reference data of shared/reference.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <Eigen/Core>
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "gyre/check/law_report.hpp"

namespace gyre::test {

/// How many of n randomised cases to run: all of them, or the fraction GYRE_TEST_CASE_FRACTION
/// (in (0, 1]) of them, at least one. The sanitizer presets run a tenth: instrumented code is 3–20×
/// slower, and memory and thread errors show on few cases as on many.
/// Loops of fewer than 20 cases are already cheap and often assert their exact count: not trimmed.
inline std::size_t scaled_cases(std::size_t n) {
  const char* env = std::getenv("GYRE_TEST_CASE_FRACTION");
  if (env == nullptr || n < 20) return n;
  const double fraction = std::strtod(env, nullptr);
  if (!(fraction > 0 && fraction <= 1)) throw std::runtime_error("GYRE_TEST_CASE_FRACTION must be in (0, 1]");
  return std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(fraction * static_cast<double>(n))));
}

/// scaled_cases(n) seeds derived from a fixed base (or from GYRE_TEST_SEED) by splitmix64, so
/// every randomised test is reproducible and a failing seed printed by CAPTURE can be replayed.
inline std::vector<std::uint64_t> seeds(std::size_t n) {
  n = scaled_cases(n);
  std::uint64_t state = 0x6779726520736565ULL;  // "gyre see"
  if (const char* env = std::getenv("GYRE_TEST_SEED")) state = std::strtoull(env, nullptr, 10);
  std::vector<std::uint64_t> out(n);
  for (auto& seed : out) {
    state += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    seed = z ^ (z >> 31);
  }
  return out;
}

/// The tolerance for scalar type T: for_double in double, for_float in float.
template <class T>
T tol(double for_double, float for_float) {
  return std::is_same_v<T, float> ? static_cast<T>(for_float) : static_cast<T>(for_double);
}

/// shared/reference/<name>, parsed. The folder comes from GYRE_REFERENCE_DIR (set by CMake to
/// ../shared/reference beside the repository); a missing file is an error, never a skip.
inline const nlohmann::json& reference(const std::string& name) {
  static std::vector<std::pair<std::string, nlohmann::json>> cache;
  for (const auto& entry : cache) {
    if (entry.first == name) return entry.second;
  }
  const std::string path = std::string(GYRE_REFERENCE_DIR) + "/" + name;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("reference data not found: " + path);
  cache.emplace_back(name, nlohmann::json::parse(in));
  return cache.back().second;
}

/// A JSON number, vector (flat list) or matrix (list of rows) as an Eigen matrix of T.
template <class T>
Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic> to_matrix(const nlohmann::json& j) {
  using M = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
  if (j.is_number()) return M::Constant(1, 1, j.get<T>());
  if (!j.empty() && j[0].is_array()) {
    M m(j.size(), j[0].size());
    for (std::size_t r = 0; r < j.size(); ++r)
      for (std::size_t c = 0; c < j[r].size(); ++c) m(r, c) = j[r][c].get<T>();
    return m;
  }
  M v(j.size(), 1);
  for (std::size_t r = 0; r < j.size(); ++r) v(r, 0) = j[r].get<T>();
  return v;
}

/// ‖a − b‖ / max(1, ‖b‖).
template <class A, class B>
double relative_gap(const A& a, const B& b) {
  return static_cast<double>((a - b).norm()) / std::max(1.0, static_cast<double>(b.norm()));
}

/// Checks one law of a law-checker report: at least min_cases cases, worst residual ≤ tolerance.
template <class T>
void check_law(const gyre::check::LawReport& report, const std::string& law, T tolerance, std::size_t min_cases = 200) {
  const auto& entry = report.at(law);
  CAPTURE(law);
  CAPTURE(entry.worst_seed);
  CHECK(entry.cases >= scaled_cases(min_cases));
  CHECK(entry.worst <= static_cast<double>(tolerance));
}

/// Fails the test once per case that threw inside a law checker.
inline void check_no_failures(const gyre::check::LawReport& report) {
  for (const auto& failure : report.failures) FAIL(failure);
}

}  // namespace gyre::test
