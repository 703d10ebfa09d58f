#pragma once
// ============================================================================================
//  The Stiefel manifold St(n, p) = {X ∈ ℝⁿˣᵖ : XᵀX = I} of orthonormal p-frames in ℝⁿ, with
//  the Euclidean (embedded) metric.
// ============================================================================================
//  Storage   points are n×p matrices with orthonormal columns; tangent vectors are ambient n×p
//            matrices, T_X = {U : XᵀU + UᵀX = 0}. dim = np − p(p+1)/2.
//  Metric    ⟨U, V⟩ₓ = tr(UᵀV), induced from ℝⁿˣᵖ. St(n, 1) is the unit sphere Sⁿ⁻¹ with its round
//            metric; St(n, n) is O(n) with tr(AᵀB) on X·A, twice Gyre's O(n) metric ½·tr(AᵀB) (the
//            same geodesics, distances √2 times O(n)'s).
//  project   P_X(A) = A − X·sym(XᵀA), sym(M) = (M + Mᵀ)/2. egrad_to_rgrad(X, G) = P_X(G): the metric
//            is the ambient one, so the Riemannian gradient is the projected Euclidean gradient.
//  exp       the geodesic of Ÿ + Y·(ẎᵀẎ) = 0 (Edelman, Arias & Smith 1998, §2.2.2): with A = XᵀU,
//            S = UᵀU, exp_X(U) = [X, U]·expm([[A, −S], [I, A]])·[expm(−A); 0] (Eigen's expm),
//            applied to P_X(U) (the formula needs XᵀU skew; check_tangent accepts √ε of normal
//            part) and re-normalised by one Newton–Schulz step Y·(3I − YᵀY)/2. For ‖U‖ > 1 the
//            2p×2p matrix is balanced (stiefel_detail::geodesic_end), so the error grows like
//            ε·‖U‖, the conditioning of the geodesic itself (measured in double on St(3,1),
//            St(5,2), St(4,4): drift off St ≤ 1e-11 at ‖U‖ = 1e4, ≤ 2e-9 at 1e6). Domain: every
//            tangent whose geodesic is still followed to √ε — exp throws DomainError when its
//            unnormalised result strays from St by more than √ε (measured: from ‖U‖ ≈ 1e8 in
//            double, 1e3–1e4 in float; always for 1e300), never NaN.
//  log       no closed form for this metric: Gauss–Newton shooting on exp_X(U) = Y with the exact
//            derivative of exp, in the 2p-dimensional span of X and Y (stiefel_detail.hpp). It
//            returns U only when exp_X(U) = Y to rounding (‖residual‖_F ≤ 32·ε·√(mp), m = min(n, 2p)) and
//            ‖U‖ < injectivity_radius(), where the geodesic is certainly the unique minimising
//            one. Otherwise it throws: ConvergenceError when the shooting does not converge in
//            50 iterations (it names the residual), DomainError when it converges to a geodesic
//            of length ≥ the injectivity radius (which may not be minimising).
//            Tested domain (not a proof of convergence): four kinds of direction — generic, purely
//            normal, a rotation of the frame, one column on a great circle — on St(3,1), St(5,2),
//            St(8,3), St(5,3), St(4,3), St(4,4), in double and float: log returns v from
//            y = exp(x, v) for ‖v‖ up to 0.99·r on 200 seeds each and up to 0.999·r on the hard
//            directions (tests/geometries/stiefel_test.cpp); the error grows like ε·r/(r − ‖v‖),
//            the conditioning of the problem. Cost: O(p⁵) per iteration, independent of n.
//  dist      ‖log(X, Y)‖: defined, like log, for points closer than the injectivity radius (the
//            diameter of St(n, p) is larger, and Gyre does not certify longer geodesics as
//            minimising); throws as log does beyond it. For p = n, +∞ between the two components.
//  Injectivity radius  π for p < n (Zimmermann & Stoye 2024, "The injectivity radius of the
//            compact Stiefel manifold under the Euclidean metric"; reached by one column turning
//            on a great circle); √2·π for p = n (O(n): a rotation by π in one plane).
//  transport VECTOR TRANSPORT BY PROJECTION, NOT PARALLEL TRANSPORT: transport(X, Y, V) = P_Y(V)
//            (geoopt's EuclideanStiefel does the same). It maps T_X into T_Y, is the identity for
//            Y = X and never lengthens V (‖P_Y V‖ ≤ ‖V‖), but it is not an isometry and does not
//            move the geodesic's velocity onto itself. kTransportIsProjection tells the law
//            checker so (gyre/check/manifold_laws.hpp).
//  retract   QR: the Q factor of X + U with diag(R) > 0 (geoopt's EuclideanStiefel.retr), a
//            first-order retraction; polar_retract: (X + U)(I + UᵀU)^-½, the nearest frame to
//            X + U, a second-order retraction for this metric (Absil & Malick 2012), computed as
//            the polar factor W·Vᵀ of the SVD X + U = W·Σ·Vᵀ (equal, as (X + U)ᵀ(X + U) = I + UᵀU).
//            X + U always has full rank, and both factorisations run on X + U scaled by its largest
//            entry, so both retractions are defined for every finite tangent, 1e300 included.
//  VJPs      exp_vjp: the adjoint of the geodesic's formula (adjoints of expm's Fréchet derivative);
//            log_vjp: implicit differentiation of exp(X, U) = Y, one d×d solve (d = dim) on a basis
//            of T_X; transport_vjp: of the projection (gyre/core/derivatives.hpp).
//  Sampling  random_point: Haar (the Q factor, diag(R) > 0, of an n×p Gaussian; Mezzadri 2007);
//            random_tangent: P_X(G), G an n×p Gaussian — a standard Gaussian of T_X.
//  Validity  check_point: n×p, finite, ‖XᵀX − I‖_F ≤ √ε. check_tangent: n×p, finite,
//            ‖XᵀV + VᵀX‖_F/2 ≤ √ε·max(1, ‖V‖_F). (√ε = membership_tolerance: 1.5e-8 in double.)
//  References: Edelman, Arias & Smith 1998, "The geometry of algorithms with orthogonality
//            constraints"; Absil, Mahony & Sepulchre 2008, §3.3.2 and ex. 4.1.3; Zimmermann &
//            Hüper 2022, "Computing the Riemannian logarithm on the Stiefel manifold" (shooting).
// ============================================================================================

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <Eigen/LU>
#include <boost/math/constants/constants.hpp>

