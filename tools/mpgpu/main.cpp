// mpgpu: the command-line tool.
//   mpgpu [--device SPEC] info [--json]
//   mpgpu [--device SPEC] bench [--quick] [--max-bits N] [--csv|--json] ...
//   mpgpu [--device SPEC] bench --workloads [--quick] ...
//   mpgpu [--device SPEC] calc [--hex|--digits|--sha256] [EXPRESSION...]
//   mpgpu [--device SPEC] pi|e [--digits|--sha256] [--output FILE] DIGITS
//   mpgpu [--device SPEC] selftest [--minutes N] [--seed S] [--replay N] [--ops LIST] [--threads T]
//                                  [--small-cases]
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "args.hpp"
#include "bench_table.hpp"
#include "calc_command.hpp"
#include "constants_command.hpp"
#include "info.hpp"
#include "mpgpu/mpgpu.hpp"
#include "selftest.hpp"

#ifndef MPGPU_VERSION_STRING
#define MPGPU_VERSION_STRING "unknown"
#endif

namespace {

using namespace mpgpu::cli;

void print_help(std::ostream& out) {
  out << "usage: mpgpu [--device SPEC] <command> [options]\n"
         "\n"
         "mpgpu " MPGPU_VERSION_STRING ": multi-precision integers on NVIDIA GPUs, with a GMP CPU backend.\n"
         "\n"
         "commands:\n"
         "  info     the backend and device: name, SMs, memory, compute capability,\n"
         "           CUDA runtime and driver, GMP version\n"
         "  bench    a table of operation x size: mpgpu against GMP, with verification\n"
         "           (--workloads: whole computations, CUDA against CPU context)\n"
         "  calc     evaluate an integer expression exactly: mpgpu calc 'fact(100) / 2^50'\n"
         "  pi, e    the constant to DIGITS digits after the point: mpgpu pi 1000000\n"
         "  selftest a soak of random operations checked against GMP, on threads sharing\n"
         "           the context, and memory pressure: mpgpu selftest --minutes 1\n"
         "  help [COMMAND]   this help, or a command's help\n"
         "\n"
         "global options:\n"
         "  --device SPEC   cpu, cuda, cuda:N or auto (default: $MPGPU_DEVICE, else auto:\n"
         "                  CUDA device 0 if one is usable, else the CPU)\n"
         "  -h, --help      this help (`mpgpu COMMAND --help` for a command's options)\n"
         "  --version       the version\n"
         "\n"
         "exit status: 0 success, 1 a benchmark row or selftest case did not match GMP\n"
         "(or a workload's contexts disagreed), 2 bad command line or calc expression,\n"
         "3 other errors (backend unavailable, CUDA errors).\n";
}

bool print_command_help(const std::string& command, std::ostream& out) {
  if (command == "info") print_info_help(out);
  else if (command == "bench") print_bench_help(out);
  else if (command == "calc") print_calc_help(out);
  else if (command == "pi") print_constant_help(Constant::pi, out);
  else if (command == "e") print_constant_help(Constant::e, out);
  else if (command == "selftest") print_selftest_help(out);
  else return false;
  return true;
}

/// The context the command runs in: --device, else MPGPU_DEVICE, else auto.
mpgpu::Context make_context(const std::optional<std::string>& device) {
  if (device) {
    try {
      return mpgpu::Context::from_string(*device);
    } catch (const mpgpu::BackendUnavailable&) {
      throw;
    } catch (const mpgpu::InvalidArgument& e) {
      throw UsageError("--device " + *device + ": " + e.what());
    }
  }
  try {
    return mpgpu::Context::default_context();
  } catch (const mpgpu::BackendUnavailable&) {
    throw;
  } catch (const mpgpu::InvalidArgument& e) {
    const char* env = std::getenv("MPGPU_DEVICE");
    throw UsageError(std::string("MPGPU_DEVICE=") + (env ? env : "") + ": " + e.what());
  }
}

int run(int argc, char** argv) {
  std::optional<std::string> device;
  std::string command;
  std::vector<std::string> rest;
  bool help = false;
  const std::vector<std::string> args(argv + 1, argv + argc);
  // Global options may come before or after the command; everything else
  // after the command belongs to it, passed on unchanged.
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--device" || a.rfind("--device=", 0) == 0) {
      if (a.size() > 8) device = a.substr(9);
      else if (i + 1 < args.size()) device = args[++i];
      else throw UsageError("--device needs a value (cpu, cuda, cuda:N or auto)");
      if (device->empty()) throw UsageError("--device needs a value (cpu, cuda, cuda:N or auto)");
    } else if (a == "--version") {
      std::cout << "mpgpu " MPGPU_VERSION_STRING "\n";
      return kExitOk;
    } else if (command.empty() && (a == "-h" || a == "--help")) {
      help = true;
    } else if (command.empty() && !a.empty() && a[0] != '-') {
      command = a;
    } else if (command.empty()) {
      throw UsageError("unknown option " + a + " before the command");
    } else {
      rest.push_back(a);
    }
  }
  if (help || command.empty()) {
    print_help(std::cout);
    return help ? kExitOk : kExitUsage;
  }
  if (command == "help") {
    if (rest.empty()) {
      print_help(std::cout);
      return kExitOk;
    }
    if (!print_command_help(rest[0], std::cout)) throw UsageError("help: unknown command \"" + rest[0] + "\"");
    return kExitOk;
  }
  if (command == "info") {
    InfoOptions opt = parse_info_options(rest);
    if (opt.help) return print_info_help(std::cout), kExitOk;
    return run_info(make_context(device), opt);
  }
  if (command == "bench") {
    BenchOptions opt = parse_bench_options(rest);
    if (opt.help) return print_bench_help(std::cout), kExitOk;
    return run_bench(make_context(device), opt);
  }
  if (command == "calc") {
    CalcOptions opt = parse_calc_options(rest);
    if (opt.help) return print_calc_help(std::cout), kExitOk;
    return run_calc(make_context(device), opt);
  }
  if (command == "pi" || command == "e") {
    const Constant c = command == "pi" ? Constant::pi : Constant::e;
    ConstantOptions opt = parse_constant_options(c, rest);
    if (opt.help) return print_constant_help(c, std::cout), kExitOk;
    return run_constant(make_context(device), opt);
  }
  if (command == "selftest") {
    SelftestOptions opt = parse_selftest_options(rest);
    if (opt.help) return print_selftest_help(std::cout), kExitOk;
    return run_selftest(make_context(device), opt);
  }
  throw UsageError("unknown command \"" + command + "\" (commands: info, bench, calc, pi, e, selftest, help)");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const UsageError& e) {
    std::cerr << "mpgpu: " << e.what() << "\n(see mpgpu --help)\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "mpgpu: error: " << e.what() << "\n";
    return kExitError;
  }
}
