#include "gyre_interpreter.hpp"

#include <utility>

#include "utf8_text.hpp"

namespace gyre::kernel {

GyreInterpreter::GyreInterpreter(JitOptions options) : options_(std::move(options)) {}

GyreInterpreter::~GyreInterpreter() = default;

void GyreInterpreter::configure_impl() { session_ = std::make_unique<JitSession>(options_); }

nl::json GyreInterpreter::execute_request_impl(int execution_counter, const std::string& code, bool silent,
                                               bool /*store_history*/, nl::json /*user_expressions*/,
                                               bool /*allow_stdin*/) {
  // Output printed while the cell runs is published as it comes (the pump's thread publishes while
  // this thread runs the cell and publishes nothing, and the pump is joined before we go on).
  LiveOutput live;
  if (!silent) live = [this](const std::string& text) { publish_stream("stdout", valid_utf8(text)); };
  const CellOutcome outcome = session_->run_cell(execution_counter, code, live);
  if (!silent && !outcome.output.empty()) {
    publish_stream(outcome.ok ? "stdout" : "stderr", valid_utf8(outcome.output));
  }
  nl::json reply;
  if (!outcome.ok) {
    // An exception's message may hold any bytes; JSON needs UTF-8.
    const std::string value = valid_utf8(outcome.error_value);
    std::vector<std::string> traceback;
    for (const std::string& line : outcome.traceback) traceback.push_back(valid_utf8(line));
    if (!silent) publish_execution_error(outcome.error_name, value, traceback);
    reply["status"] = "error";
    reply["ename"] = outcome.error_name;
    reply["evalue"] = value;
    reply["traceback"] = traceback;
    return reply;
  }
  reply["status"] = "ok";
  reply["payload"] = nl::json::array();
  reply["user_expressions"] = nl::json::object();
  return reply;
}

nl::json GyreInterpreter::complete_request_impl(const std::string& /*code*/, int cursor_pos) {
  // No completion engine: an empty, well-formed reply keeps front ends happy.
  return {{"status", "ok"},
          {"matches", nl::json::array()},
          {"cursor_start", cursor_pos},
          {"cursor_end", cursor_pos},
          {"metadata", nl::json::object()}};
}

nl::json GyreInterpreter::inspect_request_impl(const std::string& /*code*/, int /*cursor_pos*/, int /*detail_level*/) {
  return {{"status", "ok"}, {"found", false}, {"data", nl::json::object()}, {"metadata", nl::json::object()}};
}

nl::json GyreInterpreter::is_complete_request_impl(const std::string& /*code*/) { return {{"status", "complete"}}; }

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
