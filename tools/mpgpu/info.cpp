#include "info.hpp"

#include <unistd.h>

#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

#include "args.hpp"
#include "mpgpu/tuning.hpp"
#include "output.hpp"

#ifndef MPGPU_VERSION_STRING
#define MPGPU_VERSION_STRING "unknown"
#endif

namespace mpgpu::cli {

namespace {

/// 13000 -> "13.0", 12040 -> "12.4" (CUDA's 1000 * major + 10 * minor).
std::string cuda_version(int v) {
  if (v <= 0) return "-";
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

struct HostMemory {
  std::uint64_t total = 0, available = 0;
};

HostMemory host_memory() {
  HostMemory m;
  const long page = sysconf(_SC_PAGESIZE);
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long free_pages = sysconf(_SC_AVPHYS_PAGES);
  if (page > 0 && pages > 0) m.total = std::uint64_t(page) * std::uint64_t(pages);
  if (page > 0 && free_pages > 0) m.available = std::uint64_t(page) * std::uint64_t(free_pages);
  // MemAvailable counts reclaimable caches too: closer to what a run can use.
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") m.available = kib * 1024;
  return m;
}

void row(std::ostream& out, const std::string& key, const std::string& value) {
  out << std::left << std::setw(20) << key << value << "\n";
}

/// The context's TuningParams that differ from the tuning table's defaults
/// (set by the MPGPU_* variables of a tuning run), as (name, value).
std::vector<std::pair<std::string, std::string>> tuning_overrides(const TuningParams& p) {
  const TuningParams d = TuningParams::defaults();
  std::vector<std::pair<std::string, std::string>> out;
  std::vector<std::string> table;  // the defaults, field by field
  TuningParams::for_each_field(d, [&](const char*, const char*, const auto& value) {
    table.push_back(std::to_string(value));
  });
  std::size_t i = 0;
  TuningParams::for_each_field(p, [&](const char* name, const char*, const auto& value) {
    std::string text = std::to_string(value);
    if (text != table[i++]) out.emplace_back(name, std::move(text));
  });
  return out;
}

}  // namespace

void print_info_help(std::ostream& out) {
  out << "usage: mpgpu [--device SPEC] info [--json]\n"
         "\n"
         "Prints the backend of the chosen context: for a GPU its name, multiprocessors,\n"
         "memory (total and free), compute capability, CUDA runtime and driver versions;\n"
         "and the GMP version mpgpu runs with, and the tuning table with the values the\n"
         "MPGPU_* variables of a tuning run override (docs/tuning.md).\n"
         "\n"
         "options:\n"
         "  --json      print a JSON object instead of text\n"
         "  -h, --help  this help\n";
}

InfoOptions parse_info_options(std::vector<std::string> args) {
  InfoOptions opt;
  ArgReader r(std::move(args));
  while (!r.done()) {
    const std::string a = r.next();
    if (a == "-h" || a == "--help") {
      opt.help = true;
    } else if (a == "--json") {
      r.no_value(a);
      opt.json = true;
    } else if (!a.empty() && a[0] == '-') {
      throw UsageError("info: unknown option " + a);
    } else {
      throw UsageError("info: unexpected argument \"" + a + "\"");
    }
  }
  return opt;
}

int run_info(const Context& ctx, const InfoOptions& opt) {
  const DeviceInfo d = ctx.info();
  const bool gpu = d.backend == Backend::cuda;
  const int devices = Context::cuda_device_count();
  const HostMemory host = gpu ? HostMemory{} : host_memory();
  const std::uint64_t total = gpu ? d.total_memory : host.total;
  const std::uint64_t free = gpu ? d.free_memory : host.available;
  const std::string cc = gpu ? std::to_string(d.compute_major) + "." + std::to_string(d.compute_minor) : "-";
  const auto overrides = tuning_overrides(ctx.tuning());

  if (opt.json) {
    auto str_or_null = [](const std::string& s) { return s == "-" ? std::string("null") : json_quote(s); };
    std::cout << "{\n"
              << "  \"mpgpu_version\": " << json_quote(MPGPU_VERSION_STRING) << ",\n"
              << "  \"context\": " << json_quote(ctx.describe()) << ",\n"
              << "  \"backend\": " << json_quote(gpu ? "cuda" : "cpu") << ",\n"
              << "  \"device_index\": " << d.device << ",\n"
              << "  \"name\": " << json_quote(d.name) << ",\n"
              << "  \"multiprocessors\": " << (gpu ? std::to_string(d.multiprocessors) : "null") << ",\n"
              << "  \"host_threads\": " << (gpu ? std::string("null") : std::to_string(std::thread::hardware_concurrency()))
              << ",\n"
              << "  \"compute_capability\": " << str_or_null(cc) << ",\n"
              << "  \"total_memory\": " << total << ",\n"
              << "  \"free_memory\": " << free << ",\n"
              << "  \"l2_cache\": " << (gpu ? std::to_string(d.l2_cache) : "null") << ",\n"
              << "  \"cuda_runtime\": " << str_or_null(gpu ? cuda_version(d.runtime_version) : "-") << ",\n"
              << "  \"cuda_driver\": " << str_or_null(gpu ? cuda_version(d.driver_version) : "-") << ",\n"
              << "  \"built_with_cuda\": " << (Context::built_with_cuda() ? "true" : "false") << ",\n"
              << "  \"cuda_devices\": " << devices << ",\n"
              << "  \"gmp\": " << json_quote(d.gmp_release) << ",\n"
              << "  \"tuning_table\": " << json_quote(tuning_table_name()) << ",\n"
              << "  \"tuning_overrides\": {";
    for (std::size_t i = 0; i < overrides.size(); ++i)
      std::cout << (i ? ", " : "") << json_quote(overrides[i].first) << ": " << overrides[i].second;
    std::cout << "}\n"
              << "}\n";
    return kExitOk;
  }

  std::ostream& out = std::cout;
  row(out, "mpgpu", std::string(MPGPU_VERSION_STRING) +
                        (Context::built_with_cuda() ? " (built with CUDA)" : " (built without CUDA)"));
  row(out, "context", ctx.describe());
  row(out, "backend", gpu ? "cuda" : "cpu (GMP)");
  row(out, "device", d.name);
  if (gpu) {
    row(out, "device index", std::to_string(d.device) + " of " + std::to_string(devices));
    row(out, "multiprocessors", std::to_string(d.multiprocessors));
    row(out, "compute capability", cc);
    row(out, "memory", format_bytes(total) + " total, " + format_bytes(free) + " free");
    row(out, "L2 cache", format_bytes(d.l2_cache));
    row(out, "CUDA runtime", cuda_version(d.runtime_version));
    row(out, "CUDA driver", cuda_version(d.driver_version));
  } else {
    row(out, "host threads", std::to_string(std::thread::hardware_concurrency()));
    row(out, "memory (host)", format_bytes(total) + " total, " + format_bytes(free) + " available");
    row(out, "multiprocessors", "-");
    row(out, "compute capability", "-");
    row(out, "CUDA runtime", "-");
    row(out, "CUDA driver", "-");
    std::string note = std::to_string(devices);
    if (!Context::built_with_cuda()) note += " (this build has no CUDA backend)";
    else if (devices > 0) note += " (choose one with --device cuda:N)";
    else note += " (no usable CUDA device on this machine)";
    row(out, "CUDA devices", note);
  }
  row(out, "GMP", d.gmp_release);
  std::string tuning = tuning_table_name();
  if (overrides.empty()) tuning += " (the table's values)";
  for (std::size_t i = 0; i < overrides.size(); ++i)
    tuning += (i ? ", " : "; overridden: ") + overrides[i].first + " " + overrides[i].second;
  row(out, "tuning", tuning);
  return kExitOk;
}

}  // namespace mpgpu::cli
