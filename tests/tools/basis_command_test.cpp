// `gyre basis`: replies for escnn's rows, parameters given by hand, and errors as in `gyre geom`.

#include "basis_command.hpp"

#include <sstream>

#include <doctest/doctest.h>

#include "support/escnn_gspace.hpp"
#include "support/test_support.hpp"

namespace {

using nlohmann::json;

// escnn.json's "rot2dOnR2(N=8)" as a `gyre basis` request.
json request_for(const json& row) {
  const std::string gspace = row["gspace"];
  const gyre::test::EscnnGspace parsed = gyre::test::parse_escnn_gspace(gspace);
  json request{{"gspace", parsed.flips ? "fliprot2d" : "rot2d"},
               {"N", parsed.n},
               {"kernel_size", row["kernel_size"]},
               {"in", row["in_fields"]},
               {"out", row["out_fields"]}};
  if (parsed.maximum_frequency >= 0) request["maximum_frequency"] = parsed.maximum_frequency;
  return request;
}

}  // namespace

TEST_CASE("gyre basis: dim, rank and bias_dim equal escnn's on every dimension row") {
  for (const auto& row : gyre::test::reference("escnn.json")["dimension_rows"]) {
    const json request = request_for(row);
    CAPTURE(request.dump());
    const json reply = gyre::tools::answer_basis(request.dump());
    REQUIRE(reply.contains("dim"));
    CHECK(reply["dim"] == row["dim"]);
    CHECK(reply["rank"] == row["rank"]);
    CHECK(reply["bias_dim"] == row["bias_dim"]);
  }
}

TEST_CASE("gyre basis: explicit rings, sigma and cut-offs replace the defaults") {
  // One ring at radius 1 allowing harmonics up to 1: C4 trivial → trivial keeps only j = 0 (one
  // element); irrep_1 → trivial keeps j = 1 (two elements: the gradient and its rotation).
  const json trivial = gyre::tools::answer_basis(
      R"({"gspace": "rot2d", "N": 4, "kernel_size": 3, "in": ["irrep_0"], "out": ["irrep_0"],
          "rings": [1.0], "sigma": [0.6], "max_frequency_per_ring": [1]})");
  CHECK(trivial["dim"] == 1);
  const json vector = gyre::tools::answer_basis(
      R"({"gspace": "rot2d", "N": 4, "kernel_size": 3, "in": ["irrep_1"], "out": ["irrep_0"],
          "rings": [1.0], "sigma": [0.6], "max_frequency_per_ring": [1]})");
  CHECK(vector["dim"] == 2);
  CHECK(vector["rank"] == 2);
}

TEST_CASE("gyre basis: flip2d uses escnn's irrep_0 and irrep_1") {
  const json reply =
      gyre::tools::answer_basis(R"({"gspace": "flip2d", "kernel_size": 3, "in": ["irrep_1"], "out": ["irrep_1"]})");
  CHECK(reply["group"] == "D1");
  // sign → sign kernels are the flip-even functions: the centre, and cos jφ for j = 0, 1, 2 on ring 1.
  CHECK(reply["dim"] == 4);
}

TEST_CASE("gyre basis: fliprot2d with N = 1 is escnn's flip group, irreps irrep_0 and irrep_1") {
  // The request a user tried: escnn answers a 4-element basis (the centre and cos jφ, j = 0…2, on ring 1).
  const json reply = gyre::tools::answer_basis(
      R"({"gspace": "fliprot2d", "N": 1, "kernel_size": 3, "in": ["irrep_0"], "out": ["irrep_0"]})");
  REQUIRE_FALSE(reply.contains("error"));
  CHECK(reply["group"] == "D1");
  CHECK(reply["dim"] == 4);
  CHECK(reply["rank"] == 4);
  const json mixed = gyre::tools::answer_basis(
      R"({"gspace": "fliprot2d", "N": 1, "kernel_size": 3, "in": ["irrep_1"], "out": ["irrep_0"]})");
  CHECK(mixed["dim"] == 2);  // sign → trivial: the flip-odd sin φ and sin 2φ on ring 1
}

TEST_CASE("gyre basis: errors name their type and the offending value") {
  const auto error = [](const std::string& line) { return gyre::tools::answer_basis(line)["error"]; };
  CHECK(error("{not json")["type"] == "RequestError");
  CHECK(error(R"({"gspace": "rot3d", "N": 4, "kernel_size": 3, "in": ["regular"], "out": ["regular"]})")["type"] ==
        "RequestError");
  const json bad_irrep =
      error(R"({"gspace": "rot2d", "N": 8, "kernel_size": 5, "in": ["irrep_9"], "out": ["regular"]})");
  CHECK(bad_irrep["type"] == "DomainError");
  CHECK(bad_irrep["message"] == "gyre::parse_irrep: not an irrep of C8 (irrep_9)");
  CHECK(error(R"({"gspace": "rot2d", "N": 4, "kernel_size": 3, "in": ["regular"], "out": ["regular"], "rings": [1]})")
            ["type"] == "RequestError");
  const json bad_sigma = error(
      R"({"gspace": "rot2d", "N": 4, "kernel_size": 3, "in": ["regular"], "out": ["regular"],
          "rings": [0, 1], "sigma": [0.1, -1], "max_frequency_per_ring": [0, 1]})");
  CHECK(bad_sigma["message"] == "gyre::make_basis_params: sigma must be > 0 (-1)");
  std::istringstream in(
      "\n{\"gspace\": \"flip2d\", \"kernel_size\": 1, \"in\": [\"irrep_0\"], \"out\": [\"irrep_0\"]}\n");
  std::ostringstream out;
  gyre::tools::run_basis(in, out);
  CHECK(out.str() == "{\"bias_dim\":1,\"dim\":1,\"group\":\"D1\",\"rank\":1}\n");
}
