// Batched thin QR with positive diag(R), and its backward pass: the factors by their properties
// and against a long-double Householder QR item by item; ∂L/∂A against seven-point central
// differences of L = ⟨G_Q, Q(A)⟩ + ⟨G_R, R(A)⟩, entry by entry of A; float against double.
#include "gyre/linalg/batched_qr.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include <Eigen/QR>
#include <Eigen/SVD>
#include <doctest/doctest.h>
#include <xtensor/xarray.hpp>
#include <xtensor/xbuilder.hpp>

#include "gyre/core/checks.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/rng.hpp"
#include "support/batch_test_support.hpp"
#include "support/finite_difference.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::Matrix;
using gyre::test::pack;
using gyre::test::unpack;

constexpr double kEps = std::numeric_limits<double>::epsilon();

// Gaussian n×p; with scaled = true the columns are scaled by 10^U(−3, 3), so κ(A) reaches 1e6
// while the columns themselves stay well apart (QR is column-scaling equivariant: Q does not move).
Matrix<double> random_tall(int n, int p, bool scaled, gyre::Rng& rng) {
  Matrix<double> a = rng.normal_matrix<double>(n, p);
  if (scaled) {
    for (int k = 0; k < p; ++k) a.col(k) *= std::pow(10.0, rng.uniform(-3.0, 3.0));
  }
  return a;
}

// κ₂ of A with unit columns: what Q's accuracy depends on (van der Sluis; Higham 2002, §19.9).
double normalized_condition(const Matrix<double>& a) {
  const Matrix<double> unit = a * a.colwise().norm().cwiseInverse().asDiagonal();
  const Eigen::JacobiSVD<Matrix<double>> svd(unit);
  return svd.singularValues()(0) / svd.singularValues()(a.cols() - 1);
}

// Q and R in long double, diag(R) > 0: the reference.
std::pair<Matrix<long double>, Matrix<long double>> long_double_qr(const Matrix<long double>& a) {
  using L = long double;
  const Eigen::Index n = a.rows();
  const Eigen::Index p = a.cols();
  const Eigen::HouseholderQR<Matrix<L>> qr(a);
  Matrix<L> q = qr.householderQ() * Matrix<L>::Identity(n, p);
  Matrix<L> r = qr.matrixQR().topRows(p).triangularView<Eigen::Upper>();
  for (Eigen::Index k = 0; k < p; ++k) {
    if (r(k, k) < 0) {
      r.row(k) *= -1;
      q.col(k) *= -1;
    }
  }
  return {q, r};
}

double gap(const Matrix<double>& a, const Matrix<double>& b) { return (a - b).norm() / b.norm(); }

const std::vector<std::pair<int, int>> kSizes = {{1, 1},   {3, 3},   {5, 2},   {10, 4}, {20, 5},
                                                 {30, 30}, {64, 32}, {65, 10}, {40, 33}};  // last two: heap matrices

// count Gaussian n×p items with Gaussian ∂L/∂Q and ∂L/∂R, packed.
struct Problem {
  xt::xarray<double> a, grad_q, grad_r;
};
Problem random_problem(int count, int n, int p, std::uint64_t seed) {
  gyre::Rng rng(seed);
  std::vector<Matrix<double>> items, grad_qs, grad_rs;
  for (int b = 0; b < count; ++b) {
    items.push_back(random_tall(n, p, false, rng));
    grad_qs.push_back(rng.normal_matrix<double>(n, p));
    grad_rs.push_back(rng.normal_matrix<double>(p, p));
  }
  return {pack(items), pack(grad_qs), pack(grad_rs)};
}

}  // namespace

