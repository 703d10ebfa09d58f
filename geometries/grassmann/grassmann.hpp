#pragma once
// ============================================================================================
//  The Grassmannian Gr(n, p) of p-dimensional subspaces of ℝⁿ, in two representations:
//  Grassmann<T>           points n×p orthonormal bases U (any basis of the subspace),
//  GrassmannProjector<T>  points n×n orthogonal projectors P = U Uᵀ of rank p.
// ============================================================================================
//  Tangents  at a basis U: horizontal n×p matrices Δ (UᵀΔ = 0), expressed at that basis;
//            at a projector P: symmetric X = ΔUᵀ + UΔᵀ (X = PX + XP).
//  Metric    ⟨Δ₁, Δ₂⟩ = tr(Δ₁ᵀΔ₂) = ½ tr(X₁X₂): the canonical metric, d² = Σ θᵢ² over the
//            principal angles θᵢ. (geomstats puts tr(X₁X₂) on projectors, i.e. d² = 2Σθᵢ².)
//  angles    θᵢ = atan2(sᵢ, cᵢ) from the SVD UᵀY = A·diag(c)·Bᵀ and the column norms sᵢ of
//            (I − UUᵀ)YB (Björck & Golub 1973): accurate for small angles and near π/2, unlike
//            acos(cᵢ) alone.
//  exp       Δ = QΣVᵀ (thin SVD): exp_U(Δ) = U V cosΣ Vᵀ + Q sinΣ Vᵀ (Edelman, Arias & Smith 1998),
//            re-orthonormalised by Y(YᵀY)^-½.
//  log       SVD-based, no matrix logarithm: log_U(Y) = (I − UUᵀ)YB·diag(θᵢ/sᵢ)·Aᵀ, with θ/s → 1/c
//            as s → 0. Cut locus: a principal angle of π/2 (cᵢ ≤ 4ε), where the log is not unique:
//            DomainError. Injectivity radius π/2.
//  transport along the geodesic U → Y, Δ = log_U(Y) = QΣVᵀ:
//            W ↦ (−U V sinΣ Qᵀ + Q cosΣ Qᵀ + I − QQᵀ)W (Edelman et al. (2.68)), then re-expressed at the
//            basis Y as given: the geodesic ends at the basis Y' = exp_U(Δ) = Y·O, O = Y'ᵀY orthogonal,
//            and a tangent W' at Y' is W'·O at Y.
//  Point comparison: two bases are the same point when their projectors agree; point_gap(U, Y) =
//            ‖UUᵀ − YYᵀ‖_F/√2 (= √Σ sin²θᵢ) is what the law checker compares.
//  Sampling  random_point: Haar (QR of a Gaussian); random_tangent: (I − UUᵀ)G, G Gaussian.
// ============================================================================================

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SVD>
#include <boost/math/constants/constants.hpp>

#include "grassmann_derivatives.hpp"
#include "gyre/core/checks.hpp"
#include "gyre/core/derivatives.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/group_derivatives.hpp"
#include "gyre/core/gyrogroup.hpp"
#include "gyre/core/manifold.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/core/types.hpp"
#include "gyre/core/validate.hpp"
#include "gyre/linalg/haar.hpp"
#include "gyre/linalg/symmetric_functions.hpp"

