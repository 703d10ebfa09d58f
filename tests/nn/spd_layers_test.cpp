// SPDNet's layers (BiMap, ReEig, LogEig, ExpEig, PowEig): forward against Eigen's dense algebra and
// MatrixFunctions item by item, backward against central differences taken along the manifold
// (check_gradients moves SPD inputs along symmetric tangent directions and BiMap's weights along
// Stiefel tangents), on spectra with well separated, exactly repeated and 1e-9-apart eigenvalues —
// where formulas that divide by λᵢ − λⱼ break — and on eigenvalues clamped by ReEig.
//
// Budgets (double): forward values against Eigen 1e-12 relative (a few n·ε from two
// eigendecompositions of condition-≤10 matrices); gradients with h = 1e-6 carry truncation
// h²·|L'''| ≈ 1e-12 and rounding ε·|L|/h ≈ 1e-10, so 1e-7 is the pass line while a wrong term shows at
// O(1e-1).

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>
#include <doctest/doctest.h>
#include <unsupported/Eigen/MatrixFunctions>

#include "gradient_report_check.hpp"
#include "gyre/check/gradient_check.hpp"
#include "gyre/nn/bimap.hpp"
#include "gyre/nn/eigenvalue_maps.hpp"
#include "gyre/nn/linear.hpp"
#include "gyre/nn/manifold_fibers.hpp"
#include "gyre/nn/sequential.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::nn::GeometricTensor;
using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

constexpr double kValueTolerance = 1e-12;
constexpr double kGradientStep = 1e-6;
constexpr double kGradientTolerance = 1e-7;

Matrix random_orthogonal(int n, gyre::Rng& rng) {
  Eigen::MatrixXd g(n, n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) g(i, j) = rng.normal<double>();
  }
  return Eigen::HouseholderQR<Eigen::MatrixXd>(g).householderQ();
}

// U·diag(λ)·Uᵀ for a Haar-random U.
Matrix with_spectrum(const std::vector<double>& lambda, gyre::Rng& rng) {
  const int n = static_cast<int>(lambda.size());
  const Matrix u = random_orthogonal(n, rng);
  Eigen::VectorXd l(n);
  for (int i = 0; i < n; ++i) l(i) = lambda[static_cast<std::size_t>(i)];
  const Matrix x = u * l.asDiagonal() * u.transpose();
  return 0.5 * (x + x.transpose());
}

// (B, C, n, n) from B·C matrices in order.
GeometricTensor<double> spd_batch(const std::vector<Matrix>& items, int batch, int channels) {
  const auto n = static_cast<std::size_t>(items.front().rows());
  xt::xarray<double> data =
      xt::zeros<double>({static_cast<std::size_t>(batch), static_cast<std::size_t>(channels), n, n});
  for (std::size_t k = 0; k < items.size(); ++k) {
    std::copy(items[k].data(), items[k].data() + n * n, data.data() + k * n * n);
  }
  return GeometricTensor<double>(gyre::nn::spd_features(static_cast<int>(n), channels), std::move(data));
}

Matrix item(const xt::xarray<double>& data, std::size_t k) {
  const auto n = static_cast<Eigen::Index>(data.shape()[data.dimension() - 1]);
  const auto r = static_cast<Eigen::Index>(data.shape()[data.dimension() - 2]);
  return Eigen::Map<const Matrix>(data.data() + static_cast<std::size_t>(k) * static_cast<std::size_t>(r * n), r, n);
}

// Every report below is held to the smooth-layer budget.
void check_report_within(const gyre::check::GradientReport& report, const std::vector<std::string>& quantities) {
  gyre::test::check_report(report, quantities, kGradientTolerance);
}

double relative_gap(const Matrix& a, const Matrix& b) { return (a - b).norm() / std::max(1.0, b.norm()); }

// The spectra every eigenvalue layer is checked on (all positive, for Log and Power).
const std::vector<std::vector<double>>& spectra() {
  static const std::vector<std::vector<double>> s = {
      {0.3, 0.9, 1.7, 2.4, 4.0},                // well separated
      {1.5, 1.5, 1.5, 0.7, 3.0},                // exactly repeated (a triple)
      {1.0, 1.0 + 1e-9, 2.0, 2.0 + 1e-9, 0.5},  // nearly repeated pairs
  };
  return s;
}

GeometricTensor<double> batch_with_spectrum(const std::vector<double>& lambda, int batch, int channels,
                                            gyre::Rng& rng) {
  std::vector<Matrix> items;
  for (int k = 0; k < batch * channels; ++k) items.push_back(with_spectrum(lambda, rng));
  return spd_batch(items, batch, channels);
}

}  // namespace

