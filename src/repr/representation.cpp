#include "gyre/repr/representation.hpp"

#include <algorithm>
#include <cmath>

#include "gyre/core/error.hpp"
#include "indexed_name.hpp"

namespace gyre::repr {
namespace {

// Representation matrices are built from cos/sin of exact multiples of 2π/N and from orthogonal
// changes of basis: 1e-9 absorbs their rounding and still rejects any real mistake.
constexpr double kOrthogonalityTolerance = 1e-9;

Matrix<double> block_diagonal(const PlanarGroup& group, const std::vector<Irrep>& parts, const PlanarElement& g) {
  int n = 0;
  for (const Irrep& psi : parts) n += irrep_size(group, psi);
  Matrix<double> result = Matrix<double>::Zero(n, n);
  int offset = 0;
  for (const Irrep& psi : parts) {
    const int d = irrep_size(group, psi);
    result.block(offset, offset, d, d) = irrep_matrix(group, psi, g);
    offset += d;
  }
  return result;
}

bool is_permutation_matrix(const Matrix<double>& m) {
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    int ones = 0;
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      const double x = m(i, j);
      if (std::abs(x - 1.0) <= kOrthogonalityTolerance) {
        ++ones;
      } else if (!(std::abs(x) <= kOrthogonalityTolerance)) {
        return false;
      }
    }
    if (ones != 1) return false;
  }
  return true;
}

// The irreps a representation of band limit L can contain: the group's list, or for SO(2)/O(2)
// every frequency up to L.
std::vector<Irrep> candidate_irreps(const PlanarGroup& group, int band_limit) {
  if (group.is_finite()) return irreps(group);
  std::vector<Irrep> result;
  if (!group.has_flips()) {
    for (int k = 0; k <= band_limit; ++k) result.push_back({0, k});
  } else {
    result.push_back({0, 0});
    result.push_back({1, 0});
    for (int k = 1; k <= band_limit; ++k) result.push_back({1, k});
  }
  return result;
}

}  // namespace

Representation::Representation(PlanarGroup group, std::string name, std::vector<Irrep> irreps,
                               Matrix<double> change_of_basis)
    : group_(group), name_(std::move(name)), irreps_(std::move(irreps)), change_of_basis_(std::move(change_of_basis)) {
  int n = 0;
  for (const Irrep& psi : irreps_) {
    if (!is_irrep_of(group_, psi)) {
      throw DomainError("Representation", "not an irrep of " + group_.name(),
                        std::to_string(psi.flip_frequency) + "," + std::to_string(psi.frequency));
    }
    offsets_.push_back(n);
    n += irrep_size(group_, psi);
  }
  if (n == 0) throw ShapeError("Representation", "a representation needs at least one irrep", name_);
  if (change_of_basis_.rows() != n || change_of_basis_.cols() != n) {
    throw ShapeError("Representation", "change of basis must be square of the irreps' total size " + std::to_string(n),
                     std::to_string(change_of_basis_.rows()) + "x" + std::to_string(change_of_basis_.cols()));
  }
  const double defect =
      (change_of_basis_.transpose() * change_of_basis_ - Matrix<double>::Identity(n, n)).cwiseAbs().maxCoeff();
  if (!(defect <= kOrthogonalityTolerance)) {
    throw DomainError("Representation", "change of basis is not orthogonal (max |QᵀQ − I|)", defect);
  }
  if (group_.is_finite()) {
    permutation_ = true;
    for (const PlanarElement& g : group_.elements()) {
      if (!is_permutation_matrix(matrix(g))) {
        permutation_ = false;
        break;
      }
    }
  }
}

Matrix<double> Representation::matrix(const PlanarElement& g) const {
  return change_of_basis_ * block_diagonal(group_, irreps_, g) * change_of_basis_.transpose();
}

double Representation::character(const PlanarElement& g) const {
  double sum = 0;
  for (const Irrep& psi : irreps_) sum += irrep_character(group_, psi, g);
  return sum;
}

int Representation::trivial_multiplicity() const {
  return static_cast<int>(std::count(irreps_.begin(), irreps_.end(), Irrep{0, 0}));
}

bool Representation::is_trivial() const { return irreps_.size() == 1 && irreps_[0] == Irrep{0, 0}; }

bool Representation::equivalent_to(const Representation& other) const {
  return group_ == other.group_ && irreps_ == other.irreps_ &&
         change_of_basis_.rows() == other.change_of_basis_.rows() &&
         (change_of_basis_ - other.change_of_basis_).cwiseAbs().maxCoeff() <= kOrthogonalityTolerance;
}

Representation irrep_representation(const PlanarGroup& group, const Irrep& psi) {
  const int d = irrep_size(group, psi);
  return Representation(group, irrep_name(group, psi), {psi}, Matrix<double>::Identity(d, d));
}

Representation trivial_representation(const PlanarGroup& group) {
  return Representation(group, "irrep_" + std::string(group.has_flips() ? "0,0" : "0"), {Irrep{0, 0}},
                        Matrix<double>::Identity(1, 1));
}

