// GyroBN and the transport-based Riemannian BN (gyre/nn/manifold_batch_norm.hpp) on the spaces they
// are instantiated for — GyroBN on the Grassmannian, the Poincaré ball (κ = −1), the projected sphere
// (κ = 1), the hyperboloid, correlation matrices and SPD under the affine-invariant, log-Euclidean and
// log-Cholesky gyro structures; the Riemannian BN on the Grassmannian, the ball, the hyperboloid,
// correlation matrices, SPD under AIM and Bures–Wasserstein —
// held to their guarantee with gyre::frechet_mean as the independent reference: in training mode with the converged mean the output batch's Fréchet
// mean is the bias and its variance s²·v/(v + ε), v the input's Fréchet variance. On SPD under LEM
// and LCM GyroBN and LieBN are the same map (both gyro structures are the groups' pull-backs);
// backward against central differences along the manifold, through the mean's implicit derivative
// and through the reference mode's unrolled Karcher steps.
//
// Budgets (double): the guarantee 1e-9 relative (Karcher means to 8ε, a few exp/log of well
// conditioned points); LEM/LCM agreement with LieBN 1e-12 (the same matrix functions in another
// order); gradients 1e-7 with h = 1e-6 (truncation ≈ 1e-12, rounding ≈ 1e-10, a missing term O(1e-2)).

#include "gyre/nn/manifold_batch_norm.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

#include <Eigen/QR>
#include <Eigen/SVD>
#include <doctest/doctest.h>
#include <xtensor/xmath.hpp>
#include <xtensor/xoperation.hpp>
#include <xtensor/xview.hpp>

#include "gradient_report_check.hpp"
#include "gyre/check/gradient_check.hpp"
#include "gyre/geometries/stereographic/model_conversions.hpp"
#include "gyre/geometry/frechet_mean.hpp"
#include "gyre/geometry/frechet_variance.hpp"
#include "gyre/nn/lie_batch_norm.hpp"
#include "gyre/nn/manifold_fibers.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::nn::GeometricTensor;
using gyre::nn::GyroBatchNorm;
using gyre::nn::GyroBatchNormOptions;
using gyre::nn::ManifoldFiber;
using gyre::nn::TensorType;

constexpr std::size_t kBatch = 6;
constexpr std::size_t kChannels = 2;
constexpr double kGuaranteeTolerance = 1e-9;
constexpr double kGradientStep = 1e-6;
constexpr double kGradientTolerance = 1e-7;

// Points within `radius` of the origin e along random geodesics: inside the region where every
// gyro operation is defined (the Grassmannian's and the sphere's ⊕ need principal angles below
// π/2 from e) and where the Karcher mean is unique.
template <class Space>
typename Space::Point near_origin(const Space& space, const typename Space::Point& e, double radius, gyre::Rng& rng) {
  typename Space::Tangent v = space.random_tangent(e, rng);
  v *= rng.uniform<double>(0.05, radius) / space.norm(e, v);
  return space.exp(e, v);
}

template <class Space>
xt::xarray<double> batch_of(const Space& space, const typename Space::Point& e, std::size_t batch, double radius,
                            gyre::Rng& rng, const std::vector<std::size_t>& item_shape) {
  std::vector<std::size_t> shape = {batch, kChannels};
  shape.insert(shape.end(), item_shape.begin(), item_shape.end());
  xt::xarray<double> data = xt::xarray<double>::from_shape(shape);
  const auto items = gyre::batch::detail::items_of<typename Space::Point>("test", "batch", data);
  for (std::size_t k = 0; k < items.count; ++k)
    gyre::batch::detail::store<typename Space::Point>(data, items, static_cast<std::ptrdiff_t>(k),
                                                      near_origin(space, e, radius, rng));
  return data;
}

template <class Space>
std::vector<typename Space::Point> channel(const xt::xarray<double>& data, std::size_t c) {
  const auto items = gyre::batch::detail::items_of<typename Space::Point>("test", "batch", data);
  std::vector<typename Space::Point> out;
  for (std::size_t b = 0; b < data.shape()[0]; ++b)
    out.push_back(
        gyre::batch::detail::item<typename Space::Point>(data, items, static_cast<std::ptrdiff_t>(b * kChannels + c)));
  return out;
}

