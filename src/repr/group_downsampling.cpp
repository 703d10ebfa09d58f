#include "gyre/repr/group_downsampling.hpp"

#include <cmath>
#include <string>

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <boost/math/constants/constants.hpp>

#include "gyre/core/error.hpp"

namespace gyre::repr {
namespace {

constexpr double kTwoPi = 2 * boost::math::constants::pi<double>();

// L's entries are small integers and 2cos(2πk/N): eigenvalues closer than this are one eigenspace.
constexpr double kEigenvalueTie = 1e-9;
// Singular values of sampled orthonormal vectors are O(1) or rounding noise (≤ 1e-13 for |G| ≤ 10⁴).
constexpr double kRankTolerance = 1e-8;

void require_rate_divides(const PlanarGroup& group, int step, int rate) {
  if (step < 1 || group.n() % step != 0) {
    throw DomainError("subsample_group",
                      "no subgroup of " + group.name() +
                          " at this rate (the rotation step must divide N = " + std::to_string(group.n()) + ")",
                      rate);
  }
}

// Columns spanning the row space of R (right singular vectors with σ above tolerance).
Matrix<double> row_space(const Matrix<double>& r) {
  if (r.cols() == 0) return Matrix<double>(0, 0);
  const Eigen::JacobiSVD<Matrix<double>> svd(r, Eigen::ComputeFullV);
  const auto& sigma = svd.singularValues();
  Eigen::Index rank = 0;
  while (rank < sigma.size() && sigma(rank) > kRankTolerance) ++rank;
  return svd.matrixV().leftCols(rank);
}

}  // namespace

SubgroupSampling subsample_group(const PlanarGroup& group, int rate, SubgroupFamily family) {
  const bool cyclic = group.kind() == PlanarGroupKind::kCyclic;
  if (!cyclic && group.kind() != PlanarGroupKind::kDihedral) {
    throw DomainError("subsample_group", "group subsampling is for C_N and D_N", group.name());
  }
  if (rate < 1) throw DomainError("subsample_group", "the rate must be ≥ 1", rate);
  SubgroupSampling sampling{group, group, rate, {}};
  if (cyclic || family == SubgroupFamily::kSameFamily) {
    require_rate_divides(group, rate, rate);
    const int m = group.n() / rate;
    sampling.subgroup = cyclic ? PlanarGroup::cyclic(m) : PlanarGroup::dihedral(m);
  } else {
    if (rate % 2 != 0) {
      throw DomainError("subsample_group",
                        "the rotations of " + group.name() + " are reached at even rates only (index 2·N/M)", rate);
    }
    require_rate_divides(group, rate / 2, rate);
    sampling.subgroup = PlanarGroup::cyclic(group.n() / (rate / 2));
  }
  for (const PlanarElement& h : sampling.subgroup.elements()) sampling.indices.push_back(group.index_of(h));
  return sampling;
}

Matrix<double> cayley_laplacian(const PlanarGroup& group) {
  if (!group.is_finite()) throw DomainError("cayley_laplacian", "the group must be finite", group.name());
  const std::vector<PlanarElement> elements = group.elements();
  const int n = static_cast<int>(elements.size());
  std::vector<PlanarElement> generators{{0, kTwoPi / group.n()}, {0, -kTwoPi / group.n()}};
  if (group.has_flips()) generators.push_back({1, 0.0});
  // A generator equal to its inverse or to another (C₁, C₂, D₁) is one edge, not two: the graph stays simple.
  Matrix<double> adjacency = Matrix<double>::Zero(n, n);
  for (int x = 0; x < n; ++x) {
    for (const PlanarElement& s : generators) {
      const int y = group.index_of(group.compose(elements[static_cast<std::size_t>(x)], s));
      if (y != x) adjacency(x, y) = 1.0;
    }
  }
  Matrix<double> laplacian = -adjacency;
  laplacian.diagonal() += adjacency.rowwise().sum();
  return laplacian;
}

BandLimiting band_limiting(const SubgroupSampling& sampling) {
  const int g_order = sampling.group.order();
  const int h_order = sampling.subgroup.order();
  if (g_order < 1 || h_order < 1 || static_cast<int>(sampling.indices.size()) != h_order) {
    throw ShapeError("band_limiting", "a subgroup needs one index per element (" + std::to_string(h_order) + ")",
                     sampling.indices.size());
  }
  Matrix<double> sample = Matrix<double>::Zero(h_order, g_order);
  for (int i = 0; i < h_order; ++i) sample(i, sampling.indices[static_cast<std::size_t>(i)]) = 1.0;

  const Eigen::SelfAdjointEigenSolver<Matrix<double>> eigen(cayley_laplacian(sampling.group));
  const auto& values = eigen.eigenvalues();
  Matrix<double> band(g_order, 0);
  Matrix<double> sampled_basis(h_order, 0);  // orthonormal basis of S·V
  for (int begin = 0; begin < g_order && band.cols() < h_order;) {
    int end = begin + 1;
    while (end < g_order && values(end) - values(begin) <= kEigenvalueTie) ++end;
    const Matrix<double> eigenspace = eigen.eigenvectors().middleCols(begin, end - begin);
    // R c = the part of S·E·c outside S·V: its null space is E's preimage of S·V, its row space the new part.
    Matrix<double> residual = sample * eigenspace;
    residual -= sampled_basis * (sampled_basis.transpose() * residual);
    const Matrix<double> coefficients = row_space(residual);
    if (coefficients.cols() > 0) {
      const Matrix<double> added = eigenspace * coefficients;
      band.conservativeResize(Eigen::NoChange, band.cols() + added.cols());
      band.rightCols(added.cols()) = added;
      // Orthonormal basis of the grown S·V (Householder QR: S·V has full column rank by construction).
      const Eigen::HouseholderQR<Matrix<double>> qr(sample * band);
      sampled_basis = qr.householderQ() * Matrix<double>::Identity(h_order, band.cols());
    }
    begin = end;
  }
  if (band.cols() != h_order) {
    throw ConvergenceError("band_limiting", "the eigenspaces did not reach |H| independent samples", band.cols());
  }
  BandLimiting result{sampling, band, band * band.transpose(), {}, {}};
  result.downsample = sample * result.projector;
  result.upsample = band * (sample * band).inverse();
  return result;
}

Vector<double> band_mask(const SubgroupSampling& sampling) {
  const PlanarGroup& g = sampling.group;
  const int m = sampling.subgroup.n();  // the subgroup's rotation order M
  const bool to_rotations = g.has_flips() && !sampling.subgroup.has_flips();
  std::vector<double> mask;
  for (const Irrep& psi : irreps(g)) {
    const int k = psi.frequency;
    const bool below = 2 * k < m, nyquist = 2 * k == m;
    if (irrep_size(g, psi) == 1) {
      // 1×1 irreps sit at k = 0 or N/2; towards the rotations only the flip-even one (j = 0) stays.
      mask.push_back((below || nyquist) && !(to_rotations && psi.flip_frequency == 1) ? 1.0 : 0.0);
    } else if (!g.has_flips()) {
      mask.push_back(below || nyquist ? 1.0 : 0.0);  // c
      mask.push_back(below ? 1.0 : 0.0);             // s: the sine half of the Nyquist frequency aliases to 0
    } else if (to_rotations) {
      // Flip-symmetric functions: the first column (M₀₀, M₁₀); at M/2 its cosine entry M₀₀ only.
      mask.insert(mask.end(), {below || nyquist ? 1.0 : 0.0, 0.0, below ? 1.0 : 0.0, 0.0});
    } else {
      // Each coset's cosine half at M/2 is the diagonal (M₀₀ ± M₁₁ = 2·c_A, 2·c_B).
      const double diagonal = below || nyquist ? 1.0 : 0.0, off = below ? 1.0 : 0.0;
      mask.insert(mask.end(), {diagonal, off, off, diagonal});
    }
  }
  return Eigen::Map<const Vector<double>>(mask.data(), static_cast<Eigen::Index>(mask.size()));
}

Matrix<double> left_translation(const PlanarGroup& group, const PlanarElement& g) {
  const std::vector<PlanarElement> elements = group.elements();
  const int n = static_cast<int>(elements.size());
  Matrix<double> m = Matrix<double>::Zero(n, n);
  for (int x = 0; x < n; ++x) m(group.index_of(group.compose(g, elements[static_cast<std::size_t>(x)])), x) = 1.0;
  return m;
}

}  // namespace gyre::repr
