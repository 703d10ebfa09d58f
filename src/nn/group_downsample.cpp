#include "gyre/nn/group_downsample.hpp"

#include "gyre/core/error.hpp"
#include "gyre/repr/representation.hpp"

namespace gyre::nn {
namespace {

const FieldType& require_regular_fields(const FieldType& type) {
  const repr::PlanarGroup& g = type.group();
  if (!g.is_finite()) throw DomainError("GroupDownsample", "needs a finite group (C_N or D_N)", g.name());
  const repr::Representation regular = repr::regular_representation(g);
  for (const repr::Representation& rho : type.fields()) {
    if (!rho.equivalent_to(regular)) throw DomainError("GroupDownsample", "needs regular fields", rho.name());
  }
  return type;
}

template <class T>
using RowMajorMaps = Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;
template <class T>
using ConstRowMajorMaps = Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;

}  // namespace

template <class T>
GroupDownsample<T>::GroupDownsample(FieldType type, int rate, repr::SubgroupFamily family, bool anti_aliasing,
                                    DownsampleEngine engine)
    : in_(std::move(type)),
      operators_(repr::band_limiting(repr::subsample_group(require_regular_fields(in_).group(), rate, family))),
      anti_aliasing_(anti_aliasing),
      use_fourier_(anti_aliasing && engine == DownsampleEngine::kFourier),
      field_map_(operators_.downsample),
      transform_(operators_.sampling.group),
      mask_(repr::band_mask(operators_.sampling)),
      out_(operators_.sampling.subgroup, repr::regular_representation(operators_.sampling.subgroup), in_.n_fields()) {
  if (!anti_aliasing_) {
    field_map_.setZero();
    for (std::size_t i = 0; i < operators_.sampling.indices.size(); ++i) {
      field_map_(static_cast<Eigen::Index>(i), operators_.sampling.indices[i]) = 1.0;
    }
  }
  field_map_t_ = field_map_.cast<T>();
}

template <class T>
void GroupDownsample<T>::band_limit(std::vector<T>& signals, std::size_t count) const {
  std::vector<T> coefficients(signals.size());
  transform_.forward(signals.data(), coefficients.data(), count);
  const Eigen::Index order = mask_.size();
  RowMajorMaps<T>(coefficients.data(), static_cast<Eigen::Index>(count), order).array().rowwise() *=
      mask_.cast<T>().transpose().array();
  transform_.inverse(coefficients.data(), signals.data(), count);
}

template <class T>
GeometricTensor<T> GroupDownsample<T>::forward(const GeometricTensor<T>& input) {
  require_field_type("GroupDownsample::forward", in_, input.type);
  const Call call{input.data.shape(0), input.data.shape(2), input.data.shape(3)};
  GeometricTensor<T> output = GeometricTensor<T>::zeros(out_, call.batch, call.height, call.width);
  const auto plane = static_cast<Eigen::Index>(call.height * call.width);
  const Eigen::Index g_order = field_map_t_.cols(), h_order = field_map_t_.rows();
  const auto blocks = static_cast<Eigen::Index>(call.batch) * in_.n_fields();
  if (!use_fourier_) {
    // Every (item, field) block is a |G| × plane row-major matrix: D (or S) is one small GEMM.
    for (Eigen::Index b = 0; b < blocks; ++b) {
      const ConstRowMajorMaps<T> x(input.data.data() + b * g_order * plane, g_order, plane);
      RowMajorMaps<T> y(output.data.data() + b * h_order * plane, h_order, plane);
      y.noalias() = field_map_t_ * x;
    }
  } else {
    // One signal of |G| values per (item, field, pixel), contiguous for the batched transform.
    std::vector<T> signals(static_cast<std::size_t>(blocks * plane * g_order));
    for (Eigen::Index b = 0; b < blocks; ++b) {
      const ConstRowMajorMaps<T> x(input.data.data() + b * g_order * plane, g_order, plane);
      RowMajorMaps<T>(signals.data() + b * plane * g_order, plane, g_order) = x.transpose();
    }
    band_limit(signals, static_cast<std::size_t>(blocks * plane));
    for (Eigen::Index b = 0; b < blocks; ++b) {
      const ConstRowMajorMaps<T> smooth(signals.data() + b * plane * g_order, plane, g_order);
      RowMajorMaps<T> y(output.data.data() + b * h_order * plane, h_order, plane);
      for (Eigen::Index i = 0; i < h_order; ++i) {
        y.row(i) = smooth.col(operators_.sampling.indices[static_cast<std::size_t>(i)]).transpose();
      }
    }
  }
  calls_.push(call);
  return output;
}

template <class T>
GeometricTensor<T> GroupDownsample<T>::backward(const GeometricTensor<T>& grad_output) {
  require_field_type("GroupDownsample::backward", out_, grad_output.type);
  const Call& call = calls_.top("GroupDownsample::backward", describe());
  if (grad_output.data.shape(0) != call.batch || grad_output.data.shape(2) != call.height ||
      grad_output.data.shape(3) != call.width) {
    throw ShapeError("GroupDownsample::backward", "gradient shape differs from the forward output's (N, H, W)",
                     std::to_string(grad_output.data.shape(0)) + "×" + std::to_string(grad_output.data.shape(2)) + "×" +
                         std::to_string(grad_output.data.shape(3)));
  }
  GeometricTensor<T> grad = GeometricTensor<T>::zeros(in_, call.batch, call.height, call.width);
  const auto plane = static_cast<Eigen::Index>(call.height * call.width);
  const Eigen::Index g_order = field_map_t_.cols(), h_order = field_map_t_.rows();
  const auto blocks = static_cast<Eigen::Index>(call.batch) * in_.n_fields();
  if (!use_fourier_) {
    for (Eigen::Index b = 0; b < blocks; ++b) {
      const ConstRowMajorMaps<T> y(grad_output.data.data() + b * h_order * plane, h_order, plane);
      RowMajorMaps<T> x(grad.data.data() + b * g_order * plane, g_order, plane);
      x.noalias() = field_map_t_.transpose() * y;
    }
  } else {
    // Dᵀ = (S·P)ᵀ = P·Sᵀ (P is symmetric): place ∂L/∂y on H's elements, then band-limit.
    std::vector<T> signals(static_cast<std::size_t>(blocks * plane * g_order), T(0));
    for (Eigen::Index b = 0; b < blocks; ++b) {
      const ConstRowMajorMaps<T> y(grad_output.data.data() + b * h_order * plane, h_order, plane);
      RowMajorMaps<T> placed(signals.data() + b * plane * g_order, plane, g_order);
      for (Eigen::Index i = 0; i < h_order; ++i) {
        placed.col(operators_.sampling.indices[static_cast<std::size_t>(i)]) = y.row(i).transpose();
      }
    }
    band_limit(signals, static_cast<std::size_t>(blocks * plane));
    for (Eigen::Index b = 0; b < blocks; ++b) {
      RowMajorMaps<T>(grad.data.data() + b * g_order * plane, g_order, plane) =
          ConstRowMajorMaps<T>(signals.data() + b * plane * g_order, plane, g_order).transpose();
    }
  }
  calls_.drop();
  return grad;
}

template <class T>
std::string GroupDownsample<T>::describe() const {
  return "GroupDownsample(" + in_.describe() + " → " + out_.describe() + ", rate " +
         std::to_string(operators_.sampling.rate) + (anti_aliasing_ ? ", anti-aliased)" : ", naive)");
}

template class GroupDownsample<float>;
template class GroupDownsample<double>;

}  // namespace gyre::nn
