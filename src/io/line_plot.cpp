#include "gyre/io/line_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "gyre/core/error.hpp"
#include "svg_text.hpp"

namespace gyre::io {
namespace {

// The plotting area is fixed; the legend column to its right is as wide as its longest label, so
// the picture grows instead of cutting a label off (SVG has no text measurement before rendering).
constexpr double kPlotWidth = 460, kHeight = 440;
constexpr double kLeft = 70, kTop = 40, kBottom = 60;
constexpr double kLegendSwatch = 44;  // from the plot's edge to the label: gap, line sample, gap
constexpr double kRightPadding = 16;
// An upper bound of the advance of one character of a 12 px sans-serif font: DejaVu Sans, the
// widest common default, averages 7.0 px on mixed text and reaches 0.8 em only for 'm' and 'W'.
constexpr double kCharWidth = 7.4;
constexpr const char* kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"};
// Later series are dashed, each differently, so that series drawn on top of each other (equal
// values) still show every colour through the gaps.
constexpr const char* kDashes[] = {"",
                                   " stroke-dasharray=\"10 5\"",
                                   " stroke-dasharray=\"3 6\"",
                                   " stroke-dasharray=\"12 4 3 4\"",
                                   " stroke-dasharray=\"2 10\"",
                                   " stroke-dasharray=\"6 8\""};

// The distance between about five round ticks (1, 2 or 5 × 10ᵏ) over [low, high].
double tick_step(double low, double high) {
  const double raw = (high - low) / 5;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0}) {
    if (raw <= m * power) return m * power;
  }
  return 10 * power;
}

// The round tick values covering [low, high].
std::vector<double> ticks(double low, double high) {
  const double span = high - low;
  const double step = tick_step(low, high);
  std::vector<double> result;
  for (double t = std::ceil(low / step) * step; t <= high + 1e-9 * span; t += step)
    result.push_back(std::abs(t) < 1e-12 * span ? 0.0 : t);
  return result;
}

// Characters, not bytes: labels carry UTF-8 ("°", "×").
std::size_t code_points(const std::string& text) {
  std::size_t n = 0;
  for (unsigned char c : text) n += (c & 0xC0) != 0x80;
  return n;
}

std::string number(double v) {
  std::ostringstream out;
  out << std::setprecision(4) << v;
  return out.str();
}

}  // namespace

