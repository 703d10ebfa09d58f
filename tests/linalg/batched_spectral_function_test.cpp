// Batched spectral functions, forward and Daleckii–Krein backward, against independent references:
// Eigen's MatrixFunctions (Schur–Parlett and Padé, no eigendecomposition) for the forward pass;
// seven-point central differences along symmetric perturbations and a long-double evaluation for
// the backward pass; the double results for float. The spectra stress the divided differences:
// well separated, exactly repeated, 1e-9 apart, spread over eight decades, and 30 apart for Exp.
#include "gyre/linalg/batched_spectral_function.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <doctest/doctest.h>
#include <unsupported/Eigen/MatrixFunctions>
#include <xtensor/xarray.hpp>
#include <xtensor/xbuilder.hpp>
#include <xtensor/xview.hpp>

#include "gyre/core/checks.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/rng.hpp"
#include "support/batch_test_support.hpp"
#include "support/finite_difference.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::Matrix;
using gyre::Vector;
using gyre::linalg::Exp;
using gyre::linalg::InverseSqrt;
using gyre::linalg::Log;
using gyre::linalg::Power;
using gyre::linalg::Rectify;
using gyre::linalg::Sqrt;
using gyre::test::pack;
using gyre::test::unpack;

constexpr double kEps = std::numeric_limits<double>::epsilon();
// Rectify's threshold sits between the repeated values 1 and 2 of the spectra below, so that the
// repeated eigenvalue 1 is clamped and 2 is not; spectra keep away from it (see make_spectrum).
constexpr double kThreshold = 1.5;

enum class Spectrum { kWell, kRepeated, kNearlyRepeated, kSpread, kWide };
const Spectrum kAllSpectra[] = {Spectrum::kWell, Spectrum::kRepeated, Spectrum::kNearlyRepeated, Spectrum::kSpread,
                                Spectrum::kWide};

const char* name(Spectrum s) {
  switch (s) {
    case Spectrum::kWell:
      return "well separated";
    case Spectrum::kRepeated:
      return "exactly repeated";
    case Spectrum::kNearlyRepeated:
      return "1e-9 apart";
    case Spectrum::kSpread:
      return "condition 1e8";
    case Spectrum::kWide:
      return "30 apart";
  }
  return "";
}

// A draw that is not within 20% of Rectify's threshold: central differences need the kink
// farther than their stencil, which is 3·10⁻² of that distance.
template <class Draw>
double away_from_threshold(const Draw& draw) {
  double x = draw();
  while (std::abs(x / kThreshold - 1) < 0.2) x = draw();
  return x;
}

// Eigenvalues of each kind: kWell e^U(−1.5, 1.5); kRepeated only 1 and 2 (diag(1, 1, 2) at
// n = 3); kNearlyRepeated clusters 1, 1 + 1e-9, 1 + 2e-9, … and 2, 2 + 1e-9, …; kSpread 10^U(−4, 4)
// with both ends 1e-4 and 1e4 present (condition 1e8); kWide U(−15, 15) with both ends present.
Vector<double> make_spectrum(Spectrum kind, int n, gyre::Rng& rng) {
  Vector<double> w(n);
  for (int i = 0; i < n; ++i) {
    switch (kind) {
      case Spectrum::kWell:
        w(i) = away_from_threshold([&] { return std::exp(rng.uniform(-1.5, 1.5)); });
        break;
      case Spectrum::kRepeated:
        w(i) = i % 3 == 2 ? 2.0 : 1.0;
        break;
      case Spectrum::kNearlyRepeated:
        w(i) = (i % 2 == 0 ? 1.0 : 2.0) + 1e-9 * (i / 2);
        break;
      case Spectrum::kSpread:
        w(i) = away_from_threshold([&] { return std::pow(10.0, rng.uniform(-4.0, 4.0)); });
        break;
      case Spectrum::kWide:
        w(i) = away_from_threshold([&] { return rng.uniform(-15.0, 15.0); });
        break;
    }
  }
  if (n >= 2 && kind == Spectrum::kSpread) {
    w(0) = 1e-4;
    w(n - 1) = 1e4;
  }
  if (n >= 2 && kind == Spectrum::kWide) {
    w(0) = -15;
    w(n - 1) = 15;
  }
  return w;
}

// Q·diag(w)·Qᵀ with Q Haar-random, symmetrised.
Matrix<double> with_spectrum(const Vector<double>& w, gyre::Rng& rng) {
  const Eigen::Index n = w.size();
  const Matrix<double> q = Eigen::HouseholderQR<Matrix<double>>(rng.normal_matrix<double>(n, n)).householderQ();
  const Matrix<double> x = q * w.asDiagonal() * q.transpose();
  return (x + x.transpose()) / 2;
}

// Which spectra a function is defined (and finite) on.
template <class F>
bool applies(const F&, Spectrum kind) {
  if (F::kPositiveDomain) return kind != Spectrum::kWide;
  if (std::is_same_v<F, Exp>) return kind != Spectrum::kSpread;  // e^(1e4) overflows
  return true;
}

