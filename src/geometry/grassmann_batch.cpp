#include "grassmann/grassmann_batch.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gyre/core/checks.hpp"
#include "gyre/core/parallel.hpp"
#include "gyre/core/validate.hpp"
#include "gyre/linalg/batched_symmetric_eigen.hpp"

namespace gyre::batch {

namespace {

constexpr int kMaxRows = 64;
constexpr int kMaxColumns = 16;

template <class T>
using RowMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using Tall = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxRows, kMaxColumns>;
template <class T>
using Square = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxColumns, kMaxColumns>;

// The number of n×p items in `a` (any leading axes; ShapeError unless its last two axes are n, p).
template <class T>
std::ptrdiff_t require_batch(const char* function, const char* what, const xt::xarray<T>& a, int n, int p) {
  const std::size_t axes = a.dimension();
  if (axes < 2 || a.shape()[axes - 2] != static_cast<std::size_t>(n) ||
      a.shape()[axes - 1] != static_cast<std::size_t>(p)) {
    throw ShapeError(
        function,
        std::string(what) + " must end in n×p items with n = " + std::to_string(n) + ", p = " + std::to_string(p),
        detail::shape_text(a));
  }
  return static_cast<std::ptrdiff_t>(a.size() / (static_cast<std::size_t>(n) * static_cast<std::size_t>(p)));
}

// |UᵀU − I| ≤ membership_tolerance entrywise, without a heap copy; the one-item check_point runs
// (and words the error) only for an item that fails it.
template <class T, class Basis>
bool plainly_orthonormal(const Basis& u) {
  for (Eigen::Index i = 0; i < u.cols(); ++i) {
    for (Eigen::Index j = i; j < u.cols(); ++j) {
      const T deviation = u.col(i).dot(u.col(j)) - (i == j ? T(1) : T(0));
      if (!(std::abs(deviation) <= membership_tolerance<T>())) return false;  // false for NaN too
    }
  }
  return true;
}

template <class T>
xt::xarray<T> log_impl(const Grassmann<T>& m, const xt::xarray<T>& u, const xt::xarray<T>& y) {
  const char* function = "batch::log (Grassmann)";
  const int n = m.n();
  const int p = m.p();
  const std::ptrdiff_t count = require_batch(function, "first bases", u, n, p);
  require_batch(function, "second bases", y, n, p);
  detail::require_same_shape(function, u, y);
  const std::ptrdiff_t item = static_cast<std::ptrdiff_t>(n) * p;
  const std::ptrdiff_t square = static_cast<std::ptrdiff_t>(p) * p;
  using Map = Eigen::Map<const RowMajor<T>>;
  if (checks_enabled()) {
    detail::check_items(function, count, [&](std::ptrdiff_t i) {
      for (const T* basis : {u.data() + i * item, y.data() + i * item}) {
        if (!plainly_orthonormal<T>(Map(basis, n, p))) m.check_point(Matrix<T>(Map(basis, n, p)));
      }
    });
  }
  xt::xarray<T> out = xt::xarray<T>::from_shape(u.shape());
  if (n > kMaxRows || p > kMaxColumns) {
    detail::check_items(function, count, [&](std::ptrdiff_t i) {
      Eigen::Map<RowMajor<T>>(out.data() + i * item, n, p) = grassmann::log_of_bases<Matrix<T>, Matrix<T>>(
          "Grassmann::log", Map(u.data() + i * item, n, p), Map(y.data() + i * item, n, p));
    });
    return out;
  }
  // The right singular vectors B of M = UᵀY as the eigenvectors of MᵀM, all items in one call
  // of the batched Jacobi solver (the one-item log takes Eigen's JacobiSVD of M, most of its
  // time). Then MB = A·diag(c) gives the cosines as column norms and A = MB·diag(1/c), so
  // log_U(Y) = (I − UUᵀ)YB·diag(θ/(s·c))·(MB)ᵀ, the same formula as the one-item log. B is as
  // accurate as the SVD's to ε/gap(c²) = ε/((cᵢ + cⱼ)·gap(c)).
  std::vector<T> grams(static_cast<std::size_t>(count * square)), values(static_cast<std::size_t>(count * p)),
      vectors(grams.size());
  parallel_for(count, [&](std::ptrdiff_t i) {
    const Square<T> mi = Map(u.data() + i * item, n, p).transpose().lazyProduct(Map(y.data() + i * item, n, p));
    Eigen::Map<RowMajor<T>>(grams.data() + i * square, p, p) = mi.transpose().lazyProduct(mi);
  });
  linalg::batched_symmetric_eigen<T>(p, count, grams.data(), values.data(), vectors.data());
  detail::check_items(function, count, [&](std::ptrdiff_t i) {
    const Map ui(u.data() + i * item, n, p);
    const Map yi(y.data() + i * item, n, p);
    const Map b(vectors.data() + i * square, p, p);
    const Tall<T> yb = yi.lazyProduct(b);
    const Square<T> mb = ui.transpose().lazyProduct(yb);  // UᵀYB = MB = A·diag(c)
    Tall<T> scaled = yb - ui.lazyProduct(mb);             // (I − UUᵀ)YB, column norms sᵢ
    for (int k = 0; k < p; ++k) {
      const T c = mb.col(k).norm();
      const T s = scaled.col(k).norm();
      if (!(c > 4 * std::numeric_limits<T>::epsilon())) {
        throw DomainError("Grassmann::log", "a principal angle is π/2, the log is not unique (cos θ)", c);
      }
      const T t = s / c;  // θ/s = (atan(t)/t)/c as in the one-item log; one more 1/c turns MB into A
      scaled.col(k) *= (t < T(1e-4) ? 1 - t * t / 3 : std::atan(t) / t) / (c * c);
    }
    const Tall<T> delta = scaled.lazyProduct(mb.transpose());
    const Square<T> u_delta = ui.transpose().lazyProduct(delta);
    Eigen::Map<RowMajor<T>>(out.data() + i * item, n, p) = delta - ui.lazyProduct(u_delta);
  });
  return out;
}

}  // namespace

xt::xarray<float> log(const Grassmann<float>& m, const xt::xarray<float>& u, const xt::xarray<float>& y) {
  // A single item without leading axes (AnyManifold's calls) takes the one-item log: nothing to
  // batch, and its errors then read exactly as the one-item function's.
  return u.dimension() > 2 ? log_impl(m, u, y) : log<Grassmann<float>>(m, u, y);
}
xt::xarray<double> log(const Grassmann<double>& m, const xt::xarray<double>& u, const xt::xarray<double>& y) {
  return u.dimension() > 2 ? log_impl(m, u, y) : log<Grassmann<double>>(m, u, y);
}

}  // namespace gyre::batch