#include "gyre/core/checks.hpp"
#include "gyre/core/derivatives.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/manifold.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/core/types.hpp"
#include "gyre/core/validate.hpp"
#include "gyre/linalg/haar.hpp"
#include "stiefel_detail.hpp"

namespace gyre {

/// The Stiefel manifold St(n, p) of orthonormal n×p frames with the Euclidean metric tr(UᵀV).
template <class T>
class Stiefel {
 public:
  using Scalar = T;
  using Point = Matrix<T>;
  using Tangent = Matrix<T>;

  /// transport is the projection onto T_Y, not parallel transport (see the header).
  static constexpr bool kTransportIsProjection = true;
  /// log and dist are defined only closer than the injectivity radius (see the header).
  static constexpr bool kLogIsLocal = true;
  /// The shooting's iteration budget; 3–10 iterations were measured inside the radius.
  static constexpr int kLogIterations = 50;

  /// St(n, p) for 1 ≤ p ≤ n, n ≥ 2.
  Stiefel(int n, int p) : n_(n), p_(p) {
    if (n < 2 || p < 1 || p > n) {
      throw DomainError("Stiefel::Stiefel", "needs 1 ≤ p ≤ n and n ≥ 2 (p)",
                        std::to_string(p) + " of n = " + std::to_string(n));
    }
  }

  [[nodiscard]] int n() const { return n_; }
  [[nodiscard]] int p() const { return p_; }
  [[nodiscard]] int dim() const { return n_ * p_ - p_ * (p_ + 1) / 2; }
  [[nodiscard]] T injectivity_radius() const {
    return p_ < n_ ? boost::math::constants::pi<T>()
                   : boost::math::constants::root_two<T>() * boost::math::constants::pi<T>();
  }

