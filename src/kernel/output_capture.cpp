#include "output_capture.hpp"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>

#include <unistd.h>

#include "utf8_text.hpp"

namespace gyre::kernel {

OutputCapture::OutputCapture() {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  char name[] = "/tmp/gyre-kernel-output-XXXXXX";
  file_ = mkstemp(name);
  if (file_ < 0) throw std::runtime_error("gyre-kernel: cannot create a file to capture cell output");
  unlink(name);
  saved_stdout_ = dup(1);
  saved_stderr_ = dup(2);
  if (saved_stdout_ < 0 || saved_stderr_ < 0 || dup2(file_, 1) < 0 || dup2(file_, 2) < 0) {
    throw std::runtime_error("gyre-kernel: cannot redirect the cell's output");
  }
}

OutputCapture::~OutputCapture() {
  if (file_ >= 0) finish();
}

std::string OutputCapture::finish() {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  dup2(saved_stdout_, 1);
  dup2(saved_stderr_, 2);
  close(saved_stdout_);
  close(saved_stderr_);
  std::string text = read_from(taken_);
  close(file_);
  file_ = -1;
  return text;
}

std::string OutputCapture::take_new() {
  std::string text = read_from(taken_);
  text.resize(complete_utf8_prefix(text));  // a character cut in two waits for its last bytes
  taken_ += static_cast<off_t>(text.size());
  return text;
}

// pread leaves the descriptor's offset, where the cell's writes go, alone.
std::string OutputCapture::read_from(off_t offset) {
  std::string text;
  char buffer[1 << 16];
  ssize_t n = 0;
  while ((n = pread(file_, buffer, sizeof buffer, offset)) > 0) {
    text.append(buffer, static_cast<std::size_t>(n));
    offset += n;
  }
  return text;
}

}  // namespace gyre::kernel
