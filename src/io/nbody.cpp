#include "gyre/io/nbody.hpp"

#include <cmath>
#include <string>

#include "gyre/core/error.hpp"
#include "gyre/core/rng.hpp"

namespace gyre::io {
namespace {

void check_options(const char* where, const NBodyOptions& o) {
  if (o.particles < 2) throw DomainError(where, "needs at least 2 particles", o.particles);
  if (o.dimension != 2 && o.dimension != 3) throw DomainError(where, "dimension must be 2 or 3", o.dimension);
  if (o.steps < 1) throw DomainError(where, "steps must be >= 1", o.steps);
  for (const double v : {o.duration, o.softening}) {
    if (!(v > 0) || !std::isfinite(v)) throw DomainError(where, "duration and softening must be finite and > 0", v);
  }
  for (const double v : {o.position_spread, o.speed, o.translation}) {
    if (!(v >= 0) || !std::isfinite(v)) throw DomainError(where, "spreads must be finite and >= 0", v);
  }
}

// Accelerations of every particle (unit masses).
Matrix<double> accelerations(const Matrix<double>& x, const std::vector<double>& q, double softening) {
  Matrix<double> a = Matrix<double>::Zero(x.rows(), x.cols());
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    for (Eigen::Index j = i + 1; j < x.rows(); ++j) {
      const Vector<double> r = (x.row(i) - x.row(j)).transpose();
      const double s = r.squaredNorm() + softening * softening;
      const Vector<double> f = q[static_cast<std::size_t>(i)] * q[static_cast<std::size_t>(j)] / (s * std::sqrt(s)) * r;
      a.row(i) += f.transpose();
      a.row(j) -= f.transpose();
    }
  }
  return a;
}

}  // namespace

void advance_nbody(Matrix<double>& positions, Matrix<double>& velocities, const std::vector<double>& charges,
                   const NBodyOptions& options) {
  const char* const where = "advance_nbody";
  check_options(where, options);
  if (positions.rows() != static_cast<Eigen::Index>(charges.size()) || velocities.rows() != positions.rows() ||
      velocities.cols() != positions.cols()) {
    throw ShapeError(where, "positions, velocities and charges must describe the same particles",
                     std::to_string(positions.rows()) + "x" + std::to_string(positions.cols()) + " vs " +
                         std::to_string(velocities.rows()) + "x" + std::to_string(velocities.cols()) + ", " +
                         std::to_string(charges.size()) + " charges");
  }
  if (!positions.allFinite() || !velocities.allFinite()) {
    throw DomainError(where, "positions and velocities must be finite", "NaN or inf");
  }
  const double dt = options.duration / options.steps;
  Matrix<double> a = accelerations(positions, charges, options.softening);
  for (int step = 0; step < options.steps; ++step) {
    velocities += 0.5 * dt * a;
    positions += dt * velocities;
    a = accelerations(positions, charges, options.softening);
    velocities += 0.5 * dt * a;
  }
}

double nbody_energy(const Matrix<double>& positions, const Matrix<double>& velocities,
                    const std::vector<double>& charges, double softening) {
  double energy = 0.5 * velocities.squaredNorm();
  for (Eigen::Index i = 0; i < positions.rows(); ++i) {
    for (Eigen::Index j = i + 1; j < positions.rows(); ++j) {
      energy += charges[static_cast<std::size_t>(i)] * charges[static_cast<std::size_t>(j)] /
                std::sqrt((positions.row(i) - positions.row(j)).squaredNorm() + softening * softening);
    }
  }
  return energy;
}

NBodyDataset simulate_nbody(std::size_t samples, const NBodyOptions& options, std::uint64_t seed) {
  check_options("simulate_nbody", options);
  const auto p = static_cast<std::size_t>(options.particles);
  const auto d = static_cast<std::size_t>(options.dimension);
  NBodyDataset data;
  for (std::size_t i = 0; i < p; ++i) data.charges.push_back(i % 2 == 0 ? 1.0 : -1.0);
  data.states = xt::xarray<float>::from_shape({samples, std::size_t{2}, p, d});
  data.targets = xt::xarray<float>::from_shape({samples, std::size_t{1}, p, d});
  Rng rng(seed);
  for (std::size_t n = 0; n < samples; ++n) {
    Matrix<double> x(options.particles, options.dimension), v(options.particles, options.dimension);
    Vector<double> centre(options.dimension);
    for (Eigen::Index k = 0; k < centre.size(); ++k) centre(k) = options.translation * rng.normal<double>();
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
      for (Eigen::Index k = 0; k < x.cols(); ++k) {
        x(i, k) = centre(k) + options.position_spread * rng.normal<double>();
        v(i, k) = options.speed * rng.normal<double>();
      }
    }
    for (std::size_t i = 0; i < p; ++i) {
      for (std::size_t k = 0; k < d; ++k) {
        const auto r = static_cast<Eigen::Index>(i), c = static_cast<Eigen::Index>(k);
        data.states(n, 0, i, k) = static_cast<float>(x(r, c));
        data.states(n, 1, i, k) = static_cast<float>(v(r, c));
      }
    }
    advance_nbody(x, v, data.charges, options);
    for (std::size_t i = 0; i < p; ++i) {
      for (std::size_t k = 0; k < d; ++k) {
        data.targets(n, 0, i, k) = static_cast<float>(x(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(k)));
      }
    }
  }
  return data;
}

}  // namespace gyre::io
