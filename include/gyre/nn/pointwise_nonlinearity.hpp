#pragma once
// Pointwise nonlinearities (escnn's PointwiseNonLinearity): σ applied to every channel. They commute
// with the group only when every ρ(g) permutes channels, so only permutation fields are accepted
// (regular, quotient, trivial); anything else is a DomainError at construction.
// forward() keeps its input in training and evaluation mode alike, so backward() is always the
// derivative at the most recent forward() input (never a stale one).

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <optional>
#include <string>

#include <xtensor/xtensor.hpp>

#include "gyre/nn/module.hpp"

namespace gyre::nn {

/// Which σ a PointwiseNonlinearity applies.
enum class Pointwise { kReLU, kELU };

/// y = σ(x) channel by channel, on permutation fields only.
template <class T>
class PointwiseNonlinearity : public Module<T> {
 public:
  /// Throws DomainError if a field is not a permutation representation or α ≤ 0 (ELU).
  PointwiseNonlinearity(FieldType type, Pointwise kind, T alpha = T(1));

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override;
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override;
  [[nodiscard]] const FieldType& in_type() const override { return type_; }
  [[nodiscard]] const FieldType& out_type() const override { return type_; }
  [[nodiscard]] std::string describe() const override;

 private:
  [[nodiscard]] std::string name() const { return kind_ == Pointwise::kReLU ? "PointwiseReLU" : "PointwiseELU"; }

  FieldType type_;
  Pointwise kind_;
  T alpha_;
  std::optional<xt::xtensor<T, 4>> input_;
};

/// max(x, 0) on permutation fields; the derivative at 0 is 0 (torch's choice).
template <class T>
class PointwiseReLU : public PointwiseNonlinearity<T> {
 public:
  explicit PointwiseReLU(FieldType type) : PointwiseNonlinearity<T>(std::move(type), Pointwise::kReLU) {}
};

/// x for x > 0, α·(eˣ − 1) otherwise, on permutation fields; the derivative at 0 is α (torch's choice).
template <class T>
class PointwiseELU : public PointwiseNonlinearity<T> {
 public:
  explicit PointwiseELU(FieldType type, T alpha = T(1))
      : PointwiseNonlinearity<T>(std::move(type), Pointwise::kELU, alpha) {}
};

extern template class PointwiseNonlinearity<float>;
extern template class PointwiseNonlinearity<double>;
extern template class PointwiseReLU<float>;
extern template class PointwiseReLU<double>;
extern template class PointwiseELU<float>;
extern template class PointwiseELU<double>;

}  // namespace gyre::nn
