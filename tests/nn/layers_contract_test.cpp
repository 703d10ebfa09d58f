// The contract every layer of the nonlinearity/pooling/batch-norm family keeps: equivariance under
// the group acting on channels, float agreeing with double, gradients against finite differences on
// C4 and D4 fields, and the errors (wrong field type, no forward, wrong shape, bad construction).

#include <doctest/doctest.h>

#include "gyre/check/gradient_check.hpp"
#include "gyre/nn/plain_conv2d.hpp"
#include "gyre/nn/r2conv.hpp"
#include "layer_zoo.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::nn::FieldType;
using gyre::repr::PlanarGroup;

const PlanarGroup kC4 = PlanarGroup::cyclic(4);
const PlanarGroup kD4 = PlanarGroup::dihedral(4);

// A type that differs from `type` by one extra trivial field.
FieldType with_extra_field(const FieldType& type) {
  std::vector<gyre::repr::Representation> fields = type.fields();
  fields.push_back(gyre::repr::trivial_representation(type.group()));
  return FieldType(type.group(), std::move(fields));
}

}  // namespace

TEST_CASE("layers: every layer commutes with C4 and D4 acting on channels, f(ρ(g)x) = ρ'(g)f(x), to 1e-12") {
  for (const PlanarGroup& group : {kC4, kD4}) {
    auto zoo = gyre::test::layer_zoo<double>(group);
    for (auto& layer : zoo) {
      CAPTURE(layer->describe());
      for (const std::uint64_t seed : gyre::test::seeds(3)) {
        CAPTURE(seed);
        const auto x = gyre::test::random_feature_map<double>(layer->in_type(), 2, 7, 7, seed);
        const auto fx = layer->forward(x);
        for (const gyre::repr::PlanarElement& g : group.elements()) {
          CAPTURE(g.flip);
          CAPTURE(g.angle);
          const gyre::nn::GeometricTensor<double> gx(
              x.type, gyre::test::act_on_channels(x.type.fields().representation_matrix(g), x.data));
          const auto lhs = layer->forward(gx).data;
          const auto rhs = gyre::test::act_on_channels(layer->out_type().fields().representation_matrix(g), fx.data);
          // Permutations are exact; orthogonal irreps and reordered sums cost a few ulps.
          CHECK(gyre::test::relative_difference(lhs, rhs) <= 1e-12);
        }
      }
    }
  }
}

TEST_CASE("layers: backward on C4 and D4 fields matches central finite differences (h = 1e-6, 1e-7 relative)") {
  // The checker's error is max|analytic − numeric| / max(1, max|numeric|); with h = 1e-6 the
  // truncation (h²·|L'''| ≈ 1e-12) and rounding (ε·|L|/h ≈ 1e-9 for |L| ≈ 10) stay below 1e-7,
  // while any wrong term shows up at O(1).
  for (const PlanarGroup& group : {kC4, kD4}) {
    auto zoo = gyre::test::layer_zoo<double>(group);
    for (auto& layer : zoo) {
      CAPTURE(layer->describe());
      const auto x = gyre::test::random_feature_map<double>(layer->in_type(), 2, 6, 6, 41);
      const auto report = gyre::check::check_gradients(*layer, x, 1e-6, 5);
      CHECK(report.errors.size() == 1 + layer->parameters().size());
      for (const auto& e : report.errors) {
        CAPTURE(e.quantity);
        CHECK(e.relative_error <= 1e-7);
      }
    }
  }
}

TEST_CASE("layers: float instantiations agree with double") {
  auto zoo_f = gyre::test::layer_zoo<float>(kD4);
  auto zoo_d = gyre::test::layer_zoo<double>(kD4);
  REQUIRE(zoo_f.size() == zoo_d.size());
  for (std::size_t i = 0; i < zoo_d.size(); ++i) {
    CAPTURE(zoo_d[i]->describe());
    CHECK(zoo_f[i]->describe() == zoo_d[i]->describe());
    const auto pf = zoo_f[i]->parameters();
    const auto pd = zoo_d[i]->parameters();
    REQUIRE(pf.size() == pd.size());
    for (std::size_t k = 0; k < pd.size(); ++k) {
      for (std::size_t j = 0; j < pd[k]->value.size(); ++j) pd[k]->value.data()[j] = pf[k]->value.data()[j];
    }
    // Both see the same input: the float one's values, so maxima and branches coincide.
    auto xd = gyre::test::random_feature_map<double>(zoo_d[i]->in_type(), 2, 6, 6, 9);
    const xt::xtensor<float, 4> xf = xt::cast<float>(xd.data);
    xd.data = xt::cast<double>(xf);
    const auto yd = zoo_d[i]->forward(xd);
    const auto yf = zoo_f[i]->forward(gyre::nn::GeometricTensor<float>(xd.type, xf));
    // Float rounding (6e-8) times the layers' modest condition numbers (batch norm's 1/σ ≈ 1).
    CHECK(gyre::test::relative_difference(xt::xtensor<double, 4>(xt::cast<double>(yf.data)), yd.data) <= 1e-5);
    const auto gd =
        gyre::test::random_feature_map<double>(zoo_d[i]->out_type(), 2, yd.data.shape(2), yd.data.shape(3), 10);
    xt::xtensor<float, 4> gf = xt::cast<float>(gd.data);
    const auto bd = zoo_d[i]->backward(gyre::nn::GeometricTensor<double>(gd.type, xt::cast<double>(gf)));
    const auto bf = zoo_f[i]->backward(gyre::nn::GeometricTensor<float>(gd.type, gf));
    CHECK(gyre::test::relative_difference(xt::xtensor<double, 4>(xt::cast<double>(bf.data)), bd.data) <= 1e-5);
  }
}

