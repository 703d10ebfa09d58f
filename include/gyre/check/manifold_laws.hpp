#pragma once
// gyre::check::manifold_laws: the Manifold laws of include/gyre/core/manifold.hpp evaluated on
// seeded random cases. Tests assert on its report; `gyre selfcheck` prints it; a user can run it on a
// geometry of their own.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <type_traits>
#include <utility>
#include <vector>

#include "gyre/check/law_report.hpp"
#include "gyre/core/manifold.hpp"
#include "gyre/core/rng.hpp"

namespace gyre::check {

namespace law {
inline const char* const kExpLog = "exp(x, log(x, y)) = y";
inline const char* const kLogExp = "log(x, exp(x, v)) = v";
inline const char* const kDistIsNormLog = "dist(x, y) = ‖log(x, y)‖";
inline const char* const kDistSymmetric = "dist(x, y) = dist(y, x)";
inline const char* const kTransportTangent = "transport lands in T_y";
inline const char* const kTransportIsometry = "transport keeps ⟨u, w⟩";
inline const char* const kTransportVelocity = "transport(x, y, log(x, y)) = −log(y, x)";
// Instead of the isometry and velocity laws, for a transport by projection (kTransportIsProjection):
inline const char* const kTransportIdentity = "transport(x, x, w) = w";
inline const char* const kTransportShrinks = "‖transport(x, y, w)‖ ≤ ‖w‖";
inline const char* const kRetractOnManifold = "retract(x, v) is a point";
inline const char* const kProjectIdempotent = "project(x, v) = v on T_x";
inline const char* const kRgradTangent = "egrad_to_rgrad(x, G) lies in T_x";
inline const char* const kRgradRepresents = "⟨egrad_to_rgrad(x, G), w⟩ₓ = ⟨G, w⟩";
}  // namespace law

/// Options of the law check.
struct ManifoldLawOptions {
  /// Tangent vectors for log∘exp are drawn with norm uniform in [0, max_tangent_norm). 0 means
  /// the default, min(0.9·injectivity_radius, 3): inside the injectivity radius, and short
  /// enough that exp stays well conditioned on spaces where it is a global diffeomorphism.
  double max_tangent_norm = 0;
};

// Optional flags a geometry may declare as static constexpr bool members (absent means false).
// They replace laws the geometry cannot obey by the ones it does; every other geometry is checked
// against the full list of gyre/core/manifold.hpp.
//   kTransportIsProjection  transport(x, y, v) is a vector transport by projection onto T_y, not
//                           parallel transport (Stiefel's embedded metric has no closed-form
//                           parallel transport). Checked instead of kTransportIsometry and
//                           kTransportVelocity: transport lands in T_y, transport(x, x, w) = w, and
//                           ‖transport(x, y, w)‖_y ≤ ‖w‖ₓ.
//   kLogIsLocal             log(x, y) and dist(x, y) are computed only for dist(x, y) <
//                           injectivity_radius() and throw beyond (a numerical log that cannot
//                           certify a longer geodesic as minimising, on a space whose diameter
//                           exceeds its injectivity radius: Stiefel). The far partner y of the
//                           exp∘log and dist laws is then drawn inside that ball.

/// Whether M declares that its transport is a projection (M::kTransportIsProjection).
template <class M, class = void>
struct transport_is_projection : std::false_type {};
template <class M>
struct transport_is_projection<M, std::void_t<decltype(M::kTransportIsProjection)>>
    : std::bool_constant<M::kTransportIsProjection> {};
template <class M>
inline constexpr bool transport_is_projection_v = transport_is_projection<M>::value;

/// Whether M declares that its log and dist are defined only inside the injectivity radius
/// (M::kLogIsLocal).
template <class M, class = void>
struct log_is_local : std::false_type {};
template <class M>
struct log_is_local<M, std::void_t<decltype(M::kLogIsLocal)>> : std::bool_constant<M::kLogIsLocal> {};
template <class M>
inline constexpr bool log_is_local_v = log_is_local<M>::value;

namespace detail {

// ‖a − b‖ relative to max(1, ‖b‖): absolute near 0, relative for large values.
template <class A, class B>
double relative_gap(const A& a, const B& b) {
  return static_cast<double>((a - b).norm()) / std::max(1.0, static_cast<double>(b.norm()));
}

// Whether M compares its points itself (spaces whose points are representatives of a class, such
// as Grassmann bases): point_gap(a, b) is then 0 exactly when a and b are the same point.
template <class M, class = void>
struct has_point_gap : std::false_type {};
template <class M>
struct has_point_gap<M, std::void_t<decltype(std::declval<const M&>().point_gap(
                            std::declval<const typename M::Point&>(), std::declval<const typename M::Point&>()))>>
    : std::true_type {};

// The gap between two points: M's own comparison where it has one, relative_gap otherwise.
template <class M>
double point_gap(const M& m, const typename M::Point& a, const typename M::Point& b) {
  if constexpr (has_point_gap<M>::value) {
    return static_cast<double>(m.point_gap(a, b)) / std::max(1.0, static_cast<double>(b.norm()));
  } else {
    return relative_gap(a, b);
  }
}

inline double relative_gap_scalar(double a, double b) { return std::abs(a - b) / std::max(1.0, std::abs(b)); }

template <class M>
typename M::Tangent tangent_with_norm_below(const M& m, const typename M::Point& x, double bound, Rng& rng) {
  using T = typename M::Scalar;
  typename M::Tangent v = m.random_tangent(x, rng);
  const T length = m.norm(x, v);
  const T target = rng.uniform<T>(T(0), static_cast<T>(bound));
  if (length > 0) v *= target / length;
  return v;
}

}  // namespace detail

/// Evaluates every Manifold law on one random case per seed.
template <class M>
LawReport manifold_laws(const M& m, const std::vector<std::uint64_t>& seeds, ManifoldLawOptions options = {}) {
  static_assert(is_manifold_v<M>, "manifold_laws needs a Manifold");
  const double bound = options.max_tangent_norm > 0 ? options.max_tangent_norm
                                                    : std::min(0.9 * static_cast<double>(m.injectivity_radius()), 3.0);
  LawReport report;
  for (const std::uint64_t seed : seeds) {
    Rng rng(seed);
    const char* law = law::kExpLog;
    try {
      const auto x = m.random_point(rng);
      const auto v = detail::tangent_with_norm_below(m, x, bound, rng);
      // y close enough to x for log to be well conditioned everywhere, also on spaces whose
      // random points may land near the cut locus.
      const auto y = m.exp(x, v);
      // A random partner in x's component: spaces with several components (O(n), E(2)) put
      // dist = +∞ between them, where log is undefined by design. Where log is defined only inside
      // the injectivity radius (kLogIsLocal), a random point of that ball around x instead.
      auto y_far = m.random_point(rng);
      if constexpr (log_is_local_v<M>) {
        y_far = m.exp(x, detail::tangent_with_norm_below(m, x, bound, rng));
      } else {
        for (int redraw = 0; redraw < 64 && !std::isfinite(static_cast<double>(m.dist(x, y_far))); ++redraw) {
          y_far = m.random_point(rng);
        }
      }
      const auto u = m.random_tangent(x, rng);
      const auto w = m.random_tangent(x, rng);

      law = law::kExpLog;
      report.record(law, detail::point_gap(m, m.exp(x, m.log(x, y_far)), y_far), seed);
      law = law::kLogExp;
      report.record(law, detail::relative_gap(m.log(x, y), v), seed);

      law = law::kDistIsNormLog;
      const double d = static_cast<double>(m.dist(x, y_far));
      report.record(law, detail::relative_gap_scalar(static_cast<double>(m.norm(x, m.log(x, y_far))), d), seed);
      law = law::kDistSymmetric;
      report.record(law, detail::relative_gap_scalar(static_cast<double>(m.dist(y_far, x)), d), seed);

      law = law::kTransportTangent;
      const auto pu = m.transport(x, y, u);
      const auto pw = m.transport(x, y, w);
      report.record(law, detail::relative_gap(m.project(y, pw), pw), seed);
      if constexpr (transport_is_projection_v<M>) {
        // A projection is neither an isometry nor parallel along the geodesic; it is the identity
        // on T_x and never lengthens a vector.
        law = law::kTransportIdentity;
        report.record(law, detail::relative_gap(m.transport(x, x, w), w), seed);
        law = law::kTransportShrinks;
        const double length = static_cast<double>(m.norm(x, w));
        report.record(law, std::max(0.0, static_cast<double>(m.norm(y, pw)) - length) / std::max(1.0, length), seed);
      } else {
        law = law::kTransportIsometry;
        const double scale = std::max(1.0, static_cast<double>(m.norm(x, u) * m.norm(x, w)));
        report.record(law, std::abs(static_cast<double>(m.inner(y, pu, pw) - m.inner(x, u, w))) / scale, seed);
        law = law::kTransportVelocity;
        report.record(law, detail::relative_gap(m.transport(x, y, m.log(x, y)), -m.log(y, x)), seed);
      }

      law = law::kRetractOnManifold;
      m.check_point(m.retract(x, v));
      report.record(law, 0.0, seed);
      law = law::kProjectIdempotent;
      report.record(law, detail::relative_gap(m.project(x, u), u), seed);

      // The Riemannian gradient represents the differential: for a Euclidean gradient G (any
      // ambient array), ⟨R, w⟩ₓ = ⟨G, w⟩_F on every tangent w. Scaled by ‖R‖ₓ·‖w‖ₓ, the size of
      // the products whose rounding the inner product carries.
      law = law::kRgradTangent;
      const typename M::Tangent g = rng.normal_matrix<typename M::Scalar>(u.rows(), u.cols());
      const auto r = m.egrad_to_rgrad(x, g);
      report.record(law, detail::relative_gap(m.project(x, r), r), seed);
      law = law::kRgradRepresents;
      const double rgrad_scale = std::max(1.0, static_cast<double>(m.norm(x, r) * m.norm(x, w)));
      report.record(law, std::abs(static_cast<double>(m.inner(x, r, w) - g.cwiseProduct(w).sum())) / rgrad_scale, seed);
    } catch (const std::exception& error) {
      report.fail(law, seed, error.what());
    }
  }
  return report;
}

}  // namespace gyre::check
