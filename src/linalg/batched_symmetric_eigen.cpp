#include "gyre/linalg/batched_symmetric_eigen.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>

#include <Eigen/Eigenvalues>
#include <xsimd/xsimd.hpp>

#include "batched_detail.hpp"
#include "gyre/core/parallel.hpp"
#include "gyre/linalg/eigen_convergence.hpp"

namespace gyre::linalg {

namespace {

constexpr int kMaxSweeps = 40;
// Matrices of odd size get one inert padding index: zero row and column, which every rotation
// leaves exactly as it is (its rotations have t = 0, so c = 1 and s = 0 exactly).
constexpr int kMaxPadded = kMaxBatchedJacobiSize;

template <class T>
using RowMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
// A matrix of the Jacobi kernel's sizes, on the stack.
template <class T>
using Small =
    Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor, kMaxBatchedJacobiSize, kMaxBatchedJacobiSize>;

// The circle method of round-robin tournaments, laid out so that round r pairs positions
// (2k, 2k + 1). Between rounds every index moves from position p to next[p]; the move is the same
// in every round, and over m − 1 rounds each pair of indices meets exactly once.
struct Schedule {
  int m = 0;
  std::array<int, kMaxPadded> next{};
};

Schedule make_schedule(int m) {
  // Player j of the circle sits at position 2j (j < m/2) or 2(m − 1 − j) + 1; player 0 stays,
  // the others advance one seat (j → j + 1, m − 1 → 1).
  const auto position = [m](int j) { return j < m / 2 ? 2 * j : 2 * (m - 1 - j) + 1; };
  Schedule s;
  s.m = m;
  for (int j = 0; j < m; ++j) {
    const int successor = j == 0 ? 0 : (j == m - 1 ? 1 : j + 1);
    s.next[static_cast<std::size_t>(position(j))] = position(successor);
  }
  return s;
}

// One group of lanes: the matrices in the SIMD lanes of a, the accumulated rotations in v, and
// where each original index sits now (the same for every lane).
template <class T>
struct Group {
  using Lanes = xsimd::batch<T>;
  static constexpr int kLanes = static_cast<int>(Lanes::size);
  using Buffer = std::array<Lanes, kMaxPadded * kMaxPadded>;
  // Each round reads one buffer and writes the other; swapping pointers, not contents.
  Buffer a_storage[2], v_storage[2];
  Lanes* a = a_storage[0].data();
  Lanes* a_next = a_storage[1].data();
  Lanes* v = v_storage[0].data();
  Lanes* v_next = v_storage[1].data();
  std::array<int, kMaxPadded> position{};
  int m = 0;
  Lanes& at(int i, int j) { return a[i * m + j]; }
};

template <class T>
T lane(const xsimd::batch<T>& x, int l) {
  alignas(64) std::array<T, xsimd::batch<T>::size> buffer{};
  x.store_aligned(buffer.data());
  return buffer[static_cast<std::size_t>(l)];
}

// True when every lane meets the stopping rule of the header.
template <class T>
bool converged(Group<T>& g, const xsimd::batch<T>& floor_sq) {
  using Lanes = xsimd::batch<T>;
  const T eps = std::numeric_limits<T>::epsilon();
  Lanes worst(T(0));
  for (int p = 0; p < g.m; ++p) {
    for (int q = p + 1; q < g.m; ++q) {
      const Lanes x = g.at(p, q);
      worst = xsimd::max(worst, x * x - (eps * eps * xsimd::abs(g.at(p, p) * g.at(q, q)) + floor_sq));
    }
  }
  return !xsimd::any(worst > Lanes(T(0)));
}

// One round: rotate every pair (2k, 2k + 1) to zero its off-diagonal entry, A ← JᵀAJ, V ← VJ,
// and move the indices on to their next positions while writing the result.
template <class T>
void round(Group<T>& g, const Schedule& s, bool with_vectors) {
  using Lanes = xsimd::batch<T>;
  const int m = g.m;
  const int pairs = m / 2;
  const Lanes tiny(std::numeric_limits<T>::min());
  // Below this an off-diagonal entry is far under every stopping floor of a matrix scaled into
  // [1, 2) (solve_group), and 4a_pq² would underflow: it is left alone (t = 0) instead of rotated
  // by an angle computed from a flushed square (t = 2a_pq/tiny, which corrupted the diagonal).
  const Lanes negligible(T(4) * std::sqrt(std::numeric_limits<T>::min()));
  std::array<Lanes, kMaxPadded / 2> c, sn, dp, dq;
  for (int k = 0; k < pairs; ++k) {
    const int p = 2 * k;
    const int q = p + 1;
    // tan θ = sign(τ)·2a_pq/(|τ| + √(τ² + 4a_pq²)), τ = a_qq − a_pp: the smaller root, so |θ| ≤ π/4
    // (Rutishauser 1966), written without the quotient τ/2a_pq that overflows as a_pq → 0.
    const Lanes x = g.at(p, q);
    const Lanes tau = g.at(q, q) - g.at(p, p);
    const Lanes den = xsimd::abs(tau) + xsimd::sqrt(xsimd::fma(tau, tau, T(4) * x * x));
    const Lanes t =
        xsimd::select(xsimd::abs(x) < negligible, Lanes(T(0)),
                      T(2) * x * xsimd::select(tau < Lanes(T(0)), Lanes(T(-1)), Lanes(T(1))) / xsimd::max(den, tiny));
    c[static_cast<std::size_t>(k)] = T(1) / xsimd::sqrt(xsimd::fma(t, t, Lanes(T(1))));
    sn[static_cast<std::size_t>(k)] = t * c[static_cast<std::size_t>(k)];
    dp[static_cast<std::size_t>(k)] = xsimd::fnma(t, x, g.at(p, p));
    dq[static_cast<std::size_t>(k)] = xsimd::fma(t, x, g.at(q, q));
  }
  const auto next = [&s](int i) { return s.next[static_cast<std::size_t>(i)]; };
  const auto out = [&g, m](int i, int j) -> Lanes& { return g.a_next[i * m + j]; };
  // The 2×2 blocks B_kl of A become J_kᵀ·B_kl·J_l; A is symmetric, so the blocks k ≤ l suffice.
  for (int k = 0; k < pairs; ++k) {
    const auto ks = static_cast<std::size_t>(k);
    const int r0 = 2 * k;
    out(next(r0), next(r0)) = dp[ks];
    out(next(r0 + 1), next(r0 + 1)) = dq[ks];
    out(next(r0), next(r0 + 1)) = Lanes(T(0));
    out(next(r0 + 1), next(r0)) = Lanes(T(0));
    for (int l = k + 1; l < pairs; ++l) {
      const auto ls = static_cast<std::size_t>(l);
      const int c0 = 2 * l;
      const Lanes b00 = g.at(r0, c0), b01 = g.at(r0, c0 + 1), b10 = g.at(r0 + 1, c0), b11 = g.at(r0 + 1, c0 + 1);
      // Columns: B·J_l.
      const Lanes t00 = xsimd::fms(c[ls], b00, sn[ls] * b01), t01 = xsimd::fma(sn[ls], b00, c[ls] * b01);
      const Lanes t10 = xsimd::fms(c[ls], b10, sn[ls] * b11), t11 = xsimd::fma(sn[ls], b10, c[ls] * b11);
      // Rows: J_kᵀ·(B·J_l).
      const Lanes n00 = xsimd::fms(c[ks], t00, sn[ks] * t10), n10 = xsimd::fma(sn[ks], t00, c[ks] * t10);
      const Lanes n01 = xsimd::fms(c[ks], t01, sn[ks] * t11), n11 = xsimd::fma(sn[ks], t01, c[ks] * t11);
      out(next(r0), next(c0)) = n00;
      out(next(r0), next(c0 + 1)) = n01;
      out(next(r0 + 1), next(c0)) = n10;
      out(next(r0 + 1), next(c0 + 1)) = n11;
      out(next(c0), next(r0)) = n00;
      out(next(c0 + 1), next(r0)) = n01;
      out(next(c0), next(r0 + 1)) = n10;
      out(next(c0 + 1), next(r0 + 1)) = n11;
    }
  }
  std::swap(g.a, g.a_next);
  if (with_vectors) {
    for (int i = 0; i < m; ++i) {
      const Lanes* row = &g.v[i * m];
      Lanes* row_next = &g.v_next[i * m];
      for (int k = 0; k < pairs; ++k) {
        const auto ks = static_cast<std::size_t>(k);
        const Lanes y0 = row[2 * k], y1 = row[2 * k + 1];
        row_next[next(2 * k)] = xsimd::fms(c[ks], y0, sn[ks] * y1);
        row_next[next(2 * k + 1)] = xsimd::fma(sn[ks], y0, c[ks] * y1);
      }
    }
    std::swap(g.v, g.v_next);
  }
  for (int i = 0; i < m; ++i) g.position[static_cast<std::size_t>(i)] = next(g.position[static_cast<std::size_t>(i)]);
}

// Eigen's solver for one item: matrices above the Jacobi size, and any lane that did not converge.
template <class T>
void eigen_fallback(int n, const T* matrix, T* values, T* vectors) {
  const Eigen::Map<const RowMajor<T>> a(matrix, n, n);
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>> solver(
      a, vectors != nullptr ? Eigen::ComputeEigenvectors : Eigen::EigenvaluesOnly);
  if (solver.info() != Eigen::Success && !a.allFinite()) {
    // The header's contract for non-finite input, as in the Jacobi kernel.
    std::fill(values, values + n, std::numeric_limits<T>::quiet_NaN());
    if (vectors != nullptr) std::fill(vectors, vectors + n * n, std::numeric_limits<T>::quiet_NaN());
    return;
  }
  require_eigen_converged(solver, "batched_symmetric_eigen", a);
  Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>(values, n) = solver.eigenvalues();
  if (vectors != nullptr) Eigen::Map<RowMajor<T>>(vectors, n, n) = solver.eigenvectors();
}

template <class T>
void solve_group(int n, const Schedule& schedule, std::ptrdiff_t first, int used, const T* matrices, T* values,
                 T* vectors, const T* start, Group<T>& g) {
  using Lanes = xsimd::batch<T>;
  constexpr int kLanes = Group<T>::kLanes;
  const int m = schedule.m;
  g.m = m;
  const std::size_t item = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  // Each lane's matrix (QᵀAQ when warm-started), read from its lower triangle; unused lanes
  // hold the identity, which is already diagonal.
  // Each lane's matrix is scaled by 2^-exponent so that its largest |entry| lies in [1, 2): the
  // squares in the stopping test and the rotation angles then neither overflow (entries beyond
  // about 1e154, 1e19 in float, made the test NaN and stopped the sweeps at once) nor underflow
  // (entries below the inverse stopped them as well). The scaling is exact, so it changes nothing
  // for matrices in between; the eigenvalues are scaled back on output.
  std::array<Small<T>, kLanes> input;
  std::array<T, kLanes> frobenius{};
  std::array<bool, kLanes> finite{};
  std::array<int, kLanes> exponent{};
  for (int l = 0; l < kLanes; ++l) {
    Small<T>& x = input[static_cast<std::size_t>(l)];
    if (l < used) {
      const T* source = matrices + static_cast<std::size_t>(first + l) * item;
      x = Eigen::Map<const RowMajor<T>>(source, n, n).template selfadjointView<Eigen::Lower>();
      exponent[static_cast<std::size_t>(l)] = detail::scale_exponent(x);
      x = detail::times_power_of_two(x, -exponent[static_cast<std::size_t>(l)]);
      if (start != nullptr) {
        const Eigen::Map<const RowMajor<T>> q(start + static_cast<std::size_t>(first + l) * item, n, n);
        // Lazy products: Eigen's blocked GEMM costs more in packing than in arithmetic here.
        const Small<T> xq = x.lazyProduct(q);
        const Small<T> qtxq = q.transpose().lazyProduct(xq);
        x = (qtxq + qtxq.transpose()) / T(2);
      }
    } else {
      x = Small<T>::Identity(n, n);
    }
    // A non-finite lane would keep its whole group sweeping; it solves the identity instead and
    // reports NaN. stableNorm: ‖A‖_F without overflow in the squares of large entries.
    finite[static_cast<std::size_t>(l)] = x.allFinite();
    if (!finite[static_cast<std::size_t>(l)]) x = Small<T>::Identity(n, n);
    frobenius[static_cast<std::size_t>(l)] = x.stableNorm();
  }
  alignas(64) std::array<T, kLanes> scratch{};
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < m; ++j) {
      for (int l = 0; l < kLanes; ++l) {
        scratch[static_cast<std::size_t>(l)] = (i < n && j < n) ? input[static_cast<std::size_t>(l)](i, j) : T(0);
      }
      g.at(i, j) = Lanes::load_aligned(scratch.data());
      g.v[i * m + j] = Lanes(i == j ? T(1) : T(0));
    }
  }
  std::iota(g.position.begin(), g.position.begin() + m, 0);
  const T eps = std::numeric_limits<T>::epsilon();
  for (int l = 0; l < kLanes; ++l) {
    const T floor = eps * eps * frobenius[static_cast<std::size_t>(l)];
    scratch[static_cast<std::size_t>(l)] = floor * floor;
  }
  const Lanes floor_sq = Lanes::load_aligned(scratch.data());

