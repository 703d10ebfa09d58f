// The batched Grassmann log (stack-sized work matrices) against the one-item log, and its errors.
#include "grassmann/grassmann_batch.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "gyre/core/rng.hpp"
#include "support/batch_test_support.hpp"
#include "support/test_support.hpp"

namespace {

// How far two backward-stable routes to log_U(Y) may differ, from the item's principal cosines:
// the right singular vectors of UᵀY are determined to ε/gap(c²) (the batched route takes them from
// the eigendecomposition of its Gram matrix, the one-item route from its SVD), and the left ones
// (MB/c) to ε/c. 16·ε·(1 + 1/min gap(c²) + 1/min c) relative to ‖log‖.
template <class T>
double conditioned_budget(const gyre::Matrix<T>& u, const gyre::Matrix<T>& y) {
  const gyre::Vector<T> c = gyre::grassmann::principal_angles<T>(u, y).cosines;
  double amplification = 1 + 1 / static_cast<double>(c.minCoeff());
  for (Eigen::Index i = 0; i < c.size(); ++i) {
    for (Eigen::Index j = i + 1; j < c.size(); ++j) {
      amplification += 1 / std::abs(static_cast<double>(c(i) * c(i) - c(j) * c(j)));
    }
  }
  return 16 * std::numeric_limits<T>::epsilon() * amplification;
}

TEST_CASE_TEMPLATE("batched Grassmann log agrees with the one-item log", T, float, double) {
  for (const auto& shape : std::vector<std::pair<int, int>>{{16, 4}, {5, 2}, {4, 3}, {70, 3}}) {  // 70: heap path
    // Named copies, not a structured binding: CAPTURE takes them in a lambda, which C++17 (and
    // clang 14, the ThreadSanitizer build's compiler) does not allow for bindings.
    const int n = shape.first;
    const int p = shape.second;
    CAPTURE(n);
    CAPTURE(p);
    const gyre::Grassmann<T> m(n, p);
    gyre::Rng rng(gyre::test::seeds(3)[2] + static_cast<std::uint64_t>(n));
    std::vector<gyre::Matrix<T>> u, y;
    for (int b = 0; b < 19; ++b) {
      u.push_back(m.random_point(rng));
      y.push_back(m.random_point(rng));
    }
    const auto logs = gyre::batch::log(m, gyre::test::pack(u), gyre::test::pack(y));
    for (std::size_t b = 0; b < u.size(); ++b) {
      CAPTURE(b);
      const gyre::Matrix<T> one = m.log(u[b], y[b]);
      const double gap = static_cast<double>((gyre::test::unpack(logs, b) - one).norm() / std::max(T(1), one.norm()));
      CHECK(gap <= conditioned_budget<T>(u[b], y[b]));
    }
  }
}

TEST_CASE("batched Grassmann log names the item at the cut locus or off the manifold") {
  const gyre::Grassmann<double> m(6, 2);
  gyre::Rng rng(5);
  std::vector<gyre::Matrix<double>> u, y;
  for (int b = 0; b < 7; ++b) {
    u.push_back(gyre::Matrix<double>::Identity(6, 2));
    y.push_back(m.random_point(rng));
  }
  y[3] = gyre::Matrix<double>::Zero(6, 2);  // span{e₁, e₃}: orthogonal to e₂, a principal angle of π/2
  y[3](0, 0) = 1;
  y[3](2, 1) = 1;
  try {
    (void)gyre::batch::log(m, gyre::test::pack(u), gyre::test::pack(y));
    FAIL("expected a DomainError");
  } catch (const gyre::DomainError& e) {
    CHECK(e.condition().find("π/2") != std::string::npos);
    CHECK(e.condition().find("item 3") != std::string::npos);
  }
  std::vector<gyre::Matrix<double>> not_orthonormal = y;
  not_orthonormal[1] *= 2;
  CHECK_THROWS_AS((void)gyre::batch::log(m, gyre::test::pack(u), gyre::test::pack(not_orthonormal)), gyre::DomainError);
  CHECK_THROWS_AS((void)gyre::batch::log(gyre::Grassmann<double>(6, 3), gyre::test::pack(u), gyre::test::pack(y)),
                  gyre::ShapeError);
}

}  // namespace
