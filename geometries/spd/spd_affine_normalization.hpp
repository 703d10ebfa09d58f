#pragma once
// ============================================================================================
//  LieBN's affine-invariant structure on SPD(n) (gyre/core/lie_normalization.hpp): the θ-power
//  deformation D = X^θ, the Cholesky group P ⊙ Q = L_P·Q·L_Pᵀ (L_P = chol P; the reference's
//  translation, not the symmetric congruence P^½·Q·P^½), the (α, β) inner product at I divided
//  by θ², log_e = logm and exp_e = expm — so scaling is Y ↦ Y^f as in the reference code
//  (GitZH-Chen/LieBN, Geometry/SPD/SPDMatrices.py: SPDAffineInvariantMetric).
// ============================================================================================
//  Mean   the Karcher iteration Mₖ₊₁ = Mₖ^½·expm(Gₖ)·Mₖ^½, Gₖ = (1/B)·Σ logm(Mₖ^-½·Dᵢ·Mₖ^-½), from
//         the arithmetic mean (the reference's start). kConverged iterates until ‖Gₖ‖_F ≤ the
//         tolerance (ConvergenceError after max_iterations); kReference takes at most K steps and
//         stops once ‖Gₖ‖_F ≤ 0.1, as the reference does. (α, β) and the Cholesky action do not
//         change the mean: every (α, β) metric has the AIM's geodesics, and L⁻¹·D·L⁻ᵀ is the
//         whitened M^-½·D·M^-½ rotated by the orthogonal L⁻¹M^½, so Σ log_e(M⁻¹ ⊙ Dᵢ) vanishes
//         exactly where the Karcher condition Σ Log_M(Dᵢ) = 0 holds.
//  mean_vjp, converged: implicit differentiation of Σ Log_M(Dᵢ) = 0, matrix-free by conjugate
//         gradients (affine_invariant_mean_vjp.hpp).
//  mean_vjp, reference: the chain rule through the steps actually taken (recomputed), with
//         Mₖ₊₁ = S·E·S: S̄ = M̄·S·E + E·S·M̄, Ē = S·M̄·S, Ḡ = Dexp(Gₖ)[Ē], Ȳᵢ = Dlog(Yᵢ)[Ḡ]/B,
//         D̄ᵢ += W·Ȳᵢ·W, W̄ = Σᵢ (Ȳᵢ·W·Dᵢ + Dᵢ·W·Ȳᵢ), M̄ₖ = Dsqrt(Mₖ)[S̄] + D(·)^-½(Mₖ)[W̄]; the start
//         M₀ = (1/B)·Σ Dᵢ adds M̄₀/B to every D̄ᵢ.
// ============================================================================================

#include <cmath>
#include <string>
#include <vector>

#include "affine_invariant_mean_vjp.hpp"
#include "gyre/core/checks.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/group_derivatives.hpp"
#include "gyre/core/lie_normalization.hpp"
#include "gyre/linalg/symmetric_functions.hpp"
#include "log_cholesky.hpp"
#include "spd_common.hpp"
#include "spd_normalization.hpp"

namespace gyre {

/// LieBN's θ-deformed (α, β) affine-invariant structure on SPD(n) (header comment).
template <class T>
struct SpdAffineInvariantNormalization {
  using Scalar = T;
  using Point = Matrix<T>;

  SpdAffineInvariantNormalization(int size, T power = 1, T alpha_weight = 1, T beta_weight = 0)
      : n(size), theta(power), alpha_beta{static_cast<double>(alpha_weight), static_cast<double>(beta_weight)} {
    if (n < 1) throw ShapeError("SpdAffineInvariantNormalization", "n must be >= 1", n);
    spd::flat_normalization::check_theta("SpdAffineInvariantNormalization", theta);
    spd::check_alpha_beta("SpdAffineInvariantNormalization", alpha_beta, n);
  }

  int n;
  T theta;
  spd::AlphaBeta alpha_beta;

