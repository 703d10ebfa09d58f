#pragma once
// What a module's backward() needs from its forward(), kept per call: a module may run any number of
// times before backward (weight sharing, one backbone per frame element), and each backward() undoes
// the most recent call not yet undone — calls are differentiated in reverse order, as on a tape.
// forward() pushes; backward() reads the top and drops it once it has succeeded. Inference that will never be differentiated runs under a
// NoGrad guard (torch.no_grad): forward() then saves nothing, so a loop of calls holds no memory.
// A dropped call's state is kept as a spare that the next forward() may fill in place (recycled()):
// its vectors and matrices keep their heap blocks. Without it, a batch norm's worker threads
// allocate a megabyte of small matrices per call that the main thread frees at once in backward();
// glibc then returns the emptied top of each worker arena to the kernel (madvise) and the next
// forward() faults it back in — LieBN on 64 SPD(16) matrices spent two thirds of its time so.

#include <string>
#include <utility>
#include <vector>

#include "gyre/core/error.hpp"

namespace gyre::nn {

/// backward() without a training-mode forward() left to differentiate.
class UnmatchedBackwardError : public Error {
 public:
  using Error::Error;
};

namespace detail {
inline bool& recording_flag() {
  thread_local bool recording = true;
  return recording;
}
}  // namespace detail

/// Whether forward() calls on this thread save state for backward() (false under NoGrad).
[[nodiscard]] inline bool grad_recording() { return detail::recording_flag(); }

/// While alive, forward() calls on this thread save nothing (nested guards are fine).
class NoGrad {
 public:
  NoGrad() : previous_(detail::recording_flag()) { detail::recording_flag() = false; }
  ~NoGrad() { detail::recording_flag() = previous_; }
  NoGrad(const NoGrad&) = delete;
  NoGrad& operator=(const NoGrad&) = delete;

 private:
  bool previous_;
};

/// A stack of per-call saved state (see the header comment).
template <class Saved>
class SavedCalls {
 public:
  /// Saves one call's state, unless a NoGrad guard is alive.
  void push(Saved saved) {
    if (grad_recording()) stack_.push_back(std::move(saved));
  }
  /// The most recent call's state, kept until drop(); UnmatchedBackwardError naming `where` and
  /// `module` if none is left.
  [[nodiscard]] const Saved& top(const char* where, const std::string& module) const {
    if (stack_.empty()) {
      throw UnmatchedBackwardError(where,
                                   "backward() without a matching forward() (outside NoGrad): each backward() "
                                   "differentiates one earlier forward(), most recent first",
                                   module);
    }
    return stack_.back();
  }
  /// Removes the most recent call's state: backward() calls this after its last use of top(), so a
  /// backward() that throws (a grad of the wrong shape) leaves the call saved for a corrected retry.
  void drop() noexcept {
    if (stack_.empty()) return;
    spare_ = std::move(stack_.back());
    stack_.pop_back();
  }
  /// State to fill for the next push(): the last dropped call's, whose storage the caller may
  /// overwrite in place (every field it reads must be assigned again), or a fresh one.
  [[nodiscard]] Saved recycled() noexcept {
    Saved out = std::move(spare_);
    spare_ = Saved{};
    return out;
  }
  [[nodiscard]] std::size_t size() const noexcept { return stack_.size(); }
  void clear() noexcept {
    stack_.clear();
    spare_ = Saved{};
  }

 private:
  std::vector<Saved> stack_;
  Saved spare_{};
};

}  // namespace gyre::nn
