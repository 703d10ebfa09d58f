#include "gyre/repr/planar_group.hpp"

#include <cmath>

#include <boost/math/constants/constants.hpp>

#include "gyre/core/error.hpp"

namespace gyre::repr {
namespace {

constexpr double kTwoPi = boost::math::constants::two_pi<double>();
// Angles of finite-group elements come from 2πr/N and sums of them: 1e-9 rad separates
// distinct rotations of any C_N with N < 10⁸ while absorbing rounding.
constexpr double kAngleTolerance = 1e-9;

double wrap_angle(double angle) {
  double wrapped = std::fmod(angle, kTwoPi);
  if (wrapped < 0) wrapped += kTwoPi;
  return wrapped;
}

}  // namespace

PlanarGroup PlanarGroup::cyclic(int n) {
  if (!(n >= 1)) throw DomainError("PlanarGroup::cyclic", "N must be at least 1", n);
  return PlanarGroup(PlanarGroupKind::kCyclic, n, n / 2);
}

PlanarGroup PlanarGroup::dihedral(int n) {
  if (!(n >= 1)) throw DomainError("PlanarGroup::dihedral", "N must be at least 1", n);
  return PlanarGroup(PlanarGroupKind::kDihedral, n, n / 2);
}

PlanarGroup PlanarGroup::so2(int max_frequency) {
  if (!(max_frequency >= 0)) throw DomainError("PlanarGroup::so2", "maximum frequency must be >= 0", max_frequency);
  return PlanarGroup(PlanarGroupKind::kSO2, -1, max_frequency);
}

PlanarGroup PlanarGroup::o2(int max_frequency) {
  if (!(max_frequency >= 0)) throw DomainError("PlanarGroup::o2", "maximum frequency must be >= 0", max_frequency);
  return PlanarGroup(PlanarGroupKind::kO2, -1, max_frequency);
}

int PlanarGroup::order() const noexcept {
  switch (kind_) {
    case PlanarGroupKind::kCyclic:
      return n_;
    case PlanarGroupKind::kDihedral:
      return 2 * n_;
    default:
      return -1;
  }
}

std::string PlanarGroup::name() const {
  switch (kind_) {
    case PlanarGroupKind::kCyclic:
      return "C" + std::to_string(n_);
    case PlanarGroupKind::kDihedral:
      return "D" + std::to_string(n_);
    case PlanarGroupKind::kSO2:
      return "SO(2)";
    case PlanarGroupKind::kO2:
      return "O(2)";
  }
  return "?";
}

PlanarElement PlanarGroup::compose(const PlanarElement& g, const PlanarElement& h) const {
  const double angle = g.angle + (g.flip ? -h.angle : h.angle);
  return {g.flip ^ h.flip, wrap_angle(angle)};
}

PlanarElement PlanarGroup::inverse(const PlanarElement& g) const {
  // (f, θ)⁻¹ = (f, −(−1)^f θ): a reflection is its own inverse.
  return {g.flip, wrap_angle(g.flip ? g.angle : -g.angle)};
}

bool PlanarGroup::contains(const PlanarElement& g) const {
  if (!std::isfinite(g.angle) || (g.flip != 0 && g.flip != 1)) return false;
  if (g.flip == 1 && !has_flips()) return false;
  if (!is_finite()) return true;
  const double steps = wrap_angle(g.angle) * n_ / kTwoPi;
  return std::abs(steps - std::round(steps)) * kTwoPi / n_ <= kAngleTolerance;
}

std::vector<PlanarElement> PlanarGroup::elements() const {
  if (!is_finite()) throw DomainError("PlanarGroup::elements", "the group is not finite", name());
  std::vector<PlanarElement> result;
  const int flips = has_flips() ? 2 : 1;
  for (int f = 0; f < flips; ++f) {
    for (int r = 0; r < n_; ++r) result.push_back({f, kTwoPi * r / n_});
  }
  return result;
}

std::vector<PlanarElement> PlanarGroup::quadrature(int max_frequency) const {
  if (is_finite()) return elements();
  // M equispaced angles average e^{ikθ} exactly for |k| < M: M = 2·max_frequency + 1.
  const int m = 2 * std::max(max_frequency, 0) + 1;
  std::vector<PlanarElement> result;
  const int flips = has_flips() ? 2 : 1;
  for (int f = 0; f < flips; ++f) {
    for (int r = 0; r < m; ++r) result.push_back({f, kTwoPi * r / m});
  }
  return result;
}

int PlanarGroup::index_of(const PlanarElement& g) const {
  if (!is_finite()) throw DomainError("PlanarGroup::index_of", "the group is not finite", name());
  if (!contains(g)) throw DomainError("PlanarGroup::index_of", "element is not in " + name(), g.angle);
  const int r = static_cast<int>(std::lround(wrap_angle(g.angle) * n_ / kTwoPi)) % n_;
  return g.flip * n_ + r;
}

}  // namespace gyre::repr
