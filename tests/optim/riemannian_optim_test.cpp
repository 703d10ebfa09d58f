// Riemannian SGD and Adam: step for step geoopt's RiemannianSGD / RiemannianAdam (geoopt master
// 07598cd, torch 1.13, float64), Fréchet means reached under several metrics, and iterates that stay
// on the manifold over 10⁴ steps.
//
// The reference numbers: five steps of L(X) = ⟨A, X⟩ + ½‖X − B‖², whose Euclidean gradient is
// G = (X − B) + A, from the x0, A and B below. Each expected iterate was computed twice, by geoopt
// and by an independent 50-digit evaluation of the same update rules; the tests use the 50-digit
// values rounded to double (they agree with geoopt's to ≤ 7e-15, except geoopt's SPD Adam run,
// where torch 1.13's matrix_exp is off by 3e-12). SGD with momentum starts its buffer as torch
// does (b₁ = r₁; geoopt starts from the raw gradient, see optim/sgd.hpp), so its references come
// from the 50-digit evaluation with that one change.

#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "gyre/geometry/batch_space.hpp"
#include "gyre/geometry/frechet_mean.hpp"
#include "gyre/optim/adam.hpp"
#include "gyre/optim/sgd.hpp"
#include "spd/affine_invariant.hpp"
#include "spd/log_cholesky.hpp"
#include "spd/log_euclidean.hpp"
#include "sphere/sphere.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::optim::AdamOptions;
using gyre::optim::Parameter;
using gyre::optim::SgdOptions;
using gyre::optim::StateTransport;

enum class Kind { kSgd, kAdam };

struct Settings {
  Kind kind;
  double lr;
  double momentum = 0, dampening = 0, weight_decay = 0;  // SGD (weight decay for both)
  bool nesterov = false;
  double beta2 = 0.999;  // Adam (β₁ = 0.9, ε = 1e-8)
  bool amsgrad = false;
};

// geoopt's five settings: plain SGD; momentum 0.9, dampening 0.1, weight decay 0.01; Nesterov 0.9;
// Adam with default betas; AMSGrad with β₂ = 0.3 (so that the max takes effect within five steps).
const Settings kSgdPlain{Kind::kSgd, 0.1};
const Settings kSgdMomentum{Kind::kSgd, 0.1, 0.9, 0.1, 0.01};
const Settings kSgdNesterov{Kind::kSgd, 0.1, 0.9, 0.0, 0.0, true};
const Settings kAdamDefault{Kind::kAdam, 0.05};
const Settings kAdamAmsgrad{Kind::kAdam, 0.2, 0, 0, 0.01, false, 0.3, true};

struct Case {
  const char* name;
  Settings settings;
  std::vector<double> after_step1;
  std::vector<double> after_step5;
};

// Runs five steps of the reference loss on `value` (its space, if any, set) and returns the iterates
// after steps 1 and 5.
std::array<xt::xarray<double>, 2> five_steps(Parameter<double> parameter, const xt::xarray<double>& a,
                                             const xt::xarray<double>& b, const Settings& s, StateTransport transport) {
  std::vector<Parameter<double>*> params{&parameter};
  std::unique_ptr<gyre::optim::Sgd<double>> sgd;
  std::unique_ptr<gyre::optim::Adam<double>> adam;
  if (s.kind == Kind::kSgd) {
    SgdOptions<double> o{s.lr, s.momentum, s.dampening, s.weight_decay, s.nesterov, {}};
    o.manifold.transport = transport;
    sgd = std::make_unique<gyre::optim::Sgd<double>>(params, o);
  } else {
    AdamOptions<double> o{s.lr, 0.9, s.beta2, 1e-8, s.weight_decay, s.amsgrad, {}};
    o.manifold.transport = transport;
    adam = std::make_unique<gyre::optim::Adam<double>>(params, o);
  }
  std::array<xt::xarray<double>, 2> iterates;
  for (int step = 1; step <= 5; ++step) {
    parameter.grad = (parameter.value - b) + a;
    if (sgd) {
      sgd->step();
    } else {
      adam->step();
    }
    if (step == 1) iterates[0] = parameter.value;
    if (step == 5) iterates[1] = parameter.value;
  }
  return iterates;
}

