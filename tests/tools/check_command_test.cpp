// gyre check: a described network is exactly equivariant on the grid symmetries, the off-grid
// rows report interpolation honestly, and bad descriptions are clear errors.

#include "check_command.hpp"

#include <fstream>
#include <sstream>

#include <doctest/doctest.h>

#include "gyre/core/error.hpp"
#include "json_codec.hpp"

namespace {

nlohmann::json example() {
  std::ifstream in(GYRE_TOOLS_TEST_DIR "/c8_network.json");
  return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("gyre check: the example C8 network is equivariant to rounding on quarter turns") {
  const auto report = gyre::tools::check_network(example());
  REQUIRE(report.rows.size() == 8);
  CHECK(report.max_grid_symmetry_error() <= 1e-12);  // exact pixel permutations, double precision
  for (const auto& row : report.rows) {
    if (!row.grid_symmetry) CHECK(row.relative_error > 1e-3);  // 45° resamples a noise input: visibly inexact
  }
  std::istringstream in(example().dump());
  std::ostringstream out;
  CHECK(gyre::tools::run_check(in, out) == 0);
  CHECK(out.str().find("R2Conv(C8[irrep_0] → C8[3×regular], k=5") != std::string::npos);
  CHECK(out.str().find("(equivariant to rounding)") != std::string::npos);
}

TEST_CASE("gyre check: bad descriptions are errors that say what is wrong") {
  auto bad = example();
  bad["layers"][2] = {{"type", "Swish"}};
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::tools::build_network(bad)), "unknown layer type \"Swish\"",
                       gyre::tools::RequestError);
  bad = example();
  bad["layers"][5] = {{"type", "ReLU"}};  // after the second conv the fields include irrep_1: not pointwise
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::tools::build_network(bad)),
                       doctest::Contains("gyre::PointwiseReLU: pointwise nonlinearities need permutation fields"),
                       gyre::DomainError);
  bad = example();
  bad["angles"] = {22.5};
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::tools::check_network(bad)),
                       "gyre::check_equivariance: element is not in C8 (rotation 22.5°)", gyre::DomainError);
}

TEST_CASE("gyre check: GroupDownsample moves the network to its subgroup, bad options are named") {
  nlohmann::json description =
      nlohmann::json::parse(R"({"gspace": "fliprot2d", "N": 4, "input": ["irrep_0,0"], "size": 9,
    "layers": [{"type": "R2Conv", "out": ["regular"], "kernel_size": 3, "padding": 1},
               {"type": "GroupDownsample", "rate": 2, "subgroup": "rotations"},
               {"type": "R2Conv", "out": ["regular"], "kernel_size": 3, "padding": 1}]})");
  const auto net = gyre::tools::build_network(description);
  CHECK(net->out_type().fields("test").group().name() == "C4");
  const auto report = gyre::tools::check_network(description);
  CHECK(report.rows.size() == 4);
  CHECK(report.max_grid_symmetry_error() <= 1e-12);
  description["layers"][1]["subgroup"] = "flips";
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::tools::build_network(description)),
                       "\"subgroup\" must be \"same\" or \"rotations\"", gyre::tools::RequestError);
  description["layers"][1]["subgroup"] = "same";
  description["layers"][1]["rate"] = 3;
  CHECK_THROWS_AS(static_cast<void>(gyre::tools::build_network(description)), gyre::DomainError);
}

TEST_CASE("gyre check: a plain CNN wrapped in canonicalization is checked against SO(2)") {
  std::ifstream in(GYRE_TOOLS_TEST_DIR "/canonicalized_cnn_network.json");
  nlohmann::json description = nlohmann::json::parse(in);
  const auto net = gyre::tools::build_network(description);
  CHECK(net->in_type().fields("test").group().name() == "SO(2)");
  CHECK(net->out_type().fields("test").group().name() == "SO(2)");  // invariant outputs, declared so
  const auto report = gyre::tools::check_network(description);
  int quarter_turns = 0;
  for (const auto& row : report.rows) {
    if (row.grid_symmetry) ++quarter_turns;
  }
  CHECK(quarter_turns == 4);
  // θ* moves by exactly 90° and bilinear resampling commutes with the grid: rounding, in double.
  CHECK(report.max_grid_symmetry_error() <= 1e-12);
  // Unwrapped, the same network is a plain CNN over C1: the checker has only the identity to try.
  description.erase("wrapper");
  CHECK(gyre::tools::build_network(description)->out_type().fields("test").group().name() == "C1");
  description["wrapper"] = "symmetrize";
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::tools::build_network(description)),
                       "\"wrapper\" must be \"canonicalize\"", gyre::tools::RequestError);
}
