#pragma once
// ============================================================================================
//  The orthogonal groups SO(n) and O(n), n ≥ 2, with their bi-invariant metric: one class
//  template, OrthogonalGroup<T, kSpecial>, named SO<T> (so.hpp) and O<T> (o/o.hpp).
// ============================================================================================
//  Storage   points are n×n matrices X with XᵀX = I (det X = +1 for SO(n), ±1 for O(n));
//            tangent vectors are AMBIENT matrices V = X·A with A skew: T_X = {X·A : Aᵀ = −A}.
//  Metric    ⟨U, V⟩_X = ½·tr(UᵀV), bi-invariant. dist(X, Y) = ‖log(XᵀY)‖_F/√2 = √Σθₖ² over the
//            rotation angles θₖ ∈ [0, π] of the 2-planes of XᵀY; for SO(3), the rotation angle.
//  exp       exp_X(V) = X·expm(XᵀV); log_X(Y) = X·logm(XᵀY) (principal logarithm, so_detail.hpp).
//  transport along the geodesic X → Y, with B = logm(XᵀY) (Levi-Civita transport of the
//            bi-invariant metric: the left-trivialised vector is conjugated by e^(−B/2)):
//              P(V) = X·e^(B/2)·(XᵀV)·e^(B/2).
//  Algebra   hat/vee: n = 2: [a₂₁]; n = 3: (a₃₂, a₁₃, a₂₁); n ≥ 4: a_ji for i < j in lexicographic
//            order. ‖a‖ (Euclidean) = ‖hat(a)‖ (metric). algebra_exp(a) = expm(hat(a)),
//            algebra_log(g) = vee(logm(g)); adjoint(g)·a = vee(g·hat(a)·gᵀ) (for SO(3): g itself).
//            act(g, p) = g·p on ℝⁿ.
//  Cut locus rotations with some θₖ = π; injectivity radius π. There log returns one of the
//            minimising logarithms: on a single π-plane the orientation with positive (2, 1)
//            entry in the eigenbasis of (R + Rᵀ)/2 (i.e. whichever the rounding of R favours),
//            on several π-planes the canonical pairing of that eigenbasis. exp(log(Y)) = Y holds
//            there too; transport(X, Y, log(X, Y)) = −log(Y, X) does not (two different choices).
//  O(n)      two components (det ±1). exp stays in X's component; log and transport between
//            components throw DomainError; dist between components is +∞ (the infimum over an
//            empty set of curves). algebra_exp lands in SO(n); algebra_log of det −1 throws.
//  retract   the Q factor of X + V (Householder QR with R's diagonal made positive): first order.
//  Renormalisation  exp, compose and retract results get one Newton–Schulz step
//            X·(3I − XᵀX)/2, so long products do not drift off the group.
//  Sampling  random_point: Haar (QR of a Gaussian with sign correction, Mezzadri 2007; for SO(n)
//            the first column is negated when det = −1). random_tangent: X·hat(a), a standard Gaussian.
//  Validity  check_point: n×n, finite, ‖XᵀX − I‖_F ≤ √ε, det X > 0 (SO). check_tangent:
//            ‖XᵀV + VᵀX‖_F/2 ≤ √ε·max(1, ‖V‖_F).
//  References: geomstats' SpecialOrthogonal (same conventions, pinned by shared/reference/
//            geomstats.json cases so2, so3, so4); Gallier & Xu 2002, "Computing exponentials of
//            skew-symmetric matrices and logarithms of orthogonal matrices".
// ============================================================================================

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <cmath>
#include <limits>
#include <string>

#include <Eigen/LU>
#include <boost/math/constants/constants.hpp>

#include "gyre/core/checks.hpp"
#include "gyre/core/derivatives.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/group_derivatives.hpp"
#include "gyre/core/manifold.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/core/types.hpp"
#include "gyre/core/validate.hpp"
#include "gyre/linalg/haar.hpp"
#include "gyre/linalg/skew_functions.hpp"
#include "so_detail.hpp"

namespace gyre {

/// SO(n) (kSpecial) or O(n) with the bi-invariant metric ½·tr(UᵀV); use the names SO<T> and O<T>.
template <class T, bool kSpecial>
class OrthogonalGroup {
 public:
  using Scalar = T;
  using Point = Matrix<T>;
  using Tangent = Matrix<T>;
  using Algebra = Vector<T>;
  using ActedPoint = Vector<T>;

  explicit OrthogonalGroup(int n) : n_(n) {
    if (n < 2) throw DomainError(name(kSpecial ? "SO" : "O"), "n must be at least 2", n);
  }