double max_abs_gap(const xt::xarray<double>& got, const std::vector<double>& expected) {
  REQUIRE(got.size() == expected.size());
  double gap = 0;
  for (std::size_t k = 0; k < expected.size(); ++k) gap = std::max(gap, std::abs(got.data()[k] - expected[k]));
  return gap;
}

void check_cases(const std::vector<Case>& cases, const std::shared_ptr<const gyre::BatchSpace<double>>& space,
                 const xt::xarray<double>& x0, const xt::xarray<double>& a, const xt::xarray<double>& b,
                 StateTransport transport, double tolerance) {
  for (const Case& c : cases) {
    CAPTURE(c.name);
    Parameter<double> p = space ? Parameter<double>("x", x0, space) : Parameter<double>("x", x0);
    const auto iterates = five_steps(p, a, b, c.settings, transport);
    CHECK(max_abs_gap(iterates[0], c.after_step1) <= tolerance);
    CHECK(max_abs_gap(iterates[1], c.after_step5) <= tolerance);
  }
}

}  // namespace

TEST_CASE("Riemannian SGD and Adam on the sphere S³ follow geoopt step for step") {
  // geoopt's Sphere retracts by (x + u)/‖x + u‖ — Gyre's Sphere::retract — and transports by
  // projection onto T_y, chosen here with StateTransport::kProjection.
  const auto space = gyre::make_batch_space(gyre::Sphere<double>(3), "S^3");
  const xt::xarray<double> x0{0.2, 0.4, -0.4, 0.8};
  const xt::xarray<double> a{0.3, -0.2, 0.5, 0.1};
  const xt::xarray<double> b{1.0, 0.0, 0.5, -0.5};
  const std::vector<Case> cases{
      {"sgd",
       kSgdPlain,
       {0.27407530995343882, 0.42864103707834328, -0.40872277327358758, 0.75769075513290796},
       {0.55008920488685165, 0.5077531915469361, -0.40901565517580823, 0.52181870123823282}},
      {"sgd momentum",
       kSgdMomentum,
       {0.27407530995343882, 0.42864103707834328, -0.40872277327358758, 0.75769075513290796},
       {0.82372604990140663, 0.48585097768546098, -0.29225079066590226, 0.003701020273128399}},
      {"sgd nesterov",
       kSgdNesterov,
       {0.33790077898370613, 0.45111251921249801, -0.41366434608667896, 0.71498417279590076},
       {0.85121350902330173, 0.3986524755281794, -0.18135671844177537, -0.2891738343756613}},
      {"adam",
       kAdamDefault,
       {0.24116035986178028, 0.41624110470113751, -0.40522783553073366, 0.77741586355025583},
       {0.39872421666107533, 0.47043611516929223, -0.41593406214381584, 0.6683619652112025}},
      {"amsgrad",
       kAdamAmsgrad,
       {0.35874199707827165, 0.4579746401295568, -0.41472308112505907, 0.69969148523662483},
       {0.7942984955870378, 0.50389051947955299, -0.32310610753046592, 0.10385897921367057}},
  };
  // Five steps of O(1) arithmetic with normalisations: a few ulps each, ≤ 1e-15 measured; 1e-14
  // leaves room for the compiler's contractions while any formula difference shows at ≥ 1e-4.
  check_cases(cases, space, x0, a, b, StateTransport::kProjection, 1e-14);
}

