// Linear and Flatten (the heads of SPD and Grassmann networks), and the gradient checker on
// manifold-valued inputs: it must pass a correct backward and catch a wrong one that entrywise
// differences could not even evaluate (an SPD layer rejects the non-symmetric matrices that
// single-entry perturbations produce).

#include <cmath>
#include <string>

#include <Eigen/Core>
#include <doctest/doctest.h>

#include "gyre/check/gradient_check.hpp"
#include "gyre/nn/linear.hpp"
#include "gyre/nn/manifold_fibers.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::nn::GeometricTensor;
using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

constexpr double kLinearStep = 1e-2;        // central differences of a linear map are exact for any step
constexpr double kLinearTolerance = 1e-10;  // so only rounding, ε·|L|/h ≈ 1e-12, remains
constexpr double kSmoothStep = 1e-6;
constexpr double kSmoothTolerance = 1e-7;

// Y = X·X on SPD(n) features, whose backward is ∂L/∂X = sym(G·X + X·G); with `wrong` it drops the
// second term — the kind of slip a layer author makes.
class Square : public gyre::nn::Module<double> {
 public:
  Square(int n, bool wrong) : type_(gyre::nn::spd_features(n, 1)), n_(n), wrong_(wrong) {}
  GeometricTensor<double> forward(const GeometricTensor<double>& input) override {
    gyre::nn::require_type("Square::forward", type_, input.type);
    type_.manifold().space<double>().check_points(input.data);  // off-manifold inputs are errors
    xt::xarray<double> y = input.data;
    for (std::size_t b = 0; b < input.batch(); ++b) {
      Eigen::Map<const Matrix> x(input.data.data() + b * static_cast<std::size_t>(n_ * n_), n_, n_);
      Eigen::Map<Matrix>(y.data() + b * static_cast<std::size_t>(n_ * n_), n_, n_) = x * x;
    }
    inputs_.push(input.data);
    return GeometricTensor<double>(type_, std::move(y));
  }
  GeometricTensor<double> backward(const GeometricTensor<double>& grad) override {
    const xt::xarray<double> x_all = inputs_.top("Square::backward", describe());
    inputs_.drop();
    xt::xarray<double> out = grad.data;
    for (std::size_t b = 0; b < grad.batch(); ++b) {
      Eigen::Map<const Matrix> x(x_all.data() + b * static_cast<std::size_t>(n_ * n_), n_, n_);
      Eigen::Map<const Matrix> g(grad.data.data() + b * static_cast<std::size_t>(n_ * n_), n_, n_);
      const Matrix full = wrong_ ? Matrix(g * x) : Matrix(g * x + x * g);
      Eigen::Map<Matrix>(out.data() + b * static_cast<std::size_t>(n_ * n_), n_, n_) = 0.5 * (full + full.transpose());
    }
    return GeometricTensor<double>(type_, std::move(out));
  }
  [[nodiscard]] const gyre::nn::TensorType& in_type() const override { return type_; }
  [[nodiscard]] const gyre::nn::TensorType& out_type() const override { return type_; }
  [[nodiscard]] std::string describe() const override { return "Square"; }
  [[nodiscard]] std::size_t pending_calls() const override { return inputs_.size(); }
  void discard_saved() override { inputs_.clear(); }

 private:
  gyre::nn::TensorType type_;
  int n_;
  bool wrong_;
  gyre::nn::SavedCalls<xt::xarray<double>> inputs_;
};

GeometricTensor<double> spd_input(int n, int batch, gyre::Rng& rng) {
  xt::xarray<double> data = xt::zeros<double>(
      {static_cast<std::size_t>(batch), std::size_t{1}, static_cast<std::size_t>(n), static_cast<std::size_t>(n)});
  for (int b = 0; b < batch; ++b) {
    Matrix a(n, n);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) a(i, j) = rng.normal<double>();
    }
    Eigen::Map<Matrix>(data.data() + b * n * n, n, n) = a * a.transpose() + Matrix::Identity(n, n);
  }
  return GeometricTensor<double>(gyre::nn::spd_features(n, 1), std::move(data));
}

}  // namespace

