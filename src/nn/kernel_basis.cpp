#include "gyre/nn/kernel_basis.hpp"

#include <cmath>
#include <map>
#include <tuple>

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <boost/math/constants/constants.hpp>

#include "basis_cache.hpp"
#include "gyre/core/error.hpp"
#include "gyre/linalg/eigen_convergence.hpp"

namespace gyre::nn {
namespace {

// escnn samples non-zero harmonics as 0 where |p| ≤ 1e-9 (the origin of the grid).
constexpr double kOriginRadius = 1e-9;
// Eigenvalues of an orthogonal projector are 0 or 1 up to rounding: ½ separates them.
constexpr double kProjectorThreshold = 0.5;

int harmonic_dim(int j) { return j == 0 ? 1 : 2; }

// B(g) with Y(g·p) = B(g)·Y(p) for Y = (cos jφ, sin jφ): g = (f, θ) maps the angle φ to φ + θ (f = 0)
// or to π − φ + θ (f = 1: the flip (x, y) ↦ (−x, y) takes φ to π − φ before the rotation).
Matrix<double> harmonic_action(int j, const repr::PlanarElement& g) {
  if (j == 0) return Matrix<double>::Identity(1, 1);
  Matrix<double> b(2, 2);
  if (g.flip == 0) {
    const double c = std::cos(j * g.angle);
    const double s = std::sin(j * g.angle);
    b << c, -s, s, c;
  } else {
    const double alpha = j * (boost::math::constants::pi<double>() + g.angle);
    b << std::cos(alpha), std::sin(alpha), std::sin(alpha), -std::cos(alpha);
  }
  return b;
}

// Y_j at a point, with escnn's rule at the origin.
void harmonics_at(int j, double radius, double angle, double* y) {
  if (j == 0) {
    y[0] = 1.0;
  } else if (radius <= kOriginRadius) {
    y[0] = y[1] = 0.0;
  } else {
    y[0] = std::cos(j * angle);
    y[1] = std::sin(j * angle);
  }
}

// Python's float % for the cut-off formula: the result takes the sign of the divisor.
double python_mod(double a, double b) {
  const double r = std::fmod(a, b);
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

}  // namespace

BasisParams make_basis_params(std::vector<double> rings, std::vector<double> sigma,
                              std::vector<int> max_frequency_per_ring) {
  const char* const where = "make_basis_params";
  if (rings.empty()) throw ShapeError(where, "at least one ring is needed", 0);
  if (sigma.size() != rings.size() || max_frequency_per_ring.size() != rings.size()) {
    throw ShapeError(where, "rings, sigma and max_frequency_per_ring must have equal lengths",
                     std::to_string(rings.size()) + ", " + std::to_string(sigma.size()) + ", " +
                         std::to_string(max_frequency_per_ring.size()));
  }
  BasisParams params;
  for (std::size_t r = 0; r < rings.size(); ++r) {
    if (!(rings[r] >= 0 && std::isfinite(rings[r]))) throw DomainError(where, "ring radius must be >= 0", rings[r]);
    if (!(sigma[r] > 0 && std::isfinite(sigma[r]))) throw DomainError(where, "sigma must be > 0", sigma[r]);
    if (!(max_frequency_per_ring[r] >= 0)) {
      throw DomainError(where, "max frequency per ring must be >= 0", max_frequency_per_ring[r]);
    }
    params.maximum_frequency = std::max(params.maximum_frequency, max_frequency_per_ring[r]);
  }
  params.rings = std::move(rings);
  params.sigma = std::move(sigma);
  params.max_frequency_per_ring = std::move(max_frequency_per_ring);
  return params;
}

BasisParams default_basis_params(int kernel_size, int dilation) {
  if (!(kernel_size >= 1)) throw DomainError("default_basis_params", "kernel size must be >= 1", kernel_size);
  if (!(dilation >= 1)) throw DomainError("default_basis_params", "dilation must be >= 1", dilation);
  const int n_rings = (kernel_size + 1) / 2;
  const double last = (kernel_size - 1) / 2;
  const double max_radius = kernel_size / 2;  // escnn's _manual_fco1(kernel_size // 2)
  std::vector<double> rings;
  std::vector<double> sigma;
  std::vector<int> cutoff;
  for (int i = 0; i < n_rings; ++i) {
    const double r = (n_rings == 1 ? 0.0 : last * i / (n_rings - 1)) * dilation;
    rings.push_back(r);
    sigma.push_back(r == 0.0 ? 0.005 : (i == n_rings - 1 ? 0.4 : 0.6));
    double f = 0;
    if (r != 0.0) f = std::min(2 * r, r == max_radius ? 2.0 : 2 * r - python_mod(r + 1, 2));
    cutoff.push_back(static_cast<int>(f));  // escnn compares |j| ≤ f: the integer part decides
  }
  return make_basis_params(std::move(rings), std::move(sigma), std::move(cutoff));
}

std::vector<Vector<double>> harmonic_solutions(const repr::PlanarGroup& group, const repr::Irrep& out,
                                               const repr::Irrep& in, int j) {
  const int d_out = repr::irrep_size(group, out);
  const int d_in = repr::irrep_size(group, in);
  const int d_y = harmonic_dim(j);
  const int n = d_out * d_in * d_y;
  const auto index = [&](int o, int i, int m) { return (o * d_in + i) * d_y + m; };
  // The projector avg_g S_g with S_g[(o,i,n),(o',i',m)] = ψ_out(g)ₒ'ₒ ψ_in(g)ᵢ'ᵢ B(g)ₘₙ; its entries
  // are trigonometric polynomials of degree k_out + k_in + j, which the quadrature averages exactly.
  const std::vector<repr::PlanarElement> quadrature = group.quadrature(out.frequency + in.frequency + j + 1);
  Matrix<double> projector = Matrix<double>::Zero(n, n);
  for (const repr::PlanarElement& g : quadrature) {
    const Matrix<double> ro = repr::irrep_matrix(group, out, g);
    const Matrix<double> ri = repr::irrep_matrix(group, in, g);
    const Matrix<double> b = harmonic_action(j, g);
    for (int o = 0; o < d_out; ++o)
      for (int i = 0; i < d_in; ++i)
        for (int nn = 0; nn < d_y; ++nn)
          for (int o2 = 0; o2 < d_out; ++o2)
            for (int i2 = 0; i2 < d_in; ++i2)
              for (int m = 0; m < d_y; ++m)
                projector(index(o, i, nn), index(o2, i2, m)) += ro(o2, o) * ri(i2, i) * b(m, nn);
  }
  projector /= static_cast<double>(quadrature.size());
  const Matrix<double> symmetric_projector = 0.5 * (projector + projector.transpose());
  const Eigen::SelfAdjointEigenSolver<Matrix<double>> eigen(symmetric_projector);
  linalg::require_eigen_converged(eigen, "kernel_basis", symmetric_projector);
  std::vector<Vector<double>> solutions;
  for (int k = n - 1; k >= 0; --k) {
    if (eigen.eigenvalues()(k) > kProjectorThreshold) solutions.push_back(eigen.eigenvectors().col(k));
  }
  return solutions;
}

KernelBasis::KernelBasis(const repr::Representation& out, const repr::Representation& in, int kernel_size,
                         const BasisParams& params, int dilation)
    : kernel_size_(kernel_size), out_size_(out.size()), in_size_(in.size()) {
  const char* const where = "KernelBasis";
  if (out.group() != in.group()) {
    throw DomainError(where, "representations of different groups (" + out.group().name() + ")", in.group().name());
  }
  if (!(kernel_size >= 1)) throw DomainError(where, "kernel size must be >= 1", kernel_size);
  if (!(dilation >= 1)) throw DomainError(where, "dilation must be >= 1", dilation);
  const repr::PlanarGroup& group = out.group();
  const int k = kernel_size;
  const int pixels = k * k;
  std::vector<double> radius(static_cast<std::size_t>(pixels));
  std::vector<double> angle(static_cast<std::size_t>(pixels));
  for (int row = 0; row < k; ++row) {
    for (int col = 0; col < k; ++col) {
      const double x = (col - (k - 1) / 2.0) * dilation;
      const double y = ((k - 1) / 2.0 - row) * dilation;
      radius[static_cast<std::size_t>(row * k + col)] = std::hypot(x, y);
      angle[static_cast<std::size_t>(row * k + col)] = std::atan2(y, x);
    }
  }
  const std::size_t n_rings = params.rings.size();
  std::vector<std::vector<double>> radial(n_rings, std::vector<double>(static_cast<std::size_t>(pixels)));
  for (std::size_t r = 0; r < n_rings; ++r) {
    for (int p = 0; p < pixels; ++p) {
      const double d = radius[static_cast<std::size_t>(p)] - params.rings[r];
      radial[r][static_cast<std::size_t>(p)] = std::exp(-0.5 * d * d / (params.sigma[r] * params.sigma[r]));
    }
  }

  std::vector<Vector<double>> rows;
  const int full = out_size_ * in_size_ * pixels;
  std::map<std::tuple<int, int, int, int, int>, std::vector<Vector<double>>> solved;
  const auto& out_irreps = out.irreps();
  const auto& in_irreps = in.irreps();
  for (std::size_t a = 0; a < out_irreps.size(); ++a) {
    const int d_a = repr::irrep_size(group, out_irreps[a]);
    const Matrix<double> q_out = out.change_of_basis().middleCols(out.irrep_offset(static_cast<int>(a)), d_a);
    for (std::size_t b = 0; b < in_irreps.size(); ++b) {
      const int d_b = repr::irrep_size(group, in_irreps[b]);
      const Matrix<double> q_in = in.change_of_basis().middleCols(in.irrep_offset(static_cast<int>(b)), d_b);
      for (int j = 0; j <= params.maximum_frequency; ++j) {
        const auto key = std::make_tuple(out_irreps[a].flip_frequency, out_irreps[a].frequency,
                                         in_irreps[b].flip_frequency, in_irreps[b].frequency, j);
        auto found = solved.find(key);
        if (found == solved.end()) {
          found = solved.emplace(key, harmonic_solutions(group, out_irreps[a], in_irreps[b], j)).first;
        }
        const int d_y = harmonic_dim(j);
        for (const Vector<double>& c : found->second) {
          for (std::size_t r = 0; r < n_rings; ++r) {
            if (j > params.max_frequency_per_ring[r]) continue;
            Vector<double> element(full);
            Matrix<double> small(d_a, d_b);
            double y[2];
            for (int p = 0; p < pixels; ++p) {
              harmonics_at(j, radius[static_cast<std::size_t>(p)], angle[static_cast<std::size_t>(p)], y);
              const double w = radial[r][static_cast<std::size_t>(p)];
              for (int o = 0; o < d_a; ++o)
                for (int i = 0; i < d_b; ++i) {
                  double s = 0;
                  for (int m = 0; m < d_y; ++m) s += c((o * d_b + i) * d_y + m) * y[m];
                  small(o, i) = w * s;
                }
              const Matrix<double> embedded = q_out * small * q_in.transpose();
              for (int o = 0; o < out_size_; ++o)
                for (int i = 0; i < in_size_; ++i) element((o * in_size_ + i) * pixels + p) = embedded(o, i);
            }
            const double norm = element.norm();
            if (norm > 0) element /= norm;
            rows.push_back(std::move(element));
          }
        }
      }
    }
  }
  samples_.resize(static_cast<Eigen::Index>(rows.size()), full);
  for (std::size_t r = 0; r < rows.size(); ++r) samples_.row(static_cast<Eigen::Index>(r)) = rows[r].transpose();
}

int KernelBasis::rank() const {
  if (samples_.rows() == 0) return 0;
  const Eigen::BDCSVD<Matrix<double>> svd(samples_);
  const auto& s = svd.singularValues();
  int rank = 0;
  for (Eigen::Index i = 0; i < s.size(); ++i) rank += s(i) > 1e-5 * s(0) ? 1 : 0;
  return rank;
}

std::shared_ptr<const KernelBasis> cached_kernel_basis(const repr::Representation& out, const repr::Representation& in,
                                                       int kernel_size, const BasisParams& params, int dilation) {
  detail::BasisKey key;
  key.add(out).add(in).add(kernel_size).add(dilation).add(params);
  return detail::cached_basis<KernelBasis>(
      key, [&] { return std::make_shared<const KernelBasis>(out, in, kernel_size, params, dilation); });
}

}  // namespace gyre::nn