// One space's test fixture: its layer type and how big a batch's spread may be.
template <class Space>
struct Fixture {
  Space space;
  TensorType type;
  double radius;
  std::vector<std::size_t> item_shape;
  typename Space::Point origin;
  // The learned standard deviations: the output batch must stay inside the convexity radius too
  // (π/4 on the Grassmannian and the projected sphere), where its Fréchet mean is unique.
  xt::xarray<double> scale = {0.6, 0.9};
};

Fixture<gyre::Grassmann<double>> grassmann() {
  const gyre::Grassmann<double> space(5, 2);
  return {space, gyre::nn::grassmann_features(5, 2, kChannels), 0.5, {5, 2}, space.gyro_identity(), {0.2, 0.3}};
}

Fixture<gyre::Stereographic<double>> ball() {
  return {gyre::Stereographic<double>(3, -1.0),
          TensorType(gyre::nn::Base::kNone,
                     ManifoldFiber::of<gyre::Stereographic>(static_cast<int>(kChannels), "ball(3)", 3, -1.0)),
          1.5,
          {3},
          gyre::Vector<double>::Zero(3)};
}

Fixture<gyre::Stereographic<double>> sphere() {
  return {gyre::Stereographic<double>(3, 1.0),
          TensorType(gyre::nn::Base::kNone,
                     ManifoldFiber::of<gyre::Stereographic>(static_cast<int>(kChannels), "sphere(3)", 3, 1.0)),
          0.5,
          {3},
          gyre::Vector<double>::Zero(3),
          {0.2, 0.3}};
}

template <template <class> class Geometry>
Fixture<Geometry<double>> spd_fixture(const std::string& name) {
  return {Geometry<double>(3),
          TensorType(gyre::nn::Base::kNone, ManifoldFiber::of<Geometry>(static_cast<int>(kChannels), name, 3)),
          1.0,
          {3, 3},
          gyre::Matrix<double>::Identity(3, 3)};
}

Fixture<gyre::Hyperboloid<double>> hyperboloid() {
  const gyre::Hyperboloid<double> space(3);
  return {
      space,
      TensorType(gyre::nn::Base::kNone, ManifoldFiber::of<gyre::Hyperboloid>(static_cast<int>(kChannels), "H(3)", 3)),
      1.5,
      {4},
      space.origin()};
}

Fixture<gyre::Correlation<double>> correlation() {
  return {
      gyre::Correlation<double>(3),
      TensorType(gyre::nn::Base::kNone, ManifoldFiber::of<gyre::Correlation>(static_cast<int>(kChannels), "Cor(3)", 3)),
      1.0,
      {3, 3},
      gyre::Matrix<double>::Identity(3, 3)};
}

template <class Space>
gyre::nn::GyroCentring<Space> gyro(const Fixture<Space>& f) {
  return gyre::nn::GyroCentring<Space>(f.space);
}

template <class Space>
gyre::nn::TransportCentring<Space> transport(const Fixture<Space>& f) {
  return gyre::nn::TransportCentring<Space>(f.space, f.origin);
}

