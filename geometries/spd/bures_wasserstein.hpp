#pragma once
// ============================================================================================
//  SPD(n) with the Bures–Wasserstein metric (BWM): the L²-Wasserstein geometry of centred
//  Gaussians, and the quotient of (GL(n), tr(ẊᵀẊ)) by O(n) through π(X) = X Xᵀ.
// ============================================================================================
//  Lyapunov  L_P(U) solves P L + L P = U: in P's eigenbasis, Lᵢⱼ = Uᵢⱼ/(λᵢ + λⱼ).
//  Metric    g_P(U, V) = ½ tr(L_P(U) V)
//  exp       exp_P(V) = (I + L)P(I + L) = P + V + L P L, L = L_P(V); the geodesic is minimising
//            while I + tL stays positive definite, and exp is undefined (DomainError) when I + L
//            is singular. The injectivity radius at P is √λ_min(P) (Massart & Absil 2020); it
//            has no positive lower bound over SPD(n), so injectivity_radius() is 0.
//  log       log_P(Q) = (T − I)P + P(T − I), T = P^-½ (P^½ Q P^½)^½ P^-½ (the optimal transport
//            map from N(0, P) to N(0, Q)). Defined for every pair.
//  dist²     tr(L P L) with L = T − I (= trP + trQ − 2 tr (P^½QP^½)^½, which cancels for close points)
//  transport BW has no closed-form parallel transport. Gyre integrates the exact transport
//            equation of the quotient: with the horizontal geodesic X(t) = P^½ + t·L_P(log_P Q)·P^½
//            and the horizontal lift W̄ = S·X, parallel transport downstairs is H(dW̄/dt) = 0, i.e.
//                Ṡ = −L_{X Xᵀ}(S V Xᵀ + X Vᵀ S),   S(0) = L_P(W),   W(1) = S Q + Q S,
//            solved by classical RK4 with step doubling until two successive step counts agree to
//            1e-12 (double; 1e-5 in float) relative to ‖W‖; the returned value's error is about
//            1/15 of that (RK4's h⁴). geomstats integrates a different form with 10 RK4 steps
//            (isometric only to 4e-8).
//  mean      the fixed point S ← T̄ S T̄, T̄ = Σ wᵢ Tᵢ (Álvarez-Esteban et al. 2016), which is the
//            Karcher step exp_S(Σ wᵢ log_S Pᵢ); it stops on the Riemannian gradient norm.
//  retract   exp (it is already a polynomial).
//  VJPs      exp_vjp and log_vjp in closed form through the Lyapunov operators L_P and L_B (see
//            each); transport has none (an integrated ODE).
//  References: Bhatia, Jain & Lim 2019; Malagò, Montrucchio & Pistone 2018; Massart & Absil 2020.
// ============================================================================================

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include <Eigen/Cholesky>

#include "gyre/core/derivatives.hpp"
#include "gyre/core/manifold.hpp"
#include "spd_common.hpp"

namespace gyre {

/// SPD(n) with the Bures–Wasserstein metric.
template <class T>
class SpdBuresWasserstein {
 public:
  using Scalar = T;
  using Point = Matrix<T>;
  using Tangent = Matrix<T>;

  explicit SpdBuresWasserstein(int n) : n_(n) { spd::check_size("SpdBuresWasserstein::SpdBuresWasserstein", n); }

  [[nodiscard]] int n() const { return n_; }
  [[nodiscard]] int dim() const { return spd::spd_dimension(n_); }
  /// 0: the injectivity radius at P is √λ_min(P), with no positive bound over SPD(n).
  [[nodiscard]] T injectivity_radius() const { return T(0); }
  /// The injectivity radius at P, √λ_min(P).
  [[nodiscard]] T injectivity_radius_at(const Point& p) const {
    if (checks_enabled()) spd::check_spd("SpdBuresWasserstein::injectivity_radius_at", p, n_);
    return std::sqrt(linalg::symmetric_eigen<T>(p).values(0));
  }

  [[nodiscard]] Point exp(const Point& p, const Tangent& v) const {
    if (checks_enabled()) spd::check_point_and_tangent("SpdBuresWasserstein::exp", p, v, n_);
    const Matrix<T> l = exp_lyapunov("SpdBuresWasserstein::exp", linalg::symmetric_eigen<T>(p), v);
    return linalg::symmetric_part<T>(p + v + l * p * l);
  }

  [[nodiscard]] Tangent log(const Point& p, const Point& q) const {
    if (checks_enabled()) spd::check_two_points("SpdBuresWasserstein::log", p, q, n_);
    const Matrix<T> l = transport_map_minus_identity(p, q);
    const Matrix<T> lp = l * p;
    return lp + lp.transpose();
  }