  [[nodiscard]] int n() const { return n_; }
  [[nodiscard]] int dim() const { return n_ * (n_ - 1) / 2; }
  [[nodiscard]] int acted_dim() const { return n_; }
  [[nodiscard]] T injectivity_radius() const { return boost::math::constants::pi<T>(); }

  [[nodiscard]] Point exp(const Point& x, const Tangent& v) const {
    if (checks_enabled()) check_tangent_at(name("exp"), x, v);
    return so_detail::reorthonormalise<T>(x * so_detail::expm_skew<T>(so_detail::skew<T>(x.transpose() * v)));
  }

  [[nodiscard]] Tangent log(const Point& x, const Point& y) const {
    if (checks_enabled()) check_two(name("log"), x, y);
    return x * relative_log(name("log"), x, y);
  }

  [[nodiscard]] Tangent transport(const Point& x, const Point& y, const Tangent& v) const {
    if (checks_enabled()) {
      check_two(name("transport"), x, y);
      check_tangent_at(name("transport"), x, v);
    }
    const Matrix<T> half = so_detail::expm_skew<T>(Matrix<T>(relative_log(name("transport"), x, y) / 2));
    return x * half * so_detail::skew<T>(x.transpose() * v) * half;
  }

  // ── Derivatives (gyre/core/derivatives.hpp) ──
  // Through the Daleckii–Krein derivative of expm at a skew matrix (gyre/linalg/skew_functions.hpp)
  // and the matrix product rule (for E = ABC: ∂A = ∂E(BC)ᵀ, ∂B = Aᵀ∂E Cᵀ, ∂C = (AB)ᵀ∂E), with the
  // skew part taken wherever the formula takes one:
  //   exp = X expm(skew(XᵀV)),  log = X logm(XᵀY),  transport = X H skew(XᵀV) H with H = expm(½logm(XᵀY)).
  [[nodiscard]] ExpVjp<Point, Tangent> exp_vjp(const Point& x, const Tangent& v, const Point& g) const {
    if (checks_enabled()) {
      check_tangent_at(name("exp_vjp"), x, v);
      check_cotangent(name("exp_vjp"), g);
    }
    const Matrix<T> omega = so_detail::skew<T>(x.transpose() * v);
    const Matrix<T> e = so_detail::expm_skew<T>(omega);
    const Matrix<T> grad_omega = so_detail::skew<T>(
        linalg::expm_derivative_adjoint(linalg::SkewSpectrum<T>(omega), Matrix<T>(x.transpose() * g)));
    return {Point(g * e.transpose() + v * grad_omega.transpose()), Tangent(x * grad_omega)};
  }

  [[nodiscard]] LogVjp<Point> log_vjp(const Point& x, const Point& y, const Tangent& g) const {
    if (checks_enabled()) {
      check_two(name("log_vjp"), x, y);
      check_cotangent(name("log_vjp"), g);
    }
    const Matrix<T> lambda = relative_log(name("log_vjp"), x, y);
    const Matrix<T> grad_relative = relative_log_adjoint(lambda, Matrix<T>(x.transpose() * g));
    return {Point(g * lambda.transpose() + y * grad_relative.transpose()), Point(x * grad_relative)};
  }

  [[nodiscard]] TransportVjp<Point, Tangent> transport_vjp(const Point& x, const Point& y, const Tangent& v,
                                                           const Tangent& g) const {
    if (checks_enabled()) {
      check_two(name("transport_vjp"), x, y);
      check_tangent_at(name("transport_vjp"), x, v);
      check_cotangent(name("transport_vjp"), g);
    }
    const Matrix<T> lambda = relative_log(name("transport_vjp"), x, y);
    const Matrix<T> half_log = lambda / 2;
    const Matrix<T> h = so_detail::expm_skew<T>(half_log);
    const Matrix<T> a = so_detail::skew<T>(x.transpose() * v);
    const Matrix<T> xh = x * h;
    // T = (XH)·A·H: ∂X from the first factor, ∂H from both places it appears, ∂A.
    const Matrix<T> grad_a = so_detail::skew<T>(xh.transpose() * g * h.transpose());
    const Matrix<T> grad_h = x.transpose() * g * (a * h).transpose() + (xh * a).transpose() * g;
    const Matrix<T> grad_lambda =
        so_detail::skew<T>(linalg::expm_derivative_adjoint(linalg::SkewSpectrum<T>(half_log), grad_h)) / T(2);
    const Matrix<T> grad_relative = relative_log_adjoint(lambda, grad_lambda);
    return {Point(g * (h * a * h).transpose() + v * grad_a.transpose() + y * grad_relative.transpose()),
            Point(x * grad_relative), Tangent(x * grad_a)};
  }

