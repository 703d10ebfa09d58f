#include "gspace_json.hpp"

#include <vector>

#include "gyre/repr/representation.hpp"
#include "json_codec.hpp"

namespace gyre::tools {

using nlohmann::json;

int integer_field(const json& request, const char* key, int fallback, bool required) {
  if (!request.contains(key)) {
    if (required) throw RequestError(std::string("missing \"") + key + "\" (an integer)");
    return fallback;
  }
  const json& value = request[key];
  if (!value.is_number_integer())
    throw RequestError(std::string("\"") + key + "\" must be an integer: " + value.dump());
  return value.get<int>();
}

repr::PlanarGroup group_of(const json& request) {
  if (!request.contains("gspace") || !request["gspace"].is_string()) {
    throw RequestError("missing \"gspace\" (\"rot2d\", \"fliprot2d\" or \"flip2d\")");
  }
  const std::string gspace = request["gspace"];
  if (gspace == "flip2d") return repr::PlanarGroup::dihedral(1);
  const int n = integer_field(request, "N", 0, true);
  const int max_frequency = integer_field(request, "maximum_frequency", 6, false);
  if (gspace == "rot2d") return n == -1 ? repr::PlanarGroup::so2(max_frequency) : repr::PlanarGroup::cyclic(n);
  if (gspace == "fliprot2d") return n == -1 ? repr::PlanarGroup::o2(max_frequency) : repr::PlanarGroup::dihedral(n);
  throw RequestError("unknown gspace \"" + gspace + "\" (rot2d, fliprot2d or flip2d)");
}

nn::FieldType field_type_of(const json& request, const char* key, const repr::PlanarGroup& group) {
  if (!request.contains(key) || !request[key].is_array() || request[key].empty()) {
    throw RequestError(std::string("\"") + key + "\" must be a non-empty array of field names");
  }
  std::vector<repr::Representation> fields;
  for (const json& name : request[key]) {
    if (!name.is_string()) throw RequestError(std::string("field names must be strings: ") + name.dump());
    fields.push_back(repr::representation_by_name(group, name.get<std::string>()));
  }
  return nn::FieldType(group, std::move(fields));
}

}  // namespace gyre::tools