template <class Visit>
void for_each_function(const Visit& visit) {
  visit(Rectify{kThreshold});
  visit(Log{});
  visit(Exp{});
  visit(Power{-0.7});
  visit(Power{2.5});
  visit(Sqrt{});
  visit(InverseSqrt{});
}

std::string describe(const Rectify& f) { return "Rectify " + std::to_string(f.epsilon); }
std::string describe(const Power& f) { return "Power " + std::to_string(f.p); }
template <class F>
std::string describe(const F&) {
  return F::kName;
}

// f(X) by Eigen's MatrixFunctions, which never diagonalises (Rectify: Eigen's eigensolver).
Matrix<double> reference_value(const Matrix<double>& x, const Log&) { return x.log(); }
Matrix<double> reference_value(const Matrix<double>& x, const Exp&) { return x.exp(); }
Matrix<double> reference_value(const Matrix<double>& x, const Power& f) { return x.pow(f.p); }
Matrix<double> reference_value(const Matrix<double>& x, const Sqrt&) { return x.sqrt(); }
Matrix<double> reference_value(const Matrix<double>& x, const InverseSqrt&) {
  return Matrix<double>(x.sqrt()).inverse();
}
Matrix<double> reference_value(const Matrix<double>& x, const Rectify& f) {
  return gyre::linalg::apply(gyre::linalg::symmetric_eigen<double>(x), f);
}

// |f″/f′| at λ: how fast f′ changes relative to itself, which sets how far an eigenvalue error
// moves K (Rectify: see its gradient_condition).
double curvature(const Log&, double l) { return 1 / l; }
double curvature(const Exp&, double) { return 1; }
double curvature(const Power& f, double l) { return std::abs(f.p - 1) / l; }
double curvature(const Sqrt&, double l) { return 0.5 / l; }
double curvature(const InverseSqrt&, double l) { return 1.5 / l; }

// The relative condition number of X ↦ f(X) in the Frobenius norm: ‖Df(X)‖·‖X‖/‖f(X)‖ with
// ‖Df(X)‖ = max |f[λᵢ, λⱼ]| (U is orthogonal, so Df(X)[H] = U(K ∘ UᵀHU)Uᵀ scales each entry).
template <class F>
double value_condition(const Matrix<double>& x, const F& f) {
  const gyre::linalg::SymmetricEigen<double> e = gyre::linalg::symmetric_eigen<double>(x);
  const double k = gyre::linalg::divided_differences(e, f).cwiseAbs().maxCoeff();
  const double value_norm = gyre::linalg::apply(e, f).norm();
  return value_norm > 0 ? k * x.norm() / value_norm : k * x.norm();  // f(X) = 0: absolute (see gap)
}

// How far ∂L/∂X moves, relative to itself, under eigenvalue errors of size ε‖X‖₂ per unit ε:
// ‖X‖₂·max |f″/f′| over the spectrum (normwise stable eigensolvers give absolute errors ε‖X‖₂).
template <class F>
double gradient_condition(const Matrix<double>& x, const F& f) {
  const Vector<double> lambda = gyre::linalg::symmetric_eigen<double>(x).values;
  double c = 0;
  for (Eigen::Index i = 0; i < lambda.size(); ++i) c = std::max(c, curvature(f, lambda(i)));
  return lambda.cwiseAbs().maxCoeff() * c;
}
// Rectify's K jumps from 0 to 1 across ε: for a pair a < ε < c, an error δ in a, c or in their
// eigenvectors (δ/(c − a) for eigenvalue errors δ) moves K by δ/(c − a).
double gradient_condition(const Matrix<double>& x, const Rectify& f) {
  const Vector<double> lambda = gyre::linalg::symmetric_eigen<double>(x).values;
  double below = -std::numeric_limits<double>::infinity();
  double above = std::numeric_limits<double>::infinity();
  for (Eigen::Index i = 0; i < lambda.size(); ++i) {
    if (lambda(i) > f.epsilon) above = std::min(above, lambda(i));
    if (lambda(i) <= f.epsilon) below = std::max(below, lambda(i));
  }
  return std::isfinite(above - below) ? lambda.cwiseAbs().maxCoeff() / (above - below) : 0.0;
}

// ∂L/∂X for L = ⟨G, f(X)⟩ in long double: Eigen's eigensolver and the divided differences at
// 64-bit precision, 11 bits more than double, so the reference's own error is below 1e-3 of
// any double tolerance here.
template <class F>
Matrix<double> long_double_gradient(const Matrix<double>& x, const F& f, const Matrix<double>& g) {
  using L = long double;
  const Eigen::SelfAdjointEigenSolver<Matrix<L>> solver(x.cast<L>());
  const Matrix<L> u = solver.eigenvectors();
  const Vector<L> lambda = solver.eigenvalues();
  const Matrix<L> gs = (g.cast<L>() + g.cast<L>().transpose()) / 2;
  Matrix<L> rotated = u.transpose() * gs * u;
  for (Eigen::Index i = 0; i < lambda.size(); ++i) {
    for (Eigen::Index j = 0; j < lambda.size(); ++j) rotated(i, j) *= f.divided(lambda(i), lambda(j));
  }
  return (u * rotated * u.transpose()).cast<double>();
}

