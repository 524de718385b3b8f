// `mpgpu selftest`: the command line, the run, and the table.
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <random>
#include <sstream>
#include <thread>

#include "args.hpp"
#include "output.hpp"
#include "selftest.hpp"
#include "selftest_case.hpp"
#include "selftest_memory.hpp"
#include "selftest_runner.hpp"

namespace mpgpu::cli {

namespace {

using selftest::all_families;
using selftest::Family;

double parse_minutes(const std::string& text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !(v > 0) || v > 100000)
    throw UsageError("--minutes: \"" + text + "\" is not a number of minutes above 0 (e.g. 0.2, 1, 30)");
  return v;
}

std::uint64_t parse_u64(const std::string& option, const std::string& text) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    throw UsageError(option + ": \"" + text + "\" is not a whole number");
  return v;
}

/// The selected families (and whether memory pressure runs) from --ops.
std::vector<bool> select_families(const std::vector<std::string>& ops, bool& memory) {
  const std::vector<Family>& families = all_families();
  std::vector<bool> selected(families.size(), ops.empty());
  memory = ops.empty();
  for (const std::string& name : ops) {
    bool known = false;
    if (name == "memory") memory = known = true;
    for (std::size_t i = 0; i < families.size(); ++i) {
      const bool all = name == "all", group = (name == "integer" && !families[i].batch) ||
                                              (name == "batch" && families[i].batch);
      if (all || group || families[i].name == name) selected[i] = known = true;
    }
    if (name == "all") memory = true;
    if (!known) {
      std::string list = "all, integer, batch, memory";
      for (const Family& f : families) list += ", " + std::string(f.name);
      throw UsageError("--ops: unknown family \"" + name + "\" (known: " + list + ")");
    }
  }
  return selected;
}

std::string device_spec(const Context& ctx) { return ctx.is_cuda() ? "cuda:" + std::to_string(ctx.device()) : "cpu"; }

std::string per_minute(double count, double seconds) {
  if (seconds <= 0) return "-";
  std::ostringstream s;
  const double v = count * 60 / seconds;
  if (v >= 1e6) s << std::setprecision(3) << v / 1e6 << "e6";
  else s << std::fixed << std::setprecision(0) << v;
  return s.str();
}

std::string percent(double part, double whole) {
  if (whole <= 0) return "";
  std::ostringstream s;
  s << std::fixed << std::setprecision(1) << 100 * part / whole << "%";
  return s.str();
}

/// The final table, Markdown-friendly. Rates per family use the wall time
/// of the whole soak: cases of a family per minute of the run. The time
/// share is the family's part of the time its cases took on their threads.
void write_table(std::ostream& out, const std::string& header, const selftest::RunResult& run, bool soak_ran,
                 const selftest::MemoryResult& memory, bool memory_selected) {
  const std::vector<Family>& families = all_families();
  out << header << "\n\n";
  out << "| family | cases | batch instances | failures | cases/min | instances/min | case time (mean) | time share |\n";
  out << "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  selftest::FamilyStats groups[2], all;  // Integer, batch; the sums
  for (std::size_t i = 0; soak_ran && i < families.size(); ++i) {
    const selftest::FamilyStats& st = run.families[i];
    for (selftest::FamilyStats* sum : {&groups[families[i].batch], &all}) {
      sum->cases += st.cases;
      sum->instances += st.instances;
      sum->failures += st.failures;
      sum->seconds += st.seconds;
    }
  }
  const auto row = [&](std::string_view name, const selftest::FamilyStats& st, bool batch) {
    out << "| " << name << " | " << st.cases << " | " << (batch ? std::to_string(st.instances) : "-") << " | "
        << st.failures << " | " << per_minute(static_cast<double>(st.cases), run.seconds) << " | "
        << (batch ? per_minute(static_cast<double>(st.instances), run.seconds) : "-") << " | "
        << (st.cases ? format_seconds(st.seconds / static_cast<double>(st.cases)) : "") << " | "
        << percent(st.seconds, all.seconds) << " |\n";
  };
  for (std::size_t i = 0; soak_ran && i < families.size(); ++i)
    if (run.families[i].cases) row(families[i].name, run.families[i], families[i].batch);
  if (soak_ran) {
    // The throughput targets are per group: Integer cases and batch
    // instances per minute.
    if (groups[0].cases) row("integer", groups[0], false);
    if (groups[1].cases) row("batch", groups[1], true);
    all.failures = run.failures;  // with a worker's failed stream
    out << "| all | " << all.cases << " | " << all.instances << " | " << all.failures << " | "
        << per_minute(static_cast<double>(all.cases), run.seconds) << " | "
        << per_minute(static_cast<double>(all.instances), run.seconds) << " | | |\n";
  }
  const std::uint64_t cases = all.cases;
  if (memory_selected) {
    out << "| memory | " << (memory.ran ? std::to_string(memory.operations) + " operations" : "skipped") << " | - | "
        << memory.failures << " | | | " << (memory.ran ? format_seconds(memory.seconds) : "") << " | |\n";
    out << "\nmemory pressure: " << memory.note;
    if (memory.ran) out << " (" << memory.rounds << " checked rounds after a first one)";
    out << "\n";
  }
  const std::uint64_t all_failures = run.failures + memory.failures;
  out << "\n";
  if (all_failures) out << "FAILED: " << all_failures << " failures (replay commands above)\n";
  else if (cases == 0 && !memory.ran) out << "nothing was checked\n";
  else out << "passed: every result matched GMP\n";
}

}  // namespace

