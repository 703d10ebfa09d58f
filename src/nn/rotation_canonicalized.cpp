#include "gyre/nn/rotation_canonicalized.hpp"

#include <algorithm>
#include <utility>

#include <xtensor/xbuilder.hpp>
#include <xtensor/xview.hpp>

#include "gyre/core/error.hpp"
#include "gyre/nn/transform.hpp"

namespace gyre::nn {
namespace {

// SO(2) × C trivial fields: what the backbone's C channels are when rotations act on them.
TensorType rotation_input_type(const TensorType& backbone_in, std::size_t harmonics) {
  if (backbone_in.base() != Base::kGrid || !backbone_in.has_fields()) {
    throw ShapeError("RotationCanonicalized", "the backbone must take feature maps on a grid", backbone_in.describe());
  }
  for (const repr::Representation& rho : backbone_in.fields().fields()) {
    if (!rho.is_trivial()) {
      throw ShapeError("RotationCanonicalized", "the backbone must take trivial (scalar) channels", rho.name());
    }
  }
  const repr::PlanarGroup so2 = repr::PlanarGroup::so2(static_cast<int>(std::max<std::size_t>(harmonics, 1)));
  return TensorType(FieldType(so2, repr::trivial_representation(so2), backbone_in.channels()));
}

// Grid maps of trivial fields become SO(2)-invariant fields; anything else keeps its type.
TensorType rotation_output_type(const TensorType& backbone_out, const TensorType& in) {
  if (backbone_out.base() != Base::kGrid || !backbone_out.has_fields()) return backbone_out;
  for (const repr::Representation& rho : backbone_out.fields().fields()) {
    if (!rho.is_trivial()) return backbone_out;
  }
  const repr::PlanarGroup& so2 = in.fields().group();
  return TensorType(FieldType(so2, repr::trivial_representation(so2), backbone_out.channels()));
}

}  // namespace

template <class T>
RotationCanonicalized<T>::RotationCanonicalized(std::shared_ptr<Module<T>> backbone, RotationTemplate shape,
                                                CanonicalizationOptions options)
    : BackboneWrapper<T, detail::RotationCanonicalizedCall<T>>(std::move(backbone), "RotationCanonicalized"),
      shape_(std::move(shape)),
      options_(options),
      in_type_(rotation_input_type(this->backbone_->in_type(), shape_.weights.size())),
      out_type_(rotation_output_type(this->backbone_->out_type(), in_type_)) {}

template <class T>
std::string RotationCanonicalized<T>::describe() const {
  return "RotationCanonicalized(SO(2), " + this->backbone_->describe() + ")";
}

template <class T>
GeometricTensor<T> RotationCanonicalized<T>::forward(const GeometricTensor<T>& input) {
  if (!(input.type == in_type_)) {
    throw ShapeError("RotationCanonicalized::forward", "input type differs (expected " + in_type_.describe() + ")",
                     input.type.describe());
  }
  std::vector<CanonicalRotation> rotations = canonical_rotations(input, shape_, options_);
  GeometricTensor<T> canonical = canonicalize_rotation(input, rotations);
  GeometricTensor<T> output =
      this->backbone_->forward(GeometricTensor<T>(this->backbone_->in_type(), std::move(canonical.data)));
  last_rotations_ = rotations;
  this->calls_.push(detail::RotationCanonicalizedCall<T>{input.data, std::move(rotations)});
  return GeometricTensor<T>(out_type_, std::move(output.data));
}

template <class T>
GeometricTensor<T> RotationCanonicalized<T>::backward(const GeometricTensor<T>& grad_output) {
  const auto& call = this->calls_.top("RotationCanonicalized::backward", describe());
  if (!(grad_output.type == out_type_)) {
    throw ShapeError("RotationCanonicalized::backward", "gradient type differs (expected " + out_type_.describe() + ")",
                     grad_output.type.describe());
  }
  const GeometricTensor<T> grad_canonical(
      in_type_, this->backbone_->backward(GeometricTensor<T>(this->backbone_->out_type(), grad_output.data)).data);
  const GeometricTensor<T> input(in_type_, call.input);
  const xt::xarray<T> angle_gradient = canonical_rotation_gradient(input, call.rotations, shape_);
  xt::xarray<T> grad_input = xt::zeros<T>(call.input.shape());
  const std::size_t item_size = call.input.size() / std::max<std::size_t>(call.rotations.size(), 1);
  for (std::size_t b = 0; b < call.rotations.size(); ++b) {
    const repr::PlanarElement undo{0, -call.rotations[b].angle};
    const GeometricTensor<T> g_item(in_type_, xt::xarray<T>(xt::view(grad_canonical.data, xt::range(b, b + 1))));
    const GeometricTensor<T> x_item(in_type_, xt::xarray<T>(xt::view(call.input, xt::range(b, b + 1))));
    // canonical = T_α·x with α = −θ*(x): ∂L/∂x = T_αᵀ·ḡ − ⟨ḡ, ∂(T_α·x)/∂α⟩·∂θ*/∂x.
    const xt::xarray<T> through_samples = transform_adjoint(g_item, undo).data;
    const xt::xarray<T> per_angle = transform_angle_derivative(x_item, undo).data;
    double along_angle = 0;
    for (std::size_t i = 0; i < item_size; ++i) {
      along_angle += static_cast<double>(g_item.data.data()[i]) * static_cast<double>(per_angle.data()[i]);
    }
    const T* theta_slope = angle_gradient.data() + b * item_size;
    T* out = grad_input.data() + b * item_size;
    for (std::size_t i = 0; i < item_size; ++i) {
      out[i] = static_cast<T>(static_cast<double>(through_samples.data()[i]) -
                              along_angle * static_cast<double>(theta_slope[i]));
    }
  }
  this->calls_.drop();
  return GeometricTensor<T>(in_type_, std::move(grad_input));
}

template class RotationCanonicalized<float>;
template class RotationCanonicalized<double>;

}  // namespace gyre::nn
