#pragma once
// The result of a law check: per law, the worst residual over all seeded cases and the seed
// that produced it, so that a failure can be replayed with exactly that seed.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace gyre::check {

/// The worst residual of one law over the cases checked.
struct LawResidual {
  std::string law;               ///< e.g. "exp(x, log(x, y)) = y"
  double worst = 0;              ///< largest relative residual seen (NaN if any case gave NaN)
  std::uint64_t worst_seed = 0;  ///< the seed of the case that gave it
  std::size_t cases = 0;         ///< how many cases were checked
};

/// Residuals of every law checked, plus the cases that threw where they should not have.
struct LawReport {
  std::vector<LawResidual> laws;
  std::vector<std::string> failures;  ///< "seed S: law: exception message"

  /// Records one case; NaN residuals stick (NaN never compares below a finite worst).
  void record(const std::string& law, double residual, std::uint64_t seed) {
    LawResidual& entry = find_or_add(law);
    ++entry.cases;
    if (!(residual <= entry.worst)) {
      entry.worst = residual;
      entry.worst_seed = seed;
    }
  }

  void fail(const std::string& law, std::uint64_t seed, const std::string& message) {
    failures.push_back("seed " + std::to_string(seed) + ": " + law + ": " + message);
  }

  /// The entry for a law; throws std::out_of_range if that law was not checked.
  [[nodiscard]] const LawResidual& at(const std::string& law) const {
    for (const LawResidual& entry : laws) {
      if (entry.law == law) return entry;
    }
    throw std::out_of_range("gyre::check::LawReport::at: no law named " + law);
  }

 private:
  LawResidual& find_or_add(const std::string& law) {
    for (LawResidual& entry : laws) {
      if (entry.law == law) return entry;
    }
    laws.push_back(LawResidual{law, 0, 0, 0});
    return laws.back();
  }
};

}  // namespace gyre::check