// ∂L/∂X for L = ⟨G, f(X)⟩ by the seven-point central difference along each symmetric direction
// Sᵢⱼ = (Eᵢⱼ + Eⱼᵢ)/2, L in precision S (Eigen's eigensolver): since ⟨∂L/∂X, Sᵢⱼ⟩ = (∂L/∂X)ᵢⱼ
// for a symmetric gradient, this is the symmetric part of the gradient entry by entry.
template <class S, class F>
Matrix<double> central_difference(const Matrix<double>& x, const F& f, const Matrix<double>& g, long double step) {
  const Eigen::Index n = x.rows();
  Matrix<double> out(n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = i; j < n; ++j) {
      Matrix<S> s = Matrix<S>::Zero(n, n);
      s(i, j) += S(0.5);
      s(j, i) += S(0.5);
      const auto loss = [&](long double t) -> long double {
        const Eigen::SelfAdjointEigenSolver<Matrix<S>> e(x.cast<S>() + static_cast<S>(t) * s);
        Vector<S> mapped(n);
        for (Eigen::Index k = 0; k < n; ++k) mapped(k) = f.value(e.eigenvalues()(k));
        return g.cast<S>().cwiseProduct(e.eigenvectors() * mapped.asDiagonal() * e.eigenvectors().transpose()).sum();
      };
      out(i, j) = out(j, i) = static_cast<double>(gyre::test::seven_point_derivative(loss, step));
    }
  }
  return out;
}

// The distance over which f is smooth around the spectrum: the stencil is 3·10⁻² of it.
template <class F>
double smooth_scale(const Matrix<double>& x, const F&) {
  const Vector<double> lambda = gyre::linalg::symmetric_eigen<double>(x).values;
  if (F::kPositiveDomain) return lambda(0);
  if (std::is_same_v<F, Rectify>) return std::min(1.0, (lambda.array() - kThreshold).abs().minCoeff());
  return 1;
}

// ‖a − b‖/‖b‖, or ‖a‖ where b = 0 (log(1) = 0; Rectify with every eigenvalue below ε has ∂L/∂X = 0).
double gap(const Matrix<double>& a, const Matrix<double>& b) {
  const double scale = b.norm();
  return scale > 0 ? (a - b).norm() / scale : a.norm();
}

// count items with well separated spectra and as many Gaussian ∂L/∂Y, packed.
std::pair<xt::xarray<double>, xt::xarray<double>> well_batch_and_gradient(int count, int n, std::uint64_t seed) {
  gyre::Rng rng(seed);
  std::vector<Matrix<double>> items, grads;
  for (int b = 0; b < count; ++b) {
    items.push_back(with_spectrum(make_spectrum(Spectrum::kWell, n, rng), rng));
    grads.push_back(rng.normal_matrix<double>(n, n));
  }
  return {pack(items), pack(grads)};
}

}  // namespace

TEST_CASE("batched_spectral_function: forward equals Eigen's MatrixFunctions item by item") {
  gyre::Rng rng(4101);
  // 13 and 20, 30: Eigen's eigensolver behind the batched solver; 33: heap work matrices.
  for (const int n : {1, 3, 5, 12, 13, 20, 30, 33}) {
    for (const Spectrum kind : kAllSpectra) {
      CAPTURE(n);
      const std::string spectrum = name(kind);
      CAPTURE(spectrum);
      // Not a multiple of the 4 or 8 SIMD lanes; fewer of the large items, whose Schur–Parlett
      // references take most of the time.
      const int count = n >= 20 ? 3 : 9;
      std::vector<Matrix<double>> items;
      for (int b = 0; b < count; ++b) items.push_back(with_spectrum(make_spectrum(kind, n, rng), rng));
      const xt::xarray<double> x = pack(items);
      for_each_function([&](const auto& f) {
        if (!applies(f, kind)) return;
        CAPTURE(describe(f));
        const auto result = gyre::linalg::batched_spectral_function(x, f);
        for (int b = 0; b < count; ++b) {
          CAPTURE(b);
          // Both sides are backward stable: each is f(X + E) up to rounding, ‖E‖ ≲ n·ε·‖X‖,
          // so each is within cond·n·ε of f(X) (cond: value_condition, 1 to 1e8 here) plus
          // n·ε of its own rounding; 16 covers the constants of both algorithms.
          const double tolerance = 16 * n * kEps * (1 + value_condition(items[b], f));
          CHECK(gap(unpack(result.value, b), reference_value(items[b], f)) <= tolerance);
          // The saved state rebuilds X and f(λ).
          const Matrix<double> u = unpack(result.saved.vectors, b);
          const Vector<double> lambda = Eigen::Map<const Vector<double>>(result.saved.values.data() + b * n, n);
          const Vector<double> mapped = Eigen::Map<const Vector<double>>(result.saved.mapped.data() + b * n, n);
          CHECK(gap(u * lambda.asDiagonal() * u.transpose(), items[b]) <= 16 * n * kEps);  // backward stable
          for (int k = 0; k < n; ++k) CHECK(mapped(k) == f.value(lambda(k)));
        }
      });
    }
  }
}

