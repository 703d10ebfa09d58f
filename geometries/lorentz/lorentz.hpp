#pragma once
// ============================================================================================
//  The Lorentz group O(1,3) = {Λ ∈ ℝ⁴ˣ⁴ : ΛᵀηΛ = η}, η = diag(1, −1, −1, −1), and its identity
//  component SO⁺(1,3) as a matrix group (Lorentz<T>).
// ============================================================================================
//  Components  det Λ = ±1 and Λ₀₀ ≥ 1 or ≤ −1 give four: proper orthochronous SO⁺(1,3) (det 1,
//              Λ₀₀ ≥ 1), parity P·SO⁺ (det −1, Λ₀₀ ≥ 1), time reversal T·SO⁺ (det −1, Λ₀₀ ≤ −1),
//              and PT·SO⁺ (det 1, Λ₀₀ ≤ −1); lorentz_component names them.
//  Algebra     a = (θ₁, θ₂, θ₃, ζ₁, ζ₂, ζ₃): hat(a) = Σ θᵢJᵢ + ζᵢKᵢ = [[0, ζᵀ], [ζ, [θ]ₓ]], with
//              rotation generators Jᵢ ([θ]ₓ the cross-product matrix: exp(θ₃J₃) turns x towards y)
//              and boost generators Kᵢ (symmetric, 1 at (0, i) and (i, 0)); ζ is the rapidity.
//  exp/log     algebra_exp = expm(hat(a)); algebra_log = the principal logarithm, defined unless Λ
//              has the eigenvalue −1 (a rotation part by π): DomainError there. exp is onto
//              SO⁺(1,3), so every other element has its log. A pure boost: exp(ζ·K) = boost(ζ);
//              a pure rotation: exp(θ·J) = the SO(3) rotation embedded.
//  Polar       Λ = B·R, B = (ΛΛᵀ)^½ a pure boost (symmetric), R = B⁻¹Λ = ηBηΛ a rotation. Since
//              R fixes e₀, B e₀ = Λ e₀ = (cosh|ζ|, sinh|ζ|·ζ/|ζ|): B is built from Λ's first column
//              in closed form, which is exact where the square root of ΛΛᵀ (condition e^{4|ζ|}) is not.
//  Action      act(Λ, x) = Λx on 4-vectors; minkowski(x, y) = x₀y₀ − x·y is invariant.
//  Sampling    random_point = boost(ζ)·R with R Haar on SO(3) and ζ of uniform direction and
//              |ζ| uniform in [0, max_rapidity] (constructor argument, default 2).
//  Validity    ‖ΛᵀηΛ − η‖_max ≤ √ε·max(1, ‖Λ‖²_max) (boosts have large entries), then the component.
// ============================================================================================

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <cmath>
#include <complex>
#include <limits>
#include <string>

#include <Eigen/Eigenvalues>
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

/// The four connected components of O(1,3).
enum class LorentzComponent { kProperOrthochronous, kParity, kTimeReversal, kParityTimeReversal };

/// η = diag(1, −1, −1, −1).
template <class T>
[[nodiscard]] Matrix<T> minkowski_metric() {
  Matrix<T> eta = Matrix<T>::Identity(4, 4);
  eta.diagonal().tail(3).setConstant(T(-1));
  return eta;
}

/// x₀y₀ − x₁y₁ − x₂y₂ − x₃y₃.
template <class T>
[[nodiscard]] T minkowski(const Vector<T>& x, const Vector<T>& y) {
  return x(0) * y(0) - x.tail(3).dot(y.tail(3));
}

/// Throws unless Λ is a finite 4×4 matrix with ΛᵀηΛ = η (to √ε relative to its entries²).
template <class T>
void check_lorentz(const char* function, const Matrix<T>& m) {
  require_shape(function, "Lorentz matrix", m, 4, 4);
  require_finite(function, "Lorentz matrix", m);
  const Matrix<T> eta = minkowski_metric<T>();
  const T scale = std::max(T(1), m.cwiseAbs().maxCoeff() * m.cwiseAbs().maxCoeff());
  const T error = (m.transpose() * eta * m - eta).cwiseAbs().maxCoeff() / scale;
  require_small(function, "matrix is not a Lorentz transformation (max |ΛᵀηΛ − η| / max(1, max|Λ|²))", error,
                membership_tolerance<T>());
}

