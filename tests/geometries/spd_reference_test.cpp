// SPD(n) against shared/reference/geomstats.json: every sample (random and stress) of the six
// metrics at n = 3 and 5, compared with the 40-digit closed forms (`hp`), and the Fréchet means
// with the 40-digit Karcher means. BW transport has no closed form: it is compared with
// geomstats' 200-step RK4 run (`parallel_transport_fine`). The Lie–Cholesky case has no 40-digit
// values and no Gyre metric of its own: its test below says what matches and what differs.
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>

#include <Eigen/Cholesky>
#include <doctest/doctest.h>

#include "gyre/geometry/frechet_mean.hpp"
#include "spd/spd.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::Matrix;
using gyre::test::to_matrix;

// Budgets by sample kind and quantity, stated once. A quantity passes if its gap ‖gyre − hp‖ is
// within `abs` or within `rel`·‖hp‖.
struct Budget {
  double rel;
  double abs;
};

// exp, inner product and transport: O(1) values, relative comparisons.
Budget budget_for(const std::string& kind) {
  // cond 1e6: the problem itself amplifies the inputs' rounding by up to cond² in the AIM
  // formulas (README: geomstats and hp differ by 1e-9 … 3e-7 there).
  if (kind == "ill_conditioned_cond1e6") return {1e-7, 0};
  return {1e-12, 0};  // random, near-repeated eigenvalues, scalar base point, tiny/identical
}

// log and squared distance, which are small for the tiny sample and vanish for identical points.
Budget vanishing_budget_for(const std::string& kind, const Matrix<double>& x) {
  // y = x + 1e-7·V is stored with rounding ε·‖x‖, which log maps with a gain up to cond(x) ≤ 20:
  // the inputs fix log and d only to ~ε‖x‖cond(x)/1e-7 ≈ 4e-7 relative at most (README: ~1e-8
  // typically). Measured worst over the twelve cases: log 1.2e-7 and d² 5.3e-8 (BW, n = 5).
  // Relative, so that a log or dist of 0 fails.
  if (kind == "small_tangent_1e-7") return {2.5e-7, 0};
  // The two points are equal up to the last bit (hp d² ≤ 4e-40): the truth is 0, and the
  // rounding of x, mapped with gain cond(x), allows an absolute 16ε·‖x‖·cond(x).
  if (kind == "identical_points") {
    const Eigen::SelfAdjointEigenSolver<Matrix<double>> eig(x, Eigen::EigenvaluesOnly);
    const double cond = eig.eigenvalues().maxCoeff() / eig.eigenvalues().minCoeff();
    return {0, 16 * std::numeric_limits<double>::epsilon() * x.norm() * cond};
  }
  return budget_for(kind);
}

bool close(const Matrix<double>& got, const Matrix<double>& expected, const Budget& b) {
  const double gap = (got - expected).norm();
  CAPTURE(gap);
  CAPTURE(expected.norm());
  const bool ok = gap <= b.abs || gap <= b.rel * expected.norm();
  CHECK(ok);
  return ok;
}

bool close(double got, double expected, const Budget& b) {
  const double gap = std::abs(got - expected);
  CAPTURE(gap);
  CAPTURE(expected);
  const bool ok = gap <= b.abs || gap <= b.rel * std::abs(expected);
  CHECK(ok);
  return ok;
}

// Every case of the file has 13 samples: 8 random and 5 stress samples.
constexpr std::size_t kSamplesPerCase = 13;

