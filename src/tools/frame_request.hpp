#pragma once
// `gyre layer` for frame averaging's frames (nn/point_frames.hpp):
//   request  {"layer": "frame", "group": "o" | "so" | "e" | "se", "n": d (2 or 3), "input": [P points of d]}
//   reply    {"frame": [R as d rows, one per element], "translation": t, "canonical": [(X − t)·R per element],
//             "eigenvalues": of Σ/s² in decreasing order, "degenerate": whether the tie rule chose axes}

#include <nlohmann/json.hpp>

namespace gyre::tools {

/// Answers one parsed frame request (throws RequestError / gyre errors on bad input).
[[nodiscard]] nlohmann::json answer_frame(const nlohmann::json& request);

}  // namespace gyre::tools