template <class Centring, class Space = typename Centring::Space>
void check_guarantee(const Fixture<Space>& f, const Centring& centring, GyroBatchNormOptions options = {}) {
  for (const std::uint64_t seed : gyre::test::seeds(4)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    gyre::nn::ManifoldBatchNorm<Centring> layer(centring, f.type, options);
    const xt::xarray<double> input = batch_of(f.space, f.origin, kBatch, f.radius, rng, f.item_shape);
    xt::xarray<double> bias = batch_of(f.space, f.origin, 1, f.radius, rng, f.item_shape);
    bias.reshape(layer.bias().value.shape());
    layer.bias().value = bias;
    layer.scale().value = f.scale;
    const xt::xarray<double> out = layer.forward(GeometricTensor<double>(f.type, input)).data;
    gyre::FrechetMeanOptions tight;
    tight.max_iterations = 1000;
    const auto params = gyre::batch::detail::items_of<typename Space::Point>("test", "bias", bias);
    for (std::size_t c = 0; c < kChannels; ++c) {
      CAPTURE(c);
      const auto in = channel<Space>(input, c);
      const double v = gyre::frechet_variance(f.space, gyre::frechet_mean(f.space, in, {}, tight).point, in);
      CHECK(std::abs(layer.batch_variance()(c) - v) <= kGuaranteeTolerance * v);
      const auto outputs = channel<Space>(out, c);
      const auto p = gyre::batch::detail::item<typename Space::Point>(bias, params, static_cast<std::ptrdiff_t>(c));
      CHECK(f.space.dist(gyre::frechet_mean(f.space, outputs, {}, tight).point, p) <= kGuaranteeTolerance);
      const double s = layer.scale().value(c);
      const double expected = s * s * v / (v + options.eps);
      CHECK(std::abs(gyre::frechet_variance(f.space, p, outputs) - expected) <= kGuaranteeTolerance * expected);
    }
  }
}

template <class Centring, class Space = typename Centring::Space>
void check_backward(const Fixture<Space>& f, const Centring& centring, const GyroBatchNormOptions& options) {
  for (const std::uint64_t seed : gyre::test::seeds(2)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    gyre::nn::ManifoldBatchNorm<Centring> layer(centring, f.type, options);
    const xt::xarray<double> input = batch_of(f.space, f.origin, kBatch, f.radius, rng, f.item_shape);
    xt::xarray<double> bias = batch_of(f.space, f.origin, 1, f.radius, rng, f.item_shape);
    bias.reshape(layer.bias().value.shape());
    layer.bias().value = bias;
    layer.scale().value = xt::xarray<double>({0.6, 1.3});
    gyre::test::check_report(
        gyre::check::check_gradients(layer, GeometricTensor<double>(f.type, input), kGradientStep, seed),
        {"input", std::string(Centring::kLayerName) + ".bias", std::string(Centring::kLayerName) + ".scale"},
        kGradientTolerance);
  }
}

GyroBatchNormOptions reference_options(int steps) {
  GyroBatchNormOptions options;
  options.mean_mode = gyre::LieMeanMode::kReference;
  options.karcher_steps = steps;
  return options;
}

}  // namespace

TEST_CASE("GyroBN: the output has the bias as Fréchet mean and variance s²v/(v+ε) on every gyrogroup") {
  SUBCASE("Grassmannian Gr(5, 2)") { check_guarantee(grassmann(), gyro(grassmann())); }
  SUBCASE("Poincaré ball, κ = −1") { check_guarantee(ball(), gyro(ball())); }
  SUBCASE("projected sphere, κ = 1") { check_guarantee(sphere(), gyro(sphere())); }
  SUBCASE("hyperboloid (through its ball model)") { check_guarantee(hyperboloid(), gyro(hyperboloid())); }
  SUBCASE("correlation matrices Cor(3)") { check_guarantee(correlation(), gyro(correlation())); }
  SUBCASE("SPD, affine-invariant") {
    check_guarantee(spd_fixture<gyre::SpdAffineInvariant>("AIM"), gyro(spd_fixture<gyre::SpdAffineInvariant>("AIM")));
  }
  SUBCASE("SPD, log-Euclidean") {
    check_guarantee(spd_fixture<gyre::SpdLogEuclidean>("LEM"), gyro(spd_fixture<gyre::SpdLogEuclidean>("LEM")));
  }
  SUBCASE("SPD, log-Cholesky") {
    check_guarantee(spd_fixture<gyre::SpdLogCholesky>("LCM"), gyro(spd_fixture<gyre::SpdLogCholesky>("LCM")));
  }
}

