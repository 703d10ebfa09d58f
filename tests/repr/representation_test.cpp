// Representations of C_N, D_N, SO(2), O(2): homomorphism, characters, decompositions, and escnn's
// irrep tables.

#include "gyre/repr/representation.hpp"

#include <cmath>

#include <doctest/doctest.h>

#include "gyre/core/error.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/repr/restriction.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::Matrix;
using namespace gyre::repr;

std::vector<PlanarGroup> finite_groups() {
  std::vector<PlanarGroup> groups;
  for (int n : {1, 2, 3, 4, 5, 6, 8}) groups.push_back(PlanarGroup::cyclic(n));
  for (int n : {1, 2, 3, 4, 6, 8}) groups.push_back(PlanarGroup::dihedral(n));
  return groups;
}

std::vector<Representation> representations_of(const PlanarGroup& g) {
  std::vector<Representation> reps;
  for (const Irrep& psi : irreps(g)) reps.push_back(irrep_representation(g, psi));
  reps.push_back(regular_representation(g));
  if (g.n() % 2 == 0) reps.push_back(quotient_representation(g, g.n() / 2, false));
  if (g.has_flips()) reps.push_back(quotient_representation(g, 1, true));
  reps.push_back(direct_sum({reps.front(), reps.back()}, "sum"));
  return reps;
}

double max_abs(const Matrix<double>& m) { return m.cwiseAbs().maxCoeff(); }

}  // namespace

TEST_CASE("representations: rho(gh) = rho(g) rho(h) for every pair of elements of finite groups") {
  for (const PlanarGroup& g : finite_groups()) {
    for (const Representation& rho : representations_of(g)) {
      CAPTURE(g.name());
      CAPTURE(rho.name());
      double worst = 0;
      for (const PlanarElement& a : g.elements())
        for (const PlanarElement& b : g.elements())
          worst = std::max(worst, max_abs(rho.matrix(g.compose(a, b)) - rho.matrix(a) * rho.matrix(b)));
      CHECK(worst <= 1e-12);  // products of cos/sin of multiples of 2π/N: rounding only
    }
  }
}

TEST_CASE("representations: rho(gh) = rho(g) rho(h) on random elements of SO(2) and O(2)") {
  for (const PlanarGroup& g : {PlanarGroup::so2(3), PlanarGroup::o2(3)}) {
    const std::vector<Representation> reps{regular_representation(g), irrep_representation(g, irreps(g).back())};
    for (const std::uint64_t seed : gyre::test::seeds(50)) {
      CAPTURE(seed);
      gyre::Rng rng(seed);
      const PlanarElement a{g.has_flips() ? static_cast<int>(rng.uniform_int(0, 1)) : 0,
                            rng.uniform<double>(0, 6.283185307179586)};
      const PlanarElement b{g.has_flips() ? static_cast<int>(rng.uniform_int(0, 1)) : 0,
                            rng.uniform<double>(0, 6.283185307179586)};
      // cos/sin of frequency ≤ 3 times angles < 4π: argument rounding ≈ 3·4π·ε ≈ 1e-14, then a 2-term product.
      for (const Representation& rho : reps)
        CHECK(max_abs(rho.matrix(g.compose(a, b)) - rho.matrix(a) * rho.matrix(b)) <= 1e-12);
    }
  }
}

TEST_CASE("representations: irreducible characters are orthogonal with norm dim End") {
  std::vector<PlanarGroup> groups = finite_groups();
  groups.push_back(PlanarGroup::so2(4));
  groups.push_back(PlanarGroup::o2(4));
  for (const PlanarGroup& g : groups) {
    const auto all = irreps(g);
    for (const Irrep& a : all)
      for (const Irrep& b : all) {
        CAPTURE(g.name());
        CAPTURE(irrep_name(g, a));
        CAPTURE(irrep_name(g, b));
        const double expected = a == b ? endomorphism_dim(g, a) : 0.0;
        // An exact quadrature (finite groups: all ≤ 16 elements) of products of cos/sin: rounding only.
        CHECK(std::abs(character_inner_product(irrep_representation(g, a), irrep_representation(g, b)) - expected) <=
              1e-12);
      }
  }
}

TEST_CASE("representations: the regular representation contains each irrep d/e times and Q rebuilds it") {
  for (const PlanarGroup& g : finite_groups()) {
    const Representation reg = regular_representation(g);
    CAPTURE(g.name());
    for (const Irrep& psi : irreps(g)) {
      const long copies = std::count(reg.irreps().begin(), reg.irreps().end(), psi);
      CHECK(copies == irrep_size(g, psi) / endomorphism_dim(g, psi));
    }
    CHECK(reg.is_permutation());
    // matrix() is Q·⊕ψ·Qᵀ: it must be the permutation e_h ↦ e_gh.
    const auto elements = g.elements();
    for (const PlanarElement& a : elements) {
      for (std::size_t h = 0; h < elements.size(); ++h) {
        const int gh = g.index_of(g.compose(a, elements[h]));
        // Q·⊕ψ·Qᵀ sums ≤ 16 products of entries ≤ 1: ≈ 16·ε, so 1e-12 is rounding with room.
        CHECK(std::abs(reg.matrix(a)(gh, static_cast<Eigen::Index>(h)) - 1.0) <= 1e-12);
      }
    }
  }
}

