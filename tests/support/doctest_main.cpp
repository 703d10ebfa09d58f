// The doctest entry point shared by every Gyre test suite.
//
// doctest exits 0 when its --test-case filter matches nothing, so a ctest entry whose filter was
// mangled (Debian's doctest_discover_tests splits names on ';') "passes" without running anything.
// A listener counts the test cases that passed the filters, and a run that executed none fails.
#define DOCTEST_CONFIG_IMPLEMENT
#include <iostream>

#include <doctest/doctest.h>

namespace {

unsigned g_cases_selected = 0;
bool g_run_finished = false;

// Only test_run_end matters; doctest calls it for runs, never for --count or --list-* queries.
class SelectedCaseCounter final : public doctest::IReporter {
 public:
  explicit SelectedCaseCounter(const doctest::ContextOptions& /*options*/) {}
  void report_query(const doctest::QueryData& /*data*/) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats& stats) override {
    g_cases_selected = stats.numTestCasesPassingFilters;
    g_run_finished = true;
  }
  void test_case_start(const doctest::TestCaseData& /*data*/) override {}
  void test_case_reenter(const doctest::TestCaseData& /*data*/) override {}
  void test_case_end(const doctest::CurrentTestCaseStats& /*stats*/) override {}
  void test_case_exception(const doctest::TestCaseException& /*exception*/) override {}
  void subcase_start(const doctest::SubcaseSignature& /*signature*/) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData& /*data*/) override {}
  void log_message(const doctest::MessageData& /*data*/) override {}
  void test_case_skipped(const doctest::TestCaseData& /*data*/) override {}
};

}  // namespace

DOCTEST_REGISTER_LISTENER("gyre-selected-case-counter", 1, SelectedCaseCounter);

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  const int status = context.run();
  if (context.shouldExit() || status != 0) return status;
  if (g_run_finished && g_cases_selected == 0) {
    std::cerr << "gyre tests: no test case matched the filters, so nothing ran; a ctest entry whose "
                 "--test-case filter matches no name is a broken registration (is there a ';' in a name?)\n";
    return 3;
  }
  return status;
}