TEST_CASE("batched_qr: Q orthonormal, R upper triangular with positive diagonal, QR = A, as in long double") {
  gyre::Rng rng(5150);
  for (const auto& size : kSizes) {
    const int n = size.first, p = size.second;  // plain ints: clang 14 cannot capture structured bindings
    for (const bool scaled : {false, true}) {
      CAPTURE(n);
      CAPTURE(p);
      CAPTURE(scaled);
      const int count = 9;  // several items in each parallel chunk and a remainder
      std::vector<Matrix<double>> items;
      for (int b = 0; b < count; ++b) items.push_back(random_tall(n, p, scaled, rng));
      const gyre::linalg::BatchedQr<double> qr = gyre::linalg::batched_qr(pack(items));
      REQUIRE(qr.q.shape()[1] == static_cast<std::size_t>(n));
      REQUIRE(qr.r.shape()[1] == static_cast<std::size_t>(p));
      for (int b = 0; b < count; ++b) {
        CAPTURE(b);
        const Matrix<double> q = unpack(qr.q, b);
        const Matrix<double> r = unpack(qr.r, b);
        // Householder QR: Q orthonormal and QR = A to c·n·ε (Higham 2002, Thm 19.4 and 19.13),
        // c a small constant; 16 covers it.
        CHECK((q.transpose() * q - Matrix<double>::Identity(p, p)).norm() <= 16 * n * kEps);
        CHECK(gap(q * r, items[b]) <= 16 * n * kEps);
        CHECK(Matrix<double>(r.triangularView<Eigen::StrictlyLower>()).isZero(0.0));  // exactly
        CHECK(r.diagonal().minCoeff() > 0);
        // The factorisation with diag(R) > 0 is unique and moves like κ(A with unit columns)
        // under the backward error n·ε (relative, columnwise).
        const auto [q_ld, r_ld] = long_double_qr(items[b].cast<long double>());
        const Matrix<double> q_ref = q_ld.cast<double>();
        const Matrix<double> r_ref = r_ld.cast<double>();
        const double tolerance = 16 * n * kEps * normalized_condition(items[b]);
        CHECK(gap(q, q_ref) <= tolerance);
        for (int k = 0; k < p; ++k) CHECK(gap(r.col(k), r_ref.col(k)) <= tolerance);  // columnwise: scaled columns
      }
    }
  }
}

TEST_CASE("batched_qr: backward equals central differences, with and without ∂L/∂R") {
  const std::vector<std::pair<int, int>> sizes = {{3, 3}, {4, 2}, {6, 3}, {10, 5}, {20, 5}, {8, 8}, {70, 4}};
  for (const std::uint64_t seed : gyre::test::seeds(28)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    const int n = sizes[seed % sizes.size()].first, p = sizes[seed % sizes.size()].second;
    CAPTURE(n);
    CAPTURE(p);
    const int count = 2;
    std::vector<Matrix<double>> items, grad_qs, grad_rs;
    for (int b = 0; b < count; ++b) {
      items.push_back(random_tall(n, p, seed % 2 == 1, rng));
      grad_qs.push_back(rng.normal_matrix<double>(n, p));
      grad_rs.push_back(rng.normal_matrix<double>(p, p));  // the lower triangle meets R's constant zeros
    }
    const gyre::linalg::BatchedQr<double> qr = gyre::linalg::batched_qr(pack(items));
    const xt::xarray<double> only_q = gyre::linalg::batched_qr_backward(qr, pack(grad_qs));
    const xt::xarray<double> both = gyre::linalg::batched_qr_backward(qr, pack(grad_qs), pack(grad_rs));
    for (int b = 0; b < count; ++b) {
      CAPTURE(b);
      for (const bool with_r : {false, true}) {
        CAPTURE(with_r);
        // QR is smooth at full rank, on the scale of the smallest singular value of A: the
        // stencil reaches 3·10⁻² of it, and perturbs A exactly (long double, power-of-two step).
        const Eigen::JacobiSVD<Matrix<double>> svd(items[b]);
        const long double step = gyre::test::power_of_two_step(1e-2 * svd.singularValues()(p - 1));
        Matrix<double> numeric(n, p);
        for (int i = 0; i < n; ++i) {
          for (int j = 0; j < p; ++j) {
            const auto loss = [&](long double t) {
              Matrix<long double> a = items[b].cast<long double>();
              a(i, j) += t;
              const auto [q, r] = long_double_qr(a);
              return grad_qs[b].cast<long double>().cwiseProduct(q).sum() +
                     (with_r ? grad_rs[b].cast<long double>().cwiseProduct(r).sum() : 0.0L);
            };
            numeric(i, j) = static_cast<double>(gyre::test::seven_point_derivative(loss, step));
          }
        }
        // Seven-point stencil: truncation (h/σ_min)⁶·7!/140 ≈ 4e-11 relative; rounding of the
        // long-double loss over h is ≈ ε_L·κ(A)/10⁻² ≤ 1e-10 (κ ≤ 1e6 with scaled columns).
        // 1e-9 has margin; a wrong copyutl (such as an antisymmetric copyltu) is off by O(1).
        CHECK(gap(numeric, unpack(with_r ? both : only_q, b)) <= 1e-9);
      }
    }
  }
}