  [[nodiscard]] Point exp(const Point& x, const Tangent& u) const {
    if (checks_enabled()) check_point_tangent("Stiefel::exp", x, u);
    // The formula assumes XᵀU skew; the normal part check_tangent lets through (rounding, up to
    // √ε·‖U‖) would bend the curve by as much, so it is projected away first.
    const Matrix<T> end = stiefel_detail::geodesic_end<T>(x, stiefel_detail::project<T>(x, u));
    // expm's rounding grows with ‖U‖ and shows as a drift off St: beyond √ε the Newton–Schulz step
    // could not repair it, and the geodesic is no longer followed to useful accuracy. Measured
    // beyond x's own distance from St, which a ChecksOff caller may pass in unchecked.
    const Matrix<T> identity = Matrix<T>::Identity(p_, p_);
    const T drift = (end.transpose() * end - identity).norm() - (x.transpose() * x - identity).norm();
    if (!(drift <= membership_tolerance<T>())) {
      throw DomainError("Stiefel::exp",
                        "the tangent vector is too long to follow its geodesic accurately: the result strays "
                        "from St(n, p) by more than √ε (‖U‖_F)",
                        u.stableNorm());
    }
    return stiefel_detail::reorthonormalise<T>(end);
  }

  [[nodiscard]] Tangent log(const Point& x, const Point& y) const {
    if (checks_enabled()) check_two_points("Stiefel::log", x, y);
    return log_unchecked("Stiefel::log", x, y);
  }

  /// P_Y(V): vector transport by projection, not parallel transport (see the header).
  [[nodiscard]] Tangent transport(const Point& x, const Point& y, const Tangent& v) const {
    if (checks_enabled()) {
      check_two_points("Stiefel::transport", x, y);
      check_tangent("Stiefel::transport", x, v);
    }
    return stiefel_detail::project<T>(y, v);
  }

  /// ∂L/∂X and ∂L/∂U of Y = exp(X, U) (gyre/core/derivatives.hpp): the adjoint of the geodesic's
  /// formula (stiefel_detail::geodesic_vjp). The final Newton–Schulz step has derivative P_Y at an
  /// orthonormal Y, so G enters as P_Y(G).
  [[nodiscard]] ExpVjp<Point, Tangent> exp_vjp(const Point& x, const Tangent& u, const Point& g) const {
    if (checks_enabled()) {
      check_point_tangent("Stiefel::exp_vjp", x, u);
      check_cotangent("Stiefel::exp_vjp", g);
    }
    const Matrix<T> tangent = stiefel_detail::project<T>(x, u);
    const stiefel_detail::Geodesic<T> geodesic = stiefel_detail::geodesic<T>(x, tangent);
    const Matrix<T> end = stiefel_detail::reorthonormalise<T>(geodesic.end);
    const stiefel_detail::GeodesicVjp<T> vjp =
        stiefel_detail::geodesic_vjp<T>(x, tangent, geodesic, stiefel_detail::project<T>(end, g));
    return {vjp.x, vjp.u};
  }

  /// ∂L/∂X and ∂L/∂Y of U = log(X, Y), by implicit differentiation of exp(X, U) = Y: with J = D_U exp
  /// on T_X (invertible inside the injectivity radius) and Λ = J^-*(P_X G) ∈ T_Y,
  ///   ∂L/∂Y = Λ,   ∂L/∂X = −(D_X exp)*Λ + U·sym(Xᵀ(D_U exp)*Λ) − U·sym(XᵀG),
  /// the last two terms from the normal part of U's variation, fixed by XᵀU skew. J is assembled
  /// column by column on an orthonormal basis of T_X (d = np − p(p+1)/2 Fréchet derivatives).
  [[nodiscard]] LogVjp<Point> log_vjp(const Point& x, const Point& y, const Tangent& g) const {
    if (checks_enabled()) {
      check_two_points("Stiefel::log_vjp", x, y);
      check_cotangent("Stiefel::log_vjp", g);
    }
    const Matrix<T> u = log_unchecked("Stiefel::log_vjp", x, y);
    const stiefel_detail::Geodesic<T> geodesic = stiefel_detail::geodesic<T>(x, u);
    const Matrix<T> basis = stiefel_detail::tangent_basis<T>(x);
    const Eigen::Index np = static_cast<Eigen::Index>(n_) * p_;
    Matrix<T> jacobian(np, basis.cols());
    for (Eigen::Index k = 0; k < basis.cols(); ++k) {
      const Matrix<T> h = Eigen::Map<const Matrix<T>>(basis.col(k).data(), n_, p_);
      const Matrix<T> column = stiefel_detail::geodesic_derivative<T>(x, u, geodesic, h);
      jacobian.col(k) = Eigen::Map<const Vector<T>>(column.data(), np);
    }
    // Λ = J(JᵀJ)⁻¹Bᵀg = Q·R⁻ᵀ·Bᵀg for the thin QR J = Q·R.
    const Eigen::HouseholderQR<Matrix<T>> qr(jacobian);
    const Eigen::Index d = basis.cols();
    const Matrix<T> r = qr.matrixQR().topLeftCorner(d, d).template triangularView<Eigen::Upper>();
    const T smallest = r.diagonal().cwiseAbs().minCoeff();
    if (!(smallest > std::numeric_limits<T>::epsilon() * std::max(T(1), r.diagonal().cwiseAbs().maxCoeff()))) {
      throw DomainError("Stiefel::log_vjp", "exp is singular at log(X, Y): Y is conjugate to X (smallest |R_kk|)",
                        smallest);
    }
    const Vector<T> coordinates = basis.transpose() * Eigen::Map<const Vector<T>>(g.data(), np);
    const Vector<T> z = r.transpose().template triangularView<Eigen::Lower>().solve(coordinates);
    Vector<T> padded = Vector<T>::Zero(np);
    padded.head(d) = z;
    const Vector<T> lambda_flat = qr.householderQ() * padded;
    const Matrix<T> lambda = Eigen::Map<const Matrix<T>>(lambda_flat.data(), n_, p_);
    const stiefel_detail::GeodesicVjp<T> through_exp = stiefel_detail::geodesic_vjp<T>(x, u, geodesic, lambda);
    const Matrix<T> xm = x.transpose() * through_exp.u;
    const Matrix<T> xg = x.transpose() * g;
    return {Point(-through_exp.x + u * stiefel_detail::sym<T>(xm) - u * stiefel_detail::sym<T>(xg)), Point(lambda)};
  }

