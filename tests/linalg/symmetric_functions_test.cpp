// Functions of symmetric matrices and their Daleckii–Krein derivatives, against independent
// references: Eigen's MatrixFunctions (Schur–Parlett / Padé, no eigendecomposition), Higham's
// block formula f([[S, H], [0, S]]) = [[f(S), Df(S)[H]], [0, f(S)]] (which needs no divided
// differences at all), and central finite differences.
#include "gyre/linalg/symmetric_functions.hpp"

#include <cmath>
#include <limits>

#include <doctest/doctest.h>
#include <unsupported/Eigen/MatrixFunctions>

#include "gyre/core/rng.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::Matrix;
using gyre::linalg::SymmetricEigen;

// A symmetric matrix with the given eigenvalues and Haar-random eigenvectors.
Matrix<double> with_spectrum(const gyre::Vector<double>& eigenvalues, gyre::Rng& rng) {
  const Matrix<double> g = rng.normal_matrix<double>(eigenvalues.size(), eigenvalues.size());
  const Eigen::HouseholderQR<Matrix<double>> qr(g);
  const Matrix<double> q = qr.householderQ();
  return gyre::linalg::symmetric_part<double>(q * eigenvalues.asDiagonal() * q.transpose());
}

Matrix<double> random_symmetric(int n, gyre::Rng& rng) {
  return gyre::linalg::symmetric_part<double>(rng.normal_matrix<double>(n, n));
}

// The top-right block of f([[S, H], [0, S]]), given a function on general matrices.
template <class F>
Matrix<double> block_derivative(const Matrix<double>& s, const Matrix<double>& h, F f) {
  const Eigen::Index n = s.rows();
  Matrix<double> block = Matrix<double>::Zero(2 * n, 2 * n);
  block.topLeftCorner(n, n) = s;
  block.bottomRightCorner(n, n) = s;
  block.topRightCorner(n, n) = h;
  const Matrix<double> fb = f(block);
  return fb.topRightCorner(n, n);
}

double gap(const Matrix<double>& a, const Matrix<double>& b) { return (a - b).norm() / std::max(1.0, b.norm()); }

// Spectra that stress the divided differences: well separated, repeated, nearly repeated, spread.
std::vector<gyre::Vector<double>> spectra() {
  std::vector<gyre::Vector<double>> out;
  gyre::Vector<double> v(4);
  v << 0.5, 1.0, 2.0, 3.5;
  out.push_back(v);
  v << 1.0, 1.0, 1.0, 2.0;  // repeated
  out.push_back(v);
  v << 1.0, 1.0 + 1e-9, 1.0 + 2e-9, 0.7;  // nearly repeated
  out.push_back(v);
  v << 1e-3, 1.0, 10.0, 1e3;  // condition 1e6
  out.push_back(v);
  return out;
}

}  // namespace

TEST_CASE("symmetric functions: log, exp, sqrt, power equal Eigen's MatrixFunctions") {
  gyre::Rng rng(101);
  for (const auto& spectrum : spectra()) {
    CAPTURE(spectrum.transpose());
    const Matrix<double> p = with_spectrum(spectrum, rng);
    const SymmetricEigen<double> e = gyre::linalg::symmetric_eigen<double>(p);
    // Both sides are backward stable; a cond-1e6 spectrum costs up to cond·ε ≈ 2.2e-10 in the
    // relative gap of the inverse-like powers (measured worst 6.3e-11, InverseSqrt, over 40 random
    // eigenbases), so the budget is 5e-10 there and 1e-13 elsewhere.
    const double budget = spectrum.maxCoeff() / spectrum.minCoeff() > 1e5 ? 5e-10 : 1e-13;
    CHECK(gap(gyre::linalg::apply(e, gyre::linalg::Log{}), Matrix<double>(p.log())) <= budget);
    CHECK(gap(gyre::linalg::apply(e, gyre::linalg::Sqrt{}), Matrix<double>(p.sqrt())) <= budget);
    CHECK(gap(gyre::linalg::apply(e, gyre::linalg::Power{0.3}), Matrix<double>(p.pow(0.3))) <= budget);
    CHECK(gap(gyre::linalg::apply(e, gyre::linalg::InverseSqrt{}), Matrix<double>(p.sqrt().inverse())) <= budget);
    const Matrix<double> s = gyre::linalg::apply(e, gyre::linalg::Log{});
    CHECK(gap(gyre::linalg::symmetric_exp<double>(s), Matrix<double>(s.exp())) <= budget);
  }
}

