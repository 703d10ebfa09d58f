#pragma once
// Shows a cell's output while it runs: a thread that hands what the cell has printed so far to
// a sink every 0.1 s, so that a training loop's progress lines reach the notebook as they are
// written rather than when the cell ends.

#include <condition_variable>
#include <mutex>
#include <thread>

#include "jit_session.hpp"
#include "output_capture.hpp"

namespace gyre::kernel {

class LiveOutputPump {
 public:
  /// Starts pumping `capture` into `sink`; does nothing if the sink is empty.
  LiveOutputPump(OutputCapture& capture, const LiveOutput& sink);
  /// Stops the thread and waits for it: after this, the caller owns the sink again.
  ~LiveOutputPump();
  LiveOutputPump(const LiveOutputPump&) = delete;
  LiveOutputPump& operator=(const LiveOutputPump&) = delete;

 private:
  void run();

  OutputCapture& capture_;
  const LiveOutput& sink_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace gyre::kernel
