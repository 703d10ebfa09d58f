#pragma once
// `gyre layer` for orbit canonicalization (nn/rotation_canonicalization.hpp,
// nn/lorentz_canonicalization.hpp), so any language can check θ* or Λ* and the canonical input:
//   {"layer": "canonicalize", "group": "so2", "input": [image rows] or [[rows of channel 0], …],
//    "weights": [a₁, a₂, …], "sigma": σ}
//     → {"angle": θ*, "energy": E(θ*), "ambiguous": bool, "iterations": n, "canonical": image(s)}
//   {"layer": "canonicalize", "group": "lorentz", "input": [[E, px, py, pz], …], "alignment": ε}
//     → {"transform": Λ* (4 rows), "canonical": [Λ*⁻¹·pᵢ], "iterations": n, "gradient": ‖∇c‖/Σq⁰}

#include <nlohmann/json.hpp>

namespace gyre::tools {

/// Answers one parsed canonicalize request (throws RequestError / gyre errors on bad input).
[[nodiscard]] nlohmann::json answer_canonicalize(const nlohmann::json& request);

}  // namespace gyre::tools
