// gyre layer: the JSON-lines protocol for manifold layers — LieBN's guarantee seen through it, the
// replies against the C++ layers, state in and out, and every error path.
#include "layer_command.hpp"

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "gyre/core/rng.hpp"
#include "gyre/geometry/frechet_mean.hpp"
#include "gyre/geometry/frechet_variance.hpp"
#include "gyre/nn/gbw_batch_norm.hpp"
#include "gyre/nn/lie_batch_norm.hpp"
#include "gyre/nn/manifold_fibers.hpp"
#include "spd/affine_invariant.hpp"
#include "spd/power_deformed.hpp"
#include "spd/spd_common.hpp"

namespace {

using nlohmann::json;

json matrix_json(const Eigen::MatrixXd& m) {
  json rows = json::array();
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    json row = json::array();
    for (Eigen::Index c = 0; c < m.cols(); ++c) row.push_back(m(r, c));
    rows.push_back(row);
  }
  return rows;
}

Eigen::MatrixXd json_matrix(const json& rows) {
  Eigen::MatrixXd m(rows.size(), rows[0].size());
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::size_t c = 0; c < rows[r].size(); ++c) m(r, c) = rows[r][c].get<double>();
  return m;
}

std::vector<Eigen::MatrixXd> spd_points(int n, int count, std::uint64_t seed) {
  gyre::Rng rng(seed);
  std::vector<Eigen::MatrixXd> points;
  for (int i = 0; i < count; ++i) points.push_back(gyre::spd::random_spd<double>(n, rng));
  return points;
}

json points_json(const std::vector<Eigen::MatrixXd>& points) {
  json out = json::array();
  for (const auto& p : points) out.push_back(matrix_json(p));
  return out;
}

json ask(const json& request) { return gyre::tools::answer_layer(request.dump()); }

// (B, 1, n, n) from B matrices: one channel, as gyre layer's requests.
xt::xarray<double> one_channel(const std::vector<Eigen::MatrixXd>& points) {
  const auto n = static_cast<std::size_t>(points.at(0).rows());
  xt::xarray<double> a = xt::zeros<double>({points.size(), std::size_t{1}, n, n});
  for (std::size_t b = 0; b < points.size(); ++b)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        a(b, 0, i, j) = points[b](static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
  return a;
}

// The C++ layer's forward and backward on the request's batch equal the reply's, bit for bit.
void check_replies_equal(gyre::nn::Module<double>& layer, const json& reply, const std::vector<Eigen::MatrixXd>& input,
                         const std::vector<Eigen::MatrixXd>& grad) {
  const auto out = layer.forward(gyre::nn::GeometricTensor<double>(layer.in_type(), one_channel(input)));
  const auto grad_in = layer.backward(gyre::nn::GeometricTensor<double>(layer.in_type(), one_channel(grad)));
  for (std::size_t b = 0; b < input.size(); ++b) {
    const Eigen::MatrixXd o = json_matrix(reply["output"][b]);
    const Eigen::MatrixXd gi = json_matrix(reply["grad_input"][b]);
    for (Eigen::Index i = 0; i < o.rows(); ++i)
      for (Eigen::Index j = 0; j < o.cols(); ++j) {
        CHECK(o(i, j) == out.data(b, 0, i, j));
        CHECK(gi(i, j) == grad_in.data(b, 0, i, j));
      }
  }
}

std::string error_type(const json& reply) {
  return reply.contains("error") ? reply["error"]["type"].get<std::string>() : std::string("none");
}

}  // namespace

