#pragma once
// Conversions between the models of constant curvature: the κ-stereographic model (κ < 0) and
// the hyperboloid Hⁿ, and the κ-stereographic model (κ > 0) and the unit sphere Sⁿ. The maps are
// isometries up to the scale 1/√|κ|: d_κ(a, b) = d(φ(a), φ(b))/√|κ|.
//   ball → hyperboloid:  b' = √−κ·b,  x = ((1 + ‖b'‖²), 2b')/(1 − ‖b'‖²)
//   hyperboloid → ball:  b = x₁..ₙ/((1 + x₀)·√−κ)
//   projected sphere → sphere:  b' = √κ·b,  x = ((1 − ‖b'‖²), 2b')/(1 + ‖b'‖²)
//   sphere → projected sphere:  b = x₁..ₙ/((1 + x₀)·√κ)   (x₀ = −1, the point at infinity, throws)

#include <cmath>

#include "gyre/core/error.hpp"
#include "gyre/core/types.hpp"

namespace gyre {

template <class T>
[[nodiscard]] Vector<T> stereographic_to_hyperboloid(const Vector<T>& b, double kappa) {
  if (!(kappa < 0)) throw DomainError("stereographic_to_hyperboloid", "needs kappa < 0", kappa);
  const Vector<T> scaled = b * static_cast<T>(std::sqrt(-kappa));
  const T s2 = scaled.squaredNorm();
  if (!(s2 < 1))
    throw DomainError("stereographic_to_hyperboloid", "point is not inside the ball (‖b‖·√−κ)", std::sqrt(s2));
  Vector<T> x(b.size() + 1);
  x(0) = (1 + s2) / (1 - s2);
  x.tail(b.size()) = scaled * (T(2) / (1 - s2));
  return x;
}

template <class T>
[[nodiscard]] Vector<T> hyperboloid_to_stereographic(const Vector<T>& x, double kappa) {
  if (!(kappa < 0)) throw DomainError("hyperboloid_to_stereographic", "needs kappa < 0", kappa);
  if (!(x(0) > 0)) throw DomainError("hyperboloid_to_stereographic", "point is not on the upper sheet (x₀)", x(0));
  return x.tail(x.size() - 1) / ((1 + x(0)) * static_cast<T>(std::sqrt(-kappa)));
}

template <class T>
[[nodiscard]] Vector<T> stereographic_to_sphere(const Vector<T>& b, double kappa) {
  if (!(kappa > 0)) throw DomainError("stereographic_to_sphere", "needs kappa > 0", kappa);
  const Vector<T> scaled = b * static_cast<T>(std::sqrt(kappa));
  const T s2 = scaled.squaredNorm();
  Vector<T> x(b.size() + 1);
  x(0) = (1 - s2) / (1 + s2);
  x.tail(b.size()) = scaled * (T(2) / (1 + s2));
  return x;
}

template <class T>
[[nodiscard]] Vector<T> sphere_to_stereographic(const Vector<T>& x, double kappa) {
  if (!(kappa > 0)) throw DomainError("sphere_to_stereographic", "needs kappa > 0", kappa);
  if (!(1 + x(0) > 0)) throw DomainError("sphere_to_stereographic", "the point −e₀ maps to infinity (x₀)", x(0));
  return x.tail(x.size() - 1) / ((1 + x(0)) * static_cast<T>(std::sqrt(kappa)));
}

}  // namespace gyre
