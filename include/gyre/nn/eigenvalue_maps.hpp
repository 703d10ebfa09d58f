#pragma once
// Layers that apply a scalar function to the eigenvalues of symmetric matrix features, channel by
// channel: SPDNet's ReEig and LogEig (Huang & Van Gool 2017) and their relatives ExpEig and PowEig.
//
//   ReEig(ε)   SPD(n)[C] → SPD(n)[C]        U·max(Λ, ε)·Uᵀ   (SPDNet's default ε = 1e-4)
//   LogEig     SPD(n)[C] → ℝ^(n×n)[C]       U·log(Λ)·Uᵀ, the matrix logarithm: to the tangent space at I
//   ExpEig     ℝ^(n×n)[C] → SPD(n)[C]       U·exp(Λ)·Uᵀ, its inverse, for symmetric inputs
//   PowEig(p)  SPD(n)[C] → SPD(n)[C]        U·Λᵖ·Uᵀ
//
// Backward passes use the Daleckii–Krein formula with stable divided differences
// (linalg/batched_spectral_function.hpp), so repeated and nearly repeated eigenvalues — common
// after ReEig has clamped several to ε — give the exact derivative instead of a division by zero.
// Gradients with respect to symmetric inputs are returned symmetric.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <string>

#include <xtensor/xarray.hpp>

#include "gyre/linalg/batched_spectral_function.hpp"
#include "gyre/linalg/symmetric_functions.hpp"
#include "gyre/nn/module.hpp"

namespace gyre::nn {

/// Y = U·f(Λ)·Uᵀ for every (B, C) item of symmetric n×n features (see the header comment).
template <class T, class F>
class EigenvalueMap : public Module<T> {
 public:
  GeometricTensor<T> forward(const GeometricTensor<T>& input) override;
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override;
  [[nodiscard]] const TensorType& in_type() const override { return in_type_; }
  [[nodiscard]] const TensorType& out_type() const override { return out_type_; }
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::size_t pending_calls() const override { return saved_.size(); }
  void discard_saved() override { saved_.clear(); }

 protected:
  EigenvalueMap(std::string name, F f, TensorType in, TensorType out);

 private:
  std::string name_;
  F f_;
  TensorType in_type_, out_type_;
  SavedCalls<linalg::SpectralSaved<T>> saved_;
};

/// SPDNet's ReEig: eigenvalues clamped below at ε > 0.
template <class T>
class ReEig : public EigenvalueMap<T, linalg::Rectify> {
 public:
  /// Throws DomainError unless ε > 0 and finite.
  ReEig(int n, int channels, double epsilon = 1e-4);
};

/// SPDNet's LogEig: the matrix logarithm, SPD features to symmetric matrices.
template <class T>
class LogEig : public EigenvalueMap<T, linalg::Log> {
 public:
  LogEig(int n, int channels);
};

/// The matrix exponential, symmetric matrices to SPD features (LogEig's inverse).
template <class T>
class ExpEig : public EigenvalueMap<T, linalg::Exp> {
 public:
  ExpEig(int n, int channels);
};

/// The matrix power X ↦ Xᵖ of SPD features.
template <class T>
class PowEig : public EigenvalueMap<T, linalg::Power> {
 public:
  /// Throws DomainError unless p is finite.
  PowEig(int n, int channels, double p);
};

extern template class EigenvalueMap<float, linalg::Rectify>;
extern template class EigenvalueMap<double, linalg::Rectify>;
extern template class EigenvalueMap<float, linalg::Log>;
extern template class EigenvalueMap<double, linalg::Log>;
extern template class EigenvalueMap<float, linalg::Exp>;
extern template class EigenvalueMap<double, linalg::Exp>;
extern template class EigenvalueMap<float, linalg::Power>;
extern template class EigenvalueMap<double, linalg::Power>;
extern template class ReEig<float>;
extern template class ReEig<double>;
extern template class LogEig<float>;
extern template class LogEig<double>;
extern template class ExpEig<float>;
extern template class ExpEig<double>;
extern template class PowEig<float>;
extern template class PowEig<double>;

}  // namespace gyre::nn
