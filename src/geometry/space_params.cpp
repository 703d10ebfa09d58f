#include "space_params.hpp"

#include <cmath>

#include "gyre/core/error.hpp"

namespace gyre::detail {
namespace {

// A word given where a number belongs is named as such (not as a missing parameter).
void refuse_word(const std::string& space, const SpaceParams& params, const std::string& key) {
  const auto word = params.words.find(key);
  if (word != params.words.end()) {
    throw DomainError("make_space", "parameter " + key + " of " + space + " must be a number", word->second);
  }
}

}  // namespace

int integer_param(const std::string& space, const SpaceParams& params, const std::string& key, int minimum) {
  refuse_word(space, params, key);
  const auto it = params.numbers.find(key);
  if (it == params.numbers.end()) throw DomainError("make_space", "space " + space + " needs the parameter", key);
  const double value = it->second;
  if (!(value == std::round(value)) || value < minimum || value > 1e6) {
    throw DomainError("make_space",
                      "parameter " + key + " of " + space + " must be an integer ≥ " + std::to_string(minimum), value);
  }
  return static_cast<int>(value);
}

double number_param(const std::string& space, const SpaceParams& params, const std::string& key, double fallback) {
  refuse_word(space, params, key);
  const auto it = params.numbers.find(key);
  if (it == params.numbers.end()) return fallback;
  if (!std::isfinite(it->second)) {
    throw DomainError("make_space", "parameter " + key + " of " + space + " must be finite", it->second);
  }
  return it->second;
}

std::string word_param(const SpaceParams& params, const std::string& key, const std::string& fallback) {
  const auto it = params.words.find(key);
  return it == params.words.end() ? fallback : it->second;
}

const Eigen::MatrixXd& matrix_param(const std::string& space, const SpaceParams& params, const std::string& key) {
  const auto it = params.matrices.find(key);
  if (it == params.matrices.end()) {
    throw DomainError("make_space", "space " + space + " needs the matrix parameter", key);
  }
  return it->second;
}

}  // namespace gyre::detail
