#pragma once
// ============================================================================================
//  The Lie normalization interface: what LieBN (Chen et al., ICLR 2024) needs of a Lie group
//  with a left-invariant metric, written once so that gyre::nn::LieBatchNorm serves every model.
// ============================================================================================
//  LieBN normalises in DEFORMED coordinates D = φ(X) (LieBN's power / log / Cholesky
//  deformations, identity for SO(n)), where the group is (G, ⊙) with identity e and the metric is
//  left-invariant, so centring by the batch mean's inverse moves the batch without distorting it:
//    centre   Yᵢ = M⁻¹ ⊙ Dᵢ              M the Fréchet mean of the Dᵢ
//    variance v = (1/B)·Σ ‖log_e Yᵢ‖²    (B, not B − 1; the norm of the ORIGINAL metric at e)
//    scale    Sᵢ = exp_e(f·log_e Yᵢ),    f = s/√(v + ε), s the learnable standard deviation
//    bias     Zᵢ = φ(P) ⊙ Sᵢ             P the learnable bias, a point of the original space
//    output   φ⁻¹(Zᵢ)
//  Types    Scalar; Point (a matrix: original points, deformed points and algebra elements alike).
//  Members (all const, [[nodiscard]]); every *_vjp returns Euclidean gradients in storage
//  coordinates from the cotangent G of the result (gyre/core/group_derivatives.hpp's contract):
//    name()                          e.g. "SPD(3, LieBN-AIM, θ = 0.5)".
//    check_point(x)                  throws the space's error unless x is an original point.
//    deform(x), deform_vjp(x, G)     D = φ(x).
//    undeform(d), undeform_vjp(d, G) φ⁻¹.
//    identity()                      e, in deformed coordinates.
//    translate(b, d), translate_vjp(b, d, G)        b ⊙ d      → ComposeVjp{∂b, ∂d}
//    untranslate(m, d), untranslate_vjp(m, d, G)    m⁻¹ ⊙ d    → ComposeVjp{∂m, ∂d}
//    log_identity(d), log_identity_vjp(d, G)        log_e: deformed point → algebra element
//    exp_identity(a), exp_identity_vjp(a, G)        exp_e: algebra element → deformed point
//    squared_norm(a), squared_norm_gradient(a)      ‖a‖² at e in the original metric (LieBN's
//                                                   1/θ² for power deformations) and its gradient
//    geodesic(p, q, t)               the point at t on the geodesic p → q (running mean updates)
//    mean(d, options)                the Fréchet mean of deformed points → LieMean
//    mean_vjp(d, options, mean, G)   ∂L/∂dᵢ for every i from G = ∂L/∂mean: the implicit derivative
//                                    of the converged mean, or the unrolled one of the reference
//                                    iterations (whichever options.mode chose)
//  Optional (all or none; SPD under LEM and AIM, whose maps are spectral functions)
//    using Spectral                  a map's value kept with the eigensystem it came from
//    deform_spectral(x), undeform_spectral(d), log_identity_spectral(d), exp_identity_spectral(a)
//                                    the maps above, as Spectral
//    deform_vjp_spectral(k, G), …    their VJPs from the kept eigensystem: LieBatchNorm keeps one
//                                    per item and map from forward to backward instead of
//                                    decomposing every item again (half of LEM's eigensolves)
//  Laws (tests/nn/lie_batch_norm_test.cpp): log_e∘exp_e = id near 0; translate(m, untranslate(m,
//  d)) = d; ‖log_e(untranslate(m, d))‖ = dist(m, d); the mean makes Σ log_e(m⁻¹ ⊙ dᵢ) vanish;
//  every VJP against finite differences.
//  Models: SpdLogEuclideanNormalization, SpdLogCholeskyNormalization,
//  SpdAffineInvariantNormalization (geometries/spd/spd_normalization.hpp), SoNormalization
//  (geometries/so/so_normalization.hpp).
// ============================================================================================

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gyre/core/group_derivatives.hpp"
#include "gyre/core/manifold.hpp"

namespace gyre {

/// How LieBN's batch mean is computed.
enum class LieMeanMode {
  /// Karcher iterations until ‖(1/B)·Σ log_e(M⁻¹ ⊙ Dᵢ)‖ ≤ tolerance: the Fréchet mean (the default).
  kConverged,
  /// The reference code's: K iterations from its starting point, stopping early once that norm is
  /// ≤ its threshold (0.1 for SPD, 1e-4 for SO(n)); an approximation of the mean for K small.
  kReference,
};

/// The options of a LieBN mean.
template <class T>
struct LieMeanOptions {
  LieMeanMode mode = LieMeanMode::kConverged;
  /// kReference: the number K of Karcher steps (the reference's default 1).
  int karcher_steps = 1;
  /// kConverged: the stopping tolerance on ‖(1/B)·Σ log_e(M⁻¹ ⊙ Dᵢ)‖_F (0: 1000·ε of T).
  T tolerance = 0;
  /// kConverged: ConvergenceError after this many iterations.
  int max_iterations = 100;

  [[nodiscard]] T resolved_tolerance() const {
    return tolerance > 0 ? tolerance : T(1000) * std::numeric_limits<T>::epsilon();
  }
};

/// A LieBN mean: the point and the Karcher iterations it took (0 for a closed form).
template <class Point>
struct LieMean {
  Point point;
  int iterations = 0;
};

/// A Lie normalization structure (requirements above).
template <class S, class = void>
struct is_lie_normalization : std::false_type {};

template <class S>
struct is_lie_normalization<
    S,
    std::void_t<
        typename S::Scalar, typename S::Point, decltype(detail::cref<S>().name()),
        decltype(detail::cref<S>().deform(detail::arg<typename S::Point>())),
        decltype(detail::cref<S>().undeform(detail::arg<typename S::Point>())), decltype(detail::cref<S>().identity()),
        decltype(detail::cref<S>().translate(detail::arg<typename S::Point>(), detail::arg<typename S::Point>())),
        decltype(detail::cref<S>().untranslate(detail::arg<typename S::Point>(), detail::arg<typename S::Point>())),
        decltype(detail::cref<S>().log_identity(detail::arg<typename S::Point>())),
        decltype(detail::cref<S>().exp_identity(detail::arg<typename S::Point>())),
        decltype(detail::cref<S>().squared_norm(detail::arg<typename S::Point>())),
        decltype(detail::cref<S>().mean(std::declval<const std::vector<typename S::Point>&>(),
                                        std::declval<const LieMeanOptions<typename S::Scalar>&>()))>>
    : std::is_floating_point<typename S::Scalar> {};

template <class S>
inline constexpr bool is_lie_normalization_v = is_lie_normalization<S>::value;

}  // namespace gyre