  const bool with_vectors = vectors != nullptr;
  int sweep = 0;
  while (!converged(g, floor_sq) && sweep < kMaxSweeps) {
    for (int r = 0; r < m - 1; ++r) round(g, schedule, with_vectors);
    ++sweep;
  }
  const bool gave_up = sweep == kMaxSweeps && !converged(g, floor_sq);

  std::array<int, kMaxPadded> order{};
  for (int l = 0; l < used; ++l) {
    const std::ptrdiff_t index = first + l;
    T* item_values = values + static_cast<std::size_t>(index) * static_cast<std::size_t>(n);
    T* item_vectors = with_vectors ? vectors + static_cast<std::size_t>(index) * item : nullptr;
    if (!finite[static_cast<std::size_t>(l)]) {
      // Non-finite input has no decomposition; say so in the output rather than in a number.
      std::fill(item_values, item_values + n, std::numeric_limits<T>::quiet_NaN());
      if (with_vectors) std::fill(item_vectors, item_vectors + item, std::numeric_limits<T>::quiet_NaN());
      continue;
    }
    if (gave_up) {
      // Rare enough to cost nothing on average; always correct.
      eigen_fallback(n, matrices + static_cast<std::size_t>(index) * item, item_values, item_vectors);
      continue;
    }
    // The eigenpair of original index i sits at position[i]; sort ascending as Eigen does.
    std::iota(order.begin(), order.begin() + n, 0);
    const auto value_at = [&](int i) {
      const int p = g.position[static_cast<std::size_t>(i)];
      return lane(g.at(p, p), l);
    };
    std::array<T, kMaxPadded> diagonal{};
    for (int i = 0; i < n; ++i) diagonal[static_cast<std::size_t>(i)] = value_at(i);
    std::sort(order.begin(), order.begin() + n, [&](int i, int j) {
      return diagonal[static_cast<std::size_t>(i)] < diagonal[static_cast<std::size_t>(j)];
    });
    const int e = exponent[static_cast<std::size_t>(l)];
    for (int k = 0; k < n; ++k) {
      item_values[k] = std::ldexp(diagonal[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])], e);
    }
    if (!with_vectors) continue;
    Eigen::Map<RowMajor<T>> out(item_vectors, n, n);
    Small<T> rotations(n, n);
    for (int k = 0; k < n; ++k) {
      const int column = g.position[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])];
      for (int r = 0; r < n; ++r) rotations(r, k) = lane(g.v[r * m + column], l);
    }
    if (start != nullptr) {
      out = Eigen::Map<const RowMajor<T>>(start + static_cast<std::size_t>(index) * item, n, n).lazyProduct(rotations);
    } else {
      out = rotations;
    }
  }
}

}  // namespace

