#pragma once
// The Riemannian gradient of any geometry from its metric alone, by solving the defining equation
//
//     ⟨R, W⟩ₓ = ⟨G, W⟩_F   for every W ∈ T_x        (G the Euclidean gradient, R ∈ T_x)
//
// on a spanning set of T_x: the projections Pₖ = project(x, Eₖ) of the ambient unit matrices. With
// R = Σ cₖPₖ the equation reads M·c = b, Mₖₗ = ⟨Pₖ, Pₗ⟩ₓ, bₖ = ⟨G, Pₖ⟩_F; M is positive
// semidefinite of rank dim(), and every solution c gives the same R, so a rank-revealing
// least-squares solve returns it. Cost O(N³) for N ambient entries: this is the reference that
// every geometry's closed-form egrad_to_rgrad is tested against, and the implementation for a
// geometry whose metric has no convenient closed form (the correlation manifold).

#include <Eigen/Dense>

#include "gyre/core/error.hpp"

namespace gyre {

/// R ∈ T_x with ⟨R, W⟩ₓ = ⟨G, W⟩_F for all W ∈ T_x (see the header comment). `space` needs project
/// and inner; checks of x and G are the caller's.
template <class M>
[[nodiscard]] typename M::Tangent riemannian_gradient_from_metric(const M& space, const typename M::Point& x,
                                                                  const typename M::Tangent& g) {
  using T = typename M::Scalar;
  using Tangent = typename M::Tangent;
  const Eigen::Index entries = g.size();
  std::vector<Tangent> span;
  span.reserve(static_cast<std::size_t>(entries));
  for (Eigen::Index k = 0; k < entries; ++k) {
    Tangent unit = Tangent::Zero(g.rows(), g.cols());
    unit(k / g.cols(), k % g.cols()) = T(1);
    span.push_back(space.project(x, unit));
  }
  Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic> gram(entries, entries);
  Eigen::Matrix<T, Eigen::Dynamic, 1> rhs(entries);
  for (Eigen::Index k = 0; k < entries; ++k) {
    rhs(k) = g.cwiseProduct(span[static_cast<std::size_t>(k)]).sum();
    for (Eigen::Index l = 0; l <= k; ++l) {
      gram(k, l) = gram(l, k) = space.inner(x, span[static_cast<std::size_t>(k)], span[static_cast<std::size_t>(l)]);
    }
  }
  const Eigen::Matrix<T, Eigen::Dynamic, 1> c = gram.completeOrthogonalDecomposition().solve(rhs);
  Tangent r = Tangent::Zero(g.rows(), g.cols());
  for (Eigen::Index k = 0; k < entries; ++k) r += c(k) * span[static_cast<std::size_t>(k)];
  return space.project(x, r);  // rounding may leave a normal part of relative size ε·cond(M)
}

}  // namespace gyre
