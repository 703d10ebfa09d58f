// IDX files: round trips (plain and gzip), every malformed-file error, and Debian's Fashion-MNIST.

#include "gyre/io/idx.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>
#include <zlib.h>

#include "gyre/core/error.hpp"
#include "support/scratch_dir.hpp"

namespace {

namespace fs = std::filesystem;

std::vector<std::uint8_t> idx_bytes(std::vector<std::uint32_t> shape, std::size_t data_bytes,
                                    std::uint8_t type = 0x08) {
  std::vector<std::uint8_t> bytes{0, 0, type, static_cast<std::uint8_t>(shape.size())};
  for (std::uint32_t s : shape) {
    for (int k = 3; k >= 0; --k) bytes.push_back(static_cast<std::uint8_t>(s >> (8 * k)));
  }
  for (std::size_t i = 0; i < data_bytes; ++i) bytes.push_back(static_cast<std::uint8_t>(i * 7));
  return bytes;
}

// One scratch folder for the suite's files, unique to this process.
std::string scratch(const std::string& name) {
  static const gyre::test::ScratchDir dir("idx-test");
  return dir.file(name);
}

void write_plain(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

void write_gzip(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  gzFile file = gzopen(path.c_str(), "wb");
  REQUIRE(file != nullptr);
  REQUIRE(gzwrite(file, bytes.data(), static_cast<unsigned>(bytes.size())) == static_cast<int>(bytes.size()));
  gzclose(file);
}

}  // namespace

TEST_CASE("idx: plain and gzip files round trip") {
  const auto bytes = idx_bytes({3, 2, 4}, 24);
  write_plain(scratch("plain.idx"), bytes);
  write_gzip(scratch("packed.idx.gz"), bytes);
  for (const std::string& path : {scratch("plain.idx"), scratch("packed.idx.gz")}) {
    CAPTURE(path);
    const auto images = gyre::io::read_idx_images(path);
    REQUIRE(images.shape(0) == 3);
    CHECK(images.shape(1) == 2);
    CHECK(images.shape(2) == 4);
    CHECK(images(2, 1, 3) == static_cast<std::uint8_t>(23 * 7));
  }
}

TEST_CASE("idx: malformed files are IoErrors that name the problem") {
  write_plain(scratch("truncated.idx"), idx_bytes({3, 2, 4}, 23));
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::io::read_idx(scratch("truncated.idx"))),
                       doctest::Contains("truncated data in"), gyre::IoError);
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::io::read_idx(scratch("truncated.idx"))),
                       doctest::Contains("expected 24 bytes after the header (23)"), gyre::IoError);
  auto bad_magic = idx_bytes({4}, 4);
  bad_magic[0] = 0x1f;
  write_plain(scratch("magic.idx"), bad_magic);
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::io::read_idx(scratch("magic.idx"))),
                       doctest::Contains("not an IDX file: bad magic number"), gyre::IoError);
  write_plain(scratch("float.idx"), idx_bytes({4}, 16, 0x0d));
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::io::read_idx(scratch("float.idx"))),
                       doctest::Contains("element type is not unsigned byte"), gyre::IoError);
  write_plain(scratch("header.idx"), {0, 0, 8, 3, 0, 0});
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::io::read_idx(scratch("header.idx"))),
                       doctest::Contains("truncated header"), gyre::IoError);
  write_plain(scratch("huge.idx"), idx_bytes({0xffffffffu, 0xffffffffu, 0xffffffffu}, 0));
  CHECK_THROWS_AS(static_cast<void>(gyre::io::read_idx(scratch("huge.idx"))), gyre::IoError);
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::io::read_idx(scratch("missing.idx"))),
                       doctest::Contains("cannot open file"), gyre::IoError);
  write_plain(scratch("labels.idx"), idx_bytes({4}, 4));
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::io::read_idx_images(scratch("labels.idx"))),
                       doctest::Contains("images need 3 dimensions"), gyre::IoError);
}

TEST_CASE("idx: Debian's Fashion-MNIST test split has 10000 balanced 28×28 images") {
  const std::string directory = gyre::io::default_fashion_mnist_directory();
  // dataset-fashion-mnist is installed by cmake/install_deps.sh, so its absence is a failure.
  REQUIRE(fs::exists(directory));
  const auto data = gyre::io::load_fashion_mnist(directory, false);
  REQUIRE(data.images.shape(0) == 10000);
  CHECK(data.images.shape(2) == 28);
  CHECK(data.images.shape(3) == 28);
  std::vector<int> counts(10, 0);
  for (int label : data.labels) ++counts[static_cast<std::size_t>(label)];
  for (int c : counts) CHECK(c == 1000);
  float lo = 1, hi = 0;
  for (float v : data.images) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  CHECK(lo == 0.0f);
  CHECK(hi == 1.0f);
  CHECK(gyre::io::load_fashion_mnist(directory, true, 100).labels.size() == 100);
}
