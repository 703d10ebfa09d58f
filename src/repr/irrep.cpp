#include "gyre/repr/irrep.hpp"

#include <cmath>

#include "gyre/core/error.hpp"
#include "indexed_name.hpp"

namespace gyre::repr {
namespace {

bool is_one_dimensional(const PlanarGroup& group, const Irrep& psi) {
  return psi.frequency == 0 || (group.is_finite() && 2 * psi.frequency == group.n());
}

}  // namespace

std::vector<Irrep> irreps(const PlanarGroup& group) {
  std::vector<Irrep> result;
  const int top = group.max_frequency();
  if (!group.has_flips()) {
    for (int k = 0; k <= top; ++k) result.push_back({0, k});
    return result;
  }
  // escnn's order: (0,0), (1,0), (1,1) … and, for even N, (1,N/2) before (0,N/2).
  result.push_back({0, 0});
  result.push_back({1, 0});
  for (int k = 1; k <= top; ++k) result.push_back({1, k});
  if (group.is_finite() && group.n() % 2 == 0 && group.n() >= 2) result.push_back({0, group.n() / 2});
  return result;
}

bool is_irrep_of(const PlanarGroup& group, const Irrep& psi) {
  if (!group.is_finite()) {
    // Every frequency is an irrep of SO(2) and O(2); the band limit only bounds what is listed.
    if (psi.frequency < 0) return false;
    if (!group.has_flips()) return psi.flip_frequency == 0;
    return psi.frequency == 0 ? (psi.flip_frequency == 0 || psi.flip_frequency == 1) : psi.flip_frequency == 1;
  }
  for (const Irrep& candidate : irreps(group)) {
    if (candidate == psi) return true;
  }
  return false;
}

int irrep_size(const PlanarGroup& group, const Irrep& psi) { return is_one_dimensional(group, psi) ? 1 : 2; }

int endomorphism_dim(const PlanarGroup& group, const Irrep& psi) {
  return (!group.has_flips() && !is_one_dimensional(group, psi)) ? 2 : 1;
}

Matrix<double> irrep_matrix(const PlanarGroup& group, const Irrep& psi, const PlanarElement& g) {
  const double flip_sign = (psi.flip_frequency == 1 && g.flip == 1) ? -1.0 : 1.0;
  const double angle = psi.frequency * g.angle;
  if (is_one_dimensional(group, psi)) {
    Matrix<double> m(1, 1);
    // cos(kθ) with 2k = N is exactly ±1 on the group; round so that C_N's sign irrep is exact.
    const double c = psi.frequency == 0 ? 1.0 : std::round(std::cos(angle));
    m(0, 0) = c * flip_sign;
    return m;
  }
  const double c = std::cos(angle);
  const double s = std::sin(angle);
  Matrix<double> m(2, 2);
  m << c, -s, s, c;
  if (g.flip == 1) m.col(1) *= -1.0;  // R(kθ)·diag(1, −1)
  return m;
}

double irrep_character(const PlanarGroup& group, const Irrep& psi, const PlanarElement& g) {
  return irrep_matrix(group, psi, g).trace();
}

namespace {

// escnn builds flipRot2dOnR2(N=1) and flip2dOnR2 on cyclic_group(2): the flip group's two irreps are
// C₂'s "irrep_0" (trivial) and "irrep_1" (the sign of the flip), not D_N's "irrep_j,k".
bool named_as_c2(const PlanarGroup& group) { return group.kind() == PlanarGroupKind::kDihedral && group.n() == 1; }

}  // namespace

std::string irrep_name(const PlanarGroup& group, const Irrep& psi) {
  if (named_as_c2(group)) return "irrep_" + std::to_string(psi.flip_frequency);
  if (!group.has_flips()) return "irrep_" + std::to_string(psi.frequency);
  return "irrep_" + std::to_string(psi.flip_frequency) + "," + std::to_string(psi.frequency);
}

Irrep parse_irrep(const PlanarGroup& group, const std::string& name) {
  if (const auto indices = detail::parse_indexed_name(name, "irrep_")) {
    Irrep psi;
    if (indices->size() == 2) {
      if (!group.has_flips() || named_as_c2(group)) {
        throw DomainError("parse_irrep", "irreps of " + group.name() + " are named irrep_k", name);
      }
      psi = {(*indices)[0], (*indices)[1]};
    } else if (indices->size() == 1 && named_as_c2(group)) {
      psi = {(*indices)[0], 0};
    } else if (indices->size() == 1) {
      if (group.has_flips()) {
        throw DomainError("parse_irrep", "irreps of " + group.name() + " are named irrep_j,k", name);
      }
      psi = {0, (*indices)[0]};
    } else {
      throw DomainError("parse_irrep", "an irrep name has one or two indices", name);
    }
    if (is_irrep_of(group, psi)) return psi;
  }
  throw DomainError("parse_irrep", "not an irrep of " + group.name(), name);
}

}  // namespace gyre::repr
