// Backward passes that training uses, against central finite differences (gyre::check::
// check_gradients, double), where the other suites leave gaps: EquivariantLinear; R2Conv on C_N and
// on band-limited SO(2), with and without bias; InnerBatchNorm in evaluation mode, its parameters
// included; NormReLU with biases large enough that both branches occur; GatedNonlinearity on C8 and
// SO(2) fields.
//
// Two budgets, both relative to max(1, max|numeric|) as the checker reports them:
//  - layers linear in every single input and parameter entry (convolutions, evaluation-mode batch
//    norm): central differences of a linear function are exact for any step, so h = 1e-2 leaves only
//    rounding, ε·|L|/h ≈ 2e-16·1e2/1e-2 ≈ 2e-12, and 1e-10 is the pass line;
//  - smooth nonlinear layers: h = 1e-6, truncation h²·|L'''|/6 ≈ 1e-12 and rounding ε·|L|/h ≈ 1e-8,
//    so 1e-7 is the pass line (as in the other layer suites); a wrong term shows at O(1e-1).

#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "gyre/check/gradient_check.hpp"
#include "gyre/nn/r2conv.hpp"
#include "layer_zoo.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::nn::FieldType;
using gyre::nn::GeometricTensor;
using gyre::repr::PlanarGroup;
using gyre::test::fields_by_name;

constexpr double kLinearStep = 1e-2;
constexpr double kLinearTolerance = 1e-10;
constexpr double kSmoothStep = 1e-6;
constexpr double kSmoothTolerance = 1e-7;

// Every parameter entry N(0, scale²) around `shift` (non-zero everywhere, so every path is exercised).
void randomise(gyre::nn::Module<double>& module, std::uint64_t seed, double shift = 0, double scale = 1) {
  gyre::Rng rng(seed);
  for (auto* p : module.parameters()) {
    for (double& v : p->value) v = shift + scale * rng.normal<double>();
  }
}

// The checker's report: the input and each named parameter compared, each within the tolerance.
void check_report(const gyre::check::GradientReport& report, const std::vector<std::string>& quantities,
                  double tolerance) {
  std::vector<std::string> compared;
  for (const auto& e : report.errors) {
    compared.push_back(e.quantity);
    CAPTURE(e.quantity);
    CHECK(e.relative_error <= tolerance);
  }
  CHECK(compared == quantities);
}

// Holds a module in evaluation mode while check_gradients switches this wrapper to training.
class InEvaluation : public gyre::nn::Module<double> {
 public:
  explicit InEvaluation(gyre::nn::Module<double>& inner) : inner_(inner) { inner_.eval(); }
  GeometricTensor<double> forward(const GeometricTensor<double>& x) override { return inner_.forward(x); }
  GeometricTensor<double> backward(const GeometricTensor<double>& g) override { return inner_.backward(g); }
  std::vector<gyre::nn::Parameter<double>*> parameters() override { return inner_.parameters(); }
  [[nodiscard]] const gyre::nn::TensorType& in_type() const override { return inner_.in_type(); }
  [[nodiscard]] const gyre::nn::TensorType& out_type() const override { return inner_.out_type(); }
  [[nodiscard]] std::size_t pending_calls() const override { return inner_.pending_calls(); }
  void discard_saved() override { inner_.discard_saved(); }
  [[nodiscard]] std::string describe() const override { return "InEvaluation(" + inner_.describe() + ")"; }
  void train(bool on) override {
    gyre::nn::Module<double>::train(on);
    inner_.eval();
  }

 private:
  gyre::nn::Module<double>& inner_;
};

}  // namespace

