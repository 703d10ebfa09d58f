#include "frame_request.hpp"

#include <set>
#include <string>

#include "gyre/core/error.hpp"
#include "gyre/nn/point_frames.hpp"
#include "json_codec.hpp"

namespace gyre::tools {
namespace {

using nlohmann::json;

}  // namespace

json answer_frame(const json& request) {
  static const std::set<std::string> known{"layer", "group", "n", "input"};
  for (const auto& item : request.items()) {
    if (known.count(item.key()) == 0) throw RequestError("unknown key \"" + item.key() + "\" in a frame request");
  }
  const std::string name = request.value("group", std::string());
  nn::FrameGroup group;
  if (name == "o") {
    group = nn::FrameGroup::kO;
  } else if (name == "so") {
    group = nn::FrameGroup::kSO;
  } else if (name == "e") {
    group = nn::FrameGroup::kE;
  } else if (name == "se") {
    group = nn::FrameGroup::kSE;
  } else {
    throw RequestError("\"group\" must be \"o\", \"so\", \"e\" or \"se\"");
  }
  if (!request.contains("n") || !request["n"].is_number_integer())
    throw RequestError("\"n\" must be an integer (2 or 3)");
  const int d = request["n"].get<int>();
  if (!request.contains("input") || !request["input"].is_array() || request["input"].empty() ||
      !request["input"].front().is_array()) {
    throw RequestError("\"input\" must be a non-empty list of points");
  }
  const Eigen::MatrixXd points = decode_matrix(request["input"], "input");
  if (points.cols() != d)
    throw ShapeError("layer", "each point needs n = " + std::to_string(d) + " coordinates", points.cols());
  const nn::PointFrame frame = nn::point_frame(group, points);
  json rotations = json::array(), canonical = json::array();
  const Eigen::MatrixXd centred = points.rowwise() - frame.centre.transpose();
  for (const Matrix<double>& r : frame.rotations) {
    rotations.push_back(encode_rows(r));
    canonical.push_back(encode_rows(centred * r));
  }
  return json{{"frame", rotations},
              {"translation", encode_vector(frame.centre)},
              {"canonical", canonical},
              {"eigenvalues", encode_vector(frame.eigenvalues)},
              {"degenerate", frame.degenerate}};
}

}  // namespace gyre::tools