TEST_CASE("batched_qr: float agrees with double") {
  const double eps = std::numeric_limits<float>::epsilon();
  for (const std::uint64_t seed : gyre::test::seeds(10)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    const int n = kSizes[seed % kSizes.size()].first, p = kSizes[seed % kSizes.size()].second;
    CAPTURE(n);
    CAPTURE(p);
    const int count = 7;
    std::vector<Matrix<double>> items, grad_qs, grad_rs;
    for (int b = 0; b < count; ++b) {
      items.push_back(random_tall(n, p, false, rng));
      grad_qs.push_back(rng.normal_matrix<double>(n, p));
      grad_rs.push_back(rng.normal_matrix<double>(p, p));
    }
    const xt::xarray<double> a = pack(items);
    const xt::xarray<double> gq = pack(grad_qs);
    const xt::xarray<double> gr = pack(grad_rs);
    const auto qr = gyre::linalg::batched_qr(a);
    const auto qr_f = gyre::linalg::batched_qr(xt::xarray<float>(xt::cast<float>(a)));
    const xt::xarray<double> back = gyre::linalg::batched_qr_backward(qr, gq, gr);
    const xt::xarray<float> back_f = gyre::linalg::batched_qr_backward(qr_f, xt::xarray<float>(xt::cast<float>(gq)),
                                                                       xt::xarray<float>(xt::cast<float>(gr)));
    for (int b = 0; b < count; ++b) {
      CAPTURE(b);
      // The double bounds with ε_f: rounding A to float and factorising it in float move Q by
      // κ·n·ε_f; ∂L/∂A = (G_Q + Q·W)·R⁻ᵀ is a first-order function of Q and R whose relative
      // condition is κ(R) = κ(A) once more, not its square (errors in Q and in the solve add).
      // The columns are not scaled here, so κ(A) is about κ of A with unit columns.
      const double kappa = normalized_condition(items[b]);
      CHECK(gap(unpack(qr_f.q, b).cast<double>(), unpack(qr.q, b)) <= 16 * n * eps * kappa);
      CHECK(gap(unpack(back_f, b).cast<double>(), unpack(back, b)) <= 16 * n * eps * kappa);
    }
  }
}

TEST_CASE_TEMPLATE("batched_qr: bad input is named", T, float, double) {
  using gyre::linalg::batched_qr;
  using gyre::linalg::batched_qr_backward;
  CHECK_THROWS_WITH_AS((void)batched_qr(xt::xarray<T>::from_shape({2, 3, 4})),
                       "gyre::batched_qr: input must be a (B, n, p) array with n ≥ p ((2, 3, 4))", gyre::ShapeError);
  CHECK_THROWS_AS((void)batched_qr(xt::xarray<T>::from_shape({4, 3})), gyre::ShapeError);
  // Three 4×3 items of full rank.
  xt::xarray<T> a = xt::zeros<T>({3, 4, 3});
  for (std::size_t b = 0; b < 3; ++b) {
    for (std::size_t k = 0; k < 3; ++k) a(b, k, k) = T(1);
    a(b, 3, 0) = T(2);
  }
  xt::xarray<T> bad = a;
  bad(2, 1, 1) = std::numeric_limits<T>::quiet_NaN();
  CHECK_THROWS_WITH_AS((void)batched_qr(bad),
                       "gyre::batched_qr: input of item 2 has a non-finite entry (NaN or Inf) (NaN/Inf)",
                       gyre::DomainError);
  // Column 2 of item 1 equal to column 0: dependent, to rounding.
  bad = a;
  for (std::size_t i = 0; i < 4; ++i) bad(1, i, 2) = bad(1, i, 0);
  CHECK_THROWS_WITH_AS(
      (void)batched_qr(bad),
      doctest::Contains("gyre::batched_qr: column 2 of item 1 depends on the columns before it: not of full "
                        "column rank (|Rₖₖ| / ‖aₖ‖)"),
      gyre::DomainError);
  // A zero column.
  bad = a;
  for (std::size_t i = 0; i < 4; ++i) bad(0, i, 1) = T(0);
  CHECK_THROWS_WITH_AS((void)batched_qr(bad),
                       "gyre::batched_qr: column 1 of item 0 depends on the columns before it: not of full column rank "
                       "(|Rₖₖ| / ‖aₖ‖) (0)",
                       gyre::DomainError);
  // Backward: shapes and values of the gradients.
  const auto qr = batched_qr(a);
  CHECK_THROWS_WITH_AS((void)batched_qr_backward(qr, xt::xarray<T>::from_shape({3, 3, 3})),
                       "gyre::batched_qr_backward: gradient with respect to Q must have shape (3, 4, 3) ((3, 3, 3))",
                       gyre::ShapeError);
  CHECK_THROWS_WITH_AS(
      (void)batched_qr_backward(qr, xt::xarray<T>(xt::zeros<T>({3, 4, 3})), xt::xarray<T>::from_shape({3, 4, 3})),
      "gyre::batched_qr_backward: gradient with respect to R must have shape (3, 3, 3) ((3, 4, 3))", gyre::ShapeError);
  xt::xarray<T> g = xt::zeros<T>({3, 4, 3});
  g(1, 0, 0) = std::numeric_limits<T>::infinity();
  CHECK_THROWS_WITH_AS((void)batched_qr_backward(qr, g),
                       "gyre::batched_qr_backward: gradient with respect to Q of item 1 has a non-finite entry (NaN or "
                       "Inf) (NaN/Inf)",
                       gyre::DomainError);
}

