// gyre demo symmetry on a tiny budget: every model trains and is measured, the report, the two
// plots and the exit code say what the run found, and the exactness claims — which do not depend on
// how well the networks learnt — hold: frame averaging equivariant to float rounding, canonicalization
// invariant to quarter turns, anti-aliasing lowering the learned features' aliasing.

#include <filesystem>
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "support/scratch_dir.hpp"
#include "symmetry_demo_command.hpp"

TEST_CASE("demo symmetry: a tiny run writes a report with every model, two plots, and its claims hold") {
  const gyre::test::ScratchDir scratch("symmetry-demo-test");
  gyre::tools::SymmetryDemoOptions options;
  options.train_images = 64;
  options.test_images = 20;
  options.epochs = 1;
  options.angle_step_degrees = 90;
  options.nbody_train = 64;
  options.nbody_test = 32;
  options.nbody_epochs = 3;
  options.out_dir = scratch.path().string();
  std::ostringstream out;
  std::ostringstream progress;
  const int code = gyre::tools::run_symmetry_demo(options, out, progress, false);
  CHECK(code == 0);
  CHECK(out.str().find("every exactness claim holds on the data") != std::string::npos);
  CHECK(progress.str().find("train FA-MLP E(3) [") != std::string::npos);
  std::ifstream in(scratch.file("gyre-symmetry-report.json"));
  const nlohmann::json report = nlohmann::json::parse(in);
  REQUIRE(report["image_models"].size() == 4);
  for (const auto& model : report["image_models"]) {
    CAPTURE(model["name"].get<std::string>());
    CHECK(model["test_accuracy"].size() == 5);  // 0, 90, 180, 270, 360 degrees
  }
  // Both G-CNNs (same layout) are exactly invariant to the quarter turns of D4; the plain CNN is not,
  // and canonicalizing its input makes it so.
  for (const int i : {0, 1, 3})
    CHECK(report["image_models"][i]["invariance_error_quarter_turns"].get<double>() <= 1e-4);
  CHECK(report["image_models"][2]["invariance_error_quarter_turns"].get<double>() >= 1e-2);
  CHECK(report["image_models"][0]["parameters"] == report["image_models"][1]["parameters"]);
  CHECK(report["image_models"][2]["parameters"] == report["image_models"][3]["parameters"]);
  const auto& aliasing = report["learned_feature_aliasing"];
  CHECK(aliasing["anti_aliased"].get<double>() < aliasing["naive"].get<double>());
  CHECK(report["canonicalization"]["microseconds_per_image"].get<double>() > 0);
  const auto& nbody = report["nbody"];
  REQUIRE(nbody["models"].size() == 2);
  CHECK(nbody["models"][0]["test_mse"].size() == 3);
  CHECK(nbody["models"][1]["equivariance_error"].get<double>() <= 1e-4);  // float rounding of the frame
  CHECK(nbody["models"][0]["equivariance_error"].get<double>() >= 1e-2);
  CHECK(nbody["free_flight_mse"].get<double>() > 0);
  for (const char* plot : {"gyre-symmetry-accuracy.svg", "gyre-symmetry-nbody.svg"}) {
    CAPTURE(plot);
    CHECK(std::filesystem::exists(scratch.file(plot)));
    CHECK_FALSE(std::filesystem::exists(scratch.file(std::string(plot) + ".tmp")));
  }
}
