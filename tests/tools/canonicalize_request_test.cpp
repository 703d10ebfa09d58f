// gyre layer with "layer": "canonicalize": θ* and the canonical image under SO(2), Λ* and the
// canonical momenta under SO⁺(1,3), against the C++ functions, and every error path.
#include <cmath>
#include <string>

#include <doctest/doctest.h>

#include "gyre/nn/lorentz_canonicalization.hpp"
#include "layer_command.hpp"

namespace {

using nlohmann::json;

json ask(const json& request) { return gyre::tools::answer_layer(request.dump()); }

json blob_image(double cx, double cy) {
  json rows = json::array();
  for (int r = 0; r < 9; ++r) {
    json row = json::array();
    for (int c = 0; c < 9; ++c) {
      const double x = c - 4.0 - cx, y = 4.0 - r - cy;
      row.push_back(std::exp(-(x * x + y * y) / 4));
    }
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

TEST_CASE("gyre layer canonicalize so2: θ* points at the blob, a quarter turn adds π/2") {
  // One blob on the +x axis: the first harmonic's phase is 0 there, and π/2 for the blob on +y.
  const json east = ask({{"layer", "canonicalize"}, {"group", "so2"}, {"input", blob_image(2, 0)}, {"weights", {1.0}}});
  REQUIRE_FALSE(east.contains("error"));
  CHECK(std::abs(std::remainder(east["angle"].get<double>(), 2 * M_PI)) <= 1e-12);
  const json north =
      ask({{"layer", "canonicalize"}, {"group", "so2"}, {"input", blob_image(0, 2)}, {"weights", {1.0}}});
  CHECK(std::abs(north["angle"].get<double>() - M_PI / 2) <= 1e-12);
  // The canonical image of the north blob is the east blob (a quarter turn: an exact permutation).
  for (int r = 0; r < 9; ++r) {
    for (int c = 0; c < 9; ++c) {
      CHECK(std::abs(north["canonical"][r][c].get<double>() - blob_image(2, 0)[r][c].get<double>()) <= 1e-12);
    }
  }
  CHECK(north["ambiguous"] == false);
  // Channels as a list of images give one canonical image per channel.
  const json two = ask({{"layer", "canonicalize"}, {"group", "so2"}, {"input", {blob_image(0, 2), blob_image(0, 1)}}});
  CHECK(two["canonical"].size() == 2);
}

TEST_CASE("gyre layer canonicalize lorentz: Λ* and the canonical momenta as the C++ functions give them") {
  const json request = {{"layer", "canonicalize"},
                        {"group", "lorentz"},
                        {"input", {{3.0, 1.0, 0.5, -0.2}, {2.0, -0.3, 1.2, 0.4}, {1.5, 0.2, -0.4, 1.1}}}};
  const json reply = ask(request);
  REQUIRE_FALSE(reply.contains("error"));
  gyre::Matrix<double> p(3, 4);
  p << 3.0, 1.0, 0.5, -0.2, 2.0, -0.3, 1.2, 0.4, 1.5, 0.2, -0.4, 1.1;
  const auto frame = gyre::nn::canonical_lorentz_frame(p);
  const auto q = gyre::nn::canonicalize_lorentz(p, frame);
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) CHECK(reply["transform"][i][j].get<double>() == frame.transform(i, j));
  }
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 4; ++j) CHECK(reply["canonical"][i][j].get<double>() == q(i, j));
  }
  CHECK(reply["gradient"].get<double>() <= 1e-12);
}

TEST_CASE("gyre layer canonicalize: errors name their type and the offending value") {
  const auto error = [](const json& request) { return ask(request)["error"]; };
  CHECK(error({{"layer", "canonicalize"}, {"group", "so3"}, {"input", {{1.0}}}})["type"] == "RequestError");
  CHECK(error({{"layer", "canonicalize"}, {"group", "so2"}, {"input", json::array()}})["type"] == "RequestError");
  CHECK(error({{"layer", "canonicalize"}, {"group", "so2"}, {"input", blob_image(1, 1)}, {"weights", {0.0}}})["type"] ==
        "DomainError");
  CHECK(error({{"layer", "canonicalize"}, {"group", "so2"}, {"input", blob_image(1, 1)}, {"sigma", -2}})["type"] ==
        "DomainError");
  CHECK(error({{"layer", "canonicalize"}, {"group", "so2"}, {"input", blob_image(1, 1)}, {"extra", 1}})["type"] ==
        "RequestError");
  CHECK(error({{"layer", "canonicalize"}, {"group", "so2"}, {"input", {blob_image(1, 1), {{1.0, 2.0}}}}})["type"] ==
        "ShapeError");
  CHECK(error({{"layer", "canonicalize"},
               {"group", "lorentz"},
               {"input", {{1.0, 2.0, 0.0, 0.0}, {1.0, 0, 0, 0}}}})["message"]
            .get<std::string>()
            .find("momentum 0 is not future-directed causal") != std::string::npos);
  CHECK(error({{"layer", "canonicalize"}, {"group", "lorentz"}, {"input", {1.0, 0.0, 0.0, 0.0}}})["type"] ==
        "RequestError");
  CHECK(error({{"layer", "canonicalize"},
               {"group", "lorentz"},
               {"input", {{1.0, 0, 0, 0}, {1.0, 0, 0, 0}}},
               {"alignment", 0.9}})["type"] == "DomainError");
  // Huge and tiny images: θ* does not depend on the scale.
  json huge = blob_image(0, 2), tiny = blob_image(0, 2);
  for (auto& row : huge) {
    for (auto& v : row) v = v.get<double>() * 1e300;
  }
  for (auto& row : tiny) {
    for (auto& v : row) v = v.get<double>() * 1e-300;
  }
  for (const json& image : {huge, tiny}) {
    const json reply = ask({{"layer", "canonicalize"}, {"group", "so2"}, {"input", image}, {"weights", {1.0}}});
    REQUIRE_FALSE(reply.contains("error"));
    CHECK(std::abs(reply["angle"].get<double>() - M_PI / 2) <= 1e-12);
  }
}
