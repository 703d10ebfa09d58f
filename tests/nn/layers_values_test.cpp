// The layers' values against their defining formulas, evaluation-mode backward passes, gradient
// accumulation, Sequential's bookkeeping, and the gradient checker catching a wrong backward.

#include <cmath>

#include <doctest/doctest.h>

#include "gyre/check/gradient_check.hpp"
#include "gyre/nn/cross_entropy.hpp"
#include "gyre/nn/sequential.hpp"
#include "layer_zoo.hpp"
#include "sphere/sphere.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::nn::FieldType;
using gyre::nn::GeometricTensor;
using gyre::repr::PlanarGroup;

const PlanarGroup kC4 = PlanarGroup::cyclic(4);
const PlanarGroup kD4 = PlanarGroup::dihedral(4);

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

// ⟨G, f(x)⟩'s gradient in x by central differences (h = 1e-6), without switching the mode.
xt::xtensor<double, 4> numeric_input_gradient(gyre::nn::Module<double>& m, GeometricTensor<double> x,
                                              const xt::xtensor<double, 4>& upstream) {
  const gyre::nn::NoGrad no_grad;  // 2·size forwards that are never differentiated
  const auto loss = [&]() {
    const auto y = m.forward(x);
    double s = 0;
    for (std::size_t i = 0; i < y.data.size(); ++i) s += upstream.data()[i] * y.data.data()[i];
    return s;
  };
  xt::xtensor<double, 4> grad = xt::zeros<double>(x.data.shape());
  for (std::size_t i = 0; i < x.data.size(); ++i) {
    const double keep = x.data.data()[i];
    x.data.data()[i] = keep + 1e-6;
    const double up = loss();
    x.data.data()[i] = keep - 1e-6;
    const double down = loss();
    x.data.data()[i] = keep;
    grad.data()[i] = (up - down) / 2e-6;
  }
  return grad;
}

// A layer whose backward forgets a factor 2 (or returns NaN): the checker must catch it.
class WrongBackward : public gyre::nn::Module<double> {
 public:
  WrongBackward(FieldType type, bool nan) : type_(std::move(type)), nan_(nan) {}
  GeometricTensor<double> forward(const GeometricTensor<double>& x) override {
    return GeometricTensor<double>(type_, xt::xtensor<double, 4>(2.0 * x.data));
  }
  GeometricTensor<double> backward(const GeometricTensor<double>& g) override {
    GeometricTensor<double> result = g;
    if (nan_) result.data(0, 0, 1, 1) = std::nan("");
    return result;
  }
  [[nodiscard]] const gyre::nn::TensorType& in_type() const override { return type_; }
  [[nodiscard]] const gyre::nn::TensorType& out_type() const override { return type_; }
  [[nodiscard]] std::string describe() const override { return "WrongBackward"; }
  // Stateless: backward needs nothing from forward.
  [[nodiscard]] std::size_t pending_calls() const override { return 0; }
  void discard_saved() override {}

 private:
  gyre::nn::TensorType type_;
  bool nan_;
};

}  // namespace

TEST_CASE("NormReLU: relu(‖f‖ − b)·f/‖f‖ per field, and 0 output with 0 gradient at f = 0") {
  const FieldType type(kC4, gyre::repr::irrep_representation(kC4, {0, 1}), 1);
  gyre::nn::NormReLU<double> layer(type);
  layer.parameters()[0]->value(0) = 1.0;
  xt::xtensor<double, 4> x = xt::zeros<double>({std::size_t(1), std::size_t(2), std::size_t(1), std::size_t(3)});
  x(0, 0, 0, 0) = 3.0;  // ‖f‖ = 5 → scale 4/5
  x(0, 1, 0, 0) = 4.0;
  x(0, 0, 0, 1) = 0.6;  // ‖f‖ = 0.6 < b → 0
  // pixel 2 is f = 0
  const auto y = layer.forward(GeometricTensor<double>(type, x));
  // √25 is exact; (5 − 1)/5 and the product cost two roundings (≈ 4e-16 relative).
  CHECK(y.data(0, 0, 0, 0) == doctest::Approx(2.4).epsilon(1e-15));
  CHECK(y.data(0, 1, 0, 0) == doctest::Approx(3.2).epsilon(1e-15));
  CHECK(y.data(0, 0, 0, 1) == 0.0);
  CHECK(y.data(0, 0, 0, 2) == 0.0);
  layer.parameters()[0]->value(0) = -1.0;  // b < 0: f = 0 still maps to 0 (direction undefined)
  const auto z = layer.forward(GeometricTensor<double>(type, x));
  CHECK(z.data(0, 0, 0, 2) == 0.0);
  const auto g = layer.backward(GeometricTensor<double>(type, xt::ones<double>(x.shape())));
  CHECK(g.data(0, 0, 0, 2) == 0.0);
  CHECK(g.data(0, 1, 0, 2) == 0.0);
  CHECK(std::isfinite(layer.parameters()[0]->grad(0)));
}