TEST_CASE("symmetric functions: Daleckii–Krein derivatives equal Higham's block formula") {
  gyre::Rng rng(102);
  for (const auto& spectrum : spectra()) {
    CAPTURE(spectrum.transpose());
    const Matrix<double> p = with_spectrum(spectrum, rng);
    const SymmetricEigen<double> e = gyre::linalg::symmetric_eigen<double>(p);
    const Matrix<double> h = random_symmetric(4, rng);
    // The block matrix is non-normal; Schur–Parlett on it is accurate to ~1e-12 here (1e-8 for
    // the cond-1e6 spectrum, where the log's derivative spans six orders of magnitude).
    const double budget = spectrum.maxCoeff() / spectrum.minCoeff() > 1e5 ? 1e-8 : 1e-11;
    CHECK(gap(gyre::linalg::frechet_derivative(e, gyre::linalg::Log{}, h),
              block_derivative(p, h, [](const Matrix<double>& m) { return Matrix<double>(m.log()); })) <= budget);
    CHECK(gap(gyre::linalg::frechet_derivative(e, gyre::linalg::Sqrt{}, h),
              block_derivative(p, h, [](const Matrix<double>& m) { return Matrix<double>(m.sqrt()); })) <= budget);
    CHECK(gap(gyre::linalg::frechet_derivative(e, gyre::linalg::Power{-0.7}, h),
              block_derivative(p, h, [](const Matrix<double>& m) { return Matrix<double>(m.pow(-0.7)); })) <= budget);
    const Matrix<double> s = gyre::linalg::apply(e, gyre::linalg::Log{});
    const SymmetricEigen<double> es = gyre::linalg::symmetric_eigen<double>(s);
    CHECK(gap(gyre::linalg::frechet_derivative(es, gyre::linalg::Exp{}, h),
              block_derivative(s, h, [](const Matrix<double>& m) { return Matrix<double>(m.exp()); })) <= budget);
  }
}

TEST_CASE("symmetric functions: derivatives equal central differences on 100 seeded cases") {
  for (const std::uint64_t seed : gyre::test::seeds(100)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    gyre::Vector<double> spectrum(5);
    for (int i = 0; i < 5; ++i) spectrum(i) = std::exp(rng.uniform<double>(-1.5, 1.5));
    const Matrix<double> p = with_spectrum(spectrum, rng);
    const Matrix<double> h = random_symmetric(5, rng);
    const SymmetricEigen<double> e = gyre::linalg::symmetric_eigen<double>(p);
    const double step = 1e-5;
    const auto central = [&](auto f) {
      const Matrix<double> up = gyre::linalg::apply(gyre::linalg::symmetric_eigen<double>(p + step * h), f);
      const Matrix<double> down = gyre::linalg::apply(gyre::linalg::symmetric_eigen<double>(p - step * h), f);
      return Matrix<double>((up - down) / (2 * step));
    };
    // Truncation h²·‖f‴‖ ≈ 1e-10 and rounding ε/h ≈ 1e-11 with these spectra: 1e-8 has margin and
    // still rejects any wrong divided difference (which is off by O(1)).
    CHECK(gap(gyre::linalg::frechet_derivative(e, gyre::linalg::Log{}, h), central(gyre::linalg::Log{})) <= 1e-8);
    CHECK(gap(gyre::linalg::frechet_derivative(e, gyre::linalg::Exp{}, h), central(gyre::linalg::Exp{})) <= 1e-8);
    CHECK(gap(gyre::linalg::frechet_derivative(e, gyre::linalg::Power{1.7}, h), central(gyre::linalg::Power{1.7})) <=
          1e-8);
    CHECK(gap(gyre::linalg::frechet_derivative(e, gyre::linalg::InverseSqrt{}, h),
              central(gyre::linalg::InverseSqrt{})) <= 1e-8);
    // The inverse derivative undoes the derivative to rounding.
    const Matrix<double> d = gyre::linalg::frechet_derivative(e, gyre::linalg::Log{}, h);
    CHECK(gap(gyre::linalg::inverse_frechet_derivative(e, gyre::linalg::Log{}, d), h) <= 1e-13);
    // Self-adjointness: ⟨Df[H], K⟩ = ⟨H, Df[K]⟩ (what backward passes rely on).
    const Matrix<double> k = random_symmetric(5, rng);
    const double left = d.cwiseProduct(k).sum();
    const double right = h.cwiseProduct(gyre::linalg::frechet_derivative(e, gyre::linalg::Log{}, k)).sum();
    CHECK(std::abs(left - right) <= 1e-13 * (1 + std::abs(left)));
  }
}

