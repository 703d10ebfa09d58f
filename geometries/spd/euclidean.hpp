#pragma once
// ============================================================================================
//  SPD(n) as an open subset of (Sym(n), tr(UV)): the flat, incomplete Euclidean metric. It is
//  the base of the power-Euclidean family (power_deformed.hpp) that geomstats pins.
// ============================================================================================
//  exp_P(V) = P + V, DomainError when that leaves SPD (the smallest eigenvalue in the message);
//  log_P(Q) = Q − P; transport is the identity; dist = ‖Q − P‖_F. The injectivity radius at P is
//  λ_min(P) (the distance to the boundary), with no positive bound, so injectivity_radius() is 0.
// ============================================================================================

#include <limits>

#include "gyre/core/derivatives.hpp"
#include "gyre/core/manifold.hpp"
#include "gyre/linalg/eigen_convergence.hpp"
#include "spd_common.hpp"

namespace gyre {

/// SPD(n) with the Euclidean (Frobenius) metric.
template <class T>
class SpdEuclidean {
 public:
  using Scalar = T;
  using Point = Matrix<T>;
  using Tangent = Matrix<T>;

  explicit SpdEuclidean(int n) : n_(n) { spd::check_size("SpdEuclidean::SpdEuclidean", n); }

  [[nodiscard]] int n() const { return n_; }
  [[nodiscard]] int dim() const { return spd::spd_dimension(n_); }
  [[nodiscard]] T injectivity_radius() const { return T(0); }

  [[nodiscard]] Point exp(const Point& p, const Tangent& v) const {
    if (checks_enabled()) spd::check_point_and_tangent("SpdEuclidean::exp", p, v, n_);
    const Point q = linalg::symmetric_part<T>(p + v);
    const Eigen::SelfAdjointEigenSolver<Matrix<T>> solver(q, Eigen::EigenvaluesOnly);
    linalg::require_eigen_converged(solver, "SpdEuclidean::exp", q);
    const T smallest = solver.eigenvalues()(0);
    if (!(smallest > 0)) {
      throw DomainError("SpdEuclidean::exp", "P + V leaves SPD (smallest eigenvalue)", smallest);
    }
    return q;
  }
  [[nodiscard]] Tangent log(const Point& p, const Point& q) const {
    if (checks_enabled()) spd::check_two_points("SpdEuclidean::log", p, q, n_);
    return q - p;
  }
  [[nodiscard]] Tangent transport(const Point& p, const Point& q, const Tangent& w) const {
    if (checks_enabled()) {
      spd::check_two_points("SpdEuclidean::transport", p, q, n_);
      spd::check_symmetric_tangent("SpdEuclidean::transport", w, n_);
    }
    return w;
  }
  /// VJPs (gyre/core/derivatives.hpp) of the affine maps above: exp = P + V, log = Q − P,
  /// transport = W.
  [[nodiscard]] ExpVjp<Point, Tangent> exp_vjp(const Point& p, const Tangent& v, const Point& g) const {
    if (checks_enabled()) {
      spd::check_point_and_tangent("SpdEuclidean::exp_vjp", p, v, n_);
      spd::check_cotangent("SpdEuclidean::exp_vjp", g, n_);
    }
    return {g, g};
  }
  [[nodiscard]] LogVjp<Point> log_vjp(const Point& p, const Point& q, const Tangent& g) const {
    if (checks_enabled()) {
      spd::check_two_points("SpdEuclidean::log_vjp", p, q, n_);
      spd::check_cotangent("SpdEuclidean::log_vjp", g, n_);
    }
    return {Point(-g), g};
  }
  [[nodiscard]] TransportVjp<Point, Tangent> transport_vjp(const Point& p, const Point& q, const Tangent& w,
                                                           const Tangent& g) const {
    if (checks_enabled()) {
      spd::check_two_points("SpdEuclidean::transport_vjp", p, q, n_);
      spd::check_symmetric_tangent("SpdEuclidean::transport_vjp", w, n_);
      spd::check_cotangent("SpdEuclidean::transport_vjp", g, n_);
    }
    return {Point(Matrix<T>::Zero(n_, n_)), Point(Matrix<T>::Zero(n_, n_)), g};
  }

  [[nodiscard]] T inner(const Point& p, const Tangent& u, const Tangent& v) const {
    if (checks_enabled()) {
      spd::check_point_and_tangent("SpdEuclidean::inner", p, u, n_);
      spd::check_symmetric_tangent("SpdEuclidean::inner", v, n_);
    }
    return u.cwiseProduct(v).sum();
  }
  [[nodiscard]] T norm(const Point& p, const Tangent& v) const { return std::sqrt(inner(p, v, v)); }
  [[nodiscard]] T dist(const Point& p, const Point& q) const {
    if (checks_enabled()) spd::check_two_points("SpdEuclidean::dist", p, q, n_);
    return (q - p).norm();
  }
  /// The Riemannian gradient from the Euclidean gradient G: the metric is the ambient one on
  /// symmetric matrices, so it is sym(G).
  [[nodiscard]] Tangent egrad_to_rgrad(const Point& p, const Tangent& g) const {
    return spd::project_to_symmetric("SpdEuclidean::egrad_to_rgrad", p, g, n_);
  }
  [[nodiscard]] Tangent project(const Point& p, const Tangent& a) const {
    return spd::project_to_symmetric("SpdEuclidean::project", p, a, n_);
  }
  [[nodiscard]] Point retract(const Point& p, const Tangent& v) const { return exp(p, v); }
  [[nodiscard]] Point random_point(Rng& rng) const { return spd::random_spd<T>(n_, rng); }
  [[nodiscard]] Tangent random_tangent(const Point&, Rng& rng) const {
    return spd::random_symmetric<T>(n_, spd::AlphaBeta{}, rng);
  }
  void check_point(const Point& p) const { spd::check_spd("SpdEuclidean::check_point", p, n_); }
  void check_tangent(const Point& p, const Tangent& v) const {
    spd::check_point_and_tangent("SpdEuclidean::check_tangent", p, v, n_);
  }

 private:
  int n_;
};

static_assert(is_manifold_v<SpdEuclidean<float>> && is_manifold_v<SpdEuclidean<double>>);

}  // namespace gyre
