// A cell's output shown while it runs: the capture takes what reaches descriptors 1 and 2, the
// pump hands it over from its own thread every 0.1 s, and nothing is lost, repeated or reordered
// between the live pieces and what finish() returns. The ThreadSanitizer preset runs this suite:
// the pump thread and the cell's thread share the capture.

#include <chrono>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "live_output_pump.hpp"
#include "output_capture.hpp"

namespace {

// Collects the pieces the pump delivers (called on the pump's thread).
struct PieceLog {
  std::mutex mutex;
  std::vector<std::string> pieces;
  void add(const std::string& text) {
    std::lock_guard<std::mutex> lock(mutex);
    pieces.push_back(text);
  }
};

}  // namespace

TEST_CASE("live output: pieces arrive while the cell runs, and with finish() they are all of it, in order") {
  PieceLog log;
  const gyre::kernel::LiveOutput sink = [&log](const std::string& text) { log.add(text); };
  std::string expected;
  std::string rest;
  {
    gyre::kernel::OutputCapture capture;
    {
      gyre::kernel::LiveOutputPump pump(capture, sink);
      // Ten lines over about 0.45 s, through the three ways a cell prints, each flushed.
      for (int i = 0; i < 10; ++i) {
        const std::string line = "epoch " + std::to_string(i) + " 90\xC2\xB0\n";
        expected += line;
        if (i % 3 == 0) {
          std::cout << line << std::flush;
        } else if (i % 3 == 1) {
          std::printf("%s", line.c_str());
          std::fflush(stdout);
        } else {
          std::cerr << line << std::flush;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(45));
      }
    }  // the pump stops here, before the capture is finished (the order the kernel uses)
    rest = capture.finish();
  }
  std::string live;
  for (const std::string& piece : log.pieces) live += piece;
  CAPTURE(log.pieces.size());
  CHECK(log.pieces.size() >= 2);  // 0.45 s of output at one take per 0.1 s
  CHECK(live + rest == expected);
}

TEST_CASE("live output: without a sink there is no thread, and finish() returns everything") {
  std::string rest;
  {
    gyre::kernel::OutputCapture capture;
    gyre::kernel::LiveOutputPump pump(capture, gyre::kernel::LiveOutput{});
    std::cout << "all of it\n" << std::flush;
    rest = capture.finish();
  }
  CHECK(rest == "all of it\n");
}

TEST_CASE("live output: a character split between two takes is delivered whole, once") {
  std::string first;
  std::string second;
  std::string rest;
  {
    gyre::kernel::OutputCapture capture;
    std::fputs("a\xE2\x86", stdout);  // the first two bytes of "→"
    std::fflush(stdout);
    first = capture.take_new();
    std::fputs("\x92z", stdout);
    std::fflush(stdout);
    second = capture.take_new();
    rest = capture.finish();
  }
  CHECK(first == "a");
  CHECK(second == "\xE2\x86\x92z");
  CHECK(rest.empty());
}