TEST_CASE(
    "Linear: y = W·x + b, torch's initialisation bounds, backward exact — Flatten and Unflatten reshape both ways") {
  for (std::uint64_t seed : gyre::test::seeds(5)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    gyre::nn::Linear<double> linear(6, 4, true, seed);
    const auto params = linear.parameters();
    REQUIRE(params.size() == 2);
    const double bound = 1 / std::sqrt(6.0);
    for (const auto* p : params) {
      for (double v : p->value) CHECK(std::abs(v) <= bound);
    }
    xt::xarray<double> x = xt::zeros<double>({3, 6});
    for (double& v : x) v = rng.normal<double>();
    const GeometricTensor<double> input(gyre::nn::TensorType(gyre::nn::Base::kNone, gyre::nn::EuclideanFiber{6}), x);
    const GeometricTensor<double> y = linear.forward(input);
    linear.discard_saved();
    for (std::size_t b = 0; b < 3; ++b) {
      for (std::size_t o = 0; o < 4; ++o) {
        double expected = params[1]->value(o);
        for (std::size_t i = 0; i < 6; ++i) expected += params[0]->value(o, i) * x(b, i);
        CHECK(y.data(b, o) == doctest::Approx(expected).epsilon(1e-15));
      }
    }
    const auto report = gyre::check::check_gradients(linear, input, kLinearStep, seed);
    CHECK(report.max_error() <= kLinearTolerance);
    CHECK(report.errors.size() == 3);

    gyre::nn::Flatten<double> flatten(gyre::nn::matrix_features(2, 3, 2));
    xt::xarray<double> m = xt::zeros<double>({2, 2, 2, 3});
    for (double& v : m) v = rng.normal<double>();
    const GeometricTensor<double> flat =
        flatten.forward(GeometricTensor<double>(gyre::nn::matrix_features(2, 3, 2), m));
    CHECK(flat.data.shape() == std::vector<std::size_t>{2, 12});
    CHECK(flat.data(1, 7) == m(1, 1, 0, 1));
    const GeometricTensor<double> back = flatten.backward(flat);
    CHECK(back.data == m);
    CHECK(flatten.pending_calls() == 0);

    // Unflatten undoes Flatten forwards and backwards.
    gyre::nn::Unflatten<double> unflatten(gyre::nn::matrix_features(2, 3, 2));
    CHECK(unflatten.in_type() == flatten.out_type());
    const GeometricTensor<double> unflat = unflatten.forward(flat);
    CHECK(unflat.type == gyre::nn::matrix_features(2, 3, 2));
    CHECK(unflat.data == m);
    CHECK(unflatten.backward(unflat).data == flat.data);
    CHECK(unflatten.pending_calls() == 0);
  }
}

TEST_CASE("Linear, Flatten and Unflatten: wrong types and sizes are clear errors") {
  CHECK_THROWS_AS(gyre::nn::Linear<double>(0, 3), gyre::ShapeError);
  CHECK_THROWS_AS(gyre::nn::Flatten<double>(gyre::nn::spd_features(3, 1)), gyre::ShapeError);
  CHECK_THROWS_AS(gyre::nn::Unflatten<double>(gyre::nn::spd_features(3, 1)), gyre::ShapeError);
  gyre::nn::Linear<double> linear(3, 2);
  const GeometricTensor<double> wrong(gyre::nn::TensorType(gyre::nn::Base::kNone, gyre::nn::EuclideanFiber{4}),
                                      xt::xarray<double>(xt::zeros<double>({1, 4})));
  CHECK_THROWS_WITH_AS(static_cast<void>(linear.forward(wrong)), doctest::Contains("Linear::forward"),
                       gyre::ShapeError);
  CHECK_THROWS_AS(static_cast<void>(linear.backward(
                      GeometricTensor<double>(linear.out_type(), xt::xarray<double>(xt::zeros<double>({1, 2}))))),
                  gyre::nn::UnmatchedBackwardError);
}

TEST_CASE("check_gradients on SPD inputs: moves along the manifold, passes a correct backward, catches a wrong one") {
  for (std::uint64_t seed : gyre::test::seeds(5)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    const GeometricTensor<double> x = spd_input(4, 2, rng);
    Square right(4, false);
    Square wrong(4, true);
    CHECK(gyre::check::check_gradients(right, x, kSmoothStep, seed).max_error() <= kSmoothTolerance);
    CHECK(gyre::check::check_gradients(wrong, x, kSmoothStep, seed).max_error() >= 1e-2);
  }
}