TEST_CASE("symmetric functions: divided differences keep full accuracy for close arguments") {
  // f[a, a(1 + δ)] against the exact limits and a long-double reference.
  for (const double delta : {1e-3, 1e-8, 1e-12, 1e-15}) {
    CAPTURE(delta);
    const double a = 2.0;
    const double b = a * (1 + delta);
    const long double al = a;
    const long double bl = b;
    const auto check = [&](double got, long double exact) {
      CHECK(std::abs(got - static_cast<double>(exact)) <=
            4 * std::numeric_limits<double>::epsilon() * std::abs(static_cast<double>(exact)));
    };
    // log1pl/expm1l in long double are accurate to ~1e-19: a reference for these quotients.
    check(gyre::linalg::Log{}.divided(b, a), log1pl((bl - al) / al) / (bl - al));
    check(gyre::linalg::Exp{}.divided(b, a), expl(al) * expm1l(bl - al) / (bl - al));
    check(gyre::linalg::Sqrt{}.divided(b, a), 1.0L / (sqrtl(al) + sqrtl(bl)));
    check(gyre::linalg::Power{0.5}.divided(b, a), 1.0L / (sqrtl(al) + sqrtl(bl)));
  }
  // At a = b the divided difference is f′(a): 1/a (one division) and p·a^(p−1) (pow and a product),
  // each within an ulp or two.
  CHECK(gyre::linalg::Log{}.divided(3.0, 3.0) == doctest::Approx(1.0 / 3.0).epsilon(1e-16));
  CHECK(gyre::linalg::Power{2.5}.divided(3.0, 3.0) == doctest::Approx(2.5 * std::pow(3.0, 1.5)).epsilon(1e-15));
}

TEST_CASE("symmetric functions: Exp's divided difference stays finite while e^max is") {
  // e^50 ≈ 5.2e21 is a float, e^100 is not; (e^50 − e^−50)/100 must not pass through e^100.
  const float far = gyre::linalg::Exp{}.divided(50.0f, -50.0f);
  const long double exact = (expl(50.0L) - expl(-50.0L)) / 100.0L;
  // exp and expm1 are each within an ulp or two, and two more roundings: 8 ulps of float.
  CHECK(std::abs(far - static_cast<float>(exact)) <=
        8 * std::numeric_limits<float>::epsilon() * static_cast<float>(exact));
  CHECK(
      gyre::linalg::Exp{}.divided(30.0, 0.0) ==
      doctest::Approx(static_cast<double>(expm1l(30.0L) / 30.0L)).epsilon(4 * std::numeric_limits<double>::epsilon()));
}

TEST_CASE("symmetric functions: Rectify's divided differences and its convention at the kink") {
  const gyre::linalg::Rectify rectify{0.5};
  CHECK(rectify.value(0.25) == 0.5);
  CHECK(rectify.value(2.0) == 2.0);
  CHECK(rectify.divided(0.5, 0.5) == 0.0);  // f′(ε) := 0, the subgradient SPDNet's code takes
  CHECK(rectify.divided(std::nextafter(0.5, 1.0), std::nextafter(0.5, 1.0)) == 1.0);
  CHECK(rectify.divided(0.1, 0.3) == 0.0);          // both clamped
  CHECK(rectify.divided(1.0, 3.0) == 1.0);          // both kept
  CHECK(rectify.divided(0.25, 1.5) == 1.0 / 1.25);  // (1.5 − 0.5)/(1.5 − 0.25), exact in binary
  // Straddling pairs closer than any finite difference: still the exact quotient, in [0, 1].
  const double below = std::nextafter(0.5, 0.0);
  const double above = std::nextafter(0.5, 1.0);
  CHECK(rectify.divided(below, above) == doctest::Approx((above - 0.5) / (above - below)).epsilon(1e-16));
  CHECK(rectify.divided(above, below) == rectify.divided(below, above));
}

