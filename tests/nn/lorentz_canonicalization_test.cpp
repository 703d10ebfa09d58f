// Orbit canonicalization under SO⁺(1,3): Λ*(M·P) = M·Λ*(P) and invariant canonical momenta on
// seeded random sets (the invariance error reported), the optimizer's stopping point, bad input;
// the backward through Λ* and the LorentzCanonicalized wrapper.

#include "gyre/nn/lorentz_canonicalization.hpp"

#include <cmath>
#include <memory>
#include <vector>

#include <doctest/doctest.h>

#include "gyre/check/gradient_check.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/nn/linear.hpp"
#include "gyre/nn/lorentz_canonicalized.hpp"
#include "gyre/nn/pointwise_nonlinearity.hpp"
#include "gyre/nn/sequential.hpp"
#include "lorentz/lorentz.hpp"
#include "support/test_support.hpp"

using gyre::Matrix;

namespace {

// n momenta with masses in [0, 1] (some massless) and spatial parts N(0, 1)³.
Matrix<double> random_momenta(int n, gyre::Rng& rng) {
  Matrix<double> p(n, 4);
  for (int i = 0; i < n; ++i) {
    const double mass = i % 3 == 2 ? 0.0 : rng.uniform(0.1, 1.0);
    for (int k = 1; k < 4; ++k) p(i, k) = rng.normal<double>();
    p(i, 0) = std::sqrt(mass * mass + p.row(i).tail(3).squaredNorm());
  }
  return p;
}

// n massive momenta (masses in [0.3, 1]): inside the light cone, so that the small perturbations
// of a finite-difference check keep them causal.
Matrix<double> massive_momenta(int n, gyre::Rng& rng) {
  Matrix<double> p(n, 4);
  for (int i = 0; i < n; ++i) {
    const double mass = rng.uniform(0.3, 1.0);
    for (int k = 1; k < 4; ++k) p(i, k) = rng.normal<double>();
    p(i, 0) = std::sqrt(mass * mass + p.row(i).tail(3).squaredNorm());
  }
  return p;
}

}  // namespace

TEST_CASE("canonical_lorentz_frame: Λ*(M·P) = M·Λ*(P) and the canonical momenta are invariant") {
  const gyre::Lorentz<double> group(1.5);
  double worst = 0;
  for (const std::uint64_t seed : gyre::test::seeds(50)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    const Matrix<double> p = random_momenta(3 + static_cast<int>(seed % 4), rng);
    const Matrix<double> m = group.random_point(rng);
    const Matrix<double> moved = (m * p.transpose()).transpose();
    const auto frame = gyre::nn::canonical_lorentz_frame(p);
    const auto moved_frame = gyre::nn::canonical_lorentz_frame(moved);
    CHECK(frame.gradient <= 1e-12);
    const Matrix<double> eta = gyre::minkowski_metric<double>();
    CHECK((frame.transform.transpose() * eta * frame.transform - eta).norm() <= 1e-11 * frame.transform.squaredNorm());
    const Matrix<double> q = gyre::nn::canonicalize_lorentz(p, frame);
    const Matrix<double> moved_q = gyre::nn::canonicalize_lorentz(moved, moved_frame);
    const double error = (q - moved_q).norm() / q.norm();
    worst = std::max(worst, error);
    // Newton to ‖∇c‖ ≤ 1e-12·Σq⁰, through boosts of rapidity ≤ 1.5 (entries ≤ cosh 1.5 ≈ 2.4): 1e-9.
    CHECK(error <= 1e-9);
    CHECK((moved_frame.transform - m * frame.transform).norm() <= 1e-9 * (m * frame.transform).norm());
  }
  MESSAGE("SO⁺(1,3) canonicalization, worst relative invariance error over 50 sets: " << worst);
}

TEST_CASE("canonical_lorentz_frame: a canonical set is its own canonical form") {
  gyre::Rng rng(9);
  const Matrix<double> p = random_momenta(5, rng);
  const Matrix<double> q = gyre::nn::canonicalize_lorentz(p, gyre::nn::canonical_lorentz_frame(p));
  const auto again = gyre::nn::canonical_lorentz_frame(q);
  CHECK((again.transform - Matrix<double>::Identity(4, 4)).norm() <= 1e-9);
  // The alignment: q₁ has no x or y part beyond what the energy trades, and q₂ lies in x ≥ 0.
  CHECK(q(1, 1) > 0);
}

