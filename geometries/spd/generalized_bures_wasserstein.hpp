#pragma once
// ============================================================================================
//  SPD(n) with the generalized Bures–Wasserstein metric (GBWM) of parameter M ∈ SPD(n):
//  d²(P, Q) = tr(M⁻¹P) + tr(M⁻¹Q) − 2 tr((P^½ M⁻¹ Q M⁻¹ P^½)^½)   (Han et al. 2021).
// ============================================================================================
//  The congruence φ(P) = M^-½ P M^-½ is an isometry from GBW(M) onto BW (the traces and the
//  spectrum of P M⁻¹ Q M⁻¹ are what d² reads), and it is linear, so dφ = φ. Every operation is
//  BW's (bures_wasserstein.hpp) conjugated by φ: exp, log, transport (the same RK4 integration
//  and accuracy), inner, dist, mean, sampling. M = I gives BW.
// ============================================================================================

#include <string>
#include <vector>

#include "bures_wasserstein.hpp"

namespace gyre {

/// SPD(n) with the generalized Bures–Wasserstein metric of parameter M.
template <class T>
class SpdGeneralizedBuresWasserstein {
 public:
  using Scalar = T;
  using Point = Matrix<T>;
  using Tangent = Matrix<T>;

  explicit SpdGeneralizedBuresWasserstein(const Matrix<T>& m) : bw_(static_cast<int>(m.rows())), m_(m) {
    spd::check_spd("SpdGeneralizedBuresWasserstein::SpdGeneralizedBuresWasserstein", m, static_cast<int>(m.rows()));
    const linalg::SymmetricEigen<T> e = linalg::symmetric_eigen<T>(m);
    root_ = linalg::apply(e, linalg::Sqrt{});
    inv_root_ = linalg::apply(e, linalg::InverseSqrt{});
  }

  [[nodiscard]] int n() const { return bw_.n(); }
  [[nodiscard]] const Matrix<T>& parameter() const { return m_; }
  [[nodiscard]] int dim() const { return bw_.dim(); }
  [[nodiscard]] T injectivity_radius() const { return bw_.injectivity_radius(); }

  [[nodiscard]] Point exp(const Point& p, const Tangent& v) const { return from_bw(bw_.exp(to_bw(p), to_bw(v))); }
  [[nodiscard]] Tangent log(const Point& p, const Point& q) const { return from_bw(bw_.log(to_bw(p), to_bw(q))); }
  [[nodiscard]] Tangent transport(const Point& p, const Point& q, const Tangent& w) const {
    return from_bw(bw_.transport(to_bw(p), to_bw(q), to_bw(w)));
  }
  /// VJPs of exp, log and transport: BW's at φ(P), pulled through the linear, self-adjoint φ and φ⁻¹ (the
  /// cotangent of φ⁻¹(·) is φ⁻¹ applied to it, the gradient of φ(·) is φ applied to it).
  [[nodiscard]] ExpVjp<Point, Tangent> exp_vjp(const Point& p, const Tangent& v, const Point& g) const {
    spd::check_cotangent("SpdGeneralizedBuresWasserstein::exp_vjp", g, n());
    const ExpVjp<Point, Tangent> vjp = bw_.exp_vjp(to_bw(p), to_bw(v), from_bw(g));
    return {to_bw(vjp.x), to_bw(vjp.v)};
  }
  [[nodiscard]] LogVjp<Point> log_vjp(const Point& p, const Point& q, const Tangent& g) const {
    spd::check_cotangent("SpdGeneralizedBuresWasserstein::log_vjp", g, n());
    const LogVjp<Point> vjp = bw_.log_vjp(to_bw(p), to_bw(q), from_bw(g));
    return {to_bw(vjp.x), to_bw(vjp.y)};
  }
  [[nodiscard]] TransportVjp<Point, Tangent> transport_vjp(const Point& p, const Point& q, const Tangent& w,
                                                           const Tangent& g) const {
    spd::check_cotangent("SpdGeneralizedBuresWasserstein::transport_vjp", g, n());
    const TransportVjp<Point, Tangent> vjp = bw_.transport_vjp(to_bw(p), to_bw(q), to_bw(w), from_bw(g));
    return {to_bw(vjp.x), to_bw(vjp.y), to_bw(vjp.w)};
  }
  [[nodiscard]] T inner(const Point& p, const Tangent& u, const Tangent& v) const {
    return bw_.inner(to_bw(p), to_bw(u), to_bw(v));
  }
  [[nodiscard]] T norm(const Point& p, const Tangent& v) const { return bw_.norm(to_bw(p), to_bw(v)); }
  [[nodiscard]] T dist(const Point& p, const Point& q) const { return bw_.dist(to_bw(p), to_bw(q)); }
  /// The Riemannian gradient from the Euclidean gradient G: the metric is BW's pulled back by the
  /// congruence φ(A) = M^-½·A·M^-½, which is self-adjoint, so R = φ⁻¹(BW's gradient at φ(P) of φ⁻¹(G)).
  [[nodiscard]] Tangent egrad_to_rgrad(const Point& p, const Tangent& g) const {
    const Matrix<T> s = spd::project_to_symmetric("SpdGeneralizedBuresWasserstein::egrad_to_rgrad", p, g, n());
    return from_bw(bw_.egrad_to_rgrad(to_bw(p), from_bw(s)));
  }
  [[nodiscard]] Tangent project(const Point& p, const Tangent& a) const { return bw_.project(p, a); }
  [[nodiscard]] Point retract(const Point& p, const Tangent& v) const { return exp(p, v); }
  [[nodiscard]] Point random_point(Rng& rng) const { return bw_.random_point(rng); }
  [[nodiscard]] Tangent random_tangent(const Point& p, Rng& rng) const {
    return from_bw(bw_.random_tangent(to_bw(p), rng));
  }
  /// The weighted barycenter: BW's fixed point on φ(Pᵢ), mapped back.
  [[nodiscard]] Point mean(const std::vector<Point>& points, std::vector<T> weights = {}) const {
    std::vector<Point> mapped;
    mapped.reserve(points.size());
    for (const Point& p : points) mapped.push_back(to_bw(p));
    return from_bw(bw_.mean(mapped, std::move(weights)));
  }
  void check_point(const Point& p) const { bw_.check_point(p); }
  void check_tangent(const Point& p, const Tangent& v) const { bw_.check_tangent(p, v); }

 private:
  // φ and φ⁻¹; shapes are checked here so that the messages name the right size before BW's own.
  Matrix<T> to_bw(const Matrix<T>& a) const {
    require_shape("SpdGeneralizedBuresWasserstein", "matrix", a, n(), n());
    return linalg::symmetric_part<T>(inv_root_ * a * inv_root_);
  }
  Matrix<T> from_bw(const Matrix<T>& a) const { return linalg::symmetric_part<T>(root_ * a * root_); }

  SpdBuresWasserstein<T> bw_;
  Matrix<T> m_;
  Matrix<T> root_;
  Matrix<T> inv_root_;
};

static_assert(is_manifold_v<SpdGeneralizedBuresWasserstein<double>>);

}  // namespace gyre
