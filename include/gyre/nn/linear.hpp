#pragma once
// Plain fully connected layers on Euclidean features (torch.nn.Linear, torch.nn.Flatten): the
// classifier heads of SPD and Grassmann networks, after LogEig or ProjMap has turned manifold
// points into arrays of numbers.
//
//   Linear   none × ℝ[in] → none × ℝ[out], y = W·x + b per sample: data (B, in) → (B, out).
//            W and b start uniform in ±1/√in (torch's default initialisation).
//   Flatten  none × ℝ^(shape)[C] → none × ℝ[C·∏shape]: the same numbers, row-major, as scalars.
//   Unflatten  the inverse (torch.nn.Unflatten): an MLP's output read as, say, P points in ℝᵈ.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <xtensor/xarray.hpp>

#include "gyre/nn/module.hpp"

namespace gyre::nn {

/// y = W·x + b on scalar Euclidean features without a base.
template <class T>
class Linear : public Module<T> {
 public:
  /// Throws ShapeError unless in, out ≥ 1.
  Linear(int in, int out, bool bias = true, std::uint64_t seed = 0);

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override;
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override;
  std::vector<Parameter<T>*> parameters() override;
  [[nodiscard]] const TensorType& in_type() const override { return in_type_; }
  [[nodiscard]] const TensorType& out_type() const override { return out_type_; }
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::size_t pending_calls() const override { return inputs_.size(); }
  void discard_saved() override { inputs_.clear(); }

 private:
  TensorType in_type_, out_type_;
  Parameter<T> weight_;               // (out, in)
  std::optional<Parameter<T>> bias_;  // (out)
  SavedCalls<xt::xarray<T>> inputs_;
};

/// The same numbers per sample under another Euclidean type of the same size: what Flatten and
/// Unflatten are. Backward is the reshape back; it saves only the batch size.
template <class T>
class Reshape : public Module<T> {
 public:
  GeometricTensor<T> forward(const GeometricTensor<T>& input) override;
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override;
  [[nodiscard]] const TensorType& in_type() const override { return in_type_; }
  [[nodiscard]] const TensorType& out_type() const override { return out_type_; }
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::size_t pending_calls() const override { return batch_sizes_.size(); }
  void discard_saved() override { batch_sizes_.clear(); }

 protected:
  Reshape(std::string name, TensorType in, TensorType out);

 private:
  std::string name_;
  TensorType in_type_, out_type_;
  SavedCalls<std::size_t> batch_sizes_;
};

/// Euclidean array features as scalar features (see the header comment).
template <class T>
class Flatten : public Reshape<T> {
 public:
  /// in must have base none and a Euclidean fiber (ShapeError otherwise).
  explicit Flatten(TensorType in);
};

/// Scalar features as Euclidean array features: the inverse of Flatten(out).
template <class T>
class Unflatten : public Reshape<T> {
 public:
  /// out must have base none and a Euclidean fiber (ShapeError otherwise); the input is then
  /// none × ℝ[C·∏shape].
  explicit Unflatten(TensorType out);
};

extern template class Linear<float>;
extern template class Linear<double>;
extern template class Reshape<float>;
extern template class Reshape<double>;
extern template class Flatten<float>;
extern template class Flatten<double>;
extern template class Unflatten<float>;
extern template class Unflatten<double>;

}  // namespace gyre::nn
