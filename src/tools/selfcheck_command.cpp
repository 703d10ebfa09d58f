#include "selfcheck_command.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "gyre/check/finite_group_laws.hpp"
#include "gyre/check/gyrogroup_laws.hpp"
#include "gyre/check/lie_group_laws.hpp"
#include "gyre/check/manifold_laws.hpp"
#include "gyre/core/error.hpp"
#include "gyre/geometry/any_manifold.hpp"

namespace gyre::tools {

namespace {

namespace law = check::law;
namespace gyro_law = check::gyro_law;

// The table's columns: which laws each one summarises (its worst residual).
struct Column {
  const char* title;
  std::vector<const char*> laws;
};

const std::vector<Column>& columns() {
  static const std::vector<Column> table = {
      {"exp∘log", {law::kExpLog}},
      {"log∘exp", {law::kLogExp}},
      {"dist", {law::kDistIsNormLog, law::kDistSymmetric}},
      {"transport",
       {law::kTransportTangent, law::kTransportIsometry, law::kTransportVelocity, law::kTransportIdentity,
        law::kTransportShrinks}},
      {"group axioms", {law::kAssociative, law::kIdentity, law::kInverse, law::kFiniteAxioms, law::kFiniteClosure}},
      {"algebra", {law::kVeeHat, law::kAlgebraLogExp, law::kAlgebraExpLog, law::kAdjoint}},
      {"action",
       {law::kActionHomomorphism, law::kActionIdentity, law::kActIsMatrix, law::kMatrixHomomorphism,
        law::kMatrixOrthogonal}},
      {"rgrad/retract", {law::kRgradTangent, law::kRgradRepresents, law::kRetractOnManifold, law::kProjectIdempotent}},
      {"gyrogroup",
       {gyro_law::kLeftIdentity, gyro_law::kLeftInverse, gyro_law::kGyroassociativity, gyro_law::kGyrationIsDefect,
        gyro_law::kAutomorphism, gyro_law::kLoop, gyro_law::kLeftCancellation, gyro_law::kGyroisometric,
        gyro_law::kPseudoReduction, gyro_law::kTranslationIsometry, gyro_law::kScalarOne, gyro_law::kScalarDistributive,
        gyro_law::kScalarAssociative}},
  };
  return table;
}

std::string space_label(const std::string& name, const SpaceParams& params) {
  std::ostringstream label;
  label << name;
  for (const auto& [key, value] : params.words) label << ' ' << value;
  for (const auto& [key, value] : params.numbers) label << ' ' << key << '=' << value;
  for (const auto& [key, value] : params.matrices)
    label << ' ' << key << "=diag(" << value.diagonal().transpose() << ")";
  return label.str();
}

// Every (space, parameter family) pair of the registry, in its order.
struct Family {
  std::string name;
  SpaceParams params;
};

std::vector<Family> families() {
  std::vector<Family> out;
  for (const SpaceInfo& info : registered_spaces()) {
    for (const SpaceParams& params : info.families) out.push_back({info.name, params});
  }
  return out;
}

nlohmann::json params_json(const SpaceParams& params) {
  nlohmann::json out = params.numbers;
  for (const auto& [key, value] : params.words) out[key] = value;
  for (const auto& [key, value] : params.matrices) {
    nlohmann::json rows = nlohmann::json::array();
    for (Eigen::Index r = 0; r < value.rows(); ++r) {
      nlohmann::json row = nlohmann::json::array();
      for (Eigen::Index c = 0; c < value.cols(); ++c) row.push_back(value(r, c));
      rows.push_back(row);
    }
    out[key] = rows;
  }
  return out;
}

std::string format_residual(double value) {
  if (std::isnan(value)) return "—";
  std::ostringstream out;
  out << std::scientific << std::setprecision(1) << value;
  return out.str();
}

// Pads to a width in characters, counting UTF-8 code points (the column titles use ∘).
std::string pad(const std::string& text, std::size_t width) {
  std::size_t code_points = 0;
  for (const char c : text) code_points += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  return text + std::string(width > code_points ? width - code_points : 0, ' ');
}

void write_atomically(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    if (!file) throw IoError("selfcheck", "cannot open for writing", temporary);
    file << text;
    file.flush();
    if (!file) throw IoError("selfcheck", "cannot write", temporary);
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    throw IoError("selfcheck", "cannot rename the report into place", path);
  }
}

void show_progress(std::ostream& progress, bool tty, std::size_t done, std::size_t total, const std::string& label) {
  if (!tty) {
    if (done < total) progress << "gyre selfcheck: checking " << label << " (" << done + 1 << "/" << total << ")\n";
    return;
  }
  constexpr std::size_t kWidth = 30;
  const std::size_t filled = total == 0 ? kWidth : done * kWidth / total;
  progress << "\r[" << std::string(filled, '#') << std::string(kWidth - filled, '.') << "] " << done << "/" << total
           << "  " << pad(label, 16) << std::flush;
  if (done == total) progress << "\r" << std::string(kWidth + 30, ' ') << "\r" << std::flush;
}

}  // namespace

