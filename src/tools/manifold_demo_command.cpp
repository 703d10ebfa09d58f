#include "manifold_demo_command.hpp"

#include <cmath>
#include <functional>
#include <iomanip>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gyre/core/progress_bar.hpp"
#include "gyre/io/idx.hpp"
#include "gyre/io/line_plot.hpp"
#include "gyre/nn/fit.hpp"
#include "gyre/nn/manifold_models.hpp"
#include "gyre/nn/manifold_normalizations.hpp"
#include "image_descriptors.hpp"

namespace gyre::tools {
namespace {

constexpr int kClasses = 10;
constexpr int kSubspaceRank = 4;  // p of the Grassmann demo's Gr(28, p) inputs

struct Data {
  std::string directory;
  io::Dataset train, test;
  xt::xarray<float> train_x, test_x;
};

// One training run: its per-epoch record and the network it trained.
struct TrainedRun {
  std::string network;
  std::size_t parameters = 0;
  float learning_rate = 0;
  std::vector<nn::FitEpoch> epochs;
  std::vector<double> test_accuracy;
};

std::unique_ptr<nn::Sequential<float>> make_network(bool spd, const std::string& norm, std::uint64_t seed, int width) {
  // SPDNet: BiMap 7→6→4 with 8 channels; GrNet: FRMap 28→12 with 8 filters, pooled in pairs.
  if (spd) return nn::spdnet<float>({kRegionFeatures, 6, 4}, 8, kClasses, 1e-4, seed, nn::spd_normalization(norm));
  return nn::grnet<float>(width, 12, kSubspaceRank, 8, 2, kClasses, seed, nn::grassmann_normalization(norm));
}

// Trains one network; `on_batch` sees the samples done in this run.
TrainedRun train_once(bool spd, const std::string& norm, std::uint64_t seed, const Data& data, int epochs,
                      const std::function<void(std::size_t, double, double)>& on_batch) {
  auto net = make_network(spd, norm, seed, static_cast<int>(data.train.images.shape(2)));
  TrainedRun run;
  run.network = net->describe();
  run.parameters = net->parameter_count();
  nn::FitOptions fit;
  fit.epochs = epochs;
  fit.batch_size = 32;
  fit.learning_rate = spd ? 1e-2f : 5e-3f;
  fit.seed = seed;
  run.learning_rate = fit.learning_rate;
  run.epochs = nn::fit_classifier(
      *net, data.train_x, data.train.labels, fit,
      [&](std::size_t done, std::size_t, double loss, double accuracy) { on_batch(done, loss, accuracy); },
      [&](int) { run.test_accuracy.push_back(nn::classifier_accuracy(*net, data.test_x, data.test.labels)); });
  return run;
}

std::string note_of(double loss, double accuracy) {
  std::ostringstream note;
  note << std::fixed << std::setprecision(3) << "loss " << loss << " acc " << std::setprecision(1) << 100 * accuracy
       << "%";
  return note.str();
}

nlohmann::json epochs_json(const TrainedRun& run) {
  nlohmann::json rows = nlohmann::json::array();
  for (std::size_t e = 0; e < run.epochs.size(); ++e) {
    rows.push_back({{"epoch", e + 1},
                    {"loss", run.epochs[e].loss},
                    {"train_accuracy", run.epochs[e].accuracy},
                    {"test_accuracy", run.test_accuracy[e]},
                    {"seconds", run.epochs[e].seconds}});
  }
  return rows;
}

std::vector<double> epoch_axis(std::size_t epochs) {
  std::vector<double> axis;
  for (std::size_t e = 0; e < epochs; ++e) axis.push_back(static_cast<double>(e + 1));
  return axis;
}

double mean_of(const std::vector<double>& v) {
  double sum = 0;
  for (const double x : v) sum += x;
  return sum / static_cast<double>(v.size());
}

// The sample standard deviation (0 for one value).
double std_of(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  const double m = mean_of(v);
  double sum = 0;
  for (const double x : v) sum += (x - m) * (x - m);
  return std::sqrt(sum / static_cast<double>(v.size() - 1));
}

// One network, with a per-epoch table (the demo without --compare).
int run_single(bool spd, const std::string& name, const ManifoldDemoOptions& options, const Data& data,
               std::ostream& out, std::ostream& progress, bool progress_is_tty) {
  const std::uint64_t seed = options.seed;
  out << "network: " << make_network(spd, options.norm, seed, static_cast<int>(data.train.images.shape(2)))->describe()
      << "\n";
  ProgressBar bar(data.train.labels.size() * static_cast<std::size_t>(options.epochs), "train " + name, progress,
                  progress_is_tty);
  const TrainedRun run = train_once(spd, options.norm, seed, data, options.epochs,
                                    [&](std::size_t done, double l, double a) { bar.update(done, note_of(l, a)); });
  bar.finish();
  out << "parameters: " << run.parameters << "\n\n"
      << std::left << std::setw(8) << "epoch" << std::setw(10) << "loss" << std::setw(14) << "train acc %"
      << std::setw(13) << "test acc %"
      << "seconds\n";
  std::vector<double> train_accuracy;
  for (std::size_t e = 0; e < run.epochs.size(); ++e) {
    const nn::FitEpoch& ep = run.epochs[e];
    out << std::left << std::setw(8) << e + 1 << std::setw(10) << std::fixed << std::setprecision(4) << ep.loss
        << std::setw(14) << std::setprecision(2) << 100 * ep.accuracy << std::setw(13) << 100 * run.test_accuracy[e]
        << std::setprecision(1) << ep.seconds << "\n";
    train_accuracy.push_back(ep.accuracy);
  }
  const std::string json_path = options.out_dir + "/gyre-demo-" + name + "-report.json";
  const std::string svg_path = options.out_dir + "/gyre-demo-" + name + "-training.svg";
  const nlohmann::json report{{"dataset", data.directory},
                              {"network", run.network},
                              {"normalization", options.norm},
                              {"seed", seed},
                              {"parameters", run.parameters},
                              {"train_images", data.train.labels.size()},
                              {"test_images", data.test.labels.size()},
                              {"optimizer", "Riemannian Adam, lr " + std::to_string(run.learning_rate) + ", batch 32"},
                              {"epochs", epochs_json(run)}};
  io::write_file_atomically(json_path, report.dump(2) + "\n");
  io::LinePlot plot{"gyre demo " + name + ": Fashion-MNIST accuracy by epoch", "epoch", "accuracy", {}, 0.0, 1.0};
  const std::vector<double> axis = epoch_axis(run.epochs.size());
  plot.series.push_back({"train", axis, train_accuracy});
  plot.series.push_back({"test", axis, run.test_accuracy});
  io::write_svg(plot, svg_path);
  const bool learned = run.test_accuracy.back() >= 0.2;
  out << "\nwrote " << json_path << " and " << svg_path << "\n"
      << (learned ? "the network learned: test accuracy " : "FAILED: test accuracy ") << std::fixed
      << std::setprecision(2) << 100 * run.test_accuracy.back() << "% (chance is 10%)\n";
  return learned ? 0 : 1;
}

// Every normalization, `seeds` seeds each, same epochs and data: a table and the mean test curves.
int run_comparison(bool spd, const std::string& name, const ManifoldDemoOptions& options, const Data& data,
                   std::ostream& out, std::ostream& progress, bool progress_is_tty) {
  std::vector<std::string> norms;
  if (spd) {
    for (const nn::SpdNormalization k : nn::all_spd_normalizations()) norms.push_back(nn::name_of(k));
  } else {
    for (const nn::GrassmannNormalization k : nn::all_grassmann_normalizations()) norms.push_back(nn::name_of(k));
  }
  const std::size_t per_run = data.train.labels.size() * static_cast<std::size_t>(options.epochs);
  ProgressBar bar(per_run * norms.size() * static_cast<std::size_t>(options.seeds), "compare " + name, progress,
                  progress_is_tty);
  out << std::left << std::setw(20) << "normalization" << std::setw(26) << "test acc % (mean ± std)" << std::setw(12)
      << "s / epoch"
      << "parameters\n";
  nlohmann::json variants = nlohmann::json::array();
  io::LinePlot plot{
      "gyre demo " + name + " --compare: mean test accuracy over " + std::to_string(options.seeds) + " seeds",
      "epoch",
      "test accuracy",
      {},
      std::nullopt,
      std::nullopt};
  bool all_learned = true;
  std::size_t finished = 0;
  for (const std::string& norm : norms) {
    std::vector<double> final_accuracy, seconds;
    std::vector<double> mean_curve(static_cast<std::size_t>(options.epochs), 0.0);
    nlohmann::json runs = nlohmann::json::array();
    std::size_t parameters = 0;
    for (int k = 0; k < options.seeds; ++k) {
      const std::uint64_t seed = options.seed + static_cast<std::uint64_t>(k);
      const TrainedRun run =
          train_once(spd, norm, seed, data, options.epochs, [&](std::size_t done, double l, double a) {
            bar.update(finished + done, norm + " seed " + std::to_string(seed) + " " + note_of(l, a));
          });
      finished += per_run;
      parameters = run.parameters;
      final_accuracy.push_back(run.test_accuracy.back());
      for (std::size_t e = 0; e < run.epochs.size(); ++e) {
        seconds.push_back(run.epochs[e].seconds);
        mean_curve[e] += run.test_accuracy[e] / options.seeds;
      }
      runs.push_back({{"seed", seed}, {"network", run.network}, {"epochs", epochs_json(run)}});
    }
    const double mean = mean_of(final_accuracy);
    all_learned = all_learned && mean >= 0.2;
    std::ostringstream accuracy;
    accuracy << std::fixed << std::setprecision(2) << 100 * mean << " ± " << 100 * std_of(final_accuracy);
    out << std::left << std::setw(20) << norm << std::setw(27) << accuracy.str() << std::setw(12) << std::fixed
        << std::setprecision(2) << mean_of(seconds) << parameters << "\n";
    variants.push_back({{"normalization", norm},
                        {"test_accuracy_mean", mean},
                        {"test_accuracy_std", std_of(final_accuracy)},
                        {"seconds_per_epoch", mean_of(seconds)},
                        {"parameters", parameters},
                        {"runs", runs}});
    plot.series.push_back({norm, epoch_axis(mean_curve.size()), mean_curve});
  }
  bar.finish();
  const std::string json_path = options.out_dir + "/gyre-demo-" + name + "-compare.json";
  const std::string svg_path = options.out_dir + "/gyre-demo-" + name + "-compare.svg";
  const nlohmann::json report{{"dataset", data.directory},
                              {"train_images", data.train.labels.size()},
                              {"test_images", data.test.labels.size()},
                              {"epochs", options.epochs},
                              {"seeds", options.seeds},
                              {"first_seed", options.seed},
                              {"variants", variants}};
  io::write_file_atomically(json_path, report.dump(2) + "\n");
  io::write_svg(plot, svg_path);
  out << "\nwrote " << json_path << " and " << svg_path << "\n"
      << (all_learned ? "every variant learned (mean test accuracy >= 20%, chance is 10%)\n"
                      : "FAILED: a variant's mean test accuracy is below 20%\n");
  return all_learned ? 0 : 1;
}

}  // namespace

int run_manifold_demo(ManifoldDemo which, const ManifoldDemoOptions& options, std::ostream& out, std::ostream& progress,
                      bool progress_is_tty) {
  const bool spd = which == ManifoldDemo::kSpd;
  const std::string name = spd ? "spd" : "grassmann";
  // Refuse an unknown normalization before loading anything.
  if (spd) {
    (void)nn::spd_normalization(options.norm);
  } else {
    (void)nn::grassmann_normalization(options.norm);
  }
  Data data;
  data.directory = options.data_dir.empty() ? io::default_fashion_mnist_directory() : options.data_dir;
  data.train = io::load_fashion_mnist(data.directory, true, options.train_images);
  data.test = io::load_fashion_mnist(data.directory, false, options.test_images);
  const auto descriptors = [&](const io::Dataset& d) {
    return spd ? region_covariances(d.images) : principal_subspaces(d.images, kSubspaceRank);
  };
  data.train_x = descriptors(data.train);
  data.test_x = descriptors(data.test);
  out << "Fashion-MNIST from " << data.directory << ": " << data.train.labels.size() << " training and "
      << data.test.labels.size() << " test images as "
      << (spd ? "7×7 region covariance descriptors (SPD)" : "spans of 4 leading left singular vectors (Gr(28, 4))")
      << ", " << options.epochs << " epochs, Riemannian Adam\n";
  if (options.compare) return run_comparison(spd, name, options, data, out, progress, progress_is_tty);
  return run_single(spd, name, options, data, out, progress, progress_is_tty);
}

}  // namespace gyre::tools
