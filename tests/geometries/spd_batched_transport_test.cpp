// SPD's Bures–Wasserstein transport of a batch along one geodesic (transport_many and its VJP), the
// path the transport-based batch norms (RBN, GBW-RBN) take: the same values and gradients as the
// per-item transport, which derivative_laws_test holds to finite differences.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <doctest/doctest.h>

#include "gyre/core/error.hpp"
#include "spd/spd.hpp"
#include "support/test_support.hpp"

namespace {

using Mat = gyre::Matrix<double>;

struct Case {
  Mat p, q;
  std::vector<Mat> ws, gs;
};

Case random_case(const gyre::SpdBuresWasserstein<double>& bw, int count, gyre::Rng& rng) {
  Case c{bw.random_point(rng), bw.random_point(rng), {}, {}};
  for (int i = 0; i < count; ++i) {
    c.ws.push_back(bw.random_tangent(c.p, rng));
    c.gs.push_back(Mat::Random(bw.n(), bw.n()));
  }
  return c;
}

double largest_entry(const Mat& m) { return m.cwiseAbs().maxCoeff(); }

}  // namespace

TEST_CASE("SPD BW transport_many: a batch of one is transport and its VJP bit for bit") {
  for (const int n : {1, 2, 3, 5}) {
    const gyre::SpdBuresWasserstein<double> bw(n);
    for (const std::uint64_t seed : gyre::test::seeds(10)) {
      CAPTURE(n);
      CAPTURE(seed);
      gyre::Rng rng(seed);
      const Case c = random_case(bw, 1, rng);
      CHECK(bw.transport_many(c.p, c.q, c.ws).front() == bw.transport(c.p, c.q, c.ws.front()));
      const gyre::TransportManyVjp<Mat, Mat> many = bw.transport_many_vjp(c.p, c.q, c.ws, c.gs);
      const gyre::TransportVjp<Mat, Mat> one = bw.transport_vjp(c.p, c.q, c.ws.front(), c.gs.front());
      CHECK(many.x == one.x);
      CHECK(many.y == one.y);
      CHECK(many.w.front() == one.w);
    }
  }
}

TEST_CASE("SPD BW transport_many: every item and gradient equals its own transport's") {
  // The batch integrates with the largest step count any item needs; each estimate is within
  // ~tolerance/15 (1e-12/15 relative to ‖W‖) of the exact transport, so two of them differ by less
  // than 2e-13·‖W‖; 1e-12 leaves room for the rounding of a few hundred RK4 steps. The gradients of
  // the two discretisations differ likewise, relative to the cotangent's size.
  for (const int n : {2, 3, 5}) {
    const gyre::SpdBuresWasserstein<double> bw(n);
    for (const std::uint64_t seed : gyre::test::seeds(10)) {
      CAPTURE(n);
      CAPTURE(seed);
      gyre::Rng rng(seed);
      const Case c = random_case(bw, 7, rng);
      const std::vector<Mat> moved = bw.transport_many(c.p, c.q, c.ws);
      const gyre::TransportManyVjp<Mat, Mat> many = bw.transport_many_vjp(c.p, c.q, c.ws, c.gs);
      REQUIRE(moved.size() == c.ws.size());
      REQUIRE(many.w.size() == c.ws.size());
      Mat x_sum = Mat::Zero(n, n), y_sum = Mat::Zero(n, n);
      double worst_w = 0;
      for (std::size_t i = 0; i < c.ws.size(); ++i) {
        CHECK((moved[i] - bw.transport(c.p, c.q, c.ws[i])).norm() <= 1e-12 * c.ws[i].norm());
        const gyre::TransportVjp<Mat, Mat> one = bw.transport_vjp(c.p, c.q, c.ws[i], c.gs[i]);
        x_sum += one.x;
        y_sum += one.y;
        worst_w = std::max(worst_w, largest_entry(many.w[i] - one.w) / largest_entry(one.w));
      }
      CHECK(worst_w <= 1e-10);
      CHECK(largest_entry(many.x - x_sum) <= 1e-10 * largest_entry(x_sum));
      CHECK(largest_entry(many.y - y_sum) <= 1e-10 * largest_entry(y_sum));
    }
  }
}

TEST_CASE("SPD BW transport_many in float follows double to float's integration tolerance") {
  // Float's step doubling stops at a change of 1e-5 relative to ‖W‖; 1e-4 covers it and the
  // rounding of the float steps.
  const gyre::SpdBuresWasserstein<double> bw(4);
  const gyre::SpdBuresWasserstein<float> bw_f(4);
  for (const std::uint64_t seed : gyre::test::seeds(5)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    const Case c = random_case(bw, 5, rng);
    std::vector<gyre::Matrix<float>> ws_f;
    for (const Mat& w : c.ws) ws_f.push_back(w.cast<float>());
    const std::vector<gyre::Matrix<float>> moved_f = bw_f.transport_many(c.p.cast<float>(), c.q.cast<float>(), ws_f);
    const std::vector<Mat> moved = bw.transport_many(c.p, c.q, c.ws);
    for (std::size_t i = 0; i < moved.size(); ++i)
      CHECK((moved_f[i].cast<double>() - moved[i]).norm() <= 1e-4 * c.ws[i].norm());
  }
}