TEST_CASE("batched_spectral_function: backward equals central differences along symmetric perturbations") {
  for (const Spectrum kind : kAllSpectra) {
    for (const std::uint64_t seed : gyre::test::seeds(20)) {
      CAPTURE(seed);
      const std::string spectrum = name(kind);
      CAPTURE(spectrum);
      gyre::Rng rng(seed);
      // The backward code is the same for every n ≤ 32 and the other tests reach n = 33; the
      // 3·n·(n + 1) eigendecompositions per item keep this test to small n.
      const int n = std::vector<int>{3, 4, 5, 6, 8, 12}[seed % 6];
      CAPTURE(n);
      const int count = n <= 8 ? 2 : 1;
      std::vector<Matrix<double>> items, grads;
      for (int b = 0; b < count; ++b) {
        items.push_back(with_spectrum(make_spectrum(kind, n, rng), rng));
        grads.push_back(rng.normal_matrix<double>(n, n));  // not symmetric: backward takes sym(G)
      }
      const xt::xarray<double> x = pack(items);
      const xt::xarray<double> g = pack(grads);
      for_each_function([&](const auto& f) {
        if (!applies(f, kind)) return;
        CAPTURE(describe(f));
        const auto forward = gyre::linalg::batched_spectral_function(x, f);
        const xt::xarray<double> grad_x = gyre::linalg::batched_spectral_function_backward(forward.saved, f, g);
        for (int b = 0; b < count; ++b) {
          CAPTURE(b);
          const Matrix<double> analytic = unpack(grad_x, b);
          CHECK((analytic - analytic.transpose()).norm() == 0.0);  // symmetric by construction
          const long double step = gyre::test::power_of_two_step(1e-2 * smooth_scale(items[b], f));
          // Seven-point stencil with h ≤ 10⁻²·s: truncation (h/s)⁶·7!/140 ≈ 4e-11 relative.
          // Rounding: L carries eigenvalue errors ε·‖X‖, which f′ and 1/h turn into ε·κ(X)·s/h
          // relative (for Exp read ‖X‖ ≤ 15·√n for κ(X)): ≤ 1e-11 in double, except at
          // condition 1e8, which therefore runs in long double (ε = 1.1e-19, and X ± t·Sᵢⱼ is
          // exact there): 1e-9. 1e-8 covers both with margin and still rejects any wrong K
          // (off by O(1)); the analytic side adds its own bound, that of the long-double test below.
          const Matrix<double> numeric = kind == Spectrum::kSpread
                                             ? central_difference<long double>(items[b], f, grads[b], step)
                                             : central_difference<double>(items[b], f, grads[b], step);
          const double tolerance = 1e-8 + 16 * n * kEps * (1 + gradient_condition(items[b], f));
          CHECK(gap(numeric, analytic) <= tolerance);
        }
      });
    }
  }
}

TEST_CASE("batched_spectral_function: backward keeps full accuracy at repeated and close eigenvalues") {
  // Against the same formula in long double: what the double kernel loses to rounding, which the
  // textbook quotient (f(λᵢ) − f(λⱼ))/(λᵢ − λⱼ) would make O(1) at the repeated and 1e-9 spectra.
  for (const Spectrum kind : kAllSpectra) {
    for (const std::uint64_t seed : gyre::test::seeds(20)) {
      CAPTURE(seed);
      const std::string spectrum = name(kind);
      CAPTURE(spectrum);
      gyre::Rng rng(seed);
      const int n = std::vector<int>{3, 5, 8, 12, 13, 30}[seed % 6];
      CAPTURE(n);
      const Matrix<double> item = with_spectrum(make_spectrum(kind, n, rng), rng);
      const Matrix<double> grad = rng.normal_matrix<double>(n, n);
      const xt::xarray<double> x = pack(std::vector<Matrix<double>>{item});
      const xt::xarray<double> g = pack(std::vector<Matrix<double>>{grad});
      for_each_function([&](const auto& f) {
        if (!applies(f, kind)) return;
        CAPTURE(describe(f));
        const auto forward = gyre::linalg::batched_spectral_function(x, f);
        const Matrix<double> analytic =
            unpack(gyre::linalg::batched_spectral_function_backward(forward.saved, f, g), 0);
        // Eigenvalue errors of ε‖X‖₂ (a normwise stable eigensolver) move ∂L/∂X by
        // gradient_condition·ε relative (1 to 1e8 here), the rest is n·ε of rounding.
        const double tolerance = 16 * n * kEps * (1 + gradient_condition(item, f));
        CHECK(gap(analytic, long_double_gradient(item, f, grad)) <= tolerance);
      });
    }
  }
}

