#pragma once
// Cell output goes to Jupyter as JSON strings, which must be valid UTF-8, while a cell may print
// any bytes, and live output is read in pieces that can split a character in two.

#include <cstddef>
#include <string>
#include <string_view>

namespace gyre::kernel {

/// The length of the longest prefix of `text` that does not end inside a multi-byte character
/// (so that the rest can wait for the bytes still to come).
[[nodiscard]] std::size_t complete_utf8_prefix(std::string_view text);

/// `text` with every byte that is not part of a well-formed UTF-8 character replaced by U+FFFD.
[[nodiscard]] std::string valid_utf8(std::string_view text);

}  // namespace gyre::kernel