TEST_CASE("GatedNonlinearity: gates first in the input type, y = sigmoid(gate)·field") {
  const FieldType gated(kD4, {gyre::repr::irrep_representation(kD4, {1, 1}), gyre::repr::regular_representation(kD4)});
  gyre::nn::GatedNonlinearity<double> gate(gated);
  CHECK(gate.in_type().describe() == "grid × D4[2×irrep_0,0, irrep_1,1, regular]");
  CHECK(gate.out_type() == gated);
  const auto x = gyre::test::random_feature_map<double>(gate.in_type(), 2, 3, 3, 4);
  const auto y = gate.forward(x);
  for (std::size_t n = 0; n < 2; ++n)
    for (std::size_t c = 0; c < 10; ++c) {
      const std::size_t field = c < 2 ? 0 : 1;
      // The same exp, one division and one product in either branch of sigmoid: a few ulps.
      CHECK(y.data(n, c, 1, 2) ==
            doctest::Approx(sigmoid(x.data(n, field, 1, 2)) * x.data(n, c + 2, 1, 2)).epsilon(1e-14));
    }
}

TEST_CASE("pooling: values against the definitions") {
  const FieldType regular(kC4, gyre::repr::regular_representation(kC4), 1);
  auto x = gyre::test::random_feature_map<double>(regular, 1, 4, 4, 12);
  // GroupPooling: the max over the field's 4 channels, one trivial field.
  gyre::nn::GroupPooling<double> group_pool(regular);
  CHECK(group_pool.out_type() == FieldType(kC4, gyre::repr::trivial_representation(kC4), 1));
  const auto gp = group_pool.forward(x);
  CHECK(gp.data(0, 0, 2, 1) ==
        std::max({x.data(0, 0, 2, 1), x.data(0, 1, 2, 1), x.data(0, 2, 2, 1), x.data(0, 3, 2, 1)}));
  // PointwiseAvgPool k = 3, stride 2, padding 1: the corner window holds 4 pixels, divided by 9.
  gyre::nn::PointwiseAvgPool<double> avg(regular, 3, 2, 1);
  const auto a = avg.forward(x);
  CHECK(a.data.shape(2) == 2);
  // A sum of 4 terms and a division, perhaps in another order: a few ulps of values of size ≈ 1.
  CHECK(a.data(0, 1, 0, 0) ==
        doctest::Approx((x.data(0, 1, 0, 0) + x.data(0, 1, 0, 1) + x.data(0, 1, 1, 0) + x.data(0, 1, 1, 1)) / 9)
            .epsilon(1e-14));
  // PointwiseMaxPool: padding never wins, even when every real value is negative.
  x.data = -xt::abs(x.data);
  gyre::nn::PointwiseMaxPool<double> max_pool(regular, 3, 2, 1);
  const auto m = max_pool.forward(x);
  CHECK(m.data(0, 2, 0, 0) ==
        std::max({x.data(0, 2, 0, 0), x.data(0, 2, 0, 1), x.data(0, 2, 1, 0), x.data(0, 2, 1, 1)}));
  // NormMaxPool k = 2: the whole field at the position of largest norm.
  const FieldType vectors(kC4, gyre::repr::irrep_representation(kC4, {0, 1}), 1);
  xt::xtensor<double, 4> v = xt::zeros<double>({std::size_t(1), std::size_t(2), std::size_t(2), std::size_t(2)});
  v(0, 0, 0, 0) = 1.0;   // norm 1
  v(0, 1, 1, 0) = -2.0;  // norm 2: the winner
  v(0, 0, 1, 1) = 1.5;
  gyre::nn::NormMaxPool<double> norm_pool(vectors, 2);
  const auto np = norm_pool.forward(GeometricTensor<double>(vectors, v));
  CHECK(np.data(0, 0, 0, 0) == 0.0);
  CHECK(np.data(0, 1, 0, 0) == -2.0);
  // GlobalAveragePool: (N, C, 1, 1) means.
  gyre::nn::GlobalAveragePool<double> global(vectors);
  const auto gap = global.forward(GeometricTensor<double>(vectors, v));
  CHECK(gap.data.shape(2) == 1);
  CHECK(gap.data(0, 0, 0, 0) == doctest::Approx(2.5 / 4).epsilon(1e-15));  // 0.625 and its 4 summands are exact
}