TEST_CASE("canonical_lorentz_frame: bad input names the condition and the value") {
  gyre::Rng rng(3);
  const Matrix<double> p = random_momenta(3, rng);
  CHECK_THROWS_AS(static_cast<void>(gyre::nn::canonical_lorentz_frame(p.topRows(1))), gyre::ShapeError);
  CHECK_THROWS_AS(static_cast<void>(gyre::nn::canonical_lorentz_frame(p.leftCols(3))), gyre::ShapeError);
  Matrix<double> spacelike = p;
  spacelike(1, 0) = 0.5 * spacelike.row(1).tail(3).norm();
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::nn::canonical_lorentz_frame(spacelike)),
                       doctest::Contains("momentum 1 is not future-directed causal"), gyre::DomainError);
  Matrix<double> nan = p;
  nan(0, 2) = std::nan("");
  CHECK_THROWS_AS(static_cast<void>(gyre::nn::canonical_lorentz_frame(nan)), gyre::DomainError);
  Matrix<double> collinear(2, 4);
  collinear << 1, 0, 0, 1, 2, 0, 0, 2;  // two massless momenta along z: P·P = 0
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::nn::canonical_lorentz_frame(collinear)),
                       doctest::Contains("the total momentum must be timelike"), gyre::DomainError);
  gyre::nn::LorentzCanonicalizationOptions wide;
  wide.alignment = 0.7;
  CHECK_THROWS_AS(static_cast<void>(gyre::nn::canonical_lorentz_frame(p, wide)), gyre::DomainError);
  // Scale: momenta at 1e150 and 1e-150 canonicalize as the unit-scale set does (c is linear in Q).
  const auto unit = gyre::nn::canonical_lorentz_frame(p);
  for (const double s : {1e150, 1e-150}) {
    CAPTURE(s);
    CHECK((gyre::nn::canonical_lorentz_frame(p * s).transform - unit.transform).norm() <= 1e-9);
  }
}

TEST_CASE("canonicalize_lorentz_backward: equals central differences of the canonical momenta") {
  // L(P) = ⟨W, Q(P)⟩ along random directions. Λ* stops at ‖∇c‖ ≤ 1e-12·Σq⁰ (Newton: far below in
  // practice), so a step of 1e-5 sees stopping noise ≲ 1e-7 and truncation 1e-10: 1e-6 relative.
  for (const std::uint64_t seed : gyre::test::seeds(20)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    const Matrix<double> p = massive_momenta(4, rng);
    const Matrix<double> w = rng.normal_matrix<double>(4, 4);
    Matrix<double> direction = rng.normal_matrix<double>(4, 4);
    direction /= direction.norm();
    const auto loss = [&](const Matrix<double>& x) {
      return (w.array() * gyre::nn::canonicalize_lorentz(x, gyre::nn::canonical_lorentz_frame(x)).array()).sum();
    };
    const double step = 1e-5;
    const double numeric = (loss(p + step * direction) - loss(p - step * direction)) / (2 * step);
    const Matrix<double> grad = gyre::nn::canonicalize_lorentz_backward(p, gyre::nn::canonical_lorentz_frame(p), w);
    const double analytic = (grad.array() * direction.array()).sum();
    CHECK(std::abs(numeric - analytic) <= 1e-6 * grad.norm());
  }
}

namespace {

// Flatten → Linear(4n → 8) → ELU → Linear(8 → 2): no Lorentz symmetry of its own.
std::shared_ptr<gyre::nn::Sequential<double>> momentum_mlp(int n, std::uint64_t seed) {
  auto mlp = std::make_shared<gyre::nn::Sequential<double>>();
  mlp->emplace<gyre::nn::Flatten<double>>(gyre::nn::momenta_type(n));
  mlp->emplace<gyre::nn::Linear<double>>(4 * n, 8, true, seed);
  mlp->emplace<gyre::nn::PointwiseELU<double>>(
      gyre::nn::TensorType(gyre::nn::Base::kNone, gyre::nn::EuclideanFiber{8, {}}));
  mlp->emplace<gyre::nn::Linear<double>>(8, 2, true, seed + 1);
  return mlp;
}

xt::xarray<double> as_batch(const std::vector<Matrix<double>>& sets) {
  const auto n = static_cast<std::size_t>(sets.front().rows());
  xt::xarray<double> x = xt::xarray<double>::from_shape({sets.size(), std::size_t{1}, n, std::size_t{4}});
  for (std::size_t b = 0; b < sets.size(); ++b)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t k = 0; k < 4; ++k)
        x(b, 0, i, k) = sets[b](static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(k));
  return x;
}

}  // namespace

