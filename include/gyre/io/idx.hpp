#pragma once
// IDX files (the MNIST family's format), plain or gzip-compressed, and the Fashion-MNIST loader.
// Format: a big-endian header — two zero bytes, a type byte (0x08 = unsigned byte), the number of
// dimensions — then one big-endian 32-bit size per dimension, then the data in row-major order.
// Every malformed file is an IoError naming the path and what is wrong; sizes are validated
// against the file before anything is allocated.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <cstdint>
#include <string>
#include <vector>

#include <xtensor/xtensor.hpp>

namespace gyre::io {

/// An unsigned-byte IDX array: its dimensions and its values in row-major order.
struct IdxArray {
  std::vector<std::size_t> shape;
  std::vector<std::uint8_t> values;
};

/// Reads an IDX file of unsigned bytes (gzip-compressed when the file starts with gzip's magic).
[[nodiscard]] IdxArray read_idx(const std::string& path);
/// A 3-dimensional IDX file of images (N, rows, cols).
[[nodiscard]] xt::xtensor<std::uint8_t, 3> read_idx_images(const std::string& path);
/// A 1-dimensional IDX file of labels (N).
[[nodiscard]] xt::xtensor<std::uint8_t, 1> read_idx_labels(const std::string& path);

/// Images (N, 1, H, W) scaled to [0, 1] and their labels.
struct Dataset {
  xt::xtensor<float, 4> images;
  std::vector<int> labels;
};

/// "/usr/share/datasets/fashion-mnist" (Debian's dataset-fashion-mnist), or $GYRE_FASHION_MNIST.
[[nodiscard]] std::string default_fashion_mnist_directory();
/// The training (60000) or test (10000) split, the first `limit` items if limit > 0.
[[nodiscard]] Dataset load_fashion_mnist(const std::string& directory, bool train, std::size_t limit = 0);

}  // namespace gyre::io