  [[nodiscard]] std::string name() const {
    return "SPD(" + std::to_string(n) + ", LieBN-AIM, θ = " + std::to_string(theta) +
           ", α = " + std::to_string(alpha_beta.alpha) + ", β = " + std::to_string(alpha_beta.beta) + ")";
  }
  void check_point(const Point& x) const { spd::check_spd("SpdAffineInvariantNormalization", x, n); }

  [[nodiscard]] Point deform(const Point& x) const {
    if (checks_enabled()) check_point(x);
    return spd::flat_normalization::power<T>(x, theta);
  }
  [[nodiscard]] Point deform_vjp(const Point& x, const Point& g) const {
    return spd::flat_normalization::power_vjp<T>(x, theta, g);
  }
  [[nodiscard]] Point undeform(const Point& d) const { return spd::flat_normalization::power<T>(d, T(1) / theta); }
  [[nodiscard]] Point undeform_vjp(const Point& d, const Point& g) const {
    return spd::flat_normalization::power_vjp<T>(d, T(1) / theta, g);
  }

  // The same maps with their eigensystems kept (core/lie_normalization.hpp's optional members).
  using Spectral = spd::Spectral<T>;
  [[nodiscard]] Spectral deform_spectral(const Point& x) const {
    if (checks_enabled()) check_point(x);
    if (theta == 1) return spd::unchanged<T>(x);
    return spd::spectral<T>("SpdAffineInvariantNormalization::deform", x, linalg::Power{static_cast<double>(theta)},
                            false);
  }
  [[nodiscard]] Point deform_vjp_spectral(const Spectral& kept, const Point& g) const {
    return spd::spectral_vjp<T>(kept, linalg::Power{static_cast<double>(theta)}, g);
  }
  [[nodiscard]] Spectral undeform_spectral(const Point& d) const {
    if (theta == 1) return spd::unchanged<T>(d);
    return spd::spectral<T>("SpdAffineInvariantNormalization::undeform", d,
                            linalg::Power{static_cast<double>(T(1) / theta)}, false);
  }
  [[nodiscard]] Point undeform_vjp_spectral(const Spectral& kept, const Point& g) const {
    return spd::spectral_vjp<T>(kept, linalg::Power{static_cast<double>(T(1) / theta)}, g);
  }
  [[nodiscard]] Spectral log_identity_spectral(const Point& d) const {
    return spd::spectral<T>("SpdAffineInvariantNormalization::log_identity", d, linalg::Log{}, true);
  }
  [[nodiscard]] Point log_identity_vjp_spectral(const Spectral& kept, const Point& g) const {
    return spd::spectral_vjp<T>(kept, linalg::Log{}, g);
  }
  [[nodiscard]] Spectral exp_identity_spectral(const Point& a) const {
    return spd::spectral<T>("SpdAffineInvariantNormalization::exp_identity", a, linalg::Exp{}, false);
  }
  [[nodiscard]] Point exp_identity_vjp_spectral(const Spectral& kept, const Point& g) const {
    return spd::spectral_vjp<T>(kept, linalg::Exp{}, g);
  }