  /// ∂L/∂P and ∂L/∂V of exp_P(V) = P + V + L·P·L, L = L_P(V) (gyre/core/derivatives.hpp). With
  /// S = sym(G), ∂L = P·L·S + S·L·P, and differentiating P·L + L·P = V gives, for Z = L_P(∂L),
  ///   ∂V = S + Z,   ∂P = S + L·S·L − (Z·L + L·Z)          (L_P is self-adjoint).
  [[nodiscard]] ExpVjp<Point, Tangent> exp_vjp(const Point& p, const Tangent& v, const Point& g) const {
    if (checks_enabled()) {
      spd::check_point_and_tangent("SpdBuresWasserstein::exp_vjp", p, v, n_);
      spd::check_cotangent("SpdBuresWasserstein::exp_vjp", g, n_);
    }
    const linalg::SymmetricEigen<T> e = linalg::symmetric_eigen<T>(p);
    const Matrix<T> l = exp_lyapunov("SpdBuresWasserstein::exp_vjp", e, v);
    const Matrix<T> s = linalg::symmetric_part<T>(g);
    const Matrix<T> pls = p * l * s;
    const Matrix<T> z = lyapunov(e, Matrix<T>(pls + pls.transpose()));
    const Matrix<T> zl = z * l;
    return {Point(s + l * s * l - zl - zl.transpose()), Tangent(s + z)};
  }

  /// ∂L/∂P and ∂L/∂Q of log_P(Q) = M·P + P·M, M = T − I, where T = P^-½·B·P^-½, B = (P^½QP^½)^½
  /// solves T·P·T = Q. Differentiating that: dT = P^-½·L_B(P^½(dQ − T·dP·T)P^½)·P^-½. With
  /// S = sym(G), ∂T = S·P + P·S and K = P^½·L_B(P^-½·∂T·P^-½)·P^½:
  ///   ∂Q = K,   ∂P = M·S + S·M − T·K·T.
  [[nodiscard]] LogVjp<Point> log_vjp(const Point& p, const Point& q, const Tangent& g) const {
    if (checks_enabled()) {
      spd::check_two_points("SpdBuresWasserstein::log_vjp", p, q, n_);
      spd::check_cotangent("SpdBuresWasserstein::log_vjp", g, n_);
    }
    const linalg::SymmetricEigen<T> e = linalg::symmetric_eigen<T>(p);
    const Matrix<T> root = linalg::apply(e, linalg::Sqrt{});
    const Matrix<T> inv_root = linalg::apply(e, linalg::InverseSqrt{});
    linalg::SymmetricEigen<T> middle = linalg::symmetric_eigen<T>(linalg::symmetric_part<T>(root * q * root));
    const Matrix<T> b = linalg::apply(middle, linalg::Sqrt{});
    for (Eigen::Index i = 0; i < middle.values.size(); ++i) middle.values(i) = std::sqrt(middle.values(i));  // B's
    const Matrix<T> m = linalg::symmetric_part<T>(inv_root * (b - p) * inv_root);
    const Matrix<T> t = Matrix<T>::Identity(n_, n_) + m;
    const Matrix<T> s = linalg::symmetric_part<T>(g);
    const Matrix<T> ps = p * s;
    const Matrix<T> k = root * lyapunov(middle, Matrix<T>(inv_root * (ps + ps.transpose()) * inv_root)) * root;
    const Matrix<T> ms = m * s;
    return {Point(ms + ms.transpose() - t * k * t), Point(linalg::symmetric_part<T>(k))};
  }

  [[nodiscard]] Tangent transport(const Point& p, const Point& q, const Tangent& w) const {
    if (checks_enabled()) {
      spd::check_two_points("SpdBuresWasserstein::transport", p, q, n_);
      spd::check_symmetric_tangent("SpdBuresWasserstein::transport", w, n_);
    }
    const linalg::SymmetricEigen<T> e = linalg::symmetric_eigen<T>(p);
    const Matrix<T> x0 = linalg::apply(e, linalg::Sqrt{});
    const Matrix<T> velocity = transport_map_minus_identity(p, q) * x0;  // V = L_P(log_P Q)·P^½
    const Matrix<T> s0 = lyapunov(e, w);
    const T scale = std::max(w.norm(), std::numeric_limits<T>::min());
    const T tolerance = std::numeric_limits<T>::digits > 30 ? T(1e-12) : T(1e-5);
    Matrix<T> previous = integrate_transport(x0, velocity, s0, kFirstSteps);
    for (int steps = 2 * kFirstSteps; steps <= kMaxSteps; steps *= 2) {
      const Matrix<T> next = integrate_transport(x0, velocity, s0, steps);
      const T change = (next - previous).norm() / scale;
      previous = next;
      if (change <= tolerance) break;
    }
    return linalg::symmetric_part<T>(previous * q + q * previous);
  }

