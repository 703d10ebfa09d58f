#include "basis_command.hpp"

#include <iostream>
#include <vector>

#include "gspace_json.hpp"
#include "gyre/nn/field_kernel_basis.hpp"
#include "gyre/repr/representation.hpp"
#include "json_codec.hpp"

namespace gyre::tools {
namespace {

using nlohmann::json;

template <class V>
std::vector<V> array_field(const json& request, const char* key) {
  const json& value = request[key];
  if (!value.is_array()) throw RequestError(std::string("\"") + key + "\" must be an array of numbers");
  std::vector<V> result;
  for (const json& v : value) {
    if (!v.is_number()) throw RequestError(std::string("\"") + key + "\" has a non-numeric entry: " + v.dump());
    result.push_back(v.get<V>());
  }
  return result;
}

json answer_parsed(const json& request) {
  if (!request.is_object()) throw RequestError("a request must be a JSON object");
  const repr::PlanarGroup group = group_of(request);
  const int kernel_size = integer_field(request, "kernel_size", 0, true);
  const int dilation = integer_field(request, "dilation", 1, false);
  const nn::FieldType in = field_type_of(request, "in", group);
  const nn::FieldType out = field_type_of(request, "out", group);
  const int given = static_cast<int>(request.contains("rings")) + static_cast<int>(request.contains("sigma")) +
                    static_cast<int>(request.contains("max_frequency_per_ring"));
  if (given != 0 && given != 3) {
    throw RequestError("give all of \"rings\", \"sigma\" and \"max_frequency_per_ring\", or none");
  }
  const nn::BasisParams params =
      given == 3 ? nn::make_basis_params(array_field<double>(request, "rings"), array_field<double>(request, "sigma"),
                                         array_field<int>(request, "max_frequency_per_ring"))
                 : nn::default_basis_params(kernel_size, dilation);
  const auto basis = nn::cached_field_kernel_basis(out, in, kernel_size, params, dilation);
  return json{{"dim", basis->dim()}, {"rank", basis->rank()}, {"bias_dim", basis->bias_dim()}, {"group", group.name()}};
}

}  // namespace

json answer_basis(const std::string& line) {
  return reply_or_error([&] { return answer_parsed(json::parse(line)); });
}

void run_basis(std::istream& in, std::ostream& out) {
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    out << answer_basis(line).dump() << std::endl;  // endl: flush each reply for pipes
  }
}

}  // namespace gyre::tools
