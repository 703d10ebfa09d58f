// R2Conv and its engine: conv2d against a direct sum, backward passes against central finite
// differences, equivariance under the exact grid symmetries, and type checks.

#include "gyre/nn/r2conv.hpp"

#include <cmath>
#include <string>

#include <doctest/doctest.h>

#include "gyre/check/equivariance.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/repr/representation.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::nn::Conv2dGeometry;
using gyre::nn::FieldType;
using gyre::nn::GeometricTensor;
using gyre::repr::PlanarGroup;

template <class T>
xt::xtensor<T, 4> random_array(std::array<std::size_t, 4> shape, gyre::Rng& rng) {
  xt::xtensor<T, 4> a = xt::xtensor<T, 4>::from_shape(shape);
  for (T& v : a) v = rng.normal<T>();
  return a;
}

// out[n, o, y, x] by the definition, in long double.
xt::xtensor<double, 4> direct_conv(const xt::xtensor<double, 4>& in, const xt::xtensor<double, 4>& f,
                                   const std::vector<double>& bias, const Conv2dGeometry& g) {
  const int k = static_cast<int>(f.shape(2));
  const int h = static_cast<int>(in.shape(2));
  const int w = static_cast<int>(in.shape(3));
  const int oh = gyre::nn::conv_output_size(h, k, g);
  const int ow = gyre::nn::conv_output_size(w, k, g);
  xt::xtensor<double, 4> out = xt::zeros<double>({in.shape(0), f.shape(0), std::size_t(oh), std::size_t(ow)});
  for (std::size_t n = 0; n < in.shape(0); ++n)
    for (std::size_t o = 0; o < f.shape(0); ++o)
      for (int y = 0; y < oh; ++y)
        for (int x = 0; x < ow; ++x) {
          long double s = bias.empty() ? 0.0L : bias[o];
          for (std::size_t i = 0; i < f.shape(1); ++i)
            for (int a = 0; a < k; ++a)
              for (int b = 0; b < k; ++b) {
                const int iy = y * g.stride - g.padding + a * g.dilation;
                const int ix = x * g.stride - g.padding + b * g.dilation;
                if (iy < 0 || ix < 0 || iy >= h || ix >= w) continue;
                s += static_cast<long double>(f(o, i, a, b)) * in(n, i, iy, ix);
              }
          out(n, o, y, x) = static_cast<double>(s);
        }
  return out;
}

template <class Array>
double max_abs(const Array& a) {
  double m = 0;
  for (double v : a) m = std::max(m, std::abs(v));
  return m;
}

// ⟨G, module(x)⟩ for a fixed upstream gradient G: its gradients are what backward(G) returns.
double pairing(gyre::nn::Module<double>& m, const GeometricTensor<double>& x, const xt::xtensor<double, 4>& g) {
  const auto y = m.forward(x);
  double s = 0;
  for (std::size_t i = 0; i < g.size(); ++i) s += g.data()[i] * y.data.data()[i];
  return s;
}

}  // namespace

TEST_CASE("conv2d: equals the direct sum for strides, paddings and dilations") {
  gyre::Rng rng(11);
  for (const Conv2dGeometry g : {Conv2dGeometry{1, 0, 1}, Conv2dGeometry{1, 2, 1}, Conv2dGeometry{2, 1, 1},
                                 Conv2dGeometry{1, 2, 2}, Conv2dGeometry{3, 3, 2}}) {
    CAPTURE(g.stride);
    CAPTURE(g.padding);
    CAPTURE(g.dilation);
    const auto in = random_array<double>({3, 4, 11, 9}, rng);
    const auto f = random_array<double>({5, 4, 3, 3}, rng);
    std::vector<double> bias{0.1, -0.2, 0.3, 0.0, 1.5};
    const auto expected = direct_conv(in, f, bias, g);
    const auto got = gyre::nn::conv2d(in, f, bias, g);
    REQUIRE(got.shape() == expected.shape());
    // Sums of 36 products of N(0,1) numbers: 1e-13 relative to the largest output is rounding.
    CHECK(max_abs(xt::xtensor<double, 4>(got - expected)) <= 1e-13 * max_abs(expected));
    const auto got_float =
        gyre::nn::conv2d(xt::xtensor<float, 4>(xt::cast<float>(in)), xt::xtensor<float, 4>(xt::cast<float>(f)),
                         std::vector<float>(bias.begin(), bias.end()), g);
    // float rounding of the same 36-term sums: ≈ 1e-7 of the largest output, 1e-5 with margin.
    CHECK(max_abs(xt::xtensor<double, 4>(xt::cast<double>(got_float) - expected)) <= 1e-5 * max_abs(expected));
  }
}

