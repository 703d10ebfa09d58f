// Group subsampling with anti-aliasing: the subgroups, the band's laws (a projector that commutes
// with H, exact reconstruction of band-limited signals) and the band against its closed form.

#include "gyre/repr/group_downsampling.hpp"

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <boost/math/constants/constants.hpp>
#include <doctest/doctest.h>

#include "gyre/core/error.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/repr/fourier.hpp"
#include "support/test_support.hpp"

using gyre::Matrix;
using gyre::Vector;
using namespace gyre::repr;

namespace {

struct Case {
  PlanarGroup group;
  int rate;
  SubgroupFamily family;
};

// Every subsampling of C_N and D_N, N ≤ 12, that gives a subgroup.
std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (int n = 1; n <= 12; ++n) {
    for (int rate = 1; rate <= 2 * n; ++rate) {
      if (n % rate == 0) {
        cases.push_back({PlanarGroup::cyclic(n), rate, SubgroupFamily::kSameFamily});
        cases.push_back({PlanarGroup::dihedral(n), rate, SubgroupFamily::kSameFamily});
      }
      if (rate % 2 == 0 && n % (rate / 2) == 0) {
        cases.push_back({PlanarGroup::dihedral(n), rate, SubgroupFamily::kRotations});
      }
    }
  }
  return cases;
}

std::string describe(const Case& c) {
  return c.group.name() + " at rate " + std::to_string(c.rate) +
         (c.family == SubgroupFamily::kRotations ? " to rotations" : "");
}

// The orthogonal projector onto the span of `columns` (independent reference: QR, not the eigen walk).
Matrix<double> span_projector(const Matrix<double>& columns) {
  const Eigen::HouseholderQR<Matrix<double>> qr(columns);
  const Matrix<double> q = qr.householderQ() * Matrix<double>::Identity(columns.rows(), columns.cols());
  return q * q.transpose();
}

// The closed-form band: on each flip coset (or on the flip-symmetric part, towards the rotations),
// cos and sin of 2πqr/N for q < M/2, and cos(πr·M/N) alone when M is even.
Matrix<double> closed_form_band(const Case& c, int m) {
  const int n = c.group.n();
  const bool flips = c.group.has_flips();
  const int cosets = flips && c.family == SubgroupFamily::kSameFamily ? 2 : 1;
  std::vector<std::vector<double>> rotation_functions;
  const double two_pi = 2 * boost::math::constants::pi<double>();
  for (int q = 0; 2 * q <= m; ++q) {
    std::vector<double> cosine(static_cast<std::size_t>(n)), sine(static_cast<std::size_t>(n));
    for (int r = 0; r < n; ++r) {
      cosine[static_cast<std::size_t>(r)] = std::cos(two_pi * q * r / n);
      sine[static_cast<std::size_t>(r)] = std::sin(two_pi * q * r / n);
    }
    rotation_functions.push_back(cosine);
    if (q > 0 && 2 * q < m) rotation_functions.push_back(sine);
  }
  const int order = c.group.order();
  Matrix<double> band = Matrix<double>::Zero(order, static_cast<Eigen::Index>(rotation_functions.size()) * cosets);
  Eigen::Index column = 0;
  for (int coset = 0; coset < cosets; ++coset) {
    for (const auto& function : rotation_functions) {
      for (int r = 0; r < n; ++r) {
        if (cosets == 2) {
          band(coset * n + r, column) = function[static_cast<std::size_t>(r)];
        } else {
          band(r, column) = function[static_cast<std::size_t>(r)];
          // C_N has one coset; towards the rotations, D_N's band is flip-symmetric: f(1, r) = f(0, r).
          if (flips) band(n + r, column) = function[static_cast<std::size_t>(r)];
        }
      }
      ++column;
    }
  }
  return band;
}

}  // namespace

