#pragma once
// A C++17 session on clang 14's incremental Interpreter: cells are split (cell_splitter.hpp),
// assembled (cell_program.hpp), compiled and run in one process that keeps its state between
// cells. What clang 14 needs to run real headers (Eigen, xtensor, libgyre) is set up here; see
// the comments in jit_session.cpp and ../shared/NOTEBOOKS.md for the measurements behind it.

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gyre::kernel {

/// What running a cell gave.
struct CellOutcome {
  bool ok = true;
  std::string output;                  ///< everything the cell wrote to stdout and stderr, in order
  std::string error_name;              ///< "CompileError", "LinkError", "PragmaError" or an exception type
  std::string error_value;             ///< the first error line, or the exception's what()
  std::vector<std::string> traceback;  ///< all diagnostic lines, or "In[k]: <type>: <what>"
};

/// Receives a cell's output while it runs, in pieces (each valid UTF-8 up to its end).
using LiveOutput = std::function<void(const std::string&)>;

struct JitOptions {
  std::vector<std::string> compiler_flags;  ///< e.g. -march=x86-64-v3, -DNAME
  std::vector<std::string> include_paths;   ///< as #pragma cling add_include_path
  std::vector<std::string> library_paths;   ///< as #pragma cling add_library_path
};

class JitSession {
 public:
  /// Starts the interpreter; std::runtime_error if clang cannot be set up.
  explicit JitSession(const JitOptions& options);
  ~JitSession();
  JitSession(const JitSession&) = delete;
  JitSession& operator=(const JitSession&) = delete;

  /// Runs cell number `number` (shown as In[number]) and reports its output and errors. With
  /// `live`, what the cell prints while it runs goes there every 0.1 s (from another thread, while
  /// the calling thread runs the cell), and the outcome's output holds only the rest.
  CellOutcome run_cell(int number, std::string_view code, const LiveOutput& live = {});

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gyre::kernel
