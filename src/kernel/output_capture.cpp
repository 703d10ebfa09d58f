#include "output_capture.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>

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
  std::string text;
  if (lseek(file_, 0, SEEK_SET) == 0) {
    char buffer[1 << 16];
    ssize_t n = 0;
    while ((n = read(file_, buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<std::size_t>(n));
  }
  close(file_);
  file_ = -1;
  return text;
}

}  // namespace gyre::kernel