TEST_CASE("subsample_group: the subgroups at each rate, in escnn's element order") {
  const SubgroupSampling c8 = subsample_group(PlanarGroup::cyclic(8), 2);
  CHECK(c8.subgroup == PlanarGroup::cyclic(4));
  CHECK(c8.indices == std::vector<int>{0, 2, 4, 6});
  const SubgroupSampling d8 = subsample_group(PlanarGroup::dihedral(8), 2);
  CHECK(d8.subgroup == PlanarGroup::dihedral(4));
  CHECK(d8.indices == std::vector<int>{0, 2, 4, 6, 8, 10, 12, 14});  // D_N node f·N + k
  const SubgroupSampling d8_rotations = subsample_group(PlanarGroup::dihedral(8), 2, SubgroupFamily::kRotations);
  CHECK(d8_rotations.subgroup == PlanarGroup::cyclic(8));
  CHECK(d8_rotations.indices == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
  const SubgroupSampling d6_c3 = subsample_group(PlanarGroup::dihedral(6), 4, SubgroupFamily::kRotations);
  CHECK(d6_c3.subgroup == PlanarGroup::cyclic(3));
  CHECK(d6_c3.indices == std::vector<int>{0, 2, 4});
}

TEST_CASE("subsample_group: every subsampling is closed under the group law") {
  for (const Case& c : all_cases()) {
    CAPTURE(describe(c));
    const SubgroupSampling s = subsample_group(c.group, c.rate, c.family);
    CHECK(s.subgroup.order() * c.rate == c.group.order());
    const std::set<int> members(s.indices.begin(), s.indices.end());
    REQUIRE(members.size() == s.indices.size());
    const auto elements = c.group.elements();
    for (const int a : s.indices) {
      for (const int b : s.indices) {
        const PlanarElement ab =
            c.group.compose(elements[static_cast<std::size_t>(a)], elements[static_cast<std::size_t>(b)]);
        CHECK(members.count(c.group.index_of(ab)) == 1);
      }
    }
  }
}

TEST_CASE("subsample_group: rates that give no subgroup are refused") {
  // The reference takes every 4th node of D_6 (0, 4, 8 = rotations 0, 4 and the flip (1, 2)): not a subgroup.
  CHECK_THROWS_WITH_AS(
      static_cast<void>(subsample_group(PlanarGroup::dihedral(6), 4)),
      "gyre::subsample_group: no subgroup of D6 at this rate (the rotation step must divide N = 6) (4)",
      gyre::DomainError);
  CHECK_THROWS_AS(static_cast<void>(subsample_group(PlanarGroup::cyclic(6), 4)), gyre::DomainError);
  CHECK_THROWS_AS(static_cast<void>(subsample_group(PlanarGroup::cyclic(6), 0)), gyre::DomainError);
  CHECK_THROWS_AS(static_cast<void>(subsample_group(PlanarGroup::cyclic(6), -2)), gyre::DomainError);
  CHECK_THROWS_WITH_AS(static_cast<void>(subsample_group(PlanarGroup::dihedral(6), 3, SubgroupFamily::kRotations)),
                       "gyre::subsample_group: the rotations of D6 are reached at even rates only (index 2·N/M) (3)",
                       gyre::DomainError);
  CHECK_THROWS_AS(static_cast<void>(subsample_group(PlanarGroup::dihedral(6), 8, SubgroupFamily::kRotations)),
                  gyre::DomainError);
  CHECK_THROWS_WITH_AS(static_cast<void>(subsample_group(PlanarGroup::so2(4), 2)),
                       "gyre::subsample_group: group subsampling is for C_N and D_N (SO(2))", gyre::DomainError);
}

TEST_CASE("cayley_laplacian: symmetric, positive semi-definite, rows sum to 0, commutes with G") {
  for (const PlanarGroup& g : {PlanarGroup::cyclic(1), PlanarGroup::cyclic(2), PlanarGroup::cyclic(7),
                               PlanarGroup::dihedral(1), PlanarGroup::dihedral(2), PlanarGroup::dihedral(6)}) {
    CAPTURE(g.name());
    const Matrix<double> laplacian = cayley_laplacian(g);
    CHECK((laplacian - laplacian.transpose()).norm() == 0.0);
    CHECK(laplacian.rowwise().sum().cwiseAbs().maxCoeff() == 0.0);
    // Exact zero row sums; PSD up to the eigensolver's rounding on entries ≤ 3.
    CHECK(Eigen::SelfAdjointEigenSolver<Matrix<double>>(laplacian).eigenvalues().minCoeff() >= -1e-12);
    for (const PlanarElement& h : g.elements()) {
      const Matrix<double> lambda = left_translation(g, h);
      CHECK((lambda * laplacian - laplacian * lambda).norm() == 0.0);  // a permutation of 0/±1 entries
    }
  }
}

TEST_CASE("band_limiting: a projector of rank |H| that commutes with H, and exact reconstruction") {
  for (const Case& c : all_cases()) {
    CAPTURE(describe(c));
    const BandLimiting b = band_limiting(subsample_group(c.group, c.rate, c.family));
    const int g_order = c.group.order();
    const int h_order = b.sampling.subgroup.order();
    const Matrix<double>& p = b.projector;
    // Products of orthonormal |G|×|H| matrices, |G| ≤ 24: rounding is ~|G|·ε.
    const double tolerance = 1e-12;
    CHECK((b.band.transpose() * b.band - Matrix<double>::Identity(h_order, h_order)).norm() <= tolerance);
    CHECK((p * p - p).norm() <= tolerance);
    CHECK((p - p.transpose()).norm() <= tolerance);
    for (const int i : b.sampling.indices) {
      const Matrix<double> lambda = left_translation(c.group, c.group.elements()[static_cast<std::size_t>(i)]);
      CHECK((lambda * p - p * lambda).norm() <= tolerance);
    }
    Matrix<double> sample = Matrix<double>::Zero(h_order, g_order);
    for (int i = 0; i < h_order; ++i) sample(i, b.sampling.indices[static_cast<std::size_t>(i)]) = 1.0;
    CHECK((b.downsample - sample * p).norm() <= tolerance);
    CHECK((sample * b.upsample - Matrix<double>::Identity(h_order, h_order)).norm() <= 1e-11);
    for (const std::uint64_t seed : gyre::test::seeds(5)) {
      CAPTURE(seed);
      gyre::Rng rng(seed);
      const gyre::Vector<double> band_limited = b.band * rng.normal_matrix<double>(h_order, 1);
      // Reconstruction solves with S·B, whose condition number is ≤ √|G| here: 1e-12 relative.
      CHECK((b.upsample * (sample * band_limited) - band_limited).norm() <= 1e-12 * band_limited.norm());
      CHECK((b.upsample * (b.downsample * band_limited) - band_limited).norm() <= 1e-12 * band_limited.norm());
    }
  }
}

TEST_CASE("band_limiting: the band is the closed-form low-pass (per coset, or flip-symmetric)") {
  for (const Case& c : all_cases()) {
    CAPTURE(describe(c));
    const BandLimiting b = band_limiting(subsample_group(c.group, c.rate, c.family));
    const int m = b.sampling.subgroup.n();
    const Matrix<double> expected = span_projector(closed_form_band(c, m));
    REQUIRE(expected.trace() == doctest::Approx(b.sampling.subgroup.order()));
    CHECK((b.projector - expected).norm() <= 1e-12);  // two orthonormalisations of one space
  }
}

TEST_CASE("band_limiting: anti-aliasing lowers the equivariance error to the full group") {
  // Error of the reconstruction R·f against G: mean over g of ‖R λ_g f − λ_g R f‖ / ‖f‖ for white f.
  // Anti-aliased R = U·D; naive R = U·S (the same interpolation, no low-pass first).
  for (const Case& c : all_cases()) {
    if (c.rate == 1) continue;
    CAPTURE(describe(c));
    const BandLimiting b = band_limiting(subsample_group(c.group, c.rate, c.family));
    const int g_order = c.group.order();
    const int h_order = b.sampling.subgroup.order();
    Matrix<double> sample = Matrix<double>::Zero(h_order, g_order);
    for (int i = 0; i < h_order; ++i) sample(i, b.sampling.indices[static_cast<std::size_t>(i)]) = 1.0;
    const Matrix<double> anti_aliased = b.upsample * b.downsample;
    const Matrix<double> naive = b.upsample * sample;
    double anti_aliased_error = 0, naive_error = 0;
    gyre::Rng rng(gyre::test::seeds(1).front());
    for (int trial = 0; trial < 20; ++trial) {
      const gyre::Vector<double> f = rng.normal_matrix<double>(g_order, 1);
      for (const PlanarElement& g : c.group.elements()) {
        const Matrix<double> lambda = left_translation(c.group, g);
        anti_aliased_error += (anti_aliased * lambda * f - lambda * anti_aliased * f).norm() / f.norm();
        naive_error += (naive * lambda * f - lambda * naive * f).norm() / f.norm();
      }
    }
    CAPTURE(anti_aliased_error);
    CAPTURE(naive_error);
    CHECK(anti_aliased_error < naive_error);
    // Odd |H| rotation order: no Nyquist component, so the band is G-invariant and the error is rounding.
    if (b.sampling.subgroup.n() % 2 == 1) CHECK(anti_aliased_error <= 1e-10 * 20 * g_order);
  }
}

TEST_CASE("band_mask: the projector is a 0/1 mask on the packed Fourier coefficients") {
  for (const Case& c : all_cases()) {
    CAPTURE(describe(c));
    const SubgroupSampling s = subsample_group(c.group, c.rate, c.family);
    const Vector<double> mask = band_mask(s);
    const int order = c.group.order();
    REQUIRE(mask.size() == order);
    CHECK(mask.sum() == doctest::Approx(s.subgroup.order()));  // the band has dimension |H|
    // F⁻¹·diag(mask)·F column by column, against the eigen-walk's projector.
    const GroupFourierTransform<double> transform(c.group);
    Matrix<double> spectral(order, order);
    for (int j = 0; j < order; ++j) {
      Vector<double> e = Vector<double>::Zero(order), coefficients(order), column(order);
      e(j) = 1.0;
      transform.forward(e.data(), coefficients.data(), 1);
      coefficients = coefficients.cwiseProduct(mask);
      transform.inverse(coefficients.data(), column.data(), 1);
      spectral.col(j) = column;
    }
    CHECK((spectral - band_limiting(s).projector).norm() <= 1e-12);  // two constructions of one projector
  }
}
