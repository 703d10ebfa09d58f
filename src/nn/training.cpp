#include "gyre/nn/training.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include <boost/math/constants/constants.hpp>

#include "gyre/core/error.hpp"
#include "gyre/nn/cross_entropy.hpp"
#include "gyre/nn/transform.hpp"
#include "gyre/optim/adam.hpp"

namespace gyre::nn {
namespace {

// SO(2) with trivial channels: the type under which transform() rotates plain images by any angle.
FieldType rotation_type(std::size_t channels) {
  const repr::PlanarGroup so2 = repr::PlanarGroup::so2(0);
  return FieldType(so2, repr::trivial_representation(so2), static_cast<int>(channels));
}

xt::xtensor<float, 4> take(const xt::xtensor<float, 4>& images, const std::vector<std::size_t>& order,
                           std::size_t begin, std::size_t end) {
  const std::size_t item = images.size() / images.shape(0);
  xt::xtensor<float, 4> batch =
      xt::xtensor<float, 4>::from_shape({end - begin, images.shape(1), images.shape(2), images.shape(3)});
  for (std::size_t i = begin; i < end; ++i) {
    std::copy_n(images.data() + order[i] * item, item, batch.data() + (i - begin) * item);
  }
  return batch;
}

}  // namespace

xt::xtensor<float, 4> pad_to_odd(const xt::xtensor<float, 4>& images) {
  const std::size_t h = images.shape(2) | 1;
  const std::size_t w = images.shape(3) | 1;
  xt::xtensor<float, 4> padded = xt::zeros<float>({images.shape(0), images.shape(1), h, w});
  for (std::size_t q = 0; q < images.shape(0) * images.shape(1); ++q)
    for (std::size_t r = 0; r < images.shape(2); ++r)
      std::copy_n(images.data() + (q * images.shape(2) + r) * images.shape(3), images.shape(3),
                  padded.data() + (q * h + r) * w);
  return padded;
}

xt::xtensor<float, 4> rotate_images(const xt::xtensor<float, 4>& images, const std::vector<double>& angles) {
  if (angles.size() != images.shape(0)) {
    throw ShapeError("rotate_images", "one angle per image " + std::to_string(images.shape(0)), angles.size());
  }
  const FieldType type = rotation_type(images.shape(1));
  xt::xtensor<float, 4> rotated = xt::xtensor<float, 4>::from_shape(images.shape());
  const std::size_t item = images.size() / std::max<std::size_t>(images.shape(0), 1);
  for (std::size_t i = 0; i < images.shape(0); ++i) {
    xt::xtensor<float, 4> one =
        xt::xtensor<float, 4>::from_shape({1, images.shape(1), images.shape(2), images.shape(3)});
    std::copy_n(images.data() + i * item, item, one.data());
    const GeometricTensor<float> moved = transform(GeometricTensor<float>(type, std::move(one)), {0, angles[i]});
    std::copy_n(moved.data.data(), item, rotated.data() + i * item);
  }
  return rotated;
}

xt::xtensor<float, 2> flatten_logits(const GeometricTensor<float>& output) {
  if (output.data.shape(2) != 1 || output.data.shape(3) != 1) {
    throw ShapeError("flatten_logits", "the network must end in 1×1 maps (global pooling)",
                     std::to_string(output.data.shape(2)) + "x" + std::to_string(output.data.shape(3)));
  }
  if (output.data.dimension() != 4)
    throw ShapeError("flatten_logits", "the network must output feature maps", output.type.describe());
  xt::xtensor<float, 2> logits = xt::xtensor<float, 2>::from_shape({output.data.shape(0), output.data.shape(1)});
  std::copy(output.data.begin(), output.data.end(), logits.begin());
  return logits;
}

std::vector<EpochResult> train_classifier(Module<float>& net, const xt::xtensor<float, 4>& images,
                                          const std::vector<int>& labels, const TrainOptions& options,
                                          const TrainProgress& progress) {
  if (labels.size() != images.shape(0)) {
    throw ShapeError("train_classifier", "one label per image " + std::to_string(images.shape(0)), labels.size());
  }
  if (!(options.batch_size >= 1)) throw DomainError("train_classifier", "batch size must be >= 1", options.batch_size);
  net.train(true);
  optim::Adam<float> adam(net.parameters(), options.learning_rate, 0.9f, 0.999f, 1e-8f, options.weight_decay);
  std::mt19937_64 engine(options.seed);
  std::uniform_real_distribution<double> angle(0.0, boost::math::constants::two_pi<double>());
  std::vector<std::size_t> order(images.shape(0));
  std::iota(order.begin(), order.end(), 0);
  std::vector<EpochResult> results;
  const std::size_t total = static_cast<std::size_t>(options.epochs) * order.size();
  std::size_t done = 0;
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    std::shuffle(order.begin(), order.end(), engine);
    double loss_sum = 0;
    std::size_t correct = 0;
    std::size_t seen = 0;
    for (std::size_t begin = 0; begin < order.size(); begin += static_cast<std::size_t>(options.batch_size)) {
      const std::size_t end = std::min(order.size(), begin + static_cast<std::size_t>(options.batch_size));
      xt::xtensor<float, 4> batch = take(images, order, begin, end);
      if (options.random_rotations) {
        std::vector<double> angles(end - begin);
        for (double& a : angles) a = angle(engine);
        batch = rotate_images(batch, angles);
      }
      std::vector<int> batch_labels;
      for (std::size_t i = begin; i < end; ++i) batch_labels.push_back(labels[order[i]]);
      adam.zero_grad();
      const GeometricTensor<float> output = net.forward(GeometricTensor<float>(net.in_type(), std::move(batch)));
      const CrossEntropy<float> ce = cross_entropy(flatten_logits(output), batch_labels);
      xt::xtensor<float, 4> grad = xt::xtensor<float, 4>::from_shape(output.data.shape());
      std::copy(ce.grad.begin(), ce.grad.end(), grad.begin());
      static_cast<void>(net.backward(GeometricTensor<float>(output.type, std::move(grad))));
      adam.step();
      // A NaN can hide behind a ReLU (NaN > 0 is false) and kill the network silently: refuse it.
      for (const Parameter<float>* p : net.parameters()) {
        for (float v : p->value) {
          if (!std::isfinite(v))
            throw ConvergenceError("train_classifier", "parameter " + p->name + " became non-finite at image", done);
        }
      }
      loss_sum += static_cast<double>(ce.loss) * static_cast<double>(end - begin);
      correct += ce.correct;
      seen += end - begin;
      done += end - begin;
      if (progress)
        progress(done, total, loss_sum / static_cast<double>(seen),
                 static_cast<double>(correct) / static_cast<double>(seen));
    }
    results.push_back({loss_sum / static_cast<double>(seen), static_cast<double>(correct) / static_cast<double>(seen)});
  }
  net.eval();
  return results;
}

