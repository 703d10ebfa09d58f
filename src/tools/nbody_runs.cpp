#include "nbody_runs.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>

#include <Eigen/QR>

#include "gyre/core/progress_bar.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/nn/fit.hpp"
#include "gyre/nn/frame_averaging.hpp"
#include "gyre/nn/linear.hpp"
#include "gyre/nn/pointwise_nonlinearity.hpp"

namespace gyre::tools {
namespace {

// x ↦ Q·x + b on channel 0 (positions), v ↦ Q·v on the others, for every item of (B, C, P, d).
xt::xarray<float> act(const Matrix<double>& q, const Vector<double>& b, const xt::xarray<float>& x) {
  xt::xarray<float> y = x;
  const std::size_t batch = x.shape()[0], channels = x.shape()[1], points = x.shape()[2], d = x.shape()[3];
  for (std::size_t n = 0; n < batch; ++n) {
    for (std::size_t c = 0; c < channels; ++c) {
      for (std::size_t p = 0; p < points; ++p) {
        for (std::size_t r = 0; r < d; ++r) {
          double s = c == 0 ? b(static_cast<Eigen::Index>(r)) : 0.0;
          for (std::size_t k = 0; k < d; ++k) {
            s += q(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(k)) * static_cast<double>(x(n, c, p, k));
          }
          y(n, c, p, r) = static_cast<float>(s);
        }
      }
    }
  }
  return y;
}

xt::xarray<float> first(const xt::xarray<float>& x, std::size_t count) {
  std::vector<std::size_t> shape(x.shape().begin(), x.shape().end());
  shape[0] = std::min(count, shape[0]);
  xt::xarray<float> y = xt::xarray<float>::from_shape(shape);
  std::copy_n(x.data(), y.size(), y.data());
  return y;
}

double equivariance_error(nn::Module<float>& net, const xt::xarray<float>& states) {
  net.eval();
  const nn::NoGrad inference;
  const auto run = [&](const xt::xarray<float>& x) {
    return net.forward(nn::GeometricTensor<float>(net.in_type(), x)).data;
  };
  const xt::xarray<float> reference = run(states);
  double norm = 0;
  for (const float v : reference) norm += static_cast<double>(v) * v;
  const auto d = static_cast<Eigen::Index>(states.shape()[3]);
  Rng rng(2024);
  double worst = 0;
  for (int trial = 0; trial < 4; ++trial) {
    // A Haar-random orthogonal Q (rotation or reflection) and a translation of the data's scale.
    const Matrix<double> q = Eigen::HouseholderQR<Matrix<double>>(rng.normal_matrix<double>(d, d)).householderQ();
    const Vector<double> b = 2.0 * rng.normal_matrix<double>(d, 1);
    const xt::xarray<float> moved = run(act(q, b, states));
    const xt::xarray<float> expected = act(q, Vector<double>::Zero(d), reference);  // vectors: Q only
    double diff = 0;
    for (std::size_t i = 0; i < moved.size(); ++i) {
      const double e = static_cast<double>(moved.data()[i]) - expected.data()[i];
      diff += e * e;
    }
    worst = std::max(worst, std::sqrt(diff / norm));
  }
  return worst;
}

double forward_microseconds(nn::Module<float>& net, const xt::xarray<float>& states) {
  net.eval();
  const nn::NoGrad inference;
  std::vector<double> passes;
  for (int pass = 0; pass < 5; ++pass) {
    const auto start = std::chrono::steady_clock::now();
    static_cast<void>(net.forward(nn::GeometricTensor<float>(net.in_type(), states)));
    passes.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
  }
  std::nth_element(passes.begin(), passes.begin() + 2, passes.end());
  return passes[2] / static_cast<double>(states.shape()[0]);
}

}  // namespace

std::shared_ptr<nn::Sequential<float>> nbody_mlp(int particles, int dimension, int hidden, std::uint64_t seed) {
  const int cloud = particles * dimension;
  const nn::TensorType features(nn::Base::kNone, nn::EuclideanFiber{hidden, {}});
  auto mlp = std::make_shared<nn::Sequential<float>>();
  mlp->emplace<nn::Flatten<float>>(nn::point_cloud_type(2, particles, dimension));
  mlp->emplace<nn::Linear<float>>(2 * cloud, hidden, true, seed);
  mlp->emplace<nn::PointwiseELU<float>>(features);
  mlp->emplace<nn::Linear<float>>(hidden, hidden, true, seed + 1);
  mlp->emplace<nn::PointwiseELU<float>>(features);
  mlp->emplace<nn::Linear<float>>(hidden, cloud, true, seed + 2);
  mlp->emplace<nn::Unflatten<float>>(nn::point_cloud_type(1, particles, dimension));
  return mlp;
}

NBodyRunResult train_nbody(const std::string& name, nn::Module<float>& net, const io::NBodyDataset& train,
                           const io::NBodyDataset& test, const NBodyRunOptions& options, std::ostream& progress,
                           bool tty) {
  NBodyRunResult result;
  result.name = name;
  result.parameters = net.parameter_count();
  nn::FitOptions fit;
  fit.epochs = options.epochs;
  fit.batch_size = options.batch_size;
  fit.learning_rate = options.learning_rate;
  fit.seed = 5;
  ProgressBar bar(train.states.shape()[0] * static_cast<std::size_t>(options.epochs), "train " + name, progress, tty);
  const auto start = std::chrono::steady_clock::now();
  const std::vector<nn::RegressionEpoch> epochs = nn::fit_regressor(
      net, train.states, train.targets, fit,
      [&](std::size_t done, std::size_t, double mse) {
        std::ostringstream note;
        note << std::scientific << std::setprecision(2) << "mse " << mse;
        bar.update(done, note.str());
      },
      [&](int epoch) {
        result.epochs.push_back(epoch + 1);
        result.test_mse.push_back(nn::regression_error(net, test.states, test.targets));
        net.train(true);
      });
  result.train_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  bar.finish();
  for (const nn::RegressionEpoch& e : epochs) result.train_mse.push_back(e.mse);
  result.equivariance_error = equivariance_error(net, first(test.states, 64));
  result.microseconds_per_sample = forward_microseconds(net, test.states);
  return result;
}

io::NBodyDataset interaction_targets(const io::NBodyDataset& data, double duration) {
  io::NBodyDataset result = data;
  const std::size_t n = data.targets.shape()[0], p = data.targets.shape()[2], d = data.targets.shape()[3];
  for (std::size_t s = 0; s < n; ++s) {
    for (std::size_t i = 0; i < p; ++i) {
      for (std::size_t k = 0; k < d; ++k) {
        const double free_flight = static_cast<double>(data.states(s, 0, i, k)) + duration * data.states(s, 1, i, k);
        result.targets(s, 0, i, k) = static_cast<float>(data.targets(s, 0, i, k) - free_flight);
      }
    }
  }
  return result;
}

double zero_prediction_mse(const io::NBodyDataset& data) {
  double sum = 0;
  for (const float v : data.targets) sum += static_cast<double>(v) * v;
  return sum / static_cast<double>(std::max<std::size_t>(data.targets.size(), 1));
}

nlohmann::json to_json(const NBodyRunResult& r) {
  return {{"name", r.name},
          {"parameters", r.parameters},
          {"epochs", r.epochs},
          {"train_mse", r.train_mse},
          {"test_mse", r.test_mse},
          {"final_test_mse", r.test_mse.empty() ? 0.0 : r.test_mse.back()},
          {"equivariance_error", r.equivariance_error},
          {"microseconds_per_sample", r.microseconds_per_sample},
          {"train_seconds", r.train_seconds}};
}

}  // namespace gyre::tools
