#pragma once
// gyre::check::group_derivative_laws: the group and gyro VJPs of gyre/core/group_derivatives.hpp
// against central finite differences taken along a manifold, in the manner of derivative_laws.hpp.
// The operations come from an `ops` object (the space itself, or a group that is not a manifold,
// such as the SPD Lie groups of LieBN); the curves through their inputs come from a manifold M
// with the same points: a(t) = exp(a, tξ), b(t) = exp(b, tζ) for random Riemannian-unit tangents,
// and r(t) = r + t for ⊗'s scalar, so every perturbed input is a valid input. Per case and law the
// residual is |⟨G, f′⟩ − Σ⟨∂L/∂input, input′⟩| / max(1, |⟨G, f′⟩|), with a Gaussian cotangent G
// of the result's full storage shape; derivatives along the curves are the five-point rule of
// derivative_laws.hpp (error O(h⁴) + O(ε/h), about 1e-11 at h = 1e-3 in double).
// Random points come from M::random_point; where ⊕ is defined only near the identity (the
// projected sphere κ > 0, the Grassmannian) they are pulled towards it as gyrogroup_laws.hpp
// does, by the space's gyro_law_shrink() unless options.shrink says otherwise.
#include <algorithm>
#include <cstdint>
#include <exception>
#include <optional>
#include <type_traits>
#include <vector>

#include "gyre/check/derivative_laws.hpp"
#include "gyre/check/gyrogroup_laws.hpp"
#include "gyre/check/law_report.hpp"
#include "gyre/core/group_derivatives.hpp"
#include "gyre/core/manifold.hpp"
#include "gyre/core/rng.hpp"

