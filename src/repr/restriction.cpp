#include "gyre/repr/restriction.hpp"

#include "gyre/core/error.hpp"

namespace gyre::repr {

bool is_subgroup(const PlanarGroup& subgroup, const PlanarGroup& group) {
  if (!subgroup.is_finite()) {
    // SO(2) ⊂ SO(2), O(2); O(2) ⊂ O(2).
    if (group.is_finite()) return false;
    return !subgroup.has_flips() || group.has_flips();
  }
  for (const PlanarElement& h : subgroup.elements()) {
    if (!group.contains(h)) return false;
  }
  return true;
}

Representation restrict_representation(const Representation& rho, const PlanarGroup& subgroup) {
  if (!is_subgroup(subgroup, rho.group())) {
    throw DomainError("restrict_representation", subgroup.name() + " is not a subgroup of", rho.group().name());
  }
  return decompose(
      subgroup, "restrict(" + rho.name() + ", " + subgroup.name() + ")", rho.size(),
      [&](const PlanarElement& h) { return rho.matrix(h); }, max_irrep_frequency(rho));
}

Representation tensor_product(const Representation& rho1, const Representation& rho2) {
  if (rho1.group() != rho2.group()) {
    throw DomainError("tensor_product", "representations of different groups (" + rho1.group().name() + ")",
                      rho2.group().name());
  }
  const int n = rho1.size() * rho2.size();
  return decompose(
      rho1.group(), rho1.name() + "⊗" + rho2.name(), n,
      [&](const PlanarElement& g) {
        const Matrix<double> a = rho1.matrix(g);
        const Matrix<double> b = rho2.matrix(g);
        Matrix<double> k(n, n);
        for (int i = 0; i < a.rows(); ++i)
          for (int j = 0; j < a.cols(); ++j) k.block(i * b.rows(), j * b.cols(), b.rows(), b.cols()) = a(i, j) * b;
        return k;
      },
      max_irrep_frequency(rho1) + max_irrep_frequency(rho2));
}

double character_inner_product(const Representation& rho1, const Representation& rho2) {
  if (rho1.group() != rho2.group()) {
    throw DomainError("character_inner_product", "representations of different groups (" + rho1.group().name() + ")",
                      rho2.group().name());
  }
  const auto quadrature = rho1.group().quadrature(max_irrep_frequency(rho1) + max_irrep_frequency(rho2) + 1);
  double sum = 0;
  for (const PlanarElement& g : quadrature) sum += rho1.character(g) * rho2.character(g);
  return sum / static_cast<double>(quadrature.size());
}

}  // namespace gyre::repr