SelftestOptions parse_selftest_options(std::vector<std::string> args) {
  SelftestOptions opt;
  opt.progress = isatty(STDERR_FILENO);
  ArgReader r(std::move(args));
  while (!r.done()) {
    const std::string a = r.next();
    if (a == "-h" || a == "--help") opt.help = true;
    else if (a == "--minutes") opt.minutes = parse_minutes(r.value(a));
    else if (a == "--seed") opt.seed = parse_u64(a, r.value(a));
    else if (a == "--replay") opt.replay = parse_u64(a, r.value(a));
    else if (a == "--ops") opt.ops = split_list(a, r.value(a));
    else if (a == "--threads") opt.threads = static_cast<unsigned>(parse_count(a, r.value(a), 1024));
    else if (a == "--output") opt.output = r.value(a);
    else if (a == "--small-cases") r.no_value(a), opt.small_cases = true;
    else if (a == "--progress") r.no_value(a), opt.progress = true;
    else if (a == "--no-progress") r.no_value(a), opt.progress = false;
    else if (!a.empty() && a[0] == '-') throw UsageError("selftest: unknown option " + a);
    else throw UsageError("selftest: unexpected argument \"" + a + "\"");
  }
  bool memory = false;
  (void)select_families(opt.ops, memory);  // unknown names are usage errors now
  if (opt.replay && !opt.seed) throw UsageError("--replay needs the --seed of the run that printed the case");
  return opt;
}

void print_selftest_help(std::ostream& out) {
  out << "usage: mpgpu [--device SPEC] selftest [--minutes N] [--seed S] [--replay N]\n"
         "                                      [--ops LIST] [--threads T] [--output FILE]\n"
         "\n"
         "A differential soak against GMP: random operations of every kind (sizes at and around\n"
         "every crossover, carry-heavy values, both signs, aliasing), on T host threads sharing\n"
         "the context (on a CUDA context half of them with streams of their own), each result\n"
         "checked against GMP on the host; then, on a CUDA context, operations that cannot fit\n"
         "device memory (OutOfMemory, nothing leaks, the context still works). Each family gets a\n"
         "share of the workers' time: the batch families 90% on a CUDA context and 50% on the CPU\n"
         "context, the Integer families the rest. docs/selftest.md.\n"
         "\n"
         "options:\n"
         "  --minutes N     how long the soak runs (default 1; fractions allowed: 0.2)\n"
         "  --seed S        the run's seed (default: a random one, printed)\n"
         "  --replay N      run case N of seed S alone and print it (needs --seed)\n"
         "  --ops LIST      comma list of families: all, integer, batch, memory, or names:\n";
  const std::string indent(17, ' ');
  std::string line = indent;
  for (const Family& f : all_families()) {
    if (line.size() + f.name.size() > 90) {
      out << line << "\n";
      line = indent;
    }
    line.append(" ").append(f.name);
  }
  out << line << "\n"
      << "  --threads T     host threads running cases (default: one per core)\n"
         "  --small-cases   batch cases of the CPU context's sizes on any context (for runs\n"
         "                  under compute-sanitizer); a replay needs it too\n"
         "  --output FILE   also write the final table to FILE\n"
         "  --progress      a progress line on stderr (the default on a terminal: one line\n"
         "                  rewritten each second; elsewhere a line each 10 s)\n"
         "  --no-progress   no progress line\n"
         "\n"
         "exit status: 0 every result matched, 1 some case failed (each failure prints its\n"
         "operation, operands, seed and case number, and the command that replays it).\n";
}

