#include "gyre/nn/lorentz_canonicalization.hpp"

#include <cmath>
#include <string>

#include <Eigen/Eigenvalues>

#include "gyre/core/error.hpp"
#include "lorentz/lorentz.hpp"

namespace gyre::nn {
namespace {

// c(Q) = Σᵢ uᵢᵀqᵢ with q columns: u = e₀ for every momentum, − ε·e_z for the first, − ε·e_x for the second.
Matrix<double> energy_weights(Eigen::Index n, double alignment) {
  Matrix<double> u = Matrix<double>::Zero(4, n);
  u.row(0).setOnes();
  u(3, 0) -= alignment;
  u(1, 1) -= alignment;
  return u;
}

double energy(const Matrix<double>& u, const Matrix<double>& q) { return (u.array() * q.array()).sum(); }

}  // namespace

LorentzCanonicalFrame canonical_lorentz_frame(const Matrix<double>& momenta,
                                              const LorentzCanonicalizationOptions& options) {
  if (momenta.cols() != 4 || momenta.rows() < 2) {
    throw ShapeError("canonical_lorentz_frame", "momenta must be n × 4 with n >= 2",
                     std::to_string(momenta.rows()) + "×" + std::to_string(momenta.cols()));
  }
  if (!momenta.allFinite()) throw DomainError("canonical_lorentz_frame", "momenta must be finite", "NaN or ±inf");
  // c is linear in the momenta, so Λ* does not depend on their scale: work on P/s, s the largest
  // |entry|, so that masses E² − |p|² neither overflow (1e300) nor underflow (1e-300).
  const double largest = momenta.cwiseAbs().maxCoeff();
  if (!(largest > 0)) throw DomainError("canonical_lorentz_frame", "momenta must not all be zero", largest);
  const Matrix<double> unit = momenta / largest;
  if (!(options.alignment > 0 && options.alignment < 0.5)) {
    throw DomainError("canonical_lorentz_frame", "the alignment weight must be in (0, 1/2)", options.alignment);
  }
  for (Eigen::Index i = 0; i < unit.rows(); ++i) {
    const double e = unit(i, 0), p = unit.row(i).tail(3).norm();
    if (!(e > 0 && e >= p * (1 - 1e-12))) {
      throw DomainError("canonical_lorentz_frame",
                        "momentum " + std::to_string(i) + " is not future-directed causal (E ≥ |p| > 0 fails)",
                        momenta(i, 0));
    }
  }
  const Vector<double> total = unit.colwise().sum().transpose();
  const double mass2 = total(0) * total(0) - total.tail(3).squaredNorm();
  if (!(mass2 > 1e-24 * total(0) * total(0))) {
    throw DomainError("canonical_lorentz_frame",
                      "the total momentum must be timelike (no centre-of-momentum frame; mass² / largest entry²)",
                      mass2);
  }
  const Lorentz<double> group;
  std::vector<Matrix<double>> generators;
  for (int k = 0; k < 6; ++k) generators.push_back(group.hat(Vector<double>::Unit(6, k)));
  const Matrix<double> u = energy_weights(unit.rows(), options.alignment);
  const Matrix<double> p = unit.transpose();  // columns
  Matrix<double> lambda = Matrix<double>::Identity(4, 4);
  Matrix<double> q = p;
  LorentzCanonicalFrame frame;
  for (;; ++frame.iterations) {
    // Λ·exp(hat(a)) gives Q(a) = exp(−hat(a))·Q: ∂c/∂a_k = −Σ uᵀG_k q, ∂²c/∂a_k∂a_l = ½Σ uᵀ(G_kG_l + G_lG_k)q.
    Vector<double> g(6);
    Matrix<double> h(6, 6);
    for (int k = 0; k < 6; ++k) {
      g(k) = -energy(u, generators[k] * q);
      for (int l = 0; l <= k; ++l) {
        h(k, l) = h(l, k) = energy(u, (generators[k] * generators[l] + generators[l] * generators[k]) * q) / 2;
      }
    }
    const double scale = q.row(0).sum();
    frame.gradient = g.norm() / scale;
    if (frame.gradient <= options.tolerance) break;
    if (frame.iterations >= options.max_iterations) {
      throw ConvergenceError("canonical_lorentz_frame", "no minimum within the iteration limit (gradient left)",
                             frame.gradient);
    }
    // Saddle-free Newton: H's eigenvalues by magnitude (floored), so that the step descends at
    // saddles (Wahba's problem has three) and is Newton's near the minimum, where H is definite.
    const Eigen::SelfAdjointEigenSolver<Matrix<double>> eigen(h);
    const Vector<double> curvature = eigen.eigenvalues().cwiseAbs().cwiseMax(1e-6 * scale);
    Vector<double> step = -eigen.eigenvectors() * (eigen.eigenvectors().transpose() * g).cwiseQuotient(curvature);
    const double current = energy(u, q);
    Matrix<double> trial_lambda, trial_q;
    for (int halvings = 0;; ++halvings) {
      const Matrix<double> move = group.algebra_exp(step);
      trial_lambda = lambda * move;
      trial_q = group.algebra_exp(-step) * q;
      if (energy(u, trial_q) <= current + 1e-15 * scale || halvings == 60) break;
      step /= 2;
    }
    lambda = trial_lambda;
    // Q from Λ afresh each step (Λ⁻¹ = ηΛᵀη), so that rounding does not accumulate in Q.
    q = group.inverse(lambda) * p;
  }
  frame.transform = lambda;
  return frame;
}

Matrix<double> canonicalize_lorentz(const Matrix<double>& momenta, const LorentzCanonicalFrame& frame) {
  if (momenta.cols() != 4) throw ShapeError("canonicalize_lorentz", "momenta must be n × 4", momenta.cols());
  const Lorentz<double> group;
  return (group.inverse(frame.transform) * momenta.transpose()).transpose();
}

Matrix<double> canonicalize_lorentz_backward(const Matrix<double>& momenta, const LorentzCanonicalFrame& frame,
                                             const Matrix<double>& grad_canonical,
                                             const LorentzCanonicalizationOptions& options) {
  if (momenta.cols() != 4 || grad_canonical.rows() != momenta.rows() || grad_canonical.cols() != 4) {
    throw ShapeError("canonicalize_lorentz_backward", "momenta and their gradient must both be n × 4",
                     std::to_string(grad_canonical.rows()) + "×" + std::to_string(grad_canonical.cols()));
  }
  const Lorentz<double> group;
  const Matrix<double> inverse = group.inverse(frame.transform);
  const Matrix<double> q = inverse * momenta.transpose();  // columns, as in the optimizer
  const Matrix<double> q_bar = grad_canonical.transpose();
  const Matrix<double> u = energy_weights(momenta.rows(), options.alignment);
  std::vector<Matrix<double>> generators;
  for (int k = 0; k < 6; ++k) generators.push_back(group.hat(Vector<double>::Unit(6, k)));
  Matrix<double> h(6, 6);
  Vector<double> r(6);
  for (int k = 0; k < 6; ++k) {
    r(k) = energy(q_bar, generators[k] * q);
    for (int l = 0; l < 6; ++l) h(k, l) = energy(u, generators[k] * generators[l] * q);
  }
  // At the minimum ∇c = 0 makes H symmetric (its antisymmetric part is ½⟨u, [G_k, G_l]·Q⟩, a
  // combination of ∇c's components); symmetrise away the rounding.
  h = (h + h.transpose()).eval() / 2;
  Matrix<double> through_frame = q_bar;
  const Eigen::SelfAdjointEigenSolver<Matrix<double>> eigen(h);
  const double scale = q.row(0).sum();
  if (eigen.eigenvalues().minCoeff() > 1e-9 * scale) {
    const Vector<double> w =
        eigen.eigenvectors() * (eigen.eigenvectors().transpose() * r).cwiseQuotient(eigen.eigenvalues());
    for (int k = 0; k < 6; ++k) through_frame -= w(k) * generators[k].transpose() * u;
  }
  return (inverse.transpose() * through_frame).transpose();
}

}  // namespace gyre::nn