TEST_CASE("symmetric functions: non-positive-definite input is named") {
  Matrix<double> p = Matrix<double>::Identity(3, 3);
  p(2, 2) = -0.25;
  CHECK_THROWS_WITH_AS((void)gyre::linalg::spd_log<double>(p),
                       "gyre::spd_log: matrix is not positive definite (smallest eigenvalue) (-0.25)",
                       gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)gyre::linalg::spd_power<double>(p, 0.5),
                       doctest::Contains("spd_power: matrix is not positive definite"), gyre::DomainError);
}

TEST_CASE("symmetric functions: log's second divided difference, coincident, near and far") {
  const gyre::linalg::Log log;
  // Coincident: log″/2 = −1/(2a²) exactly; two coincident: (log′(a) − log[a, c])/(a − c).
  for (const double a : {1e-3, 0.7, 5.0, 1e4}) {
    CAPTURE(a);
    CHECK(log.divided2(a, a, a) == doctest::Approx(-0.5 / (a * a)).epsilon(1e-15));
    const long double c = 1.5L * a;
    const long double reference = (1 / static_cast<long double>(a) - logl(c / a) / (c - a)) / (a - c);
    CHECK(log.divided2(a, a, static_cast<double>(c)) == doctest::Approx(static_cast<double>(reference)).epsilon(1e-14));
  }
  // Near (within 1 %: the series) and far (the quotient), against long double quotients whose own
  // cancellation error (1e-19 relative over gaps ≥ 1e-3) is below 1e-14; symmetric in its arguments.
  for (const double a : {0.3, 2.0}) {
    for (const double gap : {1e-3, 4e-3, 0.02, 0.6}) {
      CAPTURE(a);
      CAPTURE(gap);
      const long double la = a, lb = a * (1 + gap), lc = a * (1 + 2.5L * gap);
      const long double ab = logl(lb / la) / (lb - la), bc = logl(lc / lb) / (lc - lb);
      const double reference = static_cast<double>((ab - bc) / (la - lc));
      const double b = static_cast<double>(lb), c = static_cast<double>(lc);
      CHECK(log.divided2(a, b, c) == doctest::Approx(reference).epsilon(1e-12));
      CHECK(log.divided2(c, a, b) == log.divided2(a, b, c));
    }
  }
}

TEST_CASE("symmetric functions: the power's second divided difference against closed forms") {
  // Exact forms: x²[a, b, c] = 1, x³[a, b, c] = a + b + c, x⁻¹[a, b, c] = 1/(abc),
  // √[a, b, c] = −1/((√a + √b)(√b + √c)(√a + √c)); coincident and within 1 % (the series branch),
  // and far (the quotient of first differences). Relative 1e-13: the quotient's cancellation
  // costs up to 100·ε on the near side of its threshold.
  for (const double a : {0.3, 2.0, 1e3}) {
    for (const double gap : {0.0, 1e-6, 1e-3, 4e-3, 0.02, 0.6}) {
      CAPTURE(a);
      CAPTURE(gap);
      const double b = a * (1 + gap), c = a * (1 + 2.5 * gap);
      const double ra = std::sqrt(a), rb = std::sqrt(b), rc = std::sqrt(c);
      CHECK(gyre::linalg::Power{2.0}.divided2(a, b, c) == doctest::Approx(1.0).epsilon(1e-13));
      CHECK(gyre::linalg::Power{3.0}.divided2(a, b, c) == doctest::Approx(a + b + c).epsilon(1e-13));
      CHECK(gyre::linalg::Power{-1.0}.divided2(a, b, c) == doctest::Approx(1 / (a * b * c)).epsilon(1e-13));
      CHECK(gyre::linalg::Power{0.5}.divided2(c, a, b) ==
            doctest::Approx(-1 / ((ra + rb) * (rb + rc) * (ra + rc))).epsilon(1e-13));
    }
  }
}
