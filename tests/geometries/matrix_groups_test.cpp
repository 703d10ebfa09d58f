// GL⁺(n), SL(n) and the Lorentz group: the group laws on seeded cases, the decompositions, the
// components of O(1,3), closed forms for boosts and rotations, and bad input.
#include <cmath>

#include <doctest/doctest.h>

#include "glp/general_linear.hpp"
#include "gyre/check/lie_group_laws.hpp"
#include "lorentz/lorentz.hpp"
#include "support/test_support.hpp"

namespace {

namespace law = gyre::check::law;
using gyre::Matrix;
using gyre::Vector;
using gyre::test::relative_gap;
using gyre::test::tol;

template <class T, class G>
void check_group_laws(const G& group, double max_algebra_norm, double budget_double, float budget_float) {
  gyre::check::LieGroupLawOptions options;
  options.max_algebra_norm = max_algebra_norm;
  const auto report = gyre::check::lie_group_laws(group, gyre::test::seeds(200), options);
  for (const auto& failure : report.failures) FAIL(failure);
  for (const char* name : {law::kAssociative, law::kIdentity, law::kInverse, law::kVeeHat, law::kAlgebraLogExp,
                           law::kAlgebraExpLog, law::kAdjoint, law::kActionHomomorphism, law::kActionIdentity}) {
    gyre::test::check_law(report, name, tol<T>(budget_double, budget_float));
  }
}

}  // namespace

TEST_CASE_TEMPLATE("GL⁺(n) and SL(n): the group laws hold on 200 seeded cases", T, float, double) {
  for (const int n : {2, 3, 5}) {
    CAPTURE(n);
    // Algebra vectors of norm < 1 keep eigenvalues' imaginary parts below π (principal domain).
    check_group_laws<T>(gyre::GLPlus<T>(n), 1.0, 1e-12, 2e-4f);
    check_group_laws<T>(gyre::SL<T>(n), 1.0, 1e-12, 2e-4f);
  }
}

TEST_CASE_TEMPLATE("Lorentz SO⁺(1,3): the group laws hold on 200 seeded cases", T, float, double) {
  // Rapidities up to 2 give entries up to cosh 2 ≈ 3.8: residuals relative to max(1, ‖·‖).
  check_group_laws<T>(gyre::Lorentz<T>(), 2.0, 1e-12, 5e-4f);
}

TEST_CASE("GL⁺(n): polar and Iwasawa decompositions rebuild the matrix with factors of the right kind") {
  const gyre::GLPlus<double> glp(4);
  const gyre::SL<double> sl(4);
  for (const std::uint64_t seed : gyre::test::seeds(100)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    for (const Matrix<double>& g : {glp.random_point(rng), sl.random_point(rng)}) {
      const auto polar = glp.polar(g);
      CHECK(relative_gap(Matrix<double>(polar.rotation * polar.positive), g) <= 1e-13);
      CHECK((polar.rotation.transpose() * polar.rotation - Matrix<double>::Identity(4, 4)).norm() <= 1e-13);
      // Orthonormal to 1e-13 (above), so its determinant is 1 to the same.
      CHECK(polar.rotation.determinant() == doctest::Approx(1.0).epsilon(1e-13));
      CHECK((polar.positive - polar.positive.transpose()).norm() <= 1e-14);
      CHECK(Eigen::SelfAdjointEigenSolver<Matrix<double>>(polar.positive).eigenvalues().minCoeff() > 0);
      const auto iw = glp.iwasawa(g);
      CHECK(relative_gap(Matrix<double>(iw.rotation * iw.upper), g) <= 1e-13);
      CHECK(iw.rotation.determinant() == doctest::Approx(1.0).epsilon(1e-13));  // as for the polar factor
      CHECK(iw.upper.diagonal().minCoeff() > 0);
      CHECK(iw.upper.triangularView<Eigen::StrictlyLower>().toDenseMatrix().norm() == 0);
    }
    const Matrix<double> s = sl.random_point(rng);
    // det(R·expm(S)) with tr S = 0 is 1 exactly; rounding of a 4×4 product with entries up to
    // ~e^{‖S‖} and of its LU determinant: 1e-12.
    CHECK(s.determinant() == doctest::Approx(1.0).epsilon(1e-12));
    CHECK(sl.polar(s).positive.determinant() == doctest::Approx(1.0).epsilon(1e-12));
  }
}

TEST_CASE("GL⁺(n): the principal log is refused where it does not exist") {
  const gyre::GLPlus<double> glp(2);
  Matrix<double> half_turn(2, 2);
  half_turn << -1, 0, 0, -1;  // det 1 > 0, eigenvalue −1 twice
  CHECK_THROWS_WITH_AS((void)glp.algebra_log(half_turn),
                       doctest::Contains("an eigenvalue lies on the negative real axis"), gyre::DomainError);
  Matrix<double> reflection(2, 2);
  reflection << 1, 0, 0, -1;
  CHECK_THROWS_WITH_AS((void)glp.compose(reflection, reflection), doctest::Contains("determinant not positive"),
                       gyre::DomainError);
  CHECK_THROWS_AS((void)gyre::SL<double>(2).check_point(Matrix<double>::Identity(2, 2) * 2), gyre::DomainError);
}

