#include "gyre/nn/gbw_batch_norm.hpp"

#include <cmath>
#include <cstddef>
#include <utility>

#include <Eigen/Core>

#include "gyre/core/error.hpp"
#include "gyre/core/parallel.hpp"
#include "gyre/linalg/symmetric_functions.hpp"
#include "gyre/nn/manifold_fibers.hpp"

namespace gyre::nn {

namespace {

template <class T>
using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;

// Item k of a (…, n, n) row-major buffer; symmetric matrices read the same either way.
template <class T>
Mat<T> item(const xt::xarray<T>& a, std::size_t k, Eigen::Index n) {
  const std::size_t size = static_cast<std::size_t>(n * n);
  return Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(a.data() + k * size, n, n);
}

template <class T>
void put(xt::xarray<T>& a, std::size_t k, const Mat<T>& m) {
  const std::size_t size = static_cast<std::size_t>(m.rows() * m.cols());
  Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(a.data() + k * size, m.rows(),
                                                                                m.cols()) = m;
}

template <class T>
Mat<T> sym(const Mat<T>& a) {
  return (a + a.transpose()) / T(2);
}

template <class T>
TensorType bures_wasserstein_features(int n, int channels) {
  const std::string name = "SPD(" + std::to_string(n) + ", bures_wasserstein)";
  return TensorType(Base::kNone, ManifoldFiber::of<SpdBuresWasserstein>(channels, name, n));
}

template <class T>
BatchNormOptions inner_options(const GbwBatchNormOptions& o) {
  if (!(o.theta != 0) || !std::isfinite(o.theta)) {
    throw DomainError("GbwBatchNorm", "theta must be finite and nonzero", o.theta);
  }
  if (o.batch_norm.metric_scale != 1) {
    throw DomainError("GbwBatchNorm", "metric_scale must be 1 (GBW-RBN sets it from theta)", o.batch_norm.metric_scale);
  }
  BatchNormOptions inner = o.batch_norm;
  inner.metric_scale = 1 / (o.theta * o.theta);  // d_θ(X, Y) = d(X^θ, Y^θ)/|θ|
  return inner;
}

int spd_size(const TensorType& type) {
  const std::vector<std::size_t>& shape = type.manifold("GbwBatchNorm").item_shape();
  if (type.base() != Base::kNone || type != spd_features(static_cast<int>(shape.at(0)), type.channels())) {
    throw ShapeError("GbwBatchNorm", "needs features spd_features(n, C)", type.describe());
  }
  return static_cast<int>(shape[0]);
}

// The deformation of one channel: A = M^-½, B = M^½ and their eigendecomposition, and
// φ(X) = A·X^θ·A, φ⁻¹(Z) = (B·Z·B)^(1/θ) with their vector-Jacobian products.
template <class T>
struct Deformation {
  linalg::SymmetricEigen<T> metric_eigen;
  Mat<T> a, b;  // M^-½, M^½
  double theta;

  Deformation(const Mat<T>& m, double power, const char* where) : theta(power) {
    metric_eigen = linalg::symmetric_eigen<T>(m);
    if (!(metric_eigen.values(0) > 0)) {
      throw DomainError(where, "metric M is not positive definite (smallest eigenvalue)", metric_eigen.values(0));
    }
    a = linalg::apply(metric_eigen, linalg::InverseSqrt{});
    b = linalg::apply(metric_eigen, linalg::Sqrt{});
  }

  [[nodiscard]] Mat<T> power(const Mat<T>& x, double p) const {
    if (p == 1) return x;
    return linalg::apply(linalg::symmetric_eigen<T>(x), linalg::Power{p});
  }
  [[nodiscard]] Mat<T> forward(const Mat<T>& x) const { return sym<T>(a * power(x, theta) * a); }
  [[nodiscard]] Mat<T> inverse(const Mat<T>& z) const { return power(sym<T>(b * z * b), 1 / theta); }