namespace gyre {

namespace grassmann {

/// The principal-angle decomposition of two bases: UᵀY = A·diag(c)·Bᵀ, sᵢ = ‖((I − UUᵀ)YB)ᵢ‖,
/// θᵢ = atan2(sᵢ, cᵢ), and the columns of (I − UUᵀ)YB.
template <class T>
struct PrincipalAngles {
  Matrix<T> a, b;
  Vector<T> cosines, sines, angles;
  Matrix<T> orthogonal_part;  // (I − UUᵀ)YB, columns orthogonal with norms sᵢ
};

template <class T>
[[nodiscard]] PrincipalAngles<T> principal_angles(const Matrix<T>& u, const Matrix<T>& y) {
  const Eigen::JacobiSVD<Matrix<T>> svd(u.transpose() * y, Eigen::ComputeFullU | Eigen::ComputeFullV);
  PrincipalAngles<T> r;
  r.a = svd.matrixU();
  r.b = svd.matrixV();
  r.cosines = svd.singularValues().cwiseMin(T(1));
  const Matrix<T> yb = y * r.b;
  r.orthogonal_part = yb - u * (u.transpose() * yb);
  r.sines = r.orthogonal_part.colwise().norm().transpose();
  r.angles.resize(r.cosines.size());
  for (Eigen::Index i = 0; i < r.cosines.size(); ++i) r.angles(i) = std::atan2(r.sines(i), r.cosines(i));
  return r;
}

/// log_U(Y) as in the header (principal angles by the SVD of UᵀY, then (I − UUᵀ)YB·diag(θ/s)·Aᵀ),
/// with n×p work matrices of type Tall and p×p ones of type Square: Matrix<T> for the one-item
/// log, stack-sized types for the batched one (grassmann_batch.hpp). Products are lazy: at these
/// sizes Eigen's blocked GEMM spends more on packing than on arithmetic.
template <class Tall, class Square, class U, class Y>
[[nodiscard]] Tall log_of_bases(const char* function, const U& u, const Y& y) {
  using T = typename Tall::Scalar;
  const Square m = u.transpose().lazyProduct(y);
  const Eigen::JacobiSVD<Square> svd(m, Eigen::ComputeFullU | Eigen::ComputeFullV);
  const Tall yb = y.lazyProduct(svd.matrixV());
  const Square u_yb = u.transpose().lazyProduct(yb);
  Tall orthogonal_part = yb - u.lazyProduct(u_yb);  // (I − UUᵀ)YB, column norms sᵢ
  const Eigen::Index p = m.cols();
  for (Eigen::Index i = 0; i < p; ++i) {
    const T c = std::min(svd.singularValues()(i), T(1));
    const T s = orthogonal_part.col(i).norm();
    if (!(c > 4 * std::numeric_limits<T>::epsilon())) {
      throw DomainError(function, "a principal angle is π/2, the log is not unique (cos θ)", c);
    }
    // θ = atan(t), t = s/c (c > 0 here): θ/s = (atan(t)/t)/c, with the series 1 − t²/3 below
    // t = 1e-4 (its next term t⁴/5 is below ε there).
    const T t = s / c;
    orthogonal_part.col(i) *= (t < T(1e-4) ? 1 - t * t / 3 : std::atan(t) / t) / c;
  }
  const Tall delta = orthogonal_part.lazyProduct(svd.matrixU().transpose());
  const Square u_delta = u.transpose().lazyProduct(delta);
  return delta - u.lazyProduct(u_delta);
}

/// Y(YᵀY)^-½: the orthonormal basis nearest to Y (removes rounding drift, keeps the basis).
template <class T>
[[nodiscard]] Matrix<T> reorthonormalize(const Matrix<T>& y) {
  const linalg::SymmetricEigen<T> e = linalg::symmetric_eigen<T>(Matrix<T>(y.transpose() * y));
  return y * linalg::apply(e, linalg::InverseSqrt{});
}

/// An orthonormal basis of the column span of any full-rank n×p matrix (DomainError naming the
/// smallest singular value when it is rank-deficient).
template <class T>
[[nodiscard]] Matrix<T> basis_of(const Matrix<T>& a) {
  require_finite("grassmann::basis_of", "matrix", a);
  if (a.cols() > a.rows() || a.cols() < 1) {
    throw ShapeError("grassmann::basis_of", "needs an n×p matrix with 1 ≤ p ≤ n", shape_string(a.rows(), a.cols()));
  }
  const Eigen::JacobiSVD<Matrix<T>> svd(a);
  const T smallest = svd.singularValues()(a.cols() - 1);
  if (!(smallest > std::numeric_limits<T>::epsilon() * svd.singularValues()(0) * static_cast<T>(a.rows()))) {
    throw DomainError("grassmann::basis_of", "basis is rank-deficient (smallest singular value)", smallest);
  }
  const Eigen::HouseholderQR<Matrix<T>> qr(a);
  return qr.householderQ() * Matrix<T>::Identity(a.rows(), a.cols());
}

}  // namespace grassmann

/// Gr(n, p) with points as n×p orthonormal bases.
template <class T>
class Grassmann {
 public:
  using Scalar = T;
  using Point = Matrix<T>;
  using Tangent = Matrix<T>;