  [[nodiscard]] Point identity() const { return Point::Identity(n, n); }
  [[nodiscard]] Point translate(const Point& b, const Point& d) const {
    const Point l = spd::cholesky_factor<T>("SpdAffineInvariantNormalization::translate", b);
    return linalg::symmetric_part<T>(l * d * l.transpose());
  }
  // b ⊙ d = L·d·Lᵀ: ∂d = Lᵀ·sym(Ḡ)·L, L̄ = 2·sym(Ḡ)·L·d, then the Cholesky backward pass.
  [[nodiscard]] ComposeVjp<Point> translate_vjp(const Point& b, const Point& d, const Point& g) const {
    const Point l = spd::cholesky_factor<T>("SpdAffineInvariantNormalization::translate_vjp", b);
    const Point s = linalg::symmetric_part<T>(g);
    return {spd::cholesky_backward<T>(l, Point(T(2) * s * l * d)), linalg::symmetric_part<T>(l.transpose() * s * l)};
  }
  // m⁻¹ ⊙ d = K·d·Kᵀ with K = L⁻¹ (triangular solves, no inverse formed).
  [[nodiscard]] Point untranslate(const Point& m, const Point& d) const {
    const Point l = spd::cholesky_factor<T>("SpdAffineInvariantNormalization::untranslate", m);
    return whiten_by_factor(l, d);
  }
  // ∂d = Kᵀ·sym(Ḡ)·K; K̄ = 2·sym(Ḡ)·K·d and dK = −K·dL·K give L̄ = −Kᵀ·K̄·Kᵀ.
  [[nodiscard]] ComposeVjp<Point> untranslate_vjp(const Point& m, const Point& d, const Point& g) const {
    const Point l = spd::cholesky_factor<T>("SpdAffineInvariantNormalization::untranslate_vjp", m);
    const auto tri = l.template triangularView<Eigen::Lower>();
    const Point k = tri.solve(Point::Identity(n, n));
    const Point s = linalg::symmetric_part<T>(g);
    const Point grad_k = T(2) * s * k * d;
    const Point grad_l = -k.transpose() * grad_k * k.transpose();
    return {spd::cholesky_backward<T>(l, grad_l), linalg::symmetric_part<T>(k.transpose() * s * k)};
  }
  [[nodiscard]] Point log_identity(const Point& d) const { return positive_log(d); }
  [[nodiscard]] Point log_identity_vjp(const Point& d, const Point& g) const {
    return linalg::frechet_derivative(linalg::symmetric_eigen<T>(d), linalg::Log{}, linalg::symmetric_part<T>(g));
  }
  [[nodiscard]] Point exp_identity(const Point& a) const { return linalg::symmetric_exp<T>(a); }
  [[nodiscard]] Point exp_identity_vjp(const Point& a, const Point& g) const {
    return linalg::frechet_derivative(linalg::symmetric_eigen<T>(a), linalg::Exp{}, linalg::symmetric_part<T>(g));
  }

  [[nodiscard]] T squared_norm(const Point& a) const {
    return spd::alpha_beta_inner<T>(alpha_beta, a, a) / (theta * theta);
  }
  [[nodiscard]] Point squared_norm_gradient(const Point& a) const {
    return (T(2 * alpha_beta.alpha) * a + T(2 * alpha_beta.beta) * a.trace() * Point::Identity(n, n)) / (theta * theta);
  }

