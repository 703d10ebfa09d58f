#include "check_command.hpp"

#include <istream>
#include <memory>
#include <ostream>

#include <boost/math/constants/constants.hpp>

#include "gspace_json.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/nn/field_nonlinearity.hpp"
#include "gyre/nn/group_downsample.hpp"
#include "gyre/nn/inner_batch_norm.hpp"
#include "gyre/nn/pointwise_nonlinearity.hpp"
#include "gyre/nn/pooling.hpp"
#include "gyre/nn/r2conv.hpp"
#include "gyre/nn/rotation_canonicalized.hpp"
#include "json_codec.hpp"

namespace gyre::tools {
namespace {

using nlohmann::json;

// Grid symmetries of a square map are exact permutations: anything above rounding is a bug.
constexpr double kExactTolerance = 1e-9;

bool flag(const json& layer, const char* key, bool fallback) {
  if (!layer.contains(key)) return fallback;
  if (!layer[key].is_boolean()) throw RequestError(std::string("\"") + key + "\" must be true or false");
  return layer[key].get<bool>();
}

}  // namespace

std::unique_ptr<nn::Sequential<double>> build_network(const json& description) {
  if (!description.is_object()) throw RequestError("a network description must be a JSON object");
  repr::PlanarGroup group = group_of(description);  // a GroupDownsample moves later layers to its subgroup
  nn::FieldType type = field_type_of(description, "input", group);
  if (!description.contains("layers") || !description["layers"].is_array() || description["layers"].empty()) {
    throw RequestError("\"layers\" must be a non-empty array of layer objects");
  }
  auto net = std::make_unique<nn::Sequential<double>>();
  std::uint64_t seed = static_cast<std::uint64_t>(integer_field(description, "seed", 1, false));
  for (const json& layer : description["layers"]) {
    if (!layer.is_object() || !layer.contains("type") || !layer["type"].is_string()) {
      throw RequestError("each layer needs a \"type\": " + layer.dump());
    }
    const std::string kind = layer["type"];
    const bool windowed =
        kind == "R2Conv" || kind == "PointwiseMaxPool" || kind == "PointwiseAvgPool" || kind == "NormMaxPool";
    const int kernel = integer_field(layer, "kernel_size", 1, windowed);
    if (kind == "R2Conv" || kind == "Linear") {
      const nn::FieldType out = field_type_of(layer, "out", group);
      nn::R2ConvOptions options;
      options.stride = integer_field(layer, "stride", 1, false);
      options.padding = integer_field(layer, "padding", 0, false);
      options.dilation = integer_field(layer, "dilation", 1, false);
      options.bias = flag(layer, "bias", true);
      options.seed = seed++;
      if (kind == "R2Conv") {
        net->emplace<nn::R2Conv<double>>(type, out, kernel, options);
      } else {
        net->emplace<nn::EquivariantLinear<double>>(type, out, options.bias, options.seed);
      }
      type = out;
    } else if (kind == "ReLU") {
      net->emplace<nn::PointwiseReLU<double>>(type);
    } else if (kind == "ELU") {
      net->emplace<nn::PointwiseELU<double>>(type);
    } else if (kind == "NormReLU") {
      net->emplace<nn::NormReLU<double>>(type);
    } else if (kind == "Gated") {
      // The current type is [gates…, gated…]: the gated part is everything after the trivial gates.
      const int gated = static_cast<int>(integer_field(layer, "gated_fields", 0, true));
      if (!(gated >= 1 && 2 * gated <= type.n_fields()))
        throw RequestError("\"gated_fields\" must be in [1, fields/2]");
      std::vector<repr::Representation> fields(type.fields().end() - gated, type.fields().end());
      nn::GatedNonlinearity<double>& gate = net->emplace<nn::GatedNonlinearity<double>>(nn::FieldType(group, fields));
      type = gate.out_type().fields("build_network");
    } else if (kind == "InnerBatchNorm") {
      net->emplace<nn::InnerBatchNorm<double>>(type);
    } else if (kind == "PointwiseMaxPool") {
      net->emplace<nn::PointwiseMaxPool<double>>(type, kernel, integer_field(layer, "stride", kernel, false),
                                                 integer_field(layer, "padding", 0, false));
    } else if (kind == "PointwiseAvgPool") {
      net->emplace<nn::PointwiseAvgPool<double>>(type, kernel, integer_field(layer, "stride", kernel, false),
                                                 integer_field(layer, "padding", 0, false));
    } else if (kind == "NormMaxPool") {
      net->emplace<nn::NormMaxPool<double>>(type, kernel, integer_field(layer, "stride", kernel, false));
    } else if (kind == "GroupPooling") {
      type = net->emplace<nn::GroupPooling<double>>(type).out_type().fields("build_network");
    } else if (kind == "GlobalAveragePool") {
      net->emplace<nn::GlobalAveragePool<double>>(type);
    } else if (kind == "GroupDownsample") {
      const std::string family = layer.value("subgroup", std::string("same"));
      if (family != "same" && family != "rotations")
        throw RequestError("\"subgroup\" must be \"same\" or \"rotations\"");
      type = net->emplace<nn::GroupDownsample<double>>(
                    type, integer_field(layer, "rate", 0, true),
                    family == "same" ? repr::SubgroupFamily::kSameFamily : repr::SubgroupFamily::kRotations,
                    flag(layer, "anti_aliasing", true))
                 .out_type()
                 .fields("build_network");
      group = type.group();
    } else {
      throw RequestError("unknown layer type \"" + kind + "\"");
    }
  }
  if (description.contains("wrapper")) {
    if (description["wrapper"] != "canonicalize") throw RequestError("\"wrapper\" must be \"canonicalize\"");
    auto wrapped = std::make_unique<nn::Sequential<double>>();
    wrapped->emplace<nn::RotationCanonicalized<double>>(std::shared_ptr<nn::Sequential<double>>(std::move(net)));
    net = std::move(wrapped);
  }
  net->eval();
  return net;
}

check::EquivarianceReport check_network(const json& description) {
  auto net = build_network(description);
  const int size = integer_field(description, "size", 29, false);
  const int batch = integer_field(description, "batch", 2, false);
  if (!(size >= 1 && batch >= 1)) throw RequestError("\"size\" and \"batch\" must be positive");
  Rng rng(static_cast<std::uint64_t>(integer_field(description, "seed", 1, false)));
  const nn::FieldType& in_fields = net->in_type().fields("check_network");
  xt::xtensor<double, 4> x = xt::xtensor<double, 4>::from_shape(
      {std::size_t(batch), std::size_t(in_fields.size()), std::size_t(size), std::size_t(size)});
  for (double& v : x) v = rng.normal<double>();
  std::vector<repr::PlanarElement> elements;
  if (description.contains("angles")) {
    for (const json& a : description["angles"]) {
      if (!a.is_number()) throw RequestError("\"angles\" must be numbers (degrees)");
      const double angle = a.get<double>() * boost::math::constants::pi<double>() / 180;
      // The output's group: a GroupDownsample keeps only its subgroup's symmetry.
      const repr::PlanarGroup& out_group =
          net->out_type().has_fields() ? net->out_type().fields().group() : in_fields.group();
      for (int f = 0; f < (out_group.has_flips() ? 2 : 1); ++f) elements.push_back({f, angle});
    }
  }
  return check::check_equivariance(*net, nn::GeometricTensor<double>(net->in_type(), std::move(x)), elements);
}

int run_check(std::istream& in, std::ostream& out) {
  const json description = json::parse(in);
  const auto net = build_network(description);
  out << net->describe() << "\n\n";
  const check::EquivarianceReport report = check_network(description);
  out << report.table();
  const bool exact = report.equivariant_on_grid(kExactTolerance);
  out << "\nmax error on exact grid symmetries: " << report.max_grid_symmetry_error();
  if (exact) {
    out << " (equivariant to rounding)\n";
  } else if (report.zero_output()) {
    out << " (the output is identically zero, so the check proves nothing: NOT verified)\n";
  } else {
    out << " (NOT equivariant)\n";
  }
  return exact ? 0 : 1;
}

}  // namespace gyre::tools
