#pragma once
// Softmax cross-entropy, averaged over the batch, and its gradient with respect to the logits
// (torch's nn.CrossEntropyLoss with reduction "mean"):
//   L = (1/N) Σᵢ (log Σⱼ exp zᵢⱼ − zᵢ,yᵢ),   ∂L/∂zᵢⱼ = (softmax(zᵢ)ⱼ − [j = yᵢ])/N.
// log-sum-exp is shifted by the row maximum, so large logits never overflow, and it is accumulated
// in double for float logits too.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <cstddef>
#include <vector>

#include <xtensor/xtensor.hpp>

namespace gyre::nn {

/// The mean loss and ∂loss/∂logits.
template <class T>
struct CrossEntropy {
  T loss = 0;
  xt::xtensor<T, 2> grad;
  /// How many rows had their largest logit at the label (the first maximum on ties).
  std::size_t correct = 0;
};

/// L = −(1/N) Σᵢ log softmax(zᵢ)[yᵢ] for logits z (N, K) and labels y in [0, K).
/// Throws ShapeError for empty logits or labels.size() ≠ N, DomainError for a label outside
/// [0, K) or non-finite logits.
template <class T>
[[nodiscard]] CrossEntropy<T> cross_entropy(const xt::xtensor<T, 2>& logits, const std::vector<int>& labels);

extern template CrossEntropy<float> cross_entropy(const xt::xtensor<float, 2>&, const std::vector<int>&);
extern template CrossEntropy<double> cross_entropy(const xt::xtensor<double, 2>&, const std::vector<int>&);

}  // namespace gyre::nn