TEST_CASE(
    "BiMap: forward is Σᵢ W[o,i]ᵀ X[i] W[o,i], SPD, with Stiefel weights — backward matches differences along the "
    "manifold") {
  for (std::uint64_t seed : gyre::test::seeds(6)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    gyre::nn::BiMap<double> bimap(5, 3, 2, 3, seed);
    const xt::xarray<double>& w = bimap.weight().value;
    REQUIRE(w.shape() == std::vector<std::size_t>{3, 2, 5, 3});
    for (std::size_t k = 0; k < 6; ++k) {
      const Matrix wk = item(w, k);
      CHECK((wk.transpose() * wk - Matrix::Identity(3, 3)).norm() <= 1e-14);
    }
    std::vector<Matrix> items;
    for (int k = 0; k < 4; ++k)
      items.push_back(
          with_spectrum({0.2 + rng.uniform<double>(0, 1), 1.0, 1.5, 2.0, 3.0 + rng.uniform<double>(0, 1)}, rng));
    const GeometricTensor<double> x = spd_batch(items, 2, 2);
    const GeometricTensor<double> y = bimap.forward(x);
    bimap.discard_saved();
    CHECK(y.type == gyre::nn::spd_features(3, 3));
    for (std::size_t s = 0; s < 2; ++s) {
      for (std::size_t o = 0; o < 3; ++o) {
        Matrix expected = Matrix::Zero(3, 3);
        for (std::size_t i = 0; i < 2; ++i)
          expected += item(w, o * 2 + i).transpose() * items[s * 2 + i] * item(w, o * 2 + i);
        const Matrix got = item(y.data, s * 3 + o);
        CHECK(relative_gap(got, expected) <= kValueTolerance);
        CHECK(got == got.transpose());
        CHECK(Eigen::SelfAdjointEigenSolver<Matrix>(got).eigenvalues().minCoeff() > 0);
      }
    }
    check_report_within(gyre::check::check_gradients(bimap, x, kGradientStep, seed), {"input", "BiMap.weight"});
  }
}

TEST_CASE("ReEig: eigenvalues clamped at ε — backward along the manifold with clamped, repeated and free eigenvalues") {
  const double epsilon = 0.5;
  // Clamped eigenvalues (0.1, 0.2, 0.2) sit well below ε, free ones well above: the differences
  // never cross the kink, where ReEig has no derivative.
  const std::vector<std::vector<double>> cases = {
      {0.1, 0.2, 0.2, 1.0, 3.0}, {0.05, 0.8, 0.8, 0.8, 2.0}, {0.7, 0.9, 1.7, 2.4, 4.0}};
  for (std::uint64_t seed : gyre::test::seeds(3)) {
    for (const auto& lambda : cases) {
      CAPTURE(seed);
      gyre::Rng rng(seed);
      gyre::nn::ReEig<double> reeig(5, 2, epsilon);
      const GeometricTensor<double> x = batch_with_spectrum(lambda, 2, 2, rng);
      const GeometricTensor<double> y = reeig.forward(x);
      reeig.discard_saved();
      for (std::size_t k = 0; k < 4; ++k) {
        Eigen::SelfAdjointEigenSolver<Matrix> eig(item(x.data, k));
        const Eigen::VectorXd clamped = eig.eigenvalues().cwiseMax(epsilon);
        const Matrix expected = eig.eigenvectors() * clamped.asDiagonal() * eig.eigenvectors().transpose();
        CHECK(relative_gap(item(y.data, k), expected) <= kValueTolerance);
      }
      check_report_within(gyre::check::check_gradients(reeig, x, kGradientStep, seed), {"input"});
    }
  }
}

TEST_CASE(
    "LogEig and PowEig: forward against Eigen's MatrixFunctions — backward exact at repeated and 1e-9-apart "
    "eigenvalues") {
  for (std::uint64_t seed : gyre::test::seeds(3)) {
    for (const auto& lambda : spectra()) {
      CAPTURE(seed);
      gyre::Rng rng(seed);
      const GeometricTensor<double> x = batch_with_spectrum(lambda, 2, 2, rng);
      gyre::nn::LogEig<double> logeig(5, 2);
      gyre::nn::PowEig<double> poweig(5, 2, -0.7);
      const GeometricTensor<double> l = logeig.forward(x);
      const GeometricTensor<double> p = poweig.forward(x);
      logeig.discard_saved();
      poweig.discard_saved();
      CHECK(l.type == gyre::nn::matrix_features(5, 5, 2));
      for (std::size_t k = 0; k < 4; ++k) {
        const Eigen::MatrixXd xk = item(x.data, k);
        CHECK(relative_gap(item(l.data, k), xk.log()) <= kValueTolerance);
        CHECK(relative_gap(item(p.data, k), (-0.7 * xk.log()).exp()) <= kValueTolerance);
      }
      check_report_within(gyre::check::check_gradients(logeig, x, kGradientStep, seed), {"input"});
      check_report_within(gyre::check::check_gradients(poweig, x, kGradientStep, seed), {"input"});
    }
  }
}

