#include "gyre/io/image_panels.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "gyre/core/error.hpp"
#include "gyre/io/line_plot.hpp"
#include "svg_text.hpp"

namespace gyre::io {
namespace {

constexpr double kMargin = 10, kGap = 16, kCaptionHeight = 22;
constexpr double kCharWidth = 7.4;  // an upper bound of a 12 px sans-serif character (line_plot.cpp)

// The image or its caption, whichever is wider.
double panel_width(const ImagePanel& p, double unit) {
  return std::max(unit * static_cast<double>(p.pixels.shape(1)), kCharWidth * static_cast<double>(p.caption.size()));
}

}  // namespace

std::string render_image_panels(const std::vector<ImagePanel>& panels, int pixel_size) {
  const char* const where = "render_image_panels";
  if (panels.empty()) throw ShapeError(where, "needs at least one panel", 0);
  if (pixel_size < 1) throw DomainError(where, "pixel size must be >= 1", pixel_size);
  const double unit = pixel_size;
  double width = kMargin, height = 0;
  for (const ImagePanel& p : panels) {
    if (p.pixels.size() == 0) throw ShapeError(where, "an image is empty (" + p.caption + ")", 0);
    for (const double v : p.pixels) {
      if (!std::isfinite(v)) throw DomainError(where, "pixels must be finite (" + p.caption + ")", v);
    }
    width += panel_width(p, unit) + kGap;
    height = std::max(height, unit * static_cast<double>(p.pixels.shape(0)));
  }
  width += kMargin - kGap;
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\""
      << height + 2 * kMargin + kCaptionHeight << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  double left = kMargin;
  for (const ImagePanel& p : panels) {
    const auto [low, high] = std::minmax_element(p.pixels.begin(), p.pixels.end());
    const double range = *high - *low;
    svg << "<g shape-rendering=\"crispEdges\">\n";
    for (std::size_t r = 0; r < p.pixels.shape(0); ++r) {
      for (std::size_t c = 0; c < p.pixels.shape(1); ++c) {
        // A constant image is drawn mid-gray: there is no contrast to show.
        const double level = range > 0 ? (p.pixels(r, c) - *low) / range : 0.5;
        const int gray = static_cast<int>(std::lround(255 * level));
        svg << "<rect x=\"" << left + unit * static_cast<double>(c) << "\" y=\""
            << kMargin + unit * static_cast<double>(r) << "\" width=\"" << unit << "\" height=\"" << unit
            << "\" fill=\"rgb(" << gray << "," << gray << "," << gray << ")\"/>\n";
      }
    }
    svg << "</g>\n<text x=\"" << left << "\" y=\"" << kMargin + height + kCaptionHeight - 6 << "\">"
        << svg_escape(p.caption) << "</text>\n";
    left += panel_width(p, unit) + kGap;
  }
  svg << "</svg>\n";
  return svg.str();
}

void write_image_panels(const std::vector<ImagePanel>& panels, const std::string& path, int pixel_size) {
  write_file_atomically(path, render_image_panels(panels, pixel_size));
}

}  // namespace gyre::io