TEST_CASE("GyroBN on SPD under LEM and LCM is LieBN, point for point") {
  gyre::Rng rng(21);
  const auto lem = spd_fixture<gyre::SpdLogEuclidean>("LEM");
  const xt::xarray<double> input = batch_of(lem.space, lem.origin, kBatch, 1.0, rng, lem.item_shape);
  xt::xarray<double> bias = batch_of(lem.space, lem.origin, 1, 1.0, rng, lem.item_shape);
  bias.reshape({kChannels, 3, 3});
  const xt::xarray<double> scale = {0.6, 1.3};
  const auto run = [&](gyre::nn::Module<double>& layer, const TensorType& type) {
    layer.parameters()[0]->value = bias;
    layer.parameters()[1]->value = scale;
    return layer.forward(GeometricTensor<double>(type, input)).data;
  };
  GyroBatchNorm<gyre::SpdLogEuclidean<double>> gyro_lem(lem.space, lem.type);
  gyre::nn::LieBatchNorm<gyre::SpdLogEuclideanNormalization<double>> lie_lem(
      gyre::SpdLogEuclideanNormalization<double>(3), gyre::nn::spd_features(3, kChannels));
  CHECK(xt::amax(xt::abs(run(gyro_lem, lem.type) - run(lie_lem, lie_lem.in_type())))() <= 1e-12);
  const auto lcm = spd_fixture<gyre::SpdLogCholesky>("LCM");
  GyroBatchNorm<gyre::SpdLogCholesky<double>> gyro_lcm(lcm.space, lcm.type);
  gyre::nn::LieBatchNorm<gyre::SpdLogCholeskyNormalization<double>> lie_lcm(
      gyre::SpdLogCholeskyNormalization<double>(3), gyre::nn::spd_features(3, kChannels));
  CHECK(xt::amax(xt::abs(run(gyro_lcm, lcm.type) - run(lie_lcm, lie_lcm.in_type())))() <= 1e-12);
}

TEST_CASE("GyroBN backward: through the converged mean's implicit derivative") {
  SUBCASE("Grassmannian") { check_backward(grassmann(), gyro(grassmann()), {}); }
  SUBCASE("Poincaré ball") { check_backward(ball(), gyro(ball()), {}); }
  SUBCASE("hyperboloid") { check_backward(hyperboloid(), gyro(hyperboloid()), {}); }
  SUBCASE("correlation matrices") { check_backward(correlation(), gyro(correlation()), {}); }
  SUBCASE("SPD, affine-invariant") {
    check_backward(spd_fixture<gyre::SpdAffineInvariant>("AIM"), gyro(spd_fixture<gyre::SpdAffineInvariant>("AIM")),
                   {});
  }
}

TEST_CASE("GyroBN on the hyperboloid is GyroBN on the Poincaré ball through the model conversions") {
  // What GitZH-Chen/GyroBN's GyroBNH.py does with hyperboloid features: map them to the ball,
  // normalise there, map back. The conversions (model_conversions.hpp) are an independent reference.
  const auto h = hyperboloid();
  const auto b = ball();
  gyre::Rng rng(33);
  const xt::xarray<double> input = batch_of(h.space, h.origin, kBatch, h.radius, rng, h.item_shape);
  xt::xarray<double> bias = batch_of(h.space, h.origin, 1, h.radius, rng, h.item_shape);
  bias.reshape({kChannels, 4});
  const auto to_ball = [](const xt::xarray<double>& points) {
    xt::xarray<double> out = xt::xarray<double>::from_shape({points.size() / 4, 3});
    for (std::size_t k = 0; k < out.shape()[0]; ++k) {
      const gyre::Vector<double> x = Eigen::Map<const gyre::Vector<double>>(points.data() + 4 * k, 4);
      const gyre::Vector<double> p = gyre::hyperboloid_to_stereographic<double>(x, -1.0);
      for (int i = 0; i < 3; ++i) out(k, static_cast<std::size_t>(i)) = p(i);
    }
    return out;
  };
  GyroBatchNorm<gyre::Hyperboloid<double>> on_hyperboloid(h.space, h.type);
  on_hyperboloid.bias().value = bias;
  const xt::xarray<double> out = on_hyperboloid.forward(GeometricTensor<double>(h.type, input)).data;
  GyroBatchNorm<gyre::Stereographic<double>> on_ball(b.space, b.type);
  xt::xarray<double> ball_bias = to_ball(bias);
  on_ball.bias().value = ball_bias;
  xt::xarray<double> ball_input = to_ball(input);
  ball_input.reshape({kBatch, kChannels, 3});
  const xt::xarray<double> ball_out = on_ball.forward(GeometricTensor<double>(b.type, ball_input)).data;
  // Both Karcher means converge to 8ε; the conversions lose a few ulps near |x| ≈ e^1.5.
  xt::xarray<double> flat_ball_out = ball_out;
  flat_ball_out.reshape({kBatch * kChannels, 3});
  CHECK(xt::amax(xt::abs(to_ball(out) - flat_ball_out))() <= 1e-12);
  CHECK(xt::amax(xt::abs(on_hyperboloid.batch_variance() - on_ball.batch_variance()))() <= 1e-12);
}