TEST_CASE("conv2d: backward equals central finite differences") {
  gyre::Rng rng(12);
  const Conv2dGeometry g{2, 1, 2};
  auto in = random_array<double>({2, 3, 8, 7}, rng);
  auto f = random_array<double>({4, 3, 3, 3}, rng);
  const std::vector<double> bias{0.0, 0.0, 0.0, 0.0};
  const auto out = gyre::nn::conv2d(in, f, bias, g);
  const auto upstream = random_array<double>({out.shape(0), out.shape(1), out.shape(2), out.shape(3)}, rng);
  const auto grads = gyre::nn::conv2d_backward(in, f, upstream, g);
  const auto loss = [&](const xt::xtensor<double, 4>& a, const xt::xtensor<double, 4>& b) {
    const auto y = gyre::nn::conv2d(a, b, bias, g);
    double s = 0;
    for (std::size_t i = 0; i < y.size(); ++i) s += y.data()[i] * upstream.data()[i];
    return s;
  };
  // The loss is linear in each argument, so central differences are exact up to rounding (1e-9).
  const double step = 1e-3;
  for (std::size_t i = 0; i < in.size(); i += 7) {
    const double keep = in.data()[i];
    in.data()[i] = keep + step;
    const double up = loss(in, f);
    in.data()[i] = keep - step;
    const double down = loss(in, f);
    in.data()[i] = keep;
    CHECK(grads.input.data()[i] == doctest::Approx((up - down) / (2 * step)).epsilon(1e-9));
  }
  for (std::size_t i = 0; i < f.size(); i += 5) {
    const double keep = f.data()[i];
    f.data()[i] = keep + step;
    const double up = loss(in, f);
    f.data()[i] = keep - step;
    const double down = loss(in, f);
    f.data()[i] = keep;
    CHECK(grads.filter.data()[i] == doctest::Approx((up - down) / (2 * step)).epsilon(1e-9));
  }
  for (std::size_t o = 0; o < 4; ++o) {
    double s = 0;
    for (std::size_t n = 0; n < out.shape(0); ++n)
      for (std::size_t y = 0; y < out.shape(2); ++y)
        for (std::size_t x = 0; x < out.shape(3); ++x) s += upstream(n, o, y, x);
    // The bias gradient is a plain sum of ≤ 64 N(0,1) numbers in both: rounding, 1e-12 relative.
    CHECK(grads.bias[o] == doctest::Approx(s).epsilon(1e-12));
  }
}

TEST_CASE("conv2d: rejects mismatched channels and a kernel larger than the padded input") {
  gyre::Rng rng(13);
  const auto in = random_array<double>({1, 3, 4, 4}, rng);
  const auto f = random_array<double>({2, 2, 3, 3}, rng);
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::nn::conv2d(in, f, {}, {})),
                       doctest::Contains("gyre::conv2d: input channels must equal the filter's 2"), gyre::ShapeError);
  const auto big = random_array<double>({2, 3, 7, 7}, rng);
  CHECK_THROWS_AS(static_cast<void>(gyre::nn::conv2d(in, big, {}, {})), gyre::ShapeError);
}