TEST_CASE("LorentzCanonicalized: an MLP on momenta becomes Lorentz invariant, and its backward is exact") {
  const gyre::Lorentz<double> group(1.5);
  gyre::nn::LorentzCanonicalized<double> wrapped(momentum_mlp(4, 3));
  auto plain = momentum_mlp(4, 3);
  std::vector<Matrix<double>> sets, moved;
  gyre::Rng rng(5);
  for (int b = 0; b < 6; ++b) {
    sets.push_back(massive_momenta(4, rng));
    moved.push_back((group.random_point(rng) * sets.back().transpose()).transpose());
  }
  const gyre::nn::GeometricTensor<double> x(wrapped.in_type(), as_batch(sets)), gx(wrapped.in_type(), as_batch(moved));
  {
    const gyre::nn::NoGrad no_grad;
    const auto gap = [](gyre::nn::Module<double>& net, const auto& a, const auto& b) {
      const xt::xarray<double> ya = net.forward(a).data, yb = net.forward(b).data;
      double d = 0, n = 0;
      for (std::size_t i = 0; i < ya.size(); ++i) {
        d += (ya.data()[i] - yb.data()[i]) * (ya.data()[i] - yb.data()[i]);
        n += ya.data()[i] * ya.data()[i];
      }
      return std::sqrt(d / n);
    };
    // The canonical momenta agree to 1e-9 (the test above); the MLP is Lipschitz on them.
    CHECK(gap(wrapped, x, gx) <= 1e-9);
    CHECK(gap(*plain, x, gx) >= 1e-2);
  }
  CHECK(wrapped.last_frames().size() == 6);
  // Λ*'s stopping noise: step 1e-6 sees ≲ 1e-6 relative.
  CHECK(gyre::check::check_gradients(wrapped, x, 1e-6, 7).max_error() <= 1e-5);
}

TEST_CASE("LorentzCanonicalized: bad backbones, bad momenta and empty batches") {
  CHECK_THROWS_AS(gyre::nn::LorentzCanonicalized<double>{nullptr}, gyre::ShapeError);
  auto wrong = std::make_shared<gyre::nn::Flatten<double>>(
      gyre::nn::TensorType(gyre::nn::Base::kNone, gyre::nn::EuclideanFiber{1, {4, 3}}));
  CHECK_THROWS_AS(gyre::nn::LorentzCanonicalized<double>{wrong}, gyre::ShapeError);
  gyre::nn::LorentzCanonicalized<double> wrapped(momentum_mlp(3, 1));
  gyre::Rng rng(2);
  Matrix<double> p = random_momenta(3, rng);
  p(1, 0) = 0.1 * p.row(1).tail(3).norm();  // spacelike: not a particle
  CHECK_THROWS_AS(
      static_cast<void>(wrapped.forward(gyre::nn::GeometricTensor<double>(wrapped.in_type(), as_batch({p})))),
      gyre::DomainError);
  p(1, 0) = std::nan("");
  CHECK_THROWS_AS(
      static_cast<void>(wrapped.forward(gyre::nn::GeometricTensor<double>(wrapped.in_type(), as_batch({p})))),
      gyre::DomainError);
  // Scale does not move Λ*: momenta at 1e±300 get the same canonical form, scaled (1e-12).
  const Matrix<double> good = random_momenta(3, rng);
  const Matrix<double> q = gyre::nn::canonicalize_lorentz(good, gyre::nn::canonical_lorentz_frame(good));
  for (const double scale : {1e300, 1e-300}) {
    CAPTURE(scale);
    const Matrix<double> far = good * scale;
    const Matrix<double> far_q = gyre::nn::canonicalize_lorentz(far, gyre::nn::canonical_lorentz_frame(far)) / scale;
    CHECK((far_q - q).norm() <= 1e-12 * q.norm());
  }
  CHECK_THROWS_AS(static_cast<void>(gyre::nn::canonical_lorentz_frame(Matrix<double>::Zero(3, 4))), gyre::DomainError);
  const xt::xarray<double> none = xt::zeros<double>({std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{4}});
  const auto empty = wrapped.forward(gyre::nn::GeometricTensor<double>(wrapped.in_type(), none));
  CHECK(empty.data.shape()[0] == 0);
  CHECK(wrapped.backward(gyre::nn::GeometricTensor<double>(wrapped.out_type(), empty.data)).data.shape()[0] == 0);
}
