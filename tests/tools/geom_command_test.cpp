// gyre geom: the JSON-lines protocol, its encodings, and every error path.
#include "geom_command.hpp"

#include <cmath>
#include <sstream>

#include <doctest/doctest.h>

#include "geom_test_support.hpp"
#include "support/test_support.hpp"

namespace {

using nlohmann::json;

using gyre::test::ask;
using gyre::test::error_type;

}  // namespace

TEST_CASE("geom: a session answers each line in order, skipping blank lines and surviving bad ones") {
  std::istringstream in(R"({"space":"sphere","params":{"n":2},"op":"dist","args":[[1,0,0],[0,1,0]]})"
                        "\n\n{oops\n"
                        R"({"space":"sphere","params":{"n":2},"op":"norm","args":[[1,0,0],[0,3,4]]})"
                        "\n");
  std::ostringstream out;
  gyre::tools::run_geom(in, out);
  std::istringstream replies(out.str());
  std::string line;
  std::vector<json> parsed;
  while (std::getline(replies, line)) parsed.push_back(json::parse(line));
  REQUIRE(parsed.size() == 3);
  CHECK(parsed[0]["result"].get<double>() == std::acos(0.0));
  CHECK(error_type(parsed[1]) == "RequestError");
  CHECK(parsed[2]["result"].get<double>() == 5.0);
}

TEST_CASE("geom: numbers round-trip exactly through the protocol") {
  // exp at x with a tangent whose entries need all 17 digits; the reply must parse back to the
  // bit pattern the C++ API returns.
  const double a = 0.1234567890123456789, b = -2.0 / 3.0;
  const json reply =
      ask({{"space", "sphere"}, {"params", {{"n", 2}}}, {"op", "exp"}, {"args", {{0.0, 0.0, 1.0}, {a, b, 0.0}}}});
  const auto any = gyre::make_space("sphere", {{"n", 2}});
  Eigen::MatrixXd x(3, 1), v(3, 1);
  x << 0, 0, 1;
  v << a, b, 0;
  const Eigen::MatrixXd expected = any.exp(x, v);
  REQUIRE(reply["result"].size() == 3);
  for (int i = 0; i < 3; ++i) CHECK(reply["result"][i].get<double>() == expected(i));
}

TEST_CASE("geom: matrices are nested rows, group elements keep their encodings") {
  const json rotation = ask({{"space", "se2"}, {"op", "algebra_exp"}, {"args", {{0.0, 0.0, std::acos(-1.0) / 2}}}});
  REQUIRE(rotation["result"].size() == 3);
  CHECK(rotation["result"][2] == json({0.0, 0.0, 1.0}));
  CHECK(std::abs(rotation["result"][1][0].get<double>() - 1.0) <= 1e-15);  // R(π/2)[1][0] = sin(π/2)
  const json log = ask({{"space", "se2"}, {"op", "algebra_log"}, {"args", {rotation["result"]}}});
  CHECK(std::abs(log["result"][2].get<double>() - std::acos(-1.0) / 2) <= 1e-15);
  CHECK(ask({{"space", "cn"}, {"params", {{"N", 6}}}, {"op", "identity"}, {"args", json::array()}})["result"] == 0);
  CHECK(ask({{"space", "cn"}, {"params", {{"N", 6}}}, {"op", "inverse"}, {"args", {2}}})["result"] == 4);
  CHECK(ask({{"space", "dn"}, {"params", {{"N", 4}}}, {"op", "compose"}, {"args", {{1, 1}, {1, 0}}}})["result"] ==
        json({0, 1}));
  const json moved = ask({{"space", "dn"}, {"params", {{"N", 4}}}, {"op", "act"}, {"args", {{1, 0}, {2.0, 3.0}}}});
  CHECK(moved["result"] == json({-2.0, 3.0}));  // the flip (x, y) ↦ (−x, y)
}