TEST_CASE("GyroBN backward: through the reference's unrolled Karcher steps (K = 2)") {
  SUBCASE("Grassmannian") { check_backward(grassmann(), gyro(grassmann()), reference_options(2)); }
  SUBCASE("projected sphere") { check_backward(sphere(), gyro(sphere()), reference_options(2)); }
  SUBCASE("SPD, log-Cholesky") {
    check_backward(spd_fixture<gyre::SpdLogCholesky>("LCM"), gyro(spd_fixture<gyre::SpdLogCholesky>("LCM")),
                   reference_options(2));
  }
}

TEST_CASE("GyroBN: eval mode uses the running statistics, and bad input is refused") {
  const auto f = grassmann();
  gyre::Rng rng(5);
  GyroBatchNormOptions options;
  options.momentum = 1;
  GyroBatchNorm<gyre::Grassmann<double>> layer(f.space, f.type, options);
  const GeometricTensor<double> input(f.type, batch_of(f.space, f.origin, kBatch, f.radius, rng, f.item_shape));
  const xt::xarray<double> trained = layer.forward(input).data;
  layer.eval();
  CHECK(xt::amax(xt::abs(layer.forward(input).data - trained))() <= 1e-12);
  layer.train();
  xt::xarray<double> one = xt::view(input.data, xt::range(0, 1));
  CHECK_THROWS_AS((void)layer.forward(GeometricTensor<double>(f.type, one)), gyre::ShapeError);
  xt::xarray<double> off = input.data;
  off(0, 0, 0, 0) += 0.5;  // no longer orthonormal
  CHECK_THROWS_AS((void)layer.forward(GeometricTensor<double>(f.type, off)), gyre::DomainError);
  xt::xarray<double> nan = input.data;
  nan(1, 1, 2, 1) = std::nan("");
  CHECK_THROWS_AS((void)layer.forward(GeometricTensor<double>(f.type, nan)), gyre::DomainError);
  GyroBatchNormOptions bad;
  bad.eps = -1;
  CHECK_THROWS_AS(GyroBatchNorm<gyre::Grassmann<double>>(f.space, f.type, bad), gyre::DomainError);
}

