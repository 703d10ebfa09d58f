#pragma once
// The one random number generator Gyre's sampling functions take. Seeded explicitly: there is no
// global or time-seeded state anywhere in Gyre.

#include <cstdint>
#include <random>

#include "gyre/core/types.hpp"

namespace gyre {

/// A seeded 64-bit Mersenne twister with the draws Gyre's samplers need.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}

  /// A standard normal draw.
  template <class T>
  T normal() {
    return static_cast<T>(std::normal_distribution<double>(0.0, 1.0)(engine_));
  }
  /// A uniform draw from [low, high).
  template <class T>
  T uniform(T low, T high) {
    return static_cast<T>(std::uniform_real_distribution<double>(low, high)(engine_));
  }
  /// A uniform integer from [low, high] (both ends included).
  long uniform_int(long low, long high) { return std::uniform_int_distribution<long>(low, high)(engine_); }
  /// A rows×cols matrix of independent standard normal entries.
  template <class T>
  Matrix<T> normal_matrix(Eigen::Index rows, Eigen::Index cols) {
    Matrix<T> m(rows, cols);
    for (Eigen::Index j = 0; j < cols; ++j) {
      for (Eigen::Index i = 0; i < rows; ++i) m(i, j) = normal<T>();
    }
    return m;
  }

  std::mt19937_64& engine() { return engine_; }

 private:
  std::mt19937_64 engine_;
};

}  // namespace gyre
