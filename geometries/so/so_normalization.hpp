#pragma once
// ============================================================================================
//  LieBN's structure on SO(n) (gyre/core/lie_normalization.hpp): no deformation, the matrix
//  product as the group, log_e = logm, exp_e = expm and Gyre's bi-invariant metric ½·tr(AᵀB), so
//  the variance is Gyre's Fréchet variance, (1/B)·Σ ½‖logm(Mᵀ·Xᵢ)‖_F². The reference code
//  (GitZH-Chen/LieBN, Geometry/Rotations/RotMatrices.py) sums ‖logm‖_F² without the ½: its
//  variance is twice Gyre's for the same batch, which changes the learned scale's meaning, not
//  what the layer can express.
// ============================================================================================
//  Mean   the Karcher iteration Mₖ₊₁ = Mₖ·expm(Gₖ), Gₖ = (1/B)·Σ logm(Mₖᵀ·Xᵢ), from the batch's
//         first item (the reference's start). kConverged stops once ‖Gₖ‖_F ≤ the tolerance
//         (ConvergenceError after max_iterations); kReference after at most K steps or once
//         ‖Gₖ‖_F ≤ 1e-4, as the reference does. A batch spread beyond the convexity radius π/2 can
//         have several Karcher means; the iteration returns the one it reaches.
//  mean_vjp, converged: implicit differentiation of Φ = Σ logm(Mᵀ·Xᵢ) = 0 with M' = M·expm(δ):
//           H[δ] = Σᵢ Jᵢ[Mᵀ·dXᵢ],   H[δ] = Σᵢ Jᵢ[δ·Yᵢ],   Jᵢ = Dlogm(Yᵢ), Yᵢ = Mᵀ·Xᵢ.
//         H is assembled in the orthonormal hat basis from its adjoint Hᵀ[Λ] = Σᵢ skew(Jᵢ*[Λ]·Yᵢᵀ)
//         (dim SO(n) columns, LU-solved), Λ = H⁻ᵀ[skew(Mᵀ·Ḡ)] and ∂L/∂Xᵢ = M·Jᵢ*[Λ]; Jᵢ* is the VJP of
//         the principal logarithm (linalg::expm_derivative_adjoint_inverse).
//  mean_vjp, reference: the chain rule through the steps taken: M̄ₖ = M̄·Eᵀ + Σᵢ Xᵢ·Ȳᵢᵀ with
//         E = expm(Gₖ), Ḡ = skew(Dexp(Gₖ)*[Mₖᵀ·M̄]), Ȳᵢ = Jᵢ*[Ḡ]/B, X̄ᵢ += Mₖ·Ȳᵢ; M₀ = X₀ adds M̄₀ to X̄₀.
// ============================================================================================

#include <string>
#include <vector>

#include <Eigen/LU>

#include "gyre/core/checks.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/group_derivatives.hpp"
#include "gyre/core/lie_normalization.hpp"
#include "gyre/linalg/skew_functions.hpp"
#include "so.hpp"
#include "so_detail.hpp"

namespace gyre {

/// LieBN's structure on SO(n) (header comment).
template <class T>
struct SoNormalization {
  using Scalar = T;
  using Point = Matrix<T>;

  explicit SoNormalization(int size) : n(size), group(size) {}

  int n;
  SO<T> group;

  [[nodiscard]] std::string name() const { return "SO(" + std::to_string(n) + ", LieBN)"; }
  void check_point(const Point& x) const { group.check_point(x); }

  [[nodiscard]] Point deform(const Point& x) const {
    if (checks_enabled()) check_point(x);
    return x;
  }
  [[nodiscard]] Point deform_vjp(const Point&, const Point& g) const { return g; }
  [[nodiscard]] Point undeform(const Point& d) const { return d; }
  [[nodiscard]] Point undeform_vjp(const Point&, const Point& g) const { return g; }

  [[nodiscard]] Point identity() const { return Point::Identity(n, n); }
  [[nodiscard]] Point translate(const Point& b, const Point& d) const { return so_detail::reorthonormalise<T>(b * d); }
  [[nodiscard]] ComposeVjp<Point> translate_vjp(const Point& b, const Point& d, const Point& g) const {
    return {g * d.transpose(), b.transpose() * g};
  }
  [[nodiscard]] Point untranslate(const Point& m, const Point& d) const {
    return so_detail::reorthonormalise<T>(m.transpose() * d);
  }
  [[nodiscard]] ComposeVjp<Point> untranslate_vjp(const Point& m, const Point& d, const Point& g) const {
    return {d * g.transpose(), m * g};
  }
  [[nodiscard]] Point log_identity(const Point& d) const { return so_detail::logm_rotation<T>(d); }
  [[nodiscard]] Point log_identity_vjp(const Point& d, const Point& g) const {
    return log_adjoint(so_detail::logm_rotation<T>(d), g);
  }
  [[nodiscard]] Point exp_identity(const Point& a) const { return so_detail::expm_skew<T>(a); }
  [[nodiscard]] Point exp_identity_vjp(const Point& a, const Point& g) const {
    return so_detail::skew<T>(linalg::expm_derivative_adjoint(linalg::SkewSpectrum<T>(a), g));
  }

  [[nodiscard]] T squared_norm(const Point& a) const { return a.squaredNorm() / 2; }
  [[nodiscard]] Point squared_norm_gradient(const Point& a) const { return a; }

