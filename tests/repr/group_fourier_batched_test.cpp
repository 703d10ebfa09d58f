// GroupFourierTransform: the batched, packed transform in float and double against the defining
// sums (fourier_transform_direct), its inverse, and batches against items one by one.

#include <vector>

#include <doctest/doctest.h>

#include "gyre/core/error.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/repr/fourier.hpp"
#include "gyre/repr/irrep.hpp"
#include "support/test_support.hpp"

using namespace gyre::repr;

namespace {

std::vector<PlanarGroup> small_groups() {
  std::vector<PlanarGroup> groups;
  for (int n = 1; n <= 12; ++n) {
    groups.push_back(PlanarGroup::cyclic(n));
    groups.push_back(PlanarGroup::dihedral(n));
  }
  return groups;
}

// The defining sums packed as GroupFourierTransform packs them.
std::vector<double> packed_direct(const PlanarGroup& g, const gyre::Vector<double>& f) {
  std::vector<double> packed;
  const auto blocks = fourier_transform_direct(g, f);
  const auto all = irreps(g);
  for (std::size_t k = 0; k < all.size(); ++k) {
    const gyre::Matrix<double>& m = blocks[k];
    if (m.rows() == 1) {
      packed.push_back(m(0, 0));
    } else if (!g.has_flips()) {
      packed.push_back(m(0, 0));
      packed.push_back(m(1, 0));
    } else {
      packed.insert(packed.end(), {m(0, 0), m(0, 1), m(1, 0), m(1, 1)});
    }
  }
  return packed;
}

}  // namespace

TEST_CASE_TEMPLATE("GroupFourierTransform: batches equal the defining sums, and inverse recovers them", T, float,
                   double) {
  // Sums of ≤ 24 terms of size ≈ 1 in T: 1e-12 (double) or 1e-5 (float) absolute.
  const double tolerance = gyre::test::tol<T>(1e-12, 1e-5f);
  for (const PlanarGroup& g : small_groups()) {
    CAPTURE(g.name());
    const GroupFourierTransform<T> transform(g);
    const std::size_t batch = 5, order = static_cast<std::size_t>(g.order());
    gyre::Rng rng(gyre::test::seeds(1).front());
    std::vector<T> signals(batch * order), coefficients(batch * order), back(batch * order);
    for (T& v : signals) v = rng.normal<T>();
    transform.forward(signals.data(), coefficients.data(), batch);
    for (std::size_t b = 0; b < batch; ++b) {
      gyre::Vector<double> f(static_cast<Eigen::Index>(order));
      for (std::size_t i = 0; i < order; ++i) f(static_cast<Eigen::Index>(i)) = signals[b * order + i];
      const std::vector<double> expected = packed_direct(g, f);
      REQUIRE(expected.size() == order);
      for (std::size_t i = 0; i < order; ++i) CHECK(std::abs(coefficients[b * order + i] - expected[i]) <= tolerance);
    }
    transform.inverse(coefficients.data(), back.data(), batch);
    for (std::size_t i = 0; i < signals.size(); ++i) CHECK(std::abs(back[i] - signals[i]) <= tolerance);
    // A batch of one equals its row of the batch.
    std::vector<T> single(order);
    transform.forward(signals.data() + 2 * order, single.data(), 1);
    for (std::size_t i = 0; i < order; ++i) CHECK(single[i] == coefficients[2 * order + i]);
  }
}

TEST_CASE("GroupFourierTransform: continuous groups are refused, empty batches are no-ops") {
  CHECK_THROWS_WITH_AS(GroupFourierTransform<double>(PlanarGroup::so2(3)),
                       "gyre::GroupFourierTransform: the batched transform is for C_N and D_N (SO(2))",
                       gyre::DomainError);
  const GroupFourierTransform<float> transform(PlanarGroup::dihedral(4));
  transform.forward(nullptr, nullptr, 0);
  transform.inverse(nullptr, nullptr, 0);
  CHECK(transform.size() == 8);
}