TEST_CASE("layer: LieBN (AIM, θ = 0.5) through the protocol gives the bias as mean and s² as variance") {
  const int n = 3;
  const auto input = spd_points(n, 6, 1);
  const Eigen::MatrixXd bias = spd_points(n, 1, 2)[0];
  const json reply = ask({{"layer", "liebn"},
                          {"space", "spd"},
                          {"params", {{"n", n}, {"metric", "AIM"}, {"theta", 0.5}}},
                          {"options", {{"tolerance", 1e-14}}},
                          {"state", {{"bias", matrix_json(bias)}, {"variance", 0.25}}},
                          {"input", points_json(input)}});
  REQUIRE_MESSAGE(!reply.contains("error"), reply.dump());
  std::vector<Eigen::MatrixXd> outputs;
  for (const auto& p : reply["output"]) outputs.push_back(json_matrix(p));
  const gyre::PowerDeformed<gyre::SpdAffineInvariant<double>> metric(gyre::SpdAffineInvariant<double>(n), 0.5);
  gyre::FrechetMeanOptions tight;
  tight.tolerance = 1e-13;
  const Eigen::MatrixXd mean = gyre::frechet_mean(metric, outputs, {}, tight).point;
  // 1e-9: two Karcher means to 1e-13 and the matrix functions between them (condition ≤ e²).
  CHECK(metric.dist(mean, bias) <= 1e-9);
  const double v = reply["batch_variance"].get<double>();
  CHECK(std::abs(gyre::frechet_variance(metric, bias, outputs) - 0.25 * v / (v + 1e-5)) <= 1e-9);
  CHECK(reply["state"]["scale"].get<double>() == 0.5);
  // The running statistics moved by momentum 0.1 from the identity (X^θ = I) and 1.
  CHECK(std::abs(reply["state"]["running_variance"].get<double>() - (0.9 + 0.1 * v)) <= 1e-15);
}

TEST_CASE("layer: replies equal the C++ layer's forward and backward, bit for bit") {
  const int n = 4;
  const auto input = spd_points(n, 5, 3);
  const auto grad = spd_points(n, 5, 4);
  const json reply = ask({{"layer", "liebn"},
                          {"params", {{"n", n}, {"metric", "LCM"}, {"theta", 0.5}}},
                          {"options", {{"mean", "reference"}}},
                          {"input", points_json(input)},
                          {"grad_output", points_json(grad)}});
  REQUIRE_MESSAGE(!reply.contains("error"), reply.dump());
  gyre::nn::LieBatchNormOptions options;
  options.mean_mode = gyre::LieMeanMode::kReference;
  gyre::nn::LieBatchNorm<gyre::SpdLogCholeskyNormalization<double>> layer(
      gyre::SpdLogCholeskyNormalization<double>(n, 0.5), gyre::nn::spd_features(n, 1), options);
  check_replies_equal(layer, reply, input, grad);
  CHECK(reply["grad_state"]["scale"].get<double>() == layer.scale().grad(0));
}

TEST_CASE("layer: eval mode uses the given running statistics and accepts one point") {
  const int n = 2;
  const auto input = spd_points(n, 1, 5);
  const json reply =
      ask({{"layer", "liebn"},
           {"params", {{"n", n}, {"metric", "LEM"}}},
           {"mode", "eval"},
           {"state", {{"running_mean", matrix_json(Eigen::MatrixXd::Zero(2, 2))}, {"running_variance", 4.0}}},
           {"input", points_json(input)}});
  REQUIRE_MESSAGE(!reply.contains("error"), reply.dump());
  // Centring at I and scaling by 1/√(4 + ε) in log coordinates: exp(log X / √(4 + 1e-5)).
  const gyre::linalg::SymmetricEigen<double> e = gyre::linalg::symmetric_eigen<double>(input[0]);
  Eigen::VectorXd expected_values = e.values.array().log() / std::sqrt(4 + 1e-5);
  const Eigen::MatrixXd expected =
      e.vectors * expected_values.array().exp().matrix().asDiagonal() * e.vectors.transpose();
  CHECK((json_matrix(reply["output"][0]) - expected).norm() <= 1e-14);
  CHECK(!reply.contains("batch_mean"));
}