  // ∂L/∂X and the contribution to ∂L/∂A of Y = A·X^θ·A, from G = ∂L/∂Y.
  void forward_vjp(const Mat<T>& x, const Mat<T>& g, Mat<T>& grad_x, Mat<T>& grad_a) const {
    const Mat<T> gs = sym<T>(g);
    Mat<T> xp = x;
    if (theta == 1) {
      grad_x = a * gs * a;
    } else {
      const linalg::SymmetricEigen<T> e = linalg::symmetric_eigen<T>(x);
      xp = linalg::apply(e, linalg::Power{theta});
      grad_x = linalg::frechet_derivative(e, linalg::Power{theta}, Mat<T>(a * gs * a));
    }
    grad_a += gs * a * xp + xp * a * gs;
  }
  // ∂L/∂Z and the contribution to ∂L/∂B of O = (B·Z·B)^(1/θ), from G = ∂L/∂O.
  void inverse_vjp(const Mat<T>& z, const Mat<T>& g, Mat<T>& grad_z, Mat<T>& grad_b) const {
    const Mat<T> k = sym<T>(b * z * b);
    const Mat<T> gk =
        theta == 1 ? sym<T>(g)
                   : linalg::frechet_derivative(linalg::symmetric_eigen<T>(k), linalg::Power{1 / theta}, sym<T>(g));
    grad_z = b * gk * b;
    grad_b += gk * b * z + z * b * gk;
  }
  // ∂L/∂M from ∂L/∂A and ∂L/∂B.
  [[nodiscard]] Mat<T> metric_vjp(const Mat<T>& grad_a, const Mat<T>& grad_b) const {
    return linalg::frechet_derivative(metric_eigen, linalg::InverseSqrt{}, sym<T>(grad_a)) +
           linalg::frechet_derivative(metric_eigen, linalg::Sqrt{}, sym<T>(grad_b));
  }
};

template <class T>
xt::xarray<T> identities(std::size_t c, std::size_t n) {
  xt::xarray<T> id = xt::zeros<T>({c, n, n});
  for (std::size_t k = 0; k < c; ++k)
    for (std::size_t i = 0; i < n; ++i) id(k, i, i) = 1;
  return id;
}

}  // namespace

template <class T>
GbwBatchNorm<T>::GbwBatchNorm(TensorType features, GbwBatchNormOptions options)
    : type_(std::move(features)),
      options_(options),
      n_(spd_size(type_)),
      channels_(type_.channels()),
      inner_(TransportCentring<SpdBuresWasserstein<T>>(SpdBuresWasserstein<T>(n_), Mat<T>::Identity(n_, n_)),
             bures_wasserstein_features<T>(n_, channels_), inner_options<T>(options_)) {
  const auto c = static_cast<std::size_t>(channels_);
  const auto n = static_cast<std::size_t>(n_);
  const auto space = type_.manifold().shared_space<T>();
  bias_ = Parameter<T>("GbwBatchNorm.bias", identities<T>(c, n), space);
  metric_ = Parameter<T>("GbwBatchNorm.metric", identities<T>(c, n), space);
  inner_.scale().name = "GbwBatchNorm.scale";
}

template <class T>
std::vector<Parameter<T>*> GbwBatchNorm<T>::parameters() {
  std::vector<Parameter<T>*> p = {&bias_};
  if (options_.learn_metric) p.push_back(&metric_);
  if (options_.batch_norm.normalize_variance) p.push_back(&inner_.scale());
  return p;
}

template <class T>
GeometricTensor<T> GbwBatchNorm<T>::forward(const GeometricTensor<T>& input) {
  require_type("GbwBatchNorm::forward", type_, input.type);
  type_.manifold().space<T>().check_points(input.data);
  type_.manifold().space<T>().check_points(bias_.value);
  type_.manifold().space<T>().check_points(metric_.value);
  const std::size_t batch = input.batch();
  const auto c_count = static_cast<std::size_t>(channels_);
  const auto n = static_cast<Eigen::Index>(n_);
  xt::xarray<T> deformed = xt::xarray<T>::from_shape(input.data.shape());
  xt::xarray<T> inner_bias = xt::xarray<T>::from_shape(bias_.value.shape());
  std::vector<Deformation<T>> maps;
  maps.reserve(c_count);
  for (std::size_t c = 0; c < c_count; ++c) {
    maps.emplace_back(item(metric_.value, c, n), options_.theta, "GbwBatchNorm::forward");
    put(inner_bias, c, maps[c].forward(item(bias_.value, c, n)));
  }
  const auto items = static_cast<std::ptrdiff_t>(batch * c_count);
  const double work = static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
  parallel_for(items, work, [&](std::ptrdiff_t k) {
    const auto u = static_cast<std::size_t>(k);
    put(deformed, u, maps[u % c_count].forward(item(input.data, u, n)));
  });
  inner_.bias().value = std::move(inner_bias);
  const GeometricTensor<T> normalized = inner_.forward(GeometricTensor<T>(inner_.in_type(), std::move(deformed)));
  xt::xarray<T> output = xt::xarray<T>::from_shape(input.data.shape());
  parallel_for(items, work, [&](std::ptrdiff_t k) {
    const auto u = static_cast<std::size_t>(k);
    put(output, u, maps[u % c_count].inverse(item(normalized.data, u, n)));
  });
  if (grad_recording()) saved_.push(Call{input.data, normalized.data});
  return GeometricTensor<T>(type_, std::move(output));
}

template <class T>
GeometricTensor<T> GbwBatchNorm<T>::backward(const GeometricTensor<T>& grad_output) {
  const char* where = "GbwBatchNorm::backward";
  require_type(where, type_, grad_output.type);
  const Call& call = saved_.top(where, describe());
  if (grad_output.data.shape() != call.input.shape()) {
    throw ShapeError(where, "grad_output must have the forward's shape", BatchSpace<T>::shape_text(grad_output.data));
  }
  const std::size_t batch = grad_output.batch();
  const auto c_count = static_cast<std::size_t>(channels_);
  const auto n = static_cast<Eigen::Index>(n_);
  std::vector<Deformation<T>> maps;
  maps.reserve(c_count);
  for (std::size_t c = 0; c < c_count; ++c) maps.emplace_back(item(metric_.value, c, n), options_.theta, where);
  const auto items = static_cast<std::ptrdiff_t>(batch * c_count);
  const double work = static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);