TEST_CASE("layers: a tensor of another field type is a ShapeError naming both types, in forward and backward") {
  auto zoo = gyre::test::layer_zoo<double>(kC4);
  for (auto& layer : zoo) {
    CAPTURE(layer->describe());
    const gyre::nn::TensorType wrong_in = with_extra_field(layer->in_type().fields());
    const std::string name = layer->describe().substr(0, layer->describe().find('('));
    const std::string expected_forward = "gyre::" + name + "::forward: tensor types differ (expected " +
                                         layer->in_type().describe() + ") (got " + wrong_in.describe() + ")";
    CHECK_THROWS_WITH_AS(
        static_cast<void>(layer->forward(gyre::test::random_feature_map<double>(wrong_in, 1, 4, 4, 1))),
        expected_forward.c_str(), gyre::ShapeError);
    const auto y = layer->forward(gyre::test::random_feature_map<double>(layer->in_type(), 1, 4, 4, 1));
    const gyre::nn::TensorType wrong_out = with_extra_field(layer->out_type().fields());
    const std::string expected_backward = "gyre::" + name + "::backward: tensor types differ (expected " +
                                          layer->out_type().describe() + ") (got " + wrong_out.describe() + ")";
    CHECK_THROWS_WITH_AS(static_cast<void>(layer->backward(gyre::test::random_feature_map<double>(
                             wrong_out, 1, y.data.shape(2), y.data.shape(3), 2))),
                         expected_backward.c_str(), gyre::ShapeError);
  }
}

TEST_CASE(
    "layers: backward before any forward is an UnmatchedBackwardError, and a grad of the wrong shape is a ShapeError") {
  auto fresh = gyre::test::layer_zoo<double>(kD4);
  for (auto& layer : fresh) {
    CAPTURE(layer->describe());
    CHECK_THROWS_AS(
        static_cast<void>(layer->backward(gyre::test::random_feature_map<double>(layer->out_type(), 1, 3, 3, 1))),
        gyre::nn::UnmatchedBackwardError);
    const auto y = layer->forward(gyre::test::random_feature_map<double>(layer->in_type(), 2, 6, 6, 1));
    // One row or one image more than the last output: reading it would run past the cached arrays.
    for (const std::size_t extra_image : {0, 1}) {
      CAPTURE(extra_image);
      CHECK_THROWS_WITH_AS(
          static_cast<void>(layer->backward(gyre::test::random_feature_map<double>(
              layer->out_type(), 2 + extra_image, y.data.shape(2) + 1 - extra_image, y.data.shape(3), 3))),
          doctest::Contains("grad_output must have the last forward output's shape"), gyre::ShapeError);
    }
    // The failed calls consumed nothing: the corrected grad differentiates the saved call, the last one.
    CHECK(layer->pending_calls() == 1);
    CHECK_NOTHROW(static_cast<void>(layer->backward(
        gyre::test::random_feature_map<double>(layer->out_type(), 2, y.data.shape(2), y.data.shape(3), 3))));
    CHECK(layer->pending_calls() == 0);
  }
}