TEST_CASE("Riemannian SGD and Adam on SPD(3), affine-invariant, follow geoopt step for step") {
  // geoopt's SPD: rgrad X·sym(G)·X, retraction sym(X + U + ½UX⁻¹U) and parallel transport — Gyre's
  // SpdAffineInvariant egrad_to_rgrad, retract and transport.
  const auto space = gyre::make_batch_space(gyre::SpdAffineInvariant<double>(3), "SPD(3)");
  const xt::xarray<double> x0{{2.0, 0.5, 0.1}, {0.5, 1.5, -0.3}, {0.1, -0.3, 1.0}};
  const xt::xarray<double> b{{1.0, 0.2, 0.0}, {0.2, 2.0, 0.3}, {0.0, 0.3, 1.5}};
  const std::vector<Case> symmetric_gradient{
      {"sgd",
       kSgdPlain,
       {1.5152220375000001, 0.3288713875, 0.12673656250000001, 0.3288713875, 1.5773133374999999, -0.26376056250000002,
        0.12673656250000001, -0.26376056250000002, 1.008834775},
       {1.0906279303188704, 0.22155577389098779, 0.1729302252382206, 0.22155577389098779, 2.1501257499505075,
        -0.048790766719070476, 0.1729302252382206, -0.048790766719070476, 1.0715645849687032}},
      {"sgd momentum",
       kSgdMomentum,
       {1.50860685775, 0.32534646612500001, 0.12653263987499999, 0.32534646612500001, 1.572580717875,
        -0.26251255087499997, 0.12653263987499999, -0.26251255087499997, 1.0075225324999999},
       {0.42464322456242976, 0.035333287223011364, 0.22362967807093162, 0.035333287223011364, 3.2280187352294312,
        0.46209237915534807, 0.22362967807093162, 0.46209237915534807, 1.2412010270903469}},
      {"sgd nesterov",
       kSgdNesterov,
       {1.220718555375, 0.22234470887499999, 0.14273949062499999, 0.22234470887499999, 1.676159148375,
        -0.23099213062499999, 0.14273949062499999, -0.23099213062499999, 1.0178715377500001},
       {0.45574326766222611, 0.042987421058853642, 0.24464583916524826, 0.042987421058853642, 2.4757661007996017,
        0.42333796631330955, 0.24464583916524826, 0.42333796631330955, 1.3221657251792289}},
      {"adam",
       kAdamDefault,
       {1.9123043075313197, 0.46924280283757269, 0.10485526020999233, 0.46924280283757269, 1.5099471970199594,
        -0.29428144661885203, 0.10485526020999233, -0.29428144661885203, 1.0013125194506978},
       {1.6118385879259987, 0.36621093107059721, 0.12239814043682207, 0.36621093107059721, 1.5722136794740136,
        -0.26824666346561937, 0.12239814043682207, -0.26824666346561937, 1.0076864286902354}},
      {"amsgrad",
       kAdamAmsgrad,
       {1.6729618854635881, 0.38412561250617866, 0.1177122407231275, 0.38412561250617866, 1.5412722399396288,
        -0.27659142983479618, 0.1177122407231275, -0.27659142983479618, 1.0045470547911823},
       {1.0185089691257716, 0.17570363634727632, 0.16172990909726989, 0.17570363634727632, 1.939334297311776,
        -0.14385272489267772, 0.16172990909726989, -0.14385272489267772, 1.0358670038259097}},
  };
  // Eigendecompositions in the transport and a 3×3 inverse per step: ≤ 7e-15 measured between two
  // independent implementations; 5e-14 is that with a margin for condition numbers near 5.
  check_cases(symmetric_gradient, space, x0, xt::xarray<double>{{0.3, 0.1, -0.2}, {0.1, -0.4, 0.05}, {-0.2, 0.05, 0.2}},
              b, StateTransport::kParallel, 5e-14);
  // A non-symmetric Euclidean gradient: only sym(G) acts on SPD, as in geoopt.
  const std::vector<Case> nonsymmetric_gradient{
      {"sgd",
       kSgdPlain,
       {1.5022197374999999, 0.32113809999999998, 0.099263799999999999, 0.32113809999999998, 1.58339845, -0.285782025,
        0.099263799999999999, -0.285782025, 1.0116825625000001},
       {1.0713268328495797, 0.17902212896275618, 0.099065147872630321, 0.17902212896275618, 2.1439325310900359,
        -0.13252657041176094, 0.099065147872630321, -0.13252657041176094, 1.0636713898512136}},
      {"sgd momentum",
       kSgdMomentum,
       {1.49569555275, 0.317640524875, 0.099163869875000005, 0.317640524875, 1.578647985375, -0.28446020962500002,
        0.099163869875000005, -0.28446020962500002, 1.0103554400000001},
       {0.3919658667179407, -0.090273062637661175, 0.080095093081622701, -0.090273062637661175, 3.167474193011965,
        0.26824045572475919, 0.080095093081622701, 0.26824045572475919, 1.1934699604549173}},
      {"adam",
       kAdamDefault,
       {1.910647402543159, 0.46831542825680594, 0.099896193024008262, 0.46831542825680594, 1.5107784352622518,
        -0.2979098517153751, 0.099896193024008262, -0.2979098517153751, 1.0018037219179641},
       {1.6038904556964966, 0.36042343399057952, 0.099466130973267383, 0.36042343399057952, 1.5761944992315895,
        -0.28683169751696497, 0.099466130973267383, -0.28683169751696497, 1.0098383432570144}},
  };
  check_cases(nonsymmetric_gradient, space, x0,
              xt::xarray<double>{{0.3, 0.4, -0.2}, {-0.1, -0.4, 0.25}, {0.1, 0.05, 0.2}}, b, StateTransport::kParallel,
              5e-14);
}

