#pragma once
// ============================================================================================
//  The full-rank correlation matrices Cor⁺(n) (SPD with unit diagonal) with the
//  poly-Poincaré-ball Cholesky structure used by GyroBN (Chen et al. 2025; Thanwerdas & Pennec's
//  poly-hyperbolic-Cholesky metric): Cor⁺(n) is diffeomorphic to a product of Poincaré balls
//  B¹ × B² × … × Bⁿ⁻¹ (curvature −1), and every operation is the balls', row by row.
// ============================================================================================
//  φ         C = LLᵀ (Cholesky). Row i of L (i = 1 … n−1) is a unit vector rᵢ ∈ ℝⁱ⁺¹ with positive
//            last entry, i.e. a point of an open hemisphere; its stereographic image is
//            xᵢ = rᵢ[0 … i−1]/(1 + rᵢ[i]) ∈ Bⁱ, and back rᵢ = (2xᵢ, 1 − ‖xᵢ‖²)/(1 + ‖xᵢ‖²).
//  Tangents  symmetric with zero diagonal. dφ: dL = L·(L⁻¹ dC L⁻ᵀ)_½ (the Cholesky derivative;
//            (A)_½ = strictly lower + half diagonal), then dxᵢ = drᵢ,<ᵢ/(1 + rᵢᵢ) − rᵢ,<ᵢ·drᵢᵢ/(1 + rᵢᵢ)²;
//            back through dr = (2dx/s − 4x⟨x,dx⟩/s², −4⟨x,dx⟩/s²), s = 1 + ‖x‖², and dC = dL Lᵀ + L dLᵀ.
//  Metric    Σᵢ of the Poincaré metrics of the balls; exp, log, transport, dist: the balls' (the
//            κ-stereographic model at κ = −1, stereographic.hpp), so the space is complete and
//            simply connected (injectivity radius +∞).
//  Gyro      ⊕, ⊖, gyr, ⊗ are the balls' Möbius operations row by row; the identity is I. Their
//            VJPs (group_derivatives.hpp) chain the balls' through the adjoints of φ and φ⁻¹.
//  project   the Frobenius-orthogonal projection onto symmetric zero-diagonal matrices.
//  Sampling  each row from the ball's random_point; random_tangent: the balls' standard Gaussians.
// ============================================================================================

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "../spd/log_cholesky.hpp"
#include "../stereographic/stereographic.hpp"
#include "gyre/core/checks.hpp"
#include "gyre/core/derivatives.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/group_derivatives.hpp"
#include "gyre/core/gyrogroup.hpp"
#include "gyre/core/manifold.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/core/types.hpp"
#include "gyre/core/validate.hpp"
#include "gyre/geometry/metric_gradient.hpp"

namespace gyre {

/// Cor⁺(n) with the poly-Poincaré-ball Cholesky metric and gyro structure.
template <class T>
class Correlation {
 public:
  using Scalar = T;
  using Point = Matrix<T>;
  using Tangent = Matrix<T>;

  explicit Correlation(int n) : n_(n) {
    if (n < 2) throw DomainError("Correlation::Correlation", "matrix size n must be at least 2", n);
    for (int i = 1; i < n; ++i) balls_.emplace_back(i, -1.0);
  }

  [[nodiscard]] int n() const { return n_; }
  [[nodiscard]] int dim() const { return n_ * (n_ - 1) / 2; }
  [[nodiscard]] T injectivity_radius() const { return std::numeric_limits<T>::infinity(); }