  [[nodiscard]] T inner(const Point& p, const Tangent& u, const Tangent& v) const {
    if (checks_enabled()) {
      spd::check_point_and_tangent("SpdBuresWasserstein::inner", p, u, n_);
      spd::check_symmetric_tangent("SpdBuresWasserstein::inner", v, n_);
    }
    return lyapunov(linalg::symmetric_eigen<T>(p), u).cwiseProduct(v).sum() / T(2);
  }

  [[nodiscard]] T norm(const Point& p, const Tangent& v) const { return std::sqrt(std::max(T(0), inner(p, v, v))); }

  [[nodiscard]] T dist(const Point& p, const Point& q) const {
    if (checks_enabled()) spd::check_two_points("SpdBuresWasserstein::dist", p, q, n_);
    const Matrix<T> l = transport_map_minus_identity(p, q);
    return std::sqrt(std::max(T(0), (l * p * l).trace()));
  }

  /// The Riemannian gradient from the Euclidean gradient G: the metric is ½·tr(L_P[U]·V) with
  /// P·L + L·P = U, so R solves L_P[R] = 2·sym(G), i.e. R = 2(P·S + S·P) with S = sym(G).
  [[nodiscard]] Tangent egrad_to_rgrad(const Point& p, const Tangent& g) const {
    const Matrix<T> s = spd::project_to_symmetric("SpdBuresWasserstein::egrad_to_rgrad", p, g, n_);
    const Matrix<T> ps = p * s;
    return T(2) * (ps + ps.transpose());
  }

  [[nodiscard]] Tangent project(const Point& p, const Tangent& a) const {
    return spd::project_to_symmetric("SpdBuresWasserstein::project", p, a, n_);
  }

  [[nodiscard]] Point retract(const Point& p, const Tangent& v) const { return exp(p, v); }

  [[nodiscard]] Point random_point(Rng& rng) const { return spd::random_spd<T>(n_, rng); }

  /// A standard Gaussian of g_P, as V = L P + P L: in P's eigenbasis ‖V‖²_P = Σᵢ λᵢLᵢᵢ² +
  /// Σ_{i<j} (λᵢ + λⱼ)Lᵢⱼ², so Lᵢᵢ ~ N(0, 1/λᵢ) and Lᵢⱼ ~ N(0, 1/(λᵢ + λⱼ)).
  [[nodiscard]] Tangent random_tangent(const Point& p, Rng& rng) const {
    const linalg::SymmetricEigen<T> e = linalg::symmetric_eigen<T>(p);
    Matrix<T> l(n_, n_);
    for (int j = 0; j < n_; ++j) {
      for (int i = j; i < n_; ++i) {
        const T weight = i == j ? e.values(i) : e.values(i) + e.values(j);
        l(i, j) = l(j, i) = rng.normal<T>() / std::sqrt(weight);
      }
    }
    const Matrix<T> rotated = e.vectors * l * e.vectors.transpose();
    const Matrix<T> lp = rotated * p;
    return lp + lp.transpose();
  }

  /// The weighted Bures–Wasserstein barycenter by the fixed point S ← T̄ S T̄, from points[0];
  /// stops when the Riemannian gradient ‖Σ wᵢ log_S Pᵢ‖_S ≤ tolerance (default 8ε relative to
  /// ‖S‖), ConvergenceError after max_iterations.
  [[nodiscard]] Point mean(const std::vector<Point>& points, std::vector<T> weights = {}, int max_iterations = 500,
                           double tolerance = 0) const {
    const T total = spd::checked_weight_total("SpdBuresWasserstein::mean", points, weights, n_);
    const double stop = tolerance > 0 ? tolerance : 8 * std::numeric_limits<T>::epsilon();
    Matrix<T> s = points.front();
    double previous = std::numeric_limits<double>::infinity();
    double gradient = 0;
    for (int iteration = 0; iteration < max_iterations; ++iteration) {
      Matrix<T> t_bar = Matrix<T>::Zero(n_, n_);
      for (std::size_t i = 0; i < points.size(); ++i) {
        t_bar += (weights[i] / total) * transport_map_minus_identity(s, points[i]);
      }
      // Σ wᵢ log_S Pᵢ = T̄'S + S T̄' (T̄' = T̄ − I here), whose norm² is tr(T̄' S T̄').
      gradient = static_cast<double>(std::sqrt(std::max(T(0), (t_bar * s * t_bar).trace())));
      const double scale = std::max(1.0, static_cast<double>(std::sqrt(s.trace())));
      if (gradient <= stop * scale) return s;
      // At the rounding floor the gradient stops shrinking: further steps only move noise.
      if (gradient <= std::sqrt(std::numeric_limits<T>::epsilon()) * scale && gradient >= previous) return s;
      previous = gradient;
      const Matrix<T> t = Matrix<T>::Identity(n_, n_) + t_bar;
      s = linalg::symmetric_part<T>(t * s * t);
    }
    throw ConvergenceError(
        "SpdBuresWasserstein::mean",
        "fixed point did not converge in " + std::to_string(max_iterations) + " iterations (gradient norm)", gradient);
  }

