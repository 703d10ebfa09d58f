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
  [[nodiscard]] const FieldType& in_type() const override { return type_; }
  [[nodiscard]] const FieldType& out_type() const override { return type_; }
  [[nodiscard]] std::string describe() const override;
  /// Running mean per field (initially 0).
  [[nodiscard]] const std::vector<T>& running_mean() const noexcept { return running_mean_; }
  /// Running unbiased variance per field (initially 1).
  [[nodiscard]] const std::vector<T>& running_var() const noexcept { return running_var_; }

 private:
  FieldType type_;
  T eps_, momentum_;
  bool affine_;
  Parameter<T> weight_, bias_;
  std::vector<T> running_mean_, running_var_, mean_, inv_std_;
  std::optional<xt::xtensor<T, 4>> input_;
  bool batch_statistics_ = false;  // whether the last forward normalised with the batch's statistics
};

extern template class InnerBatchNorm<float>;
extern template class InnerBatchNorm<double>;

}  // namespace gyre::nn