  Grassmann(int n, int p) : n_(n), p_(p) {
    if (p < 1 || n <= p) {
      throw DomainError("Grassmann::Grassmann", "needs 1 ≤ p < n (p)",
                        std::to_string(p) + " of n = " + std::to_string(n));
    }
  }

  [[nodiscard]] int n() const { return n_; }
  [[nodiscard]] int p() const { return p_; }
  /// Gr(n, p) over double: where the derivative of a float batch's mean is assembled (frechet_mean_vjp).
  [[nodiscard]] Grassmann<double> in_double() const { return {n_, p_}; }
  [[nodiscard]] int dim() const { return p_ * (n_ - p_); }
  [[nodiscard]] T injectivity_radius() const { return boost::math::constants::half_pi<T>(); }

  [[nodiscard]] Point exp(const Point& u, const Tangent& delta) const {
    if (checks_enabled()) check_point_tangent("Grassmann::exp", u, delta);
    return exp_unchecked(u, delta);
  }

  [[nodiscard]] Tangent log(const Point& u, const Point& y) const {
    if (checks_enabled()) check_two_points("Grassmann::log", u, y);
    return log_unchecked("Grassmann::log", u, y);
  }

  [[nodiscard]] Tangent transport(const Point& u, const Point& y, const Tangent& w) const {
    if (checks_enabled()) {
      check_two_points("Grassmann::transport", u, y);
      check_tangent("Grassmann::transport", u, w);
    }
    const Tangent delta = log_unchecked("Grassmann::transport", u, y);
    const Eigen::JacobiSVD<Matrix<T>> svd(delta, Eigen::ComputeThinU | Eigen::ComputeThinV);
    const Matrix<T>& q = svd.matrixU();
    const Matrix<T>& v = svd.matrixV();
    const Vector<T> sigma = svd.singularValues();
    const Matrix<T> qtw = q.transpose() * w;
    Matrix<T> moved = w - q * qtw;
    moved += -u * (v * sigma.array().sin().matrix().asDiagonal() * qtw) +
             q * (sigma.array().cos().matrix().asDiagonal() * qtw);
    // `moved` is tangent at the geodesic's end basis Y' = Y·O; re-express it at Y.
    const Point end = exp_unchecked(u, delta);
    const Matrix<T> o = end.transpose() * y;
    Tangent at_y = moved * o;
    return at_y - y * (y.transpose() * at_y);  // strip the rounding's vertical part
  }

  // ── Derivatives (gyre/core/derivatives.hpp) ──
  // Through the SVD-free forms of grassmann_derivatives.hpp, with S = ΔᵀΔ:
  //   exp = U·C(S) + Δ·K(S);
  //   log = M·A(MᵀM) with M = (I − UUᵀ)·Y·(UᵀY)⁻¹ (the same subspace map as the SVD form);
  //   transport = (W − U·K(S)·ΔᵀW − Δ·C₂(S)·ΔᵀW)·(Y′ᵀY) with Δ = log_U(Y), Y′ = exp_U(Δ) —
  // the re-orthonormalisations and horizontal projections of the implementation move nothing
  // along the manifold. For S = ΔᵀΔ, ∂Δ ∋ 2Δ·∂S with ∂S the Daleckii–Krein pullback of each function.
  [[nodiscard]] ExpVjp<Point, Tangent> exp_vjp(const Point& u, const Tangent& delta, const Point& g) const {
    if (checks_enabled()) {
      check_point_tangent("Grassmann::exp_vjp", u, delta);
      check_cotangent("Grassmann::exp_vjp", g);
    }
    return exp_vjp_unchecked(u, delta, g);
  }

  [[nodiscard]] LogVjp<Point> log_vjp(const Point& u, const Point& y, const Tangent& g) const {
    if (checks_enabled()) {
      check_two_points("Grassmann::log_vjp", u, y);
      check_cotangent("Grassmann::log_vjp", g);
    }
    return log_vjp_unchecked("Grassmann::log_vjp", u, y, g);
  }

