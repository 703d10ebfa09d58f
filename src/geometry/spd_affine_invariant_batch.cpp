#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <Eigen/Cholesky>

#include "gyre/core/checks.hpp"
#include "gyre/core/parallel.hpp"
#include "gyre/linalg/batched_symmetric_eigen.hpp"
#include "spd/affine_invariant_batch.hpp"

namespace gyre::batch {

namespace {

template <class T>
using RowMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
// Work matrices of the sizes the Jacobi kernel takes, on the stack. Larger SPD matrices take the
// generic batched path (the one-item functions in parallel): the kernel's gain is gone there.
template <class T>
using Small = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor, linalg::kMaxBatchedJacobiSize,
                            linalg::kMaxBatchedJacobiSize>;

template <class T>
using ConstItem = Eigen::Map<const RowMajor<T>>;
template <class T>
using Item = Eigen::Map<RowMajor<T>>;

std::size_t square(int n) { return static_cast<std::size_t>(n) * static_cast<std::size_t>(n); }

// The number of n×n items in `a` (any leading axes; ShapeError unless its last two axes are n, n).
template <class T>
std::ptrdiff_t require_batch(const char* function, const char* what, const xt::xarray<T>& a, int n) {
  const auto size = static_cast<std::size_t>(n);
  const std::size_t axes = a.dimension();
  if (axes < 2 || a.shape()[axes - 2] != size || a.shape()[axes - 1] != size) {
    throw ShapeError(function, std::string(what) + " must end in n×n items with n = " + std::to_string(n),
                     detail::shape_text(a));
  }
  return static_cast<std::ptrdiff_t>(a.size() / square(n));
}

// Finite, symmetric to membership_tolerance and with a Cholesky factor: what check_spd accepts,
// tested on the stack; check_spd itself runs (and words the error) only for an item that fails.
template <class T>
bool plainly_spd(const ConstItem<T>& p) {
  if (!p.allFinite()) return false;
  const T scale = std::max(T(1), p.cwiseAbs().maxCoeff());
  if ((p - p.transpose()).cwiseAbs().maxCoeff() / scale > membership_tolerance<T>()) return false;
  return Eigen::LLT<Small<T>>(Small<T>(p)).info() == Eigen::Success;
}

template <class T>
void check_points(const char* function, const xt::xarray<T>& x, int n) {
  detail::check_items(function, static_cast<std::ptrdiff_t>(x.size() / square(n)), [&](std::ptrdiff_t i) {
    const ConstItem<T> p(x.data() + i * square(n), n, n);
    if (!plainly_spd(p)) spd::check_spd<T>(function, Matrix<T>(p), n);
  });
}

template <class T>
void check_tangents(const char* function, const xt::xarray<T>& v, int n) {
  detail::check_items(function, static_cast<std::ptrdiff_t>(v.size() / square(n)), [&](std::ptrdiff_t i) {
    spd::check_symmetric_tangent<T>(function, Matrix<T>(ConstItem<T>(v.data() + i * square(n), n, n)), n);
  });
}

// Products and solves of these small matrices are written as lazy (coefficient-wise) products
// and plain substitution: Eigen's blocked GEMM and triangular-solve paths, which it picks for
// dynamic sizes, spend more on packing than on arithmetic at n ≤ 16.

// L⁻¹ of a lower-triangular L, by forward substitution on the columns of I.
template <class Work>
Work lower_inverse(const Work& l) {
  using T = typename Work::Scalar;
  const Eigen::Index n = l.rows();
  Work inverse = Work::Zero(n, n);
  for (Eigen::Index j = 0; j < n; ++j) {
    inverse(j, j) = T(1) / l(j, j);
    for (Eigen::Index i = j + 1; i < n; ++i) {
      T sum = 0;
      for (Eigen::Index k = j; k < i; ++k) sum += l(i, k) * inverse(k, j);
      inverse(i, j) = -sum / l(i, i);
    }
  }
  return inverse;
}

// G·S·Gᵀ for a symmetric S, symmetrised against rounding.
template <class Work, class G, class S>
Work congruence(const G& g, const S& s) {
  const Work left = g.lazyProduct(s);
  const Work both = left.lazyProduct(g.transpose());
  return (both + both.transpose()) / 2;
}

// For every item: the Cholesky factor L of x[b] (kept for the way back) and W = L⁻¹·s[b]·L⁻ᵀ.
template <class Work, class T>
void whiten(int n, std::ptrdiff_t count, const T* x, const T* s, T* factors, T* whitened) {
  parallel_for(count, [&](std::ptrdiff_t i) {
    const Eigen::LLT<Work> llt(Work(ConstItem<T>(x + i * square(n), n, n)));
    const Work l = llt.matrixL();
    if (factors != nullptr) Item<T>(factors + i * square(n), n, n) = l;
    Item<T>(whitened + i * square(n), n, n) = congruence<Work>(lower_inverse(l), ConstItem<T>(s + i * square(n), n, n));
  });
}

// U·diag(f(λ))·Uᵀ from one item's eigendecomposition.
template <class Work, class T, class F>
Work spectral(int n, const T* values, const T* vectors, const F& f) {
  const ConstItem<T> u(vectors, n, n);
  Eigen::Matrix<T, Eigen::Dynamic, 1, 0, Work::MaxRowsAtCompileTime, 1> fv(n);
  for (int k = 0; k < n; ++k) fv(k) = f(values[k]);
  const Work scaled = u * fv.asDiagonal();
  return scaled.lazyProduct(u.transpose());
}

// out[b] = L·f(W)·Lᵀ with W = U·diag(λ)·Uᵀ the item's whitened matrix.
template <class Work, class T, class F>
xt::xarray<T> unwhiten(int n, const std::vector<std::size_t>& shape, const T* factors, const T* values,
                       const T* vectors, const F& f) {
  xt::xarray<T> out = xt::xarray<T>::from_shape(shape);
  const auto count = static_cast<std::ptrdiff_t>(out.size() / square(n));
  parallel_for(count, [&](std::ptrdiff_t i) {
    // L·U·diag(f)·Uᵀ·Lᵀ = (LU)·diag(f)·(LU)ᵀ: two products instead of three.
    const Work lu =
        ConstItem<T>(factors + i * square(n), n, n).lazyProduct(ConstItem<T>(vectors + i * square(n), n, n));
    Eigen::Matrix<T, Eigen::Dynamic, 1, 0, Work::MaxRowsAtCompileTime, 1> fv(n);
    for (int k = 0; k < n; ++k) fv(k) = f(values[i * n + k]);
    const Work scaled = lu * fv.asDiagonal();
    const Work result = scaled.lazyProduct(lu.transpose());
    Item<T>(out.data() + i * square(n), n, n) = (result + result.transpose()) / 2;
  });
  return out;
}

// log λ on the whitened spectrum, clamped as the one-item log clamps it: rounding can push an
// eigenvalue of a nearly singular product to ≤ 0 only for inputs that check_point rejects.
template <class T>
T clamped_log(T lambda) {
  return std::log(std::max(lambda, std::numeric_limits<T>::min()));
}

// out[b] = L·f(L⁻¹·s[b]·L⁻ᵀ)·Lᵀ with L the Cholesky factor of x[b]: exp (f = exp, s tangents)
// and log (f = log, s points), after the one-item functions' checks.
template <class T, class F>
xt::xarray<T> whitened_function(const char* function, const SpdAffineInvariant<T>& m, const xt::xarray<T>& x,
                                const xt::xarray<T>& s, bool s_are_points, const F& f) {
  const int n = m.n();
  const std::ptrdiff_t count = require_batch(function, "base points", x, n);
  require_batch(function, s_are_points ? "second points" : "tangents", s, n);
  detail::require_same_shape(function, x, s);
  if (checks_enabled()) {
    check_points(function, x, n);
    if (s_are_points) {
      check_points(function, s, n);
    } else {
      check_tangents(function, s, n);
    }
  }
  std::vector<T> factors(x.size()), whitened(x.size()), vectors(x.size()), values(static_cast<std::size_t>(count) * n);
  const std::vector<std::size_t> shape(x.shape().begin(), x.shape().end());
  whiten<Small<T>>(n, count, x.data(), s.data(), factors.data(), whitened.data());
  linalg::batched_symmetric_eigen<T>(n, count, whitened.data(), values.data(), vectors.data());
  return unwhiten<Small<T>>(n, shape, factors.data(), values.data(), vectors.data(), f);
}

template <class T>
xt::xarray<T> exp_impl(const SpdAffineInvariant<T>& m, const xt::xarray<T>& x, const xt::xarray<T>& v) {
  return whitened_function("batch::exp (SpdAffineInvariant)", m, x, v, false, [](T l) { return std::exp(l); });
}

template <class T>
xt::xarray<T> log_impl(const SpdAffineInvariant<T>& m, const xt::xarray<T>& x, const xt::xarray<T>& y) {
  return whitened_function("batch::log (SpdAffineInvariant)", m, x, y, true, clamped_log<T>);
}

// √(α·Σ log²μ + β·(Σ log μ)²) over the eigenvalues μ of one whitened item.
template <class T>
T alpha_beta_length(const spd::AlphaBeta& ab, int n, const T* mu) {
  T sum_sq = 0;
  T sum = 0;
  for (int k = 0; k < n; ++k) {
    const T l = clamped_log(mu[k]);
    sum_sq += l * l;
    sum += l;
  }
  return std::sqrt(std::max(T(0), static_cast<T>(ab.alpha) * sum_sq + static_cast<T>(ab.beta) * sum * sum));
}

template <class T>
xt::xarray<T> dist_impl(const SpdAffineInvariant<T>& m, const xt::xarray<T>& x, const xt::xarray<T>& y) {
  const char* function = "batch::dist (SpdAffineInvariant)";
  const int n = m.n();
  const std::ptrdiff_t count = require_batch(function, "first points", x, n);
  require_batch(function, "second points", y, n);
  detail::require_same_shape(function, x, y);
  if (checks_enabled()) {
    check_points(function, x, n);
    check_points(function, y, n);
  }
  std::vector<T> whitened(x.size()), values(static_cast<std::size_t>(count) * n);
  whiten<Small<T>>(n, count, x.data(), y.data(), static_cast<T*>(nullptr), whitened.data());
  linalg::batched_symmetric_eigen<T>(n, count, whitened.data(), values.data(), nullptr);
  xt::xarray<T> out = xt::xarray<T>::from_shape(detail::leading_shape(x, 2));
  for (std::ptrdiff_t i = 0; i < count; ++i)
    out.data()[i] = alpha_beta_length(m.alpha_beta(), n, values.data() + i * n);
  return out;
}

// Σᵢ wᵢ·U·diag(log λ)·Uᵀ over the items, summed in fixed chunks and then in order, so that the
// result does not depend on the number of threads.
template <class Work, class T>
Matrix<T> weighted_log_sum(int n, std::ptrdiff_t count, const std::vector<T>& weights, const T* values,
                           const T* vectors) {
  constexpr std::ptrdiff_t kChunk = 32;
  const std::ptrdiff_t chunks = (count + kChunk - 1) / kChunk;
  std::vector<Matrix<T>> partial(static_cast<std::size_t>(chunks), Matrix<T>::Zero(n, n));
  parallel_for(chunks, [&](std::ptrdiff_t c) {
    Matrix<T>& sum = partial[static_cast<std::size_t>(c)];
    for (std::ptrdiff_t i = c * kChunk; i < std::min(count, (c + 1) * kChunk); ++i) {
      sum += weights[static_cast<std::size_t>(i)] *
             spectral<Work>(n, values + i * n, vectors + i * square(n), clamped_log<T>);
    }
  });
  Matrix<T> total = Matrix<T>::Zero(n, n);
  for (const Matrix<T>& p : partial) total += p;
  return total;
}

template <class Work, class T>
FrechetMean<Matrix<T>> karcher_mean(const SpdAffineInvariant<T>& m, const xt::xarray<T>& points, std::vector<T> weights,
                                    const FrechetMeanOptions& options) {
  const char* function = "batch::frechet_mean (SpdAffineInvariant)";
  check_mean_options(function, options);
  const int n = m.n();
  const auto count = static_cast<std::ptrdiff_t>(points.size() / square(n));
  const T weight_sum = gyre::detail::checked_mean_weights(function, weights, static_cast<std::size_t>(count));
  if (checks_enabled()) check_points(function, points, n);

  FrechetMean<Matrix<T>> result{Matrix<T>::Zero(n, n), 0, 0.0};
  for (std::ptrdiff_t i = 0; i < count; ++i) {
    result.point += weights[static_cast<std::size_t>(i)] * Matrix<T>(ConstItem<T>(points.data() + i * square(n), n, n));
  }
  result.point /= weight_sum;

  std::vector<T> whitened(points.size()), vectors(points.size()), previous_vectors(points.size());
  std::vector<T> values(static_cast<std::size_t>(count) * n);
  bool warm = false;
  KarcherStop stop(options, std::numeric_limits<T>::epsilon());
  for (int iteration = 1; iteration <= options.max_iterations; ++iteration) {
    const Eigen::LLT<Matrix<T>> llt(result.point);
    if (llt.info() != Eigen::Success) {
      throw DomainError(function, "the iterate lost positive definiteness (iteration)", iteration);
    }
    const Matrix<T> l = llt.matrixL();
    const Work l_inverse = lower_inverse(Work(l));
    parallel_for(count, [&](std::ptrdiff_t i) {
      Item<T>(whitened.data() + i * square(n), n, n) =
          congruence<Work>(l_inverse, ConstItem<T>(points.data() + i * square(n), n, n));
    });
    linalg::batched_symmetric_eigen<T>(n, count, whitened.data(), values.data(), vectors.data(),
                                       warm ? previous_vectors.data() : nullptr);
    // The step in whitened coordinates: log_X(Pᵢ) = L·logm(Wᵢ)·Lᵀ, so its AIM norm at X is
    // that of the mean of the logm(Wᵢ) at I.
    const Matrix<T> step = weighted_log_sum<Work>(n, count, weights, values.data(), vectors.data()) / weight_sum;
    result.last_step_norm =
        static_cast<double>(std::sqrt(std::max(T(0), spd::alpha_beta_inner<T>(m.alpha_beta(), step, step))));
    result.iterations = iteration;
    if (stop.done(result.last_step_norm)) return result;
    const Matrix<T> moved = l * linalg::symmetric_exp<T>(step) * l.transpose();
    result.point = (moved + moved.transpose()) / 2;
    std::swap(vectors, previous_vectors);
    warm = true;
  }
  throw ConvergenceError(function,
                         "Karcher iteration did not reach its tolerance in " + std::to_string(options.max_iterations) +
                             " iterations (last step norm)",
                         result.last_step_norm);
}

template <class T>
FrechetMean<Matrix<T>> mean_impl(const SpdAffineInvariant<T>& m, const xt::xarray<T>& points, std::vector<T> weights,
                                 const FrechetMeanOptions& options) {
  require_batch("batch::frechet_mean (SpdAffineInvariant)", "points", points, m.n());
  return karcher_mean<Small<T>>(m, points, std::move(weights), options);
}

// Explicit template arguments select the generic batched templates of gyre/core/batch.hpp and
// gyre/geometry/batch_frechet_mean.hpp for sizes above the Jacobi kernel's, and for a single item
// without leading axes (AnyManifold's calls), which gains nothing from batching and then reports
// errors exactly as the one-item function does.
template <class T>
bool fast(const SpdAffineInvariant<T>& m, const xt::xarray<T>& x) {
  return m.n() <= linalg::kMaxBatchedJacobiSize && x.dimension() > 2;
}

}  // namespace

xt::xarray<float> exp(const SpdAffineInvariant<float>& m, const xt::xarray<float>& x, const xt::xarray<float>& v) {
  return fast(m, x) ? exp_impl(m, x, v) : exp<SpdAffineInvariant<float>>(m, x, v);
}
xt::xarray<double> exp(const SpdAffineInvariant<double>& m, const xt::xarray<double>& x, const xt::xarray<double>& v) {
  return fast(m, x) ? exp_impl(m, x, v) : exp<SpdAffineInvariant<double>>(m, x, v);
}
xt::xarray<float> log(const SpdAffineInvariant<float>& m, const xt::xarray<float>& x, const xt::xarray<float>& y) {
  return fast(m, x) ? log_impl(m, x, y) : log<SpdAffineInvariant<float>>(m, x, y);
}
xt::xarray<double> log(const SpdAffineInvariant<double>& m, const xt::xarray<double>& x, const xt::xarray<double>& y) {
  return fast(m, x) ? log_impl(m, x, y) : log<SpdAffineInvariant<double>>(m, x, y);
}
xt::xarray<float> dist(const SpdAffineInvariant<float>& m, const xt::xarray<float>& x, const xt::xarray<float>& y) {
  return fast(m, x) ? dist_impl(m, x, y) : dist<SpdAffineInvariant<float>>(m, x, y);
}
xt::xarray<double> dist(const SpdAffineInvariant<double>& m, const xt::xarray<double>& x, const xt::xarray<double>& y) {
  return fast(m, x) ? dist_impl(m, x, y) : dist<SpdAffineInvariant<double>>(m, x, y);
}
FrechetMean<Matrix<float>> frechet_mean(const SpdAffineInvariant<float>& m, const xt::xarray<float>& points,
                                        std::vector<float> weights, FrechetMeanOptions options) {
  if (!fast(m, points)) return frechet_mean<SpdAffineInvariant<float>>(m, points, std::move(weights), options);
  return mean_impl(m, points, std::move(weights), options);
}
FrechetMean<Matrix<double>> frechet_mean(const SpdAffineInvariant<double>& m, const xt::xarray<double>& points,
                                         std::vector<double> weights, FrechetMeanOptions options) {
  if (!fast(m, points)) return frechet_mean<SpdAffineInvariant<double>>(m, points, std::move(weights), options);
  return mean_impl(m, points, std::move(weights), options);
}

}  // namespace gyre::batch
