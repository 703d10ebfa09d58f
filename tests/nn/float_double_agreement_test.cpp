// The float paths training runs (R2Conv and PlainConv2d on the float conv2d engine, oneDNN when the
// build has it, and a small steerable Sequential) against the same modules in double: the same
// weights (float values copied exactly into double), the same input and upstream gradient. Forward
// and backward (input gradient and every parameter gradient) agree to a float-rounding budget.
//
// The convolutions get an entrywise budget from the standard bound on a float sum of m products
// (Higham's γ_m ≤ 1.01·m·u for m·u ≤ 0.01, any summation order, with or without FMA; u = 2⁻²⁴):
//   |a_float − a_double| ≤ 1.01·m·u·S,  S = Σ|terms| of that entry, computed in double,
// where m counts every float rounding on the way (the products summed, plus the expansion of the
// steerable filter from rounded float basis samples). Double's own error is 2⁻²⁹ times smaller.

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "gyre/nn/conv2d.hpp"
#include "gyre/nn/plain_conv2d.hpp"
#include "gyre/nn/r2conv.hpp"
#include "gyre/nn/sequential.hpp"
#include "layer_zoo.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::nn::FieldType;
using gyre::nn::GeometricTensor;
using gyre::repr::PlanarGroup;
using gyre::test::fields_by_name;

constexpr double kUnitRoundoff = 0x1p-24;  // u = ε_float/2

template <class E>
xt::xtensor<double, 4> widen(const E& a) {
  return xt::xtensor<double, 4>(xt::cast<double>(a));
}

// Checks |f − d| ≤ 1.01·m·u·S entry by entry; the worst ratio |f − d|/(u·S) is captured.
template <class F, class D, class S>
void check_within_rounding(const std::string& quantity, const F& f, const D& d, const S& magnitude, double m) {
  REQUIRE(f.size() == d.size());
  REQUIRE(magnitude.size() == d.size());
  double worst = 0;
  for (std::size_t i = 0; i < d.size(); ++i) {
    const double gap = std::abs(static_cast<double>(f.data()[i]) - static_cast<double>(d.data()[i]));
    const double ratio = gap == 0 ? 0 : gap / (kUnitRoundoff * static_cast<double>(magnitude.data()[i]));
    worst = std::isnan(ratio) ? ratio : std::max(worst, ratio);
    if (std::isnan(ratio)) break;
  }
  CAPTURE(quantity);
  CAPTURE(m);
  CAPTURE(worst);
  CHECK(worst <= 1.01 * m);
}

// Copies float parameter values into the double module's (exact: every float is a double).
void copy_parameters(gyre::nn::Module<float>& from, gyre::nn::Module<double>& to) {
  const auto pf = from.parameters();
  const auto pd = to.parameters();
  REQUIRE(pf.size() == pd.size());
  for (std::size_t k = 0; k < pd.size(); ++k) {
    REQUIRE(pf[k]->value.shape() == pd[k]->value.shape());
    pd[k]->value = xt::cast<double>(pf[k]->value);
  }
}

// ‖a − b‖ / ‖b‖ for arrays of any rank.
template <class A, class B>
double relative_gap(const A& a, const B& b) {
  double diff = 0;
  double norm = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    const double x = static_cast<double>(a.data()[i]);
    const double y = static_cast<double>(b.data()[i]);
    diff += (x - y) * (x - y);
    norm += y * y;
  }
  return std::sqrt(diff / norm);
}

}  // namespace

