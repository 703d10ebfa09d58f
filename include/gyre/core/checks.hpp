#pragma once
// The one switch for input validation. Checks are on by default; `gyre::ChecksOff` turns them
// off for its scope (and nests). With checks off, operations (exp, log, compose, …) trust their
// inputs: bad input then gives unspecified results. An explicit call of check_point or
// check_tangent always checks: it is the caller asking.

#include <atomic>

namespace gyre {

namespace detail {
// A process-wide depth counter rather than a thread_local flag: batched operations run on
// worker threads, and a scope that turns checks off must turn them off there too.
inline std::atomic<int>& checks_off_depth() {
  static std::atomic<int> depth{0};
  return depth;
}
}  // namespace detail

/// True unless some `ChecksOff` is alive.
[[nodiscard]] inline bool checks_enabled() noexcept {
  return detail::checks_off_depth().load(std::memory_order_relaxed) == 0;
}

/// RAII scope that disables Gyre's input validation (for speed, once inputs are known good).
class ChecksOff {
 public:
  ChecksOff() noexcept { detail::checks_off_depth().fetch_add(1, std::memory_order_relaxed); }
  ~ChecksOff() { detail::checks_off_depth().fetch_sub(1, std::memory_order_relaxed); }
  ChecksOff(const ChecksOff&) = delete;
  ChecksOff& operator=(const ChecksOff&) = delete;
};

}  // namespace gyre
