#include "manifold_demo_command.hpp"

#include <iomanip>
#include <memory>
#include <ostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "gyre/core/progress_bar.hpp"
#include "gyre/io/idx.hpp"
#include "gyre/io/line_plot.hpp"
#include "gyre/nn/fit.hpp"
#include "gyre/nn/manifold_models.hpp"
#include "image_descriptors.hpp"

namespace gyre::tools {
namespace {

constexpr int kClasses = 10;
constexpr int kSubspaceRank = 4;  // p of the Grassmann demo's Gr(28, p) inputs
constexpr std::uint64_t kSeed = 11;

}  // namespace

int run_manifold_demo(ManifoldDemo which, const ManifoldDemoOptions& options, std::ostream& out, std::ostream& progress,
                      bool progress_is_tty) {
  const bool spd = which == ManifoldDemo::kSpd;
  const std::string name = spd ? "spd" : "grassmann";
  const std::string directory = options.data_dir.empty() ? io::default_fashion_mnist_directory() : options.data_dir;
  const io::Dataset train = io::load_fashion_mnist(directory, true, options.train_images);
  const io::Dataset test = io::load_fashion_mnist(directory, false, options.test_images);
  const auto descriptors = [&](const io::Dataset& data) {
    return spd ? region_covariances(data.images) : principal_subspaces(data.images, kSubspaceRank);
  };
  const xt::xarray<float> train_x = descriptors(train);
  const xt::xarray<float> test_x = descriptors(test);
  // SPDNet: BiMap 7→6→4 with 8 channels; GrNet: FRMap 28→12 with 8 filters, pooled in pairs.
  auto net = spd ? nn::spdnet<float>({kRegionFeatures, 6, 4}, 8, kClasses, 1e-4, kSeed)
                 : nn::grnet<float>(static_cast<int>(train.images.shape(2)), 12, kSubspaceRank, 8, 2, kClasses, kSeed);
  out << "Fashion-MNIST from " << directory << ": " << train.labels.size() << " training and " << test.labels.size()
      << " test images as "
      << (spd ? "7×7 region covariance descriptors (SPD)" : "spans of 4 leading left singular vectors (Gr(28, 4))")
      << ", " << options.epochs << " epochs, Riemannian Adam\n"
      << "network: " << net->describe() << "\n"
      << "parameters: " << net->parameter_count() << "\n\n";

  nn::FitOptions fit;
  fit.epochs = options.epochs;
  fit.batch_size = 32;
  fit.learning_rate = spd ? 1e-2f : 5e-3f;
  fit.seed = kSeed;
  std::vector<double> test_accuracy;
  ProgressBar bar(train.labels.size() * static_cast<std::size_t>(options.epochs), "train " + name, progress,
                  progress_is_tty);
  const std::vector<nn::FitEpoch> epochs = nn::fit_classifier(
      *net, train_x, train.labels, fit,
      [&](std::size_t done, std::size_t, double loss, double accuracy) {
        std::ostringstream note;
        note << std::fixed << std::setprecision(3) << "loss " << loss << " acc " << std::setprecision(1)
             << 100 * accuracy << "%";
        bar.update(done, note.str());
      },
      [&](int) { test_accuracy.push_back(nn::classifier_accuracy(*net, test_x, test.labels)); });
  bar.finish();

  out << std::left << std::setw(8) << "epoch" << std::setw(10) << "loss" << std::setw(14) << "train acc %"
      << std::setw(13) << "test acc %"
      << "seconds\n";
  nlohmann::json rows = nlohmann::json::array();
  std::vector<double> epoch_axis;
  std::vector<double> train_accuracy;
  for (std::size_t e = 0; e < epochs.size(); ++e) {
    std::ostringstream row;
    row << std::left << std::setw(8) << e + 1 << std::setw(10) << std::fixed << std::setprecision(4) << epochs[e].loss
        << std::setw(14) << std::setprecision(2) << 100 * epochs[e].accuracy << std::setw(13) << 100 * test_accuracy[e]
        << std::setprecision(1) << epochs[e].seconds << "\n";
    out << row.str();
    rows.push_back({{"epoch", e + 1},
                    {"loss", epochs[e].loss},
                    {"train_accuracy", epochs[e].accuracy},
                    {"test_accuracy", test_accuracy[e]},
                    {"seconds", epochs[e].seconds}});
    epoch_axis.push_back(static_cast<double>(e + 1));
    train_accuracy.push_back(epochs[e].accuracy);
  }
  const std::string json_path = options.out_dir + "/gyre-demo-" + name + "-report.json";
  const std::string svg_path = options.out_dir + "/gyre-demo-" + name + "-training.svg";
  const nlohmann::json report{{"dataset", directory},
                              {"network", net->describe()},
                              {"parameters", net->parameter_count()},
                              {"train_images", train.labels.size()},
                              {"test_images", test.labels.size()},
                              {"optimizer", "Riemannian Adam, lr " + std::to_string(fit.learning_rate) + ", batch 32"},
                              {"epochs", rows}};
  io::write_file_atomically(json_path, report.dump(2) + "\n");
  io::LinePlot plot{"gyre demo " + name + ": Fashion-MNIST accuracy by epoch", "epoch", "accuracy", {}, 0.0, 1.0};
  plot.series.push_back({"train", epoch_axis, train_accuracy});
  plot.series.push_back({"test", epoch_axis, test_accuracy});
  io::write_svg(plot, svg_path);
  const bool learned = test_accuracy.back() >= 0.2;
  out << "\nwrote " << json_path << " and " << svg_path << "\n"
      << (learned ? "the network learned: test accuracy " : "FAILED: test accuracy ") << std::fixed
      << std::setprecision(2) << 100 * test_accuracy.back() << "% (chance is 10%)\n";
  return learned ? 0 : 1;
}

}  // namespace gyre::tools