TEST_CASE("Lorentz: boosts and rotations in closed form, the polar decomposition and the invariant product") {
  const gyre::Lorentz<double> lorentz(3.0);
  // A boost along x by rapidity ζ: exp(ζK₁) = [[cosh ζ, sinh ζ], [sinh ζ, cosh ζ]] ⊕ I.
  Vector<double> a = Vector<double>::Zero(6);
  a(3) = 0.7;
  const Matrix<double> boost = lorentz.algebra_exp(a);
  // The closed form (or a scaled Padé) of a 4×4 generator with entries ≤ 0.7: an ulp or two.
  CHECK(boost(0, 0) == doctest::Approx(std::cosh(0.7)).epsilon(1e-15));
  CHECK(boost(0, 1) == doctest::Approx(std::sinh(0.7)).epsilon(1e-15));
  CHECK(relative_gap(boost, gyre::lorentz_boost<double>(a.tail(3))) <= 1e-15);
  // A rotation about z by θ turns x towards y.
  a.setZero();
  a(2) = 0.4;
  const Matrix<double> rot = lorentz.algebra_exp(a);
  CHECK(rot(2, 1) == doctest::Approx(std::sin(0.4)).epsilon(1e-15));  // an ulp or two, as above
  CHECK(rot(1, 2) == doctest::Approx(-std::sin(0.4)).epsilon(1e-15));
  for (const std::uint64_t seed : gyre::test::seeds(100)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    const Matrix<double> m = lorentz.random_point(rng);
    CHECK(gyre::lorentz_component<double>(m) == gyre::LorentzComponent::kProperOrthochronous);
    const auto polar = lorentz.polar(m);
    CHECK(relative_gap(Matrix<double>(polar.boost * polar.rotation), m) <= 1e-13);
    CHECK(std::abs(polar.rotation(0, 0) - 1) <= 1e-13);
    CHECK(polar.rotation.block(1, 0, 3, 1).norm() <= 1e-12);
    CHECK(relative_gap(gyre::lorentz_boost<double>(lorentz.rapidity(m)), polar.boost) <= 1e-12);
    CHECK(lorentz.rapidity(m).norm() <= 3.0 + 1e-12);
    const Vector<double> x = rng.normal_matrix<double>(4, 1);
    const Vector<double> y = rng.normal_matrix<double>(4, 1);
    const double before = gyre::minkowski<double>(x, y);
    CHECK(std::abs(gyre::minkowski<double>(lorentz.act(m, x), lorentz.act(m, y)) - before) <=
          1e-12 * (1 + x.norm() * y.norm() * m.norm() * m.norm()));
  }
}

TEST_CASE("Lorentz: the four components of O(1,3), and bad input") {
  Matrix<double> parity = gyre::minkowski_metric<double>();  // diag(1, −1, −1, −1): det −1, Λ₀₀ = 1
  Matrix<double> time_reversal = -parity;                    // diag(−1, 1, 1, 1)
  CHECK(gyre::lorentz_component<double>(Matrix<double>::Identity(4, 4)) ==
        gyre::LorentzComponent::kProperOrthochronous);
  CHECK(gyre::lorentz_component<double>(parity) == gyre::LorentzComponent::kParity);
  CHECK(gyre::lorentz_component<double>(time_reversal) == gyre::LorentzComponent::kTimeReversal);
  CHECK(gyre::lorentz_component<double>(Matrix<double>(-Matrix<double>::Identity(4, 4))) ==
        gyre::LorentzComponent::kParityTimeReversal);
  const gyre::Lorentz<double> lorentz;
  CHECK_THROWS_WITH_AS((void)lorentz.inverse(parity), doctest::Contains("not in SO⁺(1,3)"), gyre::DomainError);
  Matrix<double> not_lorentz = Matrix<double>::Identity(4, 4);
  not_lorentz(0, 1) = 0.5;
  CHECK_THROWS_WITH_AS((void)lorentz.act(not_lorentz, Vector<double>::Zero(4)),
                       doctest::Contains("matrix is not a Lorentz transformation"), gyre::DomainError);
  Vector<double> a = Vector<double>::Zero(6);
  a(0) = 3.141592653589793;  // a rotation by π
  CHECK_THROWS_WITH_AS((void)lorentz.algebra_log(lorentz.algebra_exp(a)), doctest::Contains("turns by π"),
                       gyre::DomainError);
  CHECK_THROWS_AS(gyre::Lorentz<double>(-1.0), gyre::DomainError);
  CHECK_THROWS_AS((void)lorentz.act(Matrix<double>::Identity(4, 4), Vector<double>::Zero(3)), gyre::ShapeError);
}