TEST_CASE("R2Conv: backward matches central finite differences for weights, bias and input") {
  const PlanarGroup group = PlanarGroup::dihedral(4);
  const auto regular = gyre::repr::regular_representation(group);
  const auto vector_field = gyre::repr::irrep_representation(group, {1, 1});
  const auto trivial = gyre::repr::trivial_representation(group);
  const FieldType in(group, {trivial, vector_field, regular});
  const FieldType out(group, {regular, vector_field, trivial});
  gyre::nn::R2Conv<double> conv(in, out, 3, {2, 1, 1, true, std::nullopt, 5});
  gyre::Rng rng(14);
  for (auto* p : conv.parameters()) {
    for (double& v : p->value) v = rng.normal<double>();
  }
  GeometricTensor<double> x(in, random_array<double>({2, std::size_t(in.size()), 7, 7}, rng));
  const auto y = conv.forward(x);
  const auto upstream = random_array<double>({y.data.shape(0), y.data.shape(1), y.data.shape(2), y.data.shape(3)}, rng);
  conv.zero_grad();
  const auto grad_in = conv.backward(GeometricTensor<double>(out, upstream));
  // ⟨G, conv(x)⟩ is bilinear in (weights, x): central differences are exact up to rounding.
  const double step = 1e-3;
  for (auto* p : conv.parameters()) {
    CAPTURE(p->name);
    for (std::size_t i = 0; i < p->value.size(); ++i) {
      const double keep = p->value.data()[i];
      p->value.data()[i] = keep + step;
      const double up = pairing(conv, x, upstream);
      p->value.data()[i] = keep - step;
      const double down = pairing(conv, x, upstream);
      p->value.data()[i] = keep;
      CHECK(p->grad.data()[i] == doctest::Approx((up - down) / (2 * step)).epsilon(1e-8));
    }
  }
  for (std::size_t i = 0; i < x.data.size(); i += 3) {
    const double keep = x.data.data()[i];
    x.data.data()[i] = keep + step;
    const double up = pairing(conv, x, upstream);
    x.data.data()[i] = keep - step;
    const double down = pairing(conv, x, upstream);
    x.data.data()[i] = keep;
    CHECK(grad_in.data.data()[i] == doctest::Approx((up - down) / (2 * step)).epsilon(1e-8));
  }
}

TEST_CASE("R2Conv: equivariant to 1e-12 under every exact grid symmetry") {
  struct Case {
    PlanarGroup group;
    std::vector<std::string> in, out;
    int k;
  };
  const std::vector<Case> cases{
      {PlanarGroup::cyclic(4), {"regular"}, {"regular", "irrep_1"}, 3},
      {PlanarGroup::cyclic(8), {"irrep_0", "regular"}, {"regular", "irrep_3", "irrep_4"}, 5},
      {PlanarGroup::dihedral(4), {"irrep_1,1", "regular"}, {"regular", "irrep_0,2", "irrep_1,0"}, 5},
      {PlanarGroup::dihedral(8), {"regular"}, {"irrep_1,3", "regular"}, 7},
      {PlanarGroup::so2(3), {"irrep_1", "regular_3"}, {"irrep_2", "irrep_0"}, 5},
      {PlanarGroup::o2(2), {"irrep_1,1", "irrep_1,0"}, {"regular_2", "irrep_0,0"}, 5},
  };
  for (const Case& c : cases) {
    std::vector<gyre::repr::Representation> in_fields;
    std::vector<gyre::repr::Representation> out_fields;
    for (const auto& n : c.in) in_fields.push_back(gyre::repr::representation_by_name(c.group, n));
    for (const auto& n : c.out) out_fields.push_back(gyre::repr::representation_by_name(c.group, n));
    const FieldType in(c.group, in_fields);
    const FieldType out(c.group, out_fields);
    gyre::nn::R2Conv<double> conv(in, out, c.k, {1, c.k / 2, 1, true, std::nullopt, 3});
    gyre::Rng rng(15);
    for (auto* p : conv.parameters()) {
      for (double& v : p->value) v = rng.normal<double>();
    }
    conv.eval();
    const GeometricTensor<double> x(in, random_array<double>({2, std::size_t(in.size()), 9, 9}, rng));
    std::vector<gyre::repr::PlanarElement> elements;
    for (int f = 0; f < (c.group.has_flips() ? 2 : 1); ++f) {
      for (int q = 0; q < 4; ++q) elements.push_back({f, q * boost::math::constants::half_pi<double>()});
    }
    const auto report = gyre::check::check_equivariance(conv, x, elements);
    CAPTURE(conv.describe());
    CAPTURE(report.table());
    // Exact pixel permutations and a steerable filter: only rounding remains (≈ 1e-15).
    CHECK(report.max_grid_symmetry_error() <= 1e-12);
  }
}