TEST_CASE("PlainConv2d: float forward and backward agree with double within the float-sum budget") {
  const int cin = 3;
  const int cout = 4;
  const int k = 3;
  for (const std::uint64_t seed : gyre::test::seeds(2)) {
    CAPTURE(seed);
    gyre::nn::PlainConv2d<float> conv_f(cin, cout, k, gyre::nn::Conv2dGeometry{2, 1, 1}, true, seed);
    gyre::nn::PlainConv2d<double> conv_d(cin, cout, k, gyre::nn::Conv2dGeometry{2, 1, 1}, true, seed);
    gyre::nn::PlainConv2d<double> magnitudes(cin, cout, k, gyre::nn::Conv2dGeometry{2, 1, 1}, true, seed);
    gyre::Rng rng(seed);
    for (float& b : conv_f.parameters()[1]->value) b = rng.normal<float>();
    copy_parameters(conv_f, conv_d);
    // The same module on |weights|, |x| and |G| sums the absolute values of the very same terms.
    for (auto* p : magnitudes.parameters()) p->value = xt::abs(conv_d.parameters()[p->name == "bias"]->value);
    const auto xf = gyre::test::random_feature_map<float>(conv_f.in_type(), 2, 9, 9, seed + 1);
    const GeometricTensor<double> xd(xf.type, widen(xf.data));
    const auto yf = conv_f.forward(xf);
    const auto yd = conv_d.forward(xd);
    const auto sy = magnitudes.forward(GeometricTensor<double>(xd.type, xt::abs(xd.data)));
    const auto gf =
        gyre::test::random_feature_map<float>(conv_f.out_type(), 2, yf.data.shape(2), yf.data.shape(3), seed + 2);
    const GeometricTensor<double> gd(gf.type, widen(gf.data));
    conv_f.zero_grad();
    conv_d.zero_grad();
    magnitudes.zero_grad();
    const auto bf = conv_f.backward(gf);
    const auto bd = conv_d.backward(gd);
    const auto sb = magnitudes.backward(GeometricTensor<double>(gd.type, xt::abs(gd.data)));
    const double positions = static_cast<double>(2 * yf.data.shape(2) * yf.data.shape(3));  // N·H'·W'
    check_within_rounding("output", yf.data, yd.data, sy.data, cin * k * k + 1);
    check_within_rounding("input gradient", bf.data, bd.data, sb.data, cout * k * k);
    for (std::size_t i = 0; i < 2; ++i) {
      check_within_rounding(conv_d.parameters()[i]->name, conv_f.parameters()[i]->grad, conv_d.parameters()[i]->grad,
                            magnitudes.parameters()[i]->grad, positions + 1);
    }
  }
}

