// Batched exp and log on SO(3), Sⁿ, SPD(8) (affine-invariant) and Gr(16, 4), and the AIM Karcher
// mean of 10³ SPD(8) (gyre::batch, parallel over the cores); compare_numpy*.py run the peers. Run: build/bench/tests/bench/gyre_bench_geometry
// (--benchmark_repetitions=5 --benchmark_report_aggregates_only=true for medians).
#include <optional>

#include <benchmark/benchmark.h>
#include <omp.h>

#include "grassmann/grassmann_batch.hpp"
#include "gyre/core/batch.hpp"
#include "gyre/core/checks.hpp"
#include "so/so.hpp"
#include "spd/spd.hpp"
#include "sphere/sphere.hpp"

namespace {

// B random (point, tangent, point) triples of a space, stored as (B, …) arrays.
template <class M>
struct BatchData {
  xt::xarray<double> x, v, y;
};

template <class M>
BatchData<M> make_batch(const M& m, std::size_t batch, const std::vector<std::size_t>& item_shape) {
  std::vector<std::size_t> shape{batch};
  shape.insert(shape.end(), item_shape.begin(), item_shape.end());
  BatchData<M> data{xt::xarray<double>::from_shape(shape), xt::xarray<double>::from_shape(shape),
                    xt::xarray<double>::from_shape(shape)};
  gyre::Rng rng(42);
  std::size_t item_size = 1;
  for (const std::size_t s : item_shape) item_size *= s;
  for (std::size_t b = 0; b < batch; ++b) {
    const auto x = m.random_point(rng);
    const auto v = m.random_tangent(x, rng);
    const auto y = m.random_point(rng);
    // Row-major copies of column-major Eigen objects.
    for (std::size_t k = 0; k < item_size; ++k) {
      const auto r = static_cast<Eigen::Index>(item_shape.size() == 1 ? k : k / item_shape[1]);
      const auto c = static_cast<Eigen::Index>(item_shape.size() == 1 ? 0 : k % item_shape[1]);
      data.x.data()[b * item_size + k] = x(r, c);
      data.v.data()[b * item_size + k] = v(r, c);
      data.y.data()[b * item_size + k] = y(r, c);
    }
  }
  return data;
}

constexpr std::size_t kBatch = 10000;

template <class M>
void run_exp(benchmark::State& state, const M& m, const std::vector<std::size_t>& item_shape) {
  const auto data = make_batch(m, kBatch, item_shape);
  omp_set_num_threads(static_cast<int>(state.range(0)));
  std::optional<gyre::ChecksOff> unchecked;
  if (state.range(1) == 0) unchecked.emplace();
  for (auto _ : state) benchmark::DoNotOptimize(gyre::batch::exp(m, data.x, data.v));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kBatch));
}

template <class M>
void run_log(benchmark::State& state, const M& m, const std::vector<std::size_t>& item_shape) {
  const auto data = make_batch(m, kBatch, item_shape);
  omp_set_num_threads(static_cast<int>(state.range(0)));
  std::optional<gyre::ChecksOff> unchecked;
  if (state.range(1) == 0) unchecked.emplace();
  for (auto _ : state) benchmark::DoNotOptimize(gyre::batch::log(m, data.x, data.y));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kBatch));
}

void BM_SO3_exp(benchmark::State& state) { run_exp(state, gyre::SO<double>(3), {3, 3}); }
void BM_SO3_log(benchmark::State& state) { run_log(state, gyre::SO<double>(3), {3, 3}); }
void BM_S15_exp(benchmark::State& state) { run_exp(state, gyre::Sphere<double>(15), {16}); }
void BM_S15_log(benchmark::State& state) { run_log(state, gyre::Sphere<double>(15), {16}); }
void BM_SPD8_exp(benchmark::State& state) { run_exp(state, gyre::SpdAffineInvariant<double>(8), {8, 8}); }
void BM_SPD8_log(benchmark::State& state) { run_log(state, gyre::SpdAffineInvariant<double>(8), {8, 8}); }
void BM_Gr16_4_log(benchmark::State& state) { run_log(state, gyre::Grassmann<double>(16, 4), {16, 4}); }

// The Karcher mean of 10³ SPD(8) to a step norm of 1e-12 (the peer script stops at the same norm).
void BM_SPD8_mean(benchmark::State& state) {
  constexpr std::size_t kPoints = 1000;
  const gyre::SpdAffineInvariant<double> m(8);
  const auto data = make_batch(m, kPoints, {8, 8});
  omp_set_num_threads(static_cast<int>(state.range(0)));
  std::optional<gyre::ChecksOff> unchecked;
  if (state.range(1) == 0) unchecked.emplace();
  gyre::FrechetMeanOptions options;
  options.tolerance = 1e-12;
  int iterations = 0;
  for (auto _ : state) {
    const auto mean = gyre::batch::frechet_mean(m, data.x, {}, options);
    iterations = mean.iterations;
    benchmark::DoNotOptimize(mean.point.data());
  }
  state.counters["karcher_iterations"] = iterations;
}

}  // namespace

// Arguments: OpenMP threads (1 = one core, 2 = both cores of the reference machine), and whether
// input validation runs (1, the default) or is turned off with gyre::ChecksOff (0).
#define GYRE_BATCH_ARGS ->Args({1, 1})->Args({2, 1})->Args({2, 0})->Unit(benchmark::kMillisecond)->UseRealTime()
BENCHMARK(BM_SO3_exp) GYRE_BATCH_ARGS;
BENCHMARK(BM_SO3_log) GYRE_BATCH_ARGS;
BENCHMARK(BM_S15_exp) GYRE_BATCH_ARGS;
BENCHMARK(BM_S15_log) GYRE_BATCH_ARGS;
BENCHMARK(BM_SPD8_exp) GYRE_BATCH_ARGS;
BENCHMARK(BM_SPD8_log) GYRE_BATCH_ARGS;
BENCHMARK(BM_SPD8_mean) GYRE_BATCH_ARGS;
BENCHMARK(BM_Gr16_4_log) GYRE_BATCH_ARGS;

BENCHMARK_MAIN();
