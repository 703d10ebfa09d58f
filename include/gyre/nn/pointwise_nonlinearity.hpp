#pragma once
// Pointwise nonlinearities (escnn's PointwiseNonLinearity, torch's ReLU/ELU): σ applied to every
// value. On representation fields they commute with the group only when every ρ(g) permutes
// channels, so only permutation fields are accepted (regular, quotient, trivial). Plain Euclidean
// features (any base, any item shape: an MLP's hidden units, a frame-averaged backbone's layers)
// have no group to commute with and are always accepted. Manifold-valued features are refused: σ
// would leave the manifold.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <string>

#include <xtensor/xarray.hpp>

#include "gyre/nn/module.hpp"

namespace gyre::nn {

/// Which σ a PointwiseNonlinearity applies.
enum class Pointwise { kReLU, kELU };

/// y = σ(x) channel by channel, on permutation fields only.
template <class T>
class PointwiseNonlinearity : public Module<T> {
 public:
  /// Throws DomainError if a field is not a permutation representation, the features are
  /// manifold-valued, or α ≤ 0 (ELU).
  PointwiseNonlinearity(TensorType type, Pointwise kind, T alpha = T(1));

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override;
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override;
  [[nodiscard]] const TensorType& in_type() const override { return type_; }
  [[nodiscard]] const TensorType& out_type() const override { return type_; }
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::size_t pending_calls() const override { return inputs_.size(); }
  void discard_saved() override { inputs_.clear(); }

 private:
  [[nodiscard]] std::string name() const { return kind_ == Pointwise::kReLU ? "PointwiseReLU" : "PointwiseELU"; }

  TensorType type_;
  Pointwise kind_;
  T alpha_;
  SavedCalls<xt::xarray<T>> inputs_;
};

/// max(x, 0) on permutation fields; the derivative at 0 is 0 (torch's choice).
template <class T>
class PointwiseReLU : public PointwiseNonlinearity<T> {
 public:
  explicit PointwiseReLU(TensorType type) : PointwiseNonlinearity<T>(std::move(type), Pointwise::kReLU) {}
};

/// x for x > 0, α·(eˣ − 1) otherwise, on permutation fields; the derivative at 0 is α (torch's choice).
template <class T>
class PointwiseELU : public PointwiseNonlinearity<T> {
 public:
  explicit PointwiseELU(TensorType type, T alpha = T(1))
      : PointwiseNonlinearity<T>(std::move(type), Pointwise::kELU, alpha) {}
};

extern template class PointwiseNonlinearity<float>;
extern template class PointwiseNonlinearity<double>;
extern template class PointwiseReLU<float>;
extern template class PointwiseReLU<double>;
extern template class PointwiseELU<float>;
extern template class PointwiseELU<double>;

}  // namespace gyre::nn
