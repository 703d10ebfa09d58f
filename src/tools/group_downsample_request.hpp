#pragma once
// `gyre layer` for group downsampling (repr/group_downsampling.hpp), so any language can check the
// subgroup, the anti-aliasing operator and the reconstruction against the reference code:
//   request  {"layer": "group_downsample", "group": "cn" | "dn", "N": 8, "rate": 2,
//             "subgroup": "same" (C_N → C_{N/k}, D_N → D_{N/k}) | "rotations" (D_N → C_{2N/k}),
//             "anti_aliasing": true | false, "input": signal or [signals], "grad_output": same shape}
//   reply    {"subgroup": [H's elements in H's escnn order, as G's escnn parameters: k (cn) or [f, k] (dn)],
//             "subgroup_name": "D4", "indices": [f·N + k per element: Group_Sampling's node numbers],
//             "operator": D (|H| rows of |G|), "upsample": U (|G| rows of |H|),
//             "output": D·x (or S·x without anti-aliasing) per signal, "grad_input": Dᵀ·ḡ per signal}
// A signal is |G| values in escnn's element order (C_N: k; D_N: f·N + k).

#include <nlohmann/json.hpp>

namespace gyre::tools {

/// Answers one parsed group_downsample request (throws RequestError / gyre errors on bad input).
[[nodiscard]] nlohmann::json answer_group_downsample(const nlohmann::json& request);

}  // namespace gyre::tools