TEST_CASE("batched_spectral_function: float agrees with double") {
  const double eps = std::numeric_limits<float>::epsilon();
  for (const Spectrum kind : {Spectrum::kWell, Spectrum::kRepeated, Spectrum::kNearlyRepeated, Spectrum::kWide}) {
    for (const std::uint64_t seed : gyre::test::seeds(10)) {
      CAPTURE(seed);
      const std::string spectrum = name(kind);
      CAPTURE(spectrum);
      gyre::Rng rng(seed);
      const int n = std::vector<int>{3, 5, 8, 12, 20}[seed % 5];
      CAPTURE(n);
      const int count = 11;
      std::vector<Matrix<double>> items, grads;
      for (int b = 0; b < count; ++b) {
        items.push_back(with_spectrum(make_spectrum(kind, n, rng), rng));
        grads.push_back(rng.normal_matrix<double>(n, n));
      }
      const xt::xarray<double> x = pack(items);
      const xt::xarray<double> g = pack(grads);
      const xt::xarray<float> xf = xt::cast<float>(x);
      const xt::xarray<float> gf = xt::cast<float>(g);
      for_each_function([&](const auto& f) {
        if (!applies(f, kind)) return;
        CAPTURE(describe(f));
        const auto forward = gyre::linalg::batched_spectral_function(x, f);
        const auto forward_f = gyre::linalg::batched_spectral_function(xf, f);
        const xt::xarray<double> back = gyre::linalg::batched_spectral_function_backward(forward.saved, f, g);
        const xt::xarray<float> back_f = gyre::linalg::batched_spectral_function_backward(forward_f.saved, f, gf);
        for (int b = 0; b < count; ++b) {
          CAPTURE(b);
          // The float input is X rounded (ε_f relative) and the kernel is backward stable in
          // float: the bounds of the double tests with ε_f for ε (double's own error is 1e-9 of it).
          const Matrix<double> value_f = unpack(forward_f.value, b).template cast<double>();
          CHECK(gap(value_f, unpack(forward.value, b)) <= 16 * n * eps * (1 + value_condition(items[b], f)));
          const Matrix<double> grad_f = unpack(back_f, b).template cast<double>();
          CHECK(gap(grad_f, unpack(back, b)) <= 16 * n * eps * (1 + gradient_condition(items[b], f)));
        }
      });
    }
  }
}

TEST_CASE("batched_spectral_function: Exp of eigenvalues 100 apart stays finite in float") {
  // e^50 = 5e21 is a float, e^100 is not: K = e^50·(1 − e^−100)/100 must not pass through e^100.
  gyre::Rng rng(17);
  Vector<double> w(3);
  w << -50, 0, 50;
  const Matrix<double> item = with_spectrum(w, rng);
  const Matrix<double> grad = rng.normal_matrix<double>(3, 3);
  const xt::xarray<double> x = pack(std::vector<Matrix<double>>{item});
  const xt::xarray<double> g = pack(std::vector<Matrix<double>>{grad});
  const auto forward = gyre::linalg::batched_spectral_function(x, Exp{});
  const Matrix<double> back = unpack(gyre::linalg::batched_spectral_function_backward(forward.saved, Exp{}, g), 0);
  const auto forward_f = gyre::linalg::batched_spectral_function(xt::xarray<float>(xt::cast<float>(x)), Exp{});
  const Matrix<double> back_f = unpack(gyre::linalg::batched_spectral_function_backward(
                                           forward_f.saved, Exp{}, xt::xarray<float>(xt::cast<float>(g))),
                                       0)
                                    .cast<double>();
  REQUIRE(back_f.allFinite());
  // Rounding X to float moves λ = 50 by up to 50·ε_f·‖X‖/λ-ish ≈ 1e-5 absolute, which e^λ turns
  // into 1e-5 relative; 3·16·ε_f·(1 + ‖X‖₂) (the bound of the float test) is 2.9e-4.
  CHECK(gap(back_f, back) <= 3 * 16 * std::numeric_limits<float>::epsilon() * 51);
  CHECK(gap(back, long_double_gradient(item, Exp{}, grad)) <= 3 * 16 * kEps * 51);
}