  [[nodiscard]] TransportVjp<Point, Tangent> transport_vjp(const Point& u, const Point& y, const Tangent& w,
                                                           const Tangent& g) const {
    if (checks_enabled()) {
      check_two_points("Grassmann::transport_vjp", u, y);
      check_tangent("Grassmann::transport_vjp", u, w);
      check_cotangent("Grassmann::transport_vjp", g);
    }
    const Tangent delta = log_unchecked("Grassmann::transport_vjp", u, y);
    const linalg::SymmetricEigen<T> s = linalg::symmetric_eigen<T>(Matrix<T>(delta.transpose() * delta));
    const Matrix<T> c = linalg::apply(s, grassmann::CosOfRoot{});
    const Matrix<T> k = linalg::apply(s, grassmann::SincOfRoot{});
    const Matrix<T> c2 = linalg::apply(s, grassmann::OneMinusCosOfRootOverS{});
    const Matrix<T> z = delta.transpose() * w;
    const Matrix<T> moved = w - u * (k * z) - delta * (c2 * z);
    const Matrix<T> end = u * c + delta * k;
    const Matrix<T> o = end.transpose() * y;
    // out = moved·O, O = Y′ᵀY, Y′ = U·C + Δ·K.
    const Matrix<T> grad_moved = g * o.transpose();
    const Matrix<T> grad_o = moved.transpose() * g;
    const Matrix<T> grad_end = y * grad_o.transpose();
    Matrix<T> grad_u = grad_end * c - grad_moved * z.transpose() * k;
    Matrix<T> grad_delta = grad_end * k - grad_moved * z.transpose() * c2;
    const Matrix<T> grad_z = -(k * (u.transpose() * grad_moved)) - c2 * (delta.transpose() * grad_moved);
    const Matrix<T> grad_c = u.transpose() * grad_end;
    const Matrix<T> grad_k = delta.transpose() * grad_end - u.transpose() * grad_moved * z.transpose();
    const Matrix<T> grad_c2 = -(delta.transpose() * grad_moved * z.transpose());
    grad_delta += w * grad_z.transpose();
    const Matrix<T> grad_s =
        linalg::frechet_derivative(s, grassmann::CosOfRoot{}, linalg::symmetric_part<T>(grad_c)) +
        linalg::frechet_derivative(s, grassmann::SincOfRoot{}, linalg::symmetric_part<T>(grad_k)) +
        linalg::frechet_derivative(s, grassmann::OneMinusCosOfRootOverS{}, linalg::symmetric_part<T>(grad_c2));
    grad_delta += 2 * delta * grad_s;
    LogVjp<Point> through_log = log_vjp_unchecked("Grassmann::transport_vjp", u, y, grad_delta);
    return {Point(grad_u + through_log.x), Point(through_log.y + end * grad_o), Tangent(grad_moved + delta * grad_z)};
  }

