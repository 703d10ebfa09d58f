// GrNet's layers (FRMap, ReOrth, ProjMap, ProjPooling): forward against closed forms item by item,
// backward against central differences — along the Grassmannian for basis inputs (check_gradients
// moves them along horizontal tangents), entry by entry for Euclidean ones.
//
// Budgets (double): forward values 1e-13 relative (one product or one QR of a well-conditioned
// matrix); gradients with h = 1e-6: truncation h²·|L'''| ≈ 1e-12, rounding ε·|L|/h ≈ 1e-10, pass line
// 1e-7, while a wrong term shows at O(1e-1).

#include "gyre/nn/grassmann_layers.hpp"

#include <memory>
#include <string>
#include <vector>

#include <Eigen/QR>
#include <doctest/doctest.h>

#include "gradient_report_check.hpp"
#include "gyre/check/gradient_check.hpp"
#include "gyre/nn/linear.hpp"
#include "gyre/nn/manifold_fibers.hpp"
#include "gyre/nn/sequential.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::nn::GeometricTensor;
using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

constexpr double kValueTolerance = 1e-13;
constexpr double kGradientStep = 1e-6;
constexpr double kGradientTolerance = 1e-7;

Matrix gaussian(int rows, int cols, gyre::Rng& rng) {
  Matrix g(rows, cols);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) g(i, j) = rng.normal<double>();
  }
  return g;
}

Matrix orthonormal_basis(int n, int p, gyre::Rng& rng) {
  const Eigen::MatrixXd g = gaussian(n, p, rng);
  return Eigen::HouseholderQR<Eigen::MatrixXd>(g).householderQ() * Eigen::MatrixXd::Identity(n, p);
}

GeometricTensor<double> batch_of(const gyre::nn::TensorType& type, const std::vector<Matrix>& items, int batch) {
  const auto r = static_cast<std::size_t>(items.front().rows());
  const auto c = static_cast<std::size_t>(items.front().cols());
  xt::xarray<double> data =
      xt::zeros<double>({static_cast<std::size_t>(batch), static_cast<std::size_t>(type.channels()), r, c});
  for (std::size_t k = 0; k < items.size(); ++k)
    std::copy(items[k].data(), items[k].data() + r * c, data.data() + k * r * c);
  return GeometricTensor<double>(type, std::move(data));
}

Matrix item(const xt::xarray<double>& data, std::size_t k) {
  const auto rows = static_cast<Eigen::Index>(data.shape()[2]);
  const auto cols = static_cast<Eigen::Index>(data.shape()[3]);
  return Eigen::Map<const Matrix>(data.data() + k * static_cast<std::size_t>(rows * cols), rows, cols);
}

// Every report below is held to the smooth-layer budget.
void check_report_within(const gyre::check::GradientReport& report, const std::vector<std::string>& quantities) {
  gyre::test::check_report(report, quantities, kGradientTolerance);
}

double relative_gap(const Matrix& a, const Matrix& b) { return (a - b).norm() / std::max(1.0, b.norm()); }

}  // namespace

TEST_CASE("FRMap: Y[c·K + k] = W[c, k]·X[c] with orthonormal-row weights — backward along the Grassmannian") {
  for (std::uint64_t seed : gyre::test::seeds(5)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    gyre::nn::FRMap<double> frmap(7, 5, 2, 2, 3, seed);
    const xt::xarray<double>& w = frmap.weight().value;
    REQUIRE(w.shape() == std::vector<std::size_t>{2, 3, 5, 7});
    for (std::size_t k = 0; k < 6; ++k)
      CHECK((item(w, k) * item(w, k).transpose() - Matrix::Identity(5, 5)).norm() <= 1e-14);
    std::vector<Matrix> bases;
    for (int k = 0; k < 4; ++k) bases.push_back(orthonormal_basis(7, 2, rng));
    const GeometricTensor<double> x = batch_of(gyre::nn::grassmann_features(7, 2, 2), bases, 2);
    const GeometricTensor<double> y = frmap.forward(x);
    frmap.discard_saved();
    CHECK(y.type == gyre::nn::matrix_features(5, 2, 6));
    for (std::size_t s = 0; s < 2; ++s) {
      for (std::size_t c = 0; c < 2; ++c) {
        for (std::size_t k = 0; k < 3; ++k) {
          CHECK(relative_gap(item(y.data, s * 6 + c * 3 + k), item(w, c * 3 + k) * bases[s * 2 + c]) <=
                kValueTolerance);
        }
      }
    }
    check_report_within(gyre::check::check_gradients(frmap, x, kGradientStep, seed), {"input", "FRMap.weight"});
  }
}

TEST_CASE("ReOrth: the Q of a thin QR with positive diag(R) — backward against entrywise differences") {
  for (std::uint64_t seed : gyre::test::seeds(5)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    std::vector<Matrix> items;
    for (int k = 0; k < 6; ++k) items.push_back(gaussian(6, 3, rng));
    const GeometricTensor<double> x = batch_of(gyre::nn::matrix_features(6, 3, 3), items, 2);
    gyre::nn::ReOrth<double> reorth(6, 3, 3);
    const GeometricTensor<double> q = reorth.forward(x);
    reorth.discard_saved();
    CHECK(q.type == gyre::nn::grassmann_features(6, 3, 3));
    for (std::size_t k = 0; k < 6; ++k) {
      const Matrix qk = item(q.data, k);
      const Matrix r = qk.transpose() * items[k];
      CHECK((qk.transpose() * qk - Matrix::Identity(3, 3)).norm() <= 1e-14);
      CHECK(relative_gap(qk * r, items[k]) <= kValueTolerance);
      for (int i = 0; i < 3; ++i) {
        CHECK(r(i, i) > 0);
        for (int j = 0; j < i; ++j) CHECK(std::abs(r(i, j)) <= 1e-13 * items[k].norm());
      }
    }
    check_report_within(gyre::check::check_gradients(reorth, x, kGradientStep, seed), {"input"});
  }
}