TEST_CASE("GyroBN without variance normalisation is SPDNetBN: P^½·M^-½·X·M^-½·P^½, with its gradients") {
  const auto f = spd_fixture<gyre::SpdAffineInvariant>("AIM");
  GyroBatchNormOptions options;
  options.normalize_variance = false;
  GyroBatchNorm<gyre::SpdAffineInvariant<double>> layer(f.space, f.type, options);
  CHECK(layer.parameters().size() == 1);
  gyre::Rng rng(31);
  const xt::xarray<double> input = batch_of(f.space, f.origin, kBatch, f.radius, rng, f.item_shape);
  xt::xarray<double> bias = batch_of(f.space, f.origin, 1, f.radius, rng, f.item_shape);
  bias.reshape({kChannels, 3, 3});
  layer.bias().value = bias;
  const xt::xarray<double> out = layer.forward(GeometricTensor<double>(f.type, input)).data;
  layer.discard_saved();
  const auto params = gyre::batch::detail::items_of<gyre::Matrix<double>>("test", "bias", bias);
  for (std::size_t c = 0; c < kChannels; ++c) {
    const auto in = channel<gyre::SpdAffineInvariant<double>>(input, c);
    const gyre::Matrix<double> m = gyre::frechet_mean(f.space, in).point;
    const gyre::Matrix<double> p =
        gyre::batch::detail::item<gyre::Matrix<double>>(bias, params, static_cast<std::ptrdiff_t>(c));
    const gyre::Matrix<double> w = gyre::linalg::spd_power<double>(m, -0.5);
    const gyre::Matrix<double> r = gyre::linalg::spd_power<double>(p, 0.5);
    const auto outputs = channel<gyre::SpdAffineInvariant<double>>(out, c);
    for (std::size_t b = 0; b < kBatch; ++b) {
      const gyre::Matrix<double> expected = r * w * in[b] * w * r;
      // 1e-12: two eigendecompositions and a Karcher mean to 8ε on condition-≤e⁴ matrices.
      CHECK((outputs[b] - expected).norm() <= 1e-12 * expected.norm());
    }
  }
  gyre::test::check_report(
      gyre::check::check_gradients(layer, GeometricTensor<double>(f.type, input), kGradientStep, 3),
      {"input", "GyroBatchNorm.bias"}, kGradientTolerance);
}

TEST_CASE("Riemannian BN (transport): the output has the bias as Fréchet mean and variance s²v/(v+ε)") {
  SUBCASE("Grassmannian Gr(5, 2)") { check_guarantee(grassmann(), transport(grassmann())); }
  SUBCASE("Poincaré ball, κ = −1") { check_guarantee(ball(), transport(ball())); }
  SUBCASE("hyperboloid H³") { check_guarantee(hyperboloid(), transport(hyperboloid())); }
  SUBCASE("correlation matrices Cor(3)") { check_guarantee(correlation(), transport(correlation())); }
  SUBCASE("SPD, affine-invariant") {
    check_guarantee(spd_fixture<gyre::SpdAffineInvariant>("AIM"),
                    transport(spd_fixture<gyre::SpdAffineInvariant>("AIM")));
  }
  SUBCASE("SPD, Bures–Wasserstein") {
    // BW's exp_P(V) is a minimising geodesic only while I + L_P(V) stays positive definite (its cut
    // locus is at finite distance): the output's spread s must keep the biased batch inside it.
    auto bw = spd_fixture<gyre::SpdBuresWasserstein>("BW");
    bw.scale = {0.2, 0.3};
    check_guarantee(bw, transport(bw));
  }
}

TEST_CASE("Riemannian BN backward: through the implicit mean, the transports and the reference steps") {
  SUBCASE("Poincaré ball") { check_backward(ball(), transport(ball()), {}); }
  SUBCASE("hyperboloid") { check_backward(hyperboloid(), transport(hyperboloid()), reference_options(2)); }
  SUBCASE("Grassmannian") { check_backward(grassmann(), transport(grassmann()), {}); }
  SUBCASE("correlation matrices") { check_backward(correlation(), transport(correlation()), reference_options(2)); }
  SUBCASE("SPD, Bures–Wasserstein") {
    check_backward(spd_fixture<gyre::SpdBuresWasserstein>("BW"),
                   transport(spd_fixture<gyre::SpdBuresWasserstein>("BW")), {});
  }
}

TEST_CASE("Riemannian BN and GyroBN on SPD under AIM are the same map") {
  const auto f = spd_fixture<gyre::SpdAffineInvariant>("AIM");
  const GyroBatchNormOptions options;
  gyre::Rng rng(41);
  const GeometricTensor<double> input(f.type, batch_of(f.space, f.origin, kBatch, f.radius, rng, f.item_shape));
  xt::xarray<double> bias = batch_of(f.space, f.origin, 1, f.radius, rng, f.item_shape);
  bias.reshape({kChannels, 3, 3});
  gyre::nn::RiemannianBatchNorm<gyre::SpdAffineInvariant<double>> rbn(transport(f), f.type, options);
  GyroBatchNorm<gyre::SpdAffineInvariant<double>> gyro_bn(gyro(f), f.type, options);
  rbn.bias().value = bias;
  gyro_bn.bias().value = bias;
  // The AIM transport from M to I is the congruence by M^-½ and from I to P by P^½, so both compute
  // P^½·(M^-½·X·M^-½)^f·P^½ — 1e-11: the same Karcher mean, matrix functions in another order.
  CHECK(xt::amax(xt::abs(rbn.forward(input).data - gyro_bn.forward(input).data))() <= 1e-11);
}