TEST_CASE("layer: SO(3) LieBN, ReEig, LogEig and BiMap run") {
  Eigen::MatrixXd r1 = Eigen::MatrixXd::Identity(3, 3);
  Eigen::MatrixXd r2(3, 3);
  r2 << 0, -1, 0, 1, 0, 0, 0, 0, 1;
  CHECK(
      !ask({{"layer", "liebn"}, {"space", "so"}, {"params", {{"n", 3}}}, {"input", {matrix_json(r1), matrix_json(r2)}}})
           .contains("error"));
  const auto input = spd_points(3, 2, 6);
  CHECK(
      ask({{"layer", "reeig"}, {"params", {{"n", 3}, {"eps", 0.5}}}, {"input", points_json(input)}})["output"].size() ==
      2);
  CHECK(ask({{"layer", "logeig"}, {"params", {{"n", 3}}}, {"input", points_json(input)}})["output"].size() == 2);
  const json reply = ask({{"layer", "bimap"},
                          {"params", {{"n", 3}, {"n_out", 2}}},
                          {"state", {{"weight", {{1, 0}, {0, 1}, {0, 0}}}}},
                          {"input", points_json(input)}});
  REQUIRE_MESSAGE(!reply.contains("error"), reply.dump());
  CHECK((json_matrix(reply["output"][0]) - input[0].topLeftCorner(2, 2)).norm() <= 1e-15);
}

TEST_CASE("layer: GyroBN on the ball and the Grassmannian, SPDNetBN on SPD") {
  const json ball = ask({{"layer", "gyrobn"},
                         {"space", "ball"},
                         {"params", {{"n", 2}}},
                         {"state", {{"bias", {0.1, -0.2}}, {"scale", 0.5}}},
                         {"input", {{0.1, 0.2}, {-0.3, 0.1}, {0.0, -0.4}}},
                         {"grad_output", {{1.0, 0.0}, {0.0, 1.0}, {1.0, 1.0}}}});
  REQUIRE_MESSAGE(!ball.contains("error"), ball.dump());
  CHECK(ball["output"].size() == 3);
  CHECK(ball["output"][0].size() == 2);  // vectors, as gyre geom writes the ball's points
  CHECK(ball["grad_state"].contains("scale"));
  const json grassmann = ask({{"layer", "gyrobn"},
                              {"space", "grassmann"},
                              {"params", {{"n", 3}, {"p", 1}}},
                              {"input", {{{1.0}, {0.0}, {0.0}}, {{0.8}, {0.6}, {0.0}}, {{0.8}, {0.0}, {0.6}}}}});
  REQUIRE_MESSAGE(!grassmann.contains("error"), grassmann.dump());
  const json spdnet_bn =
      ask({{"layer", "spdnet_bn"}, {"params", {{"n", 3}}}, {"input", points_json(spd_points(3, 4, 8))}});
  REQUIRE_MESSAGE(!spdnet_bn.contains("error"), spdnet_bn.dump());
  CHECK(!spdnet_bn["state"].contains("scale"));
  CHECK(error_type(ask({{"layer", "spdnet_bn"},
                        {"params", {{"n", 3}}},
                        {"state", {{"scale", 2.0}}},
                        {"input", points_json(spd_points(3, 4, 8))}})) == "RequestError");
  CHECK(error_type(ask(
            {{"layer", "gyrobn"}, {"space", "ball"}, {"params", {{"n", 2}}}, {"input", {{0.1, 0.2}, {3.0, 0.0}}}})) ==
        "DomainError");  // outside the unit ball
}

TEST_CASE("layer: the transport-based Riemannian BN on the hyperboloid and under Bures–Wasserstein") {
  const json hyperbolic = ask({{"layer", "rbn"},
                               {"space", "hyperboloid"},
                               {"params", {{"n", 2}}},
                               {"input", {{1.5, 1.0, 0.5}, {1.0, 0.0, 0.0}, {std::sqrt(2.0), 0.0, -1.0}}},
                               {"grad_output", {{0.0, 1.0, 0.0}, {0.0, 0.0, 1.0}, {0.0, 1.0, 1.0}}}});
  REQUIRE_MESSAGE(!hyperbolic.contains("error"), hyperbolic.dump());
  CHECK(hyperbolic["output"][0].size() == 3);
  const json bw =
      ask({{"layer", "rbn"}, {"params", {{"n", 3}, {"metric", "BWM"}}}, {"input", points_json(spd_points(3, 4, 9))}});
  REQUIRE_MESSAGE(!bw.contains("error"), bw.dump());
}

