#pragma once
// The layers of GrNet (Huang, Wu & Van Gool, "Building Deep Networks on Grassmann Manifolds",
// AAAI 2018), on orthonormal bases of subspaces:
//
//   FRMap(n → m, K)      Gr(n, p)[C] → ℝ^(m×p)[C·K]   Y[c·K + k] = W[c, k]·X[c], W full rank m×n, m ≤ n
//   ReOrth               ℝ^(m×p)[C]  → Gr(m, p)[C]     Y = Q of the thin QR Y = Q·R, diag(R) > 0
//   ProjMap              Gr(m, p)[C] → ℝ^(m×m)[C]      Y = X·Xᵀ, the subspace's orthogonal projector
//   ProjPooling(k)       ℝ^(m×m)[C]  → ℝ^(m×m)[C/k]    the mean of each k consecutive channels
//
// FRMap's weights are Euclidean, as in GrNet, and start with orthonormal rows (a Haar point of
// St(n, m), transposed), so the first ReOrth sees well-conditioned inputs. ReOrth's backward goes
// through the QR derivative of linalg/batched_qr.hpp; a rank-deficient input is a DomainError.
// Backward of ProjMap: ∂L/∂X = (G + Gᵀ)·X.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <cstdint>
#include <string>
#include <vector>

#include <xtensor/xarray.hpp>

#include "gyre/linalg/batched_qr.hpp"
#include "gyre/nn/module.hpp"

namespace gyre::nn {

/// Full-rank mapping of subspace bases (see the header comment).
template <class T>
class FRMap : public Module<T> {
 public:
  /// K = filters per input channel. Throws ShapeError unless 1 ≤ p ≤ m ≤ n and C, K ≥ 1.
  FRMap(int n, int m, int p, int in_channels = 1, int filters = 1, std::uint64_t seed = 0);

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override;
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override;
  std::vector<Parameter<T>*> parameters() override { return {&weight_}; }
  [[nodiscard]] const TensorType& in_type() const override { return in_type_; }
  [[nodiscard]] const TensorType& out_type() const override { return out_type_; }
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::size_t pending_calls() const override { return inputs_.size(); }
  void discard_saved() override { inputs_.clear(); }

  /// W: (in_channels, filters, m, n).
  [[nodiscard]] Parameter<T>& weight() noexcept { return weight_; }

 private:
  int n_, m_, p_, filters_;
  TensorType in_type_, out_type_;
  Parameter<T> weight_;
  SavedCalls<xt::xarray<T>> inputs_;
};

/// Re-orthonormalisation by thin QR (see the header comment).
template <class T>
class ReOrth : public Module<T> {
 public:
  /// Throws ShapeError unless 1 ≤ p ≤ m and C ≥ 1.
  ReOrth(int m, int p, int channels);

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override;
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override;
  [[nodiscard]] const TensorType& in_type() const override { return in_type_; }
  [[nodiscard]] const TensorType& out_type() const override { return out_type_; }
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::size_t pending_calls() const override { return factors_.size(); }
  void discard_saved() override { factors_.clear(); }

 private:
  TensorType in_type_, out_type_;
  SavedCalls<linalg::BatchedQr<T>> factors_;
};

/// X ↦ X·Xᵀ (see the header comment).
template <class T>
class ProjMap : public Module<T> {
 public:
  ProjMap(int m, int p, int channels);

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override;
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override;
  [[nodiscard]] const TensorType& in_type() const override { return in_type_; }
  [[nodiscard]] const TensorType& out_type() const override { return out_type_; }
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::size_t pending_calls() const override { return inputs_.size(); }
  void discard_saved() override { inputs_.clear(); }

 private:
  int m_, p_;
  TensorType in_type_, out_type_;
  SavedCalls<xt::xarray<T>> inputs_;
};

/// The mean of each k consecutive channels of m×m projectors (see the header comment).
template <class T>
class ProjPooling : public Module<T> {
 public:
  /// Throws ShapeError unless k ≥ 1 divides the channel count.
  ProjPooling(int m, int channels, int k);

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override;
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override;
  [[nodiscard]] const TensorType& in_type() const override { return in_type_; }
  [[nodiscard]] const TensorType& out_type() const override { return out_type_; }
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::size_t pending_calls() const override { return batch_sizes_.size(); }
  void discard_saved() override { batch_sizes_.clear(); }

 private:
  int k_;
  TensorType in_type_, out_type_;
  SavedCalls<std::size_t> batch_sizes_;
};

extern template class FRMap<float>;
extern template class FRMap<double>;
extern template class ReOrth<float>;
extern template class ReOrth<double>;
extern template class ProjMap<float>;
extern template class ProjMap<double>;
extern template class ProjPooling<float>;
extern template class ProjPooling<double>;

}  // namespace gyre::nn
