// Cell output becomes JSON strings: whatever a cell prints must arrive as valid UTF-8, and live
// output read in pieces must not split a character.

#include "utf8_text.hpp"

#include <string>

#include <doctest/doctest.h>

using gyre::kernel::complete_utf8_prefix;
using gyre::kernel::valid_utf8;

TEST_CASE("utf8: a piece that ends inside a character keeps that character for later") {
  const std::string degree = "\xC2\xB0";         // °, 2 bytes
  const std::string gamma = "\xCE\xB3";          // γ
  const std::string arrow = "\xE2\x86\x92";      // →, 3 bytes
  const std::string emoji = "\xF0\x9F\x93\x88";  // 📈, 4 bytes
  CHECK(complete_utf8_prefix("90" + degree) == 4);
  CHECK(complete_utf8_prefix("90" + degree.substr(0, 1)) == 2);
  CHECK(complete_utf8_prefix("a" + arrow.substr(0, 2)) == 1);
  CHECK(complete_utf8_prefix("a" + emoji.substr(0, 3)) == 1);
  CHECK(complete_utf8_prefix("a" + emoji) == 5);
  CHECK(complete_utf8_prefix(gamma + "(t)") == 5);
  CHECK(complete_utf8_prefix("") == 0);
  // A malformed byte at the end is not waited for: it will never complete.
  CHECK(complete_utf8_prefix("a\xFF") == 2);
}

TEST_CASE("utf8: malformed bytes become U+FFFD, well-formed text is unchanged") {
  const std::string text = "loss 0.31 \xCE\xB3(t) \xE2\x86\x92 90\xC2\xB0 \xF0\x9F\x93\x88";
  CHECK(valid_utf8(text) == text);
  CHECK(valid_utf8("a\xFF"
                   "b") ==
        "a\xEF\xBF\xBD"
        "b");
  CHECK(valid_utf8("\xC0\xAF") == "\xEF\xBF\xBD\xEF\xBF\xBD");                  // overlong '/'
  CHECK(valid_utf8("\xED\xA0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
  CHECK(valid_utf8("end\xE2\x86") == "end\xEF\xBF\xBD\xEF\xBF\xBD");            // cut short
}
