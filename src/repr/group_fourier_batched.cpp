// GroupFourierTransform: the packed Fourier transform of batches on C_N and D_N with one FFTW plan
// per call over every row (each flip coset of each function is one real transform of length N).

#include <complex>
#include <mutex>
#include <vector>

#include <fftw3.h>

#include "fftw_planner_mutex.hpp"
#include "gyre/core/error.hpp"
#include "gyre/repr/fourier.hpp"
#include "gyre/repr/irrep.hpp"

namespace gyre::repr {
namespace {

using detail::fftw_planner_mutex;

template <class T>
struct Fftw;

template <>
struct Fftw<double> {
  static void r2c(int n, int rows, double* in, std::complex<double>* out) {
    fftw_plan plan;
    {
      const std::lock_guard<std::mutex> lock(fftw_planner_mutex());
      plan = fftw_plan_many_dft_r2c(1, &n, rows, in, nullptr, 1, n, reinterpret_cast<fftw_complex*>(out), nullptr, 1,
                                    n / 2 + 1, FFTW_ESTIMATE);
    }
    run(plan, n);
  }
  static void c2r(int n, int rows, std::complex<double>* in, double* out) {
    fftw_plan plan;
    {
      const std::lock_guard<std::mutex> lock(fftw_planner_mutex());
      plan = fftw_plan_many_dft_c2r(1, &n, rows, reinterpret_cast<fftw_complex*>(in), nullptr, 1, n / 2 + 1, out,
                                    nullptr, 1, n, FFTW_ESTIMATE);
    }
    run(plan, n);
  }
  static void run(fftw_plan plan, int n) {
    if (plan == nullptr) throw DomainError("GroupFourierTransform", "FFTW could not plan transforms of length", n);
    fftw_execute(plan);
    const std::lock_guard<std::mutex> lock(fftw_planner_mutex());
    fftw_destroy_plan(plan);
  }
};

template <>
struct Fftw<float> {
  static void r2c(int n, int rows, float* in, std::complex<float>* out) {
    fftwf_plan plan;
    {
      const std::lock_guard<std::mutex> lock(fftw_planner_mutex());
      plan = fftwf_plan_many_dft_r2c(1, &n, rows, in, nullptr, 1, n, reinterpret_cast<fftwf_complex*>(out), nullptr, 1,
                                     n / 2 + 1, FFTW_ESTIMATE);
    }
    run(plan, n);
  }
  static void c2r(int n, int rows, std::complex<float>* in, float* out) {
    fftwf_plan plan;
    {
      const std::lock_guard<std::mutex> lock(fftw_planner_mutex());
      plan = fftwf_plan_many_dft_c2r(1, &n, rows, reinterpret_cast<fftwf_complex*>(in), nullptr, 1, n / 2 + 1, out,
                                     nullptr, 1, n, FFTW_ESTIMATE);
    }
    run(plan, n);
  }
  static void run(fftwf_plan plan, int n) {
    if (plan == nullptr) throw DomainError("GroupFourierTransform", "FFTW could not plan transforms of length", n);
    fftwf_execute(plan);
    const std::lock_guard<std::mutex> lock(fftw_planner_mutex());
    fftwf_destroy_plan(plan);
  }
};

}  // namespace

template <class T>
GroupFourierTransform<T>::GroupFourierTransform(PlanarGroup group) : group_(std::move(group)) {
  if (group_.kind() != PlanarGroupKind::kCyclic && group_.kind() != PlanarGroupKind::kDihedral) {
    throw DomainError("GroupFourierTransform", "the batched transform is for C_N and D_N", group_.name());
  }
}

template <class T>
void GroupFourierTransform<T>::forward(const T* signals, T* coefficients, std::size_t batch) const {
  if (batch == 0) return;
  const int n = group_.n(), cosets = group_.has_flips() ? 2 : 1, half = n / 2 + 1;
  const auto rows = static_cast<int>(batch) * cosets;
  std::vector<std::complex<T>> spectra(static_cast<std::size_t>(rows) * static_cast<std::size_t>(half));
  // An out-of-place r2c planned with FFTW_ESTIMATE reads its input and never writes it (FFTW's
  // manual, "Planner Flags"): the const_cast hands FFTW the caller's buffer without a copy.
  Fftw<T>::r2c(n, rows, const_cast<T*>(signals), spectra.data());
  const std::vector<Irrep> all = irreps(group_);
  for (std::size_t b = 0; b < batch; ++b) {
    // Σ_r x_r·(cos, sin)(2πkr/N) = (Re F[k], −Im F[k]) for each coset's spectrum F.
    const std::complex<T>* a = spectra.data() + b * static_cast<std::size_t>(cosets * half);
    const std::complex<T>* f = a + half;  // the flip coset (D_N only)
    T* out = coefficients + b * static_cast<std::size_t>(group_.order());
    for (const Irrep& psi : all) {
      const int k = psi.frequency;
      if (irrep_size(group_, psi) == 1) {
        const T sign = psi.flip_frequency == 1 ? T(-1) : T(1);
        *out++ = a[k].real() + (cosets == 2 ? sign * f[k].real() : T(0));
      } else if (cosets == 1) {
        *out++ = a[k].real();
        *out++ = -a[k].imag();
      } else {
        // ψ(0, θ) = R(kθ), ψ(1, θ) = R(kθ)·diag(1, −1): Σ = A_k + B_k·diag(1, −1).
        const T ca = a[k].real(), sa = -a[k].imag(), cb = f[k].real(), sb = -f[k].imag();
        *out++ = ca + cb;
        *out++ = -sa + sb;
        *out++ = sa + sb;
        *out++ = ca - cb;
      }
    }
  }
}

template <class T>
void GroupFourierTransform<T>::inverse(const T* coefficients, T* signals, std::size_t batch) const {
  if (batch == 0) return;
  const int n = group_.n(), cosets = group_.has_flips() ? 2 : 1, half = n / 2 + 1;
  const auto rows = static_cast<int>(batch) * cosets;
  std::vector<std::complex<T>> spectra(static_cast<std::size_t>(rows) * static_cast<std::size_t>(half));
  const std::vector<Irrep> all = irreps(group_);
  for (std::size_t b = 0; b < batch; ++b) {
    std::complex<T>* a = spectra.data() + b * static_cast<std::size_t>(cosets * half);
    std::complex<T>* f = a + half;
    const T* in = coefficients + b * static_cast<std::size_t>(group_.order());
    for (const Irrep& psi : all) {
      const int k = psi.frequency;
      if (irrep_size(group_, psi) == 1) {
        // The 1×1 irreps come in pairs (j = 0, 1) for D_N: A = (f̂₀ + f̂₁)/2, B = (f̂₀ − f̂₁)/2.
        const T value = *in++;
        if (cosets == 1) {
          a[k] = value;
        } else {
          const T sign = psi.flip_frequency == 1 ? T(-1) : T(1);
          a[k] += value / 2;
          f[k] += sign * value / 2;
        }
      } else if (cosets == 1) {
        const T c = in[0], s = in[1];
        in += 2;
        a[k] = std::complex<T>(c, -s);
      } else {
        const T m00 = in[0], m01 = in[1], m10 = in[2], m11 = in[3];
        in += 4;
        a[k] = std::complex<T>((m00 + m11) / 2, -(m10 - m01) / 2);
        f[k] = std::complex<T>((m00 - m11) / 2, -(m10 + m01) / 2);
      }
    }
  }
  Fftw<T>::c2r(n, rows, spectra.data(), signals);
  // c2r is unnormalised: x_r = (1/N)·Σ_k F[k]·e^{2πikr/N} per coset (the 1/|G| and d_ψ/e_ψ of the
  // inverse formula collapse to this for both groups).
  const T scale = T(1) / static_cast<T>(n);
  const std::size_t count = static_cast<std::size_t>(rows) * static_cast<std::size_t>(n);
  for (std::size_t i = 0; i < count; ++i) signals[i] *= scale;
}

template class GroupFourierTransform<float>;
template class GroupFourierTransform<double>;

}  // namespace gyre::repr
