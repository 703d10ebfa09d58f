#pragma once
// `gyre check NETWORK.json`: builds the described network (double precision, evaluation mode),
// runs the equivariance checker on a seeded random input, and prints the table of per-element
// relative errors. The description:
//   {"gspace": "rot2d", "N": 8, "input": ["irrep_0"], "size": 29, "batch": 2, "seed": 1,
//    "layers": [{"type": "R2Conv", "out": ["regular", "regular"], "kernel_size": 5, "padding": 2},
//               {"type": "InnerBatchNorm"}, {"type": "ReLU"},
//               {"type": "PointwiseMaxPool", "kernel_size": 3, "stride": 2, "padding": 1},
//               {"type": "GroupPooling"}, {"type": "GlobalAveragePool"},
//               {"type": "Linear", "out": ["irrep_0", "irrep_0"]}],
//    "angles": [0, 45, 90]}   (optional, degrees; default: all of a finite group, 16 angles otherwise)
// Layer types: R2Conv (out, kernel_size, stride, padding, dilation, bias), Linear (out, bias),
// ReLU, ELU, NormReLU, Gated (the gated fields follow their gates), InnerBatchNorm,
// PointwiseMaxPool / PointwiseAvgPool (kernel_size, stride, padding), NormMaxPool (kernel_size,
// stride), GroupPooling, GlobalAveragePool, GroupDownsample (rate, subgroup: "same" | "rotations",
// anti_aliasing: true | false; later layers are over the subgroup, and the check uses its elements).
// "wrapper": "canonicalize" wraps the whole network in nn::RotationCanonicalized: its input must be
// trivial fields (a plain CNN: "gspace": "rot2d", "N": 1), the wrapped network takes SO(2)-scalar
// images, and the check draws rotations of SO(2) (16 angles, or "angles").

#include <iosfwd>
#include <memory>

#include <nlohmann/json.hpp>

#include "gyre/check/equivariance.hpp"
#include "gyre/nn/sequential.hpp"

namespace gyre::tools {

/// The network a description names (weights seeded, random), wrapped if it asks; RequestError/Gyre
/// errors on bad input.
[[nodiscard]] std::unique_ptr<nn::Sequential<double>> build_network(const nlohmann::json& description);

/// Builds, checks and returns the report for a description.
[[nodiscard]] check::EquivarianceReport check_network(const nlohmann::json& description);

/// `gyre check`: reads the description from `in`, prints the network and the table; returns 0, or 1
/// if an exact grid symmetry breaks equivariance by more than 1e-9.
int run_check(std::istream& in, std::ostream& out);

}  // namespace gyre::tools