int run_selftest(const Context& ctx, const SelftestOptions& opt) {
  bool memory_selected = false;
  selftest::RunSettings s;
  s.selected = select_families(opt.ops, memory_selected);
  s.seed = opt.seed ? *opt.seed : std::random_device{}() * std::uint64_t{0x100000000} + std::random_device{}();
  s.minutes = opt.minutes;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  s.threads = opt.threads ? opt.threads : cores;
  s.oracle_threads = std::max(1u, cores / s.threads);
  s.progress = opt.progress;
  // The workers' time between the groups. On a GPU a batch case takes
  // 0.1-1 s of its thread and an Integer case 0.3-54 ms. With 20% of the
  // time the Integer families ran about 4x their target (10^4 cases a
  // minute) while the batches fell short of theirs (10^8 instances): 90%
  // for the batches still leaves the Integer families twice their target.
  // On the CPU context both groups run GMP against GMP, so they get half each.
  s.batch_share = ctx.is_cuda() ? 0.9 : 0.5;
  // A batch case's GMP work, in limb operations: a few milliseconds of a
  // host core on a GPU, well under one on the CPU context, where the
  // library does the same work again.
  const bool large = ctx.is_cuda() && !opt.small_cases;
  s.batch_budget = large ? double(1 << 24) * s.oracle_threads : double(1 << 17);
  s.batch_max_bits = large ? Batch::max_bits : 1 << 14;
  s.replay_prefix = "mpgpu --device " + device_spec(ctx) + " selftest --seed " + std::to_string(s.seed) +
                    (opt.small_cases ? " --small-cases" : "");
  if (opt.replay) return selftest::run_replay(ctx, s, *opt.replay, std::cout) ? kExitOk : kExitNotVerified;

  const DeviceInfo info = ctx.info();
  std::ostringstream header;
  header << "mpgpu selftest on " << ctx.describe() << " (GMP " << info.gmp_release << "), seed " << s.seed << ", "
         << s.threads << (s.threads == 1 ? " thread" : " threads");
  const bool soak = std::find(s.selected.begin(), s.selected.end(), true) != s.selected.end();
  selftest::RunResult run;
  if (soak) {
    std::cout << "mpgpu selftest: " << opt.minutes << " minutes on " << ctx.describe() << ", seed " << s.seed << ", "
              << s.threads << " threads\n"
              << std::flush;
    run = selftest::run_soak(ctx, s, std::cout);
    header << (run.stream_threads ? " (" + std::to_string(run.stream_threads) + " with their own streams)" : "")
           << ", " << format_seconds(run.seconds);
    bool group[2] = {false, false};
    for (std::size_t i = 0; i < s.selected.size(); ++i) group[all_families()[i].batch] |= s.selected[i];
    if (group[0] && group[1])
      header << "; the workers' time asked for: " << std::lround(100 * (1 - s.batch_share)) << "% Integer families, "
             << std::lround(100 * s.batch_share) << "% batch families";
  }
  selftest::MemoryResult memory;
  if (memory_selected) {
    const unsigned rounds = static_cast<unsigned>(std::clamp(std::floor(opt.minutes), 2.0, 20.0));
    memory = selftest::run_memory_pressure(ctx, rounds, std::cout);
  }
  write_table(std::cout, header.str(), run, soak, memory, memory_selected);
  if (!opt.output.empty()) {
    std::ofstream file(opt.output);
    if (!file) throw std::runtime_error("selftest: cannot write " + opt.output);
    write_table(file, header.str(), run, soak, memory, memory_selected);
  }
  return run.failures + memory.failures ? kExitNotVerified : kExitOk;
}

}  // namespace mpgpu::cli
