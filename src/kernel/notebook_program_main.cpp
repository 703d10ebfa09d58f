// gyre-notebook-program: the fast gate of the notebooks. Turns a notebook into one C++ program
// with the same splitting and assembly as gyre-kernel (so that what compiles here compiles in
// the kernel, up to the JIT's own limits), and prints the compiler flags its pragmas ask for.
//   gyre-notebook-program NOTEBOOK.ipynb PROGRAM.cpp
// stdout: one flag per line (-I…, -L…, -l…), for the caller to pass to the compiler.

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cell_program.hpp"
#include "cell_splitter.hpp"

namespace {

std::string cell_source(const nlohmann::json& cell) {
  const nlohmann::json& source = cell.at("source");
  if (source.is_string()) return source.get<std::string>();
  std::string text;
  for (const auto& line : source) text += line.get<std::string>();
  return text;
}

// What the statement runner's hooks do in a program: report, and make main() fail.
const char* const kProgramEpilogue = R"(
#include <cstdio>
#include <cstdlib>
#include <cxxabi.h>
static int gyre_kernel_failures = 0;
extern "C" void gyre_kernel_report_exception(const char* cell, const char* type, const char* what) {
  int status = 0;
  char* readable = type ? abi::__cxa_demangle(type, nullptr, nullptr, &status) : nullptr;
  std::fprintf(stderr, "%s: %s: %s\n", cell, readable ? readable : (type ? type : "exception"), what);
  std::free(readable);
  ++gyre_kernel_failures;
}
extern "C" int gyre_kernel_cell_failed() { return gyre_kernel_failures; }
int main() { return gyre_kernel_failures == 0 ? 0 : 1; }
)";

}  // namespace

int main(int argc, char* argv[]) {
  if (argc != 3) {
    std::cerr << "usage: gyre-notebook-program NOTEBOOK.ipynb PROGRAM.cpp\n";
    return 2;
  }
  try {
    std::ifstream in(argv[1]);
    if (!in) throw std::runtime_error(std::string("cannot read ") + argv[1]);
    const nlohmann::json notebook = nlohmann::json::parse(in);
    std::string program = gyre::kernel::statement_runner_prelude();
    std::ostringstream flags;
    int number = 0;
    int statement_group = 0;
    for (const auto& cell : notebook.at("cells")) {
      if (cell.at("cell_type") != "code") continue;
      const std::string name = "In[" + std::to_string(++number) + "]";
      const auto chunks = gyre::kernel::split_cell(cell_source(cell));
      for (const auto& chunk : chunks) {
        if (chunk.kind != gyre::kernel::ChunkKind::cling_pragma) continue;
        const auto pragma = gyre::kernel::parse_cling_pragma(chunk.text);
        using Kind = gyre::kernel::ClingPragma::Kind;
        const std::string base = pragma.argument.rfind("lib", 0) == 0 ? pragma.argument.substr(3) : pragma.argument;
        flags << (pragma.kind == Kind::add_include_path   ? "-I" + pragma.argument
                  : pragma.kind == Kind::add_library_path ? "-L" + pragma.argument
                                                          : "-l" + base)
              << '\n';
      }
      program += gyre::kernel::assemble_cell(chunks, name, statement_group);
    }
    program += kProgramEpilogue;
    const std::string temporary = std::string(argv[2]) + ".tmp";
    {
      std::ofstream out(temporary);
      out << program;
      if (!out) throw std::runtime_error("cannot write " + temporary);
    }
    if (std::rename(temporary.c_str(), argv[2]) != 0) throw std::runtime_error(std::string("cannot write ") + argv[2]);
    std::cout << flags.str();
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "gyre-notebook-program: " << e.what() << '\n';
    return 1;
  }
}