TEST_CASE("Euclidean parameters follow torch.optim.SGD and torch.optim.Adam (geoopt's Euclidean case)") {
  const xt::xarray<double> x0{{0.5, -1.0, 2.0}, {1.5, 0.25, -0.75}};
  const xt::xarray<double> a{{0.1, 0.2, -0.3}, {0.4, -0.5, 0.6}};
  const xt::xarray<double> b{{1.0, 0.0, -1.0}, {0.5, 2.0, 0.0}};
  const std::vector<Case> cases{
      {"sgd",
       kSgdPlain,
       {0.54000000000000004, -0.92000000000000004, 1.73, 1.3600000000000001, 0.47500000000000003, -0.73499999999999999},
       {0.66380399999999995, -0.67239199999999999, 0.89432299999999998, 0.92668600000000001, 1.1713975000000001,
        -0.68857349999999995}},
      {"sgd momentum",
       kSgdMomentum,
       {0.53949999999999998, -0.91900000000000004, 1.728, 1.3585, 0.47475000000000001, -0.73424999999999996},
       {0.88499231696341252, -0.21052208420160967, -0.65108633453286635, 0.12085030758676253, 2.4405575503171386,
        -0.59649040526142405}},
      {"sgd nesterov",
       kSgdNesterov,
       {0.57599999999999996, -0.84799999999999998, 1.4869999999999999, 1.234, 0.67749999999999999,
        -0.72150000000000003},
       {0.94183267356, -0.11633465287999996, -0.98237054653000022, -0.046414357460000125, 2.7353087887750003,
        -0.58431274741499994}},
      {"adam",
       kAdamDefault,
       {0.54999999875000005, -0.95000000062500001, 1.9500000001851852, 1.4500000003571429, 0.2999999997777778,
        -0.70000000333333312},
       {0.74424785263124393, -0.75199239965579878, 1.7504508786994981, 1.2509673590321644, 0.49944630017293901,
        -0.54191111523029756}},
      {"amsgrad",
       kAdamAmsgrad,
       {0.69999999493670895, -0.80000000246913572, 1.8000000007352941, 1.3000000014134276, 0.4499999991101224,
        -0.55000001269841192},
       {1.0734354310840781, -0.16960228616667633, 1.0149006707206596, 0.55667068238424722, 1.2260180342933826,
        -0.61030914210144294}},
  };
  // Entrywise O(1) arithmetic: a few ulps; torch's operation order (kept by Gyre) differs from the
  // 50-digit values by rounding only.
  check_cases(cases, nullptr, x0, a, b, StateTransport::kParallel, 1e-14);
}

namespace {

// The Euclidean gradient G whose Riemannian gradient is r on SPD: ⟨G, W⟩_F = ⟨r, W⟩_X for every
// symmetric W, i.e. G = Σₖ ⟨r, Bₖ⟩_X·Bₖ over a Frobenius-orthonormal basis Bₖ of the symmetric matrices.
template <class M>
gyre::Matrix<double> lowered(const M& space, const gyre::Matrix<double>& x, const gyre::Matrix<double>& r) {
  const Eigen::Index n = x.rows();
  gyre::Matrix<double> g = gyre::Matrix<double>::Zero(n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = i; j < n; ++j) {
      gyre::Matrix<double> basis = gyre::Matrix<double>::Zero(n, n);
      basis(i, j) = basis(j, i) = i == j ? 1.0 : 1.0 / std::sqrt(2.0);
      g += space.inner(x, r, basis) * basis;
    }
  }
  return g;
}

gyre::Matrix<double> as_matrix(const xt::xarray<double>& a, Eigen::Index n) {
  return Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(a.data(), n, n);
}

