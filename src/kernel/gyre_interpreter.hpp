#pragma once
// The Jupyter side of gyre-kernel: xeus's interpreter interface over a JitSession. Output is
// published as one stream message per cell (stdout and stderr in the order written); compile
// errors, link errors and exceptions become Jupyter errors, and the kernel stays alive.

#include <memory>

#include <xeus/xinterpreter.hpp>

#include "jit_session.hpp"

namespace gyre::kernel {

class GyreInterpreter : public xeus::xinterpreter {
 public:
  explicit GyreInterpreter(JitOptions options);
  ~GyreInterpreter() override;

 private:
  void configure_impl() override;
  nl::json execute_request_impl(int execution_counter, const std::string& code, bool silent, bool store_history,
                                nl::json user_expressions, bool allow_stdin) override;
  nl::json complete_request_impl(const std::string& code, int cursor_pos) override;
  nl::json inspect_request_impl(const std::string& code, int cursor_pos, int detail_level) override;
  nl::json is_complete_request_impl(const std::string& code) override;
  nl::json kernel_info_request_impl() override;
  void shutdown_request_impl() override;

  JitOptions options_;
  std::unique_ptr<JitSession> session_;  // started by configure_impl
};

}  // namespace gyre::kernel
