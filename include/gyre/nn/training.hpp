#pragma once
// Training and evaluating image classifiers built from Gyre modules: minibatch Adam on
// cross-entropy with optional random-rotation augmentation, accuracy on rotated copies of a test
// set, and the image preparation that keeps rotations exact (odd-sized, centred maps).

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "gyre/nn/module.hpp"

namespace gyre::nn {

/// Pads (N, C, H, W) with zeros to odd H and W (one row/column at the bottom/right where even), so
/// that quarter turns and flips about the centre pixel are exact and strided pooling can tile the
/// map symmetrically.
[[nodiscard]] xt::xtensor<float, 4> pad_to_odd(const xt::xtensor<float, 4>& images);

/// Image i rotated counter-clockwise by angles[i] about the map's centre (bilinear, zero outside;
/// exact pixel permutations for multiples of 90°).
[[nodiscard]] xt::xtensor<float, 4> rotate_images(const xt::xtensor<float, 4>& images,
                                                  const std::vector<double>& angles);

/// Logits (N, K) from a network output (N, K, 1, 1).
[[nodiscard]] xt::xtensor<float, 2> flatten_logits(const GeometricTensor<float>& output);

/// Minibatch training settings.
struct TrainOptions {
  int epochs = 1;
  int batch_size = 32;
  float learning_rate = 2e-3f;
  float weight_decay = 0.0f;
  /// Rotate every training image by a uniformly random angle each time it is used.
  bool random_rotations = true;
  std::uint64_t seed = 0;
};

/// Mean loss and accuracy of one epoch.
struct EpochResult {
  double loss = 0;
  double accuracy = 0;
};

/// Called after each batch with (images done, total images, running loss, running accuracy).
using TrainProgress = std::function<void(std::size_t, std::size_t, double, double)>;

/// Trains `net` (input type: one field of 1 channel; output (N, 10, 1, 1) logits) with Adam on
/// cross-entropy. `images` must already be prepared (pad_to_odd). Returns one result per epoch.
std::vector<EpochResult> train_classifier(Module<float>& net, const xt::xtensor<float, 4>& images,
                                          const std::vector<int>& labels, const TrainOptions& options,
                                          const TrainProgress& progress = {});

/// Accuracy of `net` (in eval mode) on the images rotated by `angle`, in batches.
[[nodiscard]] double rotated_accuracy(Module<float>& net, const xt::xtensor<float, 4>& images,
                                      const std::vector<int>& labels, double angle, int batch_size = 100);

}  // namespace gyre::nn
