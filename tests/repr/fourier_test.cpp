// The Fourier transform on C_N and D_N: FFTW against the defining sums, and the inverse.

#include "gyre/repr/fourier.hpp"

#include <doctest/doctest.h>

#include "gyre/core/error.hpp"
#include "gyre/core/rng.hpp"
#include "support/test_support.hpp"

using namespace gyre::repr;

TEST_CASE("fourier: the FFT equals the direct sums and the inverse recovers the function") {
  std::vector<PlanarGroup> groups;
  for (int n = 1; n <= 8; ++n) {
    groups.push_back(PlanarGroup::cyclic(n));
    groups.push_back(PlanarGroup::dihedral(n));
  }
  for (const PlanarGroup& g : groups) {
    for (const std::uint64_t seed : gyre::test::seeds(5)) {
      CAPTURE(g.name());
      CAPTURE(seed);
      gyre::Rng rng(seed);
      gyre::Vector<double> f(g.order());
      for (Eigen::Index i = 0; i < f.size(); ++i) f(i) = rng.normal<double>();
      const auto fast = fourier_transform(g, f);
      const auto direct = fourier_transform_direct(g, f);
      REQUIRE(fast.size() == direct.size());
      for (std::size_t k = 0; k < fast.size(); ++k) {
        // Sums of ≤ 16 terms of size ≈ 1: 1e-12 absolute is rounding.
        CHECK((fast[k] - direct[k]).cwiseAbs().maxCoeff() <= 1e-12);
      }
      CHECK((inverse_fourier_transform(g, fast) - f).cwiseAbs().maxCoeff() <= 1e-12);  // the same sums back: rounding
    }
  }
}

TEST_CASE("fourier: wrong sizes and continuous groups are rejected") {
  CHECK_THROWS_WITH_AS(static_cast<void>(fourier_transform(PlanarGroup::cyclic(4), gyre::Vector<double>::Zero(3))),
                       "gyre::fourier_transform: a function needs one value per element (4) (3)", gyre::ShapeError);
  CHECK_THROWS_AS(static_cast<void>(fourier_transform(PlanarGroup::so2(2), gyre::Vector<double>::Zero(3))),
                  gyre::DomainError);
}
