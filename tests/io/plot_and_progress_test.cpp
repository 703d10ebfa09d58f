// The SVG line plot (content, atomic write, errors) and the progress bar's text.

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>

#include "gyre/core/error.hpp"
#include "gyre/core/progress_bar.hpp"
#include "gyre/io/line_plot.hpp"

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
  const std::string path = (std::filesystem::temp_directory_path() / "gyre_plot_test.svg").string();
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
