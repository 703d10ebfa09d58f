#pragma once
// Test helpers for the layer suites: every layer of nonlinearity, pooling and batch norm built on
// field types of one group, random feature maps, and the group action on channels alone.

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "gyre/core/rng.hpp"
#include "gyre/nn/field_nonlinearity.hpp"
#include "gyre/nn/inner_batch_norm.hpp"
#include "gyre/nn/pointwise_nonlinearity.hpp"
#include "gyre/nn/pooling.hpp"

namespace gyre::test {

/// N(0, 1) feature maps of the given type.
template <class T>
nn::GeometricTensor<T> random_feature_map(const nn::TensorType& type, std::size_t n, std::size_t h, std::size_t w,
                                          std::uint64_t seed) {
  Rng rng(seed);
  xt::xtensor<T, 4> x = xt::xtensor<T, 4>::from_shape({n, static_cast<std::size_t>(type.channels()), h, w});
  for (T& v : x) v = rng.normal<T>();
  return nn::GeometricTensor<T>(type, std::move(x));
}

/// Permutation fields: regular, a quotient and trivial (what pointwise layers accept).
inline nn::FieldType permutation_fields(const repr::PlanarGroup& g) {
  const repr::Representation quotient =
      g.has_flips() ? repr::quotient_representation(g, 1, true) : repr::quotient_representation(g, g.n() / 2, false);
  return nn::FieldType(g, {repr::regular_representation(g), quotient, repr::trivial_representation(g)});
}

/// The fields named as escnn names them ("regular", "irrep_1", "irrep_1,0", "regular_2", …).
inline nn::FieldType fields_by_name(const repr::PlanarGroup& g, const std::vector<std::string>& names) {
  std::vector<repr::Representation> reps;
  for (const std::string& name : names) reps.push_back(repr::representation_by_name(g, name));
  return nn::FieldType(g, std::move(reps));
}

/// Any fields: a 2-d irrep, regular, trivial, and for flip groups the sign irrep of the flip.
inline nn::FieldType mixed_fields(const repr::PlanarGroup& g) {
  std::vector<repr::Representation> fields{repr::irrep_representation(g, {g.has_flips() ? 1 : 0, 1}),
                                           repr::regular_representation(g), repr::trivial_representation(g)};
  if (g.has_flips()) fields.push_back(repr::irrep_representation(g, {1, 0}));
  return nn::FieldType(g, std::move(fields));
}

/// One of each layer of this suite on fields of g, with non-zero parameters (so every path runs).
template <class T>
std::vector<std::unique_ptr<nn::Module<T>>> layer_zoo(const repr::PlanarGroup& g) {
  const nn::FieldType perm = permutation_fields(g);
  const nn::FieldType mixed = mixed_fields(g);
  std::vector<std::unique_ptr<nn::Module<T>>> zoo;
  zoo.push_back(std::make_unique<nn::PointwiseReLU<T>>(perm));
  zoo.push_back(std::make_unique<nn::PointwiseELU<T>>(perm, T(0.7)));
  zoo.push_back(std::make_unique<nn::NormReLU<T>>(mixed));
  zoo.push_back(std::make_unique<nn::GatedNonlinearity<T>>(mixed));
  zoo.push_back(std::make_unique<nn::PointwiseMaxPool<T>>(perm, 3, 2, 1));
  zoo.push_back(std::make_unique<nn::NormMaxPool<T>>(mixed, 2));
  zoo.push_back(std::make_unique<nn::PointwiseAvgPool<T>>(mixed, 3, 2, 1));
  zoo.push_back(std::make_unique<nn::GroupPooling<T>>(perm));
  zoo.push_back(std::make_unique<nn::GlobalAveragePool<T>>(mixed));
  zoo.push_back(std::make_unique<nn::InnerBatchNorm<T>>(perm));
  Rng rng(17);
  for (auto& layer : zoo) {
    for (nn::Parameter<T>* p : layer->parameters()) {
      // |b| ≤ 0.3 keeps NormReLU's bias below typical norms, so both of its branches occur.
      for (T& v : p->value) v += T(0.3) * rng.normal<T>();
    }
  }
  return zoo;
}

/// y[n, :, h, w] = M·x[n, :, h, w]: the group acting on channels only.
template <class Maps>
xt::xtensor<typename Maps::value_type, 4> act_on_channels(const Matrix<double>& m, const Maps& x) {
  using T = typename Maps::value_type;
  xt::xtensor<T, 4> y = xt::zeros<T>({x.shape(0), x.shape(1), x.shape(2), x.shape(3)});
  const std::size_t c = x.shape(1);
  const std::size_t plane = x.shape(2) * x.shape(3);
  for (std::size_t n = 0; n < x.shape(0); ++n) {
    for (std::size_t i = 0; i < c; ++i) {
      for (std::size_t j = 0; j < c; ++j) {
        const T mij = static_cast<T>(m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)));
        if (mij == 0) continue;
        const T* src = x.data() + (n * c + j) * plane;
        T* dst = y.data() + (n * c + i) * plane;
        for (std::size_t p = 0; p < plane; ++p) dst[p] += mij * src[p];
      }
    }
  }
  return y;
}

/// ‖a − b‖ / max(‖b‖, tiny).
template <class A, class B>
double relative_difference(const A& a, const B& b) {
  if (!std::equal(a.shape().begin(), a.shape().end(), b.shape().begin(), b.shape().end())) {
    return std::numeric_limits<double>::infinity();
  }
  double diff = 0;
  double norm = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double d = static_cast<double>(a.data()[i]) - static_cast<double>(b.data()[i]);
    diff += d * d;
    norm += static_cast<double>(b.data()[i]) * static_cast<double>(b.data()[i]);
  }
  return std::sqrt(diff) / std::max(std::sqrt(norm), 1e-300);
}

}  // namespace gyre::test
