// The SVG line plot (content, atomic write, errors) and the progress bar's text.

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>

#include "gyre/core/error.hpp"
#include "gyre/core/progress_bar.hpp"
#include "gyre/io/line_plot.hpp"
#include "support/scratch_dir.hpp"

TEST_CASE("line plot: the SVG holds the title, labels, a polyline per series and a legend") {
  gyre::io::LinePlot plot{"Accuracy vs rotation", "angle (degrees)", "accuracy", {}, 0.0, 1.0};
  plot.series.push_back({"steerable <C8>", {0, 45, 90}, {0.9, 0.88, 0.9}});
  plot.series.push_back({"plain", {0, 45, 90}, {0.9, 0.5, 0.6}});
  const std::string svg = gyre::io::render_svg(plot);
  CHECK(svg.find("Accuracy vs rotation") != std::string::npos);
  CHECK(svg.find("angle (degrees)") != std::string::npos);
  CHECK(svg.find("steerable &lt;C8&gt;") != std::string::npos);  // escaped
  std::size_t polylines = 0;
  for (std::size_t at = svg.find("<polyline"); at != std::string::npos; at = svg.find("<polyline", at + 1)) ++polylines;
  CHECK(polylines == 2);
  const gyre::test::ScratchDir dir("plot-test");
  const std::string path = dir.file("plot.svg");
  gyre::io::write_svg(plot, path);
  CHECK(std::filesystem::exists(path));
  CHECK_FALSE(std::filesystem::exists(path + ".tmp"));
  std::ifstream in(path);
  std::stringstream back;
  back << in.rdbuf();
  CHECK(back.str() == svg);
}

TEST_CASE("line plot: bad series and unwritable paths are errors") {
  gyre::io::LinePlot plot{"t", "x", "y", {{"a", {0, 1}, {1}}}, std::nullopt, std::nullopt};
  CHECK_THROWS_AS(static_cast<void>(gyre::io::render_svg(plot)), gyre::ShapeError);
  plot.series = {{"a", {0, 1}, {1, std::nan("")}}};
  CHECK_THROWS_AS(static_cast<void>(gyre::io::render_svg(plot)), gyre::DomainError);
  plot.series = {{"a", {0, 1}, {1, 2}}};
  CHECK_THROWS_WITH_AS(gyre::io::write_svg(plot, "/nonexistent-directory/plot.svg"),
                       "gyre::write_file_atomically: cannot open for writing (/nonexistent-directory/plot.svg.tmp)",
                       gyre::IoError);
}

TEST_CASE("progress bar: logs print a line per tenth, terminals redraw one line") {
  std::ostringstream log;
  gyre::ProgressBar bar(100, "training", log, false);
  for (std::size_t i = 1; i <= 100; ++i) bar.update(i, "loss 0.5");
  bar.finish("done");
  std::size_t lines = 0;
  for (char c : log.str()) lines += c == '\n' ? 1 : 0;
  CHECK(lines == 10);  // 10%, 20%, …, 100%
  CHECK(log.str().find("training [########################] 100% 100/100") != std::string::npos);
  CHECK(log.str().find("loss 0.5") != std::string::npos);
  std::ostringstream terminal;
  gyre::ProgressBar redraw(4, "eval", terminal, true);
  redraw.update(2);
  CHECK(redraw.line("").find("eval [############............]  50% 2/4") == 0);
  redraw.finish();
  CHECK(terminal.str().back() == '\n');
  CHECK(terminal.str().front() == '\r');
}

TEST_CASE("line plot: the legend column is as wide as its longest label, so no label is cut off") {
  // gyre demo's legend read "C8-steerable (13264 par…" when the column had a fixed width.
  const std::string long_label = "C8-steerable (13264 parameters), rotated ×4 at 30°";
  gyre::io::LinePlot plot{"t", "x", "y", {{"plain", {0, 1}, {0, 1}}, {long_label, {0, 1}, {1, 0}}}, 0.0, 1.0};
  const std::string svg = gyre::io::render_svg(plot);
  const auto attribute = [&](const std::string& text, std::size_t from, const std::string& name) {
    const std::size_t at = text.find(name + "=\"", from);
    REQUIRE(at != std::string::npos);
    return std::stod(text.substr(at + name.size() + 2));
  };
  const double width = attribute(svg, 0, "width");
  const std::size_t label_at = svg.find(">" + std::string("C8-steerable"));
  REQUIRE(label_at != std::string::npos);
  const double label_x = attribute(svg, svg.rfind("<text", label_at), "x");
  // 50 characters ("×" and "°" are one each) at ≤ 7.4 px for 12 px sans-serif (DejaVu Sans's widest
  // common advance), so the label ends by label_x + 50·7.4; the picture must reach past that.
  CHECK(width >= label_x + 50 * 7.4);
  // …without growing for nothing: a short legend keeps the compact size.
  plot.series.pop_back();
  CHECK(attribute(gyre::io::render_svg(plot), 0, "width") < width - 200);
}

TEST_CASE("line plot: free y ends move out to round ticks, and overlapping series stay visible") {
  // Values between −6.8 and −0.5 (the shape of notebook 02's log10 errors): the axis runs from −8
  // to 0, so no marker sits on the frame (y = 40 at the top, 380 at the bottom) and both ends are
  // labelled.
  gyre::io::LinePlot plot{"t",          "x",
                          "y",          {{"a", {0, 1, 2}, {-0.5, -6.8, -3}}, {"b", {0, 1, 2}, {-0.5, -6.8, -3}}},
                          std::nullopt, std::nullopt};
  const std::string svg = gyre::io::render_svg(plot);
  std::size_t markers = 0;
  for (std::size_t at = svg.find("cy=\""); at != std::string::npos; at = svg.find("cy=\"", at + 1)) {
    const double cy = std::stod(svg.substr(at + 4));
    CHECK(cy > 40.5);
    CHECK(cy < 379.5);
    ++markers;
  }
  CHECK(markers == 6);
  CHECK(svg.find(">-8</text>") != std::string::npos);
  CHECK(svg.find(">0</text>") != std::string::npos);
  // The second series is dashed: drawn over the first, it lets the first show through.
  CHECK(svg.find("stroke-dasharray") != std::string::npos);
  // Fixed ends are kept as given.
  plot.y_min = -7.0;
  plot.y_max = -0.5;
  const std::string fixed = gyre::io::render_svg(plot);
  CHECK(fixed.find(">-8</text>") == std::string::npos);
}