namespace {

// GyroBN (with a backward) and the Riemannian BN on one batch: both must succeed, and they take the
// same Fréchet mean and variance of the batch (only the centring differs). Returns GyroBN's reply.
json gyro_and_rbn_agree(const std::string& space, const json& params, const json& input) {
  const json gyro =
      ask({{"layer", "gyrobn"}, {"space", space}, {"params", params}, {"input", input}, {"grad_output", input}});
  REQUIRE_MESSAGE(!gyro.contains("error"), gyro.dump());
  const json rbn = ask({{"layer", "rbn"}, {"space", space}, {"params", params}, {"input", input}});
  REQUIRE_MESSAGE(!rbn.contains("error"), rbn.dump());
  CHECK(std::abs(gyro["batch_variance"].get<double>() - rbn["batch_variance"].get<double>()) <= 1e-12);
  CHECK(gyro["grad_input"].size() == input.size());
  return gyro;
}

}  // namespace

TEST_CASE("layer: GyroBN on the hyperboloid and on correlation matrices, with the Riemannian BN's batch statistics") {
  const json hyperbolic =
      gyro_and_rbn_agree("hyperboloid", {{"n", 2}}, {{1.5, 1.0, 0.5}, {1.0, 0.0, 0.0}, {std::sqrt(2.0), 0.0, -1.0}});
  for (const auto& point : hyperbolic["output"]) {
    const double x0 = point[0], x1 = point[1], x2 = point[2];
    CHECK(std::abs(x1 * x1 + x2 * x2 - x0 * x0 + 1) <= 1e-12);  // on H²
  }
  const json correlations = {{{1.0, 0.3, -0.2}, {0.3, 1.0, 0.5}, {-0.2, 0.5, 1.0}},
                             {{1.0, -0.4, 0.1}, {-0.4, 1.0, 0.0}, {0.1, 0.0, 1.0}},
                             {{1.0, 0.0, 0.6}, {0.0, 1.0, -0.3}, {0.6, -0.3, 1.0}}};
  for (const auto& point : gyro_and_rbn_agree("correlation", {{"n", 3}}, correlations)["output"]) {
    const Eigen::MatrixXd c = json_matrix(point);
    CHECK((c.diagonal().array() - 1).abs().maxCoeff() <= 1e-14);
    CHECK(c.llt().info() == Eigen::Success);
  }
  CHECK(error_type(ask({{"layer", "gyrobn"},
                        {"space", "correlation"},
                        {"params", {{"n", 3}}},
                        {"input", {{{1.0, 0.3, 0.0}, {0.3, 2.0, 0.0}, {0.0, 0.0, 1.0}}, correlations[0]}}})) ==
        "DomainError");  // not a unit diagonal
  CHECK(error_type(
            ask({{"layer", "gyrobn"}, {"space", "correlation"}, {"params", {{"n", 1}}}, {"input", json::array()}})) ==
        "DomainError");
}