/// The component of a Lorentz matrix (check_lorentz first).
template <class T>
[[nodiscard]] LorentzComponent lorentz_component(const Matrix<T>& m) {
  check_lorentz("lorentz_component", m);
  const bool proper = m.determinant() > 0;
  const bool orthochronous = m(0, 0) > 0;
  if (proper) return orthochronous ? LorentzComponent::kProperOrthochronous : LorentzComponent::kParityTimeReversal;
  return orthochronous ? LorentzComponent::kParity : LorentzComponent::kTimeReversal;
}

/// The pure boost of rapidity vector ζ: [[cosh|ζ|, sinh|ζ|·nᵀ], [sinh|ζ|·n, I + (cosh|ζ| − 1)·nnᵀ]].
template <class T>
[[nodiscard]] Matrix<T> lorentz_boost(const Vector<T>& zeta) {
  const T r = zeta.norm();
  // sinh(r)/r and (cosh r − 1)/r² = ½·(sinh(r/2)/(r/2))², both 1-ish at r = 0, no division by r.
  const T sinh_ratio = r < T(1e-4) ? 1 + r * r / 6 : std::sinh(r) / r;
  const T half = r / 2;
  const T shc = half < T(1e-4) ? 1 + half * half / 6 : std::sinh(half) / half;
  Matrix<T> b = Matrix<T>::Identity(4, 4);
  b(0, 0) = std::cosh(r);
  b.block(1, 0, 3, 1) = zeta * sinh_ratio;
  b.block(0, 1, 1, 3) = zeta.transpose() * sinh_ratio;
  b.block(1, 1, 3, 3) += (shc * shc / 2) * zeta * zeta.transpose();
  return b;
}

/// SO⁺(1,3) as a matrix group.
template <class T>
class Lorentz {
 public:
  using Scalar = T;
  using Point = Matrix<T>;
  using Algebra = Vector<T>;
  using ActedPoint = Vector<T>;

  explicit Lorentz(double max_rapidity = 2.0) : max_rapidity_(max_rapidity) {
    if (!(max_rapidity >= 0) || !std::isfinite(max_rapidity)) {
      throw DomainError("Lorentz::Lorentz", "max_rapidity must be finite and ≥ 0", max_rapidity);
    }
  }

  [[nodiscard]] int dim() const { return 6; }
  [[nodiscard]] int acted_dim() const { return 4; }
  [[nodiscard]] Point identity() const { return Point::Identity(4, 4); }
  [[nodiscard]] Point compose(const Point& a, const Point& b) const {
    if (checks_enabled()) {
      check_point("Lorentz::compose", a);
      check_point("Lorentz::compose", b);
    }
    return a * b;
  }
  /// Λ⁻¹ = ηΛᵀη.
  [[nodiscard]] Point inverse(const Point& m) const {
    if (checks_enabled()) check_point("Lorentz::inverse", m);
    const Matrix<T> eta = minkowski_metric<T>();
    return eta * m.transpose() * eta;
  }
  [[nodiscard]] Point hat(const Algebra& a) const {
    require_size("Lorentz::hat", "algebra vector", a, 6);
    Point x = Point::Zero(4, 4);
    x(3, 2) = a(0);
    x(2, 3) = -a(0);
    x(1, 3) = a(1);
    x(3, 1) = -a(1);
    x(2, 1) = a(2);
    x(1, 2) = -a(2);
    for (int i = 0; i < 3; ++i) x(0, i + 1) = x(i + 1, 0) = a(3 + i);
    return x;
  }
  [[nodiscard]] Algebra vee(const Point& x) const {
    require_shape("Lorentz::vee", "algebra matrix", x, 4, 4);
    Algebra a(6);
    a << x(3, 2), x(1, 3), x(2, 1), x(1, 0), x(2, 0), x(3, 0);
    return a;
  }
  [[nodiscard]] Point algebra_exp(const Algebra& a) const {
    require_finite("Lorentz::algebra_exp", "algebra vector", a);
    return hat(a).exp();
  }
  [[nodiscard]] Algebra algebra_log(const Point& m) const {
    if (checks_enabled()) check_point("Lorentz::algebra_log", m);
    const Eigen::EigenSolver<Matrix<T>> solver(m, false);
    linalg::require_eigen_converged(solver, "Lorentz::algebra_log", m);
    for (Eigen::Index i = 0; i < 4; ++i) {
      const std::complex<T> lambda = solver.eigenvalues()(i);
      if (lambda.real() < 0 && std::abs(lambda.imag()) <= std::sqrt(std::numeric_limits<T>::epsilon())) {
        throw DomainError("Lorentz::algebra_log", "the rotation part turns by π: the log is not unique (eigenvalue)",
                          static_cast<double>(lambda.real()));
      }
    }
    return vee(Point(m.log()));
  }
  [[nodiscard]] Matrix<T> adjoint(const Point& m) const {
    const Point inv = inverse(m);
    Matrix<T> ad(6, 6);
    for (int k = 0; k < 6; ++k) ad.col(k) = vee(Point(m * hat(Algebra::Unit(6, k)) * inv));
    return ad;
  }
  [[nodiscard]] ActedPoint act(const Point& m, const ActedPoint& x) const {
    if (checks_enabled()) {
      check_point("Lorentz::act", m);
      require_size("Lorentz::act", "4-vector", x, 4);
    }
    return m * x;
  }

