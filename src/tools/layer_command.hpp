#pragma once
// `gyre layer`: a JSON-lines runner for Gyre's manifold layers, so that any language can run one
// forward (and backward) and compare it with another implementation (the papers' PyTorch code).
// One request object per input line, one reply per output line (flushed).
//   request  {"layer": "liebn" | "gyrobn" | "rbn" | "spdnet_bn" | "reeig" | "logeig" | "bimap",
//             "space": "spd" | "so" (liebn) | "grassmann" | "ball" | "stereographic" | "hyperboloid",
//             "params": {"n", "p", "kappa", "metric": "LEM" | "LCM" | "AIM" | "BWM", "theta", "alpha",
//                        "beta", "n_out", "eps"},
//             "options": {"eps", "momentum", "mean": "converged" | "reference", "karcher_steps",
//                         "tolerance", "max_iterations", "detach"},
//             "state": {"bias", "scale" | "variance", "running_mean", "running_variance", "weight"},
//             "mode": "train" | "eval", "input": [points], "grad_output": [points]}
//   reply    {"output": [points], "batch_mean": M, "batch_variance": v, "state": {…after the update},
//             "grad_input": [points], "grad_state": {…}}   (grad_* only with grad_output)
//            or {"error": {"type": "DomainError" | "ShapeError" | "RequestError" | …, "message": …}}
// Group downsampling ("layer": "group_downsample"), frame averaging's frames ("layer": "frame") and
// orbit canonicalization ("layer": "canonicalize") take their own keys: group_downsample_request.hpp,
// frame_request.hpp, canonicalize_request.hpp.
// Points are n×n matrices as lists of rows (as `gyre geom` writes them); one channel per request.
// LieBN's "scale" is s (the reference's `shift`, a standard deviation); "variance" may be given
// instead as s². "batch_mean" and "running_mean" are in deformed coordinates, as the reference
// keeps them (log X under LEM, ⌊L⌋ + log D(L) under LCM, X^θ under AIM).

#include <iosfwd>
#include <string>

#include <nlohmann/json.hpp>

namespace gyre::tools {

/// Answers one request line; never throws (errors become error replies).
[[nodiscard]] nlohmann::json answer_layer(const std::string& line);

/// Reads requests from in until EOF and writes one reply per non-blank line to out, flushing each.
void run_layer(std::istream& in, std::ostream& out);

}  // namespace gyre::tools
