// Orbit canonicalization under SO(2): θ* against its closed form, θ*(g·x) = θ*(x) + α and an
// invariant backbone on canonical images for quarter turns (exact) and off-grid angles (reported),
// the optimizer's convergence, and bad input.

#include "gyre/nn/rotation_canonicalization.hpp"

#include <cmath>
#include <complex>
#include <string>

#include <boost/math/constants/constants.hpp>
#include <doctest/doctest.h>
#include <xtensor/xview.hpp>

#include "blob_images.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/nn/transform.hpp"
#include "gyre/repr/representation.hpp"
#include "support/test_support.hpp"

using gyre::nn::GeometricTensor;

namespace {

const double kPi = boost::math::constants::pi<double>();

gyre::nn::FieldType scalar_fields(int channels) {
  const auto so2 = gyre::repr::PlanarGroup::so2(4);
  return gyre::nn::FieldType(so2, gyre::repr::trivial_representation(so2), channels);
}

// Four blobs of spread 8 per image (blob_images.hpp).
template <class T>
GeometricTensor<T> blob_images(std::size_t batch, std::size_t size, std::uint64_t seed) {
  return GeometricTensor<T>(scalar_fields(1), gyre::test::blob_maps<T>(batch, 1, size, seed, 4, 8));
}

double angle_gap(double a, double b) { return std::abs(std::remainder(a - b, 2 * kPi)); }

// A backbone with no symmetry: a fixed random weighting of the pixels.
double backbone(const xt::xarray<double>& image, std::uint64_t seed) {
  gyre::Rng rng(seed);
  double s = 0;
  for (const double v : image) s += rng.normal<double>() * v;
  return s;
}

}  // namespace

TEST_CASE("canonical_rotations: one harmonic gives the closed form θ* = arg Z₁") {
  const auto x = blob_images<double>(4, 17, 3);
  gyre::nn::RotationTemplate one;
  one.weights = {1.0};
  const auto rotations = gyre::nn::canonical_rotations(x, one);
  for (std::size_t b = 0; b < 4; ++b) {
    std::complex<double> z = 0;
    const double sigma = 17.0 / 4;
    for (std::size_t r = 0; r < 17; ++r) {
      for (std::size_t c = 0; c < 17; ++c) {
        const double px = static_cast<double>(c) - 8, py = 8 - static_cast<double>(r);
        z += x.data(b, 0, r, c) * std::exp(-(px * px + py * py) / (2 * sigma * sigma)) * std::complex<double>(px, py) /
             (px == 0 && py == 0 ? 1.0 : std::hypot(px, py));
      }
    }
    CAPTURE(b);
    CHECK(angle_gap(rotations[b].angle, std::arg(z)) <= 1e-12);  // Newton to |E'| ≤ 1e-13·scale
    CHECK_FALSE(rotations[b].ambiguous);
    CHECK(rotations[b].gradient <= 1e-13);
  }
}

TEST_CASE_TEMPLATE("canonical_rotations: quarter turns shift θ* exactly, canonical images are invariant", T, float,
                   double) {
  const double tolerance = gyre::test::tol<T>(1e-10, 2e-4f);  // float maps: moments rounded at 1e-7
  const auto x = blob_images<T>(5, 16, 7);
  const auto rotations = gyre::nn::canonical_rotations(x);
  const auto canonical = gyre::nn::canonicalize_rotation(x, rotations);
  for (int quarter = 1; quarter < 4; ++quarter) {
    CAPTURE(quarter);
    const double alpha = quarter * kPi / 2;
    const auto turned = gyre::nn::transform(x, gyre::repr::PlanarElement{0, alpha});
    const auto turned_rotations = gyre::nn::canonical_rotations(turned);
    const auto turned_canonical = gyre::nn::canonicalize_rotation(turned, turned_rotations);
    for (std::size_t b = 0; b < 5; ++b) {
      CAPTURE(b);
      CHECK(angle_gap(turned_rotations[b].angle, rotations[b].angle + alpha) <= tolerance);
      const xt::xarray<double> ours = xt::cast<double>(xt::view(canonical.data, b));
      const xt::xarray<double> theirs = xt::cast<double>(xt::view(turned_canonical.data, b));
      CHECK(std::abs(backbone(ours, 5) - backbone(theirs, 5)) <= tolerance * (1 + std::abs(backbone(ours, 5))));
    }
  }
}

