// gyre selfcheck: every registered space passes its self-check, and the JSON report is written whole.
#include "selfcheck_command.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "gyre/core/error.hpp"
#include "gyre/geometry/any_manifold.hpp"
#include "support/scratch_dir.hpp"

TEST_CASE("selfcheck: every registered space passes and the report lists them all") {
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
  CHECK(report["spaces"].size() == gyre::registered_spaces().size());
  std::ifstream temporary(path + ".tmp");
  CHECK_FALSE(temporary.good());  // renamed into place, no temporary left behind
}

TEST_CASE("selfcheck: an unwritable report path is an IoError and leaves nothing behind") {
  std::ostringstream out, progress;
  gyre::tools::SelfcheckOptions options;
  options.cases = 5;
  options.json_path = "/nonexistent-directory/report.json";
  CHECK_THROWS_WITH_AS(gyre::tools::run_selfcheck(options, out, progress, false),
                       "gyre::selfcheck: cannot open for writing (/nonexistent-directory/report.json.tmp)", gyre::IoError);
}
