#include "gyre/nn/cross_entropy.hpp"

#include <cmath>
#include <string>

#include "gyre/core/error.hpp"

namespace gyre::nn {

template <class T>
CrossEntropy<T> cross_entropy(const xt::xtensor<T, 2>& logits, const std::vector<int>& labels) {
  const std::size_t n = logits.shape(0);
  const std::size_t k = logits.shape(1);
  if (labels.size() != n)
    throw ShapeError("cross_entropy", "one label per row of logits " + std::to_string(n), labels.size());
  if (n == 0 || k == 0) throw ShapeError("cross_entropy", "logits must be non-empty", n * k);
  CrossEntropy<T> result;
  result.grad = xt::xtensor<T, 2>::from_shape({n, k});
  double total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const int y = labels[i];
    if (!(y >= 0 && static_cast<std::size_t>(y) < k)) throw DomainError("cross_entropy", "label outside [0, K)", y);
    const T* z = logits.data() + i * k;
    std::size_t best = 0;
    for (std::size_t j = 1; j < k; ++j) {
      if (z[j] > z[best]) best = j;
    }
    const double shift = static_cast<double>(z[best]);
    double sum = 0;
    for (std::size_t j = 0; j < k; ++j) sum += std::exp(static_cast<double>(z[j]) - shift);
    const double log_sum = shift + std::log(sum);
    if (!std::isfinite(log_sum)) throw DomainError("cross_entropy", "logits are not finite", log_sum);
    total += log_sum - static_cast<double>(z[y]);
    T* g = result.grad.data() + i * k;
    for (std::size_t j = 0; j < k; ++j) {
      const double p = std::exp(static_cast<double>(z[j]) - log_sum);
      g[j] = static_cast<T>((p - (j == static_cast<std::size_t>(y) ? 1.0 : 0.0)) / static_cast<double>(n));
    }
    result.correct += best == static_cast<std::size_t>(y) ? 1 : 0;
  }
  result.loss = static_cast<T>(total / static_cast<double>(n));
  return result;
}

template CrossEntropy<float> cross_entropy(const xt::xtensor<float, 2>&, const std::vector<int>&);
template CrossEntropy<double> cross_entropy(const xt::xtensor<double, 2>&, const std::vector<int>&);

}  // namespace gyre::nn
