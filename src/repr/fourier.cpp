#include "gyre/repr/fourier.hpp"

#include <complex>
#include <mutex>

#include <fftw3.h>

#include "fftw_planner_mutex.hpp"
#include "gyre/core/error.hpp"
#include "gyre/repr/irrep.hpp"

namespace gyre::repr {
namespace {

using detail::fftw_planner_mutex;

// F[k] = Σ_r x[r]·e^{−2πikr/N} for k = 0 … N/2 (FFTW r2c).
std::vector<std::complex<double>> real_fft(const double* x, int n) {
  std::vector<double> in(x, x + n);
  std::vector<std::complex<double>> out(static_cast<std::size_t>(n / 2 + 1));
  fftw_plan plan;
  {
    const std::lock_guard<std::mutex> lock(fftw_planner_mutex());
    plan = fftw_plan_dft_r2c_1d(n, in.data(), reinterpret_cast<fftw_complex*>(out.data()), FFTW_ESTIMATE);
  }
  if (plan == nullptr) throw DomainError("fourier_transform", "FFTW could not plan a transform of length", n);
  fftw_execute(plan);
  {
    const std::lock_guard<std::mutex> lock(fftw_planner_mutex());
    fftw_destroy_plan(plan);
  }
  return out;
}

void require_finite_function(const char* where, const PlanarGroup& group, Eigen::Index size) {
  if (!group.is_finite()) throw DomainError(where, "the Fourier transform is for finite groups", group.name());
  if (size != group.order()) {
    throw ShapeError(where, "a function needs one value per element (" + std::to_string(group.order()) + ")", size);
  }
}

// Σ_r x[r]·ψ_k(r) for the rotation part ψ_k(r) = R(2πkr/N) (or its 1×1 form) from the FFT:
// Σ cos = Re F[k], Σ sin = −Im F[k].
Matrix<double> rotation_sum(const std::vector<std::complex<double>>& spectrum, int k, int size) {
  const std::complex<double> z = spectrum[static_cast<std::size_t>(k)];
  Matrix<double> m(size, size);
  if (size == 1) {
    m(0, 0) = z.real();
  } else {
    const double c = z.real();
    const double s = -z.imag();
    m << c, -s, s, c;
  }
  return m;
}

}  // namespace

std::vector<Matrix<double>> fourier_transform(const PlanarGroup& group, const Vector<double>& f) {
  require_finite_function("fourier_transform", group, f.size());
  const int n = group.n();
  const auto rotations = real_fft(f.data(), n);
  std::vector<std::complex<double>> flips;
  if (group.has_flips()) flips = real_fft(f.data() + n, n);
  std::vector<Matrix<double>> result;
  for (const Irrep& psi : irreps(group)) {
    const int d = irrep_size(group, psi);
    Matrix<double> m = rotation_sum(rotations, psi.frequency, d);
    if (group.has_flips()) {
      // ψ(1, θ) = ψ(0, θ)·ψ(flip): the flip coset's sum times the flip's matrix.
      m += rotation_sum(flips, psi.frequency, d) * irrep_matrix(group, psi, {1, 0.0});
    }
    result.push_back(std::move(m));
  }
  return result;
}

std::vector<Matrix<double>> fourier_transform_direct(const PlanarGroup& group, const Vector<double>& f) {
  require_finite_function("fourier_transform_direct", group, f.size());
  const std::vector<PlanarElement> elements = group.elements();
  std::vector<Matrix<double>> result;
  for (const Irrep& psi : irreps(group)) {
    const int d = irrep_size(group, psi);
    Matrix<double> m = Matrix<double>::Zero(d, d);
    for (std::size_t i = 0; i < elements.size(); ++i)
      m += f(static_cast<Eigen::Index>(i)) * irrep_matrix(group, psi, elements[i]);
    result.push_back(std::move(m));
  }
  return result;
}

Vector<double> inverse_fourier_transform(const PlanarGroup& group, const std::vector<Matrix<double>>& coefficients) {
  if (!group.is_finite())
    throw DomainError("inverse_fourier_transform", "the Fourier transform is for finite groups", group.name());
  const std::vector<Irrep> all = irreps(group);
  if (coefficients.size() != all.size()) {
    throw ShapeError("inverse_fourier_transform",
                     "one coefficient matrix per irrep (" + std::to_string(all.size()) + ")", coefficients.size());
  }
  const std::vector<PlanarElement> elements = group.elements();
  Vector<double> f = Vector<double>::Zero(static_cast<Eigen::Index>(elements.size()));
  for (std::size_t k = 0; k < all.size(); ++k) {
    const int d = irrep_size(group, all[k]);
    if (coefficients[k].rows() != d || coefficients[k].cols() != d) {
      throw ShapeError(
          "inverse_fourier_transform",
          "coefficient of " + irrep_name(group, all[k]) + " must be " + std::to_string(d) + "x" + std::to_string(d),
          std::to_string(coefficients[k].rows()) + "x" + std::to_string(coefficients[k].cols()));
    }
    const double weight = static_cast<double>(d) / endomorphism_dim(group, all[k]);
    for (std::size_t i = 0; i < elements.size(); ++i) {
      f(static_cast<Eigen::Index>(i)) +=
          weight * (irrep_matrix(group, all[k], elements[i]).transpose() * coefficients[k]).trace();
    }
  }
  return f / static_cast<double>(elements.size());
}

}  // namespace gyre::repr
