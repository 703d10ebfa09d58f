#pragma once
// `gyre geom`: a JSON-lines calculator over every registered space. One request object per input
// line, one reply object per output line (flushed), so any language can drive Gyre through a pipe.
//   request  {"space": NAME, "params": {...}, "op": OP, "args": [...]}
//   reply    {"result": R}  or  {"error": {"type": "DomainError", "message": "gyre::…"}}

#include <iosfwd>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "gyre/geometry/any_manifold.hpp"

namespace gyre::tools {

/// The spaces a session has built, by (name, params), so that a long session builds each once.
class SpaceCache {
 public:
  const AnyManifold& get(const std::string& name, const SpaceParams& params);

 private:
  std::map<std::string, AnyManifold> spaces_;
};

/// Answers one request; never throws (errors become error replies).
[[nodiscard]] nlohmann::json answer(const std::string& line, SpaceCache& cache);

/// Reads requests from in until EOF and writes one reply per non-blank line to out, flushing each.
void run_geom(std::istream& in, std::ostream& out);

/// The `gyre geom --list` text: every registered space with its parameters.
[[nodiscard]] std::string list_spaces();

}  // namespace gyre::tools
