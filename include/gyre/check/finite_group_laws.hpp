#pragma once
// gyre::check::finite_group_laws: the FiniteGroup laws of include/gyre/core/manifold.hpp, checked
// exhaustively over all pairs and triples of elements (the groups are small), plus the action on
// seeded random points.

#include <algorithm>
#include <cstdint>
#include <exception>
#include <vector>

#include "gyre/check/law_report.hpp"
#include "gyre/check/manifold_laws.hpp"
#include "gyre/core/manifold.hpp"
#include "gyre/core/rng.hpp"

namespace gyre::check {

namespace law {
inline const char* const kFiniteAxioms = "group axioms (all pairs and triples)";
inline const char* const kFiniteClosure = "elements() lists order() distinct elements";
inline const char* const kMatrixHomomorphism = "matrix(g·h) = matrix(g)·matrix(h)";
inline const char* const kMatrixOrthogonal = "matrix(g) is orthogonal";
inline const char* const kActIsMatrix = "act(g, p) = matrix(g)·p";
}  // namespace law

/// Checks the FiniteGroup laws; the axioms and the homomorphism are checked on every pair or
/// triple, the action on one random point per seed and element.
template <class G>
LawReport finite_group_laws(const G& group, const std::vector<std::uint64_t>& seeds) {
  static_assert(is_finite_group_v<G>, "finite_group_laws needs a FiniteGroup");
  using T = typename G::Scalar;
  using ActedPoint = typename G::ActedPoint;
  LawReport report;
  const auto elements = group.elements();
  const auto e = group.identity();
  const char* law = law::kFiniteClosure;
  try {
    std::size_t distinct = 0;
    for (std::size_t i = 0; i < elements.size(); ++i) {
      bool seen = false;
      for (std::size_t j = 0; j < i; ++j) seen = seen || elements[i] == elements[j];
      distinct += seen ? 0 : 1;
    }
    report.record(law, distinct == static_cast<std::size_t>(group.order()) && elements.size() == distinct ? 0.0 : 1.0,
                  0);

    law = law::kFiniteAxioms;
    double axiom_violations = 0;
    for (const auto& g : elements) {
      if (!(group.compose(g, e) == g && group.compose(e, g) == g)) ++axiom_violations;
      if (!(group.compose(g, group.inverse(g)) == e)) ++axiom_violations;
      for (const auto& h : elements) {
        for (const auto& k : elements) {
          if (!(group.compose(group.compose(g, h), k) == group.compose(g, group.compose(h, k)))) ++axiom_violations;
        }
      }
    }
    report.record(law, axiom_violations, 0);

    law = law::kMatrixHomomorphism;
    for (const auto& g : elements) {
      for (const auto& h : elements) {
        report.record(law, detail::relative_gap(group.matrix(group.compose(g, h)), group.matrix(g) * group.matrix(h)),
                      0);
      }
      const auto m = group.matrix(g);
      report.record(law::kMatrixOrthogonal,
                    detail::relative_gap(m.transpose() * m, decltype(m)::Identity(m.rows(), m.cols())), 0);
    }
  } catch (const std::exception& error) {
    report.fail(law, 0, error.what());
  }
  for (const std::uint64_t seed : seeds) {
    Rng rng(seed);
    try {
      const ActedPoint p = rng.normal_matrix<T>(group.acted_dim(), 1);
      for (const auto& g : elements) {
        report.record(law::kActIsMatrix, detail::relative_gap(group.act(g, p), group.matrix(g) * p), seed);
      }
    } catch (const std::exception& error) {
      report.fail(law::kActIsMatrix, seed, error.what());
    }
  }
  return report;
}

}  // namespace gyre::check
