#include "canonicalize_request.hpp"

#include <set>
#include <string>
#include <vector>

#include "gyre/core/error.hpp"
#include "gyre/nn/lorentz_canonicalization.hpp"
#include "gyre/nn/rotation_canonicalization.hpp"
#include "gyre/repr/representation.hpp"
#include "json_codec.hpp"

namespace gyre::tools {
namespace {

using nlohmann::json;

void require_known(const json& request, const std::set<std::string>& known) {
  for (const auto& item : request.items()) {
    if (known.count(item.key()) == 0) {
      throw RequestError("unknown key \"" + item.key() + "\" in a canonicalize request");
    }
  }
}

// One image (rows) or several channels (a list of images), as (1, C, H, W) scalar fields of SO(2).
nn::GeometricTensor<double> decode_image(const json& input, bool& single) {
  if (!input.is_array() || input.empty() || !input.front().is_array() || input.front().empty()) {
    throw RequestError("\"input\" must be an image (a list of rows) or a list of images");
  }
  single = !input.front().front().is_array();
  std::vector<Eigen::MatrixXd> channels;
  if (single) {
    channels.push_back(decode_matrix(input, "input"));
  } else {
    for (const json& channel : input) channels.push_back(decode_matrix(channel, "input"));
  }
  const Eigen::Index h = channels.front().rows(), w = channels.front().cols();
  for (const Eigen::MatrixXd& c : channels) {
    if (c.rows() != h || c.cols() != w) throw ShapeError("layer", "every channel must have the first's size", c.rows());
  }
  const auto so2 = repr::PlanarGroup::so2(4);
  const int count = static_cast<int>(channels.size());
  xt::xarray<double> data = xt::zeros<double>(
      {std::size_t{1}, static_cast<std::size_t>(count), static_cast<std::size_t>(h), static_cast<std::size_t>(w)});
  for (int c = 0; c < count; ++c) {
    for (Eigen::Index r = 0; r < h; ++r) {
      for (Eigen::Index k = 0; k < w; ++k) {
        data(0, static_cast<std::size_t>(c), static_cast<std::size_t>(r), static_cast<std::size_t>(k)) =
            channels[static_cast<std::size_t>(c)](r, k);
      }
    }
  }
  return nn::GeometricTensor<double>(nn::FieldType(so2, repr::trivial_representation(so2), count), std::move(data));
}

json encode_image(const nn::GeometricTensor<double>& x, bool single) {
  const std::size_t channels = x.data.shape()[1], h = x.data.shape()[2], w = x.data.shape()[3];
  json images = json::array();
  for (std::size_t c = 0; c < channels; ++c) {
    Eigen::MatrixXd m(static_cast<Eigen::Index>(h), static_cast<Eigen::Index>(w));
    for (std::size_t r = 0; r < h; ++r) {
      for (std::size_t k = 0; k < w; ++k)
        m(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(k)) = x.data(0, c, r, k);
    }
    images.push_back(encode_rows(m));
  }
  return single ? images.front() : images;
}

json rotation(const json& request) {
  require_known(request, {"layer", "group", "input", "weights", "sigma"});
  nn::RotationTemplate shape;
  if (request.contains("weights")) {
    if (!request["weights"].is_array() || request["weights"].empty()) {
      throw RequestError("\"weights\" must be a non-empty list of numbers");
    }
    shape.weights.clear();
    for (const json& a : request["weights"]) {
      if (!a.is_number()) throw RequestError("\"weights\" must be numbers");
      shape.weights.push_back(a.get<double>());
    }
  }
  if (request.contains("sigma")) {
    if (!request["sigma"].is_number()) throw RequestError("\"sigma\" must be a number");
    shape.sigma = request["sigma"].get<double>();
  }
  bool single = true;
  const nn::GeometricTensor<double> x = decode_image(request.at("input"), single);
  const nn::CanonicalRotation r = nn::canonical_rotations(x, shape).front();
  return json{{"angle", r.angle},
              {"energy", r.energy},
              {"ambiguous", r.ambiguous},
              {"iterations", r.iterations},
              {"canonical", encode_image(nn::canonicalize_rotation(x, {r}), single)}};
}

json lorentz(const json& request) {
  require_known(request, {"layer", "group", "input", "alignment"});
  nn::LorentzCanonicalizationOptions options;
  if (request.contains("alignment")) {
    if (!request["alignment"].is_number()) throw RequestError("\"alignment\" must be a number");
    options.alignment = request["alignment"].get<double>();
  }
  if (!request.contains("input") || !request["input"].is_array() || request["input"].empty() ||
      !request["input"].front().is_array()) {
    throw RequestError("\"input\" must be a list of 4-momenta [E, px, py, pz]");
  }
  const Eigen::MatrixXd momenta = decode_matrix(request["input"], "input");
  const nn::LorentzCanonicalFrame frame = nn::canonical_lorentz_frame(momenta, options);
  return json{{"transform", encode_rows(frame.transform)},
              {"canonical", encode_rows(nn::canonicalize_lorentz(momenta, frame))},
              {"iterations", frame.iterations},
              {"gradient", frame.gradient}};
}

}  // namespace

json answer_canonicalize(const json& request) {
  const std::string group = request.value("group", std::string());
  if (group == "so2") return rotation(request);
  if (group == "lorentz") return lorentz(request);
  throw RequestError("\"group\" must be \"so2\" or \"lorentz\"");
}

}  // namespace gyre::tools
