#pragma once
// Reads escnn's gspace names as escnn.json writes them: "rot2dOnR2(N=8)",
// "flipRot2dOnR2(N=4)", "rot2dOnR2(N=-1,maximum_frequency=2)".

#include <cstdio>
#include <stdexcept>
#include <string>

namespace gyre::test {

struct EscnnGspace {
  bool flips = false;
  int n = 0;                   // N; -1 for the continuous group
  int maximum_frequency = -1;  // -1 when the name does not give one
};

inline EscnnGspace parse_escnn_gspace(const std::string& name) {
  EscnnGspace result;
  result.flips = name.rfind("flipRot2d", 0) == 0;
  const std::size_t at = name.find("(N=");
  if (at == std::string::npos) throw std::runtime_error("not an escnn gspace name: " + name);
  char close = 0;
  // sscanf rather than std::regex: GCC 12's <regex> trips -Wmaybe-uninitialized in the sanitizer build.
  if (std::sscanf(name.c_str() + at, "(N=%d,maximum_frequency=%d%c", &result.n, &result.maximum_frequency, &close) ==
          3 &&
      close == ')') {
    return result;
  }
  result.maximum_frequency = -1;
  if (std::sscanf(name.c_str() + at, "(N=%d%c", &result.n, &close) == 2 && close == ')') return result;
  throw std::runtime_error("not an escnn gspace name: " + name);
}

}  // namespace gyre::test
