#pragma once
// One request through `gyre geom`'s answer function, and the error type of a reply.
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "geom_command.hpp"

namespace gyre::test {

inline nlohmann::json ask(const nlohmann::json& request) {
  gyre::tools::SpaceCache cache;
  return gyre::tools::answer(request.dump(), cache);
}

inline std::string error_type(const nlohmann::json& reply) {
  REQUIRE(reply.contains("error"));
  return reply["error"]["type"];
}

}  // namespace gyre::test