  // ── The chart φ and its differential (public: the layers work in the balls) ──
  using Rows = std::vector<Vector<T>>;  // xᵢ ∈ Bⁱ, i = 1 … n−1 (index i − 1)
  [[nodiscard]] Rows to_balls(const Point& c) const {
    const Matrix<T> l = spd::cholesky_factor<T>("Correlation::to_balls", c);
    Rows x;
    for (int i = 1; i < n_; ++i) x.push_back(normalized_row(l, i).head(i) / (1 + normalized_row(l, i)(i)));
    return x;
  }
  [[nodiscard]] Point from_balls(const Rows& x) const {
    const Matrix<T> l = lower_from_balls(x);
    Point c = linalg::symmetric_part<T>(l * l.transpose());
    c.diagonal().setOnes();  // exact by construction; remove the rounding
    return c;
  }
  [[nodiscard]] Rows tangent_to_balls(const Point& c, const Tangent& v) const {
    const Matrix<T> l = spd::cholesky_factor<T>("Correlation::tangent_to_balls", c);
    const Matrix<T> dl = spd::cholesky_tangent<T>(l, v);
    Rows dx;
    for (int i = 1; i < n_; ++i) {
      const T last = l(i, i);
      dx.push_back(dl.row(i).head(i).transpose() / (1 + last) -
                   l.row(i).head(i).transpose() * (dl(i, i) / ((1 + last) * (1 + last))));
    }
    return dx;
  }
  [[nodiscard]] Tangent tangent_from_balls(const Rows& x, const Rows& dx) const {
    Tangent v = spd::spd_tangent<T>(lower_from_balls(x), lower_tangent_from_balls(x, dx));
    v.diagonal().setZero();
    return v;
  }

  // ── Manifold ──
  [[nodiscard]] Point exp(const Point& c, const Tangent& v) const {
    if (checks_enabled()) check_point_tangent("Correlation::exp", c, v);
    const Rows x = to_balls(c);
    const Rows dx = tangent_to_balls(c, v);
    Rows y;
    for (int i = 1; i < n_; ++i) y.push_back(ball(i).exp(x[i - 1], dx[i - 1]));
    return from_balls(y);
  }
  [[nodiscard]] Tangent log(const Point& c, const Point& d) const {
    if (checks_enabled()) check_two_points("Correlation::log", c, d);
    const Rows x = to_balls(c);
    const Rows y = to_balls(d);
    Rows v;
    for (int i = 1; i < n_; ++i) v.push_back(ball(i).log(x[i - 1], y[i - 1]));
    return tangent_from_balls(x, v);
  }
  [[nodiscard]] Tangent transport(const Point& c, const Point& d, const Tangent& w) const {
    if (checks_enabled()) {
      check_two_points("Correlation::transport", c, d);
      check_tangent("Correlation::transport", w);
    }
    const Rows x = to_balls(c);
    const Rows y = to_balls(d);
    const Rows dw = tangent_to_balls(c, w);
    Rows moved;
    for (int i = 1; i < n_; ++i) moved.push_back(ball(i).transport(x[i - 1], y[i - 1], dw[i - 1]));
    return tangent_from_balls(y, moved);
  }

