// The gyre command: subcommand dispatch.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "basis_command.hpp"
#include "check_command.hpp"
#include "demo_command.hpp"
#include "geom_command.hpp"
#include "layer_command.hpp"
#include "manifold_demo_command.hpp"
#include "selfcheck_command.hpp"
#include "symmetry_demo_command.hpp"

namespace {

constexpr const char* kUsage =
    "usage: gyre <command> [options]\n"
    "\n"
    "commands:\n"
    "  demo [--full] [--train N] [--test N] [--epochs E] [--out DIR]\n"
    "                                   train a C8-steerable and a plain CNN on rotated Fashion-MNIST\n"
    "  demo spd|grassmann [--train N] [--test N] [--epochs E] [--out DIR] [--seed S]\n"
    "                     [--norm NAME | --compare [--seeds K]]\n"
    "                                   train an SPDNet on region covariances or a GrNet on image subspaces;\n"
    "                                   --norm adds a batch norm (spd: none, spdnet_bn, liebn_lem, liebn_lcm,\n"
    "                                   liebn_aim, liebn_aim_deformed, gyrobn, gbw_rbn; grassmann: none,\n"
    "                                   gyrobn, rbn), --compare trains them all with K seeds (default 3)\n"
    "  demo symmetry [--full] [--train N] [--test N] [--epochs E] [--nbody-train N] [--nbody-epochs E]\n"
    "                [--out DIR]\n"
    "                                   group downsampling (anti-aliased vs naive), canonicalization and\n"
    "                                   frame averaging, each against its plain network, on rotated\n"
    "                                   Fashion-MNIST and a charged n-body system\n"
    "  selfcheck [--cases N] [--json PATH]  every geometry's law residuals on seeded cases\n"
    "  geom [--list]                    JSON-lines calculator: one request per stdin line, one reply per line\n"
    "  basis                            JSON-lines: dimension and rank of steerable kernel bases\n"
    "  layer                            JSON-lines: one layer's forward (and backward) per request\n"
    "  check NETWORK.json               equivariance errors of a described network, per group element\n"
    "  help                             this text\n"
    "\n"
    "geom request: {\"space\": NAME, \"params\": {...}, \"op\": OP, \"args\": [...]}\n"
    "  ops: exp log transport inner norm dist project retract egrad_to_rgrad check_point mean\n"
    "       identity compose inverse act algebra_exp algebra_log (groups)\n"
    "  `gyre geom --list` prints the spaces and their parameters.\n"
    "\n"
    "layer request: {\"layer\": \"liebn\"|\"reeig\"|\"logeig\"|\"bimap\", \"space\": \"spd\"|\"so\",\n"
    "                \"params\": {\"n\": 3, \"metric\": \"AIM\", \"theta\": 1}, \"mode\": \"train\",\n"
    "                \"input\": [points], \"grad_output\": [points]}  (README: every field)\n"
    "               {\"layer\": \"group_downsample\", \"group\": \"cn\"|\"dn\", \"N\": 8, \"rate\": 2,\n"
    "                \"subgroup\": \"same\"|\"rotations\", \"input\": [|G| values]}\n"
    "               {\"layer\": \"frame\", \"group\": \"o\"|\"so\"|\"e\"|\"se\", \"n\": 3, \"input\": [points]}\n"
    "               {\"layer\": \"canonicalize\", \"group\": \"so2\"|\"lorentz\", \"input\": image or momenta}\n"
    "\n"
    "basis request: {\"gspace\": \"rot2d\"|\"fliprot2d\"|\"flip2d\", \"N\": 8, \"maximum_frequency\": 2,\n"
    "                \"kernel_size\": 5, \"in\": [\"regular\"], \"out\": [\"irrep_1\"]}  ->  {\"dim\": …, \"rank\": "
    "…}\n"
    "  optional: \"rings\", \"sigma\", \"max_frequency_per_ring\" (all three), \"dilation\"\n";

int selfcheck(int argc, char** argv) {
  gyre::tools::SelfcheckOptions options;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (arg == "--cases" && i + 1 < argc) {
      const long cases = std::strtol(argv[++i], nullptr, 10);
      if (cases < 1) {
        std::cerr << "gyre selfcheck: --cases needs a positive integer\n";
        return 2;
      }
      options.cases = static_cast<std::size_t>(cases);
    } else if (arg == "--json" && i + 1 < argc) {
      options.json_path = argv[++i];
    } else {
      std::cerr << "gyre selfcheck: unknown option " << arg << "\n" << kUsage;
      return 2;
    }
  }
  return gyre::tools::run_selfcheck(options, std::cout, std::cerr, isatty(STDERR_FILENO) != 0);
}