  [[nodiscard]] T inner(const Point& u, const Tangent& a, const Tangent& b) const {
    if (checks_enabled()) {
      check_point_tangent("Grassmann::inner", u, a);
      check_tangent("Grassmann::inner", u, b);
    }
    return a.cwiseProduct(b).sum();
  }
  [[nodiscard]] T norm(const Point& u, const Tangent& v) const {
    if (checks_enabled()) check_point_tangent("Grassmann::norm", u, v);
    return v.norm();
  }
  /// √Σθᵢ² over the principal angles.
  [[nodiscard]] T dist(const Point& u, const Point& y) const {
    if (checks_enabled()) check_two_points("Grassmann::dist", u, y);
    return grassmann::principal_angles<T>(u, y).angles.norm();
  }
  /// (I − UUᵀ)A.
  [[nodiscard]] Tangent project(const Point& u, const Tangent& a) const {
    if (checks_enabled()) {
      check_point("Grassmann::project", u);
      require_shape("Grassmann::project", "ambient matrix", a, n_, p_);
      require_finite("Grassmann::project", "ambient matrix", a);
    }
    return a - u * (u.transpose() * a);
  }
  /// The Riemannian gradient from the Euclidean gradient g = ∂f/∂U of a basis-invariant f: the
  /// metric is the ambient one on horizontal vectors, so it is g's horizontal part (I − UUᵀ)g.
  [[nodiscard]] Tangent egrad_to_rgrad(const Point& u, const Tangent& g) const {
    if (checks_enabled()) {
      check_point("Grassmann::egrad_to_rgrad", u);
      require_shape("Grassmann::egrad_to_rgrad", "Euclidean gradient", g, n_, p_);
      require_finite("Grassmann::egrad_to_rgrad", "Euclidean gradient", g);
    }
    return g - u * (u.transpose() * g);
  }
  /// The QR retraction: an orthonormal basis of U + Δ.
  [[nodiscard]] Point retract(const Point& u, const Tangent& delta) const {
    if (checks_enabled()) check_point_tangent("Grassmann::retract", u, delta);
    return grassmann::reorthonormalize<T>(Matrix<T>(u + delta));
  }
  [[nodiscard]] Point random_point(Rng& rng) const { return linalg::haar_frame<T>(n_, p_, rng); }
  [[nodiscard]] Tangent random_tangent(const Point& u, Rng& rng) const {
    const Matrix<T> g = rng.normal_matrix<T>(n_, p_);
    return g - u * (u.transpose() * g);
  }
  /// ‖UUᵀ − YYᵀ‖_F/√2: zero exactly when the bases span the same subspace.
  [[nodiscard]] T point_gap(const Point& u, const Point& y) const {
    return (u * u.transpose() - y * y.transpose()).norm() / std::sqrt(T(2));
  }

  // ── Gyro structure (Nguyen & Yang 2023; GyroBN): identity I_{n,p} = [I_p; 0] ──
  // With log_{I_{n,p}}(U) = [0; B], Ω_U = [[0, −Bᵀ], [B, 0]] (skew), and E_U = exp(Ω_U):
  //   U ⊕ V = E_U·V,  ⊖U = E_Uᵀ·I_{n,p},  t ⊗ U = exp(tΩ_U)·I_{n,p} = exp_I(t·log_I U),
  //   gyr[U, V]W = E_{U⊕V}ᵀ E_U E_V · W  (an orthogonal matrix: gyrations are isometries).
  // E_U in closed form from B = QΣVᵀ: [[V cosΣ Vᵀ, −V sinΣ Qᵀ], [Q sinΣ Vᵀ, I − Q(I − cosΣ)Qᵀ]].
  // Defined while U has no principal angle π/2 with I_{n,p} (DomainError there, as log is).
  // Every gyrogroup law holds (tests/geometries/gyrogroup_test.cpp measures the left loop property
  // to 1e-15 too), as do GyroBN's pseudo-reduction gyr[⊖U, U] = id and isometric gyrations.
  [[nodiscard]] Point gyro_identity() const { return Matrix<T>::Identity(n_, p_); }
  // ⊕ needs principal angles below π/2 with I_{n,p} along each law's chain of sums: the law
  // checker pulls its random points this far towards I_{n,p}.
  [[nodiscard]] double gyro_law_shrink() const { return 0.3; }
  [[nodiscard]] Point gyro_add(const Point& u, const Point& v) const {
    if (checks_enabled()) check_two_points("Grassmann::gyro_add", u, v);
    return grassmann::reorthonormalize<T>(Matrix<T>(rotation_of("Grassmann::gyro_add", u) * v));
  }
  [[nodiscard]] Point gyro_inverse(const Point& u) const {
    if (checks_enabled()) check_point("Grassmann::gyro_inverse", u);
    return rotation_of("Grassmann::gyro_inverse", u).transpose() * Matrix<T>::Identity(n_, p_);
  }
  [[nodiscard]] Point gyration(const Point& u, const Point& v, const Point& w) const {
    if (checks_enabled()) {
      check_two_points("Grassmann::gyration", u, v);
      check_point("Grassmann::gyration", w);
    }
    const Matrix<T> eu = rotation_of("Grassmann::gyration", u);
    const Matrix<T> ev = rotation_of("Grassmann::gyration", v);
    const Matrix<T> sum = grassmann::reorthonormalize<T>(Matrix<T>(eu * v));
    const Matrix<T> e_sum = rotation_of("Grassmann::gyration", sum);
    return e_sum.transpose() * (eu * (ev * w));
  }
  [[nodiscard]] Point gyro_scale(T t, const Point& u) const {
    if (checks_enabled()) {
      check_point("Grassmann::gyro_scale", u);
      if (!std::isfinite(t)) throw DomainError("Grassmann::gyro_scale", "scalar must be finite", t);
    }
    const Point id = gyro_identity();
    return exp_unchecked(id, Tangent(log_unchecked("Grassmann::gyro_scale", id, u) * t));
  }

