#pragma once
// ============================================================================================
//  Gr(n, p) with points as n×n orthogonal projectors P = UUᵀ of rank p (unique per subspace).
//  Every operation goes through an orthonormal basis U of P (its top-p eigenvectors) and the
//  basis representation (grassmann.hpp), and maps tangents by X = ΔUᵀ + UΔᵀ, Δ = XU: the two
//  representations are isometric, with ⟨X₁, X₂⟩ = ½ tr(X₁X₂) = tr(Δ₁ᵀΔ₂) and d² = Σθᵢ².
//  (geomstats' projector metric is tr(X₁X₂), twice this one.) In closed form the same exp is
//  exp_P(X) = e^Ω P e^-Ω with Ω = [X, P]; Gyre does not form the n×n matrix exponential.
// ============================================================================================

#include "grassmann.hpp"

namespace gyre {

/// Gr(n, p) with points as rank-p orthogonal projectors.
template <class T>
class GrassmannProjector {
 public:
  using Scalar = T;
  using Point = Matrix<T>;
  using Tangent = Matrix<T>;

  GrassmannProjector(int n, int p) : bases_(n, p) {}

  [[nodiscard]] int n() const { return bases_.n(); }
  [[nodiscard]] int p() const { return bases_.p(); }
  [[nodiscard]] int dim() const { return bases_.dim(); }
  [[nodiscard]] T injectivity_radius() const { return bases_.injectivity_radius(); }

  /// An orthonormal basis of P's range (its eigenvectors of eigenvalue 1).
  [[nodiscard]] Matrix<T> basis(const Point& p) const {
    const linalg::SymmetricEigen<T> e = linalg::symmetric_eigen<T>(linalg::symmetric_part<T>(p));
    return e.vectors.rightCols(this->p());
  }
  /// UUᵀ.
  [[nodiscard]] static Point projector(const Matrix<T>& u) { return linalg::symmetric_part<T>(u * u.transpose()); }

  [[nodiscard]] Point exp(const Point& p, const Tangent& x) const {
    if (checks_enabled()) check_point_tangent("GrassmannProjector::exp", p, x);
    const Matrix<T> u = basis(p);
    return projector(bases_.exp(u, Matrix<T>(x * u)));
  }
  [[nodiscard]] Tangent log(const Point& p, const Point& q) const {
    if (checks_enabled()) check_two_points("GrassmannProjector::log", p, q);
    const Matrix<T> u = basis(p);
    return to_projector_tangent(u, bases_.log(u, basis(q)));
  }
  [[nodiscard]] Tangent transport(const Point& p, const Point& q, const Tangent& w) const {
    if (checks_enabled()) {
      check_two_points("GrassmannProjector::transport", p, q);
      check_tangent("GrassmannProjector::transport", p, w);
    }
    const Matrix<T> u = basis(p);
    const Matrix<T> v = basis(q);
    return to_projector_tangent(v, bases_.transport(u, v, Matrix<T>(w * u)));
  }
  [[nodiscard]] T inner(const Point& p, const Tangent& a, const Tangent& b) const {
    if (checks_enabled()) {
      check_point_tangent("GrassmannProjector::inner", p, a);
      check_tangent("GrassmannProjector::inner", p, b);
    }
    return a.cwiseProduct(b).sum() / T(2);
  }
  [[nodiscard]] T norm(const Point& p, const Tangent& x) const { return std::sqrt(std::max(T(0), inner(p, x, x))); }
  [[nodiscard]] T dist(const Point& p, const Point& q) const {
    if (checks_enabled()) check_two_points("GrassmannProjector::dist", p, q);
    return grassmann::principal_angles<T>(basis(p), basis(q)).angles.norm();
  }
  /// The projection of an ambient A onto T_P: with S = (A + Aᵀ)/2, PS(I − P) + (I − P)SP.
  [[nodiscard]] Tangent project(const Point& p, const Tangent& a) const {
    if (checks_enabled()) {
      check_point("GrassmannProjector::project", p);
      require_shape("GrassmannProjector::project", "ambient matrix", a, n(), n());
      require_finite("GrassmannProjector::project", "ambient matrix", a);
    }
    const Matrix<T> s = linalg::symmetric_part<T>(a);
    const Matrix<T> ps = p * s;
    return ps + ps.transpose() - 2 * ps * p;
  }
  /// The Riemannian gradient from the Euclidean gradient g = ∂f/∂P: the metric is ½·tr(AB), half
  /// the ambient one, so it is twice the tangent part of sym(g).
  [[nodiscard]] Tangent egrad_to_rgrad(const Point& p, const Tangent& g) const {
    if (checks_enabled()) {
      check_point("GrassmannProjector::egrad_to_rgrad", p);
      require_shape("GrassmannProjector::egrad_to_rgrad", "Euclidean gradient", g, n(), n());
      require_finite("GrassmannProjector::egrad_to_rgrad", "Euclidean gradient", g);
    }
    const Matrix<T> ps = p * linalg::symmetric_part<T>(g);
    return T(2) * (ps + ps.transpose() - 2 * ps * p);
  }
  [[nodiscard]] Point retract(const Point& p, const Tangent& x) const { return exp(p, x); }
  [[nodiscard]] Point random_point(Rng& rng) const { return projector(bases_.random_point(rng)); }
  [[nodiscard]] Tangent random_tangent(const Point& p, Rng& rng) const {
    const Matrix<T> u = basis(p);
    return to_projector_tangent(u, bases_.random_tangent(u, rng));
  }
  void check_point(const Point& p) const { check_point("GrassmannProjector::check_point", p); }
  void check_tangent(const Point& p, const Tangent& x) const {
    check_point_tangent("GrassmannProjector::check_tangent", p, x);
  }

