#pragma once
// Reading escnn-style gspaces and field types from JSON requests (gyre basis, gyre check):
//   "gspace": "rot2d" | "fliprot2d" | "flip2d", "N": 8 (−1: SO(2)/O(2)), "maximum_frequency": L,
//   fields by escnn's names: irrep_k, irrep_j,k, regular, regular_L (flip2d and
//   fliprot2d with N = 1, the flip group escnn builds as C₂: irrep_0, irrep_1).

#include <nlohmann/json.hpp>

#include "gyre/nn/field_type.hpp"

namespace gyre::tools {

/// request[key] as an int; `fallback` when absent and not required (RequestError otherwise).
int integer_field(const nlohmann::json& request, const char* key, int fallback, bool required);
/// The group named by "gspace", "N" and "maximum_frequency" (default 6, escnn's).
repr::PlanarGroup group_of(const nlohmann::json& request);
/// request[key], an array of field names, as a field type.
nn::FieldType field_type_of(const nlohmann::json& request, const char* key, const repr::PlanarGroup& group);

}  // namespace gyre::tools