  [[nodiscard]] T inner(const Point& x, const Tangent& u, const Tangent& v) const {
    if (checks_enabled()) {
      check_tangent_at(name("inner"), x, u);
      check_tangent_at(name("inner"), x, v);
    }
    return u.cwiseProduct(v).sum() / 2;
  }

  [[nodiscard]] T norm(const Point& x, const Tangent& v) const {
    if (checks_enabled()) check_tangent_at(name("norm"), x, v);
    return v.norm() / std::sqrt(T(2));
  }

  [[nodiscard]] T dist(const Point& x, const Point& y) const {
    if (checks_enabled()) check_two(name("dist"), x, y);
    if (!same_component(x, y)) return std::numeric_limits<T>::infinity();
    return so_detail::logm_rotation<T>(x.transpose() * y).norm() / std::sqrt(T(2));
  }

  [[nodiscard]] Tangent project(const Point& x, const Tangent& a) const {
    if (checks_enabled()) {
      check_point(name("project"), x);
      require_shape(name("project").c_str(), "ambient matrix", a, n_, n_);
      require_finite(name("project").c_str(), "ambient matrix", a);
    }
    return x * so_detail::skew<T>(x.transpose() * a);
  }

  /// The Riemannian gradient from the Euclidean gradient g (∂f/∂x entrywise): the metric is
  /// ½·tr(UᵀV), half the ambient one, so it is twice the tangent part of g.
  [[nodiscard]] Tangent egrad_to_rgrad(const Point& x, const Tangent& g) const {
    if (checks_enabled()) {
      check_point(name("egrad_to_rgrad"), x);
      require_shape(name("egrad_to_rgrad").c_str(), "Euclidean gradient", g, n_, n_);
      require_finite(name("egrad_to_rgrad").c_str(), "Euclidean gradient", g);
    }
    return T(2) * x * so_detail::skew<T>(x.transpose() * g);
  }

  [[nodiscard]] Point retract(const Point& x, const Tangent& v) const {
    if (checks_enabled()) check_tangent_at(name("retract"), x, v);
    const Eigen::HouseholderQR<Matrix<T>> qr(x + v);
    Matrix<T> q = qr.householderQ();
    for (int j = 0; j < n_; ++j) {
      if (qr.matrixQR()(j, j) < 0) q.col(j) *= -1;
    }
    return so_detail::reorthonormalise<T>(q);
  }

  [[nodiscard]] Point random_point(Rng& rng) const {
    Matrix<T> q = linalg::haar_orthogonal<T>(n_, rng);
    if (kSpecial && q.determinant() < 0) q.col(0) *= -1;
    return q;
  }

  [[nodiscard]] Tangent random_tangent(const Point& x, Rng& rng) const {
    return x * hat(rng.normal_matrix<T>(dim(), 1));
  }

  void check_point(const Point& x) const { check_point(name("check_point"), x); }
  void check_tangent(const Point& x, const Tangent& v) const { check_tangent_at(name("check_tangent"), x, v); }

  // ── group ──
  [[nodiscard]] Point identity() const { return Matrix<T>::Identity(n_, n_); }

  [[nodiscard]] Point compose(const Point& g, const Point& h) const {
    if (checks_enabled()) check_two(name("compose"), g, h);
    return so_detail::reorthonormalise<T>(g * h);
  }

  [[nodiscard]] Point inverse(const Point& g) const {
    if (checks_enabled()) check_point(name("inverse"), g);
    return g.transpose();
  }

  // ── Group derivatives (gyre/core/group_derivatives.hpp) ──
  // compose = g·h (the Newton–Schulz renormalisation moves nothing along the group: at an
  // orthogonal X = gh with XᵀdX skew, d[X(3I − XᵀX)/2] = dX), so ⟨G, dg·h + g·dh⟩ gives
  // ∂g = G·hᵀ, ∂h = gᵀ·G; inverse = gᵀ, so ∂g = Gᵀ.
  [[nodiscard]] ComposeVjp<Point> compose_vjp(const Point& g, const Point& h, const Point& cotangent) const {
    if (checks_enabled()) {
      check_two(name("compose_vjp"), g, h);
      check_cotangent(name("compose_vjp"), cotangent);
    }
    return {Point(cotangent * h.transpose()), Point(g.transpose() * cotangent)};
  }

  [[nodiscard]] Point inverse_vjp(const Point& g, const Point& cotangent) const {
    if (checks_enabled()) {
      check_point(name("inverse_vjp"), g);
      check_cotangent(name("inverse_vjp"), cotangent);
    }
    return cotangent.transpose();
  }

