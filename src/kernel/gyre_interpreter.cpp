#include "gyre_interpreter.hpp"

#include <utility>

namespace gyre::kernel {

GyreInterpreter::GyreInterpreter(JitOptions options) : options_(std::move(options)) {}

GyreInterpreter::~GyreInterpreter() = default;

void GyreInterpreter::configure_impl() { session_ = std::make_unique<JitSession>(options_); }

nl::json GyreInterpreter::execute_request_impl(int execution_counter, const std::string& code, bool silent,
                                               bool /*store_history*/, nl::json /*user_expressions*/,
                                               bool /*allow_stdin*/) {
  const CellOutcome outcome = session_->run_cell(execution_counter, code);
  if (!silent && !outcome.output.empty()) publish_stream(outcome.ok ? "stdout" : "stderr", outcome.output);
  nl::json reply;
  if (!outcome.ok) {
    if (!silent) publish_execution_error(outcome.error_name, outcome.error_value, outcome.traceback);
    reply["status"] = "error";
    reply["ename"] = outcome.error_name;
    reply["evalue"] = outcome.error_value;
    reply["traceback"] = outcome.traceback;
    return reply;
  }
  reply["status"] = "ok";
  reply["payload"] = nl::json::array();
  reply["user_expressions"] = nl::json::object();
  return reply;
}

nl::json GyreInterpreter::complete_request_impl(const std::string& /*code*/, int cursor_pos) {
  // No completion engine: an empty, well-formed reply keeps front ends happy.
  return {{"status", "ok"}, {"matches", nl::json::array()}, {"cursor_start", cursor_pos},
          {"cursor_end", cursor_pos}, {"metadata", nl::json::object()}};
}

nl::json GyreInterpreter::inspect_request_impl(const std::string& /*code*/, int /*cursor_pos*/,
                                               int /*detail_level*/) {
  return {{"status", "ok"}, {"found", false}, {"data", nl::json::object()}, {"metadata", nl::json::object()}};
}

nl::json GyreInterpreter::is_complete_request_impl(const std::string& /*code*/) {
  return {{"status", "complete"}};
}

nl::json GyreInterpreter::kernel_info_request_impl() {
  return {{"implementation", "gyre-kernel"},
          {"implementation_version", GYRE_KERNEL_VERSION},
          {"banner", "gyre-kernel: C++17 on clang 14's incremental interpreter, for Gyre's notebooks"},
          {"language_info",
           {{"name", "C++"},
            {"version", "17"},
            {"mimetype", "text/x-c++src"},
            {"codemirror_mode", "text/x-c++src"},
            {"file_extension", ".cpp"}}},
          {"status", "ok"}};
}

void GyreInterpreter::shutdown_request_impl() {}

}  // namespace gyre::kernel
