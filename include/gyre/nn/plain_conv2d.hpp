#pragma once
// A conventional convolution with free k×k filters, on trivial fields of the trivial group C1:
// the baseline a steerable CNN is compared with, in the same Module world (Sequential, pooling,
// batch norm, checker). Weights follow He's initialisation, N(0, 2/(C_in·k²)).

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "gyre/core/error.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/nn/conv2d.hpp"
#include "gyre/nn/module.hpp"

namespace gyre::nn {

/// C1[n × irrep_0], the field type of an ordinary n-channel feature map.
inline FieldType plain_field_type(int channels) {
  const repr::PlanarGroup c1 = repr::PlanarGroup::cyclic(1);
  return FieldType(c1, repr::trivial_representation(c1), channels);
}

/// torch.nn.Conv2d on C1 trivial fields.
template <class T>
class PlainConv2d : public Module<T> {
 public:
  PlainConv2d(int in_channels, int out_channels, int kernel_size, Conv2dGeometry geometry = {}, bool bias = true,
              std::uint64_t seed = 0)
      : in_(plain_field_type(in_channels)), out_(plain_field_type(out_channels)), geometry_(geometry) {
    if (!(kernel_size >= 1)) throw DomainError("PlainConv2d", "kernel size must be >= 1", kernel_size);
    const std::size_t k = static_cast<std::size_t>(kernel_size);
    weight_ =
        Parameter<T>{"weight", xt::xarray<T>::from_shape({std::size_t(out_channels), std::size_t(in_channels), k, k}),
                     xt::zeros<T>({std::size_t(out_channels), std::size_t(in_channels), k, k})};
    Rng rng(seed);
    const double scale = std::sqrt(2.0 / (in_channels * kernel_size * kernel_size));
    for (T& v : weight_.value) v = static_cast<T>(scale * rng.normal<double>());
    if (bias)
      bias_ =
          Parameter<T>{"bias", xt::zeros<T>({std::size_t(out_channels)}), xt::zeros<T>({std::size_t(out_channels)})};
  }

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override {
    require_type("PlainConv2d::forward", in_, input.type);
    xt::xtensor<T, 4> maps = input.maps();
    GeometricTensor<T> output(out_, conv2d(maps, filter(), bias_vector(), geometry_));
    inputs_.push(std::move(maps));
    return output;
  }

  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override {
    require_type("PlainConv2d::backward", out_, grad_output.type);
    const xt::xtensor<T, 4>& input = inputs_.top("PlainConv2d::backward", describe());
    Conv2dGradients<T> grads = conv2d_backward(input, filter(), grad_output.maps(), geometry_);
    for (std::size_t i = 0; i < grads.filter.size(); ++i) weight_.grad.data()[i] += grads.filter.data()[i];
    if (bias_) {
      for (std::size_t i = 0; i < grads.bias.size(); ++i) bias_->grad(i) += grads.bias[i];
    }
    inputs_.drop();  // only now: a backward that throws leaves the call to retry
    return GeometricTensor<T>(in_, std::move(grads.input));
  }

  std::vector<Parameter<T>*> parameters() override {
    std::vector<Parameter<T>*> result{&weight_};
    if (bias_) result.push_back(&*bias_);
    return result;
  }
  [[nodiscard]] const TensorType& in_type() const override { return in_; }
  [[nodiscard]] const TensorType& out_type() const override { return out_; }
  [[nodiscard]] std::size_t pending_calls() const override { return inputs_.size(); }
  void discard_saved() override { inputs_.clear(); }
  [[nodiscard]] std::string describe() const override {
    return "PlainConv2d(" + std::to_string(in_.channels()) + " → " + std::to_string(out_.channels()) +
           ", k=" + std::to_string(weight_.value.shape(2)) + ")";
  }

 private:
  [[nodiscard]] xt::xtensor<T, 4> filter() const { return weight_.value; }
  [[nodiscard]] std::vector<T> bias_vector() const {
    if (!bias_) return {};
    return std::vector<T>(bias_->value.begin(), bias_->value.end());
  }

  TensorType in_, out_;
  Conv2dGeometry geometry_;
  Parameter<T> weight_;
  std::optional<Parameter<T>> bias_;
  SavedCalls<xt::xtensor<T, 4>> inputs_;
};

}  // namespace gyre::nn