TEST_CASE("batched_spectral_function: Rectify takes SPDNet's subgradient at the kink") {
  // Diagonal input: exact eigenvalues. λ = ε exactly has derivative 0, λ just above ε has 1, and
  // a pair straddling ε has K = (max(a, ε) − max(b, ε))/(a − b).
  const double e = 0.25;
  Matrix<double> x = Matrix<double>::Zero(4, 4);
  x.diagonal() << e, std::nextafter(e, 1.0), 0.125, 1.0;
  const xt::xarray<double> batch = pack(std::vector<Matrix<double>>{x});
  const auto forward = gyre::linalg::batched_spectral_function(batch, Rectify{e});
  const Matrix<double> y = unpack(forward.value, 0);
  CHECK(y.diagonal()(0) == e);
  CHECK(y.diagonal()(2) == e);  // clamped
  CHECK(y.diagonal()(3) == 1.0);
  const Matrix<double> ones = Matrix<double>::Ones(4, 4);
  const Matrix<double> k = unpack(gyre::linalg::batched_spectral_function_backward(
                                      forward.saved, Rectify{e}, pack(std::vector<Matrix<double>>{ones})),
                                  0);
  CHECK(k(0, 0) == 0.0);                                                           // λ = ε: the subgradient 0
  CHECK(k(1, 1) == 1.0);                                                           // λ > ε
  CHECK(k(2, 2) == 0.0);                                                           // λ < ε
  CHECK(k(3, 3) == 1.0);                                                           // λ > ε
  CHECK(k(0, 2) == 0.0);                                                           // both ≤ ε
  CHECK(k(2, 3) == doctest::Approx((1.0 - e) / (1.0 - 0.125)).epsilon(4 * kEps));  // straddling
  CHECK(k(1, 3) == 1.0);                                                           // both > ε
}

TEST_CASE_TEMPLATE("batched_spectral_function: bad input is named", T, float, double) {
  using gyre::linalg::batched_spectral_function;
  using gyre::linalg::batched_spectral_function_backward;
  // Not (B, n, n).
  CHECK_THROWS_WITH_AS(
      (void)batched_spectral_function(xt::xarray<T>::from_shape({2, 3, 4}), Log{}),
      "gyre::batched_spectral_function: input must be a (B, n, n) array of square matrices ((2, 3, 4))",
      gyre::ShapeError);
  CHECK_THROWS_AS((void)batched_spectral_function(xt::xarray<T>::from_shape({3, 3}), Log{}), gyre::ShapeError);
  // NaN, and an asymmetric item.
  xt::xarray<T> x = xt::zeros<T>({3, 2, 2});
  for (std::size_t b = 0; b < 3; ++b) x(b, 0, 0) = x(b, 1, 1) = T(1);
  xt::xarray<T> bad = x;
  bad(1, 0, 1) = std::numeric_limits<T>::quiet_NaN();
  CHECK_THROWS_WITH_AS((void)batched_spectral_function(bad, Exp{}),
                       "gyre::batched_spectral_function: item 1 has a non-finite entry (NaN or Inf) (NaN/Inf)",
                       gyre::DomainError);
  bad = x;
  bad(2, 0, 1) = T(0.5);
  CHECK_THROWS_WITH_AS((void)batched_spectral_function(bad, Exp{}),
                       "gyre::batched_spectral_function: item 2 is not symmetric (max |Xᵢⱼ − Xⱼᵢ| / max |Xᵢⱼ|) (0.5)",
                       gyre::DomainError);
  // A non-positive eigenvalue for each function that needs (0, ∞); Rectify and Exp take it.
  bad = x;
  bad(1, 1, 1) = T(-0.25);
  CHECK_THROWS_WITH_AS((void)batched_spectral_function(bad, Log{}),
                       "gyre::batched_spectral_function: item 1 is not positive definite, as Log needs (smallest "
                       "eigenvalue) (-0.25)",
                       gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)batched_spectral_function(bad, Power{0.5}), doctest::Contains("as Power needs"),
                       gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)batched_spectral_function(bad, Sqrt{}), doctest::Contains("as Sqrt needs"),
                       gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)batched_spectral_function(bad, InverseSqrt{}), doctest::Contains("as InverseSqrt needs"),
                       gyre::DomainError);
  bad(1, 1, 1) = T(0);
  CHECK_THROWS_WITH_AS((void)batched_spectral_function(bad, Log{}), doctest::Contains("(smallest eigenvalue) (0)"),
                       gyre::DomainError);
  CHECK_NOTHROW((void)batched_spectral_function(bad, Rectify{0.1}));
  CHECK_NOTHROW((void)batched_spectral_function(bad, Exp{}));
  // An overflowing value, a non-finite parameter.
  bad = x;
  bad(0, 0, 0) = T(1000);
  CHECK_THROWS_WITH_AS(
      (void)batched_spectral_function(bad, Exp{}),
      "gyre::batched_spectral_function: Exp of an eigenvalue of item 0 is not finite (eigenvalue) (1000)",
      gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)batched_spectral_function(x, Power{std::nan("")}),
                       "gyre::batched_spectral_function: Power needs a finite exponent (p) (nan)", gyre::DomainError);
  // Backward: the gradient's shape and values.
  const auto forward = batched_spectral_function(x, Log{});
  CHECK_THROWS_WITH_AS(
      (void)batched_spectral_function_backward(forward.saved, Log{}, xt::xarray<T>::from_shape({2, 2, 2})),
      "gyre::batched_spectral_function_backward: gradient must have the forward value's shape (3, 2, "
      "2) ((2, 2, 2))",
      gyre::ShapeError);
  xt::xarray<T> g = xt::zeros<T>({3, 2, 2});
  g(2, 1, 0) = std::numeric_limits<T>::infinity();
  CHECK_THROWS_WITH_AS((void)batched_spectral_function_backward(forward.saved, Log{}, g),
                       "gyre::batched_spectral_function_backward: gradient of item 2 has a non-finite entry (NaN or "
                       "Inf) (NaN/Inf)",
                       gyre::DomainError);
}