template <class T>
void batched_symmetric_eigen(int n, std::ptrdiff_t count, const T* matrices, T* values, T* vectors, const T* start) {
  if (count <= 0 || n <= 0) return;
  const std::size_t item = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  if (n > kMaxBatchedJacobiSize) {
    // Q·eig(QᵀAQ) = eig(A) for orthogonal Q: the warm start only speeds up the Jacobi kernel.
    parallel_for(count, 30.0 * n * n * n, [&](std::ptrdiff_t i) {
      eigen_fallback(n, matrices + static_cast<std::size_t>(i) * item,
                     values + static_cast<std::size_t>(i) * static_cast<std::size_t>(n),
                     vectors != nullptr ? vectors + static_cast<std::size_t>(i) * item : nullptr);
    });
    return;
  }
  constexpr int kLanes = Group<T>::kLanes;
  const Schedule schedule = make_schedule(n + n % 2);
  const std::ptrdiff_t groups = (count + kLanes - 1) / kLanes;
  parallel_for(groups, 30.0 * kLanes * n * n * n, [&](std::ptrdiff_t group) {
    // One group's workspace: 4·12² lanes, 18 KiB for doubles under AVX2; thread-local so that it
    // is allocated once per thread rather than once per group.
    thread_local Group<T> workspace;
    const std::ptrdiff_t first = group * kLanes;
    const int used = static_cast<int>(std::min<std::ptrdiff_t>(kLanes, count - first));
    solve_group(n, schedule, first, used, matrices, values, vectors, start, workspace);
  });
}

template void batched_symmetric_eigen<float>(int, std::ptrdiff_t, const float*, float*, float*, const float*);
template void batched_symmetric_eigen<double>(int, std::ptrdiff_t, const double*, double*, double*, const double*);

}  // namespace gyre::linalg