int manifold_demo(gyre::tools::ManifoldDemo which, int argc, char** argv) {
  gyre::tools::ManifoldDemoOptions options;
  for (int i = 3; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto positive = [&](const char* what) {
      const long v = i + 1 < argc ? std::strtol(argv[++i], nullptr, 10) : 0;
      if (v < 1)
        throw std::invalid_argument(std::string(what) + " needs a positive integer");  // main prefixes "gyre demo: "
      return v;
    };
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (arg == "--train") {
      options.train_images = static_cast<std::size_t>(positive("--train"));
    } else if (arg == "--test") {
      options.test_images = static_cast<std::size_t>(positive("--test"));
    } else if (arg == "--epochs") {
      options.epochs = static_cast<int>(positive("--epochs"));
    } else if (arg == "--out" && i + 1 < argc) {
      options.out_dir = argv[++i];
    } else if (arg == "--seed") {
      options.seed = static_cast<std::uint64_t>(positive("--seed"));
    } else if (arg == "--seeds") {
      options.seeds = static_cast<int>(positive("--seeds"));
    } else if (arg == "--compare") {
      options.compare = true;
    } else if (arg == "--norm" && i + 1 < argc) {
      options.norm = argv[++i];
    } else {
      std::cerr << "gyre demo: unknown option " << arg << "\n" << kUsage;
      return 2;
    }
  }
  if (options.compare && options.norm != "none") {
    std::cerr << "gyre demo: --compare trains every normalization; leave out --norm\n";
    return 2;
  }
  return gyre::tools::run_manifold_demo(which, options, std::cout, std::cerr, isatty(STDERR_FILENO) != 0);
}

// The options of `gyre demo` and `gyre demo symmetry`, from argv[first…]: `--full` (Options::full(),
// applied before the others), `--help`, `--out DIR`, and the positive integers in `numbers`.
// Returns −1 to go on, or the exit code: 0 after --help, 2 for an unknown option.
using NumberOptions = std::vector<std::pair<std::string, std::function<void(long)>>>;

template <class Options>
int parse_demo_options(int argc, char** argv, int first, const std::string& command, Options& options,
                       const NumberOptions& numbers) {
  for (int i = first; i < argc; ++i) {
    if (std::string(argv[i]) == "--full") options = Options::full();
  }
  for (int i = first; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--full") continue;
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (arg == "--out" && i + 1 < argc) {
      options.out_dir = argv[++i];
      continue;
    }
    const auto number = std::find_if(numbers.begin(), numbers.end(), [&](const auto& n) { return n.first == arg; });
    if (number == numbers.end()) {
      std::cerr << command << ": unknown option " << arg << "\n" << kUsage;
      return 2;
    }
    const long v = i + 1 < argc ? std::strtol(argv[++i], nullptr, 10) : 0;
    if (v < 1) throw std::invalid_argument(arg + " needs a positive integer");  // main prefixes "gyre demo: "
    number->second(v);
  }
  return -1;
}

int symmetry_demo(int argc, char** argv) {
  gyre::tools::SymmetryDemoOptions options;
  const int code =
      parse_demo_options(argc, argv, 3, "gyre demo symmetry", options,
                         {{"--train", [&](long v) { options.train_images = static_cast<std::size_t>(v); }},
                          {"--test", [&](long v) { options.test_images = static_cast<std::size_t>(v); }},
                          {"--epochs", [&](long v) { options.epochs = static_cast<int>(v); }},
                          {"--angle-step", [&](long v) { options.angle_step_degrees = static_cast<int>(v); }},
                          {"--nbody-train", [&](long v) { options.nbody_train = static_cast<std::size_t>(v); }},
                          {"--nbody-test", [&](long v) { options.nbody_test = static_cast<std::size_t>(v); }},
                          {"--nbody-epochs", [&](long v) { options.nbody_epochs = static_cast<int>(v); }}});
  if (code >= 0) return code;
  return gyre::tools::run_symmetry_demo(options, std::cout, std::cerr, isatty(STDERR_FILENO) != 0);
}

int demo(int argc, char** argv) {
  if (argc > 2 && std::string(argv[2]) == "symmetry") return symmetry_demo(argc, argv);
  if (argc > 2 && std::string(argv[2]) == "spd") return manifold_demo(gyre::tools::ManifoldDemo::kSpd, argc, argv);
  if (argc > 2 && std::string(argv[2]) == "grassmann")
    return manifold_demo(gyre::tools::ManifoldDemo::kGrassmann, argc, argv);
  gyre::tools::DemoOptions options;
  const int code =
      parse_demo_options(argc, argv, 2, "gyre demo", options,
                         {{"--train", [&](long v) { options.train_images = static_cast<std::size_t>(v); }},
                          {"--test", [&](long v) { options.test_images = static_cast<std::size_t>(v); }},
                          {"--epochs", [&](long v) { options.epochs = static_cast<int>(v); }},
                          {"--angle-step", [&](long v) { options.angle_step_degrees = static_cast<int>(v); }}});
  if (code >= 0) return code;
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
    if (command == "selfcheck") return selfcheck(argc, argv);
    if (command == "check") {
      if (argc != 3) {
        std::cerr << "gyre check: needs one network description (JSON file, or - for stdin)\n" << kUsage;
        return 2;
      }
      if (std::string(argv[2]) == "-") return gyre::tools::run_check(std::cin, std::cout);
      std::ifstream file(argv[2]);
      if (!file) {
        std::cerr << "gyre check: cannot open " << argv[2] << "\n";
        return 2;
      }
      return gyre::tools::run_check(file, std::cout);
    }
    if (command == "geom") return geom(argc, argv);
    if (command == "layer") {
      std::ios::sync_with_stdio(false);
      gyre::tools::run_layer(std::cin, std::cout);
      return 0;
    }
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