  // ── Derivatives (gyre/core/derivatives.hpp) ──
  // exp, log and transport are the balls' between the charts: x = to_balls(C), tangents crossing by
  // A(x) = D from_balls(x) and its inverse D to_balls(C). Their VJPs chain the balls' VJPs between
  // the charts' adjoints (from_balls_vjp, to_balls_vjp), plus the chart's curvature where a tangent
  // crosses at a moving point: ∂ₓ⟨G, A(x)[w]⟩ (from_balls_curvature_vjp) for log and the transported
  // vector, and −∂ₓ⟨Ĝ, A(x)[dx]⟩ with Ĝ = A⁻ᵀḡ for a tangent entering (δ(A⁻¹) = −A⁻¹·δA·A⁻¹).
  [[nodiscard]] ExpVjp<Point, Tangent> exp_vjp(const Point& c, const Tangent& v, const Point& g) const {
    if (checks_enabled()) {
      check_point_tangent("Correlation::exp_vjp", c, v);
      spd::check_cotangent("Correlation::exp_vjp", g, n_);
    }
    const Rows x = to_balls(c);
    const Rows dx = tangent_to_balls(c, v);
    Rows y;
    for (int i = 1; i < n_; ++i) y.push_back(ball(i).exp(x[i - 1], dx[i - 1]));
    const Rows grad_y = from_balls_vjp(y, g);
    Rows grad_x, grad_dx;
    for (int i = 1; i < n_; ++i) {
      ExpVjp<Vector<T>, Vector<T>> row = ball(i).exp_vjp(x[i - 1], dx[i - 1], grad_y[i - 1]);
      grad_x.push_back(std::move(row.x));
      grad_dx.push_back(std::move(row.v));
    }
    Tangent grad_v = to_balls_vjp(c, grad_dx);
    const Rows curvature = from_balls_curvature_vjp(x, dx, grad_v);
    for (int i = 1; i < n_; ++i) grad_x[i - 1] -= curvature[i - 1];
    return {to_balls_vjp(c, grad_x), std::move(grad_v)};
  }
  [[nodiscard]] LogVjp<Point> log_vjp(const Point& c, const Point& d, const Tangent& g) const {
    if (checks_enabled()) {
      check_two_points("Correlation::log_vjp", c, d);
      spd::check_cotangent("Correlation::log_vjp", g, n_);
    }
    const Rows x = to_balls(c);
    const Rows y = to_balls(d);
    Rows w;
    for (int i = 1; i < n_; ++i) w.push_back(ball(i).log(x[i - 1], y[i - 1]));
    const Rows grad_w = from_balls_vjp(x, g);
    const Rows curvature = from_balls_curvature_vjp(x, w, g);
    Rows grad_x, grad_y;
    for (int i = 1; i < n_; ++i) {
      LogVjp<Vector<T>> row = ball(i).log_vjp(x[i - 1], y[i - 1], grad_w[i - 1]);
      grad_x.push_back(row.x + curvature[i - 1]);
      grad_y.push_back(std::move(row.y));
    }
    return {to_balls_vjp(c, grad_x), to_balls_vjp(d, grad_y)};
  }
  [[nodiscard]] TransportVjp<Point, Tangent> transport_vjp(const Point& c, const Point& d, const Tangent& w,
                                                           const Tangent& g) const {
    if (checks_enabled()) {
      check_two_points("Correlation::transport_vjp", c, d);
      check_tangent("Correlation::transport_vjp", w);
      spd::check_cotangent("Correlation::transport_vjp", g, n_);
    }
    const Rows x = to_balls(c);
    const Rows y = to_balls(d);
    const Rows dw = tangent_to_balls(c, w);
    Rows moved;
    for (int i = 1; i < n_; ++i) moved.push_back(ball(i).transport(x[i - 1], y[i - 1], dw[i - 1]));
    const Rows grad_moved = from_balls_vjp(y, g);
    const Rows curvature_y = from_balls_curvature_vjp(y, moved, g);
    Rows grad_x, grad_y, grad_dw;
    for (int i = 1; i < n_; ++i) {
      TransportVjp<Vector<T>, Vector<T>> row = ball(i).transport_vjp(x[i - 1], y[i - 1], dw[i - 1], grad_moved[i - 1]);
      grad_x.push_back(std::move(row.x));
      grad_y.push_back(row.y + curvature_y[i - 1]);
      grad_dw.push_back(std::move(row.w));
    }
    Tangent grad_w = to_balls_vjp(c, grad_dw);
    const Rows curvature_x = from_balls_curvature_vjp(x, dw, grad_w);
    for (int i = 1; i < n_; ++i) grad_x[i - 1] -= curvature_x[i - 1];
    return {to_balls_vjp(c, grad_x), to_balls_vjp(d, grad_y), std::move(grad_w)};
  }