xt::xarray<double> as_array(const gyre::Matrix<double>& m) {
  xt::xarray<double> a =
      xt::xarray<double>::from_shape({static_cast<std::size_t>(m.rows()), static_cast<std::size_t>(m.cols())});
  Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(a.data(), m.rows(), m.cols()) = m;
  return a;
}

// Minimises F(X) = (1/2N)·Σ d²(X, Pᵢ) with the optimizer; its Riemannian gradient is −(1/N)·Σ log_X(Pᵢ).
template <class M, class Optimizer, class Options>
gyre::Matrix<double> minimise_frechet(const M& geometry, const std::vector<gyre::Matrix<double>>& points,
                                      const Options& options, int steps) {
  Parameter<double> p("mean", as_array(points.front()), gyre::make_batch_space(geometry, "SPD(3)"));
  Optimizer optimizer({&p}, options);
  for (int step = 0; step < steps; ++step) {
    const gyre::Matrix<double> x = as_matrix(p.value, 3);
    gyre::Matrix<double> r = gyre::Matrix<double>::Zero(3, 3);
    for (const auto& q : points) r -= geometry.log(x, q) / static_cast<double>(points.size());
    p.grad = as_array(lowered(geometry, x, r));
    optimizer.step();
  }
  return as_matrix(p.value, 3);
}

template <class M>
void check_reaches_mean(const M& geometry, const gyre::Matrix<double>& expected,
                        const std::vector<gyre::Matrix<double>>& points) {
  SgdOptions<double> sgd;
  sgd.lr = 0.5;
  SgdOptions<double> heavy_ball;
  heavy_ball.lr = 0.3;
  heavy_ball.momentum = 0.5;
  AdamOptions<double> ams;
  ams.lr = 0.02;
  ams.amsgrad = true;
  // F is geodesically convex near the mean with Hessian ≈ identity, so SGD at lr 0.5 contracts
  // the error by ≈ ½ per step: 200 steps reach rounding. Adam's normalised steps with AMSGrad's
  // non-increasing step sizes need longer; 3000 steps reach rounding in every case measured.
  const double tolerance = 1e-10;  // a distance; rounding of the log/exp per step is ≈ 1e-15
  CHECK(geometry.dist(minimise_frechet<M, gyre::optim::Sgd<double>>(geometry, points, sgd, 200), expected) <=
        tolerance);
  CHECK(geometry.dist(minimise_frechet<M, gyre::optim::Sgd<double>>(geometry, points, heavy_ball, 300), expected) <=
        tolerance);
  CHECK(geometry.dist(minimise_frechet<M, gyre::optim::Adam<double>>(geometry, points, ams, 3000), expected) <=
        tolerance);
}

std::vector<gyre::Matrix<double>> spd_points(std::uint64_t seed) {
  gyre::Rng rng(seed);
  std::vector<gyre::Matrix<double>> points;
  const gyre::SpdAffineInvariant<double> spd(3);
  for (int i = 0; i < 6; ++i) points.push_back(spd.random_point(rng));
  return points;
}

}  // namespace

TEST_CASE("Riemannian optimizers reach the Fréchet mean: closed forms under LEM and LCM, Karcher under AIM") {
  for (const std::uint64_t seed : gyre::test::seeds(2)) {
    CAPTURE(seed);
    const auto points = spd_points(seed);
    const gyre::SpdLogEuclidean<double> lem(3);
    const gyre::SpdLogCholesky<double> lcm(3);
    const gyre::SpdAffineInvariant<double> aim(3);
    {
      INFO("log-Euclidean: exp of the mean log");
      check_reaches_mean(lem, lem.mean(points), points);
    }
    {
      INFO("log-Cholesky: the closed form of Lin 2019");
      check_reaches_mean(lcm, lcm.mean(points), points);
    }
    {
      INFO("affine-invariant: the Karcher mean");
      check_reaches_mean(aim, gyre::frechet_mean(aim, points).point, points);
    }
  }
}