TEST_CASE("representations: irreps, characters, generators and regular decomposition equal escnn's tables") {
  for (const auto& table : gyre::test::reference("escnn.json")["irrep_tables"]) {
    const std::string name = table["group"];
    CAPTURE(name);
    const int n = std::stoi(name.substr(1));
    const PlanarGroup g = name[0] == 'D' ? PlanarGroup::dihedral(n) : PlanarGroup::cyclic(n);
    const auto elements = g.elements();
    REQUIRE(elements.size() == table["elements"].size());
    for (std::size_t i = 0; i < elements.size(); ++i) {
      CHECK(elements[i].flip == table["element_params"][i][0].get<int>());
      // escnn.json stores 10 significant digits: 1e-9 relative.
      CHECK(elements[i].angle == doctest::Approx(table["element_params"][i][1].get<double>()).epsilon(1e-9));
    }
    const auto ours = irreps(g);
    REQUIRE(ours.size() == table["irreps"].size());
    for (std::size_t k = 0; k < ours.size(); ++k) {
      const auto& theirs = table["irreps"][k];
      CAPTURE(theirs["name"].get<std::string>());
      CHECK(irrep_name(g, ours[k]) == theirs["name"].get<std::string>());
      CHECK(irrep_size(g, ours[k]) == theirs["size"].get<int>());
      // escnn.json stores 10 significant digits: 1e-9 absolute on values of size ≤ 2.
      for (std::size_t i = 0; i < elements.size(); ++i) {
        CHECK(std::abs(irrep_character(g, ours[k], elements[i]) - theirs["characters"][i].get<double>()) <= 1e-9);
      }
      const auto compare = [&](const PlanarElement& e, const nlohmann::json& expected) {
        const Matrix<double> m = irrep_matrix(g, ours[k], e);
        for (std::size_t r = 0; r < expected.size(); ++r)
          for (std::size_t c = 0; c < expected[r].size(); ++c)
            CHECK(std::abs(m(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) -
                           expected[r][c].get<double>()) <= 1e-9);
      };
      compare({0, 6.283185307179586 / n}, theirs["generator_matrices"]["rotation_2pi_over_N"]);
      if (g.has_flips()) compare({1, 0.0}, theirs["generator_matrices"]["flip"]);
    }
    const Representation reg = regular_representation(g);
    for (const auto& entry : table["regular_decomposition"]["multiplicities"].items()) {
      // Named copies, not a structured binding: CAPTURE's lambda cannot capture one in C++17 (clang refuses).
      const std::string irrep = entry.key();
      const nlohmann::json& count = entry.value();
      CAPTURE(irrep);
      const Irrep psi = parse_irrep(g, irrep);
      CHECK(std::count(reg.irreps().begin(), reg.irreps().end(), psi) == count.get<long>());
    }
  }
}

TEST_CASE("representations: decompose rejects matrices that are not an orthogonal representation") {
  const PlanarGroup g = PlanarGroup::cyclic(4);
  CHECK_THROWS_WITH_AS(
      static_cast<void>(decompose(
          g, "bad", 2, [](const PlanarElement&) { return Matrix<double>(2.0 * Matrix<double>::Identity(2, 2)); })),
      doctest::Contains("gyre::decompose: matrix(g) is not orthogonal"), gyre::DomainError);
  // Orthogonal but not a homomorphism: a fixed reflection for every element.
  CHECK_THROWS_AS(static_cast<void>(decompose(g, "bad", 2,
                                              [](const PlanarElement& e) {
                                                Matrix<double> m(2, 2);
                                                m << 0, 1, 1, 0;
                                                return e.angle == 0.0 ? Matrix<double>(Matrix<double>::Identity(2, 2))
                                                                      : m;
                                              })),
                  gyre::DomainError);
  CHECK_THROWS_WITH_AS(
      static_cast<void>(quotient_representation(PlanarGroup::cyclic(6), 4, false)),
      doctest::Contains("gyre::quotient_representation: the subgroup's rotation order must divide N = 6"),
      gyre::DomainError);
  CHECK_THROWS_WITH_AS(static_cast<void>(parse_irrep(PlanarGroup::dihedral(4), "irrep_3")),
                       "gyre::parse_irrep: irreps of D4 are named irrep_j,k (irrep_3)", gyre::DomainError);
}

TEST_CASE("D1 names its irreps as escnn's flip group, C2: irrep_0 and irrep_1") {
  // escnn's flipRot2dOnR2(N=1) and flip2dOnR2 are built on cyclic_group(2).
  const PlanarGroup flips = PlanarGroup::dihedral(1);
  const auto all = irreps(flips);
  REQUIRE(all.size() == 2);
  CHECK(irrep_name(flips, all[0]) == "irrep_0");
  CHECK(irrep_name(flips, all[1]) == "irrep_1");
  CHECK(parse_irrep(flips, "irrep_0") == Irrep{0, 0});
  CHECK(parse_irrep(flips, "irrep_1") == Irrep{1, 0});
  // The sign irrep is −1 on the flip.
  CHECK(irrep_character(flips, parse_irrep(flips, "irrep_1"), PlanarElement{1, 0.0}) == -1.0);
  CHECK(representation_by_name(flips, "irrep_1").name() == "irrep_1");
  CHECK_THROWS_WITH_AS(static_cast<void>(parse_irrep(flips, "irrep_1,0")),
                       "gyre::parse_irrep: irreps of D1 are named irrep_k (irrep_1,0)", gyre::DomainError);
  CHECK_THROWS_WITH_AS(static_cast<void>(parse_irrep(flips, "irrep_2")),
                       "gyre::parse_irrep: not an irrep of D1 (irrep_2)", gyre::DomainError);
}