namespace gyre::check {

namespace group_derivative_law {
inline const char* const kComposeVjp = "compose_vjp = ∂compose along the manifold";
inline const char* const kInverseVjp = "inverse_vjp = ∂inverse along the manifold";
inline const char* const kGyroAddVjp = "gyro_add_vjp = ∂(a ⊕ b) along the manifold";
inline const char* const kGyroInverseVjp = "gyro_inverse_vjp = ∂(⊖a) along the manifold";
inline const char* const kGyroScaleVjp = "gyro_scale_vjp = ∂(r ⊗ a) along the manifold";
inline const char* const kGyroScaleScalarVjp = "gyro_scale_vjp = ∂(r ⊗ a)/∂r";
}  // namespace group_derivative_law

/// Options: the finite-difference step; `shrink` < 1 pulls the random points towards the identity
/// along geodesics (unset: the operations' gyro_law_shrink(), or 1); |r| < `scalars` for ⊗.
struct GroupDerivativeLawOptions {
  double step = 1e-3;
  std::optional<double> shrink;
  double scalars = 1.5;
};

namespace detail {

// The identity of the operations: the gyrogroup's where they are gyro operations.
template <class Ops>
auto identity_of(const Ops& ops) {
  if constexpr (has_gyro_vjp_v<Ops>) {
    return ops.gyro_identity();
  } else {
    return ops.identity();
  }
}

// d/dt f(t) at 0 by the five-point rule, for f returning a concrete Eigen object.
template <class F>
auto five_point_velocity(const F& f, double h) {
  using Value = decltype(f(0.0));
  using T = typename Value::Scalar;
  return Value((T(8) * Value(f(h / 2) - f(-h / 2)) - Value(f(h) - f(-h))) / static_cast<T>(6 * h));
}

}  // namespace detail

/// Evaluates the VJP laws `ops` has (compose and inverse for has_group_vjp_v, ⊕, ⊖ and ⊗ for
/// has_gyro_vjp_v) on one random case per seed, with points and curves from the manifold m.
template <class M, class Ops>
LawReport group_derivative_laws(const M& m, const Ops& ops, const std::vector<std::uint64_t>& seeds,
                                GroupDerivativeLawOptions options = {}) {
  static_assert(is_manifold_v<M>, "group_derivative_laws needs a Manifold for its curves");
  static_assert(has_group_vjp_v<Ops> || has_gyro_vjp_v<Ops>, "group_derivative_laws needs group or gyro VJPs");
  static_assert(std::is_same_v<typename M::Point, typename Ops::Point>, "the manifold and the operations share points");
  using T = typename M::Scalar;
  using Point = typename M::Point;
  using Tangent = typename M::Tangent;
  LawReport report;
  const double h = options.step;
  double shrink = 1;
  if (options.shrink) {
    shrink = *options.shrink;
  } else if constexpr (has_gyro_vjp_v<Ops>) {
    shrink = gyro_law_shrink_of<Ops>::get(ops);
  }
  const auto draw = [&](Rng& rng) {
    const Point p = m.random_point(rng);
    if (shrink == 1) return p;
    const Point e = detail::identity_of(ops);
    return Point(m.exp(e, Tangent(m.log(e, p) * static_cast<T>(shrink))));
  };
  const auto velocity = [h](const auto& f) { return detail::five_point_velocity(f, h); };
  for (const std::uint64_t seed : seeds) {
    Rng rng(seed);
    const char* law = has_group_vjp_v<Ops> ? group_derivative_law::kComposeVjp : group_derivative_law::kGyroAddVjp;
    try {
      const Point a = draw(rng);
      const Point b = draw(rng);
      const Tangent xi = detail::tangent_of_length(m, a, 1.0, rng);
      const Tangent zeta = detail::tangent_of_length(m, b, 1.0, rng);
      const T r = rng.uniform<T>(static_cast<T>(-options.scalars), static_cast<T>(options.scalars));
      const auto a_at = [&](double t) { return Point(m.exp(a, Tangent(xi * static_cast<T>(t)))); };
      const auto b_at = [&](double t) { return Point(m.exp(b, Tangent(zeta * static_cast<T>(t)))); };
      const Point da = velocity(a_at);
      const Point db = velocity(b_at);
      // One law per operation: ⟨G, f′⟩ against the pairing of its VJP with the inputs' velocities.
      const auto record = [&](double lhs, double rhs) {
        report.record(law, detail::derivative_residual(lhs, rhs), seed);
      };
      const auto binary_law = [&](const char* name, const auto& op, const auto& op_vjp) {
        law = name;
        const Point g = detail::gaussian_like(Point(op(a, b)), rng);
        const auto vjp = op_vjp(a, b, g);
        record(detail::pairing(g, velocity([&](double t) { return Point(op(a_at(t), b_at(t))); })),
               detail::pairing(vjp.a, da) + detail::pairing(vjp.b, db));
      };
      const auto unary_law = [&](const char* name, const auto& op, const auto& op_vjp) {
        law = name;
        const Point g = detail::gaussian_like(Point(op(a)), rng);
        record(detail::pairing(g, velocity([&](double t) { return Point(op(a_at(t))); })),
               detail::pairing(op_vjp(a, g), da));
      };

      if constexpr (has_group_vjp_v<Ops>) {
        binary_law(
            group_derivative_law::kComposeVjp, [&](const Point& x, const Point& y) { return ops.compose(x, y); },
            [&](const Point& x, const Point& y, const Point& g) { return ops.compose_vjp(x, y, g); });
        unary_law(
            group_derivative_law::kInverseVjp, [&](const Point& x) { return ops.inverse(x); },
            [&](const Point& x, const Point& g) { return ops.inverse_vjp(x, g); });
      }
      if constexpr (has_gyro_vjp_v<Ops>) {
        binary_law(
            group_derivative_law::kGyroAddVjp, [&](const Point& x, const Point& y) { return ops.gyro_add(x, y); },
            [&](const Point& x, const Point& y, const Point& g) { return ops.gyro_add_vjp(x, y, g); });
        unary_law(
            group_derivative_law::kGyroInverseVjp, [&](const Point& x) { return ops.gyro_inverse(x); },
            [&](const Point& x, const Point& g) { return ops.gyro_inverse_vjp(x, g); });

        law = group_derivative_law::kGyroScaleVjp;
        const Point g = detail::gaussian_like(Point(ops.gyro_scale(r, a)), rng);
        const auto vjp = ops.gyro_scale_vjp(r, a, g);
        record(detail::pairing(g, velocity([&](double t) { return Point(ops.gyro_scale(r, a_at(t))); })),
               detail::pairing(vjp.a, da));
        law = group_derivative_law::kGyroScaleScalarVjp;
        record(detail::pairing(g, velocity([&](double t) { return Point(ops.gyro_scale(r + static_cast<T>(t), a)); })),
               static_cast<double>(vjp.r));
      }
    } catch (const std::exception& error) {
      report.fail(law, seed, error.what());
    }
  }
  return report;
}

/// The same, for a manifold that carries its own operations.
template <class M>
LawReport group_derivative_laws(const M& m, const std::vector<std::uint64_t>& seeds,
                                GroupDerivativeLawOptions options = {}) {
  return group_derivative_laws(m, m, seeds, options);
}

}  // namespace gyre::check