  // ── Gyro derivatives (gyre/core/group_derivatives.hpp) ──
  // With I = I_{n,p}, Δ = log_I(U) = [0; B] and S = ΔᵀΔ, E_U in the SVD-free forms of
  // grassmann_derivatives.hpp is [[C(S), −K(S)Bᵀ], [B·K(S), I − B·C₂(S)·Bᵀ]], so
  //   U ⊕ V = V + I·((C − I)a − K·z) + Δ·(K·a − C₂·z)   with a = IᵀV, z = ΔᵀV
  //   ⊖U    = I·C(S) − Δ·K(S) = exp_I(−Δ),   t ⊗ U = exp_I(tΔ)
  // (E_U·V is orthonormal, so the re-orthonormalisation moves nothing). The gradient in Δ comes
  // from the product rule and Daleckii–Krein in S (∂Δ ∋ 2Δ·∂S), and is taken to U through log's
  // VJP at I (log_vjp_unchecked).
  [[nodiscard]] GyroAddVjp<Point> gyro_add_vjp(const Point& u, const Point& v, const Point& g) const {
    if (checks_enabled()) {
      check_two_points("Grassmann::gyro_add_vjp", u, v);
      check_cotangent("Grassmann::gyro_add_vjp", g);
    }
    const Point id = gyro_identity();
    const Tangent delta = log_unchecked("Grassmann::gyro_add_vjp", id, u);
    const linalg::SymmetricEigen<T> s = linalg::symmetric_eigen<T>(Matrix<T>(delta.transpose() * delta));
    const Matrix<T> c = linalg::apply(s, grassmann::CosOfRoot{});
    const Matrix<T> k = linalg::apply(s, grassmann::SincOfRoot{});
    const Matrix<T> c2 = linalg::apply(s, grassmann::OneMinusCosOfRootOverS{});
    const Matrix<T> a = v.topRows(p_);
    const Matrix<T> z = delta.transpose() * v;
    const Matrix<T> g_top = g.topRows(p_);
    const Matrix<T> g_delta = delta.transpose() * g;
    const Matrix<T> grad_a = (c - Matrix<T>::Identity(p_, p_)) * g_top + k * g_delta;
    const Matrix<T> grad_z = -(k * g_top) - c2 * g_delta;
    const Matrix<T> grad_s =
        linalg::frechet_derivative(s, grassmann::CosOfRoot{},
                                   linalg::symmetric_part<T>(Matrix<T>(g_top * a.transpose()))) +
        linalg::frechet_derivative(
            s, grassmann::SincOfRoot{},
            linalg::symmetric_part<T>(Matrix<T>(g_delta * a.transpose() - g_top * z.transpose()))) +
        linalg::frechet_derivative(s, grassmann::OneMinusCosOfRootOverS{},
                                   linalg::symmetric_part<T>(Matrix<T>(-g_delta * z.transpose())));
    const Tangent grad_delta = g * (k * a - c2 * z).transpose() + v * grad_z.transpose() + 2 * delta * grad_s;
    Point grad_v = g + delta * grad_z;
    grad_v.topRows(p_) += grad_a;
    return {log_vjp_unchecked("Grassmann::gyro_add_vjp", id, u, grad_delta).y, grad_v};
  }
  [[nodiscard]] Point gyro_inverse_vjp(const Point& u, const Point& g) const {
    if (checks_enabled()) {
      check_point("Grassmann::gyro_inverse_vjp", u);
      check_cotangent("Grassmann::gyro_inverse_vjp", g);
    }
    const Point id = gyro_identity();
    const Tangent delta = log_unchecked("Grassmann::gyro_inverse_vjp", id, u);
    const Tangent grad_minus_delta = exp_vjp_unchecked(id, Tangent(-delta), g).v;
    return log_vjp_unchecked("Grassmann::gyro_inverse_vjp", id, u, Tangent(-grad_minus_delta)).y;
  }
  [[nodiscard]] GyroScaleVjp<T, Point> gyro_scale_vjp(T t, const Point& u, const Point& g) const {
    if (checks_enabled()) {
      check_point("Grassmann::gyro_scale_vjp", u);
      if (!std::isfinite(t)) throw DomainError("Grassmann::gyro_scale_vjp", "scalar must be finite", t);
      check_cotangent("Grassmann::gyro_scale_vjp", g);
    }
    const Point id = gyro_identity();
    const Tangent delta = log_unchecked("Grassmann::gyro_scale_vjp", id, u);
    const Tangent grad_scaled = exp_vjp_unchecked(id, Tangent(t * delta), g).v;
    return {grad_scaled.cwiseProduct(delta).sum(),
            log_vjp_unchecked("Grassmann::gyro_scale_vjp", id, u, Tangent(t * grad_scaled)).y};
  }

