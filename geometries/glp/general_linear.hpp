#pragma once
// ============================================================================================
//  GL⁺(n) (invertible n×n matrices with det > 0) and SL(n) (det = 1) as matrix groups, with the
//  decompositions "Lie group decompositions for equivariant neural networks" (Mironenco & Forré,
//  ICLR 2024) builds on. One class template, GeneralLinear<T, kSpecial>, named GLPlus<T> and SL<T>.
// ============================================================================================
//  Group     compose = matrix product, inverse = matrix inverse (LU), act(g, p) = g·p on ℝⁿ.
//  Algebra   gl(n) = all n×n matrices, coordinates the column-major entries (n²);
//            sl(n) = trace-free matrices, coordinates the column-major entries without the last
//            (n² − 1; that entry is minus the sum of the other diagonal entries).
//            algebra_exp = expm (Padé, Eigen); algebra_log = the principal logarithm, which exists
//            exactly when no eigenvalue lies on the closed negative real axis: elsewhere (a
//            rotation by π inside GL⁺, −I in GL⁺(2)) DomainError names the offending eigenvalue.
//            exp is not onto GL⁺(n); algebra_log is its inverse on the principal domain.
//  Decompositions (g ∈ GL⁺(n)):
//    polar      g = R·P, R ∈ SO(n), P ∈ SPD(n): P = (gᵀg)^½, R = g·P⁻¹ (GL⁺ ≅ SO(n) × SPD(n));
//               for SL(n), det P = 1.
//    iwasawa    g = Q·U, Q ∈ SO(n), U upper triangular with positive diagonal (Householder QR
//               with signs fixed); for SL(n), det U = 1.
//  Sampling  random_point = R·P with R Haar on SO(n) (the compact factor) and P = expm(S), S a
//            symmetric Gaussian (diagonal N(0, σ²), off-diagonal N(0, σ²/2); σ = scale(), default
//            0.5; for SL(n) S is made trace-free). This is the push-forward of a Gaussian on the
//            tangent space of SPD at I: it has a density w.r.t. the Haar measure of GL⁺ but is not
//            Haar (which has infinite mass); the paper samples the non-compact factor the same
//            way, through its exponential chart.
//  Validity  check_point: n×n, finite, det > 0 (GL⁺), |det − 1| ≤ √ε (SL).
// ============================================================================================

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <cmath>
#include <complex>
#include <limits>
#include <string>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/QR>
#include <unsupported/Eigen/MatrixFunctions>

#include "gyre/core/checks.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/manifold.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/core/types.hpp"
#include "gyre/core/validate.hpp"
#include "gyre/linalg/eigen_convergence.hpp"
#include "gyre/linalg/symmetric_functions.hpp"

namespace gyre {

namespace glp_detail {

/// Throws DomainError unless g has no eigenvalue on the closed negative real axis (so that the
/// principal logarithm exists), naming the offending eigenvalue's real part.
template <class T>
void require_principal_log(const char* function, const Matrix<T>& g) {
  const Eigen::EigenSolver<Matrix<T>> solver(g, false);
  linalg::require_eigen_converged(solver, function, g);
  const T scale = std::max(T(1), g.cwiseAbs().maxCoeff());
  for (Eigen::Index i = 0; i < solver.eigenvalues().size(); ++i) {
    const std::complex<T> lambda = solver.eigenvalues()(i);
    if (lambda.real() <= 0 && std::abs(lambda.imag()) <= 64 * std::numeric_limits<T>::epsilon() * scale) {
      throw DomainError(function, "an eigenvalue lies on the negative real axis: no principal logarithm (eigenvalue)",
                        static_cast<double>(lambda.real()));
    }
  }
}

}  // namespace glp_detail

/// GL⁺(n) (kSpecial = false) or SL(n) (kSpecial = true).
template <class T, bool kSpecial>
class GeneralLinear {
 public:
  using Scalar = T;
  using Point = Matrix<T>;
  using Algebra = Vector<T>;
  using ActedPoint = Vector<T>;

  explicit GeneralLinear(int n, double scale = 0.5) : n_(n), scale_(scale) {
    if (n < 1 || (kSpecial && n < 2)) throw DomainError(name("GeneralLinear"), "matrix size n is too small", n);
    if (!(scale > 0) || !std::isfinite(scale)) throw DomainError(name("GeneralLinear"), "scale must be > 0", scale);
  }

  [[nodiscard]] int n() const { return n_; }
  [[nodiscard]] double scale() const { return scale_; }
  [[nodiscard]] int dim() const { return kSpecial ? n_ * n_ - 1 : n_ * n_; }
  [[nodiscard]] int acted_dim() const { return n_; }