TEST_CASE("SPD BW transport_many: no items, mismatched cotangents, NaN, and 1e±300 cotangents") {
  const gyre::SpdBuresWasserstein<double> bw(3);
  gyre::Rng rng(5);
  const Case c = random_case(bw, 3, rng);
  CHECK(bw.transport_many(c.p, c.q, {}).empty());
  const gyre::TransportManyVjp<Mat, Mat> none = bw.transport_many_vjp(c.p, c.q, {}, {});
  CHECK(none.w.empty());
  CHECK(none.x.isZero(0));
  CHECK(none.y.isZero(0));
  CHECK_THROWS_AS((void)bw.transport_many_vjp(c.p, c.q, c.ws, {c.gs.front()}), gyre::ShapeError);
  std::vector<Mat> with_nan = c.ws;
  with_nan[1](0, 2) = with_nan[1](2, 0) = std::nan("");
  CHECK_THROWS_AS((void)bw.transport_many(c.p, c.q, with_nan), gyre::DomainError);
  std::vector<Mat> nan_gs = c.gs;
  nan_gs[2](1, 1) = std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS((void)bw.transport_many_vjp(c.p, c.q, c.ws, nan_gs), gyre::DomainError);
  Mat indefinite = c.q;
  indefinite(0, 0) = -2;
  CHECK_THROWS_AS((void)bw.transport_many(c.p, indefinite, c.ws), gyre::DomainError);
  // The VJP is linear in the cotangents: scaled by 1e300 or 1e-300 they give the unit gradient
  // scaled, with neither overflow nor underflow (the cotangents are scaled to a power of two first).
  const gyre::TransportManyVjp<Mat, Mat> unit = bw.transport_many_vjp(c.p, c.q, c.ws, c.gs);
  for (const double scale : {1e300, 1e-300}) {
    CAPTURE(scale);
    std::vector<Mat> scaled;
    for (const Mat& g : c.gs) scaled.push_back(g * scale);
    const gyre::TransportManyVjp<Mat, Mat> big = bw.transport_many_vjp(c.p, c.q, c.ws, scaled);
    CHECK(largest_entry(big.x / scale - unit.x) <= 1e-13 * largest_entry(unit.x));
    CHECK(largest_entry(big.y / scale - unit.y) <= 1e-13 * largest_entry(unit.y));
    for (std::size_t i = 0; i < unit.w.size(); ++i)
      CHECK(largest_entry(big.w[i] / scale - unit.w[i]) <= 1e-13 * largest_entry(unit.w[i]));
  }
}

namespace {

/// A point of SPD(n) with tied eigenvalues (a double and, for n ≥ 3, a distinct one), rotated.
Mat tied_point(int n, gyre::Rng& rng) {
  gyre::Vector<double> values = gyre::Vector<double>::Constant(n, 2.0);
  if (n >= 3) values(n - 1) = 0.5;
  const Mat q = gyre::linalg::haar_orthogonal<double>(n, rng);
  return gyre::linalg::symmetric_part<double>(Mat(q * values.asDiagonal() * q.transpose()));
}

/// ⟨G, f(P + tD, W + tV)⟩ summed over the batch, for the finite differences below.
double pairing(const std::vector<Mat>& moved, const std::vector<Mat>& gs) {
  double sum = 0;
  for (std::size_t i = 0; i < moved.size(); ++i) sum += moved[i].cwiseProduct(gs[i]).sum();
  return sum;
}

}  // namespace

