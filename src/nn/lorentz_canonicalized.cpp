#include "gyre/nn/lorentz_canonicalized.hpp"

#include <utility>

#include "gyre/core/error.hpp"

namespace gyre::nn {

TensorType momenta_type(int n) {
  return TensorType(Base::kNone, EuclideanFiber{1, {static_cast<std::size_t>(n), std::size_t{4}}});
}

template <class T>
LorentzCanonicalized<T>::LorentzCanonicalized(std::shared_ptr<Module<T>> backbone,
                                              LorentzCanonicalizationOptions options)
    : BackboneWrapper<T, detail::LorentzCanonicalizedCall>(std::move(backbone), "LorentzCanonicalized"),
      options_(options) {
  const TensorType& in = this->backbone_->in_type();
  const std::vector<std::size_t> item = in.item_shape();
  if (in.base() != Base::kNone || !in.is_euclidean() || in.channels() != 1 || item.size() != 2 || item[1] != 4 ||
      item[0] < 2) {
    throw ShapeError("LorentzCanonicalized", "the backbone must take sets of momenta none × ℝ^(n×4)[1], n ≥ 2",
                     in.describe());
  }
  particles_ = static_cast<int>(item[0]);
}

template <class T>
std::string LorentzCanonicalized<T>::describe() const {
  return "LorentzCanonicalized(SO+(1,3), " + this->backbone_->describe() + ")";
}

template <class T>
GeometricTensor<T> LorentzCanonicalized<T>::forward(const GeometricTensor<T>& input) {
  if (!(input.type == in_type())) {
    throw ShapeError("LorentzCanonicalized::forward", "input type differs (expected " + in_type().describe() + ")",
                     input.type.describe());
  }
  const std::size_t batch = input.data.shape()[0], item = static_cast<std::size_t>(particles_) * 4;
  detail::LorentzCanonicalizedCall call;
  xt::xarray<T> canonical = xt::xarray<T>::from_shape(input.data.shape());
  for (std::size_t b = 0; b < batch; ++b) {
    Matrix<double> p(particles_, 4);
    for (Eigen::Index i = 0; i < p.size(); ++i) {
      p(i / 4, i % 4) = static_cast<double>(input.data.data()[b * item + static_cast<std::size_t>(i)]);
    }
    LorentzCanonicalFrame frame = canonical_lorentz_frame(p, options_);
    const Matrix<double> q = canonicalize_lorentz(p, frame);
    for (Eigen::Index i = 0; i < q.size(); ++i) {
      canonical.data()[b * item + static_cast<std::size_t>(i)] = static_cast<T>(q(i / 4, i % 4));
    }
    call.momenta.push_back(std::move(p));
    call.frames.push_back(std::move(frame));
  }
  GeometricTensor<T> output = this->backbone_->forward(GeometricTensor<T>(in_type(), std::move(canonical)));
  last_frames_ = call.frames;
  this->calls_.push(std::move(call));
  return output;
}

template <class T>
GeometricTensor<T> LorentzCanonicalized<T>::backward(const GeometricTensor<T>& grad_output) {
  const auto& call = this->calls_.top("LorentzCanonicalized::backward", describe());
  const GeometricTensor<T> grad_canonical = this->backbone_->backward(grad_output);
  const std::size_t item = static_cast<std::size_t>(particles_) * 4;
  xt::xarray<T> grad = xt::xarray<T>::from_shape(grad_canonical.data.shape());
  for (std::size_t b = 0; b < call.frames.size(); ++b) {
    Matrix<double> q_bar(particles_, 4);
    for (Eigen::Index i = 0; i < q_bar.size(); ++i) {
      q_bar(i / 4, i % 4) = static_cast<double>(grad_canonical.data.data()[b * item + static_cast<std::size_t>(i)]);
    }
    const Matrix<double> p_bar = canonicalize_lorentz_backward(call.momenta[b], call.frames[b], q_bar, options_);
    for (Eigen::Index i = 0; i < p_bar.size(); ++i) {
      grad.data()[b * item + static_cast<std::size_t>(i)] = static_cast<T>(p_bar(i / 4, i % 4));
    }
  }
  this->calls_.drop();
  return GeometricTensor<T>(in_type(), std::move(grad));
}

template class LorentzCanonicalized<float>;
template class LorentzCanonicalized<double>;

}  // namespace gyre::nn