TEST_CASE_TEMPLATE("convolutions: backward needs a recorded forward, and a grad of the wrong shape is a ShapeError", T,
                   float, double) {
  const FieldType regular(kC4, gyre::repr::regular_representation(kC4), 1);
  gyre::nn::R2ConvOptions padded;
  padded.padding = 1;
  std::vector<std::unique_ptr<gyre::nn::Module<T>>> convs;
  convs.push_back(std::make_unique<gyre::nn::R2Conv<T>>(regular, regular, 3, padded));
  convs.push_back(std::make_unique<gyre::nn::EquivariantLinear<T>>(regular, regular));
  convs.push_back(std::make_unique<gyre::nn::PlainConv2d<T>>(2, 3, 3));
  for (auto& conv : convs) {
    CAPTURE(conv->describe());
    const auto grad = [&](std::size_t n, std::size_t h, std::size_t w) {
      return gyre::test::random_feature_map<T>(conv->out_type(), n, h, w, 2);
    };
    CHECK_THROWS_AS(static_cast<void>(conv->backward(grad(1, 3, 3))), gyre::nn::UnmatchedBackwardError);
    const auto y = conv->forward(gyre::test::random_feature_map<T>(conv->in_type(), 2, 6, 6, 1));
    const std::size_t h = y.data.shape(2);
    const std::size_t w = y.data.shape(3);
    // One row, one column or one image more than the last output: each would read past the cache.
    for (const auto& wrong : {grad(2, h + 1, w), grad(2, h, w + 1), grad(3, h, w)}) {
      CHECK_THROWS_WITH_AS(static_cast<void>(conv->backward(wrong)),
                           doctest::Contains("grad_output must have the forward output's shape"), gyre::ShapeError);
    }
    CHECK_NOTHROW(static_cast<void>(conv->backward(grad(2, h, w))));
    // A forward under NoGrad keeps nothing to differentiate, in either mode.
    for (const bool training : {true, false}) {
      conv->train(training);
      {
        const gyre::nn::NoGrad no_grad;
        static_cast<void>(conv->forward(gyre::test::random_feature_map<T>(conv->in_type(), 2, 6, 6, 1)));
      }
      CHECK(conv->pending_calls() == 0);
      CHECK_THROWS_AS(static_cast<void>(conv->backward(grad(2, h, w))), gyre::nn::UnmatchedBackwardError);
    }
  }
}

TEST_CASE("layers: construction on unsupported fields or with bad settings is a DomainError naming the value") {
  const FieldType vectors(kD4, gyre::repr::irrep_representation(kD4, {1, 1}), 2);
  const FieldType regular(kD4, gyre::repr::regular_representation(kD4), 2);
  const char* const kNotPermutation = "needs permutation fields (regular, quotient, trivial) (irrep_1,1)";
  CHECK_THROWS_WITH_AS(gyre::nn::PointwiseReLU<double>{vectors},
                       "gyre::PointwiseReLU: pointwise nonlinearities need permutation fields (regular, quotient, "
                       "trivial) (irrep_1,1)",
                       gyre::DomainError);
  CHECK_THROWS_WITH_AS(gyre::nn::PointwiseELU<float>{vectors},
                       "gyre::PointwiseELU: pointwise nonlinearities need permutation fields (regular, quotient, "
                       "trivial) (irrep_1,1)",
                       gyre::DomainError);
  CHECK_THROWS_WITH_AS(gyre::nn::PointwiseMaxPool<double>(vectors, 2),
                       (std::string("gyre::PointwiseMaxPool: ") + kNotPermutation).c_str(), gyre::DomainError);
  CHECK_THROWS_WITH_AS(gyre::nn::GroupPooling<double>{vectors},
                       (std::string("gyre::GroupPooling: ") + kNotPermutation).c_str(), gyre::DomainError);
  CHECK_THROWS_WITH_AS(gyre::nn::InnerBatchNorm<double>{vectors},
                       (std::string("gyre::InnerBatchNorm: ") + kNotPermutation).c_str(), gyre::DomainError);
  CHECK_THROWS_WITH_AS(gyre::nn::PointwiseELU<double>(regular, 0.0), "gyre::PointwiseELU: alpha must be > 0 (0)",
                       gyre::DomainError);
  CHECK_THROWS_WITH_AS(gyre::nn::NormMaxPool<double>(vectors, 0), "gyre::NormMaxPool: kernel size must be >= 1 (0)",
                       gyre::DomainError);
  CHECK_THROWS_WITH_AS(gyre::nn::PointwiseAvgPool<double>(vectors, 3, 0),
                       "gyre::PointwiseAvgPool: stride must be >= 1 (0)", gyre::DomainError);
  CHECK_THROWS_WITH_AS(gyre::nn::PointwiseMaxPool<double>(regular, 3, 2, 2),
                       "gyre::PointwiseMaxPool: padding must be in [0, kernel/2] (2)", gyre::DomainError);
  CHECK_THROWS_WITH_AS(gyre::nn::InnerBatchNorm<double>(regular, 0.0), "gyre::InnerBatchNorm: eps must be > 0 (0)",
                       gyre::DomainError);
  CHECK_THROWS_WITH_AS(gyre::nn::InnerBatchNorm<double>(regular, 1e-5, 1.5),
                       "gyre::InnerBatchNorm: momentum must be in [0, 1] (1.5)", gyre::DomainError);
  // The permutation fields all pointwise layers accept: regular, quotient, trivial.
  CHECK_NOTHROW(gyre::nn::PointwiseReLU<double>{gyre::test::permutation_fields(kD4)});
  CHECK_NOTHROW(gyre::nn::GroupPooling<float>{gyre::test::permutation_fields(kC4)});
  // A map smaller than the window is a ShapeError from the pooling geometry.
  gyre::nn::NormMaxPool<double> pool(vectors, 3);
  CHECK_THROWS_AS(static_cast<void>(pool.forward(gyre::test::random_feature_map<double>(vectors, 1, 2, 2, 1))),
                  gyre::ShapeError);
}