TEST_CASE("R2Conv: rejects an input of another field type, naming both types") {
  const PlanarGroup group = PlanarGroup::cyclic(8);
  const FieldType regular(group, gyre::repr::regular_representation(group), 2);
  const FieldType trivial(group, gyre::repr::trivial_representation(group), 16);
  gyre::nn::R2Conv<float> conv(regular, regular, 3);
  const GeometricTensor<float> x(trivial, xt::zeros<float>({1, 16, 5, 5}));
  CHECK_THROWS_WITH_AS(
      static_cast<void>(conv.forward(x)),
      doctest::Contains(
          "gyre::R2Conv::forward: tensor types differ (expected grid × C8[2×regular]) (got grid × C8[16×irrep_0])"),
      gyre::ShapeError);
}

TEST_CASE("R2Conv: evaluation mode expands the filter once, training mode after every change") {
  const PlanarGroup group = PlanarGroup::cyclic(4);
  const FieldType type(group, gyre::repr::regular_representation(group), 1);
  gyre::nn::R2Conv<double> conv(type, type, 3, {1, 1, 1, true, std::nullopt, 1});
  const auto before = conv.filter();
  conv.parameters()[0]->value(0) += 1.0;
  CHECK(max_abs(xt::xtensor<double, 4>(conv.filter() - before)) > 0);  // training: re-expanded
  conv.eval();
  const auto frozen = conv.filter();
  conv.parameters()[0]->value(0) += 1.0;
  CHECK(max_abs(xt::xtensor<double, 4>(conv.filter() - frozen)) == 0);  // eval: cached
  conv.train();
  CHECK(max_abs(xt::xtensor<double, 4>(conv.filter() - frozen)) > 0);
}

TEST_CASE("R2Conv: C8 regular to regular has escnn's 88 weights and a bias per field") {
  const PlanarGroup group = PlanarGroup::cyclic(8);
  const FieldType type(group, gyre::repr::regular_representation(group), 16);
  gyre::nn::R2ConvOptions options;
  options.padding = 2;
  gyre::nn::R2Conv<float> conv(type, type, 5, options);
  CHECK(conv.basis().dim() == 88 * 16 * 16);
  CHECK(conv.basis().bias_dim() == 16);
  CHECK(conv.parameter_count() == 88 * 16 * 16 + 16);
}

TEST_CASE("EquivariantLinear: commutes with the group on every pixel") {
  const PlanarGroup group = PlanarGroup::dihedral(6);
  const FieldType in(group,
                     {gyre::repr::regular_representation(group), gyre::repr::irrep_representation(group, {1, 2})});
  const FieldType out(group,
                      {gyre::repr::irrep_representation(group, {1, 1}), gyre::repr::trivial_representation(group)});
  gyre::nn::EquivariantLinear<double> linear(in, out, true, 9);
  gyre::Rng rng(16);
  for (auto* p : linear.parameters()) {
    for (double& v : p->value) v = rng.normal<double>();
  }
  const GeometricTensor<double> x(in, random_array<double>({3, std::size_t(in.size()), 4, 4}, rng));
  const auto report = gyre::check::check_equivariance(linear, x, {{0, 0.0}, {1, 0.0}});
  CHECK(report.max_error() <= 1e-12);  // pixels do not move: only ρ acts, exactly
  // D6 elements that are not grid symmetries still act exactly on 1×1 maps' channels.
  const GeometricTensor<double> point(in, random_array<double>({3, std::size_t(in.size()), 1, 1}, rng));
  CHECK(gyre::check::check_equivariance(linear, point).max_error() <= 1e-12);
}

