// gyre-kernel: a Jupyter kernel for C++17 notebooks on stock Debian (xeus + clang 14).
//   gyre-kernel -f CONNECTION_FILE [-I DIR]… [-L DIR]… [-- COMPILER_FLAG…]
// -I and -L act as #pragma cling add_include_path / add_library_path in every session; flags
// after -- go to the compiler (the kernelspec passes the instruction set libgyre was built with).

#include <iostream>
#include <memory>
#include <string>

#include <xeus/xeus_context.hpp>
#include <xeus/xkernel.hpp>
#include <xeus/xkernel_configuration.hpp>
#include <xeus/xserver_zmq.hpp>

#include "gyre_interpreter.hpp"

namespace {

int usage() {
  std::cerr << "usage: gyre-kernel -f CONNECTION_FILE [-I DIR]... [-L DIR]... [-- COMPILER_FLAG...]\n";
  return 2;
}

}  // namespace

int main(int argc, char* argv[]) {
  std::string connection_file;
  gyre::kernel::JitOptions options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") {
      for (++i; i < argc; ++i) options.compiler_flags.emplace_back(argv[i]);
    } else if ((arg == "-f" || arg == "-I" || arg == "-L") && i + 1 < argc) {
      const std::string value = argv[++i];
      if (arg == "-f") connection_file = value;
      if (arg == "-I") options.include_paths.push_back(value);
      if (arg == "-L") options.library_paths.push_back(value);
    } else {
      return usage();
    }
  }
  if (connection_file.empty()) return usage();

  xeus::xconfiguration config = xeus::load_configuration(connection_file);
  auto context = xeus::make_context<zmq::context_t>();
  auto interpreter = std::make_unique<gyre::kernel::GyreInterpreter>(std::move(options));
  xeus::xkernel kernel(config, xeus::get_user_name(), std::move(context), std::move(interpreter),
                       xeus::make_xserver_zmq);
  kernel.start();
  return 0;
}