TEST_CASE("Riemannian optimizers: iterates stay on the manifold over 10⁴ steps") {
  // The reference loss from far-off targets keeps the steps large for the whole run.
  const auto sphere = gyre::make_batch_space(gyre::Sphere<double>(3), "S^3");
  const auto spd = gyre::make_batch_space(gyre::SpdAffineInvariant<double>(3), "SPD(3)");
  struct Run {
    std::shared_ptr<const gyre::BatchSpace<double>> space;
    xt::xarray<double> x0, a, b;
  };
  const std::vector<Run> runs{
      {sphere, {0.2, 0.4, -0.4, 0.8}, {0.3, -0.2, 0.5, 0.1}, {1.0, 0.0, 0.5, -0.5}},
      {spd,
       {{2.0, 0.5, 0.1}, {0.5, 1.5, -0.3}, {0.1, -0.3, 1.0}},
       {{0.3, 0.4, -0.2}, {-0.1, -0.4, 0.25}, {0.1, 0.05, 0.2}},
       {{1.0, 0.2, 0.0}, {0.2, 2.0, 0.3}, {0.0, 0.3, 1.5}}},
  };
  for (const Run& run : runs) {
    CAPTURE(run.space->name());
    for (const Settings& s : {kSgdMomentum, kSgdNesterov, kAdamDefault, kAdamAmsgrad}) {
      CAPTURE(s.lr);
      CAPTURE(s.momentum);
      CAPTURE(s.amsgrad);
      Parameter<double> p("x", run.x0, run.space);
      std::vector<Parameter<double>*> params{&p};
      SgdOptions<double> so{s.lr, s.momentum, s.dampening, s.weight_decay, s.nesterov, {}};
      AdamOptions<double> ao{s.lr, 0.9, s.beta2, 1e-8, s.weight_decay, s.amsgrad, {}};
      gyre::optim::Sgd<double> sgd(params, so);
      gyre::optim::Adam<double> adam(params, ao);
      for (int step = 0; step < 10000; ++step) {
        p.grad = (p.value - run.b) + run.a;
        if (s.kind == Kind::kSgd) {
          sgd.step();
        } else {
          adam.step();
        }
      }
      if (run.space == sphere) {
        CHECK(std::abs(std::sqrt(xt::sum(p.value * p.value)()) - 1) <= 1e-12);
      } else {
        const gyre::Matrix<double> x = as_matrix(p.value, 3);
        CHECK((x - x.transpose()).norm() <= 1e-12 * x.norm());
        CHECK(Eigen::SelfAdjointEigenSolver<gyre::Matrix<double>>(x).eigenvalues().minCoeff() > 0);
      }
      CHECK_NOTHROW(run.space->check_points(p.value));
    }
  }
}

TEST_CASE("Riemannian optimizers: exp steps, a batch of points, bad settings and null parameters") {
  // A (2, 4) array holds two points of S³; each moves on its own and keeps unit norm.
  const auto sphere = gyre::make_batch_space(gyre::Sphere<double>(3), "S^3");
  gyre::Rng rng(3);
  Parameter<double> p("x", sphere->random_points({2}, rng), sphere);
  AdamOptions<double> o;
  o.lr = 0.1;
  o.amsgrad = true;  // non-increasing step sizes: converges instead of oscillating at Adam's constant lr
  o.manifold.step = gyre::optim::ManifoldStep::kExp;
  gyre::optim::Adam<double> adam({&p}, o);
  const xt::xarray<double> target = sphere->random_points({2}, rng);
  for (int step = 0; step < 3000; ++step) {
    p.grad = -target;  // ∇ of −⟨target, x⟩: the minimiser of each row is its target
    adam.step();
  }
  CHECK(xt::amax(xt::abs(p.value - target))() <= 1e-9);  // linear convergence: far below this after 3000 steps
  CHECK_THROWS_AS(gyre::optim::Sgd<double>({nullptr}, 0.1), gyre::DomainError);
  SgdOptions<double> bad;
  bad.lr = 0.1;
  bad.dampening = 1.5;
  CHECK_THROWS_WITH_AS(gyre::optim::Sgd<double>({&p}, bad), "gyre::Sgd: dampening must be in [0, 1] (1.5)",
                       gyre::DomainError);
  bad.dampening = 0.1;
  bad.momentum = 0.9;
  bad.nesterov = true;
  CHECK_THROWS_WITH_AS(gyre::optim::Sgd<double>({&p}, bad), "gyre::Sgd: Nesterov momentum needs dampening 0 (0.1)",
                       gyre::DomainError);
  p.grad = xt::zeros<double>({4});
  CHECK_THROWS_AS(adam.step(), gyre::ShapeError);
}
