#pragma once
// A fresh, uniquely named folder under the system's temporary directory, removed with its
// contents when the test ends: parallel test runs (ctest -j, two checkouts on one machine) never
// share or clobber each other's files, as fixed names like /tmp/gyre_plot_test.svg did.

#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

#include <stdlib.h>  // mkdtemp (POSIX)

namespace gyre::test {

class ScratchDir {
 public:
  /// Creates <tmp>/gyre-<tag>-XXXXXX.
  explicit ScratchDir(const std::string& tag) {
    std::string pattern = (std::filesystem::temp_directory_path() / ("gyre-" + tag + "-XXXXXX")).string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot create a scratch folder " + pattern);
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ignored;  // a destructor must not throw; a leftover folder is harmless
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  /// The path of `name` inside the folder, as a string.
  [[nodiscard]] std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace gyre::test