  /// ∂L/∂X, ∂L/∂Y and ∂L/∂V of P_Y(V) = V − Y·sym(YᵀV): ∂V = P_Y(G) (P_Y is self-adjoint),
  /// ∂Y = −G·sym(YᵀV) − V·sym(YᵀG), ∂X = 0 (X enters only through V's tangent space).
  [[nodiscard]] TransportVjp<Point, Tangent> transport_vjp(const Point& x, const Point& y, const Tangent& v,
                                                           const Tangent& g) const {
    if (checks_enabled()) {
      check_two_points("Stiefel::transport_vjp", x, y);
      check_tangent("Stiefel::transport_vjp", x, v);
      check_cotangent("Stiefel::transport_vjp", g);
    }
    const Matrix<T> grad_y = -g * stiefel_detail::sym<T>(Matrix<T>(y.transpose() * v)) -
                             v * stiefel_detail::sym<T>(Matrix<T>(y.transpose() * g));
    return {Point(Matrix<T>::Zero(n_, p_)), Point(grad_y), Tangent(stiefel_detail::project<T>(y, g))};
  }

  [[nodiscard]] T inner(const Point& x, const Tangent& u, const Tangent& v) const {
    if (checks_enabled()) {
      check_point_tangent("Stiefel::inner", x, u);
      check_tangent("Stiefel::inner", x, v);
    }
    return u.cwiseProduct(v).sum();
  }

  [[nodiscard]] T norm(const Point& x, const Tangent& v) const {
    if (checks_enabled()) check_point_tangent("Stiefel::norm", x, v);
    return v.stableNorm();  // stable: ‖v‖ of a 1e-300 or 1e300 tangent is representable, ‖v‖² is not
  }

  /// ‖log(X, Y)‖; +∞ between the components of St(n, n) = O(n); throws as log does beyond the
  /// injectivity radius.
  [[nodiscard]] T dist(const Point& x, const Point& y) const {
    if (checks_enabled()) check_two_points("Stiefel::dist", x, y);
    if (!same_component(x, y)) return std::numeric_limits<T>::infinity();
    return log_unchecked("Stiefel::dist", x, y).stableNorm();  // the same norm as norm()
  }

  /// A − X·sym(XᵀA).
  [[nodiscard]] Tangent project(const Point& x, const Tangent& a) const {
    if (checks_enabled()) check_point_ambient("Stiefel::project", x, a);
    return stiefel_detail::project<T>(x, a);
  }

  /// The Riemannian gradient of a function whose Euclidean gradient at X is G: P_X(G).
  [[nodiscard]] Tangent egrad_to_rgrad(const Point& x, const Tangent& g) const {
    if (checks_enabled()) check_point_ambient("Stiefel::egrad_to_rgrad", x, g);
    return stiefel_detail::project<T>(x, g);
  }

