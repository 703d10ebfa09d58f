// Image panels as SVG: one square per pixel with the panel's own gray scale, captions escaped, the
// picture as wide as its panels, and bad input refused.

#include "gyre/io/image_panels.hpp"

#include <cmath>
#include <limits>
#include <string>

#include <doctest/doctest.h>

#include "gyre/core/error.hpp"
#include "support/scratch_dir.hpp"

namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("image panels: a square per pixel, black at each panel's minimum and white at its maximum") {
  xt::xtensor<double, 2> ramp = {{0, 1, 2}, {3, 4, 5}};
  xt::xtensor<double, 2> flat = xt::zeros<double>({std::size_t{2}, std::size_t{2}});
  const std::string svg = gyre::io::render_image_panels({{"ramp <x>", ramp}, {"flat", flat}}, 4);
  CHECK(count(svg, "<rect x=") == 6 + 4);
  CHECK(count(svg, "fill=\"rgb(0,0,0)\"") == 1);        // the ramp's 0
  CHECK(count(svg, "fill=\"rgb(255,255,255)\"") == 1);  // the ramp's 5
  CHECK(count(svg, "fill=\"rgb(102,102,102)\"") == 1);  // 2/5 of the way
  CHECK(count(svg, "fill=\"rgb(128,128,128)\"") == 4);  // no contrast: mid-gray
  CHECK(svg.find("ramp &lt;x&gt;") != std::string::npos);
  CHECK(svg.find("<rect x=\"10\" y=\"10\" width=\"4\" height=\"4\"") != std::string::npos);
}

TEST_CASE("image panels: no panels, empty or non-finite images and bad sizes are errors, files are whole") {
  CHECK_THROWS_AS(static_cast<void>(gyre::io::render_image_panels({})), gyre::ShapeError);
  const xt::xtensor<double, 2> empty = xt::zeros<double>({std::size_t{0}, std::size_t{3}});
  CHECK_THROWS_AS(static_cast<void>(gyre::io::render_image_panels({{"e", empty}})), gyre::ShapeError);
  xt::xtensor<double, 2> bad = {{1, std::numeric_limits<double>::quiet_NaN()}};
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::io::render_image_panels({{"bad", bad}})),
                       doctest::Contains("pixels must be finite (bad)"), gyre::DomainError);
  xt::xtensor<double, 2> extremes = {{-1e300, 1e300}, {1e-300, 0}};
  CHECK_NOTHROW(static_cast<void>(gyre::io::render_image_panels({{"extremes", extremes}})));
  CHECK_THROWS_AS(static_cast<void>(gyre::io::render_image_panels({{"x", extremes}}, 0)), gyre::DomainError);
  const gyre::test::ScratchDir scratch("image-panels");
  gyre::io::write_image_panels({{"x", extremes}}, scratch.file("x.svg"));
  CHECK(std::filesystem::exists(scratch.file("x.svg")));
  CHECK_FALSE(std::filesystem::exists(scratch.file("x.svg.tmp")));
  CHECK_THROWS_AS(gyre::io::write_image_panels({{"x", extremes}}, "/nonexistent/dir/x.svg"), gyre::IoError);
}
