// gyre geom serving issue 5's spaces and the Stiefel manifold: SPD metrics chosen by word, GBW's
// matrix parameter, the gyro operations, the matrix groups, St(n, p), and their errors — each answer
// checked against a closed form.
#include <cmath>

#include <doctest/doctest.h>

#include "geom_command.hpp"
#include "geom_test_support.hpp"
#include "support/test_support.hpp"

namespace {

using nlohmann::json;

using gyre::test::ask;
using gyre::test::error_type;

}  // namespace

TEST_CASE("geom spd: each metric by name gives its own distance between diag(1, 1) and diag(e², 1)") {
  const double e2 = std::exp(2.0);
  const json args = {{{1, 0}, {0, 1}}, {{e2, 0}, {0, 1}}};
  const auto dist = [&](const json& params) {
    const json reply = ask({{"space", "spd"}, {"params", params}, {"op", "dist"}, {"args", args}});
    REQUIRE(reply.contains("result"));
    return reply["result"].get<double>();
  };
  // AIM and LEM give |log e²| = 2 here (commuting diagonal matrices); LCM measures the Cholesky
  // factor diag(e, 1), so |log e| = 1; BW gives |e − 1|.
  CHECK(dist({{"n", 2}}) == doctest::Approx(2.0).epsilon(1e-15));
  CHECK(dist({{"n", 2}, {"metric", "log_euclidean"}}) == doctest::Approx(2.0).epsilon(1e-15));
  CHECK(dist({{"n", 2}, {"metric", "log_cholesky"}}) == doctest::Approx(1.0).epsilon(1e-15));
  CHECK(dist({{"n", 2}, {"metric", "bures_wasserstein"}}) == doctest::Approx(std::exp(1.0) - 1).epsilon(1e-14));
  // (α, β) = (1, 1): d² = Σl² + (Σl)² = 4 + 4; θ = 0.5 for AIM: d = |log e^{2·0.5}|/0.5 = 2.
  CHECK(dist({{"n", 2}, {"alpha", 1}, {"beta", 1}}) == doctest::Approx(std::sqrt(8.0)).epsilon(1e-15));
  CHECK(dist({{"n", 2}, {"theta", 0.5}}) == doctest::Approx(2.0).epsilon(1e-14));
  // GBW with M = I is BW.
  CHECK(dist({{"n", 2}, {"metric", "generalized_bures_wasserstein"}, {"M", {{1, 0}, {0, 1}}}}) ==
        doctest::Approx(std::exp(1.0) - 1).epsilon(1e-14));
}

TEST_CASE("geom spd: bad metric names and misplaced parameters are named") {
  const json args = {{{1, 0}, {0, 1}}, {{1, 0}, {0, 1}}};
  const json unknown =
      ask({{"space", "spd"}, {"params", {{"n", 2}, {"metric", "frobenius"}}}, {"op", "dist"}, {"args", args}});
  CHECK(error_type(unknown) == "DomainError");
  CHECK(unknown["error"]["message"].get<std::string>().find("unknown spd metric") != std::string::npos);
  CHECK(error_type(ask({{"space", "spd"},
                        {"params", {{"n", 2}, {"metric", "log_euclidean"}, {"theta", 0.5}}},
                        {"op", "dist"},
                        {"args", args}})) == "DomainError");
  CHECK(error_type(ask({{"space", "spd"},
                        {"params", {{"n", 2}, {"metric", "generalized_bures_wasserstein"}}},
                        {"op", "dist"},
                        {"args", args}})) == "DomainError");
  const json not_spd =
      ask({{"space", "spd"}, {"params", {{"n", 2}}}, {"op", "log"}, {"args", {{{1, 0}, {0, 1}}, {{1, 0}, {0, -2}}}}});
  CHECK(not_spd["error"]["message"] ==
        "gyre::SpdAffineInvariant::log: point is not positive definite (smallest eigenvalue) (-2)");
}

TEST_CASE("geom gyro operations: Möbius addition, inverse, gyration and scaling on the ball") {
  const json params = {{"n", 2}, {"kappa", -1}};
  // Collinear points: a ⊕ b = (a + b)/(1 + ab) on a line through 0.
  const json sum =
      ask({{"space", "stereographic"}, {"params", params}, {"op", "gyro_add"}, {"args", {{0.5, 0}, {0.3, 0}}}});
  CHECK(sum["result"][0].get<double>() == doctest::Approx(0.8 / 1.15).epsilon(1e-15));
  const json inverse =
      ask({{"space", "stereographic"}, {"params", params}, {"op", "gyro_inverse"}, {"args", {{0.5, 0.1}}}});
  CHECK(inverse["result"][0].get<double>() == -0.5);
  // Collinear a, b: the gyration is the identity.
  const json gyr = ask(
      {{"space", "stereographic"}, {"params", params}, {"op", "gyration"}, {"args", {{0.5, 0}, {0.3, 0}, {0.1, 0.2}}}});
  CHECK(gyr["result"][1].get<double>() == doctest::Approx(0.2).epsilon(1e-15));
  // 2 ⊗ a = a ⊕ a.
  const json twice =
      ask({{"space", "stereographic"}, {"params", params}, {"op", "gyro_scale"}, {"args", {2, {0.5, 0}}}});
  CHECK(twice["result"][0].get<double>() == doctest::Approx(1.0 / 1.25).epsilon(1e-15));
  CHECK(error_type(
            ask({{"space", "sphere"}, {"params", {{"n", 2}}}, {"op", "gyro_add"}, {"args", {{1, 0, 0}, {1, 0, 0}}}})) ==
        "DomainError");
  CHECK(error_type(
            ask({{"space", "stereographic"}, {"params", params}, {"op", "gyro_scale"}, {"args", {"two", {0.5, 0}}}})) ==
        "RequestError");
}