  [[nodiscard]] Tangent hat(const Algebra& a) const {
    if (checks_enabled()) {
      require_size(name("hat").c_str(), "algebra vector", a, dim());
      require_finite(name("hat").c_str(), "algebra vector", a);
    }
    return so_detail::hat<T>(a, n_);
  }

  [[nodiscard]] Algebra vee(const Tangent& a) const {
    if (checks_enabled()) {
      require_shape(name("vee").c_str(), "algebra matrix", a, n_, n_);
      require_finite(name("vee").c_str(), "algebra matrix", a);
      const T asymmetry = (a + a.transpose()).norm() / 2;
      require_small(name("vee").c_str(), "matrix is not skew (‖A + Aᵀ‖/2)", asymmetry,
                    membership_tolerance<T>() * std::max(T(1), a.norm()));
    }
    return so_detail::vee<T>(a);
  }

  [[nodiscard]] Point algebra_exp(const Algebra& a) const {
    return so_detail::reorthonormalise<T>(so_detail::expm_skew<T>(hat(a)));
  }

  [[nodiscard]] Algebra algebra_log(const Point& g) const {
    if (checks_enabled()) check_point(name("algebra_log"), g);
    if (!kSpecial && g.determinant() < 0) {
      throw DomainError(name("algebra_log"), "element is not in the identity component (det)", g.determinant());
    }
    return so_detail::vee<T>(so_detail::logm_rotation<T>(g));
  }

  [[nodiscard]] Matrix<T> adjoint(const Point& g) const {
    if (checks_enabled()) check_point(name("adjoint"), g);
    Matrix<T> ad(dim(), dim());
    for (int k = 0; k < dim(); ++k) {
      ad.col(k) = so_detail::vee<T>(g * so_detail::hat<T>(Algebra::Unit(dim(), k), n_) * g.transpose());
    }
    return ad;
  }

  [[nodiscard]] ActedPoint act(const Point& g, const ActedPoint& p) const {
    if (checks_enabled()) {
      check_point(name("act"), g);
      require_size(name("act").c_str(), "acted point", p, n_);
      require_finite(name("act").c_str(), "acted point", p);
    }
    return g * p;
  }

 private:
  std::string name(const char* function) const { return std::string(kSpecial ? "SO::" : "O::") + function; }

  // XᵀY's principal log; DomainError across the components of O(n).
  Matrix<T> relative_log(const std::string& function, const Point& x, const Point& y) const {
    const Matrix<T> relative = x.transpose() * y;
    if (!kSpecial && relative.determinant() < 0) {
      throw DomainError(function, "points lie in different components of O(n) (det XᵀY)", relative.determinant());
    }
    return so_detail::logm_rotation<T>(relative);
  }

  // The gradient with respect to Z = XᵀY of ⟨G, Λ⟩ for Λ = logm(Z) (skew): Dlog = Dexp(Λ)⁻¹.
  static Matrix<T> relative_log_adjoint(const Matrix<T>& lambda, const Matrix<T>& g) {
    return linalg::expm_derivative_adjoint_inverse(linalg::SkewSpectrum<T>(lambda), so_detail::skew<T>(g));
  }

  void check_cotangent(const std::string& function, const Matrix<T>& g) const {
    require_shape(function.c_str(), "cotangent", g, n_, n_);
    require_finite(function.c_str(), "cotangent", g);
  }

  bool same_component(const Point& x, const Point& y) const {
    return kSpecial || (x.transpose() * y).determinant() > 0;
  }

  void check_point(const std::string& function, const Point& x) const {
    const char* f = function.c_str();
    require_shape(f, "point", x, n_, n_);
    require_finite(f, "point", x);
    const T error = (x.transpose() * x - Matrix<T>::Identity(n_, n_)).norm();
    require_small(f, "point is not orthogonal (‖XᵀX − I‖_F)", error, membership_tolerance<T>());
    if (kSpecial) {
      const T det = x.determinant();
      if (!(det > 0)) throw DomainError(function, "point has determinant −1, not a rotation (det)", det);
    }
  }

  void check_tangent_at(const std::string& function, const Point& x, const Tangent& v) const {
    check_point(function, x);
    const char* f = function.c_str();
    require_shape(f, "tangent vector", v, n_, n_);
    require_finite(f, "tangent vector", v);
    const Matrix<T> a = x.transpose() * v;
    const T error = (a + a.transpose()).norm() / 2;
    require_small(f, "vector is not tangent at X: XᵀV is not skew (‖XᵀV + VᵀX‖_F/2)", error,
                  membership_tolerance<T>() * std::max(T(1), v.norm()));
  }

  void check_two(const std::string& function, const Point& x, const Point& y) const {
    check_point(function, x);
    check_point(function, y);
  }

  int n_;
};

}  // namespace gyre