int run_selfcheck(const SelfcheckOptions& options, std::ostream& out, std::ostream& progress, bool progress_is_tty) {
  const std::vector<Family> spaces = families();
  nlohmann::json report = {
      {"cases_per_space", options.cases}, {"threshold", kSelfcheckThreshold}, {"spaces", nlohmann::json::array()}};
  std::vector<std::vector<std::string>> rows;
  std::size_t failing_spaces = 0;
  std::vector<std::string> failures;
  constexpr std::size_t kMaxListedFailures = 20;
  const auto start = std::chrono::steady_clock::now();

  for (std::size_t s = 0; s < spaces.size(); ++s) {
    const Family& family = spaces[s];
    const std::string label = space_label(family.name, family.params);
    show_progress(progress, progress_is_tty, s, spaces.size(), label);
    const auto residuals = make_space(family.name, family.params).self_check(options.cases);

    bool pass = true;
    nlohmann::json laws = nlohmann::json::object();
    for (const auto& [name, worst] : residuals) {
      laws[name] = std::isinf(worst) ? nlohmann::json("inf") : nlohmann::json(worst);
      pass = pass && worst <= kSelfcheckThreshold;
    }
    std::vector<std::string> row{label};
    for (const Column& column : columns()) {
      double worst = std::nan("");
      for (const auto& [name, value] : residuals) {
        if (std::find_if(column.laws.begin(), column.laws.end(), [&](const char* l) { return name == l; }) !=
            column.laws.end()) {
          worst = std::isnan(worst) ? value : std::max(worst, value);
        }
      }
      row.push_back(format_residual(worst));
    }
    row.push_back(pass ? "pass" : "FAIL");
    rows.push_back(row);
    failing_spaces += pass ? 0 : 1;
    report["spaces"].push_back(
        {{"space", family.name}, {"params", params_json(family.params)}, {"pass", pass}, {"laws", laws}});
    for (const auto& [name, worst] : residuals) {
      if (!(worst <= kSelfcheckThreshold) && failures.size() < kMaxListedFailures) {
        failures.push_back(label + ": " + name + " → " + format_residual(worst));
      }
    }
  }
  show_progress(progress, progress_is_tty, spaces.size(), spaces.size(), "");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  out << "Gyre self-check: worst relative residual of each law over " << options.cases
      << " seeded cases per space (double; pass ≤ " << kSelfcheckThreshold << ", — = not a law of that space)\n\n";
  std::vector<std::string> header{"space"};
  for (const Column& column : columns()) header.push_back(column.title);
  header.push_back("status");
  std::vector<std::size_t> widths(header.size(), 0);
  auto measure = [&](const std::vector<std::string>& row) {
    for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], pad(row[c], 0).size());
  };
  measure(header);
  for (const auto& row : rows) measure(row);
  auto print = [&](const std::vector<std::string>& row) {
    for (std::size_t c = 0; c < row.size(); ++c) out << pad(row[c], widths[c] + 2);
    out << "\n";
  };
  print(header);
  for (const auto& row : rows) print(row);
  out << "\n"
      << rows.size() - failing_spaces << " of " << rows.size() << " spaces and parameter families pass (" << std::fixed
      << std::setprecision(1) << seconds << " s)\n";
  for (const std::string& failure : failures) out << "  failed: " << failure << "\n";
  report["seconds"] = seconds;
  report["all_pass"] = failing_spaces == 0;
  if (!options.json_path.empty()) {
    write_atomically(options.json_path, report.dump(2) + "\n");
    out << "report written to " << options.json_path << "\n";
  }
  return failing_spaces == 0 ? 0 : 1;
}

}  // namespace gyre::tools
