// gyre geom serving issue 5's spaces: SPD metrics chosen by word, GBW's matrix parameter, the gyro
// operations, the matrix groups, and their errors — each answer checked against a closed form.
#include "geom_command.hpp"

#include <doctest/doctest.h>

#include <cmath>

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
  const json unknown = ask({{"space", "spd"}, {"params", {{"n", 2}, {"metric", "frobenius"}}}, {"op", "dist"}, {"args", args}});
  CHECK(error_type(unknown) == "DomainError");
  CHECK(unknown["error"]["message"].get<std::string>().find("unknown spd metric") != std::string::npos);
  CHECK(error_type(ask({{"space", "spd"}, {"params", {{"n", 2}, {"metric", "log_euclidean"}, {"theta", 0.5}}},
                        {"op", "dist"}, {"args", args}})) == "DomainError");
  CHECK(error_type(ask({{"space", "spd"}, {"params", {{"n", 2}, {"metric", "generalized_bures_wasserstein"}}},
                        {"op", "dist"}, {"args", args}})) == "DomainError");
  const json not_spd = ask({{"space", "spd"}, {"params", {{"n", 2}}}, {"op", "log"}, {"args", {{{1, 0}, {0, 1}}, {{1, 0}, {0, -2}}}}});
  CHECK(not_spd["error"]["message"] == "gyre::SpdAffineInvariant::log: point is not positive definite (smallest eigenvalue) (-2)");
}

TEST_CASE("geom gyro operations: Möbius addition, inverse, gyration and scaling on the ball") {
  const json params = {{"n", 2}, {"kappa", -1}};
  // Collinear points: a ⊕ b = (a + b)/(1 + ab) on a line through 0.
  const json sum = ask({{"space", "stereographic"}, {"params", params}, {"op", "gyro_add"}, {"args", {{0.5, 0}, {0.3, 0}}}});
  CHECK(sum["result"][0].get<double>() == doctest::Approx(0.8 / 1.15).epsilon(1e-15));
  const json inverse = ask({{"space", "stereographic"}, {"params", params}, {"op", "gyro_inverse"}, {"args", {{0.5, 0.1}}}});
  CHECK(inverse["result"][0].get<double>() == -0.5);
  // Collinear a, b: the gyration is the identity.
  const json gyr = ask({{"space", "stereographic"}, {"params", params}, {"op", "gyration"},
                        {"args", {{0.5, 0}, {0.3, 0}, {0.1, 0.2}}}});
  CHECK(gyr["result"][1].get<double>() == doctest::Approx(0.2).epsilon(1e-15));
  // 2 ⊗ a = a ⊕ a.
  const json twice = ask({{"space", "stereographic"}, {"params", params}, {"op", "gyro_scale"}, {"args", {2, {0.5, 0}}}});
  CHECK(twice["result"][0].get<double>() == doctest::Approx(1.0 / 1.25).epsilon(1e-15));
  CHECK(error_type(ask({{"space", "sphere"}, {"params", {{"n", 2}}}, {"op", "gyro_add"}, {"args", {{1, 0, 0}, {1, 0, 0}}}})) ==
        "DomainError");
  CHECK(error_type(ask({{"space", "stereographic"}, {"params", params}, {"op", "gyro_scale"}, {"args", {"two", {0.5, 0}}}})) ==
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
  const json half_turn = ask({{"space", "glp"}, {"params", {{"n", 2}}}, {"op", "algebra_log"}, {"args", {{{-1, 0}, {0, -1}}}}});
  CHECK(error_type(half_turn) == "DomainError");
  const json sl = ask({{"space", "sl"}, {"params", {{"n", 2}}}, {"op", "compose"}, {"args", {{{2, 0}, {0, 0.5}}, {{1, 1}, {0, 1}}}}});
  CHECK(sl["result"][0][1].get<double>() == 2.0);
  const json grassmann = ask({{"space", "grassmann"}, {"params", {{"n", 3}, {"p", 1}}}, {"op", "dist"},
                              {"args", {{{1}, {0}, {0}}, {{std::cos(0.3)}, {std::sin(0.3)}, {0}}}}});
  CHECK(grassmann["result"].get<double>() == doctest::Approx(0.3).epsilon(1e-15));
}