TEST_CASE("EquivariantLinear: backward matches finite differences on C8 with bias and on SO(2) without") {
  const PlanarGroup c8 = PlanarGroup::cyclic(8);
  const PlanarGroup so2 = PlanarGroup::so2(2);
  gyre::nn::EquivariantLinear<double> with_bias(fields_by_name(c8, {"regular", "irrep_1", "irrep_0"}),
                                                fields_by_name(c8, {"irrep_0", "regular", "irrep_3"}), true, 2);
  gyre::nn::EquivariantLinear<double> without_bias(fields_by_name(so2, {"regular_2", "irrep_1", "irrep_0"}),
                                                   fields_by_name(so2, {"irrep_1", "irrep_0", "regular_2"}), false, 3);
  const std::vector<std::pair<gyre::nn::EquivariantLinear<double>*, std::vector<std::string>>> cases{
      {&with_bias, {"input", "weight", "bias"}}, {&without_bias, {"input", "weight"}}};
  for (const auto& c : cases) {
    gyre::nn::EquivariantLinear<double>* layer = c.first;
    CAPTURE(layer->describe());
    for (const std::uint64_t seed : gyre::test::seeds(2)) {
      CAPTURE(seed);
      randomise(*layer, seed);
      const auto x = gyre::test::random_feature_map<double>(layer->in_type(), 2, 3, 3, seed + 1);
      check_report(gyre::check::check_gradients(*layer, x, kLinearStep, seed + 2), c.second, kLinearTolerance);
    }
  }
}

TEST_CASE("R2Conv: backward matches finite differences on C8, C4 and SO(2), with and without bias") {
  struct Case {
    PlanarGroup group;
    std::vector<std::string> in, out;
    int k;
    gyre::nn::R2ConvOptions options;
    std::vector<std::string> quantities;
  };
  const std::vector<Case> cases{
      {PlanarGroup::cyclic(8),
       {"irrep_0", "regular", "irrep_3"},
       {"regular", "irrep_1", "irrep_0"},
       3,
       {1, 1, 1, true, std::nullopt, 4},
       {"input", "weight", "bias"}},
      // Stride 2 and dilation 2 on C4, no bias although the output has trivial irreps.
      {PlanarGroup::cyclic(4),
       {"regular", "irrep_1"},
       {"irrep_2", "regular"},
       3,
       {2, 1, 2, false, std::nullopt, 5},
       {"input", "weight"}},
      // SO(2) band-limited at 2 (n() = −1): irreps, the band-limited regular field and trivial.
      {PlanarGroup::so2(2),
       {"irrep_1", "regular_2", "irrep_0"},
       {"irrep_2", "regular_2", "irrep_0"},
       5,
       {1, 2, 1, true, std::nullopt, 6},
       {"input", "weight", "bias"}},
      {PlanarGroup::so2(2),
       {"irrep_0", "irrep_2"},
       {"irrep_1", "irrep_0"},
       3,
       {1, 0, 1, false, std::nullopt, 7},
       {"input", "weight"}},
  };
  for (const Case& c : cases) {
    gyre::nn::R2Conv<double> conv(fields_by_name(c.group, c.in), fields_by_name(c.group, c.out), c.k, c.options);
    CAPTURE(conv.describe());
    REQUIRE(conv.basis().dim() > 0);
    for (const std::uint64_t seed : gyre::test::seeds(1)) {
      CAPTURE(seed);
      randomise(conv, seed);
      const auto x = gyre::test::random_feature_map<double>(conv.in_type(), 1, 5, 5, seed + 1);
      check_report(gyre::check::check_gradients(conv, x, kLinearStep, seed + 2), c.quantities, kLinearTolerance);
    }
  }
}

