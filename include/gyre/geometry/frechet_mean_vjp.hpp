#pragma once
// ============================================================================================
//  The derivative of the Fréchet mean, for any manifold with log (and exp) VJPs
//  (gyre/core/derivatives.hpp): what a layer that centres a batch at its mean (GyroBN, RBN)
//  backpropagates through.
// ============================================================================================
//  Converged mean (implicit differentiation). The Karcher mean M of x₁ … x_B solves
//    F(M, x) = Σᵢ log_M(xᵢ) = 0,
//  F(M) ∈ T_M for every M, so at a zero dF lies in T_M too: J·dM = −Σᵢ Kᵢ·dxᵢ with J = ∂F/∂M : T_M →
//  T_M and Kᵢ = ∂F/∂xᵢ. For the cotangent G = ∂L/∂M, solve Jᵀ·λ = G on T_M and
//    ∂L/∂xᵢ = −Kᵢᵀ·λ = −log_vjp(M, xᵢ, λ).y.
//  J is assembled in an orthonormal (Frobenius) basis t₁ … t_d of T_M, from the ambient basis
//  projected onto T_M and Gram–Schmidt'd: Aⱼₖ = ⟨tⱼ, J·tₖ⟩ = ⟨Σᵢ log_vjp(M, xᵢ, tⱼ).x, tₖ⟩, then
//  Aᵀ·l = (⟨G, tₖ⟩)ₖ and λ = Σⱼ lⱼ·tⱼ. Cost: d·B log VJPs and one d×d solve (d = dim M). J is
//  invertible where the mean is a non-degenerate minimum (always on Hadamard manifolds; inside the
//  convexity radius on positively curved ones); a singular J is a DomainError.
//  Unrolled mean (K Karcher steps from x₁, the GyroBN reference's): Mₖ₊₁ = exp(Mₖ, Vₖ),
//  Vₖ = (1/B)·Σᵢ log_Mₖ(xᵢ); its VJP runs exp_vjp and log_vjp backwards through the recorded steps.
// ============================================================================================

#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include <Eigen/LU>

#include "gyre/core/checks.hpp"
#include "gyre/core/derivatives.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/manifold.hpp"

