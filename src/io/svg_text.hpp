#pragma once
// Text inside SVG elements: the five characters XML reserves, escaped. Shared by the SVG writers.

#include <string>

namespace gyre::io {

[[nodiscard]] inline std::string svg_escape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace gyre::io