  /// Λ = B·R: a pure boost times a rotation.
  struct Polar {
    Matrix<T> boost;
    Matrix<T> rotation;
  };
  [[nodiscard]] Polar polar(const Point& m) const {
    if (checks_enabled()) check_point("Lorentz::polar", m);
    // R fixes e₀, so B e₀ = Λ e₀ = h: the boost is read off Λ's first column exactly,
    // B = [[h₀, h_sᵀ], [h_s, I + h_s h_sᵀ/(1 + h₀)]] (no matrix square root of the ill-conditioned ΛΛᵀ).
    const Vector<T> h = m.col(0);
    Matrix<T> b = Matrix<T>::Identity(4, 4);
    b(0, 0) = h(0);
    b.block(1, 0, 3, 1) = h.tail(3);
    b.block(0, 1, 1, 3) = h.tail(3).transpose();
    b.block(1, 1, 3, 3) += h.tail(3) * h.tail(3).transpose() / (1 + h(0));
    const Matrix<T> eta = minkowski_metric<T>();
    return {b, Matrix<T>(eta * b * eta * m)};
  }
  /// The rapidity vector ζ of Λ's boost factor: Λ e₀ = (cosh|ζ|, sinh|ζ|·ζ/|ζ|).
  [[nodiscard]] Vector<T> rapidity(const Point& m) const {
    if (checks_enabled()) check_point("Lorentz::rapidity", m);
    const Vector<T> spatial = m.block(1, 0, 3, 1);
    const T s = spatial.norm();
    if (s == 0) return Vector<T>::Zero(3);
    return spatial * (std::asinh(s) / s);
  }

  [[nodiscard]] Point random_point(Rng& rng) const {
    Matrix<T> q = rng.normal_matrix<T>(3, 3);
    const Eigen::HouseholderQR<Matrix<T>> qr(q);
    q = qr.householderQ();
    const Matrix<T> r = qr.matrixQR().template triangularView<Eigen::Upper>();
    for (int j = 0; j < 3; ++j) {
      if (r(j, j) < 0) q.col(j) *= T(-1);
    }
    if (q.determinant() < 0) q.col(0) *= T(-1);
    Matrix<T> rotation = Matrix<T>::Identity(4, 4);
    rotation.block(1, 1, 3, 3) = q;
    Vector<T> direction = rng.normal_matrix<T>(3, 1);
    while (direction.norm() == 0) direction = rng.normal_matrix<T>(3, 1);
    const T length = rng.uniform<T>(T(0), static_cast<T>(max_rapidity_));
    return lorentz_boost<T>(Vector<T>(direction * (length / direction.norm()))) * rotation;
  }

  /// Throws unless Λ ∈ SO⁺(1,3), naming the component otherwise.
  void check_point(const Point& m) const { check_point("Lorentz::check_point", m); }

 private:
  static void check_point(const char* function, const Point& m) {
    check_lorentz(function, m);
    if (!(m.determinant() > 0) || !(m(0, 0) > 0)) {
      throw DomainError(function, "matrix is not in SO⁺(1,3): det and Λ₀₀ must be positive (det·Λ₀₀)",
                        static_cast<double>(m.determinant() * m(0, 0)));
    }
  }

  double max_rapidity_;
};

static_assert(is_matrix_group_v<Lorentz<double>> && is_matrix_group_v<Lorentz<float>>);

}  // namespace gyre