TEST_CASE("ExpEig inverts LogEig — its backward matches differences along symmetric directions") {
  for (std::uint64_t seed : gyre::test::seeds(3)) {
    for (const auto& lambda : spectra()) {
      CAPTURE(seed);
      gyre::Rng rng(seed);
      const GeometricTensor<double> x = batch_with_spectrum(lambda, 2, 1, rng);
      gyre::nn::LogEig<double> logeig(5, 1);
      gyre::nn::ExpEig<double> expeig(5, 1);
      const GeometricTensor<double> l = logeig.forward(x);
      const GeometricTensor<double> back = expeig.forward(l);
      logeig.discard_saved();
      expeig.discard_saved();
      for (std::size_t k = 0; k < 2; ++k) CHECK(relative_gap(item(back.data, k), item(x.data, k)) <= kValueTolerance);
      gyre::check::GradientCheckOptions options;
      options.step = kGradientStep;
      options.seed = seed;
      options.symmetric_input = true;
      check_report_within(gyre::check::check_gradients(expeig, l, options), {"input"});
    }
  }
}

TEST_CASE(
    "An SPDNet (BiMap–ReEig–BiMap–ReEig–LogEig–Flatten–Linear) differentiates end to end, weights on Stiefel "
    "included") {
  for (std::uint64_t seed : gyre::test::seeds(3)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    gyre::nn::Sequential<double> net;
    net.add(std::make_unique<gyre::nn::BiMap<double>>(6, 4, 1, 2, seed));
    net.add(std::make_unique<gyre::nn::ReEig<double>>(4, 2, 0.05));
    net.add(std::make_unique<gyre::nn::BiMap<double>>(4, 3, 2, 2, seed + 1));
    net.add(std::make_unique<gyre::nn::ReEig<double>>(3, 2, 0.05));
    net.add(std::make_unique<gyre::nn::LogEig<double>>(3, 2));
    net.add(std::make_unique<gyre::nn::Flatten<double>>(gyre::nn::matrix_features(3, 3, 2)));
    net.add(std::make_unique<gyre::nn::Linear<double>>(18, 4, true, seed));
    std::vector<Matrix> items;
    for (int k = 0; k < 3; ++k) items.push_back(with_spectrum({0.5, 0.8, 1.0, 1.3, 2.0, 2.6}, rng));
    const GeometricTensor<double> x = spd_batch(items, 3, 1);
    const auto report = gyre::check::check_gradients(net, x, kGradientStep, seed);
    CHECK(report.errors.size() == 5);  // the input, two BiMap weights, the linear weight and bias
    for (const auto& e : report.errors) {
      CAPTURE(e.quantity);
      CHECK(e.relative_error <= kGradientTolerance);
    }
  }
}

TEST_CASE("SPD layers: bad sizes, settings and inputs are clear errors") {
  using gyre::DomainError;
  using gyre::ShapeError;
  CHECK_THROWS_AS(gyre::nn::BiMap<double>(3, 4), ShapeError);  // n_out > n_in: no orthonormal columns
  CHECK_THROWS_AS(gyre::nn::BiMap<double>(3, 0), ShapeError);
  CHECK_THROWS_AS(gyre::nn::BiMap<double>(3, 2, 0, 1), ShapeError);
  CHECK_THROWS_AS(gyre::nn::ReEig<double>(3, 1, 0.0), DomainError);
  CHECK_THROWS_AS(gyre::nn::ReEig<double>(3, 1, std::nan("")), DomainError);
  CHECK_THROWS_AS(gyre::nn::PowEig<double>(3, 1, std::numeric_limits<double>::infinity()), DomainError);
  gyre::Rng rng(7);
  gyre::nn::LogEig<double> logeig(3, 1);
  // A matrix with a negative eigenvalue: no real logarithm.
  const GeometricTensor<double> indefinite = spd_batch({with_spectrum({-1.0, 1.0, 2.0}, rng)}, 1, 1);
  CHECK_THROWS_WITH_AS(static_cast<void>(logeig.forward(indefinite)), doctest::Contains("Log"), DomainError);
  Matrix bad = with_spectrum({1.0, 2.0, 3.0}, rng);
  bad(0, 1) = std::nan("");
  CHECK_THROWS_AS(static_cast<void>(logeig.forward(spd_batch({bad}, 1, 1))), DomainError);
  bad(0, 1) = 1e300;
  CHECK_THROWS_AS(static_cast<void>(logeig.forward(spd_batch({bad}, 1, 1))), DomainError);
  // Wrong types name the layer and both types.
  gyre::nn::BiMap<double> bimap(4, 2);
  CHECK_THROWS_WITH_AS(static_cast<void>(bimap.forward(spd_batch({with_spectrum({1.0, 2.0, 3.0}, rng)}, 1, 1))),
                       doctest::Contains("BiMap::forward"), ShapeError);
  CHECK(logeig.pending_calls() == 0);
  CHECK_THROWS_AS(static_cast<void>(logeig.backward(GeometricTensor<double>(
                      gyre::nn::matrix_features(3, 3, 1), xt::xarray<double>(xt::zeros<double>({1, 1, 3, 3}))))),
                  gyre::nn::UnmatchedBackwardError);
  // A tiny but SPD input is fine: 1e-300·I has logarithm −690.8·I.
  const GeometricTensor<double> tiny = spd_batch({Matrix(1e-300 * Matrix::Identity(3, 3))}, 1, 1);
  const GeometricTensor<double> log_tiny = logeig.forward(tiny);
  CHECK(log_tiny.data(0, 0, 0, 0) == doctest::Approx(std::log(1e-300)).epsilon(1e-14));
}