std::string render_svg(const LinePlot& plot) {
  double x_low = INFINITY, x_high = -INFINITY, y_low = INFINITY, y_high = -INFINITY;
  for (const Series& s : plot.series) {
    if (s.x.size() != s.y.size() || s.x.empty()) {
      throw ShapeError("render_svg", "series \"" + s.label + "\" needs equally many x and y values, at least one",
                       std::to_string(s.x.size()) + " x, " + std::to_string(s.y.size()) + " y");
    }
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) {
        throw DomainError("render_svg", "series \"" + s.label + "\" has a non-finite value",
                          std::isfinite(s.x[i]) ? s.y[i] : s.x[i]);
      }
      x_low = std::min(x_low, s.x[i]);
      x_high = std::max(x_high, s.x[i]);
      y_low = std::min(y_low, s.y[i]);
      y_high = std::max(y_high, s.y[i]);
    }
  }
  if (plot.series.empty()) throw ShapeError("render_svg", "a plot needs at least one series", 0);
  if (plot.y_min) y_low = *plot.y_min;
  if (plot.y_max) y_high = *plot.y_max;
  if (x_high <= x_low) x_high = x_low + 1;
  if (y_high <= y_low) y_high = y_low + 1;
  // A free y end moves out to the next round tick, so that no line runs along the frame and both
  // ends of the axis carry a number.
  const double y_step = tick_step(y_low, y_high);
  if (!plot.y_min) y_low = std::floor(y_low / y_step) * y_step;
  if (!plot.y_max) y_high = std::ceil(y_high / y_step) * y_step;
  std::size_t longest_label = 0;
  for (const Series& s : plot.series) longest_label = std::max(longest_label, code_points(s.label));
  const double plot_w = kPlotWidth;
  const double plot_h = kHeight - kTop - kBottom;
  const double width = kLeft + plot_w + kLegendSwatch + kCharWidth * static_cast<double>(longest_label) + kRightPadding;
  const auto px = [&](double x) { return kLeft + (x - x_low) / (x_high - x_low) * plot_w; };
  const auto py = [&](double y) { return kTop + (1 - (y - y_low) / (y_high - y_low)) * plot_h; };

  std::ostringstream svg;
  svg << std::fixed << std::setprecision(2);
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << kHeight
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg << "<text x=\"" << kLeft + plot_w / 2 << "\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">"
      << svg_escape(plot.title) << "</text>\n";
  for (double t : ticks(x_low, x_high)) {
    svg << "<line x1=\"" << px(t) << "\" y1=\"" << kTop << "\" x2=\"" << px(t) << "\" y2=\"" << kTop + plot_h
        << "\" stroke=\"#e5e5e5\"/>\n";
    svg << "<text x=\"" << px(t) << "\" y=\"" << kTop + plot_h + 18 << "\" text-anchor=\"middle\">" << number(t)
        << "</text>\n";
  }
  for (double t : ticks(y_low, y_high)) {
    svg << "<line x1=\"" << kLeft << "\" y1=\"" << py(t) << "\" x2=\"" << kLeft + plot_w << "\" y2=\"" << py(t)
        << "\" stroke=\"#e5e5e5\"/>\n";
    svg << "<text x=\"" << kLeft - 8 << "\" y=\"" << py(t) + 4 << "\" text-anchor=\"end\">" << number(t) << "</text>\n";
  }
  svg << "<rect x=\"" << kLeft << "\" y=\"" << kTop << "\" width=\"" << plot_w << "\" height=\"" << plot_h
      << "\" fill=\"none\" stroke=\"black\"/>\n";
  svg << "<text x=\"" << kLeft + plot_w / 2 << "\" y=\"" << kHeight - 18 << "\" text-anchor=\"middle\">"
      << svg_escape(plot.x_label) << "</text>\n";
  svg << "<text transform=\"translate(18," << kTop + plot_h / 2 << ") rotate(-90)\" text-anchor=\"middle\">"
      << svg_escape(plot.y_label) << "</text>\n";
  for (std::size_t k = 0; k < plot.series.size(); ++k) {
    const Series& s = plot.series[k];
    const char* colour = kColours[k % (sizeof kColours / sizeof *kColours)];
    const char* dashes = kDashes[k % (sizeof kDashes / sizeof *kDashes)];
    svg << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"2\"" << dashes << " points=\"";
    for (std::size_t i = 0; i < s.x.size(); ++i) svg << px(s.x[i]) << ',' << py(s.y[i]) << ' ';
    svg << "\"/>\n";
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      svg << "<circle cx=\"" << px(s.x[i]) << "\" cy=\"" << py(s.y[i]) << "\" r=\"3\" fill=\"" << colour << "\"/>\n";
    }
    const double ly = kTop + 16 + 20 * static_cast<double>(k);
    svg << "<line x1=\"" << kLeft + plot_w + 14 << "\" y1=\"" << ly - 4 << "\" x2=\"" << kLeft + plot_w + 38
        << "\" y2=\"" << ly - 4 << "\" stroke=\"" << colour << "\" stroke-width=\"2\"" << dashes << "/>\n";
    svg << "<text x=\"" << kLeft + plot_w + 44 << "\" y=\"" << ly << "\">" << svg_escape(s.label) << "</text>\n";
  }
  svg << "</svg>\n";
  return svg.str();
}

void write_file_atomically(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw IoError("write_file_atomically", "cannot open for writing", temporary);
    out << text;
    out.flush();
    if (!out) {
      std::remove(temporary.c_str());
      throw IoError("write_file_atomically", "write failed", temporary);
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    throw IoError("write_file_atomically", "cannot rename into place", path);
  }
}

void write_svg(const LinePlot& plot, const std::string& path) { write_file_atomically(path, render_svg(plot)); }

}  // namespace gyre::io
