// The assembled text is what the JIT and the notebook gate compile: pragmas out, statements
// wrapped in numbered static initializers in source order, #line markers naming the cell.

#include "cell_program.hpp"

#include <stdexcept>
#include <string>

#include <doctest/doctest.h>

#include "cell_splitter.hpp"

using gyre::kernel::assemble_cell;
using gyre::kernel::ClingPragma;
using gyre::kernel::parse_cling_pragma;
using gyre::kernel::split_cell;

TEST_CASE("cell program: the three cling pragmas notebooks use are parsed") {
  const auto load = parse_cling_pragma("#pragma cling load(\"libgyre\")");
  CHECK(load.kind == ClingPragma::Kind::load);
  CHECK(load.argument == "libgyre");
  const auto include = parse_cling_pragma("#pragma cling add_include_path( \"/usr/local/include\" )");
  CHECK(include.kind == ClingPragma::Kind::add_include_path);
  CHECK(include.argument == "/usr/local/include");
  const auto library = parse_cling_pragma("#  pragma cling add_library_path(\"/opt/lib\")");
  CHECK(library.kind == ClingPragma::Kind::add_library_path);
  CHECK(library.argument == "/opt/lib");
}

TEST_CASE("cell program: other or malformed cling pragmas are errors naming the line") {
  CHECK_THROWS_WITH_AS(static_cast<void>(parse_cling_pragma("#pragma cling optimize(2)")),
                       doctest::Contains("optimize"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(static_cast<void>(parse_cling_pragma("#pragma cling load(libgyre)")),
                       doctest::Contains("quoted"), std::invalid_argument);
  CHECK_THROWS_AS(static_cast<void>(parse_cling_pragma("#pragma cling load")), std::invalid_argument);
}

TEST_CASE("cell program: statements run in numbered static initializers, declarations stay as written") {
  int group = 4;
  const std::string code = assemble_cell(
      split_cell("#pragma cling load(\"libgyre\")\nint x = 1;\nx += 1;\nx *= 3;\nint y = x;\nstd::cout << y"), "In[2]",
      group);
  CHECK(group == 6);  // two runs of statements
  CHECK(code.find("cling") == std::string::npos);
  const auto first = code.find("static const int gyre_kernel_statements_4 = gyre_kernel_run_statements(\"In[2]\"");
  const auto second = code.find("static const int gyre_kernel_statements_5");
  REQUIRE(first != std::string::npos);
  REQUIRE(second != std::string::npos);
  // Source order: x's declaration, the first group (both statements), y's declaration, the second.
  CHECK(code.find("int x = 1;") < first);
  CHECK(first < code.find("x += 1;"));
  CHECK(code.find("x += 1;") < code.find("x *= 3;"));
  CHECK(code.find("x *= 3;") < code.find("int y = x;"));
  CHECK(code.find("int y = x;") < second);
  CHECK(code.find("#line 3 \"In[2]\"\nx += 1;") != std::string::npos);
  CHECK(code.find("#line 2 \"In[2]\"\nint x = 1;") != std::string::npos);
  // The missing last semicolon is added.
  CHECK(code.find("std::cout << y;") != std::string::npos);
}

TEST_CASE("cell program: a cell of declarations only has no statement runner") {
  int group = 0;
  const std::string code = assemble_cell(split_cell("int f() { return 1; }\nstruct S {};"), "In[1]", group);
  CHECK(group == 0);
  CHECK(code.find("gyre_kernel_run_statements") == std::string::npos);
}
