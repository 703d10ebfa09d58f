// gyre layer with "layer": "frame": the frame, centre and canonical clouds of a point cloud, checked
// against point_frame, a degenerate square, and every error path.
#include <cmath>
#include <string>

#include <doctest/doctest.h>

#include "gyre/nn/point_frames.hpp"
#include "layer_command.hpp"

namespace {

using nlohmann::json;

json ask(const std::string& line) { return gyre::tools::answer_layer(line); }

}  // namespace

TEST_CASE("gyre layer frame: E(3) frame, centre and canonical clouds of a cloud") {
  const json reply =
      ask(R"({"layer": "frame", "group": "e", "n": 3, "input": [[1, 0, 0], [0, 2, 0], [0, 0, 3.5], [1, 1, 1]]})");
  REQUIRE_FALSE(reply.contains("error"));
  CHECK(reply["frame"].size() == 8);
  CHECK(reply["canonical"].size() == 8);
  CHECK(reply["degenerate"] == false);
  gyre::Matrix<double> x(4, 3);
  x << 1, 0, 0, 0, 2, 0, 0, 0, 3.5, 1, 1, 1;
  const auto frame = gyre::nn::point_frame(gyre::nn::FrameGroup::kE, x);
  for (int k = 0; k < 3; ++k) CHECK(reply["translation"][k].get<double>() == frame.centre(k));
  for (std::size_t e = 0; e < 8; ++e) {
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) CHECK(reply["frame"][e][i][j].get<double>() == frame.rotations[e](i, j));
    }
    // canonical = (X − t)·R, row by row: rows of the canonical cloud have the norms of the centred points.
    for (int p = 0; p < 4; ++p) {
      double norm = 0, expected = 0;
      for (int k = 0; k < 3; ++k) {
        norm += std::pow(reply["canonical"][e][p][k].get<double>(), 2);
        expected += std::pow(x(p, k) - frame.centre(k), 2);
      }
      CHECK(std::abs(norm - expected) <= 1e-13 * expected);
    }
  }
}

TEST_CASE("gyre layer frame: a square is degenerate and gets its own dihedral symmetry") {
  const json reply = ask(R"({"layer": "frame", "group": "o", "n": 2, "input": [[1, 0], [0, 1], [-1, 0], [0, -1]]})");
  CHECK(reply["degenerate"] == true);
  CHECK(reply["frame"].size() == 8);  // D₄: 4 rotations × 2 reflections
  const json so = ask(R"({"layer": "frame", "group": "so", "n": 2, "input": [[1, 0], [0, 1], [-1, 0], [0, -1]]})");
  CHECK(so["frame"].size() == 4);
}

TEST_CASE("gyre layer frame: errors name their type and the offending value") {
  const auto error = [](const std::string& line) { return ask(line)["error"]; };
  CHECK(error(R"({"layer": "frame", "group": "gl", "n": 2, "input": [[0, 0]]})")["type"] == "RequestError");
  CHECK(error(R"({"layer": "frame", "group": "o", "input": [[0, 0]]})")["type"] == "RequestError");
  CHECK(error(R"({"layer": "frame", "group": "o", "n": 2, "input": []})")["type"] == "RequestError");
  CHECK(error(R"({"layer": "frame", "group": "o", "n": 2, "input": [1, 2]})")["type"] == "RequestError");
  CHECK(error(R"({"layer": "frame", "group": "o", "n": 3, "input": [[0, 0], [1, 1]]})")["message"] ==
        "gyre::layer: each point needs n = 3 coordinates (2)");
  CHECK(error(R"({"layer": "frame", "group": "o", "n": 4, "input": [[0, 0, 0, 1]]})")["type"] == "ShapeError");
  CHECK(error(R"({"layer": "frame", "group": "o", "n": 2, "input": [[0, 0]], "extra": 1})")["type"] == "RequestError");
  // Huge and tiny clouds have the frame of the unit-scale cloud.
  const json huge =
      ask(R"({"layer": "frame", "group": "e", "n": 2, "input": [[1e300, 0], [0, 2e300], [-1e300, 1e300]]})");
  REQUIRE_FALSE(huge.contains("error"));
  CHECK(huge["frame"].size() == 4);
  const json tiny =
      ask(R"({"layer": "frame", "group": "e", "n": 2, "input": [[1e-300, 0], [0, 2e-300], [-1e-300, 1e-300]]})");
  REQUIRE_FALSE(tiny.contains("error"));
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) {
      CHECK(std::abs(tiny["frame"][0][i][j].get<double>() - huge["frame"][0][i][j].get<double>()) <= 1e-14);
    }
  }
}