  [[nodiscard]] T inner(const Point& c, const Tangent& u, const Tangent& v) const {
    if (checks_enabled()) {
      check_point_tangent("Correlation::inner", c, u);
      check_tangent("Correlation::inner", v);
    }
    const Rows x = to_balls(c);
    const Rows du = tangent_to_balls(c, u);
    const Rows dv = tangent_to_balls(c, v);
    T sum = 0;
    for (int i = 1; i < n_; ++i) sum += ball(i).inner(x[i - 1], du[i - 1], dv[i - 1]);
    return sum;
  }
  [[nodiscard]] T norm(const Point& c, const Tangent& v) const { return std::sqrt(std::max(T(0), inner(c, v, v))); }
  [[nodiscard]] T dist(const Point& c, const Point& d) const {
    if (checks_enabled()) check_two_points("Correlation::dist", c, d);
    const Rows x = to_balls(c);
    const Rows y = to_balls(d);
    T sum = 0;
    for (int i = 1; i < n_; ++i) {
      const T di = ball(i).dist(x[i - 1], y[i - 1]);
      sum += di * di;
    }
    return std::sqrt(sum);
  }
  [[nodiscard]] Tangent project(const Point& c, const Tangent& a) const {
    if (checks_enabled()) {
      check_point("Correlation::project", c);
      require_shape("Correlation::project", "ambient matrix", a, n_, n_);
      require_finite("Correlation::project", "ambient matrix", a);
    }
    Tangent v = linalg::symmetric_part<T>(a);
    v.diagonal().setZero();
    return v;
  }
  /// The Riemannian gradient from the Euclidean gradient G = ∂f/∂C, by solving the metric on a
  /// spanning set of T_C (geometry/metric_gradient.hpp): the product-of-balls metric has no short
  /// closed form in C's coordinates. O(n⁶); meant for the small n of correlation matrices.
  [[nodiscard]] Tangent egrad_to_rgrad(const Point& c, const Tangent& g) const {
    if (checks_enabled()) {
      check_point("Correlation::egrad_to_rgrad", c);
      require_shape("Correlation::egrad_to_rgrad", "Euclidean gradient", g, n_, n_);
      require_finite("Correlation::egrad_to_rgrad", "Euclidean gradient", g);
    }
    const ChecksOff inside;  // c and the spanning set are valid by construction
    return riemannian_gradient_from_metric(*this, c, g);
  }
  [[nodiscard]] Point retract(const Point& c, const Tangent& v) const { return exp(c, v); }
  [[nodiscard]] Point random_point(Rng& rng) const {
    Rows x;
    for (int i = 1; i < n_; ++i) x.push_back(ball(i).random_point(rng));
    return from_balls(x);
  }
  [[nodiscard]] Tangent random_tangent(const Point& c, Rng& rng) const {
    const Rows x = to_balls(c);
    Rows v;
    for (int i = 1; i < n_; ++i) v.push_back(ball(i).random_tangent(x[i - 1], rng));
    return tangent_from_balls(x, v);
  }

  // ── Gyrogroup ──
  [[nodiscard]] Point gyro_identity() const { return Point::Identity(n_, n_); }
  [[nodiscard]] Point gyro_add(const Point& a, const Point& b) const {
    if (checks_enabled()) check_two_points("Correlation::gyro_add", a, b);
    return rowwise(a, b,
                   [](const Stereographic<T>& s, const Vector<T>& p, const Vector<T>& q) { return s.gyro_add(p, q); });
  }
  [[nodiscard]] Point gyro_inverse(const Point& a) const {
    if (checks_enabled()) check_point("Correlation::gyro_inverse", a);
    Rows x = to_balls(a);
    for (auto& row : x) row = -row;
    return from_balls(x);
  }
  [[nodiscard]] Point gyration(const Point& a, const Point& b, const Point& c) const {
    if (checks_enabled()) {
      check_two_points("Correlation::gyration", a, b);
      check_point("Correlation::gyration", c);
    }
    const Rows x = to_balls(a);
    const Rows y = to_balls(b);
    const Rows z = to_balls(c);
    Rows out;
    for (int i = 1; i < n_; ++i) out.push_back(ball(i).gyration(x[i - 1], y[i - 1], z[i - 1]));
    return from_balls(out);
  }
  [[nodiscard]] Point gyro_scale(T r, const Point& a) const {
    if (checks_enabled()) check_point("Correlation::gyro_scale", a);
    Rows x = to_balls(a);
    for (int i = 1; i < n_; ++i) x[i - 1] = ball(i).gyro_scale(r, x[i - 1]);
    return from_balls(x);
  }