TEST_CASE("Riemannian BN and GyroBN on the Grassmannian are the same map") {
  const auto f = grassmann();
  const GyroBatchNormOptions options;
  gyre::Rng rng(43);
  const GeometricTensor<double> input(f.type, batch_of(f.space, f.origin, kBatch, f.radius, rng, f.item_shape));
  xt::xarray<double> bias = batch_of(f.space, f.origin, 1, f.radius, rng, f.item_shape);
  bias.reshape({kChannels, 5, 2});
  gyre::nn::RiemannianBatchNorm<gyre::Grassmann<double>> rbn(transport(f), f.type, options);
  GyroBatchNorm<gyre::Grassmann<double>> gyro_bn(gyro(f), f.type, options);
  rbn.bias().value = bias;
  gyro_bn.bias().value = bias;
  // ⊖M ⊕ X rotates X by the transvection carrying M to I_{n,p}, whose differential is the parallel
  // transport along their geodesic: both compute E_P·(t ⊗ (E_M)ᵀ·X), through rotations in one and
  // exp/log/transport in the other — 1e-11: the same Karcher mean, rounding in another order.
  CHECK(xt::amax(xt::abs(rbn.forward(input).data - gyro_bn.forward(input).data))() <= 1e-11);
}

TEST_CASE("GyroBN and RBN in float: a spread Grassmann batch trains, and the mean lands on the bias") {
  // GrNet's float features: the Karcher step in float stalls above frechet_mean's 8ε (it reached
  // 4.3e-6 on Gr(12, 4)), so the layer's float default is 1000ε; the output mean then sits on the
  // bias to float's accuracy (1e-3: B = 32 logs and exps in float, measured in double).
  const gyre::Grassmann<double> space(12, 4);
  const gyre::Grassmann<float> space_f(12, 4);
  const TensorType type = gyre::nn::grassmann_features(12, 4, static_cast<int>(kChannels));
  gyre::Rng rng(61);
  const xt::xarray<double> input = batch_of(space, space.gyro_identity(), 32, 1.2, rng, {12, 4});
  xt::xarray<double> bias = batch_of(space, space.gyro_identity(), 1, 0.5, rng, {12, 4});
  bias.reshape({kChannels, 12, 4});
  const auto check = [&](gyre::nn::Module<float>& layer) {
    layer.parameters()[0]->value = xt::cast<float>(bias);
    const xt::xarray<double> out =
        xt::cast<double>(layer.forward(GeometricTensor<float>(type, xt::cast<float>(input))).data);
    layer.discard_saved();
    const auto params = gyre::batch::detail::items_of<gyre::Matrix<double>>("test", "bias", bias);
    for (std::size_t c = 0; c < kChannels; ++c) {
      const auto p = gyre::batch::detail::item<gyre::Matrix<double>>(bias, params, static_cast<std::ptrdiff_t>(c));
      // Float bases are orthonormal to float's accuracy: re-orthonormalise (same subspaces) in double.
      std::vector<gyre::Matrix<double>> outputs;
      for (const gyre::Matrix<double>& u : channel<gyre::Grassmann<double>>(out, c)) {
        const Eigen::HouseholderQR<gyre::Matrix<double>> qr(u);
        outputs.push_back(qr.householderQ() * gyre::Matrix<double>::Identity(12, 4));
      }
      CHECK(space.dist(gyre::frechet_mean(space, outputs).point, p) <= 1e-3);
    }
  };
  GyroBatchNorm<gyre::Grassmann<float>> gyro_layer(space_f, type);
  check(gyro_layer);
  gyre::nn::RiemannianBatchNorm<gyre::Grassmann<float>> transport_layer(
      gyre::nn::TransportCentring<gyre::Grassmann<float>>(space_f, space_f.gyro_identity()), type);
  check(transport_layer);
}

