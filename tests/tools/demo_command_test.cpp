// gyre demo on a tiny budget: both models train and are evaluated, and the JSON report and the
// SVG plot are written whole (the full-size claim — steerable beats plain — is the demo's exit
// code, checked by `gyre demo` itself in the README's first command).

#include "demo_command.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "support/scratch_dir.hpp"

TEST_CASE("demo: a tiny run writes a report with both models and a plot") {
  const gyre::test::ScratchDir scratch("demo-test");
  const std::filesystem::path& dir = scratch.path();
  gyre::tools::DemoOptions options;
  options.train_images = 64;
  options.test_images = 20;
  options.epochs = 1;
  options.angle_step_degrees = 90;
  options.out_dir = dir.string();
  std::ostringstream out;
  std::ostringstream progress;
  const int code = gyre::tools::run_demo(options, out, progress, false);
  CHECK((code == 0 || code == 1));
  CHECK(out.str().find("C8-steerable") != std::string::npos);
  CHECK(progress.str().find("train plain CNN [") != std::string::npos);
  std::ifstream in(dir / "gyre-demo-report.json");
  const nlohmann::json report = nlohmann::json::parse(in);
  REQUIRE(report["models"].size() == 2);
  for (const auto& model : report["models"]) {
    CAPTURE(model["name"].get<std::string>());
    CHECK(model["test_accuracy"].size() == 5);  // 0, 90, 180, 270, 360 degrees
    CHECK(model["parameters"].get<int>() > 10000);
  }
  const auto& steerable = report["models"][0];
  // Exactly invariant to quarter turns up to float rounding; the plain CNN is not.
  CHECK(steerable["invariance_error_quarter_turns"].get<double>() <= 1e-5);
  CHECK(report["models"][1]["invariance_error_quarter_turns"].get<double>() > 1e-3);
  // The steerable accuracies at 0°, 90°, 180°, 270° agree (the images are exact rotations).
  const auto& acc = steerable["test_accuracy"];
  for (std::size_t i = 1; i < 4; ++i) CHECK(acc[i].get<double>() == acc[0].get<double>());
  CHECK(std::filesystem::exists(dir / "gyre-demo-accuracy.svg"));
  CHECK_FALSE(std::filesystem::exists(dir / "gyre-demo-accuracy.svg.tmp"));
}