template <class M>
void check_case(const M& metric, const std::string& name, bool transport_from_hp = true) {
  const auto& data = gyre::test::reference("geomstats.json").at("cases").at(name);
  std::size_t compared = 0;
  for (const auto& sample : data.at("samples")) {
    const std::string kind = sample["kind"];
    CAPTURE(name);
    CAPTURE(kind);
    const Budget b = budget_for(kind);

    const auto x = to_matrix<double>(sample["base_point"]);
    const auto y = to_matrix<double>(sample["point"]);
    const auto v = to_matrix<double>(sample["tangent_vec"]);
    const auto w = to_matrix<double>(sample["tangent_vec_b"]);
    const auto& hp = sample["hp"];
    const Budget vanishing = vanishing_budget_for(kind, x);
    CAPTURE("exp");
    close(metric.exp(x, v), to_matrix<double>(hp["exp"]), b);
    CAPTURE("log");
    close(metric.log(x, y), to_matrix<double>(hp["log"]), vanishing);
    const double d = metric.dist(x, y);
    CAPTURE("squared_dist");
    // d² doubles d's relative error; the log's budget covers it (d² measured ≤ 5.3e-8).
    close(d * d, hp["squared_dist"].get<double>(), vanishing);
    CAPTURE("inner");
    close(metric.inner(x, v, w), hp["inner_product"].get<double>(), b);
    const Matrix<double> moved = metric.transport(x, metric.exp(x, v), w);
    if (transport_from_hp) {
      close(moved, to_matrix<double>(hp["parallel_transport"]), b);
    } else {
      // geomstats' 200-step RK4 is itself accurate to ~1e-12 (its 10-step run is off by 3e-8, and
      // RK4's error falls as h⁴): 1e-10 relative, or the sample's own budget if looser.
      const Budget fine{std::max(b.rel, 1e-10), b.abs};
      close(moved, to_matrix<double>(sample["geomstats"]["parallel_transport_fine"]), fine);
    }
    ++compared;
  }
  CAPTURE(name);
  CHECK(compared == kSamplesPerCase);  // a loop that compared nothing must fail
}

template <class Mean>
void check_mean(const std::string& name, Mean mean_of) {
  const auto& data = gyre::test::reference("geomstats.json").at("cases").at(name).at("frechet_mean");
  std::vector<Matrix<double>> points;
  for (const auto& p : data.at("points")) points.push_back(to_matrix<double>(p));
  CAPTURE(name);
  CHECK(points.size() == 8);  // the file's 8 clustered points
  const Matrix<double> expected = to_matrix<double>(data["hp_karcher"]["mean"]);
  // The 40-digit mean's own stopping rule left it within ~1e-30; ours converge to ~1e-15, and
  // the mean of 8 clustered points is well conditioned: 1e-12 relative.
  CHECK((mean_of(points) - expected).norm() <= 1e-12 * expected.norm());
}

}  // namespace

TEST_CASE("SPD affine-invariant matches the 40-digit references (n = 3, 5)") {
  check_case(gyre::SpdAffineInvariant<double>(3), "spd3_affine_invariant");
  check_case(gyre::SpdAffineInvariant<double>(5), "spd5_affine_invariant");
}

TEST_CASE("SPD log-Euclidean matches the 40-digit references (n = 3, 5)") {
  check_case(gyre::SpdLogEuclidean<double>(3), "spd3_log_euclidean");
  check_case(gyre::SpdLogEuclidean<double>(5), "spd5_log_euclidean");
}

TEST_CASE("SPD log-Cholesky matches the 40-digit references (n = 3, 5)") {
  check_case(gyre::SpdLogCholesky<double>(3), "spd3_log_cholesky");
  check_case(gyre::SpdLogCholesky<double>(5), "spd5_log_cholesky");
}

TEST_CASE("SPD Bures–Wasserstein matches the 40-digit references and geomstats' fine transport (n = 3, 5)") {
  check_case(gyre::SpdBuresWasserstein<double>(3), "spd3_bures_wasserstein", false);
  check_case(gyre::SpdBuresWasserstein<double>(5), "spd5_bures_wasserstein", false);
}

TEST_CASE("SPD power-affine and power-Euclidean (θ = 0.5) match the 40-digit references (n = 3, 5)") {
  for (const int n : {3, 5}) {
    const std::string size = std::to_string(n);
    check_case(gyre::PowerDeformed<gyre::SpdAffineInvariant<double>>(gyre::SpdAffineInvariant<double>(n), 0.5),
               "spd" + size + "_power_affine_0.5");
    check_case(gyre::PowerDeformed<gyre::SpdEuclidean<double>>(gyre::SpdEuclidean<double>(n), 0.5),
               "spd" + size + "_power_euclidean_0.5");
  }
}