TEST_CASE("batched_spectral_function: gyre::ChecksOff skips the checks and changes no result") {
  gyre::Rng rng(23);
  std::vector<Matrix<double>> items;
  for (int b = 0; b < 5; ++b) items.push_back(with_spectrum(make_spectrum(Spectrum::kWell, 6, rng), rng));
  const xt::xarray<double> x = pack(items);
  const xt::xarray<double> g = pack(std::vector<Matrix<double>>(5, rng.normal_matrix<double>(6, 6)));
  const auto checked = gyre::linalg::batched_spectral_function(x, Log{});
  const xt::xarray<double> checked_back = gyre::linalg::batched_spectral_function_backward(checked.saved, Log{}, g);
  xt::xarray<double> negative = x;
  negative(0, 0, 0) = -1e3;  // an eigenvalue < 0
  const gyre::ChecksOff off;
  const auto unchecked = gyre::linalg::batched_spectral_function(x, Log{});
  CHECK(unchecked.value == checked.value);
  CHECK(gyre::linalg::batched_spectral_function_backward(unchecked.saved, Log{}, g) == checked_back);
  CHECK_NOTHROW((void)gyre::linalg::batched_spectral_function(negative, Log{}));  // unspecified result, no check
  // Shapes are checked even so: they guard memory.
  CHECK_THROWS_AS((void)gyre::linalg::batched_spectral_function(xt::xarray<double>::from_shape({1, 2, 3}), Log{}),
                  gyre::ShapeError);
}

TEST_CASE("batched_spectral_function: writing into the caller's arrays reuses them and changes no value") {
  const auto [x, g] = well_batch_and_gradient(6, 7, 29);
  gyre::linalg::SpectralForward<double> out;
  xt::xarray<double> grad_x;
  gyre::linalg::batched_spectral_function(x, Sqrt{}, out);
  gyre::linalg::batched_spectral_function_backward(out.saved, Sqrt{}, g, grad_x);
  const double* value_storage = out.value.data();
  const double* vector_storage = out.saved.vectors.data();
  const double* grad_storage = grad_x.data();
  gyre::linalg::batched_spectral_function(x, Log{}, out);  // same shapes: same storage
  gyre::linalg::batched_spectral_function_backward(out.saved, Log{}, g, grad_x);
  CHECK(out.value.data() == value_storage);
  CHECK(out.saved.vectors.data() == vector_storage);
  CHECK(grad_x.data() == grad_storage);
  const auto fresh = gyre::linalg::batched_spectral_function(x, Log{});
  CHECK(out.value == fresh.value);
  CHECK(out.saved.values == fresh.saved.values);
  CHECK(out.saved.mapped == fresh.saved.mapped);
  CHECK(grad_x == gyre::linalg::batched_spectral_function_backward(fresh.saved, Log{}, g));
  // Another shape: resized.
  gyre::linalg::batched_spectral_function(xt::xarray<double>(xt::view(x, xt::range(0, 2))), Log{}, out);
  CHECK(out.value.shape()[0] == 2);
  CHECK(out.saved.values.shape()[0] == 2);
}

TEST_CASE("batched_spectral_function: an empty batch is empty") {
  const auto forward = gyre::linalg::batched_spectral_function(xt::xarray<double>::from_shape({0, 4, 4}), Sqrt{});
  CHECK(forward.value.shape()[0] == 0);
  CHECK(forward.value.size() == 0);
  CHECK(
      gyre::linalg::batched_spectral_function_backward(forward.saved, Sqrt{}, xt::xarray<double>::from_shape({0, 4, 4}))
          .size() == 0);
}