  // ── Gyro derivatives (gyre/core/group_derivatives.hpp) ──
  // Each operation is C ↦ from_balls(op(to_balls(C))), op acting row by row, so its VJP chains
  // the balls' gyro VJPs (Stereographic at κ = −1) between the adjoints of the two charts
  // (from_balls_vjp, to_balls_vjp below); ∂r of ⊗ sums over the rows.
  [[nodiscard]] GyroAddVjp<Point> gyro_add_vjp(const Point& a, const Point& b, const Point& g) const {
    if (checks_enabled()) {
      check_two_points("Correlation::gyro_add_vjp", a, b);
      spd::check_cotangent("Correlation::gyro_add_vjp", g, n_);
    }
    const Rows x = to_balls(a);
    const Rows y = to_balls(b);
    Rows sum;
    for (int i = 1; i < n_; ++i) sum.push_back(ball(i).gyro_add(x[i - 1], y[i - 1]));
    const Rows grad_sum = from_balls_vjp(sum, g);
    Rows grad_x, grad_y;
    for (int i = 1; i < n_; ++i) {
      GyroAddVjp<Vector<T>> row = ball(i).gyro_add_vjp(x[i - 1], y[i - 1], grad_sum[i - 1]);
      grad_x.push_back(std::move(row.a));
      grad_y.push_back(std::move(row.b));
    }
    return {to_balls_vjp(a, grad_x), to_balls_vjp(b, grad_y)};
  }
  [[nodiscard]] Point gyro_inverse_vjp(const Point& a, const Point& g) const {
    if (checks_enabled()) {
      check_point("Correlation::gyro_inverse_vjp", a);
      spd::check_cotangent("Correlation::gyro_inverse_vjp", g, n_);
    }
    Rows x = to_balls(a);
    for (auto& row : x) row = -row;
    Rows grad = from_balls_vjp(x, g);
    for (auto& row : grad) row = -row;
    return to_balls_vjp(a, grad);
  }
  [[nodiscard]] GyroScaleVjp<T, Point> gyro_scale_vjp(T r, const Point& a, const Point& g) const {
    if (checks_enabled()) {
      check_point("Correlation::gyro_scale_vjp", a);
      if (!std::isfinite(r)) throw DomainError("Correlation::gyro_scale_vjp", "scalar must be finite", r);
      spd::check_cotangent("Correlation::gyro_scale_vjp", g, n_);
    }
    const Rows x = to_balls(a);
    Rows scaled;
    for (int i = 1; i < n_; ++i) scaled.push_back(ball(i).gyro_scale(r, x[i - 1]));
    const Rows grad_scaled = from_balls_vjp(scaled, g);
    T grad_r = 0;
    Rows grad_x;
    for (int i = 1; i < n_; ++i) {
      GyroScaleVjp<T, Vector<T>> row = ball(i).gyro_scale_vjp(r, x[i - 1], grad_scaled[i - 1]);
      grad_r += row.r;
      grad_x.push_back(std::move(row.a));
    }
    return {grad_r, to_balls_vjp(a, grad_x)};
  }

  void check_point(const Point& c) const { check_point("Correlation::check_point", c); }
  void check_tangent(const Point& c, const Tangent& v) const {
    check_point_tangent("Correlation::check_tangent", c, v);
  }

 private:
  const Stereographic<T>& ball(int i) const { return balls_[static_cast<std::size_t>(i - 1)]; }

  // Row i of L, renormalised to unit length (it is, up to rounding).
  static Vector<T> normalized_row(const Matrix<T>& l, int i) {
    const Vector<T> r = l.row(i).head(i + 1).transpose();
    return r / r.norm();
  }

  // The gradient with respect to the rows x of ⟨G, from_balls(x)⟩: C = LLᵀ off the diagonal (the
  // diagonal is fixed at 1), so L̄ = (G₀ + G₀ᵀ)L with G₀ = G off the diagonal; row i of L is
  // (2x/s, 2/s − 1) with s = 1 + ‖x‖², ds = 2⟨x, dx⟩, so x̄ = (2/s)·ā − (4/s²)(⟨ā, x⟩ + b̄)·x for
  // ā, b̄ the row's parts of L̄.
  Rows from_balls_vjp(const Rows& x, const Matrix<T>& g) const {
    return rows_vjp(x, off_diagonal_symmetrized(g) * lower_from_balls(x));
  }

