#pragma once
// The equivariance checker, for users and tests: how far a module is from f(g·x) = g·f(x).
//
// For each group element it reports ‖f(g·x) − g·f(x)‖ / ‖f(x)‖ (Frobenius norms over the batch).
// Grid symmetries (multiples of 90°, flips) act on square maps as exact pixel permutations, so a
// correct network gives rounding-level errors there. Other angles resample by bilinear
// interpolation; both sides are then compared on the disc inscribed in the maps (the corners
// rotate out of view), after masking the input to that disc, and the number is the honest size of
// the interpolation error, not a bug. Run modules in eval mode for batch-dependent layers.

#include <cmath>
#include <iomanip>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <boost/math/constants/constants.hpp>

#include "gyre/core/error.hpp"
#include "gyre/nn/module.hpp"
#include "gyre/nn/transform.hpp"

namespace gyre::check {

/// One row of an equivariance report.
struct EquivarianceRow {
  repr::PlanarElement element;
  /// "rotation 90°", "flip, rotation 45°".
  std::string label;
  double relative_error = 0;
  /// Whether the element is an exact symmetry of the pixel grid.
  bool grid_symmetry = false;
  /// Whether the output this row compares against is identically zero (0/0: the row proves
  /// nothing, and the report counts it as a failure).
  bool zero_reference = false;
};

/// Per-element relative equivariance errors of a module on one input.
struct EquivarianceReport {
  std::vector<EquivarianceRow> rows;

  /// The largest error over the grid symmetries (0 if there are none). NaN if any of them is NaN,
  /// +∞ if any compares against an all-zero output, so that `error <= tolerance` fails for both.
  [[nodiscard]] double max_grid_symmetry_error() const { return worst_of(true); }
  /// The largest error over all elements, NaN- and zero-output-sticky like the one above.
  [[nodiscard]] double max_error() const { return worst_of(false); }
  /// Whether some row compared against an identically zero output (a vacuous check).
  [[nodiscard]] bool zero_output() const {
    for (const EquivarianceRow& row : rows) {
      if (row.zero_reference) return true;
    }
    return false;
  }
  /// The verdict: some grid symmetry was checked, and every one is within `tolerance` of exact.
  [[nodiscard]] bool equivariant_on_grid(double tolerance) const {
    bool any = false;
    for (const EquivarianceRow& row : rows) any = any || row.grid_symmetry;
    return any && max_grid_symmetry_error() <= tolerance;  // false for NaN and +∞
  }
  /// A fixed-width table, one line per element.
  [[nodiscard]] std::string table() const {
    std::ostringstream out;
    out << std::left << std::setw(24) << "element" << std::setw(18) << "relative error"
        << "grid symmetry\n";
    for (const EquivarianceRow& row : rows) {
      std::ostringstream error;
      if (row.zero_reference) {
        error << "zero output";
      } else {
        error << std::setprecision(3) << std::scientific << row.relative_error;
      }
      out << std::left << std::setw(24) << row.label << std::setw(18) << error.str()
          << (row.grid_symmetry ? "exact" : "interpolated") << "\n";
    }
    if (zero_output()) out << "the output is identically zero: equivariance is vacuous, reported as a failure\n";
    return out.str();
  }