TEST_CASE("InnerBatchNorm: running statistics follow torch's update, and evaluation backward is the affine map's") {
  const FieldType type = gyre::test::permutation_fields(kD4);
  gyre::nn::InnerBatchNorm<double> bn(type);  // momentum 0.1
  const auto x = gyre::test::random_feature_map<double>(type, 3, 4, 4, 30);
  static_cast<void>(bn.forward(x));
  // Field 1 (the quotient D4/{e, flip}, 4 channels from offset 8): mean and unbiased variance.
  double sum = 0;
  double sum2 = 0;
  for (std::size_t n = 0; n < 3; ++n)
    for (std::size_t c = 8; c < 12; ++c)
      for (std::size_t p = 0; p < 16; ++p) sum += x.data.data()[(n * 13 + c) * 16 + p];
  const double mean = sum / 192;
  for (std::size_t n = 0; n < 3; ++n)
    for (std::size_t c = 8; c < 12; ++c)
      for (std::size_t p = 0; p < 16; ++p) sum2 += std::pow(x.data.data()[(n * 13 + c) * 16 + p] - mean, 2);
  // The layer sums the same 192 values in another order: ≤ 192·ε ≈ 4e-14 relative at worst.
  CHECK(bn.running_mean()[1] == doctest::Approx(0.1 * mean).epsilon(1e-13));
  CHECK(bn.running_var()[1] == doctest::Approx(0.9 + 0.1 * sum2 / 191).epsilon(1e-13));
  // Evaluation mode: y is affine in x, backward is its derivative. Central differences of an affine
  // map have no truncation error; h = 1e-6 leaves rounding ε·|y|/h ≈ 1e-9, so 1e-7 relative.
  bn.parameters()[0]->value(1) = 1.7;
  bn.eval();
  const auto upstream = gyre::test::random_feature_map<double>(type, 3, 4, 4, 31).data;
  static_cast<void>(bn.forward(x));
  const auto analytic = bn.backward(GeometricTensor<double>(type, upstream));
  CHECK(gyre::test::relative_difference(analytic.data, numeric_input_gradient(bn, x, upstream)) <= 1e-7);
  gyre::nn::InnerBatchNorm<double> plain(type, 1e-5, 0.1, false);
  CHECK(plain.parameters().empty());
}

TEST_CASE("pointwise nonlinearities: backward differentiates the latest forward, in either mode") {
  const FieldType type(kC4, gyre::repr::regular_representation(kC4), 2);
  gyre::nn::PointwiseELU<double> elu(type, 0.5);
  const auto x1 = gyre::test::random_feature_map<double>(type, 1, 3, 3, 1);
  const auto x2 = gyre::test::random_feature_map<double>(type, 1, 3, 3, 2);
  static_cast<void>(elu.forward(x1));
  elu.eval();
  static_cast<void>(elu.forward(x2));
  const auto upstream = gyre::test::random_feature_map<double>(type, 1, 3, 3, 3).data;
  const auto analytic = elu.backward(GeometricTensor<double>(type, upstream));
  // h = 1e-6 on a function with |f'''| ≤ 1 off the kink at 0: truncation ≈ 1e-13, rounding ≈ 1e-9.
  CHECK(gyre::test::relative_difference(analytic.data, numeric_input_gradient(elu, x2, upstream)) <= 1e-7);
}

