#pragma once
// ============================================================================================
//  The dihedral group D_N ⊂ O(2) of order 2N: N rotations and N reflections (N ≥ 1).
// ============================================================================================
//  Storage   an element is {flip, k} with flip ∈ {0, 1}, k ∈ [0, N): the matrix R(2πk/N)·F^flip
//            with F = diag(−1, 1), the flip (x, y) ↦ (−x, y) escnn uses (reflection axis = the
//            y axis). Equal elements compare equal with ==.
//  Product   F·R(θ) = R(−θ)·F (F·R(θ)·F = R(−θ)), so
//              {f, k}·{f', k'} = {f ⊕ f', k + (−1)^f·k' mod N},
//              {0, k}⁻¹ = {0, −k mod N},  {1, k}⁻¹ = {1, k} (reflections are involutions).
//  Matrices  matrix({f, k}) = R(2πk/N)·F^f = C_N's matrix(k) with its first column negated when
//            f = 1: exact (0, ±1) for quarter turns, else rounded from double. act(g, p) = matrix(g)·p.
//  Order     elements() = {0, 0}, …, {0, N−1}, {1, 0}, …, {1, N−1}: escnn's order
//            ("(+, k[2pi/N])" then "(−, k[2pi/N])"). D_1 = {e, F} has order 2.
//  Grid      an element acts on pixel grids as numpy flip on the last axis (if f = 1), then
//            rot90(·, q), when 2πk/N = q·π/2 (act_on_grid, cn/grid_action.hpp); other elements
//            are not grid symmetries and throw DomainError there.
//  Runtime   to_integers(g) = [flip, k]; from_integers validates size (ShapeError) and ranges
//            (DomainError).
//  Errors    flip ∉ {0, 1} or k ∉ [0, N) throws DomainError (unless a ChecksOff is alive;
//            check_element always checks). N < 1 throws DomainError.
//  References: escnn's DihedralGroup and flipRot2dOnR2 (axis π/2); pinned by
//            shared/reference/escnn.json (irrep_tables D4, D6, D8; meta.conventions).
// ============================================================================================

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "../cn/cn.hpp"
#include "../cn/grid_action.hpp"
#include "gyre/core/checks.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/manifold.hpp"
#include "gyre/core/types.hpp"
#include "gyre/core/validate.hpp"

namespace gyre {

/// An element R(2πk/N)·F^flip of D_N.
struct DihedralElement {
  int flip = 0;  ///< 0 or 1
  int k = 0;     ///< in [0, N)
};

inline bool operator==(const DihedralElement& a, const DihedralElement& b) { return a.flip == b.flip && a.k == b.k; }
inline bool operator!=(const DihedralElement& a, const DihedralElement& b) { return !(a == b); }
inline std::ostream& operator<<(std::ostream& out, const DihedralElement& g) {
  return out << "{flip " << g.flip << ", k " << g.k << "}";
}

/// The dihedral group D_N of order 2N: rotations by 2πk/N and the flips x ↦ −x composed with them.
template <class T>
class DN {
 public:
  using Scalar = T;
  using Element = DihedralElement;
  using ActedPoint = Vector2<T>;

  /// D_N; N ≥ 1 is the number of rotations (the order is 2N).
  explicit DN(int n) : rotations_(checked_n(n)) {}

  [[nodiscard]] int n() const { return rotations_.n(); }
  [[nodiscard]] int order() const { return 2 * rotations_.n(); }
  [[nodiscard]] int acted_dim() const { return 2; }

  /// The rotations {0, k} first, then the reflections {1, k}.
  [[nodiscard]] std::vector<Element> elements() const {
    std::vector<Element> out;
    out.reserve(static_cast<std::size_t>(order()));
    for (int flip = 0; flip < 2; ++flip) {
      for (int k = 0; k < n(); ++k) out.push_back(Element{flip, k});
    }
    return out;
  }

  [[nodiscard]] Element identity() const { return Element{0, 0}; }

  [[nodiscard]] Element compose(const Element& g, const Element& h) const {
    if (checks_enabled()) {
      check_element("DN::compose", g);
      check_element("DN::compose", h);
    }
    // F^f·R(θ') = R((−1)^f·θ')·F^f moves g's flip past h's rotation.
    const long long k = static_cast<long long>(g.k) + (g.flip == 1 ? -static_cast<long long>(h.k) : h.k);
    return Element{g.flip ^ h.flip, static_cast<int>(((k % n()) + n()) % n())};
  }

  [[nodiscard]] Element inverse(const Element& g) const {
    if (checks_enabled()) check_element("DN::inverse", g);
    if (g.flip == 1) return g;
    return Element{0, (n() - g.k) % n()};
  }

  /// R(2πk/N)·F^flip.
  [[nodiscard]] Matrix2<T> matrix(const Element& g) const {
    if (checks_enabled()) check_element("DN::matrix", g);
    Matrix2<T> m = rotations_.matrix(g.k);
    if (g.flip == 1) m.col(0) = -m.col(0);  // R·diag(−1, 1)
    return m;
  }

  [[nodiscard]] ActedPoint act(const Element& g, const ActedPoint& p) const {
    if (checks_enabled()) require_finite("DN::act", "acted point", p);
    return matrix(g) * p;
  }

  /// The rotation part's angle 360·k/N in degrees.
  [[nodiscard]] double rotation_degrees(const Element& g) const {
    if (checks_enabled()) check_element("DN::rotation_degrees", g);
    return rotations_.rotation_degrees(g.k);
  }

  /// The pixel-grid motion of g (flip, then q·90°), or empty when 2πk/N is not a multiple of π/2.
  [[nodiscard]] std::optional<GridMotion> grid_motion(const Element& g) const {
    if (checks_enabled()) check_element("DN::grid_motion", g);
    const std::optional<int> q = rotations_.quarter_turns(g.k);
    if (!q) return std::nullopt;
    return GridMotion{g.flip, *q};
  }

  /// [flip, k], the encoding AnyManifold uses.
  [[nodiscard]] Eigen::VectorXi to_integers(const Element& g) const {
    if (checks_enabled()) check_element("DN::to_integers", g);
    Eigen::VectorXi v(2);
    v << g.flip, g.k;
    return v;
  }

  /// The element encoded as [flip, k]; ShapeError unless two integers, DomainError out of range.
  [[nodiscard]] Element from_integers(const Eigen::VectorXi& v) const {
    if (v.size() != 2) {
      throw ShapeError("DN::from_integers", "an element of D_N is two integers [flip, k]",
                       std::to_string(v.size()) + " integers");
    }
    const Element g{v(0), v(1)};
    check_element("DN::from_integers", g);
    return g;
  }

  /// Throws DomainError unless flip ∈ {0, 1} and k ∈ [0, N).
  void check_element(const Element& g) const { check_element("DN::check_element", g); }

 private:
  static int checked_n(int n) {
    if (n < 1) throw DomainError("DN::DN", "N must be at least 1", n);
    return n;
  }

  void check_element(const char* function, const Element& g) const {
    if (g.flip != 0 && g.flip != 1) throw DomainError(function, "flip must be 0 or 1", g.flip);
    if (g.k < 0 || g.k >= n()) {
      throw DomainError(function, "rotation index k must lie in [0, " + std::to_string(n()) + ")", g.k);
    }
  }

  CN<T> rotations_;
};

static_assert(is_finite_group_v<DN<float>> && is_finite_group_v<DN<double>>);

}  // namespace gyre
