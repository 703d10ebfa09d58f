// Restrictions to subgroups and tensor products: the decomposition reproduces the matrices and
// the multiplicities follow from characters.

#include "gyre/repr/restriction.hpp"

#include <doctest/doctest.h>

#include "gyre/core/error.hpp"

namespace {

using gyre::Matrix;
using namespace gyre::repr;

// Res ρ(h) must equal ρ(h) on every element (or quadrature point) of the subgroup.
double restriction_defect(const Representation& rho, const Representation& restricted) {
  double worst = 0;
  const PlanarGroup& h = restricted.group();
  for (const PlanarElement& e : h.quadrature(2 * max_irrep_frequency(rho) + 3)) {
    worst = std::max(worst, (restricted.matrix(e) - rho.matrix(e)).cwiseAbs().maxCoeff());
  }
  return worst;
}

}  // namespace

TEST_CASE("restriction: every supported subgroup pair reproduces the representation") {
  struct Case {
    PlanarGroup group, subgroup;
  };
  const std::vector<Case> cases{
      {PlanarGroup::dihedral(8), PlanarGroup::cyclic(8)}, {PlanarGroup::dihedral(6), PlanarGroup::dihedral(1)},
      {PlanarGroup::cyclic(8), PlanarGroup::cyclic(4)},   {PlanarGroup::dihedral(8), PlanarGroup::dihedral(2)},
      {PlanarGroup::o2(4), PlanarGroup::so2(4)},          {PlanarGroup::o2(3), PlanarGroup::dihedral(4)},
      {PlanarGroup::so2(3), PlanarGroup::cyclic(6)},      {PlanarGroup::o2(2), PlanarGroup::cyclic(5)},
  };
  for (const Case& c : cases) {
    for (const Representation& rho :
         {regular_representation(c.group), irrep_representation(c.group, irreps(c.group).back())}) {
      CAPTURE(c.group.name());
      CAPTURE(c.subgroup.name());
      CAPTURE(rho.name());
      const Representation restricted = restrict_representation(rho, c.subgroup);
      CHECK(restricted.group() == c.subgroup);
      CHECK(restricted.size() == rho.size());
      // Q·⊕ψ·Qᵀ against ρ, matrices of size ≤ 16 with entries ≤ 1 and an orthogonal Q from exact
      // quadratures: rounding of ≈ 16·ε ≈ 4e-15 (measured ≤ 8e-16).
      CHECK(restriction_defect(rho, restricted) <= 1e-12);
    }
  }
}

TEST_CASE("restriction: known branching rules") {
  // D4's 2-dim irrep (1,1) restricted to C4 is C4's irrep_1; to the flip group it is trivial ⊕ sign.
  const PlanarGroup d4 = PlanarGroup::dihedral(4);
  const Representation vector = irrep_representation(d4, {1, 1});
  CHECK(restrict_representation(vector, PlanarGroup::cyclic(4)).irreps() == std::vector<Irrep>{{0, 1}});
  CHECK(restrict_representation(vector, PlanarGroup::dihedral(1)).irreps() == std::vector<Irrep>{{0, 0}, {1, 0}});
  // SO(2)'s frequency 3 restricted to C4 aliases to frequency 1 (3 ≡ −1 mod 4).
  CHECK(restrict_representation(irrep_representation(PlanarGroup::so2(3), {0, 3}), PlanarGroup::cyclic(4)).irreps() ==
        std::vector<Irrep>{{0, 1}});
  // The regular representation of C8 restricted to C4 is two copies of C4's regular representation.
  const Representation res =
      restrict_representation(regular_representation(PlanarGroup::cyclic(8)), PlanarGroup::cyclic(4));
  CHECK(res.irreps() == std::vector<Irrep>{{0, 0}, {0, 0}, {0, 1}, {0, 1}, {0, 2}, {0, 2}});
  CHECK_THROWS_WITH_AS(static_cast<void>(restrict_representation(vector, PlanarGroup::cyclic(3))),
                       "gyre::restrict_representation: C3 is not a subgroup of (D4)", gyre::DomainError);
  CHECK_THROWS_AS(static_cast<void>(restrict_representation(irrep_representation(PlanarGroup::so2(2), {0, 1}),
                                                            PlanarGroup::dihedral(2))),
                  gyre::DomainError);
}

TEST_CASE("tensor products: decompositions reproduce the Kronecker product and follow Clebsch-Gordan") {
  // SO(2): ψ₁ ⊗ ψ₂ = ψ₁ ⊕ ψ₃ (each 2-dim, real form of e^{±iθ}·e^{±2iθ}).
  const PlanarGroup so2 = PlanarGroup::so2(3);
  const Representation t = tensor_product(irrep_representation(so2, {0, 1}), irrep_representation(so2, {0, 2}));
  CHECK(t.irreps() == std::vector<Irrep>{{0, 1}, {0, 3}});
  // D4: (1,1) ⊗ (1,1) = (0,0) ⊕ (1,0) ⊕ (1,2) ⊕ (0,2).
  const PlanarGroup d4 = PlanarGroup::dihedral(4);
  const Representation v = irrep_representation(d4, {1, 1});
  const Representation vv = tensor_product(v, v);
  CHECK(vv.irreps() == std::vector<Irrep>{{0, 0}, {1, 0}, {1, 2}, {0, 2}});
  for (const PlanarElement& g : d4.elements()) {
    const Matrix<double> a = v.matrix(g);
    Matrix<double> k(4, 4);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) k.block(2 * i, 2 * j, 2, 2) = a(i, j) * a;
    CHECK((vv.matrix(g) - k).cwiseAbs().maxCoeff() <= 1e-12);  // Q·⊕ψ·Qᵀ, 4×4 of entries ≤ 1: rounding ≈ 1e-15
  }
}
