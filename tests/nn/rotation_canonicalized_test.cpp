// RotationCanonicalized: a plain CNN run on rotation-canonicalized images. θ*'s implicit derivative
// against central differences, invariance of the wrapped network (exact for quarter turns, reported
// off the grid), its backward against central differences, and bad input.

#include "gyre/nn/rotation_canonicalized.hpp"

#include <cmath>
#include <memory>
#include <string>

#include <boost/math/constants/constants.hpp>
#include <doctest/doctest.h>
#include <xtensor/xview.hpp>

#include "blob_images.hpp"
#include "gyre/check/gradient_check.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/nn/plain_conv2d.hpp"
#include "gyre/nn/pointwise_nonlinearity.hpp"
#include "gyre/nn/pooling.hpp"
#include "gyre/nn/sequential.hpp"
#include "gyre/nn/transform.hpp"
#include "support/test_support.hpp"

using gyre::nn::GeometricTensor;

namespace {

const double kPi = boost::math::constants::pi<double>();

// Three blobs of spread 6 per channel (blob_images.hpp).
template <class T>
xt::xarray<T> blobs(std::size_t batch, std::size_t channels, std::size_t size, std::uint64_t seed) {
  return gyre::test::blob_maps<T>(batch, channels, size, seed, 3, 6);
}

// conv3 → ELU → conv3 → global average: no symmetry of its own.
template <class T>
std::shared_ptr<gyre::nn::Sequential<T>> plain_backbone(int channels, std::uint64_t seed) {
  auto net = std::make_shared<gyre::nn::Sequential<T>>();
  net->template emplace<gyre::nn::PlainConv2d<T>>(channels, 3, 3, gyre::nn::Conv2dGeometry{1, 1, 1}, true, seed);
  net->template emplace<gyre::nn::PointwiseELU<T>>(gyre::nn::TensorType(gyre::nn::plain_field_type(3)));
  net->template emplace<gyre::nn::PlainConv2d<T>>(3, 2, 3, gyre::nn::Conv2dGeometry{1, 1, 1}, true, seed + 1);
  net->template emplace<gyre::nn::GlobalAveragePool<T>>(gyre::nn::plain_field_type(2));
  return net;
}

}  // namespace

TEST_CASE("canonical_rotation_gradient: equals central differences of θ* along random directions") {
  // θ* is smooth in x at a strict minimum; step 1e-6 in a unit direction, 1e-6 relative to the slope's size.
  const auto so2 = gyre::repr::PlanarGroup::so2(3);
  const gyre::nn::FieldType type(so2, gyre::repr::trivial_representation(so2), 2);
  int checked = 0;
  for (const std::uint64_t seed : gyre::test::seeds(8)) {
    CAPTURE(seed);
    const GeometricTensor<double> x(type, blobs<double>(1, 2, 15, seed));
    const auto rotations = gyre::nn::canonical_rotations(x);
    REQUIRE(!rotations[0].ambiguous);
    const xt::xarray<double> gradient = gyre::nn::canonical_rotation_gradient(x, rotations);
    gyre::Rng rng(seed + 100);
    xt::xarray<double> direction = xt::zeros_like(x.data);
    double norm = 0;
    for (double& v : direction) {
      v = rng.normal<double>();
      norm += v * v;
    }
    direction /= std::sqrt(norm);
    const double step = 1e-6;
    const auto theta = [&](double t) {
      return gyre::nn::canonical_rotations(GeometricTensor<double>(type, xt::xarray<double>(x.data + t * direction)))[0]
          .angle;
    };
    const double numeric = std::remainder(theta(step) - theta(-step), 2 * kPi) / (2 * step);
    double analytic = 0, size = 0;
    for (std::size_t i = 0; i < gradient.size(); ++i) {
      analytic += gradient.data()[i] * direction.data()[i];
      size += gradient.data()[i] * gradient.data()[i];
    }
    CHECK(std::abs(numeric - analytic) <= 1e-6 * std::sqrt(size));
    ++checked;
  }
  CHECK(checked == 8);
}