TEST_CASE("geom: the Fréchet mean of points symmetric about x is x") {
  const double c = std::sqrt(0.5);
  const json reply = ask({{"space", "sphere"},
                          {"params", {{"n", 2}}},
                          {"op", "mean"},
                          {"args", {{{c, 0.0, c}, {-c, 0.0, c}, {0.0, c, c}, {0.0, -c, c}}}}});
  REQUIRE(reply.contains("result"));
  CHECK(gyre::test::relative_gap(gyre::test::to_matrix<double>(reply["result"]), Eigen::Vector3d(0, 0, 1)) <=
        1e-15);  // symmetric: exact up to rounding
}

TEST_CASE("geom: every kind of bad request gets a typed error reply") {
  CHECK(error_type(ask({{"op", "log"}})) == "RequestError");
  CHECK(error_type(ask({{"space", "sphere"}, {"params", {{"n", 2}}}})) == "RequestError");
  CHECK(error_type(ask({{"space", "sphere"}, {"params", {{"n", 2}}}, {"op", "frobnicate"}, {"args", json::array()}})) ==
        "RequestError");
  CHECK(error_type(ask({{"space", "sphere"}, {"params", {{"n", 2}}}, {"op", "dist"}, {"args", {{1, 0, 0}}}})) ==
        "RequestError");
  CHECK(error_type(
            ask({{"space", "sphere"}, {"params", {{"n", 2}}}, {"op", "dist"}, {"args", {{1, 0, 0}, {"a", 0, 0}}}})) ==
        "RequestError");
  // Words are valid parameters (spd's "metric"), so a word where a number belongs is the space's error.
  const json worded =
      ask({{"space", "sphere"}, {"params", {{"n", "two"}}}, {"op", "dist"}, {"args", {{1, 0, 0}, {1, 0, 0}}}});
  CHECK(error_type(worded) == "DomainError");
  CHECK(worded["error"]["message"] == "gyre::make_space: parameter n of sphere must be a number (two)");
  CHECK(error_type(
            ask({{"space", "sphere"}, {"params", {{"n", true}}}, {"op", "dist"}, {"args", {{1, 0, 0}, {1, 0, 0}}}})) ==
        "RequestError");
  const json unknown = ask({{"space", "klein_bottle"}, {"op", "dist"}, {"args", {1, 1}}});
  CHECK(error_type(unknown) == "DomainError");
  CHECK(unknown["error"]["message"] == "gyre::make_space: unknown space (klein_bottle)");
  CHECK(error_type(ask({{"space", "sphere"}, {"op", "dist"}, {"args", {{1, 0, 0}, {1, 0, 0}}}})) == "DomainError");
  const json wrong_shape =
      ask({{"space", "sphere"}, {"params", {{"n", 2}}}, {"op", "dist"}, {"args", {{1, 0, 0}, {1, 0}}}});
  CHECK(error_type(wrong_shape) == "ShapeError");
  const json ragged = ask({{"space", "se2"}, {"op", "inverse"}, {"args", {{{1, 0, 0}, {0, 1}, {0, 0, 1}}}}});
  CHECK(error_type(ragged) == "ShapeError");
  const json off_manifold =
      ask({{"space", "sphere"}, {"params", {{"n", 2}}}, {"op", "log"}, {"args", {{1, 0, 0}, {0, 2, 0}}}});
  CHECK(error_type(off_manifold) == "DomainError");
  CHECK(off_manifold["error"]["message"].get<std::string>().find("gyre::Sphere::log") == 0);
  const json not_group =
      ask({{"space", "sphere"}, {"params", {{"n", 2}}}, {"op", "identity"}, {"args", json::array()}});
  CHECK(error_type(not_group) == "DomainError");
  CHECK(not_group["error"]["message"] == "gyre::sphere::identity: the space is not a group (sphere)");
  CHECK(error_type(ask({{"space", "cn"}, {"params", {{"N", 4}}}, {"op", "compose"}, {"args", {1.5, 1}}})) ==
        "DomainError");
  CHECK(error_type(ask({{"space", "cn"}, {"params", {{"N", 4}}}, {"op", "log"}, {"args", {1, 1}}})) == "DomainError");
}

TEST_CASE("geom: --list names every registered space with its parameters") {
  const std::string listing = gyre::tools::list_spaces();
  for (const auto& info : gyre::registered_spaces()) {
    CAPTURE(info.name);
    CHECK(listing.find(info.name) != std::string::npos);
  }
}