  // ∇ₓ⟨G, A(x)[w]⟩ for fixed w, A(x) = D from_balls(x): the chart's second derivative. With
  // S = G₀ + G₀ᵀ, ⟨G, dL Lᵀ + L dLᵀ⟩ = ⟨S, dL Lᵀ⟩, so row i gets Dr(xᵢ)ᵀ(S·dL)ᵢ through L and
  // ∇⟨(S·L)ᵢ, Dr(xᵢ)[wᵢ]⟩ through dL. For u = (ū, u₀), ⟨u, Dr(x)[w]⟩ = (2/s)⟨ū, w⟩ −
  // (4/s²)⟨x, w⟩(⟨ū, x⟩ + u₀), whose gradient is −(4/s²)[⟨ū, w⟩x + (⟨ū, x⟩ + u₀)w + ⟨x, w⟩ū] +
  // (16/s³)⟨x, w⟩(⟨ū, x⟩ + u₀)x.
  Rows from_balls_curvature_vjp(const Rows& x, const Rows& w, const Matrix<T>& g) const {
    const Matrix<T> sym = off_diagonal_symmetrized(g);
    const Matrix<T> through_dl = sym * lower_from_balls(x);
    Rows grad = rows_vjp(x, sym * lower_tangent_from_balls(x, w));
    for (int i = 1; i < n_; ++i) {
      const Vector<T>& row = x[i - 1];
      const Vector<T>& dir = w[i - 1];
      const T s = 1 + row.squaredNorm();
      const Vector<T> u = through_dl.row(i).head(i).transpose();
      const T xw = row.dot(dir);
      const T ux = u.dot(row) + through_dl(i, i);
      grad[i - 1] += (16 * xw * ux / (s * s * s) - 4 * u.dot(dir) / (s * s)) * row - (4 * ux / (s * s)) * dir -
                     (4 * xw / (s * s)) * u;
    }
    return grad;
  }

  // L with rows rᵢ = (2xᵢ, 1 − ‖xᵢ‖²)/(1 + ‖xᵢ‖²) (row 0: e₀), and its derivative along dx.
  Matrix<T> lower_from_balls(const Rows& x) const {
    Matrix<T> l = Matrix<T>::Zero(n_, n_);
    l(0, 0) = 1;
    for (int i = 1; i < n_; ++i) {
      const T s = 1 + x[i - 1].squaredNorm();
      l.row(i).head(i) = (2 / s) * x[i - 1].transpose();
      l(i, i) = (2 - s) / s;  // (1 − ‖x‖²)/(1 + ‖x‖²)
    }
    return l;
  }
  Matrix<T> lower_tangent_from_balls(const Rows& x, const Rows& dx) const {
    Matrix<T> dl = Matrix<T>::Zero(n_, n_);
    for (int i = 1; i < n_; ++i) {
      const T s = 1 + x[i - 1].squaredNorm();
      const T xdx = x[i - 1].dot(dx[i - 1]);
      dl.row(i).head(i) = ((2 / s) * dx[i - 1] - (4 * xdx / (s * s)) * x[i - 1]).transpose();
      dl(i, i) = -4 * xdx / (s * s);
    }
    return dl;
  }
  // Dr(xᵢ)ᵀ applied to row i of a gradient with respect to L: (2/s)·ā − (4/s²)(⟨ā, x⟩ + b̄)·x.
  Rows rows_vjp(const Rows& x, const Matrix<T>& grad_l) const {
    Rows grad_x;
    for (int i = 1; i < n_; ++i) {
      const Vector<T>& row = x[i - 1];
      const T s = 1 + row.squaredNorm();
      const Vector<T> grad_head = grad_l.row(i).head(i).transpose();
      grad_x.push_back((2 / s) * grad_head - (4 * (grad_head.dot(row) + grad_l(i, i)) / (s * s)) * row);
    }
    return grad_x;
  }
  // G₀ + G₀ᵀ, G₀ = G off the diagonal: ⟨G, dL Lᵀ + L dLᵀ⟩ = ⟨G₀ + G₀ᵀ, dL Lᵀ⟩ for the fixed unit diagonal.
  static Matrix<T> off_diagonal_symmetrized(const Matrix<T>& g) {
    Matrix<T> off = g;
    off.diagonal().setZero();
    return off + off.transpose();
  }