TEST_CASE("ProjMap and ProjPooling: X·Xᵀ and channel means — backward along the Grassmannian and entrywise") {
  for (std::uint64_t seed : gyre::test::seeds(5)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    std::vector<Matrix> bases;
    for (int k = 0; k < 8; ++k) bases.push_back(orthonormal_basis(5, 2, rng));
    const GeometricTensor<double> x = batch_of(gyre::nn::grassmann_features(5, 2, 4), bases, 2);
    gyre::nn::ProjMap<double> projmap(5, 2, 4);
    gyre::nn::ProjPooling<double> pooling(5, 4, 2);
    const GeometricTensor<double> p = projmap.forward(x);
    const GeometricTensor<double> pooled = pooling.forward(p);
    projmap.discard_saved();
    pooling.discard_saved();
    CHECK(pooled.type == gyre::nn::matrix_features(5, 5, 2));
    for (std::size_t k = 0; k < 8; ++k)
      CHECK(relative_gap(item(p.data, k), bases[k] * bases[k].transpose()) <= kValueTolerance);
    for (std::size_t k = 0; k < 4; ++k) {
      const Matrix mean = 0.5 * (item(p.data, 2 * k) + item(p.data, 2 * k + 1));
      CHECK(relative_gap(item(pooled.data, k), mean) <= kValueTolerance);
    }
    check_report_within(gyre::check::check_gradients(projmap, x, kGradientStep, seed), {"input"});
    check_report_within(gyre::check::check_gradients(pooling, p, kGradientStep, seed), {"input"});
  }
}

TEST_CASE("A GrNet (FRMap–ReOrth–ProjMap–ProjPooling–Flatten–Linear) differentiates end to end") {
  for (std::uint64_t seed : gyre::test::seeds(3)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    gyre::nn::Sequential<double> net;
    net.add(std::make_unique<gyre::nn::FRMap<double>>(8, 5, 2, 1, 4, seed));
    net.add(std::make_unique<gyre::nn::ReOrth<double>>(5, 2, 4));
    net.add(std::make_unique<gyre::nn::ProjMap<double>>(5, 2, 4));
    net.add(std::make_unique<gyre::nn::ProjPooling<double>>(5, 4, 2));
    net.add(std::make_unique<gyre::nn::Flatten<double>>(gyre::nn::matrix_features(5, 5, 2)));
    net.add(std::make_unique<gyre::nn::Linear<double>>(50, 3, true, seed));
    std::vector<Matrix> bases;
    for (int k = 0; k < 3; ++k) bases.push_back(orthonormal_basis(8, 2, rng));
    const auto report = gyre::check::check_gradients(net, batch_of(gyre::nn::grassmann_features(8, 2, 1), bases, 3),
                                                     kGradientStep, seed);
    CHECK(report.errors.size() == 4);  // the input, FRMap's weight, the linear weight and bias
    for (const auto& e : report.errors) {
      CAPTURE(e.quantity);
      CHECK(e.relative_error <= kGradientTolerance);
    }
  }
}

TEST_CASE("Grassmann layers: bad sizes and rank-deficient inputs are clear errors") {
  using gyre::DomainError;
  using gyre::ShapeError;
  CHECK_THROWS_AS(gyre::nn::FRMap<double>(4, 5, 2), ShapeError);  // m > n: W cannot have full row rank
  CHECK_THROWS_AS(gyre::nn::FRMap<double>(4, 3, 4), ShapeError);  // p > m
  CHECK_THROWS_AS(gyre::nn::FRMap<double>(4, 3, 2, 1, 0), ShapeError);
  CHECK_THROWS_AS(gyre::nn::ProjPooling<double>(4, 3, 2), ShapeError);  // 2 does not divide 3
  CHECK_THROWS_AS(gyre::nn::ProjPooling<double>(4, 3, 0), ShapeError);
  gyre::nn::ReOrth<double> reorth(4, 2, 1);
  Matrix repeated(4, 2);
  repeated << 1, 2, 2, 4, 3, 6, 4, 8;  // the second column is twice the first: rank 1
  CHECK_THROWS_AS(static_cast<void>(reorth.forward(batch_of(gyre::nn::matrix_features(4, 2, 1), {repeated}, 1))),
                  DomainError);
  Matrix bad = Matrix::Identity(4, 2);
  bad(1, 0) = std::nan("");
  CHECK_THROWS_AS(static_cast<void>(reorth.forward(batch_of(gyre::nn::matrix_features(4, 2, 1), {bad}, 1))),
                  DomainError);
  CHECK(reorth.pending_calls() == 0);
  gyre::nn::ProjMap<double> projmap(4, 2, 1);
  CHECK_THROWS_WITH_AS(static_cast<void>(projmap.forward(batch_of(gyre::nn::matrix_features(4, 2, 1), {repeated}, 1))),
                       doctest::Contains("ProjMap::forward"), ShapeError);
}
