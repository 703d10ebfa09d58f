#pragma once
// `gyre basis`: a JSON-lines command to inspect and cross-check steerable kernel bases.
//   request  {"gspace": "rot2d" | "fliprot2d" | "flip2d", "N": 8, "maximum_frequency": 2,
//             "kernel_size": 5, "in": ["regular", "irrep_1"], "out": ["irrep_0"],
//             optional "rings", "sigma", "max_frequency_per_ring" (all three), "dilation"}
//   reply    {"dim": learnable weights, "rank": numerical rank of the sampled basis,
//             "bias_dim": learnable biases, "group": "C8"}  or an error reply as in `gyre geom`.
// N = −1 selects SO(2) (rot2d) or O(2) (fliprot2d), band-limited by maximum_frequency (default 6,
// escnn's); field names are escnn's: irrep_k, irrep_j,k, regular, regular_L. flip2d (and fliprot2d
// with N = 1) is the group of one flip (x ↦ −x), with escnn's irrep_0 (trivial) and irrep_1 (sign).

#include <iosfwd>
#include <string>

#include <nlohmann/json.hpp>

namespace gyre::tools {

/// Answers one request; never throws (errors become error replies).
[[nodiscard]] nlohmann::json answer_basis(const std::string& line);

/// Reads requests until EOF, one reply per non-blank line, flushed.
void run_basis(std::istream& in, std::ostream& out);

}  // namespace gyre::tools