  void check_point(const Point& u) const { check_point("Grassmann::check_point", u); }
  void check_tangent(const Point& u, const Tangent& v) const { check_point_tangent("Grassmann::check_tangent", u, v); }

 private:
  // exp = U·C(S) + Δ·K(S), S = ΔᵀΔ (see the derivatives above).
  ExpVjp<Point, Tangent> exp_vjp_unchecked(const Point& u, const Tangent& delta, const Point& g) const {
    const linalg::SymmetricEigen<T> s = linalg::symmetric_eigen<T>(Matrix<T>(delta.transpose() * delta));
    const Matrix<T> c = linalg::apply(s, grassmann::CosOfRoot{});
    const Matrix<T> k = linalg::apply(s, grassmann::SincOfRoot{});
    const Matrix<T> grad_s =
        linalg::frechet_derivative(s, grassmann::CosOfRoot{}, linalg::symmetric_part<T>(u.transpose() * g)) +
        linalg::frechet_derivative(s, grassmann::SincOfRoot{}, linalg::symmetric_part<T>(delta.transpose() * g));
    return {Point(g * c), Tangent(g * k + 2 * delta * grad_s)};
  }

  // E_U = exp(Ω_U), n×n orthogonal, in closed form (see gyro_add).
  Matrix<T> rotation_of(const char* function, const Point& u) const {
    const Point id = gyro_identity();
    const Matrix<T> b = log_unchecked(function, id, u).bottomRows(n_ - p_);
    const Eigen::JacobiSVD<Matrix<T>> svd(b, Eigen::ComputeThinU | Eigen::ComputeThinV);
    const Matrix<T>& q = svd.matrixU();
    const Matrix<T>& v = svd.matrixV();
    const Vector<T> sigma = svd.singularValues();
    const Vector<T> c = sigma.array().cos().matrix();
    const Vector<T> s = sigma.array().sin().matrix();
    Matrix<T> e(n_, n_);
    e.topLeftCorner(p_, p_) = v * c.asDiagonal() * v.transpose();
    e.topRightCorner(p_, n_ - p_) = -v * s.asDiagonal() * q.transpose();
    e.bottomLeftCorner(n_ - p_, p_) = q * s.asDiagonal() * v.transpose();
    e.bottomRightCorner(n_ - p_, n_ - p_) =
        Matrix<T>::Identity(n_ - p_, n_ - p_) - q * (Vector<T>::Ones(c.size()) - c).asDiagonal() * q.transpose();
    return e;
  }

  Point exp_unchecked(const Point& u, const Tangent& delta) const {
    const Eigen::JacobiSVD<Matrix<T>> svd(delta, Eigen::ComputeThinU | Eigen::ComputeThinV);
    const Vector<T> sigma = svd.singularValues();
    const Matrix<T>& v = svd.matrixV();
    const Point y = u * (v * sigma.array().cos().matrix().asDiagonal() * v.transpose()) +
                    svd.matrixU() * (sigma.array().sin().matrix().asDiagonal() * v.transpose());
    return grassmann::reorthonormalize<T>(y);
  }

