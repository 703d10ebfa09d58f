#pragma once
// ============================================================================================
//  The cyclic group C_N ⊂ SO(2): the N rotations of the plane by multiples of 2π/N (N ≥ 1).
// ============================================================================================
//  Storage   an element is an int k ∈ [0, N): the counterclockwise rotation R(2πk/N).
//            identity 0; compose(k, l) = (k + l) mod N; inverse(k) = (N − k) mod N.
//  Matrices  matrix(k) = [[cos θ, −sin θ], [sin θ, cos θ]], θ = 2πk/N. Exact (entries 0, ±1)
//            when θ is a multiple of π/2; otherwise cos and sin are evaluated in long double at
//            the reduced angle 2π(k − N)/N for k > N/2 (a smaller argument) and rounded once to T
//            (within ε of the exact entries, where T arithmetic would add the rounding of θ).
//            act(k, p) = matrix(k)·p on ℝ² (Scalar T for matrices and points).
//  Order     elements() = 0, 1, …, N − 1: escnn's order ("k[2pi/N]").
//  Grid      elements with 4k a multiple of N (rotations by q·90°) are exact symmetries of the
//            square pixel grid; act_on_grid (grid_action.hpp) applies them as numpy rot90(·, q).
//  Runtime   to_integers(k) = [k]; from_integers validates the size (ShapeError) and the range
//            (DomainError) — the encoding AnyManifold uses.
//  Errors    an element outside [0, N) throws DomainError from every operation (unless a
//            ChecksOff is alive; check_element always checks). N < 1 throws DomainError.
//  References: escnn's CyclicGroup (Cesa, Lang & Weiler 2022, ICLR); pinned by
//            shared/reference/escnn.json (irrep_tables C4, C6, C8).
// ============================================================================================

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <boost/math/constants/constants.hpp>

#include "grid_action.hpp"
#include "gyre/core/checks.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/manifold.hpp"
#include "gyre/core/types.hpp"
#include "gyre/core/validate.hpp"

namespace gyre {

/// The cyclic group C_N of rotations of the plane by 2πk/N.
template <class T>
class CN {
 public:
  using Scalar = T;
  using Element = int;
  using ActedPoint = Vector2<T>;

  /// C_N; N ≥ 1 is the order.
  explicit CN(int n) : n_(n) {
    if (n < 1) throw DomainError("CN::CN", "N must be at least 1", n);
  }

  [[nodiscard]] int n() const { return n_; }
  [[nodiscard]] int order() const { return n_; }
  [[nodiscard]] int acted_dim() const { return 2; }

  /// 0, 1, …, N − 1.
  [[nodiscard]] std::vector<Element> elements() const {
    std::vector<Element> out(static_cast<std::size_t>(n_));
    for (int k = 0; k < n_; ++k) out[static_cast<std::size_t>(k)] = k;
    return out;
  }

  [[nodiscard]] Element identity() const { return 0; }

  [[nodiscard]] Element compose(Element g, Element h) const {
    if (checks_enabled()) {
      check_element("CN::compose", g);
      check_element("CN::compose", h);
    }
    return static_cast<Element>((static_cast<long long>(g) + h) % n_);
  }

  [[nodiscard]] Element inverse(Element g) const {
    if (checks_enabled()) check_element("CN::inverse", g);
    return (n_ - g) % n_;
  }

  /// R(2πk/N), exact for multiples of π/2.
  [[nodiscard]] Matrix2<T> matrix(Element g) const {
    if (checks_enabled()) check_element("CN::matrix", g);
    return rotation_matrix(g);
  }

  [[nodiscard]] ActedPoint act(Element g, const ActedPoint& p) const {
    if (checks_enabled()) {
      check_element("CN::act", g);
      require_finite("CN::act", "acted point", p);
    }
    return rotation_matrix(g) * p;
  }

  /// The rotation angle 360·k/N in degrees.
  [[nodiscard]] double rotation_degrees(Element g) const {
    if (checks_enabled()) check_element("CN::rotation_degrees", g);
    return 360.0 * g / n_;
  }

  /// q with 2πk/N = q·π/2 when k is a rotation by a multiple of 90°, else empty.
  [[nodiscard]] std::optional<int> quarter_turns(Element g) const {
    if (checks_enabled()) check_element("CN::quarter_turns", g);
    const long long four_k = 4LL * g;
    if (four_k % n_ != 0) return std::nullopt;
    return static_cast<int>(four_k / n_);
  }

  /// The pixel-grid motion of g (a rotation by q·90°), or empty when g is not a grid symmetry.
  [[nodiscard]] std::optional<GridMotion> grid_motion(Element g) const {
    const std::optional<int> q = quarter_turns(g);
    if (!q) return std::nullopt;
    return GridMotion{0, *q};
  }

  /// [k], the encoding AnyManifold uses.
  [[nodiscard]] Eigen::VectorXi to_integers(Element g) const {
    if (checks_enabled()) check_element("CN::to_integers", g);
    return Eigen::VectorXi::Constant(1, g);
  }

  /// The element encoded as [k]; ShapeError unless one integer, DomainError unless in [0, N).
  [[nodiscard]] Element from_integers(const Eigen::VectorXi& v) const {
    if (v.size() != 1) {
      throw ShapeError("CN::from_integers", "an element of C_N is one integer [k]",
                       std::to_string(v.size()) + " integers");
    }
    check_element("CN::from_integers", v(0));
    return v(0);
  }

  /// Throws DomainError unless g ∈ [0, N).
  void check_element(Element g) const { check_element("CN::check_element", g); }

 private:
  void check_element(const char* function, Element g) const {
    if (g < 0 || g >= n_) {
      throw DomainError(function, "element must lie in [0, " + std::to_string(n_) + ")", g);
    }
  }

  Matrix2<T> rotation_matrix(Element g) const {
    Matrix2<T> m;
    const long long four_k = 4LL * g;
    if (four_k % n_ == 0) {
      // Quarter turns are exact: pixel-grid and homomorphism checks rely on exact 0 and ±1.
      switch (four_k / n_) {
        case 0:
          m << 1, 0, 0, 1;
          break;
        case 1:
          m << 0, -1, 1, 0;
          break;
        case 2:
          m << -1, 0, 0, -1;
          break;
        default:
          m << 0, 1, -1, 0;
          break;
      }
      return m;
    }
    // In long double, then rounded once to T: entries within ½ulp (+1e-19) of cos θ and sin θ,
    // where double arithmetic would add the rounding of θ itself (up to ~ε·π).
    const long long k = 2LL * g > n_ ? static_cast<long long>(g) - n_ : g;
    const long double theta = 2 * boost::math::constants::pi<long double>() * static_cast<long double>(k) / n_;
    const T c = static_cast<T>(std::cos(theta));
    const T s = static_cast<T>(std::sin(theta));
    m << c, -s, s, c;
    return m;
  }

  int n_;
};

static_assert(is_finite_group_v<CN<float>> && is_finite_group_v<CN<double>>);

}  // namespace gyre