TEST_CASE("layers: parameter gradients accumulate over backward calls and zero_grad resets them") {
  const FieldType type = gyre::test::mixed_fields(kD4);
  gyre::nn::NormReLU<double> layer(type);
  const auto x = gyre::test::random_feature_map<double>(type, 2, 3, 3, 6);
  const auto upstream = gyre::test::random_feature_map<double>(type, 2, 3, 3, 7);
  static_cast<void>(layer.forward(x));
  static_cast<void>(layer.forward(x));  // two saved calls: each backward differentiates one
  static_cast<void>(layer.backward(upstream));
  const xt::xarray<double> once = layer.parameters()[0]->grad;
  static_cast<void>(layer.backward(upstream));
  // The second pass adds to the first sum term by term: equal to 2·once up to reordered rounding.
  CHECK(xt::allclose(layer.parameters()[0]->grad, 2.0 * once, 1e-13, 1e-15));
  layer.zero_grad();
  CHECK(layer.parameters()[0]->grad.shape() == layer.parameters()[0]->value.shape());
  CHECK(xt::all(xt::equal(layer.parameters()[0]->grad, 0.0)));
}

TEST_CASE("Sequential: types must connect, parameters are named by index, modes reach every child") {
  const FieldType regular(kD4, gyre::repr::regular_representation(kD4), 2);
  gyre::nn::Sequential<double> net;
  CHECK_THROWS_WITH_AS(static_cast<void>(net.forward(gyre::test::random_feature_map<double>(regular, 1, 2, 2, 1))),
                       "gyre::Sequential::forward: the network has no modules (0)", gyre::ShapeError);
  net.emplace<gyre::nn::InnerBatchNorm<double>>(regular);
  net.emplace<gyre::nn::PointwiseReLU<double>>(regular);
  auto inner = std::make_unique<gyre::nn::Sequential<double>>();
  inner->emplace<gyre::nn::NormReLU<double>>(regular);
  net.add(std::move(inner));
  std::vector<std::string> names;
  for (auto* p : net.parameters()) names.push_back(p->name);
  CHECK(names == std::vector<std::string>{"0.weight", "0.bias", "2.0.bias"});
  CHECK_THROWS_WITH_AS(
      net.emplace<gyre::nn::GroupPooling<double>>(FieldType(kD4, gyre::repr::regular_representation(kD4), 3)),
      "gyre::Sequential::add: tensor types differ (expected grid × D4[2×regular]) (got grid × D4[3×regular])",
      gyre::ShapeError);
  CHECK_THROWS_AS(net.add(nullptr), gyre::DomainError);
  net.eval();
  CHECK(!net[0].training());
  CHECK(!net[2].training());
  net.train();
  CHECK(net[2].training());
  CHECK(net.size() == 3);
  const auto report = gyre::check::check_gradients(net, gyre::test::random_feature_map<double>(regular, 2, 4, 4, 8));
  CHECK(report.errors.size() == 4);
  CHECK(report.error_of("2.0.bias") <= 1e-7);  // h = 1e-6 central differences, as for the single layers
  CHECK(report.max_error() <= 1e-7);
}

TEST_CASE("check_gradients: a wrong backward is caught, and NaN is never hidden") {
  const FieldType type(kC4, gyre::repr::trivial_representation(kC4), 1);
  const auto x = gyre::test::random_feature_map<double>(type, 1, 3, 3, 1);
  WrongBackward wrong(type, false);
  CHECK(gyre::check::check_gradients(wrong, x).error_of("input") >= 0.1);  // the lost factor 2: an O(1) error
  WrongBackward nan(type, true);
  CHECK(std::isnan(gyre::check::check_gradients(nan, x).max_error()));
  gyre::check::GradientReport with_nan;
  with_nan.errors = {{"input", 1e-12}, {"bias", std::nan("")}, {"weight", 1e-9}};
  CHECK(std::isnan(with_nan.max_error()));
  CHECK(std::isnan(with_nan.error_of("missing")));
}