  void check_point(const Point& p) const { spd::check_spd("SpdBuresWasserstein::check_point", p, n_); }
  void check_tangent(const Point& p, const Tangent& v) const {
    spd::check_point_and_tangent("SpdBuresWasserstein::check_tangent", p, v, n_);
  }

  /// L_P(U): the solution of P L + L P = U, given P's eigendecomposition.
  [[nodiscard]] static Matrix<T> lyapunov(const linalg::SymmetricEigen<T>& e, const Matrix<T>& u) {
    Matrix<T> rotated = e.vectors.transpose() * u * e.vectors;
    for (Eigen::Index j = 0; j < rotated.cols(); ++j) {
      for (Eigen::Index i = 0; i < rotated.rows(); ++i) rotated(i, j) /= e.values(i) + e.values(j);
    }
    return linalg::symmetric_part<T>(e.vectors * rotated * e.vectors.transpose());
  }

  /// T − I, T = P^-½ (P^½ Q P^½)^½ P^-½: the optimal map from N(0, P) to N(0, Q), minus I.
  [[nodiscard]] static Matrix<T> transport_map_minus_identity(const Point& p, const Point& q) {
    const linalg::SymmetricEigen<T> e = linalg::symmetric_eigen<T>(p);
    const Matrix<T> root = linalg::apply(e, linalg::Sqrt{});
    const Matrix<T> inv_root = linalg::apply(e, linalg::InverseSqrt{});
    const Matrix<T> middle =
        linalg::apply(linalg::symmetric_eigen<T>(linalg::symmetric_part<T>(root * q * root)), linalg::Sqrt{});
    // P^-½ (M − P) P^-½ = T − I, with M − P formed before the outer products.
    return linalg::symmetric_part<T>(inv_root * (middle - p) * inv_root);
  }

 private:
  // L_P(V) for exp, after checking that the geodesic stays in SPD up to t = 1 (I + L nonsingular).
  Matrix<T> exp_lyapunov(const char* function, const linalg::SymmetricEigen<T>& e, const Tangent& v) const {
    const Matrix<T> l = lyapunov(e, v);
    const Eigen::SelfAdjointEigenSolver<Matrix<T>> shifted(Matrix<T>::Identity(n_, n_) + l, Eigen::EigenvaluesOnly);
    const T smallest = shifted.eigenvalues().cwiseAbs().minCoeff();
    if (!(smallest > std::numeric_limits<T>::epsilon())) {
      throw DomainError(function, "the geodesic leaves SPD: I + L_P(V) is singular (smallest |eigenvalue|)", smallest);
    }
    return l;
  }

  static constexpr int kFirstSteps = 8;
  static constexpr int kMaxSteps = 1 << 14;

  // Ṡ = −L_{XXᵀ}(S V Xᵀ + X Vᵀ S) along X(t) = X₀ + tV.
  static Matrix<T> transport_rate(const Matrix<T>& x, const Matrix<T>& velocity, const Matrix<T>& s) {
    const Matrix<T> a = s * velocity * x.transpose();
    return -lyapunov(linalg::symmetric_eigen<T>(linalg::symmetric_part<T>(x * x.transpose())), a + a.transpose());
  }

  static Matrix<T> integrate_transport(const Matrix<T>& x0, const Matrix<T>& velocity, const Matrix<T>& s0, int steps) {
    const T h = T(1) / static_cast<T>(steps);
    Matrix<T> s = s0;
    for (int k = 0; k < steps; ++k) {
      const T t = static_cast<T>(k) * h;
      const Matrix<T> x_start = x0 + t * velocity;
      const Matrix<T> x_mid = x0 + (t + h / 2) * velocity;
      const Matrix<T> x_end = x0 + (t + h) * velocity;
      const Matrix<T> k1 = transport_rate(x_start, velocity, s);
      const Matrix<T> k2 = transport_rate(x_mid, velocity, s + (h / 2) * k1);
      const Matrix<T> k3 = transport_rate(x_mid, velocity, s + (h / 2) * k2);
      const Matrix<T> k4 = transport_rate(x_end, velocity, s + h * k3);
      s += (h / 6) * (k1 + 2 * k2 + 2 * k3 + k4);
    }
    return s;
  }

  int n_;
};

static_assert(is_manifold_v<SpdBuresWasserstein<float>> && is_manifold_v<SpdBuresWasserstein<double>>);

}  // namespace gyre