TEST_CASE("SPD Fréchet means match the 40-digit Karcher means of every metric") {
  using Points = std::vector<Matrix<double>>;
  for (const int n : {3, 5}) {
    const std::string size = std::to_string(n);
    check_mean("spd" + size + "_affine_invariant",
               [&](const Points& p) { return gyre::frechet_mean(gyre::SpdAffineInvariant<double>(n), p).point; });
    check_mean("spd" + size + "_log_euclidean",
               [&](const Points& p) { return gyre::SpdLogEuclidean<double>(n).mean(p); });
    check_mean("spd" + size + "_log_cholesky",
               [&](const Points& p) { return gyre::SpdLogCholesky<double>(n).mean(p); });
    check_mean("spd" + size + "_bures_wasserstein",
               [&](const Points& p) { return gyre::SpdBuresWasserstein<double>(n).mean(p); });
    check_mean("spd" + size + "_power_affine_0.5", [&](const Points& p) {
      return gyre::frechet_mean(
                 gyre::PowerDeformed<gyre::SpdAffineInvariant<double>>(gyre::SpdAffineInvariant<double>(n), 0.5), p)
          .point;
    });
    check_mean("spd" + size + "_power_euclidean_0.5", [&](const Points& p) {
      return gyre::frechet_mean(gyre::PowerDeformed<gyre::SpdEuclidean<double>>(gyre::SpdEuclidean<double>(n), 0.5), p)
          .point;
    });
  }
}

// spd3_lie_cholesky: geomstats' LieCholeskyMetric, the left-invariant metric on the group L₊ of
// lower-triangular matrices with positive diagonal whose metric matrix at I is the identity,
// pulled back by P = LLᵀ. Gyre has no such metric; what it has is the group, SpdCholeskyGroup
// (P ⊙ Q = L_P Q L_Pᵀ, the image of L₊'s product), and at the identity the same inner product,
// the log-Cholesky one. So ⟨V, W⟩_P = g^LC_I(L⁻¹VL⁻ᵀ, L⁻¹WL⁻ᵀ). The file has no hp values: the
// comparison is with geomstats.* itself, whose inner product and squared distance (= ‖log‖²_P,
// to 4e-16) are closed-form given its log; its exp and log are numerical (ODE and shooting,
// exp∘log off by 1.4e-3) and have no counterpart in Gyre, so they are not compared.
TEST_CASE(
    "SPD Lie–Cholesky (geomstats): inner product and ‖log‖² are the Cholesky-group translates of log-Cholesky at I") {
  const auto& data = gyre::test::reference("geomstats.json").at("cases").at("spd3_lie_cholesky");
  const gyre::SpdCholeskyGroup<double> group{3};
  const gyre::SpdLogCholesky<double> lcm(3);
  const gyre::SpdAffineInvariant<double> aim(3);
  const Matrix<double> identity = Matrix<double>::Identity(3, 3);
  std::size_t compared = 0;
  for (const auto& sample : data.at("samples")) {
    const auto p = to_matrix<double>(sample.at("base_point"));
    const auto v = to_matrix<double>(sample.at("tangent_vec"));
    const auto w = to_matrix<double>(sample.at("tangent_vec_b"));
    const auto log = to_matrix<double>(sample.at("geomstats").at("log"));
    // Left translation by the group inverse G of P maps P to I and acts on tangents linearly,
    // V ↦ L⁻¹VL⁻ᵀ with L⁻¹ = chol(G) (G = L⁻¹L⁻ᵀ, not the matrix inverse L⁻ᵀL⁻¹).
    const Matrix<double> g = group.inverse(p);
    CHECK(gyre::test::relative_gap(group.compose(g, p), identity) <= 1e-14);  // cond(P) ≤ 20: a few ε
    const Matrix<double> l_inv = Eigen::LLT<Matrix<double>>(g).matrixL();
    const auto translate = [&](const Matrix<double>& u) {
      return gyre::linalg::symmetric_part<double>(l_inv * u * l_inv.transpose());
    };
    // Two closed forms of the same sums of products, geomstats' and ours: a few ε relative
    // (measured worst 9.3e-16 for the inner product, 2.9e-16 for ‖log‖²).
    const double inner = sample.at("geomstats").at("inner_product").get<double>();
    CHECK(std::abs(lcm.inner(identity, translate(v), translate(w)) - inner) <= 4e-15 * std::abs(inner));
    const double squared_dist = sample.at("geomstats").at("squared_dist").get<double>();
    CHECK(std::abs(lcm.inner(identity, translate(log), translate(log)) - squared_dist) <= 4e-15 * squared_dist);
    // Not Gyre's Cholesky-group-invariant metric, the affine-invariant one: at I it weighs the
    // strictly lower and the diagonal parts of L⁻¹dL by 2 and 4 instead of 1 and 1.
    CHECK(std::abs(aim.inner(p, v, w) - inner) > 0.1 * std::abs(inner));
    ++compared;
  }
  CHECK(compared == 3);  // the file's three random samples
}