TEST_CASE("R2Conv: float (on the float engine) agrees with double within the float-sum budget") {
  struct Case {
    PlanarGroup group;
    std::vector<std::string> in, out;
    gyre::nn::R2ConvOptions options;
  };
  const std::vector<Case> cases{
      {PlanarGroup::cyclic(8),
       {"irrep_0", "regular"},
       {"regular", "irrep_3", "irrep_0"},
       {1, 1, 1, true, std::nullopt, 1}},
      {PlanarGroup::dihedral(4), {"regular", "irrep_1,1"}, {"irrep_1,0", "regular"}, {2, 1, 1, true, std::nullopt, 2}},
  };
  CAPTURE(gyre::nn::conv2d_uses_onednn());
  const int k = 3;
  for (const Case& c : cases) {
    gyre::nn::R2Conv<float> conv_f(fields_by_name(c.group, c.in), fields_by_name(c.group, c.out), k, c.options);
    gyre::nn::R2Conv<double> conv_d(conv_f.in_type().fields(), conv_f.out_type().fields(), k, c.options);
    CAPTURE(conv_d.describe());
    REQUIRE(conv_f.parameters().size() == 2);
    gyre::Rng rng(c.options.seed);
    for (float& b : conv_f.parameters()[1]->value) b = rng.normal<float>();
    copy_parameters(conv_f, conv_d);
    const auto xf = gyre::test::random_feature_map<float>(conv_f.in_type(), 2, 7, 7, 10 + c.options.seed);
    const xt::xtensor<double, 4> xd = widen(xf.data);
    const auto yf = conv_f.forward(xf);
    const auto yd = conv_d.forward(GeometricTensor<double>(xf.type, xd));
    const auto gf = gyre::test::random_feature_map<float>(conv_f.out_type(), 2, yf.data.shape(2), yf.data.shape(3), 20);
    const xt::xtensor<double, 4> gd = widen(gf.data);
    conv_f.zero_grad();
    conv_d.zero_grad();
    const auto bf = conv_f.backward(gf);
    const auto bd = conv_d.backward(GeometricTensor<double>(gf.type, gd));

    // Magnitudes: the basis elements B_b (expanding unit weights) and bias columns Q_j give
    // F_abs = Σ_b |w_b|·|B_b| and bias_abs = Σ_j |b_j|·|Q_j|; conv2d of absolute values sums |terms|.
    const gyre::nn::FieldKernelBasis& basis = conv_d.basis();
    const std::vector<std::size_t> filter_shape = {conv_d.filter().shape().begin(), conv_d.filter().shape().end()};
    const std::size_t dim = static_cast<std::size_t>(basis.dim());
    const std::size_t bias_dim = static_cast<std::size_t>(basis.bias_dim());
    const std::size_t cout = filter_shape[0];
    const std::size_t cin = filter_shape[1];
    std::vector<xt::xtensor<double, 4>> elements;
    xt::xtensor<double, 4> filter_abs = xt::zeros<double>(filter_shape);
    for (std::size_t b = 0; b < dim; ++b) {
      std::vector<double> unit(dim, 0.0);
      unit[b] = 1;
      xt::xtensor<double, 4> element = xt::zeros<double>(filter_shape);
      basis.expand(unit.data(), element.data());
      elements.push_back(xt::abs(element));
      filter_abs += std::abs(conv_d.parameters()[0]->value(b)) * elements.back();
    }
    std::vector<std::vector<double>> columns;
    std::vector<double> bias_abs(cout, 0.0);
    for (std::size_t j = 0; j < bias_dim; ++j) {
      std::vector<double> unit(bias_dim, 0.0);
      unit[j] = 1;
      std::vector<double> column(cout);
      basis.expand_bias(unit.data(), column.data());
      for (std::size_t o = 0; o < cout; ++o) bias_abs[o] += std::abs(conv_d.parameters()[1]->value(j) * column[o]);
      columns.push_back(std::move(column));
    }
    const auto sy =
        gyre::nn::conv2d_reference(xt::xtensor<double, 4>(xt::abs(xd)), filter_abs, bias_abs, conv_d.geometry());
    const auto sb = gyre::nn::conv2d_backward_reference(xt::xtensor<double, 4>(xt::abs(xd)), filter_abs,
                                                        xt::xtensor<double, 4>(xt::abs(gd)), conv_d.geometry());
    xt::xtensor<double, 1> sw = xt::zeros<double>({dim});
    for (std::size_t b = 0; b < dim; ++b) sw(b) = xt::sum(elements[b] * sb.filter)();
    xt::xtensor<double, 1> sbias = xt::zeros<double>({bias_dim});
    for (std::size_t j = 0; j < bias_dim; ++j)
      for (std::size_t o = 0; o < cout; ++o) sbias(j) += std::abs(columns[j][o]) * sb.bias[o];

    // Rounding counts: k²·C products per conv entry; the filter expansion adds ≤ dim products and
    // the rounding of the float basis samples; the bias ≤ bias_dim products; the weight gradient
    // sums N·H'·W' products, then projects ≤ C_out·C_in·k² of them; each result is stored once more.
    const double positions = static_cast<double>(2 * yf.data.shape(2) * yf.data.shape(3));
    const double expansion = static_cast<double>(dim + 1);
    check_within_rounding("output", yf.data, yd.data, sy, static_cast<double>(cin * k * k + bias_dim + 2) + expansion);
    check_within_rounding("input gradient", bf.data, bd.data, sb.input,
                          static_cast<double>(cout * k * k + 1) + expansion);
    check_within_rounding("weight gradient", conv_f.parameters()[0]->grad, conv_d.parameters()[0]->grad, sw,
                          positions + static_cast<double>(cout * cin * k * k + 3));
    check_within_rounding("bias gradient", conv_f.parameters()[1]->grad, conv_d.parameters()[1]->grad, sbias,
                          positions + static_cast<double>(cout + 3));
  }
}

