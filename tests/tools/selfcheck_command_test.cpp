// gyre selfcheck: every registered space passes its self-check, and the JSON report is written whole.
#include "selfcheck_command.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "gyre/check/gyrogroup_laws.hpp"
#include "gyre/core/error.hpp"
#include "gyre/geometry/any_manifold.hpp"
#include "support/scratch_dir.hpp"

TEST_CASE("selfcheck: every registered space and parameter family passes and the report lists them all") {
  const gyre::test::ScratchDir dir("selfcheck-test");
  const std::string path = dir.file("report.json");
  std::ostringstream out, progress;
  gyre::tools::SelfcheckOptions options;
  options.cases = 50;
  options.json_path = path;
  CHECK(gyre::tools::run_selfcheck(options, out, progress, false) == 0);
  const std::string table = out.str();
  for (const auto& info : gyre::registered_spaces()) {
    CAPTURE(info.name);
    CHECK(table.find(info.name) != std::string::npos);
    CHECK(progress.str().find(info.name) != std::string::npos);
  }
  CHECK(table.find("FAIL") == std::string::npos);
  std::ifstream file(path);
  REQUIRE(file.good());
  const auto report = nlohmann::json::parse(file);
  CHECK(report["all_pass"] == true);
  std::size_t families = 0;
  for (const auto& info : gyre::registered_spaces()) {
    CAPTURE(info.name);
    CHECK_FALSE(info.families.empty());
    families += info.families.size();
  }
  CHECK(report["spaces"].size() == families);
  // The gyrogroups are checked as gyrogroups, under every structure that has one.
  std::size_t gyro_rows = 0;
  for (const auto& row : report["spaces"]) {
    const bool gyro = row["laws"].contains(gyre::check::gyro_law::kGyroassociativity);
    gyro_rows += gyro ? 1 : 0;
    const std::string metric = row["params"].value("metric", "");
    if (row["space"] == "stereographic" || row["space"] == "grassmann" || row["space"] == "correlation" ||
        row["space"] == "hyperboloid" ||
        (row["space"] == "spd" && !row["params"].contains("theta") &&
         (metric == "affine_invariant" || metric == "log_euclidean" || metric == "log_cholesky"))) {
      CAPTURE(row.dump());
      CHECK(gyro);
    }
  }
  CHECK(gyro_rows == 14);  // 3 κ, 2 Grassmannians, 2 correlations, 2 hyperboloids, AIM ×2, LEM ×2, LCM
  std::ifstream temporary(path + ".tmp");
  CHECK_FALSE(temporary.good());  // renamed into place, no temporary left behind
}

TEST_CASE("selfcheck: an unwritable report path is an IoError and leaves nothing behind") {
  std::ostringstream out, progress;
  gyre::tools::SelfcheckOptions options;
  options.cases = 5;
  options.json_path = "/nonexistent-directory/report.json";
  CHECK_THROWS_WITH_AS(gyre::tools::run_selfcheck(options, out, progress, false),
                       "gyre::selfcheck: cannot open for writing (/nonexistent-directory/report.json.tmp)",
                       gyre::IoError);
}