 private:
  // std::max(worst, NaN) keeps worst, which would hide a NaN row: NaN is returned as soon as seen.
  [[nodiscard]] double worst_of(bool grid_only) const {
    double worst = 0;
    for (const EquivarianceRow& row : rows) {
      if (grid_only && !row.grid_symmetry) continue;
      if (std::isnan(row.relative_error)) return row.relative_error;
      worst = std::max(worst, row.zero_reference ? std::numeric_limits<double>::infinity() : row.relative_error);
    }
    return worst;
  }
};

/// "rotation 90°" or "flip, rotation 22.5°".
inline std::string element_label(const repr::PlanarElement& g) {
  std::ostringstream out;
  out << (g.flip ? "flip, " : "") << "rotation " << std::setprecision(6)
      << g.angle * 180 / boost::math::constants::pi<double>() << "°";
  return out.str();
}

/// The elements checked by default: all of a finite group; 16 equispaced angles for SO(2), and
/// with and without the flip for O(2).
inline std::vector<repr::PlanarElement> default_check_elements(const repr::PlanarGroup& group) {
  if (group.is_finite()) return group.elements();
  std::vector<repr::PlanarElement> result;
  constexpr int kAngles = 16;
  for (int f = 0; f < (group.has_flips() ? 2 : 1); ++f) {
    for (int k = 0; k < kAngles; ++k) result.push_back({f, 2 * boost::math::constants::pi<double>() * k / kAngles});
  }
  return result;
}

namespace detail {

// Zero outside the disc inscribed in the H×W map (pixel centres farther than (min(H, W) − 1)/2).
template <class Maps>
void mask_to_disc(Maps& x) {
  using T = typename Maps::value_type;
  const std::size_t h = x.shape(2);
  const std::size_t w = x.shape(3);
  const double radius = (static_cast<double>(std::min(h, w)) - 1) / 2;
  const double cx = (static_cast<double>(w) - 1) / 2;
  const double cy = (static_cast<double>(h) - 1) / 2;
  for (std::size_t n = 0; n < x.shape(0); ++n)
    for (std::size_t c = 0; c < x.shape(1); ++c)
      for (std::size_t r = 0; r < h; ++r)
        for (std::size_t q = 0; q < w; ++q) {
          const double dx = static_cast<double>(q) - cx;
          const double dy = static_cast<double>(r) - cy;
          if (dx * dx + dy * dy > radius * radius) x(n, c, r, q) = T(0);
        }
}

// ‖x‖_F scaled by the largest entry, so that entries near 1e300 do not overflow to ∞ (and ∞/∞ to
// NaN); any non-finite entry gives NaN.
template <class Maps>
double frobenius(const Maps& x) {
  double largest = 0;
  for (const auto& v : x) {
    if (!std::isfinite(static_cast<double>(v))) return std::numeric_limits<double>::quiet_NaN();
    largest = std::max(largest, std::abs(static_cast<double>(v)));
  }
  if (largest == 0) return 0;
  double sum = 0;
  for (const auto& v : x) {
    const double scaled = static_cast<double>(v) / largest;
    sum += scaled * scaled;
  }
  return largest * std::sqrt(sum);
}

// One row's error ‖lhs − rhs‖ / ‖reference‖; a zero reference marks the row instead of dividing.
template <class Maps>
void set_relative_error(EquivarianceRow& row, const Maps& lhs, const Maps& rhs, const Maps& reference) {
  const double scale = frobenius(reference);
  const double gap = frobenius(Maps(lhs - rhs));
  row.zero_reference = scale == 0;
  row.relative_error = row.zero_reference ? gap : gap / scale;  // NaN stays NaN
}

}  // namespace detail

/// Checks f(g·x) = g·f(x) for each element. By default the elements are default_check_elements of
/// the output type's group, which may be a subgroup of the input's (GroupDownsample keeps only the
/// subgroup's symmetry); an element outside either group is refused with a DomainError. The
/// module's forward calls run under NoGrad: checking leaves nothing saved for backward.
template <class T>
EquivarianceReport check_equivariance(nn::Module<T>& module, const nn::GeometricTensor<T>& x,
                                      std::vector<repr::PlanarElement> elements = {}) {
  const nn::FieldType& in_fields = module.in_type().fields("check_equivariance");
  nn::require_field_type("check_equivariance", in_fields, x.type);
  const repr::PlanarGroup& out_group =
      module.out_type().has_fields() ? module.out_type().fields().group() : in_fields.group();
  if (elements.empty()) elements = default_check_elements(out_group);
  for (const repr::PlanarElement& g : elements) {
    if (!in_fields.group().contains(g) || !out_group.contains(g)) {
      const std::string groups =
          in_fields.group() == out_group
              ? in_fields.group().name()
              : "both the input's and the output's group (" + in_fields.group().name() + ", " + out_group.name() + ")";
      throw DomainError("check_equivariance", "element is not in " + groups, element_label(g));
    }
  }
  const nn::NoGrad no_grad;
  EquivarianceReport report;
  const nn::GeometricTensor<T> fx = module.forward(x);
  nn::GeometricTensor<T> masked_x = x;
  detail::mask_to_disc(masked_x.data);
  std::optional<nn::GeometricTensor<T>> masked_fx;
  for (const repr::PlanarElement& g : elements) {
    EquivarianceRow row{g, element_label(g), 0.0, nn::is_grid_symmetry(g)};
    if (row.grid_symmetry) {
      const nn::GeometricTensor<T> lhs = module.forward(nn::transform(x, g));
      const nn::GeometricTensor<T> rhs = nn::transform(fx, g);
      detail::set_relative_error(row, lhs.data, rhs.data, fx.data);
    } else {
      if (!masked_fx) masked_fx = module.forward(masked_x);
      xt::xarray<T> lhs = module.forward(nn::transform(masked_x, g)).data;
      xt::xarray<T> rhs = nn::transform(*masked_fx, g).data;
      detail::mask_to_disc(lhs);
      detail::mask_to_disc(rhs);
      xt::xarray<T> reference = masked_fx->data;
      detail::mask_to_disc(reference);
      detail::set_relative_error(row, lhs, rhs, reference);
    }
    report.rows.push_back(std::move(row));
  }
  return report;
}

}  // namespace gyre::check
