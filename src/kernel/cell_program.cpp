#include "cell_program.hpp"

#include <stdexcept>

namespace gyre::kernel {
namespace {

std::string line_marker(int line, std::string_view cell_name) {
  return "#line " + std::to_string(line) + " \"" + std::string(cell_name) + "\"\n";
}

std::string trim(std::string_view s) {
  const std::size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  const std::size_t e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

}  // namespace

ClingPragma parse_cling_pragma(std::string_view directive) {
  const std::size_t cling = directive.find("cling");
  const std::size_t open = directive.find('(', cling);
  const std::size_t close = directive.rfind(')');
  if (cling == std::string_view::npos || open == std::string_view::npos || close == std::string_view::npos ||
      close < open) {
    throw std::invalid_argument("not a #pragma cling name(\"argument\") line: " + std::string(directive));
  }
  const std::string name = trim(directive.substr(cling + 5, open - cling - 5));
  std::string argument = trim(directive.substr(open + 1, close - open - 1));
  if (argument.size() < 2 || argument.front() != '"' || argument.back() != '"') {
    throw std::invalid_argument("#pragma cling " + name + " takes one quoted argument: " + std::string(directive));
  }
  argument = argument.substr(1, argument.size() - 2);
  if (name == "add_include_path") return {ClingPragma::Kind::add_include_path, argument};
  if (name == "add_library_path") return {ClingPragma::Kind::add_library_path, argument};
  if (name == "load") return {ClingPragma::Kind::load, argument};
  throw std::invalid_argument("#pragma cling " + name +
                              " is not supported (add_include_path, add_library_path and load are)");
}

std::string statement_runner_prelude() {
  return R"(#include <exception>
#include <typeinfo>
extern "C" void gyre_kernel_report_exception(const char* cell, const char* type, const char* what);
extern "C" int gyre_kernel_cell_failed();
// Runs one group of a cell's top-level statements. After an exception the rest of the cell's
// statements are skipped, as they would be in cling.
template <class Statements>
int gyre_kernel_run_statements(const char* cell, Statements statements) {
  if (gyre_kernel_cell_failed()) return 0;
  try {
    statements();
  } catch (const std::exception& e) {
    gyre_kernel_report_exception(cell, typeid(e).name(), e.what());
  } catch (...) {
    gyre_kernel_report_exception(cell, nullptr, "an exception that is not a std::exception");
  }
  return 0;
}
)";
}

std::string assemble_cell(const std::vector<CellChunk>& chunks, std::string_view cell_name, int& statement_group) {
  std::string code;
  bool in_statements = false;
  auto close_statements = [&] {
    if (in_statements) code += "});\n";
    in_statements = false;
  };
  for (const CellChunk& chunk : chunks) {
    if (chunk.kind == ChunkKind::cling_pragma) continue;
    if (chunk.kind == ChunkKind::statement) {
      if (!in_statements) {
        code += "static const int gyre_kernel_statements_" + std::to_string(statement_group++) +
                " = gyre_kernel_run_statements(\"" + std::string(cell_name) + "\", []() {\n";
        in_statements = true;
      }
      code += line_marker(chunk.line, cell_name) + chunk.text;
      // A last statement may come without its semicolon (cling would print its value).
      if (chunk.text.back() != ';' && chunk.text.back() != '}') code += ';';
      code += '\n';
      continue;
    }
    close_statements();
    code += line_marker(chunk.line, cell_name) + chunk.text + '\n';
  }
  close_statements();
  return code;
}

}  // namespace gyre::kernel
