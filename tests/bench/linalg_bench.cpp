// Batched spectral functions (forward, and forward + backward) and batched QR (the same) on
// 1000 small matrices, against the one-item path item by item (Eigen's eigensolver or QR with
// the formulas of symmetric_functions.hpp, in gyre::parallel_for). Run:
//   build/bench/tests/bench/gyre_bench_linalg --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
// Arguments: n (or n, p) and the number of threads.
#include <cstddef>
#include <cstdint>
#include <utility>

#include <Eigen/QR>
#include <benchmark/benchmark.h>
#include <omp.h>

#include "gyre/core/parallel.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/linalg/batched_qr.hpp"
#include "gyre/linalg/batched_spectral_function.hpp"

namespace {

constexpr std::size_t kBatch = 1000;

template <class T>
using RowMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// kBatch random n×p matrices (Gaussian), or SPD ones (G·Gᵀ/n + I/2) when spd is set.
template <class T>
xt::xarray<T> random_batch(std::size_t n, std::size_t p, bool spd) {
  xt::xarray<T> out = xt::xarray<T>::from_shape({kBatch, n, p});
  gyre::Rng rng(7);
  for (std::size_t b = 0; b < kBatch; ++b) {
    const auto rows = static_cast<Eigen::Index>(n);
    const gyre::Matrix<double> g = rng.normal_matrix<double>(rows, static_cast<Eigen::Index>(p));
    const gyre::Matrix<double> item =
        spd ? gyre::Matrix<double>(g * g.transpose() / double(n) + gyre::Matrix<double>::Identity(rows, rows) / 2) : g;
    Eigen::Map<RowMajor<T>>(out.data() + b * n * p, rows, static_cast<Eigen::Index>(p)) = item.cast<T>();
  }
  return out;
}

template <class T, class F>
void spectral(benchmark::State& state, F f, bool with_backward) {
  const auto n = static_cast<std::size_t>(state.range(0));
  omp_set_num_threads(static_cast<int>(state.range(1)));
  const xt::xarray<T> x = random_batch<T>(n, n, true);
  const xt::xarray<T> g = random_batch<T>(n, n, false);
  // Outputs kept between iterations, as a layer keeps them between steps (see the header).
  gyre::linalg::SpectralForward<T> forward;
  xt::xarray<T> grad_x;
  for (auto _ : state) {
    gyre::linalg::batched_spectral_function(x, f, forward);
    benchmark::DoNotOptimize(forward.value.data());
    if (with_backward) gyre::linalg::batched_spectral_function_backward(forward.saved, f, g, grad_x);
    benchmark::DoNotOptimize(grad_x.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kBatch));
}

// The one-item path: Eigen's SelfAdjointEigenSolver, apply and frechet_derivative per item.
template <class T, class F>
void spectral_item_by_item(benchmark::State& state, F f, bool with_backward) {
  const auto n = static_cast<Eigen::Index>(state.range(0));
  omp_set_num_threads(static_cast<int>(state.range(1)));
  const xt::xarray<T> x = random_batch<T>(static_cast<std::size_t>(n), static_cast<std::size_t>(n), true);
  const xt::xarray<T> g = random_batch<T>(static_cast<std::size_t>(n), static_cast<std::size_t>(n), false);
  xt::xarray<T> y = xt::xarray<T>::from_shape(x.shape());
  xt::xarray<T> grad = xt::xarray<T>::from_shape(x.shape());
  const auto item = static_cast<std::size_t>(n * n);
  for (auto _ : state) {
    gyre::parallel_for(static_cast<std::ptrdiff_t>(kBatch), [&](std::ptrdiff_t b) {
      const auto offset = static_cast<std::size_t>(b) * item;
      const gyre::Matrix<T> xi = Eigen::Map<const RowMajor<T>>(x.data() + offset, n, n);
      const gyre::linalg::SymmetricEigen<T> e = gyre::linalg::symmetric_eigen<T>(xi);
      Eigen::Map<RowMajor<T>>(y.data() + offset, n, n) = gyre::linalg::apply(e, f);
      if (with_backward) {
        const gyre::Matrix<T> gi = Eigen::Map<const RowMajor<T>>(g.data() + offset, n, n);
        Eigen::Map<RowMajor<T>>(grad.data() + offset, n, n) =
            gyre::linalg::frechet_derivative(e, f, gyre::Matrix<T>((gi + gi.transpose()) / T(2)));
      }
    });
    benchmark::DoNotOptimize(y.data());
    benchmark::DoNotOptimize(grad.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kBatch));
}

template <class T>
void qr(benchmark::State& state, bool with_backward) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto p = static_cast<std::size_t>(state.range(1));
  omp_set_num_threads(static_cast<int>(state.range(2)));
  const xt::xarray<T> a = random_batch<T>(n, p, false);
  const xt::xarray<T> g = random_batch<T>(n, p, false);
  gyre::linalg::BatchedQr<T> factors;
  xt::xarray<T> grad_a;
  for (auto _ : state) {
    gyre::linalg::batched_qr(a, factors);
    benchmark::DoNotOptimize(factors.q.data());
    if (with_backward) gyre::linalg::batched_qr_backward(factors, g, nullptr, grad_a);
    benchmark::DoNotOptimize(grad_a.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kBatch));
}

void spectral_arguments(benchmark::internal::Benchmark* b) {
  for (const int n : {5, 12, 20, 30}) {
    for (const int threads : {1, 2}) b->Args({n, threads});
  }
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}

void qr_arguments(benchmark::internal::Benchmark* b) {
  for (const auto& [n, p] : {std::pair{20, 5}, std::pair{100, 10}}) {
    for (const int threads : {1, 2}) b->Args({n, p, threads});
  }
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}

void log_forward_double(benchmark::State& s) { spectral<double>(s, gyre::linalg::Log{}, false); }
void log_forward_backward_double(benchmark::State& s) { spectral<double>(s, gyre::linalg::Log{}, true); }
void log_forward_backward_double_item_by_item(benchmark::State& s) {
  spectral_item_by_item<double>(s, gyre::linalg::Log{}, true);
}
void log_forward_backward_float(benchmark::State& s) { spectral<float>(s, gyre::linalg::Log{}, true); }
void rectify_forward_backward_double(benchmark::State& s) { spectral<double>(s, gyre::linalg::Rectify{0.6}, true); }
void qr_forward_double(benchmark::State& s) { qr<double>(s, false); }
void qr_forward_backward_double(benchmark::State& s) { qr<double>(s, true); }
void qr_forward_backward_float(benchmark::State& s) { qr<float>(s, true); }

}  // namespace

BENCHMARK(log_forward_double)->Apply(spectral_arguments);
BENCHMARK(log_forward_backward_double)->Apply(spectral_arguments);
BENCHMARK(log_forward_backward_double_item_by_item)->Apply(spectral_arguments);
BENCHMARK(log_forward_backward_float)->Apply(spectral_arguments);
BENCHMARK(rectify_forward_backward_double)->Apply(spectral_arguments);
BENCHMARK(qr_forward_double)->Apply(qr_arguments);
BENCHMARK(qr_forward_backward_double)->Apply(qr_arguments);
BENCHMARK(qr_forward_backward_float)->Apply(qr_arguments);
BENCHMARK_MAIN();
