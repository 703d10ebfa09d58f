#pragma once
// Training point-cloud regressors on the charged n-body task (io/nbody.hpp) and measuring them: test
// error by epoch, E(d)-equivariance error, time per sample. Used by `gyre demo symmetry` to compare
// a plain MLP with the same MLP under frame averaging.

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gyre/io/nbody.hpp"
#include "gyre/nn/sequential.hpp"

namespace gyre::tools {

/// Minibatch Adam settings of one run.
struct NBodyRunOptions {
  int epochs = 40;
  int batch_size = 32;
  float learning_rate = 1e-3f;
};

/// What one trained regressor measured.
struct NBodyRunResult {
  std::string name;
  std::size_t parameters = 0;
  std::vector<double> epochs, train_mse, test_mse;  // per epoch
  double equivariance_error = 0;  // max over 4 isometries g of ‖Φ(g·X) − g·Φ(X)‖/‖Φ(X)‖, 64 test states
  double microseconds_per_sample = 0;  // forward, evaluation mode, median of 5 passes over the test set
  double train_seconds = 0;
};

/// Flatten → Linear(2·P·d → hidden) → ELU → Linear(hidden → hidden) → ELU → Linear(hidden → P·d) →
/// Unflatten: positions and velocities in, one d-vector per particle out.
[[nodiscard]] std::shared_ptr<nn::Sequential<float>> nbody_mlp(int particles, int dimension, int hidden,
                                                               std::uint64_t seed);

/// Trains net (states → target positions) with a progress bar and measures it.
[[nodiscard]] NBodyRunResult train_nbody(const std::string& name, nn::Module<float>& net, const io::NBodyDataset& train,
                                         const io::NBodyDataset& test, const NBodyRunOptions& options,
                                         std::ostream& progress, bool tty);

/// The same states with targets x(T) − (x + T·v): what the interactions add to free flight, a
/// translation-invariant, rotation-equivariant vector per particle. Predicting zero (free flight)
/// has the mean square of these targets as its error: the scale the networks must beat.
[[nodiscard]] io::NBodyDataset interaction_targets(const io::NBodyDataset& data, double duration);

/// The mean square of the targets: the error of predicting zero.
[[nodiscard]] double zero_prediction_mse(const io::NBodyDataset& data);

[[nodiscard]] nlohmann::json to_json(const NBodyRunResult& r);

}  // namespace gyre::tools