Representation regular_representation(const PlanarGroup& group) {
  if (!group.is_finite()) {
    std::vector<Irrep> parts;
    const int top = group.max_frequency();
    if (!group.has_flips()) {
      for (int k = 0; k <= top; ++k) parts.push_back({0, k});
    } else {
      parts.push_back({0, 0});
      parts.push_back({1, 0});
      for (int k = 1; k <= top; ++k) {
        parts.push_back({1, k});
        parts.push_back({1, k});
      }
    }
    int n = 0;
    for (const Irrep& psi : parts) n += irrep_size(group, psi);
    return Representation(group, "regular_" + std::to_string(top), parts, Matrix<double>::Identity(n, n));
  }
  const std::vector<PlanarElement> elements = group.elements();
  const int n = static_cast<int>(elements.size());
  return decompose(group, "regular", n, [&](const PlanarElement& g) {
    Matrix<double> m = Matrix<double>::Zero(n, n);
    for (int h = 0; h < n; ++h) m(group.index_of(group.compose(g, elements[static_cast<std::size_t>(h)])), h) = 1.0;
    return m;
  });
}

Representation quotient_representation(const PlanarGroup& group, int subgroup_rotations, bool subgroup_has_flip) {
  const char* const where = "quotient_representation";
  if (!group.is_finite()) throw DomainError(where, "quotients are built for finite groups", group.name());
  if (!(subgroup_rotations >= 1 && group.n() % subgroup_rotations == 0)) {
    throw DomainError(where, "the subgroup's rotation order must divide N = " + std::to_string(group.n()),
                      subgroup_rotations);
  }
  if (subgroup_has_flip && !group.has_flips()) throw DomainError(where, "the group has no flips", group.name());
  // H = C_M (rotations by multiples of 2π/M), optionally with the flip. Cosets gH are labelled by
  // their smallest element index; ρ(g) permutes them.
  const PlanarGroup subgroup =
      subgroup_has_flip ? PlanarGroup::dihedral(subgroup_rotations) : PlanarGroup::cyclic(subgroup_rotations);
  const std::vector<PlanarElement> elements = group.elements();
  const std::vector<PlanarElement> h_elements = subgroup.elements();
  std::vector<int> coset_of(elements.size(), -1);
  int cosets = 0;
  for (std::size_t i = 0; i < elements.size(); ++i) {
    if (coset_of[i] >= 0) continue;
    for (const PlanarElement& h : h_elements) {
      coset_of[static_cast<std::size_t>(group.index_of(group.compose(elements[i], h)))] = cosets;
    }
    ++cosets;
  }
  std::vector<int> representative(static_cast<std::size_t>(cosets), -1);
  for (std::size_t i = 0; i < elements.size(); ++i) {
    int& r = representative[static_cast<std::size_t>(coset_of[i])];
    if (r < 0) r = static_cast<int>(i);
  }
  const std::string name = "quotient_" + group.name() + "/" + subgroup.name();
  return decompose(group, name, cosets, [&](const PlanarElement& g) {
    Matrix<double> m = Matrix<double>::Zero(cosets, cosets);
    for (int c = 0; c < cosets; ++c) {
      const PlanarElement& rep = elements[static_cast<std::size_t>(representative[static_cast<std::size_t>(c)])];
      m(coset_of[static_cast<std::size_t>(group.index_of(group.compose(g, rep)))], c) = 1.0;
    }
    return m;
  });
}

Representation direct_sum(const std::vector<Representation>& parts, const std::string& name) {
  if (parts.empty()) throw ShapeError("direct_sum", "needs at least one representation", 0);
  std::vector<Irrep> all;
  int n = 0;
  for (const Representation& rho : parts) {
    if (rho.group() != parts.front().group()) {
      throw DomainError("direct_sum", "representations of different groups", rho.group().name());
    }
    all.insert(all.end(), rho.irreps().begin(), rho.irreps().end());
    n += rho.size();
  }
  Matrix<double> q = Matrix<double>::Zero(n, n);
  int offset = 0;
  for (const Representation& rho : parts) {
    q.block(offset, offset, rho.size(), rho.size()) = rho.change_of_basis();
    offset += rho.size();
  }
  return Representation(parts.front().group(), name, std::move(all), std::move(q));
}

Representation change_basis(const Representation& rho, const Matrix<double>& p, const std::string& name) {
  if (p.rows() != rho.size() || p.cols() != rho.size()) {
    throw ShapeError("change_basis", "P must be " + std::to_string(rho.size()) + "x" + std::to_string(rho.size()),
                     std::to_string(p.rows()) + "x" + std::to_string(p.cols()));
  }
  return Representation(rho.group(), name, rho.irreps(), p * rho.change_of_basis());
}

int max_irrep_frequency(const Representation& rho) {
  int top = 0;
  for (const Irrep& psi : rho.irreps()) top = std::max(top, psi.frequency);
  return top;
}

