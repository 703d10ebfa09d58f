#include "gyre/nn/field_nonlinearity.hpp"

#include <cmath>

#include "gyre/core/error.hpp"

namespace gyre::nn {
namespace {

template <class T>
T sigmoid(T x) {
  // Two branches so that exp never overflows: e^(−x) for x ≥ 0, eˣ otherwise.
  if (x >= 0) return T(1) / (1 + std::exp(-x));
  const T e = std::exp(x);
  return e / (1 + e);
}

FieldType gated_input_type(const FieldType& gated) {
  std::vector<repr::Representation> fields(static_cast<std::size_t>(gated.n_fields()),
                                           repr::trivial_representation(gated.group()));
  fields.insert(fields.end(), gated.fields().begin(), gated.fields().end());
  return FieldType(gated.group(), std::move(fields));
}

// The saved input and grad_output must agree in batch and plane (their channels differ for gates).
template <class T>
void require_same_plane(const char* where, const xt::xarray<T>& input, const xt::xarray<T>& grad) {
  if (input.shape(0) != grad.shape(0) || input.shape(2) != grad.shape(2) || input.shape(3) != grad.shape(3)) {
    throw ShapeError(where, "grad_output must have the last forward output's shape", grad.size());
  }
}

}  // namespace

template <class T>
NormReLU<T>::NormReLU(FieldType type) : type_(std::move(type)), tensor_type_(type_) {
  const std::size_t n = static_cast<std::size_t>(type_.n_fields());
  bias_ = Parameter<T>{"bias", xt::zeros<T>({n}), xt::zeros<T>({n})};
}

template <class T>
GeometricTensor<T> NormReLU<T>::forward(const GeometricTensor<T>& input) {
  require_field_type("NormReLU::forward", type_, input.type);
  GeometricTensor<T> output = input;
  const std::size_t plane = input.data.shape(2) * input.data.shape(3);
  const std::size_t channels = static_cast<std::size_t>(type_.size());
  for (std::size_t n = 0; n < input.data.shape(0); ++n) {
    for (int f = 0; f < type_.n_fields(); ++f) {
      const std::size_t d = static_cast<std::size_t>(type_.fields()[static_cast<std::size_t>(f)].size());
      T* y = output.data.data() + (n * channels + static_cast<std::size_t>(type_.field_offset(f))) * plane;
      const T b = bias_.value(static_cast<std::size_t>(f));
      for (std::size_t p = 0; p < plane; ++p) {
        T norm2 = 0;
        for (std::size_t c = 0; c < d; ++c) norm2 += y[c * plane + p] * y[c * plane + p];
        const T norm = std::sqrt(norm2);
        const T scale = (norm > 0 && norm - b > 0) ? (norm - b) / norm : T(0);
        for (std::size_t c = 0; c < d; ++c) y[c * plane + p] *= scale;
      }
    }
  }
  inputs_.push(input.data);
  return output;
}

template <class T>
GeometricTensor<T> NormReLU<T>::backward(const GeometricTensor<T>& grad_output) {
  require_field_type("NormReLU::backward", type_, grad_output.type);
  const xt::xarray<T>& input = inputs_.top("NormReLU::backward", describe());
  require_same_plane("NormReLU::backward", input, grad_output.data);
  GeometricTensor<T> grad = grad_output;
  const std::size_t plane = grad.data.shape(2) * grad.data.shape(3);
  const std::size_t channels = static_cast<std::size_t>(type_.size());
  for (std::size_t n = 0; n < grad.data.shape(0); ++n) {
    for (int f = 0; f < type_.n_fields(); ++f) {
      const std::size_t d = static_cast<std::size_t>(type_.fields()[static_cast<std::size_t>(f)].size());
      const std::size_t offset = (n * channels + static_cast<std::size_t>(type_.field_offset(f))) * plane;
      const T* x = input.data() + offset;
      T* g = grad.data.data() + offset;
      const T b = bias_.value(static_cast<std::size_t>(f));
      T& grad_b = bias_.grad(static_cast<std::size_t>(f));
      for (std::size_t p = 0; p < plane; ++p) {
        T norm2 = 0;
        T dot = 0;
        for (std::size_t c = 0; c < d; ++c) {
          norm2 += x[c * plane + p] * x[c * plane + p];
          dot += x[c * plane + p] * g[c * plane + p];
        }
        const T norm = std::sqrt(norm2);
        if (!(norm > 0 && norm - b > 0)) {
          for (std::size_t c = 0; c < d; ++c) g[c * plane + p] = 0;
          continue;
        }
        // y = (1 − b/‖f‖)·f: ∂y/∂f = (1 − b/‖f‖)·I + b·f fᵀ/‖f‖³, ∂y/∂b = −f/‖f‖.
        const T scale = (norm - b) / norm;
        const T radial = b * dot / (norm2 * norm);
        for (std::size_t c = 0; c < d; ++c) g[c * plane + p] = scale * g[c * plane + p] + radial * x[c * plane + p];
        grad_b -= dot / norm;
      }
    }
  }
  inputs_.drop();  // only now: a backward that throws leaves the call to retry
  return grad;
}

template <class T>
std::string NormReLU<T>::describe() const {
  return "NormReLU(" + type_.describe() + ")";
}

template <class T>
GatedNonlinearity<T>::GatedNonlinearity(FieldType gated)
    : out_(std::move(gated)), in_(gated_input_type(out_)), out_type_(out_), in_type_(in_) {}

template <class T>
GeometricTensor<T> GatedNonlinearity<T>::forward(const GeometricTensor<T>& input) {
  require_field_type("GatedNonlinearity::forward", in_, input.type);
  const std::size_t n = input.data.shape(0);
  const std::size_t plane = input.data.shape(2) * input.data.shape(3);
  const std::size_t gates = static_cast<std::size_t>(out_.n_fields());
  GeometricTensor<T> output = GeometricTensor<T>::zeros(out_, n, input.data.shape(2), input.data.shape(3));
  for (std::size_t i = 0; i < n; ++i) {
    const T* in = input.data.data() + i * static_cast<std::size_t>(in_.size()) * plane;
    T* out = output.data.data() + i * static_cast<std::size_t>(out_.size()) * plane;
    for (int f = 0; f < out_.n_fields(); ++f) {
      const std::size_t d = static_cast<std::size_t>(out_.fields()[static_cast<std::size_t>(f)].size());
      const T* gate = in + static_cast<std::size_t>(f) * plane;
      const T* field = in + (gates + static_cast<std::size_t>(out_.field_offset(f))) * plane;
      T* dst = out + static_cast<std::size_t>(out_.field_offset(f)) * plane;
      for (std::size_t p = 0; p < plane; ++p) {
        const T s = sigmoid(gate[p]);
        for (std::size_t c = 0; c < d; ++c) dst[c * plane + p] = s * field[c * plane + p];
      }
    }
  }
  inputs_.push(input.data);
  return output;
}

template <class T>
GeometricTensor<T> GatedNonlinearity<T>::backward(const GeometricTensor<T>& grad_output) {
  require_field_type("GatedNonlinearity::backward", out_, grad_output.type);
  const xt::xarray<T>& input = inputs_.top("GatedNonlinearity::backward", describe());
  require_same_plane("GatedNonlinearity::backward", input, grad_output.data);
  const std::size_t n = grad_output.data.shape(0);
  const std::size_t plane = grad_output.data.shape(2) * grad_output.data.shape(3);
  const std::size_t gates = static_cast<std::size_t>(out_.n_fields());
  GeometricTensor<T> grad = GeometricTensor<T>::zeros(in_, n, grad_output.data.shape(2), grad_output.data.shape(3));
  for (std::size_t i = 0; i < n; ++i) {
    const T* in = input.data() + i * static_cast<std::size_t>(in_.size()) * plane;
    const T* go = grad_output.data.data() + i * static_cast<std::size_t>(out_.size()) * plane;
    T* gi = grad.data.data() + i * static_cast<std::size_t>(in_.size()) * plane;
    for (int f = 0; f < out_.n_fields(); ++f) {
      const std::size_t d = static_cast<std::size_t>(out_.fields()[static_cast<std::size_t>(f)].size());
      const std::size_t field_offset = (gates + static_cast<std::size_t>(out_.field_offset(f))) * plane;
      const std::size_t out_offset = static_cast<std::size_t>(out_.field_offset(f)) * plane;
      for (std::size_t p = 0; p < plane; ++p) {
        const T s = sigmoid(in[static_cast<std::size_t>(f) * plane + p]);
        T dot = 0;
        for (std::size_t c = 0; c < d; ++c) {
          dot += in[field_offset + c * plane + p] * go[out_offset + c * plane + p];
          gi[field_offset + c * plane + p] = s * go[out_offset + c * plane + p];
        }
        // sigmoid' = s·(1 − s).
        gi[static_cast<std::size_t>(f) * plane + p] = s * (1 - s) * dot;
      }
    }
  }
  inputs_.drop();  // only now: a backward that throws leaves the call to retry
  return grad;
}

template <class T>
std::string GatedNonlinearity<T>::describe() const {
  return "GatedNonlinearity(" + in_.describe() + ")";
}

template class NormReLU<float>;
template class NormReLU<double>;
template class GatedNonlinearity<float>;
template class GatedNonlinearity<double>;

}  // namespace gyre::nn
