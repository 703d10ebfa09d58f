#pragma once
// Batch normalisation inside fields (escnn's InnerBatchNorm): every field gets one mean and one
// variance, shared by all its channels and computed over (N, H, W, the field's channels). Because
// a permutation field's channels are shuffled by the group, sharing the statistics keeps the layer
// equivariant; other fields are rejected (DomainError).
// Training mode normalises with the biased batch variance and updates the running statistics with
// the unbiased one, r ← (1 − momentum)·r + momentum·batch (torch's BatchNorm semantics); its
// backward differentiates through the batch statistics exactly:
//   ∂L/∂x = γ/σ·(g − mean(g) − x̂·mean(g·x̂)),  σ = √(var + ε), means over the field's values.
// Evaluation mode is the affine map γ·(x − μᵣ)/√(σᵣ² + ε) + β with the running statistics, and its
// backward is that map's derivative. Statistics are accumulated in double for float too.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <optional>
#include <string>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "gyre/nn/module.hpp"

namespace gyre::nn {

/// y = γ·(x − μ)/√(σ² + ε) + β per field, statistics shared by the field's channels.
template <class T>
class InnerBatchNorm : public Module<T> {
 public:
  /// Throws DomainError for non-permutation fields, eps ≤ 0 or momentum ∉ [0, 1].
  explicit InnerBatchNorm(FieldType type, T eps = T(1e-5), T momentum = T(0.1), bool affine = true);

  /// Training mode throws ShapeError when a field has fewer than two values in the batch.
  GeometricTensor<T> forward(const GeometricTensor<T>& input) override;
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override;
  /// γ ("weight", initially 1) and β ("bias", initially 0) per field; none when affine is false.
  std::vector<Parameter<T>*> parameters() override;
  [[nodiscard]] const TensorType& in_type() const override { return tensor_type_; }
  [[nodiscard]] const TensorType& out_type() const override { return tensor_type_; }
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::size_t pending_calls() const override { return calls_.size(); }
  void discard_saved() override { calls_.clear(); }
  /// Running mean per field (initially 0).
  [[nodiscard]] const std::vector<T>& running_mean() const noexcept { return running_mean_; }
  /// Running unbiased variance per field (initially 1).
  [[nodiscard]] const std::vector<T>& running_var() const noexcept { return running_var_; }

 private:
  // What backward needs from one forward call.
  struct Call {
    xt::xarray<T> input;
    std::vector<T> mean, inv_std;
    bool batch_statistics;  // normalised with the batch's statistics (training) or the running ones
  };

  FieldType type_;
  TensorType tensor_type_;
  T eps_, momentum_;
  bool affine_;
  Parameter<T> weight_, bias_;
  std::vector<T> running_mean_, running_var_;
  SavedCalls<Call> calls_;
};

extern template class InnerBatchNorm<float>;
extern template class InnerBatchNorm<double>;

}  // namespace gyre::nn