  [[nodiscard]] Point identity() const { return Point::Identity(n_, n_); }
  [[nodiscard]] Point compose(const Point& g, const Point& h) const {
    if (checks_enabled()) {
      check_point(name("compose").c_str(), g);
      check_point(name("compose").c_str(), h);
    }
    return g * h;
  }
  [[nodiscard]] Point inverse(const Point& g) const {
    if (checks_enabled()) check_point(name("inverse").c_str(), g);
    return g.partialPivLu().inverse();
  }
  [[nodiscard]] Point hat(const Algebra& a) const {
    require_size(name("hat").c_str(), "algebra vector", a, dim());
    Point x = Point::Zero(n_, n_);
    for (int k = 0; k < dim(); ++k) x(k % n_, k / n_) = a(k);
    if constexpr (kSpecial) x(n_ - 1, n_ - 1) = -x.trace();  // the last entry is still 0 here
    return x;
  }
  [[nodiscard]] Algebra vee(const Point& x) const {
    require_shape(name("vee").c_str(), "algebra matrix", x, n_, n_);
    Algebra a(dim());
    for (int k = 0; k < dim(); ++k) a(k) = x(k % n_, k / n_);
    return a;
  }
  [[nodiscard]] Point algebra_exp(const Algebra& a) const {
    require_finite(name("algebra_exp").c_str(), "algebra vector", a);
    return hat(a).exp();
  }
  [[nodiscard]] Algebra algebra_log(const Point& g) const {
    if (checks_enabled()) check_point(name("algebra_log").c_str(), g);
    glp_detail::require_principal_log<T>(name("algebra_log").c_str(), g);
    return vee(Point(g.log()));
  }
  /// The matrix of a ↦ vee(g·hat(a)·g⁻¹).
  [[nodiscard]] Matrix<T> adjoint(const Point& g) const {
    const Point g_inv = inverse(g);
    Matrix<T> ad(dim(), dim());
    for (int k = 0; k < dim(); ++k) ad.col(k) = vee(Point(g * hat(Algebra::Unit(dim(), k)) * g_inv));
    return ad;
  }
  [[nodiscard]] ActedPoint act(const Point& g, const ActedPoint& p) const {
    if (checks_enabled()) {
      check_point(name("act").c_str(), g);
      require_size(name("act").c_str(), "acted point", p, n_);
    }
    return g * p;
  }

  /// g = R·P with R ∈ SO(n), P SPD.
  struct Polar {
    Matrix<T> rotation;
    Matrix<T> positive;
  };
  [[nodiscard]] Polar polar(const Point& g) const {
    if (checks_enabled()) check_point(name("polar").c_str(), g);
    const linalg::SymmetricEigen<T> e = linalg::symmetric_eigen<T>(Matrix<T>(g.transpose() * g));
    Polar result{Matrix<T>(), linalg::apply(e, linalg::Sqrt{})};
    result.rotation = g * linalg::apply(e, linalg::InverseSqrt{});
    return result;
  }
  /// g = Q·U with Q ∈ SO(n), U upper triangular with positive diagonal.
  struct Iwasawa {
    Matrix<T> rotation;
    Matrix<T> upper;
  };
  [[nodiscard]] Iwasawa iwasawa(const Point& g) const {
    if (checks_enabled()) check_point(name("iwasawa").c_str(), g);
    const Eigen::HouseholderQR<Matrix<T>> qr(g);
    Iwasawa result{qr.householderQ(), qr.matrixQR().template triangularView<Eigen::Upper>()};
    for (int j = 0; j < n_; ++j) {
      if (result.upper(j, j) < 0) {  // flip the sign pair: Q·D·D·U with D = diag(±1)
        result.rotation.col(j) *= T(-1);
        result.upper.row(j) *= T(-1);
      }
    }
    return result;
  }

  [[nodiscard]] Point random_point(Rng& rng) const {
    Matrix<T> r = linalg_haar(rng);
    Matrix<T> s = linalg::symmetric_part<T>(rng.normal_matrix<T>(n_, n_)) * static_cast<T>(scale_);
    if constexpr (kSpecial) s.diagonal().array() -= s.trace() / static_cast<T>(n_);
    return r * linalg::symmetric_exp<T>(s);
  }

  void check_point(const Point& g) const { check_point(name("check_point").c_str(), g); }

 private:
  static std::string name(const char* op) { return std::string(kSpecial ? "SL::" : "GLPlus::") + op; }

  Matrix<T> linalg_haar(Rng& rng) const {
    const Eigen::HouseholderQR<Matrix<T>> qr(rng.normal_matrix<T>(n_, n_));
    Matrix<T> q = qr.householderQ();
    const Matrix<T> r = qr.matrixQR().template triangularView<Eigen::Upper>();
    for (int j = 0; j < n_; ++j) {
      if (r(j, j) < 0) q.col(j) *= T(-1);
    }
    if (q.determinant() < 0) q.col(0) *= T(-1);
    return q;
  }

  void check_point(const char* function, const Point& g) const {
    require_shape(function, "matrix", g, n_, n_);
    require_finite(function, "matrix", g);
    const T det = g.determinant();
    if constexpr (kSpecial) {
      require_small(function, "matrix does not have determinant 1 (|det − 1|)", std::abs(det - 1),
                    membership_tolerance<T>());
    } else {
      if (!(det > 0)) {
        throw DomainError(function, "matrix is not in GL⁺(n): determinant not positive (det)", det);
      }
    }
  }

  int n_;
  double scale_;
};

template <class T>
using GLPlus = GeneralLinear<T, false>;
template <class T>
using SL = GeneralLinear<T, true>;

static_assert(is_matrix_group_v<GLPlus<double>> && is_matrix_group_v<SL<float>>);

}  // namespace gyre