TEST_CASE("batched_qr: gyre::ChecksOff skips the checks and changes no result") {
  gyre::Rng rng(31);
  std::vector<Matrix<double>> items, grads;
  for (int b = 0; b < 5; ++b) {
    items.push_back(random_tall(7, 3, false, rng));
    grads.push_back(rng.normal_matrix<double>(7, 3));
  }
  const xt::xarray<double> a = pack(items);
  const xt::xarray<double> g = pack(grads);
  const auto checked = gyre::linalg::batched_qr(a);
  const xt::xarray<double> checked_back = gyre::linalg::batched_qr_backward(checked, g);
  xt::xarray<double> dependent = a;
  for (std::size_t i = 0; i < 7; ++i) dependent(3, i, 2) = dependent(3, i, 1);
  const gyre::ChecksOff off;
  const auto unchecked = gyre::linalg::batched_qr(a);
  CHECK(unchecked.q == checked.q);
  CHECK(unchecked.r == checked.r);
  CHECK(gyre::linalg::batched_qr_backward(unchecked, g) == checked_back);
  CHECK_NOTHROW((void)gyre::linalg::batched_qr(dependent));  // unspecified result, no check
  CHECK_THROWS_AS((void)gyre::linalg::batched_qr(xt::xarray<double>::from_shape({1, 2, 3})), gyre::ShapeError);
}

TEST_CASE("batched_qr: writing into the caller's arrays reuses them and changes no value") {
  const auto [a, gq, gr] = random_problem(6, 9, 4, 37);
  gyre::linalg::BatchedQr<double> out;
  xt::xarray<double> grad_a;
  gyre::linalg::batched_qr(a, out);
  gyre::linalg::batched_qr_backward(out, gq, &gr, grad_a);
  const double* q_storage = out.q.data();
  const double* grad_storage = grad_a.data();
  gyre::linalg::batched_qr(xt::xarray<double>(2.0 * a), out);  // same shapes: same storage
  gyre::linalg::batched_qr_backward(out, gq, &gr, grad_a);
  CHECK(out.q.data() == q_storage);
  CHECK(grad_a.data() == grad_storage);
  const auto fresh = gyre::linalg::batched_qr(xt::xarray<double>(2.0 * a));
  CHECK(out.q == fresh.q);
  CHECK(out.r == fresh.r);
  CHECK(grad_a == gyre::linalg::batched_qr_backward(fresh, gq, gr));
  gyre::linalg::batched_qr_backward(out, gq, nullptr, grad_a);
  CHECK(grad_a == gyre::linalg::batched_qr_backward(fresh, gq));
}

