#include "demo_command.hpp"

#include <chrono>
#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>

#include <boost/math/constants/constants.hpp>
#include <nlohmann/json.hpp>
#include <xtensor/xview.hpp>

#include "gyre/check/equivariance.hpp"
#include "gyre/core/progress_bar.hpp"
#include "gyre/io/idx.hpp"
#include "gyre/io/line_plot.hpp"
#include "gyre/nn/models.hpp"
#include "gyre/nn/training.hpp"

namespace gyre::tools {
namespace {

constexpr double kDegree = boost::math::constants::pi<double>() / 180;

struct ModelResult {
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

ModelResult train_and_evaluate(const std::string& name, nn::Module<float>& net, const io::Dataset& train,
                               const io::Dataset& test, const DemoOptions& options, std::ostream& progress, bool tty) {
  ModelResult result;
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

nlohmann::json to_json(const ModelResult& r) {
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

}  // namespace

int run_demo(const DemoOptions& options, std::ostream& out, std::ostream& progress, bool progress_is_tty) {
  const std::string directory = options.data_dir.empty() ? io::default_fashion_mnist_directory() : options.data_dir;
  io::Dataset train = io::load_fashion_mnist(directory, true, options.train_images);
  io::Dataset test = io::load_fashion_mnist(directory, false, options.test_images);
  train.images = nn::pad_to_odd(train.images);
  test.images = nn::pad_to_odd(test.images);
  out << "Fashion-MNIST from " << directory << ": " << train.labels.size() << " training images (randomly rotated), "
      << test.labels.size() << " test images rotated every " << options.angle_step_degrees << "°, " << options.epochs
      << " epochs, Adam\n\n";

  auto steerable = nn::steerable_cnn(repr::PlanarGroup::cyclic(8), 6, 8);
  auto plain = nn::plain_cnn(11, 14);
  const ModelResult s = train_and_evaluate("C8-steerable", *steerable, train, test, options, progress, progress_is_tty);
  const ModelResult p = train_and_evaluate("plain CNN", *plain, train, test, options, progress, progress_is_tty);

  out << std::left << std::setw(14) << "model" << std::setw(12) << "parameters" << std::setw(12) << "train (s)"
      << std::setw(16) << "acc upright" << std::setw(18) << "acc rotated (mean)" << std::setw(20) << "  inv. err 90°·k"
      << "inv. err 45°\n";
  for (const ModelResult* r : {&s, &p}) {
    std::ostringstream row;
    row << std::left << std::setw(14) << r->name << std::setw(12) << r->parameters << std::setw(12) << std::fixed
        << std::setprecision(1) << r->train_seconds << std::setw(16) << std::setprecision(2)
        << 100 * r->accuracy.front() << std::setw(18) << 100 * r->mean_rotated_accuracy << "  " << std::setw(18)
        << std::scientific << std::setprecision(1) << r->invariance_quarter_turns << r->invariance_off_grid << "\n";
    out << row.str();
  }
  out << "\naccuracy (%) by rotation of the test images (degrees):\n" << std::left << std::setw(14) << "";
  for (double a : s.angles_degrees) out << std::right << std::setw(6) << static_cast<int>(a);
  for (const ModelResult* r : {&s, &p}) {
    out << "\n" << std::left << std::setw(14) << r->name;
    for (double acc : r->accuracy) out << std::right << std::setw(6) << std::fixed << std::setprecision(1) << 100 * acc;
  }
  out << "\n";

  const std::string json_path = options.out_dir + "/gyre-demo-report.json";
  const std::string svg_path = options.out_dir + "/gyre-demo-accuracy.svg";
  nlohmann::json report{{"dataset", directory},
                        {"train_images", train.labels.size()},
                        {"test_images", test.labels.size()},
                        {"epochs", options.epochs},
                        {"models", {to_json(s), to_json(p)}}};
  io::write_file_atomically(json_path, report.dump(2) + "\n");
  io::LinePlot plot{"Fashion-MNIST: test accuracy vs rotation of the test images",
                    "rotation (degrees)",
                    "accuracy",
                    {},
                    0.0,
                    1.0};  // the whole range: chance (10 %) to perfect
  plot.series.push_back({"C8-steerable (" + std::to_string(s.parameters) + " params)", s.angles_degrees, s.accuracy});
  plot.series.push_back({"plain CNN (" + std::to_string(p.parameters) + " params)", p.angles_degrees, p.accuracy});
  io::write_svg(plot, svg_path);
  const bool wins = s.mean_rotated_accuracy > p.mean_rotated_accuracy;
  out << "\nwrote " << json_path << " and " << svg_path << "\n"
      << (wins ? "the steerable CNN beats the plain CNN on rotated test images\n"
               : "FAILED: the steerable CNN does not beat the plain CNN on rotated test images\n");
  return wins ? 0 : 1;
}

}  // namespace gyre::tools