TEST_CASE("InnerBatchNorm: evaluation-mode backward, weight and bias included, matches finite differences") {
  for (const PlanarGroup& group : {PlanarGroup::cyclic(4), PlanarGroup::dihedral(4)}) {
    const FieldType type = gyre::test::permutation_fields(group);
    gyre::nn::InnerBatchNorm<double> bn(type, 1e-5, 0.5);
    for (const std::uint64_t seed : gyre::test::seeds(2)) {
      CAPTURE(group.name());
      CAPTURE(seed);
      // Running statistics away from (0, 1): two training batches of mean 0.5 and spread 2.
      bn.train();
      for (std::uint64_t b = 0; b < 2; ++b) {
        auto batch = gyre::test::random_feature_map<double>(type, 3, 4, 4, seed + b);
        batch.data = 2.0 * batch.data + 0.5;
        static_cast<void>(bn.forward(batch));
      }
      randomise(bn, seed + 3, 1.0, 0.5);
      const std::vector<double> mean = bn.running_mean();
      const std::vector<double> var = bn.running_var();
      REQUIRE(std::abs(mean[0]) > 0.1);
      InEvaluation frozen(bn);
      const auto x = gyre::test::random_feature_map<double>(type, 2, 3, 3, seed + 4);
      check_report(gyre::check::check_gradients(frozen, x, kLinearStep, seed + 5), {"input", "weight", "bias"},
                   kLinearTolerance);
      // Evaluation mode throughout: the running statistics never moved.
      CHECK(!bn.training());
      CHECK(bn.running_mean() == mean);
      CHECK(bn.running_var() == var);
    }
  }
}

TEST_CASE("NormReLU: backward and bias gradient match finite differences on C8 and SO(2), both branches taken") {
  // Biases in [0.5, 1.5]: about half the fields fall below their bias and output 0. Positive biases
  // keep the live fields at ‖f‖ > b ≥ 0.5, where (‖f‖ − b)·f/‖f‖ has third derivatives of order
  // 1/b² ≤ 4; the kink ‖f‖ = b lies within h of a random input with probability ≈ 1e-6 per field.
  for (const FieldType& type : {fields_by_name(PlanarGroup::cyclic(8), {"irrep_1", "irrep_4", "regular", "irrep_0"}),
                                fields_by_name(PlanarGroup::so2(2), {"irrep_1", "irrep_2", "regular_2", "irrep_0"})}) {
    gyre::nn::NormReLU<double> layer(type);
    CAPTURE(layer.describe());
    for (const std::uint64_t seed : gyre::test::seeds(2)) {
      CAPTURE(seed);
      gyre::Rng rng(seed);
      for (double& b : layer.parameters()[0]->value) b = rng.uniform<double>(0.5, 1.5);
      const auto x = gyre::test::random_feature_map<double>(type, 2, 4, 4, seed + 1);
      // Both branches occur: count the (image, field, pixel) triples that the layer zeroes.
      const auto y = layer.forward(x);
      std::size_t zeroed = 0;
      std::size_t total = 0;
      for (std::size_t n = 0; n < 2; ++n)
        for (int f = 0; f < type.n_fields(); ++f)
          for (std::size_t p = 0; p < 16; ++p, ++total) {
            const std::size_t c = static_cast<std::size_t>(type.field_offset(f));
            if (y.data(n, c, p / 4, p % 4) == 0.0) ++zeroed;
          }
      CHECK(zeroed >= total / 10);
      CHECK(zeroed <= total * 9 / 10);
      check_report(gyre::check::check_gradients(layer, x, kSmoothStep, seed + 2), {"input", "bias"}, kSmoothTolerance);
    }
  }
}

TEST_CASE("GatedNonlinearity: backward matches finite differences on C8 and SO(2) fields") {
  // sigmoid(gate)·field is smooth with O(1) derivatives: the smooth budget applies.
  for (const FieldType& gated : {fields_by_name(PlanarGroup::cyclic(8), {"irrep_1", "regular", "irrep_4"}),
                                 fields_by_name(PlanarGroup::so2(2), {"irrep_2", "regular_2", "irrep_1"})}) {
    gyre::nn::GatedNonlinearity<double> gate(gated);
    CAPTURE(gate.describe());
    for (const std::uint64_t seed : gyre::test::seeds(2)) {
      CAPTURE(seed);
      auto x = gyre::test::random_feature_map<double>(gate.in_type(), 2, 4, 4, seed);
      x.data = 2.0 * x.data;  // gates out to ±4, into sigmoid's flat tails as well
      check_report(gyre::check::check_gradients(gate, x, kSmoothStep, seed + 1), {"input"}, kSmoothTolerance);
    }
  }
}
