// The gyre command: subcommand dispatch.
#include <unistd.h>

#include <cstring>
#include <iostream>
#include <string>

#include "demo_command.hpp"
#include "basis_command.hpp"
#include "geom_command.hpp"

namespace {

constexpr const char* kUsage =
    "usage: gyre <command> [options]\n"
    "\n"
    "commands:\n"
    "  demo [--cases N] [--json PATH]   self-check every geometry: law residuals on seeded cases\n"
    "  geom [--list]                    JSON-lines calculator: one request per stdin line, one reply per line\n"
    "  basis                            JSON-lines: dimension and rank of steerable kernel bases\n"
    "  help                             this text\n"
    "\n"
    "geom request: {\"space\": NAME, \"params\": {...}, \"op\": OP, \"args\": [...]}\n"
    "  ops: exp log transport inner norm dist project retract check_point mean\n"
    "       identity compose inverse act algebra_exp algebra_log (groups)\n"
    "  `gyre geom --list` prints the spaces and their parameters.\n"
    "\n"
    "basis request: {\"gspace\": \"rot2d\"|\"fliprot2d\"|\"flip2d\", \"N\": 8, \"maximum_frequency\": 2,\n"
    "                \"kernel_size\": 5, \"in\": [\"regular\"], \"out\": [\"irrep_1\"]}  ->  {\"dim\": …, \"rank\": …}\n"
    "  optional: \"rings\", \"sigma\", \"max_frequency_per_ring\" (all three), \"dilation\"\n";

int demo(int argc, char** argv) {
  gyre::tools::DemoOptions options;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (arg == "--cases" && i + 1 < argc) {
      const long cases = std::strtol(argv[++i], nullptr, 10);
      if (cases < 1) {
        std::cerr << "gyre demo: --cases needs a positive integer\n";
        return 2;
      }
      options.cases = static_cast<std::size_t>(cases);
    } else if (arg == "--json" && i + 1 < argc) {
      options.json_path = argv[++i];
    } else {
      std::cerr << "gyre demo: unknown option " << arg << "\n" << kUsage;
      return 2;
    }
  }
  return gyre::tools::run_demo(options, std::cout, std::cerr, isatty(STDERR_FILENO) != 0);
}

int geom(int argc, char** argv) {
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--list") {
      std::cout << gyre::tools::list_spaces();
      return 0;
    }
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    }
    std::cerr << "gyre geom: unknown option " << arg << "\n" << kUsage;
    return 2;
  }
  std::ios::sync_with_stdio(false);
  gyre::tools::run_geom(std::cin, std::cout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string command = argv[1];
  try {
    if (command == "demo") return demo(argc, argv);
    if (command == "geom") return geom(argc, argv);
    if (command == "basis") {
      std::ios::sync_with_stdio(false);
      gyre::tools::run_basis(std::cin, std::cout);
      return 0;
    }
    if (command == "help" || command == "--help" || command == "-h") {
      std::cout << kUsage;
      return 0;
    }
  } catch (const std::exception& error) {
    std::cerr << "gyre " << command << ": " << error.what() << "\n";
    return 1;
  }
  std::cerr << "gyre: unknown command " << command << "\n" << kUsage;
  return 2;
}
