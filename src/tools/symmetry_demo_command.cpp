#include "symmetry_demo_command.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <memory>
#include <ostream>
#include <sstream>

#include <nlohmann/json.hpp>
#include <xtensor/xview.hpp>

#include "gyre/core/error.hpp"
#include "gyre/io/idx.hpp"
#include "gyre/io/line_plot.hpp"
#include "gyre/io/nbody.hpp"
#include "gyre/nn/frame_averaging.hpp"
#include "gyre/nn/group_downsample.hpp"
#include "gyre/nn/models.hpp"
#include "gyre/nn/rotation_canonicalized.hpp"
#include "gyre/nn/training.hpp"
#include "image_runs.hpp"
#include "nbody_runs.hpp"

namespace gyre::tools {
namespace {

// The equivariance error to the full group G of what the downsampling layer keeps of the learned
// features: with R = U·M the reconstruction after the layer's map M (U·D anti-aliased, U·S naive),
//   ‖R·λ_g·f − λ_g·R·f‖ / ‖f‖  over every g ∈ G and every field vector f at every pixel
// (sums of squares over both). Zero for band-limited features under anti-aliasing; what the naive
// layer adds is aliasing.
double learned_aliasing(nn::Sequential<float>& net, const xt::xtensor<float, 4>& images) {
  net.eval();
  const nn::NoGrad inference;
  nn::GeometricTensor<float> x(net.in_type(), images);
  for (std::size_t i = 0; i < net.size(); ++i) {
    const auto* down = dynamic_cast<const nn::GroupDownsample<float>*>(&net[i]);
    if (down == nullptr) {
      x = net[i].forward(x);
      continue;
    }
    const repr::PlanarGroup& group = down->in_type().fields().group();
    const auto order = static_cast<Eigen::Index>(group.order());
    const Matrix<double> reconstruct = down->operators().upsample * down->field_map();
    // Every field vector at every pixel as a column of f (|G| × count).
    const std::size_t batch = x.data.shape()[0], channels = x.data.shape()[1];
    const std::size_t plane = x.data.shape()[2] * x.data.shape()[3];
    const std::size_t fields = channels / static_cast<std::size_t>(order);
    Matrix<double> f(order, static_cast<Eigen::Index>(batch * fields * plane));
    Eigen::Index column = 0;
    for (std::size_t b = 0; b < batch; ++b) {
      for (std::size_t k = 0; k < fields; ++k) {
        for (std::size_t p = 0; p < plane; ++p, ++column) {
          for (Eigen::Index e = 0; e < order; ++e) {
            f(e, column) =
                x.data
                    .data()[(b * channels + k * static_cast<std::size_t>(order) + static_cast<std::size_t>(e)) * plane +
                            p];
          }
        }
      }
    }
    double error = 0, norm = 0;
    for (const repr::PlanarElement& g : group.elements()) {
      const Matrix<double> lambda = repr::left_translation(group, g);
      error += ((reconstruct * lambda - lambda * reconstruct) * f).squaredNorm();
      norm += f.squaredNorm();
    }
    return std::sqrt(error / norm);
  }
  throw ShapeError("learned_aliasing", "the network has no GroupDownsample layer", net.describe());
}

struct CanonicalizationCost {
  double canonicalize_us = 0;  // θ* and the resampling, per image
  double backbone_us = 0;      // the plain CNN's forward, per image
  double mean_iterations = 0;  // Newton/gradient steps per image, summed over the starts
  std::size_t ambiguous = 0;
};

CanonicalizationCost canonicalization_cost(nn::RotationCanonicalized<float>& wrapped, nn::Module<float>& backbone,
                                           const xt::xtensor<float, 4>& images) {
  wrapped.eval();
  const nn::NoGrad inference;
  const nn::GeometricTensor<float> x(wrapped.in_type(), images);
  const auto per_image = [&](auto&& work) {
    std::vector<double> passes;
    for (int pass = 0; pass < 3; ++pass) {
      const auto start = std::chrono::steady_clock::now();
      work();
      passes.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(passes.begin(), passes.end());
    return passes[1] / static_cast<double>(images.shape(0));
  };
  CanonicalizationCost cost;
  std::vector<nn::CanonicalRotation> rotations;
  nn::GeometricTensor<float> canonical = x;
  cost.canonicalize_us = per_image([&] {
    rotations = nn::canonical_rotations(x);
    canonical = nn::canonicalize_rotation(x, rotations);
  });
  const nn::GeometricTensor<float> backbone_input(backbone.in_type(), canonical.data);
  cost.backbone_us = per_image([&] { static_cast<void>(backbone.forward(backbone_input)); });
  for (const nn::CanonicalRotation& r : rotations) {
    cost.mean_iterations += r.iterations;
    cost.ambiguous += r.ambiguous ? 1 : 0;
  }
  cost.mean_iterations /= static_cast<double>(std::max<std::size_t>(rotations.size(), 1));
  return cost;
}

std::string fixed(double v, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << v;
  return s.str();
}

std::string scientific(double v) {
  std::ostringstream s;
  s << std::scientific << std::setprecision(1) << v;
  return s.str();
}

}  // namespace

int run_symmetry_demo(const SymmetryDemoOptions& options, std::ostream& out, std::ostream& progress, bool tty) {
  const ImageRunOptions run{options.epochs, options.angle_step_degrees};
  const PaddedFashionMnist data =
      load_for_image_runs(options.data_dir, options.train_images, options.test_images, run, out);
  const io::Dataset& train = data.train;
  const io::Dataset& test = data.test;
  const std::string& directory = data.directory;

  // Group downsampling: D8 → D4 after the first pooling, anti-aliased or naive, same initialisation.
  const repr::PlanarGroup d8 = repr::PlanarGroup::dihedral(8);
  auto anti_aliased = nn::downsampling_cnn(d8, 2, true, 3, 6);
  auto naive = nn::downsampling_cnn(d8, 2, false, 3, 6);
  // Canonicalization: the plain CNN alone and on canonical images, same initialisation.
  auto plain = nn::plain_cnn(11, 14);
  std::shared_ptr<nn::Sequential<float>> backbone = nn::plain_cnn(11, 14);
  nn::RotationCanonicalized<float> canonicalized(backbone);

  const ImageRunResult r_anti =
      train_and_evaluate("D8-D4 anti-aliased", *anti_aliased, train, test, run, progress, tty);
  const ImageRunResult r_naive = train_and_evaluate("D8-D4 naive", *naive, train, test, run, progress, tty);
  const ImageRunResult r_plain = train_and_evaluate("plain CNN", *plain, train, test, run, progress, tty);
  const ImageRunResult r_canon =
      train_and_evaluate("canonicalized CNN", canonicalized, train, test, run, progress, tty);

  const std::size_t probe = std::min<std::size_t>(16, test.labels.size());
  const xt::xtensor<float, 4> probe_images = xt::view(test.images, xt::range(0, probe));
  const double aliasing_anti = learned_aliasing(*anti_aliased, probe_images);
  const double aliasing_naive = learned_aliasing(*naive, probe_images);
  const CanonicalizationCost cost = canonicalization_cost(canonicalized, *backbone, test.images);

  print_image_runs({&r_anti, &r_naive, &r_plain, &r_canon}, out);
  out << "\naliasing of the learned D8 features at the downsampling layer (equivariance error to D8):\n"
      << "  anti-aliased " << scientific(aliasing_anti) << "   naive " << scientific(aliasing_naive) << "\n"
      << "canonicalization: " << fixed(cost.canonicalize_us, 1) << " µs per image (θ* by "
      << fixed(cost.mean_iterations, 1) << " Newton steps over 12 starts, then bilinear resampling), the CNN "
      << fixed(cost.backbone_us, 1) << " µs per image: " << fixed(cost.canonicalize_us / cost.backbone_us, 2)
      << "× a backbone forward; " << cost.ambiguous << " of " << test.labels.size() << " test images ambiguous\n";

  // Frame averaging on the charged n-body task.
  const io::NBodyOptions system;
  progress << "simulating " << options.nbody_train + options.nbody_test << " n-body systems\n";
  const io::NBodyDataset nbody_train =
      interaction_targets(io::simulate_nbody(options.nbody_train, system, 1), system.duration);
  const io::NBodyDataset nbody_test =
      interaction_targets(io::simulate_nbody(options.nbody_test, system, 2), system.duration);
  const NBodyRunOptions nbody_run{options.nbody_epochs, 32, 1e-3f};
  auto mlp = nbody_mlp(system.particles, system.dimension, 64, 3);
  nn::FrameAveraging<float> averaged(nbody_mlp(system.particles, system.dimension, 64, 3), nn::FrameGroup::kE,
                                     nn::FrameOutput::kVectors);
  const NBodyRunResult r_mlp = train_nbody("MLP", *mlp, nbody_train, nbody_test, nbody_run, progress, tty);
  const NBodyRunResult r_fa = train_nbody("FA-MLP E(3)", averaged, nbody_train, nbody_test, nbody_run, progress, tty);
  const double baseline = zero_prediction_mse(nbody_test);

  out << "\ncharged " << system.particles << "-body system in 3-d: from positions and velocities predict what the "
      << "interactions add to free flight by T = " << system.duration << ", x(T) - (x + T*v): " << options.nbody_train
      << " training and " << options.nbody_test << " test states, " << options.nbody_epochs << " epochs, Adam\n"
      << std::left << std::setw(14) << "model" << std::setw(12) << "parameters" << std::setw(12) << "train (s)"
      << std::setw(14) << "test MSE" << std::setw(20) << "equivariance err."
      << "µs per state\n";
  for (const NBodyRunResult* r : {&r_mlp, &r_fa}) {
    out << std::left << std::setw(14) << r->name << std::setw(12) << r->parameters << std::setw(12)
        << fixed(r->train_seconds, 1) << std::setw(14) << scientific(r->test_mse.back()) << std::setw(20)
        << scientific(r->equivariance_error) << fixed(r->microseconds_per_sample, 1) << "\n";
  }
  out << std::left << std::setw(38) << "free flight (predict 0)" << scientific(baseline) << "\n";

  const std::string json_path = options.out_dir + "/gyre-symmetry-report.json";
  const std::string accuracy_svg = options.out_dir + "/gyre-symmetry-accuracy.svg";
  const std::string nbody_svg = options.out_dir + "/gyre-symmetry-nbody.svg";
  nlohmann::json report{{"dataset", directory},
                        {"train_images", train.labels.size()},
                        {"test_images", test.labels.size()},
                        {"epochs", options.epochs},
                        {"image_models", {to_json(r_anti), to_json(r_naive), to_json(r_plain), to_json(r_canon)}},
                        {"learned_feature_aliasing", {{"anti_aliased", aliasing_anti}, {"naive", aliasing_naive}}},
                        {"canonicalization",
                         {{"microseconds_per_image", cost.canonicalize_us},
                          {"backbone_microseconds_per_image", cost.backbone_us},
                          {"mean_newton_steps", cost.mean_iterations},
                          {"ambiguous_images", cost.ambiguous}}},
                        {"nbody",
                         {{"particles", system.particles},
                          {"dimension", system.dimension},
                          {"duration", system.duration},
                          {"train_states", options.nbody_train},
                          {"test_states", options.nbody_test},
                          {"target", "x(T) - (x(0) + T*v(0))"},
                          {"free_flight_mse", baseline},
                          {"models", {to_json(r_mlp), to_json(r_fa)}}}}};
  io::write_file_atomically(json_path, report.dump(2) + "\n");
  io::LinePlot accuracy{
      "Fashion-MNIST: test accuracy vs rotation of the test images", "rotation (degrees)", "accuracy", {}, 0.0, 1.0};
  for (const ImageRunResult* r : {&r_anti, &r_naive, &r_plain, &r_canon}) {
    accuracy.series.push_back(
        {r->name + " (" + std::to_string(r->parameters) + " params)", r->angles_degrees, r->accuracy});
  }
  io::write_svg(accuracy, accuracy_svg);
  io::LinePlot curves{"Charged n-body: test error by epoch", "epoch", "log10 test MSE", {}, {}, {}};
  for (const NBodyRunResult* r : {&r_mlp, &r_fa}) {
    std::vector<double> logs;
    for (const double mse : r->test_mse) logs.push_back(std::log10(mse));
    curves.series.push_back({r->name + " (" + std::to_string(r->parameters) + " params)", r->epochs, logs});
  }
  curves.series.push_back({"free flight (predict 0)",
                           {r_mlp.epochs.front(), r_mlp.epochs.back()},
                           {std::log10(baseline), std::log10(baseline)}});
  io::write_svg(curves, nbody_svg);

  std::vector<std::string> failures;
  if (!(aliasing_anti < aliasing_naive))
    failures.push_back("anti-aliasing does not lower the learned features' aliasing");
  if (!(r_fa.equivariance_error <= 1e-4)) failures.push_back("the frame-averaged MLP is not equivariant to 1e-4");
  if (!(r_mlp.equivariance_error >= 1e-2)) failures.push_back("the plain MLP is unexpectedly equivariant");
  if (!(r_canon.invariance_quarter_turns <= 1e-4))
    failures.push_back("the canonicalized CNN is not invariant to quarter turns");
  if (!(r_plain.invariance_quarter_turns >= 1e-2)) failures.push_back("the plain CNN is unexpectedly invariant");
  out << "\nwrote " << json_path << ", " << accuracy_svg << " and " << nbody_svg << "\n";
  for (const std::string& f : failures) out << "FAILED: " << f << "\n";
  if (failures.empty()) out << "every exactness claim holds on the data\n";
  return failures.empty() ? 0 : 1;
}

}  // namespace gyre::tools
