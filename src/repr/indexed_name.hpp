#pragma once
// Parses names such as "irrep_1,2" or "regular_5": a fixed prefix followed by comma-separated
// non-negative integers. Hand-written rather than std::regex, whose GCC 12 implementation trips
// -Wmaybe-uninitialized under the sanitizer build and is slow to construct.

#include <optional>
#include <string>
#include <vector>

namespace gyre::repr::detail {

// The integers after `prefix`, or nothing when `name` is not exactly prefix + "d[,d...]".
// Each integer has at most 9 digits, so it always fits an int.
inline std::optional<std::vector<int>> parse_indexed_name(const std::string& name, const std::string& prefix) {
  if (name.compare(0, prefix.size(), prefix) != 0 || name.size() == prefix.size()) return std::nullopt;
  std::vector<int> values;
  std::size_t i = prefix.size();
  while (true) {
    const std::size_t start = i;
    int value = 0;
    while (i < name.size() && name[i] >= '0' && name[i] <= '9' && i - start < 9) {
      value = value * 10 + (name[i] - '0');
      ++i;
    }
    if (i == start) return std::nullopt;
    values.push_back(value);
    if (i == name.size()) return values;
    if (name[i] != ',') return std::nullopt;
    ++i;
  }
}

}  // namespace gyre::repr::detail
