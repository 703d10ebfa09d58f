#include "gyre/io/idx.hpp"

#include <cstdlib>
#include <fstream>
#include <memory>

#include <zlib.h>

#include "gyre/core/error.hpp"

namespace gyre::io {
namespace {

// IDX files of Fashion-MNIST are 47 MB; anything claiming more than 2³² values is malformed.
constexpr std::size_t kMaxValues = std::size_t(1) << 32;

// The whole file, decompressed when it is gzip (gzread passes plain files through unchanged).
std::vector<std::uint8_t> read_all(const std::string& path) {
  {
    std::ifstream probe(path, std::ios::binary);
    if (!probe) throw IoError("read_idx", "cannot open file", path);
  }
  const std::unique_ptr<gzFile_s, int (*)(gzFile)> file(gzopen(path.c_str(), "rb"), gzclose);
  if (!file) throw IoError("read_idx", "cannot open file", path);
  std::vector<std::uint8_t> data;
  std::uint8_t buffer[1 << 16];
  for (;;) {
    const int got = gzread(file.get(), buffer, sizeof buffer);
    if (got < 0) throw IoError("read_idx", "corrupt gzip stream", path);
    if (got == 0) break;
    data.insert(data.end(), buffer, buffer + got);
    if (data.size() > kMaxValues) throw IoError("read_idx", "file is larger than any IDX file Gyre reads", path);
  }
  return data;
}

std::uint32_t big_endian(const std::uint8_t* p) {
  return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | std::uint32_t(p[3]);
}

}  // namespace

IdxArray read_idx(const std::string& path) {
  const std::vector<std::uint8_t> data = read_all(path);
  if (data.size() < 4) throw IoError("read_idx", "truncated header in " + path + " (bytes)", data.size());
  const std::uint32_t magic = big_endian(data.data());
  if (data[0] != 0 || data[1] != 0) throw IoError("read_idx", "not an IDX file: bad magic number in " + path, magic);
  if (data[2] != 0x08) {
    throw IoError("read_idx", "element type is not unsigned byte (0x08) in " + path, static_cast<int>(data[2]));
  }
  const std::size_t rank = data[3];
  if (rank == 0) throw IoError("read_idx", "zero dimensions in " + path, rank);
  const std::size_t header = 4 + 4 * rank;
  if (data.size() < header) throw IoError("read_idx", "truncated header in " + path + " (bytes)", data.size());
  IdxArray array;
  std::size_t count = 1;
  for (std::size_t d = 0; d < rank; ++d) {
    const std::size_t size = big_endian(data.data() + 4 + 4 * d);
    array.shape.push_back(size);
    if (size != 0 && count > kMaxValues / size) throw IoError("read_idx", "dimensions overflow in " + path, size);
    count *= size;
  }
  if (data.size() - header != count) {
    throw IoError("read_idx",
                  (data.size() - header < count ? "truncated data in " : "trailing bytes in ") + path + ": expected " +
                      std::to_string(count) + " bytes after the header",
                  data.size() - header);
  }
  array.values.assign(data.begin() + static_cast<std::ptrdiff_t>(header), data.end());
  return array;
}

xt::xtensor<std::uint8_t, 3> read_idx_images(const std::string& path) {
  IdxArray array = read_idx(path);
  if (array.shape.size() != 3)
    throw IoError("read_idx_images", "images need 3 dimensions in " + path, array.shape.size());
  xt::xtensor<std::uint8_t, 3> images =
      xt::xtensor<std::uint8_t, 3>::from_shape({array.shape[0], array.shape[1], array.shape[2]});
  std::copy(array.values.begin(), array.values.end(), images.begin());
  return images;
}

xt::xtensor<std::uint8_t, 1> read_idx_labels(const std::string& path) {
  IdxArray array = read_idx(path);
  if (array.shape.size() != 1)
    throw IoError("read_idx_labels", "labels need 1 dimension in " + path, array.shape.size());
  xt::xtensor<std::uint8_t, 1> labels = xt::xtensor<std::uint8_t, 1>::from_shape({array.shape[0]});
  std::copy(array.values.begin(), array.values.end(), labels.begin());
  return labels;
}

std::string default_fashion_mnist_directory() {
  const char* custom = std::getenv("GYRE_FASHION_MNIST");
  return custom && *custom ? custom : "/usr/share/datasets/fashion-mnist";
}

Dataset load_fashion_mnist(const std::string& directory, bool train, std::size_t limit) {
  const std::string prefix = directory + "/" + (train ? "train" : "t10k");
  const auto images = read_idx_images(prefix + "-images-idx3-ubyte.gz");
  const auto labels = read_idx_labels(prefix + "-labels-idx1-ubyte.gz");
  if (images.shape(0) != labels.shape(0)) {
    throw IoError("load_fashion_mnist",
                  "image and label counts differ in " + prefix + " (" + std::to_string(images.shape(0)) + " images)",
                  labels.shape(0));
  }
  const std::size_t n = limit > 0 ? std::min(limit, images.shape(0)) : images.shape(0);
  Dataset dataset;
  dataset.images = xt::xtensor<float, 4>::from_shape({n, 1, images.shape(1), images.shape(2)});
  const std::size_t plane = images.shape(1) * images.shape(2);
  for (std::size_t i = 0; i < n * plane; ++i) dataset.images.data()[i] = images.data()[i] / 255.0f;
  for (std::size_t i = 0; i < n; ++i) {
    if (labels(i) > 9)
      throw IoError("load_fashion_mnist", "label outside 0..9 in " + prefix, static_cast<int>(labels(i)));
    dataset.labels.push_back(labels(i));
  }
  return dataset;
}

}  // namespace gyre::io