Representation decompose(const PlanarGroup& group, const std::string& name, int size,
                         const std::function<Matrix<double>(const PlanarElement&)>& matrix, int band_limit) {
  const char* const where = "decompose";
  if (!group.is_finite() && band_limit < 0) {
    throw DomainError(where, "a band limit is needed to decompose a representation of " + group.name(), band_limit);
  }
  // Products ψ(g)ᵢⱼ·ρ(g)ₖₗ have frequencies up to twice the band limit.
  const std::vector<PlanarElement> quadrature = group.quadrature(2 * band_limit + 1);
  std::vector<Matrix<double>> matrices;
  matrices.reserve(quadrature.size());
  for (const PlanarElement& g : quadrature) {
    Matrix<double> m = matrix(g);
    if (m.rows() != size || m.cols() != size) {
      throw ShapeError(where, "matrix(g) must be " + std::to_string(size) + "x" + std::to_string(size),
                       std::to_string(m.rows()) + "x" + std::to_string(m.cols()));
    }
    const double defect = (m.transpose() * m - Matrix<double>::Identity(size, size)).cwiseAbs().maxCoeff();
    if (!(defect <= kOrthogonalityTolerance)) throw DomainError(where, "matrix(g) is not orthogonal", defect);
    matrices.push_back(std::move(m));
  }
  const double weight = 1.0 / static_cast<double>(quadrature.size());

  std::vector<Irrep> found_irreps;
  Matrix<double> q(size, 0);
  for (const Irrep& psi : candidate_irreps(group, std::max(band_limit, 0))) {
    const int d = irrep_size(group, psi);
    // Multiplicity from characters: ⟨χ_ρ, χ_ψ⟩ = m·dim End(ψ) for real representations.
    double overlap = 0;
    std::vector<Matrix<double>> psi_matrices;
    for (std::size_t i = 0; i < quadrature.size(); ++i) {
      psi_matrices.push_back(irrep_matrix(group, psi, quadrature[i]));
      overlap += weight * matrices[i].trace() * psi_matrices.back().trace();
    }
    const double exact = overlap / endomorphism_dim(group, psi);
    const long multiplicity = std::lround(exact);
    if (!(std::abs(exact - static_cast<double>(multiplicity)) <= 1e-6)) {
      throw DomainError(where, "irrep multiplicity is not an integer: not a representation", exact);
    }
    long copies = 0;
    // F = d·avg_g ψ(g)ᵣ₀ ρ(g) v is an intertwiner ψ → ρ (its columns transform as ψ); projecting out the
    // copies already found keeps it one, because their span is invariant and ρ orthogonal.
    for (int i = 0; i < size && copies < multiplicity; ++i) {
      Matrix<double> f = Matrix<double>::Zero(size, d);
      for (std::size_t k = 0; k < quadrature.size(); ++k) {
        for (int r = 0; r < d; ++r) f.col(r) += (d * weight * psi_matrices[k](r, 0)) * matrices[k].col(i);
      }
      const double before = f.norm();
      if (q.cols() > 0) f -= q * (q.transpose() * f);
      const double column_norm = f.col(0).norm();
      if (!(column_norm > 1e-6 * std::max(before, 1.0))) continue;
      f /= column_norm;
      // Schur: FᵀF is a multiple of I, so the normalised columns are orthonormal already; one
      // re-orthogonalisation against q and each other removes the rounding.
      for (int r = 0; r < d; ++r) {
        if (q.cols() > 0) f.col(r) -= q * (q.transpose() * f.col(r));
        for (int s = 0; s < r; ++s) f.col(r) -= f.col(s).dot(f.col(r)) * f.col(s);
        f.col(r).normalize();
      }
      Matrix<double> grown(size, q.cols() + d);
      grown << q, f;
      q = std::move(grown);
      found_irreps.push_back(psi);
      ++copies;
    }
    if (copies != multiplicity) {
      throw DomainError(where, "could not isolate every copy of " + irrep_name(group, psi), multiplicity);
    }
  }
  if (q.cols() != size) throw DomainError(where, "irreps do not fill the representation", q.cols());
  Representation result(group, name, std::move(found_irreps), std::move(q));
  for (std::size_t i = 0; i < quadrature.size(); ++i) {
    const double defect = (result.matrix(quadrature[i]) - matrices[i]).cwiseAbs().maxCoeff();
    if (!(defect <= 1e-8)) throw DomainError(where, "matrix(g) is not a representation of " + group.name(), defect);
  }
  return result;
}

Representation representation_by_name(const PlanarGroup& group, const std::string& name) {
  if (name == "regular" && group.is_finite()) return regular_representation(group);
  const auto band_limit = detail::parse_indexed_name(name, "regular_");
  if (band_limit && band_limit->size() == 1 && !group.is_finite()) {
    const int l = band_limit->front();
    const PlanarGroup limited = group.has_flips() ? PlanarGroup::o2(l) : PlanarGroup::so2(l);
    const Representation r = regular_representation(limited);
    return Representation(group, r.name(), r.irreps(), r.change_of_basis());
  }
  if (name == "regular" && !group.is_finite()) return regular_representation(group);
  if (name == "trivial") return trivial_representation(group);
  return irrep_representation(group, parse_irrep(group, name));
}

}  // namespace gyre::repr
