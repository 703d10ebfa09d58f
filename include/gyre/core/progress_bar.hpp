#pragma once
// A progress bar for long work: `label [#######.......] 45% 2700/6000 12.3s eta 15.0s <note>`.
// On a terminal it redraws one line (at most every 0.1 s); elsewhere (logs, CI, notebooks' captured
// output) it prints a plain line every 10% so that the log stays readable.

#include <chrono>
#include <cstdio>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <string>

namespace gyre {

/// Progress of `total` steps drawn to a stream.
class ProgressBar {
 public:
  ProgressBar(std::size_t total, std::string label, std::ostream& out, bool terminal)
      : total_(total > 0 ? total : 1),
        label_(std::move(label)),
        out_(out),
        terminal_(terminal),
        start_(std::chrono::steady_clock::now()) {}

  /// Records that `done` steps are complete; `note` is appended (loss, accuracy…).
  void update(std::size_t done, const std::string& note = "") {
    done_ = done;
    const double elapsed = seconds();
    if (terminal_) {
      if (done < total_ && elapsed - last_draw_ < 0.1) return;
      last_draw_ = elapsed;
      out_ << '\r' << line(note) << std::flush;
    } else {
      const std::size_t decile = done * 10 / total_;
      if (decile <= last_decile_ && done < total_) return;
      if (done >= total_ && finished_line_) return;
      last_decile_ = decile;
      finished_line_ = done >= total_;
      out_ << line(note) << '\n' << std::flush;
    }
  }
  /// Draws the final state and ends the line.
  void finish(const std::string& note = "") {
    if (terminal_) {
      out_ << '\r' << line(note) << '\n' << std::flush;
    } else if (!finished_line_) {
      out_ << line(note) << '\n' << std::flush;
      finished_line_ = true;
    }
  }
  /// The text of the bar for the current state (what update draws).
  [[nodiscard]] std::string line(const std::string& note) const {
    constexpr int kWidth = 24;
    const double fraction = static_cast<double>(done_) / static_cast<double>(total_);
    const int filled = static_cast<int>(fraction * kWidth);
    const double elapsed = seconds();
    std::ostringstream text;
    text << label_ << " [" << std::string(static_cast<std::size_t>(filled), '#')
         << std::string(static_cast<std::size_t>(kWidth - filled), '.') << "] " << std::setw(3)
         << static_cast<int>(fraction * 100) << "% " << done_ << "/" << total_ << " " << std::fixed
         << std::setprecision(1) << elapsed << "s";
    if (done_ > 0 && done_ < total_) text << " eta " << elapsed / fraction - elapsed << "s";
    if (!note.empty()) text << " " << note;
    return text.str();
  }

 private:
  [[nodiscard]] double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  std::size_t total_;
  std::size_t done_ = 0;
  std::string label_;
  std::ostream& out_;
  bool terminal_;
  std::chrono::steady_clock::time_point start_;
  double last_draw_ = -1;
  std::size_t last_decile_ = 0;
  bool finished_line_ = false;
};

}  // namespace gyre
