// gyre demo: on a tiny budget both models train and are evaluated, the JSON report and the SVG
// plot are written whole, and the exit code is the report's verdict; on a budget where it holds
// (3000 images, one epoch), the claim itself — the steerable CNN beats the plain one on rotated
// test images — is asserted.

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
  // On 64 images either model may win; the exit code must say which.
  const bool wins = steerable["mean_rotated_test_accuracy"].get<double>() >
                    report["models"][1]["mean_rotated_test_accuracy"].get<double>();
  CHECK(code == (wins ? 0 : 1));
  // Exactly invariant to quarter turns up to float rounding; the plain CNN is not.
  CHECK(steerable["invariance_error_quarter_turns"].get<double>() <= 1e-5);
  CHECK(report["models"][1]["invariance_error_quarter_turns"].get<double>() > 1e-3);
  // The steerable accuracies at 0°, 90°, 180°, 270° agree (the images are exact rotations).
  const auto& acc = steerable["test_accuracy"];
  for (std::size_t i = 1; i < 4; ++i) CHECK(acc[i].get<double>() == acc[0].get<double>());
  CHECK(std::filesystem::exists(dir / "gyre-demo-accuracy.svg"));
  CHECK_FALSE(std::filesystem::exists(dir / "gyre-demo-accuracy.svg.tmp"));
}

// Not in the sanitizer builds: instrumented training of 3000 images takes 10–20× as long, and the
// tiny run above already takes the demo through every line of its code there.
#ifndef GYRE_SANITIZED_BUILD
TEST_CASE("demo: on 3000 images and one epoch the steerable CNN beats the plain CNN on rotated images") {
  // Measured on this budget (seeded, so the same on every run up to threading): 38.5 % against
  // 25.6 % averaged over the 8 angles. Below about 2000 images neither model has learnt much yet
  // (1000 images: 27.8 % against 30.4 %), which is why the tiny run above asserts no winner.
  const gyre::test::ScratchDir scratch("demo-claim");
  gyre::tools::DemoOptions options;
  options.train_images = 3000;
  options.test_images = 300;
  options.epochs = 1;
  options.angle_step_degrees = 45;
  options.out_dir = scratch.path().string();
  std::ostringstream out;
  std::ostringstream progress;
  CHECK(gyre::tools::run_demo(options, out, progress, false) == 0);
  CHECK(out.str().find("the steerable CNN beats the plain CNN on rotated test images") != std::string::npos);
  std::ifstream in(scratch.file("gyre-demo-report.json"));
  const nlohmann::json report = nlohmann::json::parse(in);
  const double steerable = report["models"][0]["mean_rotated_test_accuracy"].get<double>();
  const double plain = report["models"][1]["mean_rotated_test_accuracy"].get<double>();
  CAPTURE(steerable);
  CAPTURE(plain);
  CHECK(steerable > plain + 0.05);  // a clear win (13 points measured), not a coin toss
}
#endif  // GYRE_SANITIZED_BUILD
