#pragma once
// Captures what a cell writes to file descriptors 1 and 2 — std::cout, printf, the progress bars
// of the library, the compiler's diagnostics — by pointing both at an unlinked temporary file
// for the duration of the cell. A file, unlike a pipe, never blocks a cell that prints a lot.
// While the cell runs, another thread may collect what has reached the file so far (take_new),
// which is how long work shows its progress in the notebook before the cell ends.

#include <string>

#include <sys/types.h>

namespace gyre::kernel {

class OutputCapture {
 public:
  /// Starts capturing; std::runtime_error if the descriptors cannot be redirected.
  OutputCapture();
  /// Restores the descriptors if finish() was not called.
  ~OutputCapture();
  OutputCapture(const OutputCapture&) = delete;
  OutputCapture& operator=(const OutputCapture&) = delete;

  /// What reached the descriptors since the last take_new (nothing still buffered in the cell's
  /// streams). Safe to call from one other thread while the cell runs.
  std::string take_new();

  /// Flushes the C and C++ streams, restores descriptors 1 and 2, and returns what was written
  /// and not yet taken.
  std::string finish();

 private:
  std::string read_from(off_t offset);

  int file_ = -1;
  off_t taken_ = 0;  // bytes already handed out by take_new
  int saved_stdout_ = -1;
  int saved_stderr_ = -1;
};

}  // namespace gyre::kernel
