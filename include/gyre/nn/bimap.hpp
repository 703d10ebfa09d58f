#pragma once
// SPDNet's bilinear mapping (Huang & Van Gool 2017), with channels as in Brooks et al.'s SPDNetBN:
//
//   Y[o] = Σᵢ W[o, i]ᵀ · X[i] · W[o, i],   X[i] ∈ SPD(n_in), W[o, i] ∈ St(n_in, n_out), Y[o] ∈ SPD(n_out)
//
// for input channels i and output channels o. Each W has orthonormal columns (n_out ≤ n_in), which
// keeps Y SPD and is why W is a parameter on the Stiefel manifold: a Riemannian optimizer keeps it
// there (SPDNet's own update is the same projection-and-retraction step as RiemannianSgd with a QR
// retraction). Weights start Haar-distributed on St(n_in, n_out).
//
// Backward, with G[o] = sym(∂L/∂Y[o]):
//   ∂L/∂X[i]    = Σₒ W[o, i]·G[o]·W[o, i]ᵀ           (symmetric)
//   ∂L/∂W[o, i] = 2·Σ_batch X[i]·W[o, i]·G[o]        (the Euclidean gradient; optimizers convert it)

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <cstdint>
#include <string>
#include <vector>

#include <xtensor/xarray.hpp>

#include "gyre/nn/module.hpp"

namespace gyre::nn {

/// Y[o] = Σᵢ W[o, i]ᵀ X[i] W[o, i] on SPD features (see the header comment).
template <class T>
class BiMap : public Module<T> {
 public:
  /// Throws ShapeError unless 1 ≤ n_out ≤ n_in and the channel counts are ≥ 1.
  BiMap(int n_in, int n_out, int in_channels = 1, int out_channels = 1, std::uint64_t seed = 0);

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override;
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override;
  std::vector<Parameter<T>*> parameters() override { return {&weight_}; }
  [[nodiscard]] const TensorType& in_type() const override { return in_type_; }
  [[nodiscard]] const TensorType& out_type() const override { return out_type_; }
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::size_t pending_calls() const override { return inputs_.size(); }
  void discard_saved() override { inputs_.clear(); }

  /// W: (out_channels, in_channels, n_in, n_out), on St(n_in, n_out).
  [[nodiscard]] Parameter<T>& weight() noexcept { return weight_; }

 private:
  int n_in_, n_out_;
  TensorType in_type_, out_type_;
  Parameter<T> weight_;
  SavedCalls<xt::xarray<T>> inputs_;
};

extern template class BiMap<float>;
extern template class BiMap<double>;

}  // namespace gyre::nn
