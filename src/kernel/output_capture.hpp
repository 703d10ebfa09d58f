#pragma once
// Captures what a cell writes to file descriptors 1 and 2 — std::cout, printf, the progress bars
// of the library, the compiler's diagnostics — by pointing both at an unlinked temporary file
// for the duration of the cell. A file, unlike a pipe, never blocks a cell that prints a lot.

#include <string>

namespace gyre::kernel {

class OutputCapture {
 public:
  /// Starts capturing; std::runtime_error if the descriptors cannot be redirected.
  OutputCapture();
  /// Restores the descriptors if finish() was not called.
  ~OutputCapture();
  OutputCapture(const OutputCapture&) = delete;
  OutputCapture& operator=(const OutputCapture&) = delete;

  /// Flushes the C and C++ streams, restores descriptors 1 and 2, and returns what was written.
  std::string finish();

 private:
  int file_ = -1;
  int saved_stdout_ = -1;
  int saved_stderr_ = -1;
};

}  // namespace gyre::kernel