namespace {

// A convolution whose filter ignores the group: the checker must see that it is not equivariant.
class PlainConv : public gyre::nn::Module<double> {
 public:
  PlainConv(FieldType type, xt::xtensor<double, 4> filter) : type_(std::move(type)), filter_(std::move(filter)) {}
  GeometricTensor<double> forward(const GeometricTensor<double>& x) override {
    return GeometricTensor<double>(type_, gyre::nn::conv2d(x.maps(), filter_, {}, {1, 1, 1}));
  }
  GeometricTensor<double> backward(const GeometricTensor<double>& g) override { return g; }
  const gyre::nn::TensorType& in_type() const override { return type_; }
  const gyre::nn::TensorType& out_type() const override { return type_; }
  std::string describe() const override { return "PlainConv"; }
  std::size_t pending_calls() const override { return 0; }
  void discard_saved() override {}

 private:
  gyre::nn::TensorType type_;
  xt::xtensor<double, 4> filter_;
};

}  // namespace

TEST_CASE("equivariance checker: reports a large error for a filter that ignores the group") {
  const PlanarGroup group = PlanarGroup::cyclic(4);
  const FieldType type(group, gyre::repr::regular_representation(group), 1);
  gyre::Rng rng(17);
  PlainConv plain(type, random_array<double>({4, 4, 3, 3}, rng));
  const GeometricTensor<double> x(type, random_array<double>({1, 4, 9, 9}, rng));
  const auto report = gyre::check::check_equivariance(plain, x);
  REQUIRE(report.rows.size() == 4);
  CHECK(report.rows[0].relative_error <= 1e-15);  // the identity
  CHECK(report.max_grid_symmetry_error() > 0.1);  // a random filter is far from steerable
}

TEST_CASE("equivariance checker: off-grid angles of an SO(2) layer report a small interpolation error") {
  const PlanarGroup group = PlanarGroup::so2(2);
  const FieldType in(group, {gyre::repr::trivial_representation(group)});
  const FieldType out(group, {gyre::repr::irrep_representation(group, {0, 1})});
  gyre::nn::R2Conv<double> conv(in, out, 5, {1, 2, 1, false, std::nullopt, 4});
  conv.eval();
  // A smooth input: interpolation error is then a few percent, as escnn reports for 45° (2e-2).
  xt::xtensor<double, 4> smooth = xt::zeros<double>({1, 1, 33, 33});
  for (std::size_t r = 0; r < 33; ++r)
    for (std::size_t c = 0; c < 33; ++c) {
      const double x = (static_cast<double>(c) - 16) / 6;
      const double y = (16 - static_cast<double>(r)) / 6;
      smooth(0, 0, r, c) = std::exp(-(x - 0.7) * (x - 0.7) - 0.5 * (y + 0.4) * (y + 0.4)) * (1 + 0.3 * x);
    }
  const auto report = gyre::check::check_equivariance(conv, GeometricTensor<double>(in, smooth));
  REQUIRE(report.rows.size() == 16);
  CHECK(report.max_grid_symmetry_error() <= 1e-12);  // exact permutations: rounding only (≈ 1e-15)
  for (const auto& row : report.rows) {
    CAPTURE(row.label);
    // Bilinear resampling of a smooth map: a few percent at most (the derived per-pixel bound is in
    // r2conv_off_grid_test.cpp; this checks the checker's own masking and normalisation).
    CHECK(row.relative_error <= 0.1);
  }
  CHECK(report.max_error() > 1e-6);  // and not zero: resampling is not exact
}
