// Re-entrant modules: a module may run several times before backward (weight sharing, one backbone
// per frame element). Each backward differentiates the most recent undifferentiated call, a shared
// module receives the sum of its calls' gradients, NoGrad saves nothing, and a backward without a
// forward is an UnmatchedBackwardError.

#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "gyre/check/gradient_check.hpp"
#include "gyre/nn/inner_batch_norm.hpp"
#include "gyre/nn/pointwise_nonlinearity.hpp"
#include "gyre/nn/r2conv.hpp"
#include "gyre/nn/sequential.hpp"
#include "layer_zoo.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::nn::FieldType;
using gyre::nn::GeometricTensor;
using gyre::repr::PlanarGroup;

const PlanarGroup kC4 = PlanarGroup::cyclic(4);

FieldType regular(int copies) { return FieldType(kC4, gyre::repr::regular_representation(kC4), copies); }

std::shared_ptr<gyre::nn::R2Conv<double>> padded_conv(std::uint64_t seed) {
  gyre::nn::R2ConvOptions options;
  options.padding = 1;
  options.seed = seed;
  auto conv = std::make_shared<gyre::nn::R2Conv<double>>(regular(2), regular(2), 3, options);
  gyre::Rng rng(seed);
  for (double& b : conv->parameters()[1]->value) b = 0.3 * rng.normal<double>();  // non-zero bias: every path runs
  return conv;
}

}  // namespace

TEST_CASE("re-entrancy: a convolution used twice in one network receives the sum of both gradients") {
  for (const std::uint64_t seed : gyre::test::seeds(2)) {
    CAPTURE(seed);
    const auto shared = padded_conv(seed);
    gyre::nn::Sequential<double> net;
    net.add_shared(shared);
    net.emplace<gyre::nn::PointwiseELU<double>>(regular(2));
    net.add_shared(shared);
    // Listed once, under the first position's name.
    std::vector<std::string> names;
    for (auto* p : net.parameters()) names.push_back(p->name);
    CHECK(names == std::vector<std::string>{"0.weight", "0.bias"});
    // Central differences perturb the one weight both positions read, so they see the summed
    // gradient; h = 1e-6 gives truncation ≈ 1e-12 and rounding ≈ 1e-9 on O(1) losses (as for every layer).
    const auto x = gyre::test::random_feature_map<double>(net.in_type(), 2, 5, 5, seed + 1);
    const auto report = gyre::check::check_gradients(net, x);
    CHECK(report.errors.size() == 3);
    for (const auto& e : report.errors) {
      CAPTURE(e.quantity);
      CHECK(e.relative_error <= 1e-7);
    }
    CHECK(net.pending_calls() == 0);
    CHECK(shared->pending_calls() == 0);

    // The same sum term by term: the network with two independent copies of the weights gives
    // the two positions' gradients separately.
    const auto first = padded_conv(seed);
    const auto second = padded_conv(seed);
    gyre::nn::Sequential<double> unshared;
    unshared.add_shared(first);
    unshared.emplace<gyre::nn::PointwiseELU<double>>(regular(2));
    unshared.add_shared(second);
    const auto upstream = gyre::test::random_feature_map<double>(net.out_type(), 2, 5, 5, seed + 2);
    net.zero_grad();
    unshared.zero_grad();
    static_cast<void>(net.forward(x));
    static_cast<void>(net.backward(upstream));
    static_cast<void>(unshared.forward(x));
    static_cast<void>(unshared.backward(upstream));
    for (std::size_t k = 0; k < 2; ++k) {
      const xt::xarray<double> sum = first->parameters()[k]->grad + second->parameters()[k]->grad;
      // Two sums of the same terms in a different order: rounding only (≈ 1e-15 relative).
      CHECK(gyre::test::relative_difference(shared->parameters()[k]->grad, sum) <= 1e-13);
    }
  }
}

TEST_CASE("re-entrancy: backward differentiates calls most recent first, each with its own saved state") {
  // Batch norm in training mode saves each call's batch statistics, ELU and the convolution each
  // call's input; all keep the 4×4 maps, so one upstream shape serves every layer.
  const FieldType type = regular(2);
  std::vector<std::shared_ptr<gyre::nn::Module<double>>> layers{
      std::make_shared<gyre::nn::InnerBatchNorm<double>>(type),
      std::make_shared<gyre::nn::PointwiseELU<double>>(type, 0.7), padded_conv(5)};
  for (auto& layer : layers) {
    CAPTURE(layer->describe());
    const auto x1 = gyre::test::random_feature_map<double>(type, 3, 4, 4, 11);
    const auto x2 = gyre::test::random_feature_map<double>(type, 3, 4, 4, 12);
    const auto g1 = gyre::test::random_feature_map<double>(type, 3, 4, 4, 13);
    const auto g2 = gyre::test::random_feature_map<double>(type, 3, 4, 4, 14);
    // Alone: each call's input gradient.
    static_cast<void>(layer->forward(x1));
    const auto alone1 = layer->backward(g1);
    static_cast<void>(layer->forward(x2));
    const auto alone2 = layer->backward(g2);
    // Interleaved: two forwards, then two backwards in reverse order.
    static_cast<void>(layer->forward(x1));
    static_cast<void>(layer->forward(x2));
    CHECK(layer->pending_calls() == 2);
    const auto both2 = layer->backward(g2);
    const auto both1 = layer->backward(g1);
    CHECK(layer->pending_calls() == 0);
    // The same arithmetic on the same saved state: bit for bit.
    CHECK(xt::all(xt::equal(both1.data, alone1.data)));
    CHECK(xt::all(xt::equal(both2.data, alone2.data)));
    CHECK_THROWS_WITH_AS(static_cast<void>(layer->backward(g1)),
                         doctest::Contains("backward() without a matching forward()"),
                         gyre::nn::UnmatchedBackwardError);
  }
}

TEST_CASE("NoGrad: forwards save nothing while a guard lives, guards nest, and discard_saved forgets calls") {
  const FieldType type = regular(2);
  gyre::nn::Sequential<double> net;
  net.add_shared(padded_conv(3));
  net.emplace<gyre::nn::InnerBatchNorm<double>>(type);
  net.emplace<gyre::nn::PointwiseReLU<double>>(type);
  const auto x = gyre::test::random_feature_map<double>(type, 2, 4, 4, 1);
  CHECK(gyre::nn::grad_recording());
  {
    const gyre::nn::NoGrad outer;
    {
      const gyre::nn::NoGrad inner;
      static_cast<void>(net.forward(x));
    }
    CHECK_FALSE(gyre::nn::grad_recording());  // the inner guard restores the outer one's state
    static_cast<void>(net.forward(x));
    CHECK(net.pending_calls() == 0);
    for (std::size_t i = 0; i < net.size(); ++i) CHECK(net[i].pending_calls() == 0);
  }
  CHECK(gyre::nn::grad_recording());
  const auto y = net.forward(x);
  static_cast<void>(net.forward(x));
  CHECK(net.pending_calls() == 2);
  net.discard_saved();
  CHECK(net.pending_calls() == 0);
  for (std::size_t i = 0; i < net.size(); ++i) CHECK(net[i].pending_calls() == 0);
  CHECK_THROWS_AS(static_cast<void>(net.backward(y)), gyre::nn::UnmatchedBackwardError);
}
