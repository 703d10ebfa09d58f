#include "group_downsample_request.hpp"

#include <cmath>
#include <set>
#include <string>

#include "gyre/core/error.hpp"
#include "gyre/repr/group_downsampling.hpp"
#include "json_codec.hpp"

namespace gyre::tools {
namespace {

using nlohmann::json;

int required_integer(const json& request, const char* key) {
  if (!request.contains(key) || !request[key].is_number_integer()) {
    throw RequestError(std::string("\"") + key + "\" must be an integer");
  }
  return request[key].get<int>();
}

// Signals as rows: one flat array is one signal; a list of arrays is a batch.
Eigen::MatrixXd decode_signals(const json& value, const std::string& what, int order, bool& single) {
  if (!value.is_array() || value.empty()) throw RequestError("\"" + what + "\" must be a non-empty array");
  single = !value.front().is_array();
  Eigen::MatrixXd signals = decode_matrix(value, what);
  if (single) signals.transposeInPlace();
  if (signals.cols() != order) {
    throw ShapeError("layer", what + " needs " + std::to_string(order) + " values per signal", signals.cols());
  }
  if (!signals.allFinite()) throw DomainError("layer", what + " must be finite", what);
  return signals;
}

json encode_signals(const Eigen::MatrixXd& rows, bool single) {
  if (single) return encode_vector(rows.transpose());
  json out = json::array();
  for (Eigen::Index i = 0; i < rows.rows(); ++i) out.push_back(encode_vector(rows.row(i).transpose()));
  return out;
}

}  // namespace

json answer_group_downsample(const json& request) {
  static const std::set<std::string> known{"layer",    "group",         "N",     "rate",
                                           "subgroup", "anti_aliasing", "input", "grad_output"};
  for (const auto& item : request.items()) {
    if (known.count(item.key()) == 0)
      throw RequestError("unknown key \"" + item.key() + "\" in a group_downsample request");
  }
  const std::string group_name = request.value("group", std::string());
  if (group_name != "cn" && group_name != "dn") throw RequestError("\"group\" must be \"cn\" or \"dn\"");
  const int n = required_integer(request, "N");
  if (n < 1) throw DomainError("layer", "N must be >= 1", n);
  const repr::PlanarGroup group = group_name == "cn" ? repr::PlanarGroup::cyclic(n) : repr::PlanarGroup::dihedral(n);
  const std::string family = request.value("subgroup", std::string("same"));
  if (family != "same" && family != "rotations") throw RequestError("\"subgroup\" must be \"same\" or \"rotations\"");
  const bool anti_aliasing = request.value("anti_aliasing", true);
  const repr::BandLimiting b = repr::band_limiting(
      repr::subsample_group(group, required_integer(request, "rate"),
                            family == "same" ? repr::SubgroupFamily::kSameFamily : repr::SubgroupFamily::kRotations));

  json elements = json::array();
  for (const int index : b.sampling.indices) {
    if (group.has_flips()) {
      elements.push_back(json::array({index / n, index % n}));
    } else {
      elements.push_back(index);
    }
  }
  Matrix<double> map = b.downsample;
  if (!anti_aliasing) {
    map.setZero();
    for (std::size_t i = 0; i < b.sampling.indices.size(); ++i) {
      map(static_cast<Eigen::Index>(i), b.sampling.indices[i]) = 1.0;
    }
  }
  json reply{{"subgroup", elements},
             {"subgroup_name", b.sampling.subgroup.name()},
             {"indices", b.sampling.indices},
             {"operator", encode_rows(map)},
             {"upsample", encode_rows(b.upsample)}};
  bool single = false;
  const Eigen::MatrixXd x = decode_signals(request.at("input"), "input", group.order(), single);
  const Eigen::MatrixXd y = x * map.transpose();
  // Each output is a weighted sum of |G| inputs with weights ≤ 1: only inputs near DBL_MAX overflow.
  if (!y.allFinite())
    throw DomainError("layer", "the output overflows (inputs near the largest double)", x.cwiseAbs().maxCoeff());
  reply["output"] = encode_signals(y, single);
  if (request.contains("grad_output")) {
    bool grad_single = false;
    const Eigen::MatrixXd g =
        decode_signals(request["grad_output"], "grad_output", b.sampling.subgroup.order(), grad_single);
    if (g.rows() != x.rows()) throw ShapeError("layer", "grad_output needs one signal per input signal", g.rows());
    const Eigen::MatrixXd grad = g * map;
    if (!grad.allFinite()) throw DomainError("layer", "grad_input overflows", g.cwiseAbs().maxCoeff());
    reply["grad_input"] = encode_signals(grad, grad_single);
  }
  return reply;
}

}  // namespace gyre::tools
