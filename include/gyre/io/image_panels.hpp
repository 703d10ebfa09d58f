#pragma once
// Gray-scale images side by side as an SVG picture — an image and its canonicalized rotation, a
// feature map, a filter — where a table of numbers says less. One square per pixel; each panel is
// mapped from its own minimum (black) to its maximum (white), with its caption underneath. Written
// atomically like the line charts.

#include <string>
#include <vector>

#include <xtensor/xtensor.hpp>

namespace gyre::io {

/// One image (rows × columns) and its caption.
struct ImagePanel {
  std::string caption;
  xt::xtensor<double, 2> pixels;
};

/// The panels as SVG text, `pixel_size` SVG units per pixel. ShapeError for no panels or an empty
/// image, DomainError for a non-finite pixel or pixel_size < 1.
[[nodiscard]] std::string render_image_panels(const std::vector<ImagePanel>& panels, int pixel_size = 6);

/// render_image_panels written to `path` atomically; IoError if it cannot be written.
void write_image_panels(const std::vector<ImagePanel>& panels, const std::string& path, int pixel_size = 6);

}  // namespace gyre::io
