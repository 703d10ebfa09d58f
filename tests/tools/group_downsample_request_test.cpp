// gyre layer with "layer": "group_downsample": the subgroup in escnn's order, the operators and the
// signals, checked against the C++ operators, and every error path.
#include <cmath>
#include <string>

#include <doctest/doctest.h>

#include "gyre/repr/group_downsampling.hpp"
#include "layer_command.hpp"

namespace {

using nlohmann::json;

json ask(const std::string& line) { return gyre::tools::answer_layer(line); }

}  // namespace

TEST_CASE("gyre layer group_downsample: D8 at rate 2 is D4 on nodes f·N + k, with its operators") {
  json request = {{"layer", "group_downsample"}, {"group", "dn"}, {"N", 8}, {"rate", 2}};
  json signal = json::array();
  for (int i = 0; i < 16; ++i) signal.push_back(std::sin(0.7 * i) + 0.1 * i);
  request["input"] = signal;
  request["grad_output"] = json::array({1, 0, 0, 0, 0, 0, 0, 2});
  const json reply = ask(request.dump());
  REQUIRE_FALSE(reply.contains("error"));
  CHECK(reply["subgroup_name"] == "D4");
  CHECK(reply["indices"] == json::array({0, 2, 4, 6, 8, 10, 12, 14}));
  CHECK(reply["subgroup"][5] == json::array({1, 2}));  // the flip after a rotation by 2·2π/8
  const auto b = gyre::repr::band_limiting(gyre::repr::subsample_group(gyre::repr::PlanarGroup::dihedral(8), 2));
  REQUIRE(reply["operator"].size() == 8);
  REQUIRE(reply["upsample"].size() == 16);
  for (int i = 0; i < 8; ++i) {
    double expected = 0;
    for (int j = 0; j < 16; ++j) {
      CHECK(reply["operator"][i][j].get<double>() == b.downsample(i, j));  // the same double, printed exactly
      CHECK(reply["upsample"][j][i].get<double>() == b.upsample(j, i));
      expected += b.downsample(i, j) * signal[j].get<double>();
    }
    CHECK(std::abs(reply["output"][i].get<double>() - expected) <= 1e-14 * (1 + std::abs(expected)));
  }
  for (int j = 0; j < 16; ++j) {
    const double expected = b.downsample(0, j) + 2 * b.downsample(7, j);
    CHECK(std::abs(reply["grad_input"][j].get<double>() - expected) <= 1e-15);
  }
}

TEST_CASE("gyre layer group_downsample: naive sampling, rotations, batches of signals") {
  const json naive = ask(
      R"({"layer": "group_downsample", "group": "cn", "N": 6, "rate": 3, "anti_aliasing": false,
          "input": [[0, 1, 2, 3, 4, 5], [5, 4, 3, 2, 1, 0]]})");
  CHECK(naive["subgroup"] == json::array({0, 3}));
  CHECK(naive["output"] == json::array({json::array({0.0, 3.0}), json::array({5.0, 2.0})}));
  const json rotations = ask(
      R"({"layer": "group_downsample", "group": "dn", "N": 4, "rate": 2, "subgroup": "rotations",
          "input": [1, 2, 3, 4, 5, 6, 7, 8]})");
  CHECK(rotations["subgroup_name"] == "C4");
  // D_N → C_N averages the flip cosets: (1 + 5)/2, (2 + 6)/2, …
  const json expected = json::array({3.0, 4.0, 5.0, 6.0});
  for (int i = 0; i < 4; ++i)
    CHECK(std::abs(rotations["output"][i].get<double>() - expected[i].get<double>()) <= 1e-14);
}

TEST_CASE("gyre layer group_downsample: errors name their type and the offending value") {
  const auto error = [](const std::string& line) { return ask(line)["error"]; };
  const json no_subgroup = error(R"({"layer": "group_downsample", "group": "dn", "N": 6, "rate": 4, "input": [0]})");
  CHECK(no_subgroup["type"] == "DomainError");
  CHECK(no_subgroup["message"] ==
        "gyre::subsample_group: no subgroup of D6 at this rate (the rotation step must divide N = 6) (4)");
  CHECK(error(R"({"layer": "group_downsample", "group": "so", "N": 6, "rate": 2, "input": [0]})")["type"] ==
        "RequestError");
  CHECK(error(R"({"layer": "group_downsample", "group": "cn", "rate": 2, "input": [0]})")["type"] == "RequestError");
  CHECK(error(R"({"layer": "group_downsample", "group": "cn", "N": 0, "rate": 1, "input": [0]})")["type"] ==
        "DomainError");
  CHECK(error(R"({"layer": "group_downsample", "group": "cn", "N": 4, "rate": 2, "input": [0, 1]})")["message"] ==
        "gyre::layer: input needs 4 values per signal (2)");
  CHECK(error(R"({"layer": "group_downsample", "group": "cn", "N": 4, "rate": 2, "input": []})")["type"] ==
        "RequestError");
  CHECK(error(R"({"layer": "group_downsample", "group": "cn", "N": 4, "rate": 2, "input": [0, 1, 2, "x"]})")["type"] ==
        "RequestError");
  // Row 0 of C4 → C2's D is (¾, ¼, −¼, ¼): this input sums to 1.5 · 1.7e308, past the largest double.
  CHECK(error(R"({"layer": "group_downsample", "group": "cn", "N": 4, "rate": 2,
                  "input": [1.7e308, 1.7e308, -1.7e308, 1.7e308]})")["message"] ==
        "gyre::layer: the output overflows (inputs near the largest double) (1.7e+308)");
  CHECK(error(R"({"layer": "group_downsample", "group": "cn", "N": 4, "rate": 2, "bogus": 1, "input": [0, 1, 2, 3]})")
            ["type"] == "RequestError");
  CHECK(error(R"({"layer": "group_downsample", "group": "cn", "N": 4, "rate": 2, "input": [0, 1, 2, 3],
                  "grad_output": [[1, 2], [3, 4]]})")["type"] == "ShapeError");
  // Huge and tiny finite values pass through exactly where they cannot overflow.
  const json tiny =
      ask(R"({"layer": "group_downsample", "group": "cn", "N": 4, "rate": 1, "input": [1e-300, 0, 0, 0]})");
  // At rate 1, D = B·Bᵀ = I up to rounding: relative 1e-15, and no underflow to 0.
  CHECK(std::abs(tiny["output"][0].get<double>() - 1e-300) <= 1e-15 * 1e-300);
  const json huge =
      ask(R"({"layer": "group_downsample", "group": "cn", "N": 4, "rate": 2, "input": [1e300, 0, 0, 0]})");
  REQUIRE_FALSE(huge.contains("error"));
  CHECK(std::isfinite(huge["output"][0].get<double>()));
}