 private:
  static Tangent to_projector_tangent(const Matrix<T>& u, const Matrix<T>& delta) {
    const Matrix<T> du = delta * u.transpose();
    return du + du.transpose();
  }

  void check_point(const char* function, const Point& p) const {
    require_shape(function, "projector", p, n(), n());
    require_finite(function, "projector", p);
    const T symmetry = (p - p.transpose()).cwiseAbs().maxCoeff();
    require_small(function, "projector is not symmetric (max |P − Pᵀ|)", symmetry, membership_tolerance<T>());
    const T idempotency = (p * p - p).cwiseAbs().maxCoeff();
    require_small(function, "matrix is not a projector (max |P² − P|)", idempotency, membership_tolerance<T>());
    const T rank_error = std::abs(p.trace() - static_cast<T>(this->p()));
    require_small(function, "projector does not have rank p (|tr P − p|)", rank_error, membership_tolerance<T>());
  }
  void check_tangent(const char* function, const Point& p, const Tangent& x) const {
    require_shape(function, "tangent vector", x, n(), n());
    require_finite(function, "tangent vector", x);
    const T scale = std::max(T(1), x.cwiseAbs().maxCoeff());
    const T error = (x - p * x - x * p).cwiseAbs().maxCoeff() / scale;
    const T symmetry = (x - x.transpose()).cwiseAbs().maxCoeff() / scale;
    require_small(function, "vector is not tangent at P (max |X − PX − XP|/max(1, max |X|))", error,
                  membership_tolerance<T>());
    require_small(function, "tangent vector is not symmetric", symmetry, membership_tolerance<T>());
  }
  void check_point_tangent(const char* function, const Point& p, const Tangent& x) const {
    check_point(function, p);
    check_tangent(function, p, x);
  }
  void check_two_points(const char* function, const Point& p, const Point& q) const {
    check_point(function, p);
    check_point(function, q);
  }

  Grassmann<T> bases_;
};

static_assert(is_manifold_v<GrassmannProjector<float>> && is_manifold_v<GrassmannProjector<double>>);

}  // namespace gyre