  // Through φ⁻¹: ∂L/∂Z and each item's share of ∂L/∂B.
  xt::xarray<T> grad_normalized = xt::xarray<T>::from_shape(grad_output.data.shape());
  std::vector<Mat<T>> grad_b(static_cast<std::size_t>(items)), grad_a(static_cast<std::size_t>(items));
  parallel_for(items, work, [&](std::ptrdiff_t k) {
    const auto u = static_cast<std::size_t>(k);
    Mat<T> grad_z;
    grad_b[u] = Mat<T>::Zero(n, n);
    maps[u % c_count].inverse_vjp(item(call.output, u, n), item(grad_output.data, u, n), grad_z, grad_b[u]);
    put(grad_normalized, u, grad_z);
  });
  // Through the normalization; the inner bias's gradient is ∂L/∂φ(W).
  const xt::xarray<T> grad_inner_bias_before = inner_.bias().grad;
  const GeometricTensor<T> grad_deformed =
      inner_.backward(GeometricTensor<T>(inner_.in_type(), std::move(grad_normalized)));
  const xt::xarray<T> grad_inner_bias = inner_.bias().grad - grad_inner_bias_before;
  inner_.bias().grad = grad_inner_bias_before;
  // Through φ: ∂L/∂X and each item's share of ∂L/∂A.
  xt::xarray<T> grad_input = xt::xarray<T>::from_shape(grad_output.data.shape());
  parallel_for(items, work, [&](std::ptrdiff_t k) {
    const auto u = static_cast<std::size_t>(k);
    Mat<T> grad_x;
    grad_a[u] = Mat<T>::Zero(n, n);
    maps[u % c_count].forward_vjp(item(call.input, u, n), item(grad_deformed.data, u, n), grad_x, grad_a[u]);
    put(grad_input, u, grad_x);
  });
  // The bias and the metric.
  xt::xarray<T> grad_bias = xt::zeros_like(bias_.value);
  xt::xarray<T> grad_metric = xt::zeros_like(metric_.value);
  for (std::size_t c = 0; c < c_count; ++c) {
    Mat<T> ga = Mat<T>::Zero(n, n), gb = Mat<T>::Zero(n, n), gw;
    for (std::size_t i = 0; i < batch; ++i) {
      ga += grad_a[i * c_count + c];
      gb += grad_b[i * c_count + c];
    }
    maps[c].forward_vjp(item(bias_.value, c, n), item(grad_inner_bias, c, n), gw, ga);
    put(grad_bias, c, gw);
    put(grad_metric, c, maps[c].metric_vjp(ga, gb));
  }
  bias_.grad += grad_bias;
  metric_.grad += grad_metric;
  saved_.drop();
  return GeometricTensor<T>(type_, std::move(grad_input));
}

template <class T>
std::string GbwBatchNorm<T>::describe() const {
  return "GbwBatchNorm(theta = " + std::to_string(options_.theta) +
         (options_.learn_metric ? ", learnt metric, " : ", metric I, ") + type_.describe() + ")";
}

template class GbwBatchNorm<float>;
template class GbwBatchNorm<double>;

}  // namespace gyre::nn
