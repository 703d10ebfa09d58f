#pragma once
// ============================================================================================
//  The derivative of the affine-invariant Karcher mean on SPD(n), matrix-free: what LieBN-AIM,
//  GyroBN-AIM and SPDNetBN backpropagate through. The generic frechet_mean_vjp
//  (gyre/geometry/frechet_mean_vjp.hpp) assembles the Karcher condition's Jacobian column by
//  column, d·B log VJPs each with its own eigendecompositions (d = n(n+1)/2); here every
//  eigendecomposition is taken once and conjugate gradients need a handful of products.
// ============================================================================================
//  Implicit differentiation of Σ Log_M(Dᵢ) = 0. Whitened by W = M^-½ (Yᵢ = W·Dᵢ·W,
//  M' = M^½(I + δ)M^½), the Karcher condition's linearisation is
//    H[δ] = Σᵢ Dlog(Yᵢ)[W·dDᵢ·W],   H[δ] = ½·Σᵢ Dlog(Yᵢ)[δ·Yᵢ + Yᵢ·δ]
//  (the term ½(δ·Σ log Yᵢ + Σ log Yᵢ·δ) vanishes at the mean). In Yᵢ = U·Λ·Uᵀ's basis Hᵢ
//  multiplies entries by ½(λⱼ + λₖ)·log[λⱼ, λₖ] ≥ 1 (the logarithmic mean is at most the
//  arithmetic one), so H is self-adjoint with H ⪰ B·I and a condition number near the batch's
//  spread: conjugate gradients solve H[Λ] = G_δ, G_δ = M^½·sym(Ḡ)·M^½, in a few steps, and
//  ∂L/∂Dᵢ = W·Dlog(Yᵢ)[Λ]·W. Every (α, β) metric has the AIM's geodesics, hence its mean and this
//  derivative.
// ============================================================================================

#include <cstddef>
#include <utility>
#include <vector>

#include "gyre/linalg/symmetric_functions.hpp"
#include "spd_common.hpp"
#include "symmetric_conjugate_gradient.hpp"

namespace gyre::spd {

/// ∂L/∂Dᵢ of the affine-invariant Karcher mean m of `points`, from g = ∂L/∂m (header comment). The
/// caller has validated the points; m must be their converged mean (it is where H ⪰ B·I holds).
template <class T>
[[nodiscard]] std::vector<Matrix<T>> affine_invariant_mean_vjp(const std::vector<Matrix<T>>& points, const Matrix<T>& m,
                                                               const Matrix<T>& g) {
  using Point = Matrix<T>;
  const auto n = m.rows();
  const linalg::SymmetricEigen<T> em = linalg::symmetric_eigen<T>(m);
  const Point s = linalg::apply(em, linalg::Sqrt{});
  const Point w = linalg::apply(em, linalg::InverseSqrt{});
  std::vector<linalg::SymmetricEigen<T>> ey;
  std::vector<Point> kernel;  // ½(λⱼ + λₖ)·log[λⱼ, λₖ] per item
  ey.reserve(points.size());
  kernel.reserve(points.size());
  for (const Point& x : points) {
    ey.push_back(linalg::symmetric_eigen<T>(linalg::symmetric_part<T>(w * x * w)));
    Point k = linalg::divided_differences(ey.back(), linalg::Log{});
    for (Eigen::Index a = 0; a < n; ++a)
      for (Eigen::Index b = 0; b < n; ++b) k(a, b) *= (ey.back().values(a) + ey.back().values(b)) / 2;
    kernel.push_back(std::move(k));
  }
  const auto apply_h = [&](const Point& delta) {
    Point out = Point::Zero(n, n);
    for (std::size_t i = 0; i < points.size(); ++i) {
      const Point& u = ey[i].vectors;
      out += u * kernel[i].cwiseProduct(u.transpose() * delta * u) * u.transpose();
    }
    return linalg::symmetric_part<T>(out);
  };
  const Point rhs = linalg::symmetric_part<T>(s * linalg::symmetric_part<T>(g) * s);
  const Point lambda = symmetric_conjugate_gradient<T>("affine_invariant_mean_vjp", apply_h, rhs);
  std::vector<Point> grads;
  grads.reserve(points.size());
  for (std::size_t i = 0; i < points.size(); ++i)
    grads.push_back(linalg::symmetric_part<T>(w * linalg::frechet_derivative(ey[i], linalg::Log{}, lambda) * w));
  return grads;
}

}  // namespace gyre::spd
