#pragma once
// Splits a notebook cell into the pieces a C++ compiler can take one after another at namespace
// scope. cling accepts statements at the top level of a cell (`x += 1;`, `std::cout << x;`);
// C++ does not, so the kernel (and the one-program gate of the notebooks) keeps declarations as
// they are and runs each group of statements as the initializer of a static variable. The
// scanner knows comments, string and character literals (raw strings too) and bracket depth;
// it does not parse C++. Where C++ itself is ambiguous (`Type(x);`, `a * b;`) it chooses as the
// standard does for `a * b;` (a declaration) and treats `f(x);` as a call.

#include <string>
#include <string_view>
#include <vector>

namespace gyre::kernel {

enum class ChunkKind {
  directive,     ///< a preprocessor line (#include, #define …), continuation lines included
  cling_pragma,  ///< `#pragma cling …`, handled by the kernel, never given to the compiler
  declaration,   ///< anything valid at namespace scope: variables, functions, types, using
  statement      ///< an expression or control-flow statement, valid only inside a function
};

/// One piece of a cell, with the 1-based line of the cell where it starts.
struct CellChunk {
  ChunkKind kind;
  std::string text;
  int line;
};

/// The pieces of `cell` in source order. Comments between pieces are dropped; a last piece
/// without its `;` is kept (the assembler adds it for statements).
[[nodiscard]] std::vector<CellChunk> split_cell(std::string_view cell);

/// The name of a chunk kind ("directive", …), for messages and tests.
[[nodiscard]] const char* to_string(ChunkKind kind);

}  // namespace gyre::kernel
