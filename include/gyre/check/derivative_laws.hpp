#pragma once
// gyre::check::derivative_laws: the VJPs of gyre/core/derivatives.hpp against central finite
// differences taken along the manifold. Points move along geodesics x(t) = exp(x, tξ), tangent
// vectors along v(t) = project(x(t), v + tη), so every perturbed input is a valid input (a
// single-entry perturbation of a symmetric or orthonormal matrix is not). Per case and law the
// residual is |⟨G, f′⟩ − Σ⟨∂L/∂input, input′⟩| / max(1, |⟨G, f′⟩|), with a Gaussian cotangent G
// of the result's full storage shape (components the result cannot move in must not leak into
// the gradients). Derivatives along the curves are five-point central differences,
// [8(f(h/2) − f(−h/2)) − (f(h) − f(−h))]/(6h), which err by O(h⁴) + O(ε/h): about 1e-11 at the
// default h = 1e-3 in double, the only precision this check is meaningful in.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <vector>

#include "gyre/check/law_report.hpp"
#include "gyre/core/derivatives.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/manifold.hpp"
#include "gyre/core/rng.hpp"

namespace gyre::check {

namespace derivative_law {
inline const char* const kExpVjp = "exp_vjp = ∂exp along the manifold";
inline const char* const kLogVjp = "log_vjp = ∂log along the manifold";
inline const char* const kTransportVjp = "transport_vjp = ∂transport along the manifold";
}  // namespace derivative_law

/// Options: the finite-difference step, and the largest geodesic length between x and the other
/// point (log, transport) or of v (exp), as a fraction of the injectivity radius (capped at 2) —
/// or of `radius` where it is set (> 0): for spaces whose radius has no positive lower bound
/// (injectivity_radius() = 0: Bures–Wasserstein, SPD's Euclidean metric), a radius that holds at
/// every point random_point draws.
struct DerivativeLawOptions {
  double step = 1e-3;
  double reach = 0.5;
  double radius = 0;
};

namespace detail {

// ⟨a, b⟩ = Σ aᵢⱼ bᵢⱼ for any two Eigen objects of one shape.
template <class A, class B>
double pairing(const A& a, const B& b) {
  return static_cast<double>((a.array() * b.array()).sum());
}

// A Gaussian array of `like`'s shape.
template <class P>
P gaussian_like(const P& like, Rng& rng) {
  using T = typename P::Scalar;
  return P(rng.normal_matrix<T>(like.rows(), like.cols()));
}

// A random tangent at x of Riemannian length `length`.
template <class M>
typename M::Tangent tangent_of_length(const M& m, const typename M::Point& x, double length, Rng& rng) {
  using T = typename M::Scalar;
  const typename M::Tangent v = m.random_tangent(x, rng);
  return v * static_cast<T>(length / static_cast<double>(m.norm(x, v)));
}

inline double derivative_residual(double lhs, double rhs) { return std::abs(lhs - rhs) / std::max(1.0, std::abs(lhs)); }

}  // namespace detail

/// Evaluates the VJP laws M has (exp and log for has_exp_log_vjp_v, transport for
/// has_transport_vjp_v) on one random case per seed.
template <class M>
LawReport derivative_laws(const M& m, const std::vector<std::uint64_t>& seeds, DerivativeLawOptions options = {}) {
  static_assert(is_manifold_v<M>, "derivative_laws needs a Manifold");
  static_assert(has_exp_log_vjp_v<M> || has_transport_vjp_v<M>, "derivative_laws needs a space with VJPs");
  using T = typename M::Scalar;
  using Point = typename M::Point;
  using Tangent = typename M::Tangent;
  LawReport report;
  const double h = options.step;
  const double radius = options.radius > 0 ? options.radius : static_cast<double>(m.injectivity_radius());
  const double reach = options.reach * std::min(2.0, radius);
  if (!(reach > 0)) {
    throw DomainError("check::derivative_laws",
                      "needs a positive reach: the space's injectivity radius is 0, set options.radius (reach)", reach);
  }
  for (const std::uint64_t seed : seeds) {
    Rng rng(seed);
    const char* law = derivative_law::kExpVjp;
    try {
      const Point x = m.random_point(rng);
      const Tangent v = detail::tangent_of_length(m, x, rng.uniform<double>(0.05, 1.0) * reach, rng);
      const Point y = m.exp(x, detail::tangent_of_length(m, x, rng.uniform<double>(0.05, 1.0) * reach, rng));
      const Tangent xi = detail::tangent_of_length(m, x, 1.0, rng);
      const Tangent zeta = detail::tangent_of_length(m, y, 1.0, rng);
      const Tangent eta = detail::tangent_of_length(m, x, 1.0, rng);
      // The curves through the inputs, at t = ±h, and their velocities by central differences.
      const auto x_at = [&](double t) { return Point(m.exp(x, Tangent(xi * static_cast<T>(t)))); };
      const auto y_at = [&](double t) { return Point(m.exp(y, Tangent(zeta * static_cast<T>(t)))); };
      const auto v_at = [&](double t) { return Tangent(m.project(x_at(t), Tangent(v + eta * static_cast<T>(t)))); };
      // d/dt f(t) at 0 by the five-point rule, for f returning any Eigen object.
      const auto velocity = [&](const auto& f) {
        using Value = decltype(f(0.0));
        return Value((T(8) * Value(f(h / 2) - f(-h / 2)) - Value(f(h) - f(-h))) / static_cast<T>(6 * h));
      };
      const Point dx = velocity(x_at);
      const Point dy = velocity(y_at);
      const Tangent dv = velocity(v_at);

      if constexpr (has_exp_log_vjp_v<M>) {
        law = derivative_law::kExpVjp;
        const Point image = m.exp(x, v);
        const Point g = detail::gaussian_like(image, rng);
        const auto vjp = m.exp_vjp(x, v, g);
        const double lhs = detail::pairing(g, velocity([&](double t) { return Point(m.exp(x_at(t), v_at(t))); }));
        const double rhs = detail::pairing(vjp.x, dx) + detail::pairing(vjp.v, dv);
        report.record(law, detail::derivative_residual(lhs, rhs), seed);

        law = derivative_law::kLogVjp;
        const Tangent u = m.log(x, y);
        const Tangent gu = detail::gaussian_like(u, rng);
        const auto log_vjp = m.log_vjp(x, y, gu);
        const double log_lhs =
            detail::pairing(gu, velocity([&](double t) { return Tangent(m.log(x_at(t), y_at(t))); }));
        const double log_rhs = detail::pairing(log_vjp.x, dx) + detail::pairing(log_vjp.y, dy);
        report.record(law, detail::derivative_residual(log_lhs, log_rhs), seed);
      }
      if constexpr (has_transport_vjp_v<M>) {
        law = derivative_law::kTransportVjp;
        const Tangent moved = m.transport(x, y, v);
        const Tangent g = detail::gaussian_like(moved, rng);
        const auto vjp = m.transport_vjp(x, y, v, g);
        const double lhs =
            detail::pairing(g, velocity([&](double t) { return Tangent(m.transport(x_at(t), y_at(t), v_at(t))); }));
        const double rhs = detail::pairing(vjp.x, dx) + detail::pairing(vjp.y, dy) + detail::pairing(vjp.w, dv);
        report.record(law, detail::derivative_residual(lhs, rhs), seed);
      }
    } catch (const std::exception& error) {
      report.fail(law, seed, error.what());
    }
  }
  return report;
}

}  // namespace gyre::check
