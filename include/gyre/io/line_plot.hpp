#pragma once
// Line charts as SVG files: axes with numbered ticks, grid lines, one coloured polyline with
// markers per series, and a legend. No dependency; written atomically (a temporary name, then a
// rename), so a crash never leaves half a file.

#include <optional>
#include <string>
#include <vector>

namespace gyre::io {

/// One line of a chart.
struct Series {
  std::string label;
  std::vector<double> x, y;
};

/// A chart: title, axis labels, series, and optional fixed y range.
struct LinePlot {
  std::string title, x_label, y_label;
  std::vector<Series> series;
  std::optional<double> y_min, y_max;
};

/// The chart as SVG text; ShapeError if a series' x and y differ in length or it is empty,
/// DomainError for a non-finite value.
[[nodiscard]] std::string render_svg(const LinePlot& plot);
/// render_svg written to `path` (via path + ".tmp" and a rename); IoError if it cannot be written.
void write_svg(const LinePlot& plot, const std::string& path);
/// Writes `text` to `path` atomically (path + ".tmp", then rename); IoError on failure.
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace gyre::io