namespace {

// The steerable classifier's layers in miniature (models.cpp's steerable_cnn), on C4.
template <class T>
std::unique_ptr<gyre::nn::Sequential<T>> small_network() {
  const PlanarGroup c4 = PlanarGroup::cyclic(4);
  const FieldType image(c4, gyre::repr::trivial_representation(c4), 1);
  const FieldType hidden(c4, gyre::repr::regular_representation(c4), 2);
  const FieldType invariant(c4, gyre::repr::trivial_representation(c4), 2);
  auto net = std::make_unique<gyre::nn::Sequential<T>>();
  net->template emplace<gyre::nn::R2Conv<T>>(image, hidden, 3, gyre::nn::R2ConvOptions{1, 1, 1, true, std::nullopt, 3});
  net->template emplace<gyre::nn::InnerBatchNorm<T>>(hidden);
  net->template emplace<gyre::nn::PointwiseReLU<T>>(hidden);
  net->template emplace<gyre::nn::PointwiseMaxPool<T>>(hidden, 3, 2, 1);
  net->template emplace<gyre::nn::R2Conv<T>>(hidden, hidden, 3,
                                             gyre::nn::R2ConvOptions{1, 1, 1, true, std::nullopt, 4});
  net->template emplace<gyre::nn::GroupPooling<T>>(hidden);
  net->template emplace<gyre::nn::GlobalAveragePool<T>>(invariant);
  net->template emplace<gyre::nn::EquivariantLinear<T>>(
      invariant, FieldType(c4, gyre::repr::trivial_representation(c4), 3), true, 5);
  return net;
}

}  // namespace

TEST_CASE("Sequential: a small steerable network in float agrees with double, forward and every gradient") {
  // Each layer adds float rounding of relative size ≈ √m·u ≤ 1e-6 (m ≤ 200 terms) and passes earlier
  // errors on with gain ≈ 1 (batch norm divides by σ after centring, ReLU, max and averages are
  // 1-Lipschitz); the ReLU and max branches coincide because no input lies within 1e-6 of a kink or
  // tie. Eight layers then keep every relative gap near 1e-6; 1e-5 is the budget.
  constexpr double kBudget = 1e-5;
  for (const std::uint64_t seed : gyre::test::seeds(2)) {
    CAPTURE(seed);
    auto net_f = small_network<float>();
    auto net_d = small_network<double>();
    gyre::Rng rng(seed);
    for (auto* p : net_f->parameters()) {
      for (float& v : p->value) v += 0.3f * rng.normal<float>();
    }
    copy_parameters(*net_f, *net_d);
    const auto xf = gyre::test::random_feature_map<float>(net_f->in_type(), 3, 9, 9, seed + 1);
    const auto yf = net_f->forward(xf);
    const auto yd = net_d->forward(GeometricTensor<double>(xf.type, widen(xf.data)));
    CHECK(relative_gap(yf.data, yd.data) <= kBudget);
    const auto gf = gyre::test::random_feature_map<float>(net_f->out_type(), 3, 1, 1, seed + 2);
    net_f->zero_grad();
    net_d->zero_grad();
    const auto bf = net_f->backward(gf);
    const auto bd = net_d->backward(GeometricTensor<double>(gf.type, widen(gf.data)));
    CHECK(relative_gap(bf.data, bd.data) <= kBudget);
    const auto pf = net_f->parameters();
    const auto pd = net_d->parameters();
    REQUIRE(pd[1]->name == "0.bias");
    for (std::size_t k = 0; k < pd.size(); ++k) {
      CAPTURE(pd[k]->name);
      if (k != 1) CHECK(relative_gap(pf[k]->grad, pd[k]->grad) <= kBudget);
    }
    // 0.bias feeds batch norm, which removes every per-field constant: its exact gradient is 0, and
    // both computed values are the rounding of Σ Q_j(o)·g(n, o, y, x) with |Q| ≤ 1 and g the gradient
    // reaching the convolution's output. So both are measured against Σ|g|: double's rounding of
    // ≈ 2000 terms is ≤ 2000·ε ≈ 5e-13 of it, float's error is kBudget's share as for every gradient.
    // Backward consumed the forward: run it again (same input, same weights, so the same saved
    // state) and stop the layer-by-layer backward before layer 0, whose call is then discarded.
    static_cast<void>(net_d->forward(GeometricTensor<double>(xf.type, widen(xf.data))));
    GeometricTensor<double> g(gf.type, widen(gf.data));
    for (std::size_t i = net_d->size() - 1; i >= 1; --i) g = (*net_d)[i].backward(g);
    net_d->discard_saved();
    const double scale = xt::sum(xt::abs(g.data))();
    for (std::size_t j = 0; j < pd[1]->grad.size(); ++j) {
      CAPTURE(j);
      CHECK(std::abs(pd[1]->grad(j)) <= 5e-13 * scale);
      CHECK(std::abs(static_cast<double>(pf[1]->grad(j)) - pd[1]->grad(j)) <= kBudget * scale);
    }
  }
}
