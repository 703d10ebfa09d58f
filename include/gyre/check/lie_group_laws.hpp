#pragma once
// gyre::check::lie_group_laws: the LieGroup laws of include/gyre/core/manifold.hpp on seeded
// random cases (the Manifold laws are checked separately by manifold_laws).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <vector>

#include "gyre/check/law_report.hpp"
#include "gyre/check/manifold_laws.hpp"
#include "gyre/core/manifold.hpp"
#include "gyre/core/rng.hpp"

namespace gyre::check {

namespace law {
inline const char* const kAssociative = "(g·h)·k = g·(h·k)";
inline const char* const kIdentity = "g·e = e·g = g";
inline const char* const kInverse = "g·g⁻¹ = e";
inline const char* const kVeeHat = "vee(hat(a)) = a";
inline const char* const kAlgebraLogExp = "algebra_log(algebra_exp(a)) = a";
inline const char* const kAlgebraExpLog = "algebra_exp(algebra_log(g)) = g";
inline const char* const kAdjoint = "adjoint(g)·a = vee(g·hat(a)·g⁻¹)";
inline const char* const kActionHomomorphism = "act(g·h, p) = act(g, act(h, p))";
inline const char* const kActionIdentity = "act(e, p) = p";
}  // namespace law

/// Options of the Lie group law check.
struct LieGroupLawOptions {
  /// Algebra vectors for algebra_log∘algebra_exp have norm uniform in [0, max_algebra_norm):
  /// inside the principal domain (rotation angles below π).
  double max_algebra_norm = 3.0;
};

/// Evaluates every LieGroup law on one random case per seed. Elements for algebra_exp∘algebra_log
/// are drawn as algebra_exp of a random algebra vector, so they lie in the identity component.
template <class G>
LawReport lie_group_laws(const G& group, const std::vector<std::uint64_t>& seeds, LieGroupLawOptions options = {}) {
  static_assert(is_matrix_group_v<G>, "lie_group_laws needs a matrix group (the group part of a LieGroup)");
  using T = typename G::Scalar;
  using Algebra = typename G::Algebra;
  using ActedPoint = typename G::ActedPoint;
  LawReport report;
  for (const std::uint64_t seed : seeds) {
    Rng rng(seed);
    const char* law = law::kAssociative;
    try {
      const auto g = group.random_point(rng);
      const auto h = group.random_point(rng);
      const auto k = group.random_point(rng);
      const auto e = group.identity();
      Algebra a = rng.normal_matrix<T>(group.dim(), 1);
      const T a_norm = a.norm();
      if (a_norm > 0) a *= rng.uniform<T>(T(0), static_cast<T>(options.max_algebra_norm)) / a_norm;
      const ActedPoint p = rng.normal_matrix<T>(group.acted_dim(), 1);

      law = law::kAssociative;
      report.record(law,
                    detail::relative_gap(group.compose(group.compose(g, h), k), group.compose(g, group.compose(h, k))),
                    seed);
      law = law::kIdentity;
      report.record(
          law, std::max(detail::relative_gap(group.compose(g, e), g), detail::relative_gap(group.compose(e, g), g)),
          seed);
      law = law::kInverse;
      report.record(law,
                    std::max(detail::relative_gap(group.compose(g, group.inverse(g)), e),
                             detail::relative_gap(group.compose(group.inverse(g), g), e)),
                    seed);
      law = law::kVeeHat;
      report.record(law, detail::relative_gap(group.vee(group.hat(a)), a), seed);
      law = law::kAlgebraLogExp;
      report.record(law, detail::relative_gap(group.algebra_log(group.algebra_exp(a)), a), seed);
      law = law::kAlgebraExpLog;
      const auto g0 = group.algebra_exp(Algebra(rng.normal_matrix<T>(group.dim(), 1)));
      report.record(law, detail::relative_gap(group.algebra_exp(group.algebra_log(g0)), g0), seed);
      law = law::kAdjoint;
      report.record(law, detail::relative_gap(group.adjoint(g) * a, group.vee(g * group.hat(a) * group.inverse(g))),
                    seed);
      law = law::kActionHomomorphism;
      report.record(law, detail::relative_gap(group.act(group.compose(g, h), p), group.act(g, group.act(h, p))), seed);
      law = law::kActionIdentity;
      report.record(law, detail::relative_gap(group.act(e, p), p), seed);
    } catch (const std::exception& error) {
      report.fail(law, seed, error.what());
    }
  }
  return report;
}

}  // namespace gyre::check