  // log = M·A(MᵀM), M = P·Y·W with P = I − UUᵀ, W = (UᵀY)⁻¹ (see the derivatives above).
  LogVjp<Point> log_vjp_unchecked(const char* function, const Point& u, const Point& y, const Tangent& g) const {
    const Matrix<T> uty = u.transpose() * y;
    const Eigen::PartialPivLU<Matrix<T>> lu(uty);
    const T smallest_cosine = Eigen::JacobiSVD<Matrix<T>>(uty).singularValues()(p_ - 1);
    if (!(smallest_cosine > 4 * std::numeric_limits<T>::epsilon())) {
      throw DomainError(function, "a principal angle is π/2, the log is not differentiable (cos θ)", smallest_cosine);
    }
    const Matrix<T> w_inv = lu.inverse();
    const Matrix<T> py = y - u * uty;
    const Matrix<T> m = py * w_inv;
    const linalg::SymmetricEigen<T> s = linalg::symmetric_eigen<T>(Matrix<T>(m.transpose() * m));
    const Matrix<T> a = linalg::apply(s, grassmann::ArctanOfRootRatio{});
    const Matrix<T> grad_s =
        linalg::frechet_derivative(s, grassmann::ArctanOfRootRatio{}, linalg::symmetric_part<T>(m.transpose() * g));
    const Matrix<T> grad_m = g * a + 2 * m * grad_s;
    // M = P·Y·W: ∂P = ∂M·(YW)ᵀ (P = I − UUᵀ: ∂U ∋ −(∂P + ∂Pᵀ)U), ∂Y ∋ P·∂M·Wᵀ, and through
    // W = (UᵀY)⁻¹, with X = UᵀY and ∂X = −Wᵀ(PY)ᵀ∂M·Wᵀ: ∂U ∋ Y∂Xᵀ, ∂Y ∋ U∂X.
    const Matrix<T> grad_p = grad_m * (y * w_inv).transpose();
    const Matrix<T> p_grad_m = grad_m - u * (u.transpose() * grad_m);
    const Matrix<T> grad_x = -(w_inv.transpose() * (py.transpose() * grad_m) * w_inv.transpose());
    return {Point(-(grad_p + grad_p.transpose()) * u + y * grad_x.transpose()),
            Point(p_grad_m * w_inv.transpose() + u * grad_x)};
  }

  void check_cotangent(const char* function, const Matrix<T>& g) const {
    require_shape(function, "cotangent", g, n_, p_);
    require_finite(function, "cotangent", g);
  }

  Tangent log_unchecked(const char* function, const Point& u, const Point& y) const {
    return grassmann::log_of_bases<Matrix<T>, Matrix<T>>(function, u, y);
  }

  void check_point(const char* function, const Point& u) const {
    require_shape(function, "basis", u, n_, p_);
    require_finite(function, "basis", u);
    const T error = (u.transpose() * u - Matrix<T>::Identity(p_, p_)).cwiseAbs().maxCoeff();
    require_small(function, "basis is not orthonormal (max |UᵀU − I|)", error, membership_tolerance<T>());
  }
  void check_tangent(const char* function, const Point& u, const Tangent& v) const {
    require_shape(function, "tangent vector", v, n_, p_);
    require_finite(function, "tangent vector", v);
    const T error = (u.transpose() * v).cwiseAbs().maxCoeff() / std::max(T(1), v.cwiseAbs().maxCoeff());
    require_small(function, "vector is not horizontal at U (max |UᵀΔ|/max(1, max |Δ|))", error,
                  membership_tolerance<T>());
  }
  void check_point_tangent(const char* function, const Point& u, const Tangent& v) const {
    check_point(function, u);
    check_tangent(function, u, v);
  }
  void check_two_points(const char* function, const Point& u, const Point& y) const {
    check_point(function, u);
    check_point(function, y);
  }

  int n_;
  int p_;
};

static_assert(is_manifold_v<Grassmann<float>> && is_manifold_v<Grassmann<double>>);
static_assert(is_gyrogroup_v<Grassmann<float>> && is_gyrogroup_v<Grassmann<double>>);

}  // namespace gyre