  // The gradient with respect to C of Σᵢ⟨x̄ᵢ, xᵢ⟩ for x = to_balls(C): xᵢ = ρ<ᵢ/(1 + ρᵢ) for the
  // unit row ρ = lᵢ/‖lᵢ‖ of L = chol(C), so ρ̄<ᵢ = x̄/(1 + ρᵢ), ρ̄ᵢ = −⟨x̄, ρ<ᵢ⟩/(1 + ρᵢ)², then
  // l̄ = (ρ̄ − ρ⟨ρ, ρ̄⟩)/‖lᵢ‖ and spd::cholesky_backward, the adjoint of dL = L·(L⁻¹ dC L⁻ᵀ)_½.
  Matrix<T> to_balls_vjp(const Point& c, const Rows& grad_x) const {
    const Matrix<T> l = spd::cholesky_factor<T>("Correlation::to_balls_vjp", c);
    Matrix<T> grad_l = Matrix<T>::Zero(n_, n_);
    for (int i = 1; i < n_; ++i) {
      const T length = l.row(i).head(i + 1).norm();
      const Vector<T> rho = l.row(i).head(i + 1).transpose() / length;
      const T denominator = 1 + rho(i);
      Vector<T> grad_rho(i + 1);
      grad_rho.head(i) = grad_x[i - 1] / denominator;
      grad_rho(i) = -grad_x[i - 1].dot(rho.head(i)) / (denominator * denominator);
      grad_l.row(i).head(i + 1) = ((grad_rho - rho * rho.dot(grad_rho)) / length).transpose();
    }
    return spd::cholesky_backward<T>(l, grad_l);
  }

  template <class Op>
  Point rowwise(const Point& a, const Point& b, Op op) const {
    const Rows x = to_balls(a);
    const Rows y = to_balls(b);
    Rows out;
    for (int i = 1; i < n_; ++i) out.push_back(op(ball(i), x[i - 1], y[i - 1]));
    return from_balls(out);
  }

  void check_point(const char* function, const Point& c) const {
    spd::check_spd(function, c, n_);
    const T diagonal = (c.diagonal().array() - 1).abs().maxCoeff();
    require_small(function, "matrix does not have a unit diagonal (max |Cᵢᵢ − 1|)", diagonal,
                  membership_tolerance<T>());
  }
  void check_tangent(const char* function, const Tangent& v) const {
    spd::check_symmetric_tangent(function, v, n_);
    const T scale = std::max(T(1), v.cwiseAbs().maxCoeff());
    require_small(function, "tangent vector does not have a zero diagonal (max |Vᵢᵢ| / max(1, max |V|))",
                  v.diagonal().cwiseAbs().maxCoeff() / scale, membership_tolerance<T>());
  }
  void check_point_tangent(const char* function, const Point& c, const Tangent& v) const {
    check_point(function, c);
    check_tangent(function, v);
  }
  void check_two_points(const char* function, const Point& c, const Point& d) const {
    check_point(function, c);
    check_point(function, d);
  }

  int n_;
  std::vector<Stereographic<T>> balls_;
};

static_assert(is_manifold_v<Correlation<float>> && is_manifold_v<Correlation<double>>);
static_assert(is_gyrogroup_v<Correlation<double>> && has_exp_log_vjp_v<Correlation<double>> &&
              has_transport_vjp_v<Correlation<double>>);

}  // namespace gyre