TEST_CASE("SPD BW transport to and from the identity: the closed form is the integrated transport") {
  // The ODE's estimate is within ~1e-12/15 of the exact transport relative to ‖W‖; the closed form is
  // exact to rounding, so 1e-12·‖W‖ bounds the gap. At P = I both are the identity map.
  for (const int n : {1, 2, 3, 5}) {
    const gyre::SpdBuresWasserstein<double> bw(n);
    const Mat identity = Mat::Identity(n, n);
    for (const std::uint64_t seed : gyre::test::seeds(10)) {
      CAPTURE(n);
      CAPTURE(seed);
      gyre::Rng rng(seed);
      const Case c = random_case(bw, 4, rng);
      const std::vector<Mat> to = bw.transport_to_identity(c.p, c.ws);
      const std::vector<Mat> from = bw.transport_from_identity(c.q, c.ws);
      const std::vector<Mat> back = bw.transport_from_identity(c.p, to);
      for (std::size_t i = 0; i < c.ws.size(); ++i) {
        CHECK((to[i] - bw.transport(c.p, identity, c.ws[i])).norm() <= 1e-12 * c.ws[i].norm());
        CHECK((from[i] - bw.transport(identity, c.q, c.ws[i])).norm() <= 1e-12 * c.ws[i].norm());
        CHECK((back[i] - c.ws[i]).norm() <= 1e-13 * c.ws[i].norm());
        CHECK(std::abs(bw.norm(identity, to[i]) - bw.norm(c.p, c.ws[i])) <= 1e-13 * bw.norm(c.p, c.ws[i]));
      }
      const std::vector<Mat> at_identity = bw.transport_to_identity(identity, c.ws);
      for (std::size_t i = 0; i < c.ws.size(); ++i) CHECK((at_identity[i] - c.ws[i]).norm() <= 1e-15 * c.ws[i].norm());
    }
  }
}

TEST_CASE("SPD BW transport to and from the identity: VJPs against central differences, also at tied eigenvalues") {
  // Central differences with step 1e-6 on a smooth map of O(1) inputs: truncation ~1e-12 and
  // rounding ~1e-10 of the pairing; 1e-8 relative to the directional derivative's scale leaves two
  // digits. P = I and a P with a double eigenvalue exercise the divided differences' limits.
  const double h = 1e-6;
  for (const int n : {1, 2, 3, 4}) {
    const gyre::SpdBuresWasserstein<double> bw(n);
    for (const std::uint64_t seed : gyre::test::seeds(6)) {
      gyre::Rng rng(seed);
      const Case c = random_case(bw, 3, rng);
      for (const Mat& p : {c.p, Mat(Mat::Identity(n, n)), tied_point(n, rng)}) {
        for (const bool toward : {true, false}) {
          CAPTURE(n);
          CAPTURE(seed);
          CAPTURE(toward);
          const auto move = [&](const Mat& at, const std::vector<Mat>& ws) {
            return toward ? bw.transport_to_identity(at, ws) : bw.transport_from_identity(at, ws);
          };
          const gyre::BatchVjp<Mat, Mat> vjp =
              toward ? bw.transport_to_identity_vjp(p, c.ws, c.gs) : bw.transport_from_identity_vjp(p, c.ws, c.gs);
          const Mat d = bw.random_tangent(p, rng);
          std::vector<Mat> vs, plus_w, minus_w;
          for (std::size_t i = 0; i < c.ws.size(); ++i) vs.push_back(bw.random_tangent(p, rng));
          for (std::size_t i = 0; i < c.ws.size(); ++i) {
            plus_w.push_back(c.ws[i] + h * vs[i]);
            minus_w.push_back(c.ws[i] - h * vs[i]);
          }
          const double numeric =
              (pairing(move(Mat(p + h * d), plus_w), c.gs) - pairing(move(Mat(p - h * d), minus_w), c.gs)) / (2 * h);
          double analytic = vjp.x.cwiseProduct(d).sum();
          double scale = vjp.x.norm() * d.norm();
          for (std::size_t i = 0; i < c.ws.size(); ++i) {
            analytic += vjp.w[i].cwiseProduct(vs[i]).sum();
            scale += vjp.w[i].norm() * vs[i].norm();
          }
          CHECK(std::abs(numeric - analytic) <= 1e-8 * scale);
        }
      }
    }
  }
}

TEST_CASE("SPD BW transport to and from the identity: bad input is refused") {
  const gyre::SpdBuresWasserstein<double> bw(3);
  gyre::Rng rng(9);
  const Case c = random_case(bw, 2, rng);
  Mat indefinite = c.p;
  indefinite(0, 0) = -1;
  CHECK_THROWS_AS((void)bw.transport_to_identity(indefinite, c.ws), gyre::DomainError);
  std::vector<Mat> with_nan = c.ws;
  with_nan[0](1, 1) = std::nan("");
  CHECK_THROWS_AS((void)bw.transport_from_identity(c.p, with_nan), gyre::DomainError);
  CHECK_THROWS_AS((void)bw.transport_to_identity_vjp(c.p, c.ws, {c.gs.front()}), gyre::ShapeError);
  std::vector<Mat> inf_gs = c.gs;
  inf_gs[1](0, 0) = std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS((void)bw.transport_from_identity_vjp(c.p, c.ws, inf_gs), gyre::DomainError);
  CHECK_THROWS_AS((void)bw.transport_to_identity(c.p, {Mat::Ones(2, 2)}), gyre::ShapeError);
}
