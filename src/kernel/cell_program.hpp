#pragma once
// Turns the pieces of a cell (cell_splitter.hpp) into C++ that a compiler takes at namespace scope:
// directives and declarations as written, each run of statements as the initializer of a static
// variable, so that the whole cell stays one input and runs in source order. `#line N "In[k]"`
// before every piece makes diagnostics read `In[k]:N:col: error: …`. The same text serves the
// kernel's JIT and the notebook gate, which compiles a whole notebook as one program.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cell_splitter.hpp"

namespace gyre::kernel {

/// A `#pragma cling …` line: add_include_path("dir"), add_library_path("dir") or load("lib").
struct ClingPragma {
  enum class Kind { add_include_path, add_library_path, load };
  Kind kind;
  std::string argument;
};

/// The pragma of a `#pragma cling …` directive; std::invalid_argument naming the pragma when it
/// is not one of the three that notebooks use.
[[nodiscard]] ClingPragma parse_cling_pragma(std::string_view directive);

/// Declarations every assembled cell relies on: the statement runner and the two hooks through
/// which it reports an exception (defined by the kernel, or by the gate program's epilogue).
[[nodiscard]] std::string statement_runner_prelude();

/// The C++ text of a cell's chunks (cling pragmas left out). `cell_name` is "In[k]";
/// `statement_group` numbers the static variables so that names stay unique across cells.
[[nodiscard]] std::string assemble_cell(const std::vector<CellChunk>& chunks, std::string_view cell_name,
                                        int& statement_group);

}  // namespace gyre::kernel
