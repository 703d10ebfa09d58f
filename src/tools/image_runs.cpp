#include "image_runs.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>

#include <boost/math/constants/constants.hpp>
#include <xtensor/xview.hpp>

#include "gyre/core/progress_bar.hpp"

namespace gyre::tools {
namespace {

constexpr double kDegree = boost::math::constants::pi<double>() / 180;

}  // namespace

PaddedFashionMnist load_for_image_runs(const std::string& data_dir, std::size_t train_images, std::size_t test_images,
                                       const ImageRunOptions& options, std::ostream& out) {
  PaddedFashionMnist data;
  data.directory = data_dir.empty() ? io::default_fashion_mnist_directory() : data_dir;
  data.train = io::load_fashion_mnist(data.directory, true, train_images);
  data.test = io::load_fashion_mnist(data.directory, false, test_images);
  data.train.images = nn::pad_to_odd(data.train.images);
  data.test.images = nn::pad_to_odd(data.test.images);
  out << "Fashion-MNIST from " << data.directory << ": " << data.train.labels.size()
      << " training images (randomly rotated), " << data.test.labels.size() << " test images rotated every "
      << options.angle_step_degrees << "°, " << options.epochs << " epochs, Adam\n\n";
  return data;
}

// max over the given angles of ‖logits(rotated x) − logits(x)‖ / ‖logits(x)‖ (Frobenius, batch).
double invariance_error(nn::Module<float>& net, const xt::xtensor<float, 4>& images,
                        const std::vector<double>& angles) {
  net.eval();
  const nn::NoGrad inference;  // never differentiated: save nothing for backward
  const auto logits = [&](const xt::xtensor<float, 4>& x) {
    return nn::flatten_logits(net.forward(nn::GeometricTensor<float>(net.in_type(), x)));
  };
  const xt::xtensor<float, 2> reference = logits(images);
  double norm = 0;
  for (float v : reference) norm += static_cast<double>(v) * v;
  double worst = 0;
  for (double a : angles) {
    const xt::xtensor<float, 2> moved = logits(nn::rotate_images(images, std::vector<double>(images.shape(0), a)));
    double diff = 0;
    for (std::size_t i = 0; i < moved.size(); ++i) {
      const double d = static_cast<double>(moved.data()[i]) - reference.data()[i];
      diff += d * d;
    }
    worst = std::max(worst, std::sqrt(diff / norm));
  }
  return worst;
}

ImageRunResult train_and_evaluate(const std::string& name, nn::Module<float>& net, const io::Dataset& train,
                                  const io::Dataset& test, const ImageRunOptions& options, std::ostream& progress,
                                  bool tty) {
  ImageRunResult result;
  result.name = name;
  result.parameters = net.parameter_count();
  nn::TrainOptions train_options;
  train_options.epochs = options.epochs;
  train_options.seed = 7;
  ProgressBar bar(train.labels.size() * static_cast<std::size_t>(options.epochs), "train " + name, progress, tty);
  const auto start = std::chrono::steady_clock::now();
  result.epochs = nn::train_classifier(net, train.images, train.labels, train_options,
                                       [&](std::size_t done, std::size_t, double loss, double accuracy) {
                                         std::ostringstream note;
                                         note << std::fixed << std::setprecision(3) << "loss " << loss << " acc "
                                              << std::setprecision(1) << 100 * accuracy << "%";
                                         bar.update(done, note.str());
                                       });
  result.train_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  bar.finish();
  std::vector<int> angles;
  for (int a = 0; a <= 360; a += options.angle_step_degrees) angles.push_back(a);
  ProgressBar eval_bar(angles.size(), "test  " + name, progress, tty);
  for (std::size_t i = 0; i < angles.size(); ++i) {
    result.angles_degrees.push_back(angles[i]);
    result.accuracy.push_back(nn::rotated_accuracy(net, test.images, test.labels, angles[i] * kDegree));
    eval_bar.update(i + 1);
  }
  eval_bar.finish();
  double sum = 0;
  for (std::size_t i = 0; i + 1 < result.accuracy.size(); ++i) sum += result.accuracy[i];  // 360° repeats 0°
  result.mean_rotated_accuracy = sum / static_cast<double>(result.accuracy.size() - 1);
  const std::size_t probe = std::min<std::size_t>(16, test.labels.size());
  const xt::xtensor<float, 4> images = xt::view(test.images, xt::range(0, probe));
  result.invariance_quarter_turns = invariance_error(net, images, {90 * kDegree, 180 * kDegree, 270 * kDegree});
  result.invariance_off_grid = invariance_error(net, images, {45 * kDegree});
  return result;
}

nlohmann::json to_json(const ImageRunResult& r) {
  nlohmann::json epochs = nlohmann::json::array();
  for (const auto& e : r.epochs) epochs.push_back({{"loss", e.loss}, {"train_accuracy", e.accuracy}});
  return {{"name", r.name},
          {"parameters", r.parameters},
          {"epochs", epochs},
          {"train_seconds", r.train_seconds},
          {"angles_degrees", r.angles_degrees},
          {"test_accuracy", r.accuracy},
          {"mean_rotated_test_accuracy", r.mean_rotated_accuracy},
          {"invariance_error_quarter_turns", r.invariance_quarter_turns},
          {"invariance_error_45_degrees", r.invariance_off_grid}};
}

void print_image_runs(const std::vector<const ImageRunResult*>& runs, std::ostream& out) {
  if (runs.empty()) return;
  std::size_t longest = 12;  // names are ASCII: setw counts their bytes
  for (const ImageRunResult* r : runs) longest = std::max(longest, r->name.size());
  const int width = static_cast<int>(longest) + 2;
  out << std::left << std::setw(width) << "model" << std::setw(12) << "parameters" << std::setw(12) << "train (s)"
      << std::setw(16) << "acc upright" << std::setw(18) << "acc rotated (mean)" << std::setw(20) << "  inv. err 90°·k"
      << "inv. err 45°\n";
  for (const ImageRunResult* r : runs) {
    std::ostringstream row;
    row << std::left << std::setw(width) << r->name << std::setw(12) << r->parameters << std::setw(12) << std::fixed
        << std::setprecision(1) << r->train_seconds << std::setw(16) << std::setprecision(2)
        << 100 * r->accuracy.front() << std::setw(18) << 100 * r->mean_rotated_accuracy << "  " << std::setw(18)
        << std::scientific << std::setprecision(1) << r->invariance_quarter_turns << r->invariance_off_grid << "\n";
    out << row.str();
  }
  out << "\naccuracy (%) by rotation of the test images (degrees):\n" << std::left << std::setw(width) << "";
  for (double a : runs.front()->angles_degrees) out << std::right << std::setw(6) << static_cast<int>(a);
  for (const ImageRunResult* r : runs) {
    out << "\n" << std::left << std::setw(width) << r->name;
    for (double acc : r->accuracy) out << std::right << std::setw(6) << std::fixed << std::setprecision(1) << 100 * acc;
  }
  out << "\n";
}

}  // namespace gyre::tools