TEST_CASE_TEMPLATE("RotationCanonicalized: a plain CNN becomes invariant to quarter turns exactly, off-grid nearly", T,
                   float, double) {
  // Quarter turns permute pixels and shift θ* by exactly π/2 (to the optimizer's 1e-13), and bilinear
  // resampling commutes with the grid's symmetries: rounding only (1e-12 double, 1e-5 float). Off the
  // grid the input itself is resampled: reported, and bounded by 0.1 on these smooth images.
  auto wrapped = gyre::nn::RotationCanonicalized<T>(plain_backbone<T>(1, 3));
  wrapped.eval();
  const double tolerance = std::is_same<T, double>::value ? 1e-12 : 1e-5;
  double worst_off_grid = 0;
  for (const std::uint64_t seed : gyre::test::seeds(4)) {
    CAPTURE(seed);
    const GeometricTensor<T> x(wrapped.in_type(), blobs<T>(3, 1, 21, seed));
    const auto y = wrapped.forward(x).data;
    double norm = 0;
    for (const T v : y) norm += static_cast<double>(v) * v;
    for (const double angle : {kPi / 2, kPi, 3 * kPi / 2, 0.7}) {
      const auto moved = wrapped.forward(gyre::nn::transform(x, gyre::repr::PlanarElement{0, angle})).data;
      double diff = 0;
      for (std::size_t i = 0; i < y.size(); ++i) {
        const double d = static_cast<double>(moved.data()[i]) - y.data()[i];
        diff += d * d;
      }
      const double error = std::sqrt(diff / norm);
      if (angle == 0.7) {
        worst_off_grid = std::max(worst_off_grid, error);
      } else {
        CHECK(error <= tolerance);
      }
    }
    wrapped.discard_saved();
  }
  MESSAGE("RotationCanonicalized invariance error at 0.7 rad (bilinear input resampling): " << worst_off_grid);
  CHECK(worst_off_grid <= 0.1);
}

TEST_CASE("RotationCanonicalized: backward equals central differences (input through θ*, and parameters)") {
  // Piecewise smooth (bilinear cells): step 1e-6 stays inside one cell on these seeds; 1e-6 relative.
  for (const std::uint64_t seed : gyre::test::seeds(3)) {
    CAPTURE(seed);
    gyre::nn::RotationCanonicalized<double> wrapped(plain_backbone<double>(2, seed));
    const GeometricTensor<double> x(wrapped.in_type(), blobs<double>(2, 2, 13, seed));
    CHECK(gyre::check::check_gradients(wrapped, x, 1e-6, seed + 5).max_error() <= 1e-6);
  }
}

TEST_CASE("RotationCanonicalized: bad backbones and inputs, empty batches") {
  CHECK_THROWS_AS(gyre::nn::RotationCanonicalized<double>{nullptr}, gyre::ShapeError);
  // A backbone on vector fields: θ* reads channels as scalars.
  const auto so2 = gyre::repr::PlanarGroup::so2(2);
  auto vector_backbone = std::make_shared<gyre::nn::GlobalAveragePool<double>>(
      gyre::nn::FieldType(so2, gyre::repr::irrep_representation(so2, {0, 1}), 1));
  CHECK_THROWS_AS(gyre::nn::RotationCanonicalized<double>{vector_backbone}, gyre::ShapeError);
  gyre::nn::RotationCanonicalized<double> wrapped(plain_backbone<double>(1, 1));
  // The backbone's own C1 type is not the wrapper's SO(2) type.
  CHECK_THROWS_AS(
      static_cast<void>(wrapped.forward(GeometricTensor<double>(gyre::nn::TensorType(gyre::nn::plain_field_type(1)),
                                                                xt::xarray<double>(xt::zeros<double>({1, 1, 9, 9}))))),
      gyre::ShapeError);
  xt::xarray<double> bad = blobs<double>(1, 1, 9, 4);
  bad(0, 0, 4, 4) = std::nan("");
  CHECK_THROWS_AS(static_cast<void>(wrapped.forward(GeometricTensor<double>(wrapped.in_type(), bad))),
                  gyre::DomainError);
  // Huge and tiny pixels: θ* is found on the image scaled by its largest entry, so both stay finite.
  for (const double extreme : {1e300, 1e-300}) {
    CAPTURE(extreme);
    bad(0, 0, 4, 4) = extreme;
    const auto y = wrapped.forward(GeometricTensor<double>(wrapped.in_type(), bad));
    CHECK(std::isfinite(wrapped.last_rotations()[0].angle));
    for (const double v : y.data) CHECK(std::isfinite(v));
    wrapped.discard_saved();
  }
  const auto empty =
      wrapped.forward(GeometricTensor<double>(wrapped.in_type(), xt::xarray<double>(xt::zeros<double>({0, 1, 9, 9}))));
  CHECK(empty.data.shape()[0] == 0);
  CHECK(wrapped.backward(GeometricTensor<double>(wrapped.out_type(), empty.data)).data.shape()[0] == 0);
  CHECK_THROWS_AS(static_cast<void>(wrapped.backward(GeometricTensor<double>(wrapped.out_type(), empty.data))),
                  gyre::nn::UnmatchedBackwardError);
}
