#pragma once
// Training and evaluating classifiers on features of any type — SPD matrices, subspace bases,
// plain vectors — with minibatch Adam on cross-entropy, and regressors (point-cloud dynamics, any
// Euclidean target) on the mean squared error. Parameters on a manifold (BiMap's Stiefel
// weights) take Riemannian Adam steps and stay on it; Euclidean ones take torch's Adam steps.
// The network maps net.in_type() features, data (N, C, item…), to logits none × ℝ[K], data (N, K).
// (train_classifier in training.hpp is the image-specific loop with rotation augmentation.)

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <cstdint>
#include <functional>
#include <vector>

#include <xtensor/xarray.hpp>

#include "gyre/nn/module.hpp"

namespace gyre::nn {

/// Minibatch settings of fit_classifier.
struct FitOptions {
  int epochs = 1;
  int batch_size = 32;
  float learning_rate = 1e-2f;
  std::uint64_t seed = 0;
};

/// Mean loss and accuracy of one epoch, and its wall time.
struct FitEpoch {
  double loss = 0;
  double accuracy = 0;
  double seconds = 0;
};

/// Called after each batch with (samples done, total samples, running loss, running accuracy).
using FitProgress = std::function<void(std::size_t, std::size_t, double, double)>;

/// Trains net on (inputs, labels) with (Riemannian) Adam; `after_epoch(e)` runs after each epoch
/// (evaluation, logging). Throws ShapeError if labels.size() ≠ N or the logits are not (N, K),
/// DomainError for a batch size < 1, ConvergenceError if a parameter becomes non-finite.
std::vector<FitEpoch> fit_classifier(Module<float>& net, const xt::xarray<float>& inputs,
                                     const std::vector<int>& labels, const FitOptions& options,
                                     const FitProgress& progress = {},
                                     const std::function<void(int)>& after_epoch = {});

/// The fraction of samples whose largest logit is at their label (evaluation mode, no saved state).
[[nodiscard]] double classifier_accuracy(Module<float>& net, const xt::xarray<float>& inputs,
                                         const std::vector<int>& labels, int batch_size = 256);

/// Mean squared error of one epoch (over samples and output entries, torch's MSELoss) and its wall time.
struct RegressionEpoch {
  double mse = 0;
  double seconds = 0;
};

/// Called after each batch with (samples done, total samples, running mean squared error).
using RegressionProgress = std::function<void(std::size_t, std::size_t, double)>;

/// Trains net on (inputs, targets) with (Riemannian) Adam on the mean squared error; targets have
/// the network's output shape (N, …). `after_epoch(e)` runs after each epoch (evaluation, logging). Throws ShapeError if the output and target shapes differ or
/// N = 0, DomainError for a batch size < 1 or non-finite targets, ConvergenceError if a parameter
/// becomes non-finite.
std::vector<RegressionEpoch> fit_regressor(Module<float>& net, const xt::xarray<float>& inputs,
                                           const xt::xarray<float>& targets, const FitOptions& options,
                                           const RegressionProgress& progress = {},
                                           const std::function<void(int)>& after_epoch = {});

/// The mean squared error of net (evaluation mode, no saved state) on (inputs, targets).
[[nodiscard]] double regression_error(Module<float>& net, const xt::xarray<float>& inputs,
                                      const xt::xarray<float>& targets, int batch_size = 256);

}  // namespace gyre::nn
