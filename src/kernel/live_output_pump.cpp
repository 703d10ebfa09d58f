#include "live_output_pump.hpp"

#include <chrono>

namespace gyre::kernel {

LiveOutputPump::LiveOutputPump(OutputCapture& capture, const LiveOutput& sink) : capture_(capture), sink_(sink) {
  if (sink_) thread_ = std::thread([this] { run(); });
}

LiveOutputPump::~LiveOutputPump() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void LiveOutputPump::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, std::chrono::milliseconds(100), [this] { return stop_; })) {
    const std::string text = capture_.take_new();
    if (!text.empty()) sink_(text);
  }
}

}  // namespace gyre::kernel