TEST_CASE_TEMPLATE("batched_spectral_function: items near the ends of the range give the scaled results", T, float,
                   double) {
  // 2^±996 ≈ 1e±300 (2^±100 ≈ 1e±30 in float): the squares of such entries overflow or vanish,
  // which stops an eigensolver before its first rotation unless the item is scaled first.
  const int k = std::is_same_v<T, float> ? 100 : 996;
  const double eps = std::numeric_limits<T>::epsilon();
  gyre::Rng rng(31);
  for (const int n : {2, 5, 13}) {  // 13: Eigen's solver behind the batched one
    CAPTURE(n);
    std::vector<Matrix<double>> items;
    for (int b = 0; b < 5; ++b) items.push_back(with_spectrum(make_spectrum(Spectrum::kWell, n, rng), rng));
    for (const int exponent : {k, -k}) {
      CAPTURE(exponent);
      const xt::xarray<T> x = xt::cast<T>(pack(items)) * std::ldexp(T(1), exponent);
      const auto result = gyre::linalg::batched_spectral_function(x, Sqrt{});
      for (int b = 0; b < 5; ++b) {
        CAPTURE(b);
        const Vector<double> lambda =
            Eigen::Map<const Vector<T>>(result.saved.values.data() + b * n, n).template cast<double>();
        Vector<double> expected = Eigen::SelfAdjointEigenSolver<Matrix<double>>(items[b]).eigenvalues();
        // Relative: λ ∈ [e^−1.5, e^1.5], so a backward stable λ is within 16·n·ε·‖X‖ ≤ 16·n·ε·e³·λ.
        for (int i = 0; i < n; ++i)
          CHECK(std::abs(std::ldexp(lambda(i), -exponent) / expected(i) - 1) <= 16 * n * eps * 21);
        // √(2ᵏ·X) = 2^(k/2)·√X, k even; the bound of the forward test, with the float ε.
        const Matrix<double> value = unpack(result.value, b).template cast<double>() * std::ldexp(1.0, -exponent / 2);
        CHECK(gap(value, reference_value(items[b], Sqrt{})) <= 16 * n * eps * (1 + value_condition(items[b], Sqrt{})));
      }
    }
  }
}

TEST_CASE("batched_spectral_function: 0×0 items give 0×0 results") {
  const xt::xarray<double> x = xt::xarray<double>::from_shape({3, 0, 0});
  const auto forward = gyre::linalg::batched_spectral_function(x, Log{});  // no eigenvalue to be ≤ 0
  CHECK(forward.value.shape() == x.shape());
  CHECK(forward.saved.vectors.shape() == x.shape());
  CHECK(forward.saved.values.shape() == xt::xarray<double>::shape_type{3, 0});
  CHECK(forward.saved.mapped.shape() == xt::xarray<double>::shape_type{3, 0});
  CHECK(gyre::linalg::batched_spectral_function_backward(forward.saved, Log{}, x).shape() == x.shape());
}

TEST_CASE("batched_spectral_function: an output that is also the input gives the same values") {
  const auto [x, g] = well_batch_and_gradient(4, 5, 41);
  const auto fresh = gyre::linalg::batched_spectral_function(x, Log{});
  const xt::xarray<double> fresh_grad = gyre::linalg::batched_spectral_function_backward(fresh.saved, Log{}, g);
  // A layer that maps its previous output in place, and each array of out as the input.
  for (int field = 0; field < 2; ++field) {
    CAPTURE(field);
    gyre::linalg::SpectralForward<double> out;
    xt::xarray<double>& input = field == 0 ? out.value : out.saved.vectors;
    input = x;
    gyre::linalg::batched_spectral_function(input, Log{}, out);
    CHECK(out.value == fresh.value);
    CHECK(out.saved.vectors == fresh.saved.vectors);
    CHECK(out.saved.values == fresh.saved.values);
  }
  // ∂L/∂X into the gradient's array, and into the saved eigenvalues' (whose shape differs).
  xt::xarray<double> grad = g;
  gyre::linalg::batched_spectral_function_backward(fresh.saved, Log{}, grad, grad);
  CHECK(grad == fresh_grad);
  auto saved = fresh.saved;
  gyre::linalg::batched_spectral_function_backward(saved, Log{}, g, saved.values);
  CHECK(saved.values == fresh_grad);
}

TEST_CASE("batched_spectral_function: backward names an overflowing ∂L/∂X") {
  // Log′(1e-300) = 1e300: a gradient of 1e10 on that direction gives 1e310, which is no double.
  xt::xarray<double> x = xt::zeros<double>({2, 2, 2});
  x(0, 0, 0) = x(0, 1, 1) = x(1, 0, 0) = 1;
  x(1, 1, 1) = 1e-300;
  const auto forward = gyre::linalg::batched_spectral_function(x, Log{});
  xt::xarray<double> g = xt::zeros<double>({2, 2, 2});
  g(1, 1, 1) = 1e10;
  CHECK_THROWS_WITH_AS((void)gyre::linalg::batched_spectral_function_backward(forward.saved, Log{}, g),
                       "gyre::batched_spectral_function_backward: ∂L/∂X of item 1 overflows (largest |f[λᵢ, λⱼ]|) "
                       "(1e+300)",
                       gyre::DomainError);
  g(1, 1, 1) = 1e-10;  // 1e290: large and finite, and right
  const double grad = gyre::linalg::batched_spectral_function_backward(forward.saved, Log{}, g)(1, 1, 1);
  CHECK(std::abs(grad / 1e290 - 1) <= 8 * kEps);  // relative; U is a permutation, a few roundings of K·G
}