TEST_CASE("geom matrix groups: Lorentz acts on 4-vectors, GL⁺ refuses a missing principal log") {
  const double c = std::cosh(0.5);
  const double s = std::sinh(0.5);
  const json boost = {{c, s, 0, 0}, {s, c, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
  const json moved = ask({{"space", "lorentz"}, {"op", "act"}, {"args", {boost, {1, 0, 0, 0}}}});
  CHECK(moved["result"][0].get<double>() == doctest::Approx(c).epsilon(1e-15));
  CHECK(moved["result"][1].get<double>() == doctest::Approx(s).epsilon(1e-15));
  const json log = ask({{"space", "lorentz"}, {"op", "algebra_log"}, {"args", {boost}}});
  CHECK(log["result"][3].get<double>() == doctest::Approx(0.5).epsilon(1e-14));
  CHECK(error_type(ask({{"space", "lorentz"}, {"op", "dist"}, {"args", {boost, boost}}})) == "DomainError");
  const json half_turn =
      ask({{"space", "glp"}, {"params", {{"n", 2}}}, {"op", "algebra_log"}, {"args", {{{-1, 0}, {0, -1}}}}});
  CHECK(error_type(half_turn) == "DomainError");
  const json sl = ask(
      {{"space", "sl"}, {"params", {{"n", 2}}}, {"op", "compose"}, {"args", {{{2, 0}, {0, 0.5}}, {{1, 1}, {0, 1}}}}});
  CHECK(sl["result"][0][1].get<double>() == 2.0);
  const json grassmann = ask({{"space", "grassmann"},
                              {"params", {{"n", 3}, {"p", 1}}},
                              {"op", "dist"},
                              {"args", {{{1}, {0}, {0}}, {{std::cos(0.3)}, {std::sin(0.3)}, {0}}}}});
  CHECK(grassmann["result"].get<double>() == doctest::Approx(0.3).epsilon(1e-15));
}

TEST_CASE("geom stiefel: one column on a great circle is a geodesic, and a far log is a typed error") {
  // X = [e₁, e₂] in ℝ³; Y turns the first column by 0.3 towards e₃ and keeps the second. The velocity
  // [0.3·e₃, 0] is tangent (XᵀU = 0) and its geodesic moves each column on a great circle, so
  // dist = 0.3 and log = [0.3·e₃, 0] (no path is shorter: each column must turn by its angle).
  const json params = {{"n", 3}, {"p", 2}};
  const double c = std::cos(0.3), s = std::sin(0.3);
  const json x = {{1, 0}, {0, 1}, {0, 0}};
  const json y = {{c, 0}, {0, 1}, {s, 0}};
  const json u = {{0, 0}, {0, 0}, {0.3, 0}};
  const auto ask_stiefel = [&](const char* op, const json& args) {
    return ask({{"space", "stiefel"}, {"params", params}, {"op", op}, {"args", args}});
  };
  // The shooting converges to rounding: a few ε, relative.
  CHECK(ask_stiefel("dist", {x, y})["result"].get<double>() == doctest::Approx(0.3).epsilon(1e-14));
  const json log = ask_stiefel("log", {x, y});
  REQUIRE(log["result"].size() == 3);
  CHECK(log["result"][2][0].get<double>() == doctest::Approx(0.3).epsilon(1e-14));
  for (const auto& [row, col] : {std::pair{0, 0}, std::pair{0, 1}, std::pair{1, 0}, std::pair{1, 1}, std::pair{2, 1}}) {
    CHECK(std::abs(log["result"][row][col].get<double>()) <= 1e-15);
  }
  const json exp = ask_stiefel("exp", {x, u});
  CHECK(exp["result"][0][0].get<double>() == doctest::Approx(c).epsilon(1e-15));
  CHECK(exp["result"][2][0].get<double>() == doctest::Approx(s).epsilon(1e-15));
  // Transport is the projection onto T_Y: u at Y loses its component along Y's first column.
  const json moved = ask_stiefel("transport", {x, y, u});
  CHECK(moved["result"][2][0].get<double>() == doctest::Approx(0.3 * c * c).epsilon(1e-15));
  CHECK(moved["result"][0][0].get<double>() == doctest::Approx(-0.3 * s * c).epsilon(1e-15));
  // −X is √2·π away, beyond the injectivity radius π: the shooting cannot converge.
  const json far = ask_stiefel("log", {x, {{-1, 0}, {0, -1}, {0, 0}}});
  CHECK(error_type(far) == "ConvergenceError");
  CHECK(far["error"]["message"].get<std::string>().find("gyre::Stiefel::log: the shooting") == 0);
  CHECK(error_type(ask_stiefel("dist", {x, {{1, 0}, {0, 2}, {0, 0}}})) == "DomainError");
  // p > n is no Stiefel manifold: the space itself refuses, naming the constructor.
  const json wide = ask({{"space", "stiefel"}, {"params", {{"n", 2}, {"p", 3}}}, {"op", "dist"}, {"args", {x, x}}});
  CHECK(error_type(wide) == "DomainError");
  CHECK(wide["error"]["message"].get<std::string>().find("gyre::Stiefel::Stiefel: needs 1 ≤ p ≤ n") == 0);
}