TEST_CASE("GyroBN and RBN in float on Gr(12, 4): points within float rounding of the mean's cut locus") {
  // GrNet's features drift to principal angles of π/2 from their batch mean, where the float log is
  // undetermined (cos θ below 4ε); float layers on spaces with a cut locus compute their statistics
  // in double, where the float data still determine it. Pairs exp_e(±Δ) make e a critical point of
  // the batch's Fréchet function; one pair has a principal angle π/2 − 3e-7 (float's log refuses
  // it: checked), where the float layers threw. Forward and backward now run and are finite. (The
  // mean guarantee is not checked here: this far out the Karcher mean need not be unique, and an
  // output may sit on e's cut locus, where no log at e is defined.)
  const gyre::Grassmann<double> space(12, 4);
  const gyre::Grassmann<float> space_f(12, 4);
  const gyre::Matrix<double> e = space.gyro_identity();
  const TensorType type = gyre::nn::grassmann_features(12, 4, 1);
  gyre::Rng rng(67);
  std::vector<gyre::Matrix<double>> deltas;
  const std::vector<std::vector<double>> angles = {
      {0.7, 0.4, 0.2, 0.1}, {0.5, 0.3, 0.2, 0.05}, {0.8, 0.6, 0.3, 0.1}, {M_PI / 2 - 3e-7, 0.3, 0.2, 0.1}};
  for (const std::vector<double>& a : angles) {
    const Eigen::JacobiSVD<gyre::Matrix<double>> svd(space.random_tangent(e, rng),
                                                     Eigen::ComputeThinU | Eigen::ComputeThinV);
    deltas.push_back(svd.matrixU() * Eigen::Map<const gyre::Vector<double>>(a.data(), 4).asDiagonal() *
                     svd.matrixV().transpose());
  }
  xt::xarray<float> input = xt::zeros<float>({2 * deltas.size(), std::size_t{1}, std::size_t{12}, std::size_t{4}});
  for (std::size_t k = 0; k < deltas.size(); ++k) {
    for (int sign = 0; sign < 2; ++sign) {
      const gyre::Matrix<double> x = space.exp(e, sign == 0 ? deltas[k] : gyre::Matrix<double>(-deltas[k]));
      for (int i = 0; i < 12; ++i)
        for (int j = 0; j < 4; ++j)
          input(2 * k + static_cast<std::size_t>(sign), 0, i, j) = static_cast<float>(x(i, j));
    }
  }
  const auto witness = gyre::batch::detail::items_of<gyre::Matrix<float>>("test", "input", input);
  CHECK_THROWS_AS((void)space_f.log(space_f.gyro_identity(), gyre::batch::detail::item<gyre::Matrix<float>>(
                                                                 input, witness, static_cast<std::ptrdiff_t>(6))),
                  gyre::DomainError);
  const auto check = [&](gyre::nn::Module<float>& layer) {
    const xt::xarray<float> out = layer.forward(GeometricTensor<float>(type, input)).data;
    REQUIRE(xt::all(xt::isfinite(out)));
    gyre::Rng grad_rng(5);
    xt::xarray<float> grad_output = xt::zeros_like(input);
    for (float& g : grad_output) g = grad_rng.uniform<float>(-1.0F, 1.0F);
    const xt::xarray<float> grad_input = layer.backward(GeometricTensor<float>(type, grad_output)).data;
    CHECK(xt::all(xt::isfinite(grad_input)));
    for (gyre::nn::Parameter<float>* p : layer.parameters()) CHECK(xt::all(xt::isfinite(p->grad)));
  };
  GyroBatchNorm<gyre::Grassmann<float>> gyro_layer(space_f, type);
  check(gyro_layer);
  gyre::nn::RiemannianBatchNorm<gyre::Grassmann<float>> transport_layer(
      gyre::nn::TransportCentring<gyre::Grassmann<float>>(space_f, space_f.gyro_identity()), type);
  check(transport_layer);
}
