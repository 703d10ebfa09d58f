#include "utf8_text.hpp"

namespace gyre::kernel {
namespace {

// The length of the well-formed character starting at text[i] (1 to 4), 0 if it is malformed,
// or -1 if it is a correct start that the text cuts short.
int character_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  int length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the allowed range of the second byte
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // no overlong forms
    if (lead == 0xED) high = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  for (int k = 1; k < length; ++k) {
    if (i + static_cast<std::size_t>(k) >= text.size()) return -1;
    const unsigned char c = byte(i + static_cast<std::size_t>(k));
    if (c < (k == 1 ? low : 0x80) || c > (k == 1 ? high : 0xBF)) return 0;
  }
  return length;
}

}  // namespace

std::size_t complete_utf8_prefix(std::string_view text) {
  // Only the last three bytes can begin a character that is cut short.
  const std::size_t from = text.size() > 3 ? text.size() - 3 : 0;
  for (std::size_t i = from; i < text.size(); ++i) {
    if (character_length(text, i) == -1) return i;
  }
  return text.size();
}

std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const int length = character_length(text, i);
    if (length > 0) {
      out.append(text.substr(i, static_cast<std::size_t>(length)));
      i += static_cast<std::size_t>(length);
    } else {
      out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
      ++i;
    }
  }
  return out;
}

}  // namespace gyre::kernel