  [[nodiscard]] Point geodesic(const Point& p, const Point& q, T t) const {
    return so_detail::reorthonormalise<T>(
        Point(p * so_detail::expm_skew<T>(Point(t * so_detail::logm_rotation<T>(Point(p.transpose() * q))))));
  }

  [[nodiscard]] LieMean<Point> mean(const std::vector<Point>& d, const LieMeanOptions<T>& options) const {
    return karcher(d, options, nullptr);
  }

  [[nodiscard]] std::vector<Point> mean_vjp(const std::vector<Point>& d, const LieMeanOptions<T>& options,
                                            const LieMean<Point>& mean, const Point& g) const {
    if (options.mode == LieMeanMode::kReference) return reference_mean_vjp(d, options, g);
    return implicit_mean_vjp(d, mean.point, g);
  }

 private:
  struct Step {
    Point m, g;  // Mₖ and Gₖ
  };

  // Jᵢ*[G] with Ω = logm(Y): the gradient with respect to Y of ⟨skew G, logm Y⟩.
  [[nodiscard]] static Point log_adjoint(const Point& omega, const Point& g) {
    return linalg::expm_derivative_adjoint_inverse(linalg::SkewSpectrum<T>(omega), so_detail::skew<T>(g));
  }

  [[nodiscard]] Point mean_log(const std::vector<Point>& d, const Point& m) const {
    Point sum = Point::Zero(n, n);
    for (const Point& x : d) sum += so_detail::logm_rotation<T>(Point(m.transpose() * x));
    return sum / static_cast<T>(d.size());
  }

  [[nodiscard]] LieMean<Point> karcher(const std::vector<Point>& d, const LieMeanOptions<T>& options,
                                       std::vector<Step>* trajectory) const {
    if (d.empty()) throw ShapeError("SoNormalization::mean", "needs at least one point", 0);
    LieMean<Point> result{d.front(), 0};
    const bool reference = options.mode == LieMeanMode::kReference;
    const int budget = reference ? options.karcher_steps : options.max_iterations;
    const T stop = reference ? T(1e-4) : options.resolved_tolerance();
    for (int k = 0; k < budget; ++k) {
      const Point g = mean_log(d, result.point);
      if (g.norm() <= stop) return result;
      if (trajectory) trajectory->push_back({result.point, g});
      result.point = so_detail::reorthonormalise<T>(Point(result.point * so_detail::expm_skew<T>(g)));
      result.iterations = k + 1;
    }
    if (!reference) {
      const T residual = mean_log(d, result.point).norm();
      if (!(residual <= stop)) {
        throw ConvergenceError("SoNormalization::mean",
                               "Karcher iteration did not reach the tolerance in max_iterations steps (‖G‖)", residual);
      }
    }
    return result;
  }

  [[nodiscard]] std::vector<Point> implicit_mean_vjp(const std::vector<Point>& d, const Point& m,
                                                     const Point& g) const {
    const auto dim = static_cast<Eigen::Index>(n * (n - 1) / 2);
    std::vector<Point> y, omega;
    for (const Point& x : d) {
      y.push_back(m.transpose() * x);
      omega.push_back(so_detail::logm_rotation<T>(y.back()));
    }
    const auto adjoint_h = [&](const Point& lambda) {
      Point out = Point::Zero(n, n);
      for (std::size_t i = 0; i < d.size(); ++i) out += log_adjoint(omega[i], lambda) * y[i].transpose();
      return Point(so_detail::skew<T>(out));
    };
    Matrix<T> h_transpose(dim, dim);
    for (Eigen::Index k = 0; k < dim; ++k) {
      h_transpose.col(k) = so_detail::vee<T>(adjoint_h(so_detail::hat<T>(Vector<T>(Vector<T>::Unit(dim, k)), n)));
    }
    const Vector<T> rhs = so_detail::vee<T>(Point(so_detail::skew<T>(Point(m.transpose() * g))));
    const Point lambda = so_detail::hat<T>(Vector<T>(h_transpose.partialPivLu().solve(rhs)), n);
    std::vector<Point> grads;
    grads.reserve(d.size());
    for (std::size_t i = 0; i < d.size(); ++i) grads.push_back(m * log_adjoint(omega[i], lambda));
    return grads;
  }

  [[nodiscard]] std::vector<Point> reference_mean_vjp(const std::vector<Point>& d, const LieMeanOptions<T>& options,
                                                      const Point& g) const {
    std::vector<Step> steps;
    (void)karcher(d, options, &steps);
    const T batch = static_cast<T>(d.size());
    std::vector<Point> grads(d.size(), Point::Zero(n, n));
    Point grad_m = g;
    for (auto k = steps.size(); k-- > 0;) {
      const Step& st = steps[k];
      const Point e = so_detail::expm_skew<T>(st.g);
      const Point grad_g = so_detail::skew<T>(
          linalg::expm_derivative_adjoint(linalg::SkewSpectrum<T>(st.g), Point(st.m.transpose() * grad_m)));
      Point next = grad_m * e.transpose();
      for (std::size_t i = 0; i < d.size(); ++i) {
        const Point yi = st.m.transpose() * d[i];
        const Point grad_y = log_adjoint(so_detail::logm_rotation<T>(yi), Point(grad_g / batch));
        grads[i] += st.m * grad_y;
        next += d[i] * grad_y.transpose();
      }
      grad_m = next;
    }
    grads.front() += grad_m;
    return grads;
  }
};

static_assert(is_lie_normalization_v<SoNormalization<float>> && is_lie_normalization_v<SoNormalization<double>>);

}  // namespace gyre