TEST_CASE("cross_entropy: float agrees with double, and a label count that differs from N is a ShapeError") {
  const xt::xtensor<double, 2> logits{{0.3, -1.2, 2.0, 0.0}, {5.0, 4.0, -3.0, 1.0}};
  const std::vector<int> labels{2, 1};
  const auto d = gyre::nn::cross_entropy(logits, labels);
  const auto f = gyre::nn::cross_entropy(xt::xtensor<float, 2>(xt::cast<float>(logits)), labels);
  // Both accumulate in double; the float result differs by the rounding of its logits and outputs.
  CHECK(static_cast<double>(f.loss) == doctest::Approx(d.loss).epsilon(1e-6));
  for (std::size_t i = 0; i < d.grad.size(); ++i) {
    CHECK(static_cast<double>(f.grad.data()[i]) == doctest::Approx(d.grad.data()[i]).epsilon(1e-6));
  }
  CHECK(f.correct == d.correct);
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::nn::cross_entropy(logits, {1})),
                       "gyre::cross_entropy: one label per row of logits 2 (1)", gyre::ShapeError);
}

TEST_CASE("pointwise nonlinearities on plain features: values, gradients, and manifold features refused") {
  // An MLP's hidden units (none × ℝ[5]) and per-point vectors (none × ℝ^(4×3)[2], a point cloud).
  for (const gyre::nn::TensorType& type :
       {gyre::nn::TensorType(gyre::nn::Base::kNone, gyre::nn::EuclideanFiber{5, {}}),
        gyre::nn::TensorType(gyre::nn::Base::kNone, gyre::nn::EuclideanFiber{2, {4, 3}})}) {
    CAPTURE(type.describe());
    gyre::nn::PointwiseReLU<double> relu(type);
    gyre::nn::PointwiseELU<double> elu(type, 0.7);
    gyre::Rng rng(4);
    std::vector<std::size_t> shape{3, static_cast<std::size_t>(type.channels())};
    for (const std::size_t e : type.item_shape()) shape.push_back(e);
    xt::xarray<double> data = xt::zeros<double>(shape);
    for (double& v : data) v = rng.normal<double>();
    const GeometricTensor<double> x(type, data);
    const auto r = relu.forward(x);
    const auto e = elu.forward(x);
    for (std::size_t i = 0; i < data.size(); ++i) {
      const double v = data.data()[i];
      CHECK(r.data.data()[i] == (v > 0 ? v : 0.0));
      CHECK(e.data.data()[i] == doctest::Approx(v > 0 ? v : 0.7 * std::expm1(v)).epsilon(1e-15));
    }
    relu.discard_saved();
    elu.discard_saved();
    // N(0, 1) data has no entry within 1e-6 of the kink: central differences are exact to 1e-8.
    CHECK(gyre::check::check_gradients(elu, x, 1e-6, 3).max_error() <= 1e-8);
    CHECK(gyre::check::check_gradients(relu, x, 1e-6, 3).max_error() <= 1e-8);
    CHECK(relu.describe() == "PointwiseReLU(" + type.describe() + ")");
  }
  const gyre::nn::TensorType sphere(gyre::nn::Base::kNone, gyre::nn::ManifoldFiber::of<gyre::Sphere>(2, "S^2", 2));
  CHECK_THROWS_WITH_AS(
      gyre::nn::PointwiseReLU<double>{sphere},
      doctest::Contains("gyre::PointwiseReLU: pointwise nonlinearities act on fields or plain features"),
      gyre::DomainError);
  CHECK_THROWS_AS(
      gyre::nn::PointwiseELU<double>(gyre::nn::TensorType(gyre::nn::Base::kNone, gyre::nn::EuclideanFiber{2, {}}), 0.0),
      gyre::DomainError);
}
