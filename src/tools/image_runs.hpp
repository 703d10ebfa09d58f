#pragma once
// Training an image classifier on randomly rotated Fashion-MNIST and measuring it on rotated test
// images: accuracy by angle, invariance of the logits, time. Shared by `gyre demo` and
// `gyre demo symmetry`.

#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <xtensor/xtensor.hpp>

#include "gyre/io/idx.hpp"
#include "gyre/nn/module.hpp"
#include "gyre/nn/training.hpp"

namespace gyre::tools {

/// Epochs and test angles of one run.
struct ImageRunOptions {
  int epochs = 2;
  int angle_step_degrees = 30;
};

/// What one trained image classifier measured.
struct ImageRunResult {
  std::string name;
  std::size_t parameters = 0;
  std::vector<nn::EpochResult> epochs;
  std::vector<double> angles_degrees;
  std::vector<double> accuracy;
  double mean_rotated_accuracy = 0;
  double invariance_quarter_turns = 0;  // max over 90°, 180°, 270° of ‖f(gx) − f(x)‖/‖f(x)‖ on logits
  double invariance_off_grid = 0;       // the same at 45° (interpolated)
  double train_seconds = 0;
};

/// Fashion-MNIST padded to 29 × 29 (nn::pad_to_odd), as both demos train and test on it.
struct PaddedFashionMnist {
  std::string directory;
  io::Dataset train, test;
};

/// The first `train_images` training and `test_images` test images from `data_dir` (empty:
/// Debian's dataset-fashion-mnist or $GYRE_FASHION_MNIST), padded; prints the run's header line.
[[nodiscard]] PaddedFashionMnist load_for_image_runs(const std::string& data_dir, std::size_t train_images,
                                                     std::size_t test_images, const ImageRunOptions& options,
                                                     std::ostream& out);

/// max over the angles of ‖logits(rotated x) − logits(x)‖ / ‖logits(x)‖ (Frobenius over the batch).
[[nodiscard]] double invariance_error(nn::Module<float>& net, const xt::xtensor<float, 4>& images,
                                      const std::vector<double>& angles);

/// Trains net on `train` (random rotations, Adam, seed 7) with a progress bar, then measures it on
/// `test` rotated every angle_step_degrees from 0° to 360° and on 16 test images for invariance.
[[nodiscard]] ImageRunResult train_and_evaluate(const std::string& name, nn::Module<float>& net,
                                                const io::Dataset& train, const io::Dataset& test,
                                                const ImageRunOptions& options, std::ostream& progress, bool tty);

[[nodiscard]] nlohmann::json to_json(const ImageRunResult& r);

/// The summary table (parameters, time, accuracy upright and rotated, invariance errors) and the
/// accuracy-by-angle table of several runs.
void print_image_runs(const std::vector<const ImageRunResult*>& runs, std::ostream& out);

}  // namespace gyre::tools