double rotated_accuracy(Module<float>& net, const xt::xtensor<float, 4>& images, const std::vector<int>& labels,
                        double angle, int batch_size) {
  if (labels.size() != images.shape(0)) {
    throw ShapeError("rotated_accuracy", "one label per image " + std::to_string(images.shape(0)), labels.size());
  }
  net.eval();
  const NoGrad inference;  // nothing here is differentiated: save nothing for backward
  std::vector<std::size_t> order(images.shape(0));
  std::iota(order.begin(), order.end(), 0);
  std::size_t correct = 0;
  for (std::size_t begin = 0; begin < order.size(); begin += static_cast<std::size_t>(batch_size)) {
    const std::size_t end = std::min(order.size(), begin + static_cast<std::size_t>(batch_size));
    xt::xtensor<float, 4> batch =
        rotate_images(take(images, order, begin, end), std::vector<double>(end - begin, angle));
    const xt::xtensor<float, 2> logits =
        flatten_logits(net.forward(GeometricTensor<float>(net.in_type(), std::move(batch))));
    for (std::size_t i = 0; i < end - begin; ++i) {
      std::size_t best = 0;
      for (std::size_t k = 1; k < logits.shape(1); ++k) {
        if (logits(i, k) > logits(i, best)) best = k;
      }
      correct += static_cast<int>(best) == labels[begin + i] ? 1 : 0;
    }
  }
  return static_cast<double>(correct) / static_cast<double>(images.shape(0));
}

}  // namespace gyre::nn