TEST_CASE_TEMPLATE("batched_qr: items near the ends of the range give the scaled factors", T, float, double) {
  // 2^±996 ≈ 1e±300 (2^±100 ≈ 1e±30 in float): Householder vectors square the entries, which
  // overflow or vanish there unless the item is scaled first. Scaling by a power of two is exact,
  // so the factors are those of the unscaled items to the bit: Q the same, R scaled.
  const int k = std::is_same_v<T, float> ? 100 : 996;
  gyre::Rng rng(43);
  for (const auto& size : {std::pair{4, 4}, std::pair{9, 3}, std::pair{70, 5}}) {  // 70: heap matrices
    const int n = size.first, p = size.second;
    CAPTURE(n);
    CAPTURE(p);
    std::vector<Matrix<double>> items;
    for (int b = 0; b < 5; ++b) items.push_back(random_tall(n, p, false, rng));
    const xt::xarray<T> a = xt::cast<T>(pack(items));
    const auto base = gyre::linalg::batched_qr(a);
    for (const int exponent : {k, -k}) {
      CAPTURE(exponent);
      const auto scaled = gyre::linalg::batched_qr(xt::xarray<T>(a * std::ldexp(T(1), exponent)));
      CHECK(scaled.q == base.q);
      CHECK(scaled.r == xt::xarray<T>(base.r * std::ldexp(T(1), exponent)));
    }
  }
}

TEST_CASE("batched_qr: items with no columns give empty factors") {
  for (const std::size_t n : {std::size_t{0}, std::size_t{4}}) {
    CAPTURE(n);
    const xt::xarray<double> a = xt::xarray<double>::from_shape({3, n, 0});
    const auto qr = gyre::linalg::batched_qr(a);
    CHECK(qr.q.shape() == a.shape());
    CHECK(qr.r.shape() == xt::xarray<double>::shape_type{3, 0, 0});
    CHECK(gyre::linalg::batched_qr_backward(qr, a).shape() == a.shape());
    CHECK(gyre::linalg::batched_qr_backward(qr, a, qr.r).shape() == a.shape());
  }
}

TEST_CASE("batched_qr: an output that is also an input gives the same values") {
  const auto [a, gq, gr] = random_problem(4, 6, 3, 47);
  const auto fresh = gyre::linalg::batched_qr(a);
  const xt::xarray<double> fresh_grad = gyre::linalg::batched_qr_backward(fresh, gq, gr);
  gyre::linalg::BatchedQr<double> out;
  out.q = a;
  gyre::linalg::batched_qr(out.q, out);
  CHECK(out.q == fresh.q);
  CHECK(out.r == fresh.r);
  // ∂L/∂A into ∂L/∂Q's array, into ∂L/∂R's and into R's (whose shapes differ from ∂L/∂A's).
  xt::xarray<double> grad = gq;
  gyre::linalg::batched_qr_backward(fresh, grad, &gr, grad);
  CHECK(grad == fresh_grad);
  grad = gr;
  gyre::linalg::batched_qr_backward(fresh, gq, &grad, grad);
  CHECK(grad == fresh_grad);
  auto factors = fresh;
  gyre::linalg::batched_qr_backward(factors, gq, &gr, factors.r);
  CHECK(factors.r == fresh_grad);
}

TEST_CASE("batched_qr: backward names an overflowing ∂L/∂A") {
  // A = 1e-300·I: R⁻ᵀ = 1e300·I, and ∂L/∂Q = 1e10 below the diagonal gives 1e310, which is no double.
  xt::xarray<double> a = xt::zeros<double>({2, 2, 2});
  a(0, 0, 0) = a(0, 1, 1) = 1;
  a(1, 0, 0) = a(1, 1, 1) = 1e-300;
  const auto qr = gyre::linalg::batched_qr(a);
  xt::xarray<double> g = xt::zeros<double>({2, 2, 2});
  g(1, 1, 0) = 1e10;
  CHECK_THROWS_WITH_AS((void)gyre::linalg::batched_qr_backward(qr, g),
                       "gyre::batched_qr_backward: ∂L/∂A of item 1 overflows (smallest Rₖₖ) (1e-300)",
                       gyre::DomainError);
  g(1, 1, 0) = 1e-10;  // 1e290: large and finite, and right
  const double grad = gyre::linalg::batched_qr_backward(qr, g)(1, 1, 0);
  CHECK(std::abs(grad / 1e290 - 1) <= 8 * kEps);  // relative; Q = I, a few roundings of G·R⁻ᵀ
}