  // p^½·(p^-½·q·p^-½)^t·p^½: the affine-invariant geodesic, as the reference updates its running mean.
  [[nodiscard]] Point geodesic(const Point& p, const Point& q, T t) const {
    const linalg::SymmetricEigen<T> e = linalg::symmetric_eigen<T>(p);
    const Point s = linalg::apply(e, linalg::Sqrt{});
    const Point w = linalg::apply(e, linalg::InverseSqrt{});
    return linalg::symmetric_part<T>(
        s * linalg::spd_power<T>(linalg::symmetric_part<T>(w * q * w), static_cast<double>(t)) * s);
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
  // One Karcher step's quantities at M.
  struct Step {
    Point m, s, w, g;  // M, M^½, M^-½, (1/B)·Σ logm(W·Dᵢ·W)
  };

  [[nodiscard]] static Point whiten_by_factor(const Point& l, const Point& d) {
    const auto tri = l.template triangularView<Eigen::Lower>();
    Point a = tri.solve(d);
    a = tri.solve(Point(a.transpose())).transpose().eval();
    return linalg::symmetric_part<T>(a);
  }

  [[nodiscard]] static Point positive_log(const Point& y) {
    const linalg::SymmetricEigen<T> e = linalg::symmetric_eigen<T>(y);
    if (!(e.values(0) > 0)) {
      throw DomainError("SpdAffineInvariantNormalization::log_identity",
                        "matrix is not positive definite (smallest eigenvalue)", e.values(0));
    }
    return linalg::apply(e, linalg::Log{});
  }

  [[nodiscard]] Step step_at(const std::vector<Point>& d, const Point& m) const {
    const linalg::SymmetricEigen<T> e = linalg::symmetric_eigen<T>(m);
    if (!(e.values(0) > 0)) {
      throw DomainError("SpdAffineInvariantNormalization::mean", "iterate is not positive definite (eigenvalue)",
                        e.values(0));
    }
    Step step{m, linalg::apply(e, linalg::Sqrt{}), linalg::apply(e, linalg::InverseSqrt{}), Point::Zero(n, n)};
    for (const Point& x : d) step.g += positive_log(linalg::symmetric_part<T>(step.w * x * step.w));
    step.g /= static_cast<T>(d.size());
    return step;
  }

  // The iteration of the header comment; `trajectory` (if given) receives every step taken.
  [[nodiscard]] LieMean<Point> karcher(const std::vector<Point>& d, const LieMeanOptions<T>& options,
                                       std::vector<Step>* trajectory) const {
    LieMean<Point> result{spd::flat_normalization::mean<T>("SpdAffineInvariantNormalization::mean", d).point, 0};
    const bool reference = options.mode == LieMeanMode::kReference;
    const int budget = reference ? options.karcher_steps : options.max_iterations;
    const T stop = reference ? T(0.1) : options.resolved_tolerance();
    for (int k = 0; k < budget; ++k) {
      const Step step = step_at(d, result.point);
      if (step.g.norm() <= stop) return result;
      result.point = linalg::symmetric_part<T>(step.s * linalg::symmetric_exp<T>(step.g) * step.s);
      result.iterations = k + 1;
      if (trajectory) trajectory->push_back(step);
    }
    if (!reference) {
      const T residual = step_at(d, result.point).g.norm();
      if (!(residual <= stop)) {
        throw ConvergenceError("SpdAffineInvariantNormalization::mean",
                               "Karcher iteration did not reach the tolerance in max_iterations steps (‖G‖)", residual);
      }
    }
    return result;
  }

  [[nodiscard]] std::vector<Point> implicit_mean_vjp(const std::vector<Point>& d, const Point& m,
                                                     const Point& g) const {
    return spd::affine_invariant_mean_vjp<T>(d, m, g);
  }

  [[nodiscard]] std::vector<Point> reference_mean_vjp(const std::vector<Point>& d, const LieMeanOptions<T>& options,
                                                      const Point& g) const {
    std::vector<Step> steps;
    (void)karcher(d, options, &steps);
    const T batch = static_cast<T>(d.size());
    std::vector<Point> grads(d.size(), Point::Zero(n, n));
    Point grad_m = linalg::symmetric_part<T>(g);
    for (auto k = steps.size(); k-- > 0;) {
      const Step& st = steps[k];
      const linalg::SymmetricEigen<T> eg = linalg::symmetric_eigen<T>(st.g);
      const Point e = linalg::apply(eg, linalg::Exp{});
      const Point grad_s = grad_m * st.s * e + e * st.s * grad_m;
      const Point grad_g =
          linalg::frechet_derivative(eg, linalg::Exp{}, linalg::symmetric_part<T>(st.s * grad_m * st.s));
      Point grad_w = Point::Zero(n, n);
      for (std::size_t i = 0; i < d.size(); ++i) {
        const linalg::SymmetricEigen<T> ey = linalg::symmetric_eigen<T>(linalg::symmetric_part<T>(st.w * d[i] * st.w));
        const Point grad_y = linalg::frechet_derivative(ey, linalg::Log{}, Point(grad_g / batch));
        grads[i] += linalg::symmetric_part<T>(st.w * grad_y * st.w);
        grad_w += grad_y * st.w * d[i] + d[i] * st.w * grad_y;
      }
      const linalg::SymmetricEigen<T> em = linalg::symmetric_eigen<T>(st.m);
      grad_m = linalg::frechet_derivative(em, linalg::Sqrt{}, linalg::symmetric_part<T>(grad_s)) +
               linalg::frechet_derivative(em, linalg::InverseSqrt{}, linalg::symmetric_part<T>(grad_w));
    }
    for (Point& grad : grads) grad += grad_m / batch;
    return grads;
  }
};

static_assert(is_lie_normalization_v<SpdAffineInvariantNormalization<float>> &&
              is_lie_normalization_v<SpdAffineInvariantNormalization<double>>);

}  // namespace gyre