TEST_CASE("canonical_rotations: off-grid rotations shift θ* up to the resampling of the input") {
  const auto x = blob_images<double>(6, 33, 11);
  const auto rotations = gyre::nn::canonical_rotations(x);
  double worst = 0;
  for (const double degrees : {10.0, 30.0, 135.0, 222.0}) {
    const double alpha = degrees * kPi / 180;
    const auto turned = gyre::nn::transform(x, gyre::repr::PlanarElement{0, alpha});
    const auto turned_rotations = gyre::nn::canonical_rotations(turned);
    for (std::size_t b = 0; b < 6; ++b)
      worst = std::max(worst, angle_gap(turned_rotations[b].angle, rotations[b].angle + alpha));
  }
  MESSAGE("off-grid θ* error (bilinear input resampling of smooth 33×33 images): " << worst << " rad");
  // Blobs of σ = 2 px resampled bilinearly move their moments by ~1e-3 relative.
  CHECK(worst <= 1e-2);
}

TEST_CASE("canonical_rotations: scale-free, ambiguous images, and bad input") {
  const auto x = blob_images<double>(2, 15, 13);
  const auto reference = gyre::nn::canonical_rotations(x);
  for (const double scale : {1e300, 1e-300}) {
    CAPTURE(scale);
    GeometricTensor<double> scaled = x;
    scaled.data *= scale;
    const auto rotations = gyre::nn::canonical_rotations(scaled);
    for (std::size_t b = 0; b < 2; ++b) CHECK(angle_gap(rotations[b].angle, reference[b].angle) <= 1e-12);
  }
  // A disc has no harmonic: E ≡ 0, every angle is a minimum.
  GeometricTensor<double> disc(scalar_fields(1), xt::xarray<double>(xt::zeros<double>({1, 1, 9, 9})));
  disc.data(0, 0, 4, 4) = 1.0;
  CHECK(gyre::nn::canonical_rotations(disc)[0].ambiguous);
  // Four-fold symmetric: harmonics 1–3 vanish (a template with a 4th harmonic sees it).
  GeometricTensor<double> cross = disc;
  cross.data(0, 0, 4, 2) = cross.data(0, 0, 4, 6) = cross.data(0, 0, 2, 4) = cross.data(0, 0, 6, 4) = 1.0;
  CHECK(gyre::nn::canonical_rotations(cross)[0].ambiguous);
  gyre::nn::RotationTemplate fourth;
  fourth.weights = {0, 0, 0, 1};
  const auto with_fourth = gyre::nn::canonical_rotations(cross, fourth);
  CHECK(with_fourth[0].ambiguous);  // four minima, 90° apart: the cross's own symmetry
  GeometricTensor<double> nan_map = x;
  nan_map.data(1, 0, 3, 3) = std::nan("");
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::nn::canonical_rotations(nan_map)),
                       "gyre::canonical_rotations: maps must be finite (nan)", gyre::DomainError);
  gyre::nn::RotationTemplate zero;
  zero.weights = {0.0, 0.0};
  CHECK_THROWS_AS(static_cast<void>(gyre::nn::canonical_rotations(x, zero)), gyre::DomainError);
  gyre::nn::RotationTemplate negative;
  negative.sigma = -1;
  CHECK_THROWS_AS(static_cast<void>(gyre::nn::canonical_rotations(x, negative)), gyre::DomainError);
  const auto so2 = gyre::repr::PlanarGroup::so2(4);
  const GeometricTensor<double> vectors(gyre::nn::FieldType(so2, gyre::repr::irrep_representation(so2, {0, 1}), 1),
                                        xt::xarray<double>(xt::zeros<double>({1, 2, 5, 5})));
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::nn::canonical_rotations(vectors)),
                       "gyre::canonical_rotations: needs trivial (scalar) fields (irrep_1)", gyre::DomainError);
  CHECK_THROWS_AS(static_cast<void>(gyre::nn::canonicalize_rotation(x, {})), gyre::ShapeError);
}