TEST_CASE("layer: GBW-RBN takes the metric M as gyre geom does and equals the C++ layer, bit for bit") {
  const int n = 3;
  const auto input = spd_points(n, 4, 11);
  const auto grad = spd_points(n, 4, 12);
  const Eigen::MatrixXd metric = spd_points(n, 1, 13)[0];
  const Eigen::MatrixXd bias = spd_points(n, 1, 14)[0];
  const json reply = ask({{"layer", "gbw_rbn"},
                          {"params", {{"n", n}, {"theta", 0.5}, {"M", matrix_json(metric)}}},
                          {"state", {{"bias", matrix_json(bias)}, {"scale", 0.4}}},
                          {"input", points_json(input)},
                          {"grad_output", points_json(grad)}});
  REQUIRE_MESSAGE(!reply.contains("error"), reply.dump());
  gyre::nn::GbwBatchNormOptions options;
  options.theta = 0.5;
  gyre::nn::GbwBatchNorm<double> layer(gyre::nn::spd_features(n, 1), options);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      layer.metric().value(0, i, j) = metric(i, j);
      layer.bias().value(0, i, j) = bias(i, j);
    }
  layer.scale().value(0) = 0.4;
  check_replies_equal(layer, reply, input, grad);
  const Eigen::MatrixXd grad_metric = json_matrix(reply["grad_state"]["M"]);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) CHECK(grad_metric(i, j) == layer.metric().grad(0, i, j));
  CHECK(json_matrix(reply["state"]["M"]) == metric);
  json bad = {{"layer", "gbw_rbn"}, {"params", {{"n", n}, {"theta", 0.0}}}, {"input", points_json(input)}};
  CHECK(error_type(ask(bad)) == "DomainError");
  bad["params"] = {{"n", n}, {"learn_metric", "yes"}};
  CHECK(error_type(ask(bad)) == "RequestError");
  bad["params"] = {{"n", n}, {"M", {{1, 2, 0}, {2, 1, 0}, {0, 0, 1}}}};  // symmetric, not SPD
  CHECK(error_type(ask(bad)) == "DomainError");
  bad["space"] = "grassmann";
  CHECK(error_type(ask(bad)) == "RequestError");
}

TEST_CASE("layer: bad requests are errors that say what is wrong") {
  const auto input = points_json(spd_points(3, 3, 7));
  const json base = {{"layer", "liebn"}, {"params", {{"n", 3}}}, {"input", input}};
  CHECK(error_type(gyre::tools::answer_layer("{oops")) == "RequestError");
  json r = base;
  r["layer"] = "frobnicate";
  CHECK(error_type(ask(r)) == "RequestError");
  r = base;
  r["options"] = {{"epsilon", 1e-5}};  // misspelt: refused, not ignored
  CHECK(error_type(ask(r)) == "RequestError");
  r = base;
  r["bogus"] = 1;
  CHECK(error_type(ask(r)) == "RequestError");
  r = base;
  r["input"] = json::array({input[0]});  // a training batch of one
  CHECK(error_type(ask(r)) == "ShapeError");
  r = base;
  r["input"][1][0][0] = -4.0;  // not SPD
  CHECK(error_type(ask(r)) == "DomainError");
  r = base;
  r["input"][1][0][0] = "NaN";
  CHECK(error_type(ask(r)) == "RequestError");
  r = base;
  r["state"] = {{"bias", {{1, 0}, {0, 1}}}};  // 2×2 bias for n = 3
  CHECK(error_type(ask(r)) == "ShapeError");
  r = base;
  r["state"] = {{"bias", {{1, 2, 0}, {2, 1, 0}, {0, 0, 1}}}};  // symmetric, not SPD
  CHECK(error_type(ask(r)) == "DomainError");
  r = base;
  r["params"]["metric"] = "BWM";
  CHECK(error_type(ask(r)) == "RequestError");
  r = base;
  r["params"]["theta"] = 0.0;
  CHECK(error_type(ask(r)) == "DomainError");
  r = base;
  r["grad_output"] = json::array({input[0]});  // one gradient for three points
  CHECK(error_type(ask(r)) == "ShapeError");
  r = base;
  r["mode"] = "infer";
  CHECK(error_type(ask(r)) == "RequestError");
  r = base;
  r["input"][0][0][0] = 1e300;  // huge: the batch is no longer SPD to working precision, or normalises
  const json huge = ask(r);
  CHECK((huge.contains("error") || huge.contains("output")));
}
