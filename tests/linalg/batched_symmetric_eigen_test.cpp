// The batched Jacobi eigensolver against Eigen's SelfAdjointEigenSolver (tridiagonal QR, an
// independent algorithm) and by its own properties: A = VΛVᵀ, VᵀV = I, eigenvalues ascending.
// Sizes cover the lane remainder (counts not a multiple of the SIMD width), odd sizes (the
// padding index), the largest Jacobi size and the Eigen fallback above it.
#include "gyre/linalg/batched_symmetric_eigen.hpp"

#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <doctest/doctest.h>

#include "gyre/core/rng.hpp"
#include "gyre/core/types.hpp"

namespace {

template <class T>
using RowMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

template <class T>
RowMajor<T> haar(int n, gyre::Rng& rng) {
  const Eigen::HouseholderQR<gyre::Matrix<double>> qr(rng.normal_matrix<double>(n, n));
  return gyre::Matrix<double>(qr.householderQ()).cast<T>();
}

// A batch of symmetric matrices of one kind, row-major back to back.
enum class Kind { kIndefinite, kIllConditionedSpd, kRepeated };

template <class T>
std::vector<T> make_batch(Kind kind, int n, int count, gyre::Rng& rng) {
  std::vector<T> batch(static_cast<std::size_t>(count * n * n));
  for (int b = 0; b < count; ++b) {
    RowMajor<T> a(n, n);
    if (kind == Kind::kIndefinite) {
      const gyre::Matrix<double> g = rng.normal_matrix<double>(n, n);
      a = ((g + g.transpose()) / 2).cast<T>();
    } else {
      gyre::Vector<double> w(n);
      for (int i = 0; i < n; ++i) {
        // Ill-conditioned: eigenvalues spread over 10^±3 (condition number up to 10⁶);
        // repeated: only three distinct eigenvalues, each several times.
        w(i) = kind == Kind::kIllConditionedSpd ? std::pow(10.0, rng.uniform(-3.0, 3.0)) : 1.0 + (i % 3);
      }
      const RowMajor<double> q = haar<double>(n, rng);
      const RowMajor<double> s = q * w.asDiagonal() * q.transpose();
      a = ((s + s.transpose()) / 2).cast<T>();
    }
    Eigen::Map<RowMajor<T>>(batch.data() + b * n * n, n, n) = a;
  }
  return batch;
}

struct Result {
  double value_error = 0;           // max |λ − λ_Eigen| / ‖A‖₂
  double reconstruction_error = 0;  // max ‖VΛVᵀ − A‖_F / ‖A‖_F
  double orthogonality_error = 0;   // max ‖VᵀV − I‖_F
  bool ascending = true;
};

template <class T>
Result measure(int n, int count, const std::vector<T>& batch, const std::vector<T>& values,
               const std::vector<T>& vectors) {
  Result r;
  for (int b = 0; b < count; ++b) {
    const Eigen::Map<const RowMajor<T>> a(batch.data() + b * n * n, n, n);
    const Eigen::Map<const RowMajor<T>> v(vectors.data() + b * n * n, n, n);
    const Eigen::Map<const gyre::Vector<T>> w(values.data() + b * n, n);
    const Eigen::SelfAdjointEigenSolver<gyre::Matrix<double>> reference(a.template cast<double>());
    const double scale = reference.eigenvalues().cwiseAbs().maxCoeff();
    r.value_error =
        std::max(r.value_error, (w.template cast<double>() - reference.eigenvalues()).cwiseAbs().maxCoeff() / scale);
    const RowMajor<double> vd = v.template cast<double>();
    const RowMajor<double> rebuilt = vd * w.template cast<double>().asDiagonal() * vd.transpose();
    // stableNorm: the squares of entries at 1e±200 (the scaling test) over- or underflow.
    r.reconstruction_error = std::max(r.reconstruction_error, (rebuilt - a.template cast<double>()).stableNorm() /
                                                                  a.template cast<double>().stableNorm());
    r.orthogonality_error =
        std::max(r.orthogonality_error, (vd.transpose() * vd - RowMajor<double>::Identity(n, n)).norm());
    for (int i = 1; i < n; ++i) r.ascending = r.ascending && w(i - 1) <= w(i);
  }
  return r;
}

// Backward stable: errors of a few n·ε relative to ‖A‖ (Demmel & Veselić 1992 for Jacobi).
// V is a product of about n·sweeps rotations per column, each off by ε, and ‖VᵀV − I‖ is a
// Frobenius norm over n² entries: 8·n·ε (measured up to 4.8·n·ε in the Jacobi kernel).
template <class T>
void check_within_budget(int n, const Result& r) {
  const double budget = 4.0 * n * std::numeric_limits<T>::epsilon();
  CHECK(r.value_error <= budget);
  CHECK(r.reconstruction_error <= budget);
  CHECK(r.orthogonality_error <= 2 * budget);
  CHECK(r.ascending);
}

template <class T>
void check_kind(Kind kind) {
  const double eps = std::numeric_limits<T>::epsilon();
  gyre::Rng rng(20261203);
  for (const int n : {1, 2, 3, 5, 8, 11, 12, 13, 17}) {  // 13, 17: the Eigen fallback
    CAPTURE(n);
    const int count = 37;  // not a multiple of 4 or 8 lanes
    const std::vector<T> batch = make_batch<T>(kind, n, count, rng);
    std::vector<T> values(static_cast<std::size_t>(count * n)), vectors(batch.size());
    gyre::linalg::batched_symmetric_eigen<T>(n, count, batch.data(), values.data(), vectors.data());
    check_within_budget<T>(n, measure<T>(n, count, batch, values, vectors));
    const double budget = 4.0 * n * eps;

    // Eigenvalues only: the same values.
    std::vector<T> values_only(values.size());
    gyre::linalg::batched_symmetric_eigen<T>(n, count, batch.data(), values_only.data(), nullptr);
    double gap = 0;
    for (std::size_t i = 0; i < values.size(); ++i) gap = std::max(gap, double(std::abs(values[i] - values_only[i])));
    CHECK(gap <= budget * 1e3);  // ‖A‖ ≤ 1e3 here
  }
}

TEST_CASE_TEMPLATE("batched_symmetric_eigen matches Eigen on indefinite, ill-conditioned and repeated spectra", T,
                   float, double) {
  check_kind<T>(Kind::kIndefinite);
  check_kind<T>(Kind::kIllConditionedSpd);
  check_kind<T>(Kind::kRepeated);
}

TEST_CASE_TEMPLATE("batched_symmetric_eigen: a warm start gives the same decomposition", T, float, double) {
  const double eps = std::numeric_limits<T>::epsilon();
  gyre::Rng rng(7);
  for (const int n : {4, 8, 11}) {
    CAPTURE(n);
    const int count = 21;
    const std::vector<T> batch = make_batch<T>(Kind::kIndefinite, n, count, rng);
    std::vector<T> start(batch.size());
    for (int b = 0; b < count; ++b) Eigen::Map<RowMajor<T>>(start.data() + b * n * n, n, n) = haar<T>(n, rng);
    std::vector<T> values(static_cast<std::size_t>(count * n)), vectors(batch.size());
    gyre::linalg::batched_symmetric_eigen<T>(n, count, batch.data(), values.data(), vectors.data(), start.data());
    const Result from_random = measure<T>(n, count, batch, values, vectors);
    CHECK(from_random.value_error <= 4.0 * n * eps);
    CHECK(from_random.reconstruction_error <= 4.0 * n * eps);
    CHECK(from_random.orthogonality_error <= 8.0 * n * eps);
    // Started from its own eigenvectors, a matrix is already diagonal.
    std::vector<T> again(values.size()), vectors_again(vectors.size());
    gyre::linalg::batched_symmetric_eigen<T>(n, count, batch.data(), again.data(), vectors_again.data(),
                                             vectors.data());
    const Result from_own = measure<T>(n, count, batch, again, vectors_again);
    CHECK(from_own.reconstruction_error <= 4.0 * n * eps);
    CHECK(from_own.orthogonality_error <= 8.0 * n * eps);
  }
}

TEST_CASE_TEMPLATE("batched_symmetric_eigen: as accurate at extreme scales as at 1", T, float, double) {
  // Entries whose squares over- or underflow (1e±200 in double, 1e±30 in float) used to stop the
  // sweeps at once; the kernel scales each matrix by a power of two first. Same budgets as at 1.
  const T huge = std::is_same_v<T, float> ? T(1e30) : T(1e200);
  gyre::Rng rng(20261206);
  for (const Kind kind : {Kind::kIndefinite, Kind::kIllConditionedSpd, Kind::kRepeated}) {
    for (const int n : {1, 2, 3, 4, 8, 12, 13}) {
      for (const T scale : {huge, T(1) / huge, T(1e-3)}) {
        CAPTURE(n);
        CAPTURE(static_cast<int>(kind));
        CAPTURE(scale);
        const int count = 9;
        std::vector<T> batch = make_batch<T>(kind, n, count, rng);
        for (T& x : batch) x *= scale;
        std::vector<T> values(static_cast<std::size_t>(count * n)), vectors(batch.size());
        gyre::linalg::batched_symmetric_eigen<T>(n, count, batch.data(), values.data(), vectors.data());
        check_within_budget<T>(n, measure<T>(n, count, batch, values, vectors));
      }
    }
  }
}

TEST_CASE("batched_symmetric_eigen: scaling by a power of two is exact") {
  // The kernel's own scaling is a power of two, so a batch scaled by 2^±600 gives the eigenvalues
  // scaled by exactly that and the very same eigenvectors, bit for bit.
  gyre::Rng rng(11);
  for (const int n : {2, 5, 12}) {
    CAPTURE(n);
    const int count = 6;
    const std::vector<double> batch = make_batch<double>(Kind::kIndefinite, n, count, rng);
    std::vector<double> values(static_cast<std::size_t>(count * n)), vectors(batch.size());
    gyre::linalg::batched_symmetric_eigen<double>(n, count, batch.data(), values.data(), vectors.data());
    for (const int e : {600, -600}) {
      CAPTURE(e);
      std::vector<double> scaled = batch;
      for (double& x : scaled) x = std::ldexp(x, e);
      std::vector<double> scaled_values(values.size()), scaled_vectors(vectors.size());
      gyre::linalg::batched_symmetric_eigen<double>(n, count, scaled.data(), scaled_values.data(),
                                                    scaled_vectors.data());
      bool values_exact = true;
      for (std::size_t i = 0; i < values.size(); ++i) values_exact &= scaled_values[i] == std::ldexp(values[i], e);
      CHECK(values_exact);
      CHECK(scaled_vectors == vectors);
    }
  }
}

TEST_CASE("batched_symmetric_eigen: exact cases and non-finite input") {
  // Diagonal input: the diagonal, sorted, and a permutation matrix, exactly.
  const int n = 5;
  std::vector<double> diagonal(n * n, 0.0);
  const double d[n] = {3, -1, 2, 0, -7};
  for (int i = 0; i < n; ++i) diagonal[static_cast<std::size_t>(i * n + i)] = d[i];
  std::vector<double> values(n), vectors(n * n);
  gyre::linalg::batched_symmetric_eigen<double>(n, 1, diagonal.data(), values.data(), vectors.data());
  CHECK(values == std::vector<double>{-7, -1, 0, 2, 3});
  for (const double x : vectors) CHECK((x == 0.0 || std::abs(x) == 1.0));

  // The zero matrix: zero eigenvalues, identity eigenvectors.
  std::vector<double> zero(n * n, 0.0);
  gyre::linalg::batched_symmetric_eigen<double>(n, 1, zero.data(), values.data(), vectors.data());
  for (const double x : values) CHECK(x == 0.0);

  // NaN input ends (no endless sweeping) with NaN output; callers validate beforehand.
  std::vector<double> bad(n * n, 1.0);
  bad[7] = std::numeric_limits<double>::quiet_NaN();
  bad[11] = bad[7];
  gyre::linalg::batched_symmetric_eigen<double>(n, 1, bad.data(), values.data(), vectors.data());
  for (const double x : values) CHECK(std::isnan(x));

  // Large but finite entries (whose squares overflow) still decompose; a NaN item among good
  // ones leaves them untouched.
  std::vector<double> mixed(3 * n * n, 0.0);
  for (int i = 0; i < n; ++i) {
    mixed[static_cast<std::size_t>(i * n + i)] = 1e300 * (i + 1);
    mixed[static_cast<std::size_t>(n * n + i * n + i)] = i + 1;
    mixed[static_cast<std::size_t>(2 * n * n + i * n + i)] = i + 1;
  }
  mixed[static_cast<std::size_t>(n * n + n)] =
      std::numeric_limits<double>::quiet_NaN();  // (1, 0): the lower triangle is what is read
  std::vector<double> mixed_values(3 * n), mixed_vectors(mixed.size());
  gyre::linalg::batched_symmetric_eigen<double>(n, 3, mixed.data(), mixed_values.data(), mixed_vectors.data());
  for (int i = 0; i < n; ++i) {
    CHECK(mixed_values[static_cast<std::size_t>(i)] == 1e300 * (i + 1));
    CHECK(std::isnan(mixed_values[static_cast<std::size_t>(n + i)]));
    CHECK(mixed_values[static_cast<std::size_t>(2 * n + i)] == i + 1);
  }

  // An empty batch is a no-op.
  gyre::linalg::batched_symmetric_eigen<double>(n, 0, nullptr, nullptr, nullptr);
}

}  // namespace
