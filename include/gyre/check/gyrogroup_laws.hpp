#pragma once
// The gyrogroup laws (gyre/core/gyrogroup.hpp) on seeded random triples, for gyrogroups that are
// also Manifolds (random points from random_point, distances from dist). Residuals are the
// point gaps of manifold_laws (relative to max(1, ‖·‖)), and |Δd|/max(1, d) for isometries.
#include <cmath>
#include <cstdint>
#include <exception>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "gyre/check/law_report.hpp"
#include "gyre/check/manifold_laws.hpp"
#include "gyre/core/gyrogroup.hpp"

namespace gyre::check {

namespace gyro_law {
inline const char* const kLeftIdentity = "e ⊕ a = a";
inline const char* const kLeftInverse = "⊖a ⊕ a = e";
inline const char* const kGyroassociativity = "a ⊕ (b ⊕ c) = (a ⊕ b) ⊕ gyr[a, b]c";
inline const char* const kGyrationIsDefect = "gyr[a, b]c = ⊖(a ⊕ b) ⊕ (a ⊕ (b ⊕ c))";
inline const char* const kAutomorphism = "gyr[a, b](c ⊕ d) = gyr[a, b]c ⊕ gyr[a, b]d";
inline const char* const kLoop = "gyr[a ⊕ b, b] = gyr[a, b]";
inline const char* const kLeftCancellation = "⊖a ⊕ (a ⊕ b) = b";
inline const char* const kGyroisometric = "d(gyr[a, b]c, gyr[a, b]d) = d(c, d)";
inline const char* const kPseudoReduction = "gyr[⊖a, a]c = gyr[a, ⊖a]c = c";
inline const char* const kTranslationIsometry = "d(a ⊕ c, a ⊕ d) = d(c, d)";
inline const char* const kScalarOne = "1 ⊗ a = a";
inline const char* const kScalarDistributive = "(r + s) ⊗ a = r ⊗ a ⊕ s ⊗ a";
inline const char* const kScalarAssociative = "r ⊗ (s ⊗ a) = (rs) ⊗ a";
}  // namespace gyro_law

/// Options: random points are drawn from random_point; `shrink` < 1 pulls them towards the
/// identity along geodesics (for spaces where far points leave the domain of ⊕, e.g. the sphere's
/// antipodes; unset: the space's gyro_law_shrink(), or 1), and `scalars` bounds |r|, |s| of the
/// scalar laws.
struct GyrogroupLawOptions {
  std::optional<double> shrink;
  double scalars = 1.5;
};

/// The space's own shrink factor (gyre/core/gyrogroup.hpp), 1 where it declares none.
template <class G, class = void>
struct gyro_law_shrink_of {
  static double get(const G&) { return 1.0; }
};
template <class G>
struct gyro_law_shrink_of<G, std::void_t<decltype(std::declval<const G&>().gyro_law_shrink())>> {
  static double get(const G& g) { return static_cast<double>(g.gyro_law_shrink()); }
};

/// Evaluates every gyrogroup law on one random case per seed.
template <class G>
LawReport gyrogroup_laws(const G& g, const std::vector<std::uint64_t>& seeds, GyrogroupLawOptions options = {}) {
  static_assert(is_gyrogroup_v<G> && is_manifold_v<G>, "gyrogroup_laws needs a gyrogroup that is a Manifold");
  using T = typename G::Scalar;
  using Point = typename G::Point;
  LawReport report;
  const Point e = g.gyro_identity();
  const double shrink = options.shrink ? *options.shrink : gyro_law_shrink_of<G>::get(g);
  const auto draw = [&](Rng& rng) {
    const Point p = g.random_point(rng);
    if (shrink == 1) return p;
    return g.exp(e, Point(g.log(e, p) * static_cast<T>(shrink)));
  };
  const auto gap = [&](const Point& a, const Point& b) { return detail::point_gap(g, a, b); };
  for (const std::uint64_t seed : seeds) {
    Rng rng(seed);
    const char* law = gyro_law::kLeftIdentity;
    try {
      const Point a = draw(rng);
      const Point b = draw(rng);
      const Point c = draw(rng);
      const Point d = draw(rng);
      const T r = rng.uniform<T>(static_cast<T>(-options.scalars), static_cast<T>(options.scalars));
      const T s = rng.uniform<T>(static_cast<T>(-options.scalars), static_cast<T>(options.scalars));
      const Point ab = g.gyro_add(a, b);

      law = gyro_law::kLeftIdentity;
      report.record(law, gap(g.gyro_add(e, a), a), seed);
      law = gyro_law::kLeftInverse;
      report.record(law, gap(g.gyro_add(g.gyro_inverse(a), a), e), seed);
      law = gyro_law::kGyroassociativity;
      const Point gyr_c = g.gyration(a, b, c);
      report.record(law, gap(g.gyro_add(a, g.gyro_add(b, c)), g.gyro_add(ab, gyr_c)), seed);
      law = gyro_law::kGyrationIsDefect;
      report.record(law, gap(gyr_c, g.gyro_add(g.gyro_inverse(ab), g.gyro_add(a, g.gyro_add(b, c)))), seed);
      law = gyro_law::kAutomorphism;
      report.record(law, gap(g.gyration(a, b, g.gyro_add(c, d)), g.gyro_add(gyr_c, g.gyration(a, b, d))), seed);
      law = gyro_law::kLoop;
      report.record(law, gap(g.gyration(ab, b, c), gyr_c), seed);
      law = gyro_law::kLeftCancellation;
      report.record(law, gap(g.gyro_add(g.gyro_inverse(a), ab), b), seed);
      law = gyro_law::kGyroisometric;
      const double dcd = static_cast<double>(g.dist(c, d));
      report.record(law, std::abs(static_cast<double>(g.dist(gyr_c, g.gyration(a, b, d))) - dcd) / std::max(1.0, dcd),
                    seed);
      law = gyro_law::kPseudoReduction;
      const Point minus_a = g.gyro_inverse(a);
      report.record(law, std::max(gap(g.gyration(minus_a, a, c), c), gap(g.gyration(a, minus_a, c), c)), seed);
      law = gyro_law::kTranslationIsometry;
      report.record(
          law, std::abs(static_cast<double>(g.dist(g.gyro_add(a, c), g.gyro_add(a, d))) - dcd) / std::max(1.0, dcd),
          seed);
      law = gyro_law::kScalarOne;
      report.record(law, gap(g.gyro_scale(T(1), a), a), seed);
      law = gyro_law::kScalarDistributive;
      report.record(law, gap(g.gyro_scale(r + s, a), g.gyro_add(g.gyro_scale(r, a), g.gyro_scale(s, a))), seed);
      law = gyro_law::kScalarAssociative;
      report.record(law, gap(g.gyro_scale(r, g.gyro_scale(s, a)), g.gyro_scale(r * s, a)), seed);
    } catch (const std::exception& error) {
      report.fail(law, seed, error.what());
    }
  }
  return report;
}

}  // namespace gyre::check
