#pragma once
// ============================================================================================
//  Eigendecompositions of many small symmetric matrices at once: the kernel under the batched
//  SPD operations (gyre::batch on SPD(n)), where one eigendecomposition per item is the work.
// ============================================================================================
//  Method   cyclic two-sided Jacobi in the round-robin ("circle") ordering: each sweep is n − 1
//           rounds of ⌊n/2⌋ disjoint rotations (Brent & Luk 1985). The matrices of a group run in
//           the SIMD lanes (xsimd: 4 doubles or 8 floats under AVX2), so one instruction advances
//           every matrix of the group; a round's rotations are independent, which keeps the
//           square roots and divisions off one long dependency chain. Against Eigen's tridiagonal
//           QR item by item (doubles, AVX2, one core): 5.2× faster at n = 4, 2.2× at 8, 1.35× at
//           12, even at 16; so the kernel takes n ≤ 12, and a warm start widens the gap.
//  Stopping a matrix has converged when every off-diagonal entry satisfies
//              a_pq² ≤ ε²·|a_pp·a_qq| + (ε²·‖A‖_F)²,
//           the relative criterion of Demmel & Veselić (1992), under which the eigenvalues of a
//           positive definite matrix keep their relative accuracy, with an absolute floor that
//           lets indefinite matrices (zero diagonals) stop too. A group sweeps until all of its
//           lanes have converged; a lane that has not after kMaxSweeps (never seen in tests) is
//           recomputed by Eigen's SelfAdjointEigenSolver, as are all matrices larger than 12×12.
//  Scaling each matrix is first scaled by the power of two that brings its largest |entry| into
//           [1, 2), exactly, so that the squares above neither overflow nor underflow: the results
//           are as accurate at 1e±300 as at 1 (without it, entries beyond 1e154 or below 1e-154,
//           1e±19 in float, stopped the sweeps at once with 40–100 % wrong eigenvalues).
//  Warm start optional orthogonal matrices Qᵢ: the solver diagonalises QᵢᵀAᵢQᵢ and returns Qᵢ·Vᵢ.
//           When Qᵢ nearly diagonalises Aᵢ (an iteration whose matrices move little, such as the
//           Karcher mean), one or two sweeps suffice instead of about six.
//  Layout   row-major n×n items back to back (xtensor's (B, n, n)); eigenvalues ascending,
//           eigenvectors as the columns of each output item, as Eigen orders them.
// ============================================================================================

#include <cstddef>

namespace gyre::linalg {

/// Largest n handled by the Jacobi kernel; larger matrices go to Eigen item by item.
inline constexpr int kMaxBatchedJacobiSize = 12;

/// Eigendecompositions of `count` symmetric n×n matrices (row-major, back to back), in parallel
/// over the cores. `values` receives count·n eigenvalues (ascending per item); `vectors`, if not
/// null, count·n·n entries whose columns are the eigenvectors. `start`, if not null, holds one
/// orthogonal n×n matrix per item to warm-start from (see the header). Only the lower triangle
/// is read. An item with a non-finite entry gets NaN eigenvalues and eigenvectors (callers
/// validate their inputs; this keeps a bad item from looking like a good one when they do not).
template <class T>
void batched_symmetric_eigen(int n, std::ptrdiff_t count, const T* matrices, T* values, T* vectors,
                             const T* start = nullptr);

extern template void batched_symmetric_eigen<float>(int, std::ptrdiff_t, const float*, float*, float*, const float*);
extern template void batched_symmetric_eigen<double>(int, std::ptrdiff_t, const double*, double*, double*,
                                                     const double*);

}  // namespace gyre::linalg