  /// The QR retraction: the Q factor of X + U with diag(R) > 0.
  [[nodiscard]] Point retract(const Point& x, const Tangent& u) const {
    if (checks_enabled()) check_point_tangent("Stiefel::retract", x, u);
    return stiefel_detail::reorthonormalise<T>(linalg::positive_q_factor<T>(Matrix<T>(x + u)));
  }

  /// The polar retraction (X + U)(I + UᵀU)^-½: the frame nearest to X + U.
  [[nodiscard]] Point polar_retract(const Point& x, const Tangent& u) const {
    if (checks_enabled()) check_point_tangent("Stiefel::polar_retract", x, u);
    return stiefel_detail::reorthonormalise<T>(stiefel_detail::polar_factor<T>(Matrix<T>(x + u)));
  }

  [[nodiscard]] Point random_point(Rng& rng) const { return linalg::haar_frame<T>(n_, p_, rng); }

  [[nodiscard]] Tangent random_tangent(const Point& x, Rng& rng) const {
    return stiefel_detail::project<T>(x, rng.normal_matrix<T>(n_, p_));
  }

  void check_point(const Point& x) const { check_point("Stiefel::check_point", x); }
  void check_tangent(const Point& x, const Tangent& v) const { check_point_tangent("Stiefel::check_tangent", x, v); }

 private:
  Tangent log_unchecked(const char* function, const Point& x, const Point& y) const {
    if (!same_component(x, y)) {
      throw DomainError(function, "points lie in different components of St(n, n) = O(n) (det XᵀY)",
                        (x.transpose() * y).determinant());
    }
    const stiefel_detail::Shot<T> shot = stiefel_detail::shoot<T>(x, y, kLogIterations);
    // Converged: the residual is at the rounding level of exp (measured ≤ 4·ε·√(mp), m = min(n, 2p)).
    const T m = static_cast<T>(std::min(n_, 2 * p_));
    const T converged = 32 * std::numeric_limits<T>::epsilon() * std::sqrt(m * static_cast<T>(p_));
    if (!(shot.residual <= converged)) {
      throw ConvergenceError(function,
                             "the shooting for exp(x, u) = y did not converge in " + std::to_string(shot.iterations) +
                                 " iterations; y may be beyond the injectivity radius (‖exp(x, u) − y‖_F)",
                             shot.residual);
    }
    const T length = shot.u.norm();
    if (!(length < injectivity_radius())) {
      throw DomainError(
          function, "the geodesic found is not shorter than the injectivity radius, so it may not be minimising (‖u‖)",
          length);
    }
    return shot.u;
  }

  bool same_component(const Point& x, const Point& y) const { return p_ < n_ || (x.transpose() * y).determinant() > 0; }

  void check_point(const char* function, const Point& x) const {
    require_shape(function, "point", x, n_, p_);
    require_finite(function, "point", x);
    const T error = (x.transpose() * x - Matrix<T>::Identity(p_, p_)).norm();
    require_small(function, "point is not orthonormal (‖XᵀX − I‖_F)", error, membership_tolerance<T>());
  }

  void check_tangent(const char* function, const Point& x, const Tangent& v) const {
    require_shape(function, "tangent vector", v, n_, p_);
    require_finite(function, "tangent vector", v);
    const Matrix<T> a = x.transpose() * v;
    // Stable norms: for a huge V, ‖XᵀV + VᵀX‖ and ‖V‖ must not both overflow to ∞ and pass by accident.
    const T error = (a + a.transpose()).stableNorm() / 2;
    require_small(function, "vector is not tangent at X: XᵀV is not skew (‖XᵀV + VᵀX‖_F/2)", error,
                  membership_tolerance<T>() * std::max(T(1), v.stableNorm()));
  }

  void check_point_tangent(const char* function, const Point& x, const Tangent& v) const {
    check_point(function, x);
    check_tangent(function, x, v);
  }

  void check_point_ambient(const char* function, const Point& x, const Matrix<T>& a) const {
    check_point(function, x);
    require_shape(function, "ambient matrix", a, n_, p_);
    require_finite(function, "ambient matrix", a);
  }

  void check_two_points(const char* function, const Point& x, const Point& y) const {
    check_point(function, x);
    check_point(function, y);
  }

  void check_cotangent(const char* function, const Matrix<T>& g) const {
    require_shape(function, "cotangent", g, n_, p_);
    require_finite(function, "cotangent", g);
  }

  int n_;
  int p_;
};

static_assert(is_manifold_v<Stiefel<float>> && is_manifold_v<Stiefel<double>>);

}  // namespace gyre
