#include "gyre/nn/fit.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>
#include <string>

#include <xtensor/xtensor.hpp>

#include "gyre/core/error.hpp"
#include "gyre/nn/cross_entropy.hpp"
#include "gyre/optim/adam.hpp"

namespace gyre::nn {

namespace {

/// Samples order[begin..end) of (N, …) as a new (end − begin, …) array.
xt::xarray<float> take(const xt::xarray<float>& inputs, const std::vector<std::size_t>& order, std::size_t begin,
                       std::size_t end) {
  std::vector<std::size_t> shape(inputs.shape().begin(), inputs.shape().end());
  const std::size_t sample = inputs.size() / shape[0];
  shape[0] = end - begin;
  xt::xarray<float> batch = xt::xarray<float>::from_shape(shape);
  for (std::size_t i = begin; i < end; ++i) {
    std::copy_n(inputs.data() + order[i] * sample, sample, batch.data() + (i - begin) * sample);
  }
  return batch;
}

xt::xtensor<float, 2> logits_of(const char* where, const GeometricTensor<float>& output, std::size_t batch) {
  if (output.data.dimension() != 2 || output.data.shape()[0] != batch) {
    throw ShapeError(where, "the network must output logits none × ℝ[K], data (N, K)", output.type.describe());
  }
  return xt::xtensor<float, 2>(output.data);
}

void check_sizes(const char* where, const xt::xarray<float>& inputs, const std::vector<int>& labels, int batch_size) {
  if (inputs.dimension() == 0 || labels.size() != inputs.shape()[0]) {
    throw ShapeError(where, "one label per sample " + std::to_string(inputs.dimension() ? inputs.shape()[0] : 0),
                     labels.size());
  }
  if (labels.empty()) throw ShapeError(where, "needs at least one sample", 0);
  if (!(batch_size >= 1)) throw DomainError(where, "batch size must be >= 1", batch_size);
}

void check_targets(const char* where, const xt::xarray<float>& inputs, const xt::xarray<float>& targets,
                   int batch_size) {
  if (inputs.dimension() == 0 || targets.dimension() == 0 || targets.shape()[0] != inputs.shape()[0]) {
    throw ShapeError(where, "one target per sample " + std::to_string(inputs.dimension() ? inputs.shape()[0] : 0),
                     targets.dimension() ? targets.shape()[0] : 0);
  }
  if (targets.shape()[0] == 0) throw ShapeError(where, "needs at least one sample", 0);
  if (!(batch_size >= 1)) throw DomainError(where, "batch size must be >= 1", batch_size);
  for (const float v : targets) {
    if (!std::isfinite(v)) throw DomainError(where, "targets must be finite", v);
  }
}

// Σ (y − t)² over a batch, and ∂/∂y of the mean over `count` entries into `grad` (if given).
double squared_error(const char* where, const GeometricTensor<float>& output, const xt::xarray<float>& target,
                     double count, xt::xarray<float>* grad) {
  if (!std::equal(output.data.shape().begin(), output.data.shape().end(), target.shape().begin(),
                  target.shape().end())) {
    throw ShapeError(where, "the network's output must have the targets' shape", output.type.describe());
  }
  double sum = 0;
  if (grad) *grad = xt::xarray<float>::from_shape(target.shape());
  for (std::size_t i = 0; i < target.size(); ++i) {
    const double r = static_cast<double>(output.data.data()[i]) - static_cast<double>(target.data()[i]);
    sum += r * r;
    if (grad) grad->data()[i] = static_cast<float>(2 * r / count);
  }
  return sum;
}

void require_finite_parameters(const char* where, Module<float>& net, std::size_t done) {
  for (const Parameter<float>* p : net.parameters()) {
    for (float v : p->value) {
      if (!std::isfinite(v))
        throw ConvergenceError(where, "parameter " + p->name + " became non-finite at sample", done);
    }
  }
}

}  // namespace

std::vector<FitEpoch> fit_classifier(Module<float>& net, const xt::xarray<float>& inputs,
                                     const std::vector<int>& labels, const FitOptions& options,
                                     const FitProgress& progress, const std::function<void(int)>& after_epoch) {
  const char* const where = "fit_classifier";
  check_sizes(where, inputs, labels, options.batch_size);
  optim::Adam<float> adam(net.parameters(), options.learning_rate);
  std::mt19937_64 engine(options.seed);
  std::vector<std::size_t> order(labels.size());
  std::iota(order.begin(), order.end(), 0);
  const std::size_t total = static_cast<std::size_t>(options.epochs) * order.size();
  const auto batch_size = static_cast<std::size_t>(options.batch_size);
  std::size_t done = 0;
  std::vector<FitEpoch> epochs;
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    net.train(true);
    const auto start = std::chrono::steady_clock::now();
    std::shuffle(order.begin(), order.end(), engine);
    double loss_sum = 0;
    std::size_t correct = 0;
    std::size_t seen = 0;
    for (std::size_t begin = 0; begin < order.size(); begin += batch_size) {
      const std::size_t end = std::min(order.size(), begin + batch_size);
      std::vector<int> batch_labels;
      for (std::size_t i = begin; i < end; ++i) batch_labels.push_back(labels[order[i]]);
      adam.zero_grad();
      const GeometricTensor<float> output =
          net.forward(GeometricTensor<float>(net.in_type(), take(inputs, order, begin, end)));
      const CrossEntropy<float> ce = cross_entropy(logits_of(where, output, end - begin), batch_labels);
      static_cast<void>(net.backward(GeometricTensor<float>(output.type, xt::xarray<float>(ce.grad))));
      adam.step();
      require_finite_parameters(where, net, done);
      loss_sum += static_cast<double>(ce.loss) * static_cast<double>(end - begin);
      correct += ce.correct;
      seen += end - begin;
      done += end - begin;
      if (progress)
        progress(done, total, loss_sum / static_cast<double>(seen),
                 static_cast<double>(correct) / static_cast<double>(seen));
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    epochs.push_back(
        {loss_sum / static_cast<double>(seen), static_cast<double>(correct) / static_cast<double>(seen), seconds});
    if (after_epoch) after_epoch(epoch);
  }
  net.eval();
  return epochs;
}

double classifier_accuracy(Module<float>& net, const xt::xarray<float>& inputs, const std::vector<int>& labels,
                           int batch_size) {
  const char* const where = "classifier_accuracy";
  check_sizes(where, inputs, labels, batch_size);
  net.eval();
  const NoGrad inference;
  std::vector<std::size_t> order(labels.size());
  std::iota(order.begin(), order.end(), 0);
  std::size_t correct = 0;
  for (std::size_t begin = 0; begin < order.size(); begin += static_cast<std::size_t>(batch_size)) {
    const std::size_t end = std::min(order.size(), begin + static_cast<std::size_t>(batch_size));
    const xt::xtensor<float, 2> logits = logits_of(
        where, net.forward(GeometricTensor<float>(net.in_type(), take(inputs, order, begin, end))), end - begin);
    for (std::size_t i = 0; i < end - begin; ++i) {
      std::size_t best = 0;
      for (std::size_t k = 1; k < logits.shape(1); ++k) {
        if (logits(i, k) > logits(i, best)) best = k;
      }
      correct += static_cast<int>(best) == labels[begin + i] ? 1 : 0;
    }
  }
  return static_cast<double>(correct) / static_cast<double>(labels.size());
}

std::vector<RegressionEpoch> fit_regressor(Module<float>& net, const xt::xarray<float>& inputs,
                                           const xt::xarray<float>& targets, const FitOptions& options,
                                           const RegressionProgress& progress,
                                           const std::function<void(int)>& after_epoch) {
  const char* const where = "fit_regressor";
  check_targets(where, inputs, targets, options.batch_size);
  optim::Adam<float> adam(net.parameters(), options.learning_rate);
  std::mt19937_64 engine(options.seed);
  std::vector<std::size_t> order(targets.shape()[0]);
  std::iota(order.begin(), order.end(), 0);
  const std::size_t total = static_cast<std::size_t>(options.epochs) * order.size();
  const auto batch_size = static_cast<std::size_t>(options.batch_size);
  const std::size_t entries = targets.size() / order.size();
  std::size_t done = 0;
  std::vector<RegressionEpoch> epochs;
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    net.train(true);
    const auto start = std::chrono::steady_clock::now();
    std::shuffle(order.begin(), order.end(), engine);
    double error_sum = 0;
    std::size_t seen = 0;
    for (std::size_t begin = 0; begin < order.size(); begin += batch_size) {
      const std::size_t end = std::min(order.size(), begin + batch_size);
      adam.zero_grad();
      const GeometricTensor<float> output =
          net.forward(GeometricTensor<float>(net.in_type(), take(inputs, order, begin, end)));
      xt::xarray<float> grad;
      error_sum += squared_error(where, output, take(targets, order, begin, end),
                                 static_cast<double>((end - begin) * entries), &grad);
      static_cast<void>(net.backward(GeometricTensor<float>(output.type, std::move(grad))));
      adam.step();
      require_finite_parameters(where, net, done);
      seen += end - begin;
      done += end - begin;
      if (progress) progress(done, total, error_sum / static_cast<double>(seen * entries));
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    epochs.push_back({error_sum / static_cast<double>(seen * entries), seconds});
    if (after_epoch) after_epoch(epoch);
  }
  net.eval();
  return epochs;
}

double regression_error(Module<float>& net, const xt::xarray<float>& inputs, const xt::xarray<float>& targets,
                        int batch_size) {
  const char* const where = "regression_error";
  check_targets(where, inputs, targets, batch_size);
  net.eval();
  const NoGrad inference;
  std::vector<std::size_t> order(targets.shape()[0]);
  std::iota(order.begin(), order.end(), 0);
  double sum = 0;
  for (std::size_t begin = 0; begin < order.size(); begin += static_cast<std::size_t>(batch_size)) {
    const std::size_t end = std::min(order.size(), begin + static_cast<std::size_t>(batch_size));
    const GeometricTensor<float> output =
        net.forward(GeometricTensor<float>(net.in_type(), take(inputs, order, begin, end)));
    sum += squared_error(where, output, take(targets, order, begin, end), 1.0, nullptr);
  }
  return sum / static_cast<double>(targets.size());
}

}  // namespace gyre::nn
