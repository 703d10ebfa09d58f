#pragma once
// `gyre selfcheck`: the self-check table — every registered space's law residuals on seeded cases.

#include <iosfwd>
#include <string>

namespace gyre::tools {

struct SelfcheckOptions {
  std::size_t cases = 200;  ///< seeded random cases per space
  std::string json_path;    ///< if set, also write the results there as JSON (atomically)
};

/// Runs the self-checks, prints the table to out and progress to progress; returns the exit
/// code (0 when every law of every space is within the threshold, 1 otherwise).
int run_selfcheck(const SelfcheckOptions& options, std::ostream& out, std::ostream& progress, bool progress_is_tty);

/// The pass threshold for every law residual (relative, double precision).
inline constexpr double kSelfcheckThreshold = 1e-9;

}  // namespace gyre::tools