namespace gyre {

/// An orthonormal (Frobenius) basis of T_x, from the ambient basis projected onto T_x.
template <class M>
[[nodiscard]] std::vector<typename M::Tangent> tangent_basis(const M& space, const typename M::Point& x) {
  using Tangent = typename M::Tangent;
  using T = typename M::Scalar;
  std::vector<Tangent> basis;
  const auto d = static_cast<std::size_t>(space.dim());
  const Eigen::Index size = x.size();
  const T keep = std::sqrt(std::numeric_limits<T>::epsilon());
  for (Eigen::Index k = 0; k < size && basis.size() < d; ++k) {
    Tangent e = Tangent::Zero(x.rows(), x.cols());
    e.data()[k] = T(1);
    Tangent t = space.project(x, e);
    for (int pass = 0; pass < 2; ++pass)  // twice: classical Gram–Schmidt loses orthogonality once
      for (const Tangent& b : basis) t -= b.cwiseProduct(t).sum() * b;
    const T norm = t.norm();
    if (norm > keep) basis.push_back(t / norm);
  }
  if (basis.size() != d) {
    throw DomainError("tangent_basis", "projections of the ambient basis do not span T_x (found)",
                      static_cast<double>(basis.size()));
  }
  return basis;
}

namespace detail {

/// Spaces with a cut locus (Grassmann, the positively curved stereographic model) have `in_double()`:
/// the same geometry over double, in which frechet_mean_vjp assembles the Jacobian of float batches.
template <class M, class = void>
struct has_double_twin : std::false_type {};
template <class M>
struct has_double_twin<M, std::void_t<decltype(std::declval<const M&>().in_double())>> : std::true_type {};

/// Spaces whose own member computes the mean's derivative (cheaper than the assembled Jacobian).
template <class M, class = void>
struct has_own_mean_vjp : std::false_type {};
template <class M>
struct has_own_mean_vjp<
    M, std::void_t<decltype(std::declval<const M&>().frechet_mean_vjp(
           std::declval<const typename M::Point&>(), std::declval<const std::vector<typename M::Point>&>(),
           std::declval<const typename M::Point&>()))>> : std::true_type {};

}  // namespace detail

/// ∂L/∂xᵢ of the converged Fréchet mean m of `points`, from G = ∂L/∂m (implicit derivative), by the
/// assembled Jacobian whatever the space offers (the reference the spaces' own derivatives are tested by).
template <class M>
[[nodiscard]] std::vector<typename M::Point> frechet_mean_vjp_assembled(const M& space, const typename M::Point& mean,
                                                                        const std::vector<typename M::Point>& points,
                                                                        const typename M::Point& g) {
  static_assert(has_exp_log_vjp_v<M>, "frechet_mean_vjp needs a Manifold with log_vjp");
  using T = typename M::Scalar;
  using Point = typename M::Point;
  using Tangent = typename M::Tangent;
  if constexpr (std::is_same_v<T, float> && detail::has_double_twin<M>::value) {
    // A point near the mean's cut locus (a principal angle near π/2 on Gr(n, p)) has a log VJP of
    // 1e9–1e14 in the directions that turn its geodesic; float rounding of that term alone (1e7)
    // swamps the O(B) Jacobian the other points give, and the solve finds it singular (GrNet with
    // GyroBN in float stopped so: rank 5 of 32). In double the rounding stays below 1, and the
    // huge direction only pins λ to zero there, which is the exact limit. The points were checked
    // in float; double-precision checks would reject their float rounding, hence ChecksOff.
    const auto wide = space.in_double();
    using WidePoint = typename std::decay_t<decltype(wide)>::Point;
    const ChecksOff validated_in_float;
    std::vector<WidePoint> wide_points;
    wide_points.reserve(points.size());
    for (const Point& x : points) wide_points.push_back(x.template cast<double>());
    const std::vector<WidePoint> wide_grads = frechet_mean_vjp_assembled(
        wide, WidePoint(mean.template cast<double>()), wide_points, WidePoint(g.template cast<double>()));
    std::vector<Point> grads;
    grads.reserve(points.size());
    for (const WidePoint& w : wide_grads) grads.push_back(w.template cast<float>());
    return grads;
  }
  const std::vector<Tangent> basis = tangent_basis(space, mean);
  const auto d = static_cast<Eigen::Index>(basis.size());
  Matrix<T> a(d, d);
  for (Eigen::Index j = 0; j < d; ++j) {
    Point adjoint = Point::Zero(mean.rows(), mean.cols());
    for (const Point& x : points) adjoint += space.log_vjp(mean, x, basis[static_cast<std::size_t>(j)]).x;
    for (Eigen::Index k = 0; k < d; ++k) a(j, k) = adjoint.cwiseProduct(basis[static_cast<std::size_t>(k)]).sum();
  }
  Vector<T> rhs(d);
  for (Eigen::Index k = 0; k < d; ++k) rhs(k) = g.cwiseProduct(basis[static_cast<std::size_t>(k)]).sum();
  const Eigen::FullPivLU<Matrix<T>> lu(a.transpose());
  if (!lu.isInvertible()) {
    throw DomainError("frechet_mean_vjp", "the Karcher condition's Jacobian is singular at the mean (rank)",
                      static_cast<double>(lu.rank()));
  }
  const Vector<T> l = lu.solve(rhs);
  Tangent lambda = Tangent::Zero(mean.rows(), mean.cols());
  for (Eigen::Index j = 0; j < d; ++j) lambda += l(j) * basis[static_cast<std::size_t>(j)];
  std::vector<Point> grads;
  grads.reserve(points.size());
  for (const Point& x : points) grads.push_back(-space.log_vjp(mean, x, lambda).y);
  return grads;
}

/// ∂L/∂xᵢ of the converged Fréchet mean m of `points`, from G = ∂L/∂m (implicit derivative): the
/// space's own frechet_mean_vjp where it has one, the assembled Jacobian otherwise.
template <class M>
[[nodiscard]] std::vector<typename M::Point> frechet_mean_vjp(const M& space, const typename M::Point& mean,
                                                              const std::vector<typename M::Point>& points,
                                                              const typename M::Point& g) {
  if constexpr (detail::has_own_mean_vjp<M>::value) {
    return space.frechet_mean_vjp(mean, points, g);
  } else {
    return frechet_mean_vjp_assembled(space, mean, points, g);
  }
}

/// K Karcher steps from points[0] (no stopping test): the GyroBN reference's batch mean.
template <class M>
[[nodiscard]] typename M::Point karcher_steps(const M& space, const std::vector<typename M::Point>& points, int steps) {
  using T = typename M::Scalar;
  typename M::Point m = points.front();
  for (int k = 0; k < steps; ++k) {
    typename M::Tangent v = space.log(m, points.front());
    for (std::size_t i = 1; i < points.size(); ++i) v += space.log(m, points[i]);
    m = space.exp(m, v / static_cast<T>(points.size()));
  }
  return m;
}

/// ∂L/∂xᵢ of karcher_steps(space, points, steps) from G = ∂L/∂result (the steps recomputed).
template <class M>
[[nodiscard]] std::vector<typename M::Point> karcher_steps_vjp(const M& space,
                                                               const std::vector<typename M::Point>& points, int steps,
                                                               const typename M::Point& g) {
  static_assert(has_exp_log_vjp_v<M>, "karcher_steps_vjp needs a Manifold with exp_vjp and log_vjp");
  using T = typename M::Scalar;
  using Point = typename M::Point;
  using Tangent = typename M::Tangent;
  const T batch = static_cast<T>(points.size());
  std::vector<Point> iterates{points.front()};
  std::vector<Tangent> moves;
  for (int k = 0; k < steps; ++k) {
    Tangent v = space.log(iterates.back(), points.front());
    for (std::size_t i = 1; i < points.size(); ++i) v += space.log(iterates.back(), points[i]);
    moves.push_back(v / batch);
    iterates.push_back(space.exp(iterates.back(), moves.back()));
  }
  std::vector<Point> grads(points.size(), Point::Zero(g.rows(), g.cols()));
  Point grad_m = g;
  for (int k = steps; k-- > 0;) {
    const auto ku = static_cast<std::size_t>(k);
    const ExpVjp<Point, Tangent> step = space.exp_vjp(iterates[ku], moves[ku], grad_m);
    Point next = step.x;
    const Tangent grad_log = step.v / batch;
    for (std::size_t i = 0; i < points.size(); ++i) {
      const LogVjp<Point> back = space.log_vjp(iterates[ku], points[i], grad_log);
      next += back.x;
      grads[i] += back.y;
    }
    grad_m = next;
  }
  grads.front() += grad_m;
  return grads;
}

}  // namespace gyre
