#include "selftest_runner.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include <unistd.h>

#include "selftest_case.hpp"
#include "selftest_schedule.hpp"

namespace mpgpu::cli::selftest {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::uint64_t kPrintedFailures = 20;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

/// Whether case n goes to its worker's own stream (when the worker has
/// one): a quarter of the cases, from a generator of its own.
bool case_wants_stream(std::uint64_t seed, std::uint64_t n) {
  CaseRng pick(seed ^ 0xC2B2AE3D27D4EB4Full, n);
  return pick.below(4) == 0;
}

const char* error_kind(const std::exception& e) {
  if (dynamic_cast<const OutOfMemory*>(&e)) return "OutOfMemory";
  if (dynamic_cast<const CudaError*>(&e)) return "CudaError";
  if (dynamic_cast<const ParseError*>(&e)) return "ParseError";
  if (dynamic_cast<const DivisionByZero*>(&e)) return "DivisionByZero";
  if (dynamic_cast<const InvalidArgument*>(&e)) return "InvalidArgument";
  if (dynamic_cast<const Overflow*>(&e)) return "Overflow";
  if (dynamic_cast<const Error*>(&e)) return "mpgpu::Error";
  return "std::exception";
}

struct CaseRun {
  CaseOutcome outcome;
  double seconds = 0;
  bool on_stream = false;
};

CaseRun run_case(const Context& ctx, const RunSettings& s, const Family& family, std::uint64_t n,
                 const Context* stream_owner) {
  CaseRun run;
  CaseRng rng(s.seed, n);
  CaseEnv env{ctx, rng};
  run.on_stream = stream_owner && case_wants_stream(s.seed, n);
  if (run.on_stream) {
    env.stream = stream_owner->stream();
    env.stream_owner = stream_owner;
  }
  env.oracle_threads = s.oracle_threads;
  env.batch_budget = s.batch_budget;
  env.batch_max_bits = s.batch_max_bits;
  const Clock::time_point start = Clock::now();
  try {
    family.run(env, run.outcome);
    env.sync_stream();
  } catch (const std::exception& e) {
    run.outcome.fail(std::string("threw ") + error_kind(e) + ": " + e.what());
  }
  run.seconds = seconds_since(start);
  return run;
}

void print_failure(std::ostream& out, const RunSettings& s, const Family& family, std::uint64_t n, const CaseRun& run) {
  std::ostringstream text;
  text << "FAIL case " << n << " (" << family.name << "): " << run.outcome.op
       << (run.on_stream ? " [on a worker's own stream]" : "") << "\n";
  if (!run.outcome.sizes.empty()) text << "  operands: " << run.outcome.sizes << "\n";
  for (const std::string& f : run.outcome.failures) text << "  " << f << "\n";
  text << "  replay: " << s.replay_prefix << " --replay " << n << "\n";
  out << text.str() << std::flush;
}

/// The progress line: cases, rate, batch instances, failures, time.
std::string progress_line(std::uint64_t cases, std::uint64_t instances, std::uint64_t failures, double elapsed,
                          double total) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(0) << "mpgpu selftest: " << cases << " cases ("
    << (elapsed > 0 ? static_cast<double>(cases) / elapsed : 0) << "/s), " << std::setprecision(3)
    << static_cast<double>(instances) << " batch instances, " << failures << " failures, " << std::setprecision(0)
    << elapsed << " of " << total << " s";
  return s.str();
}

}  // namespace

RunResult run_soak(const Context& ctx, const RunSettings& s, std::ostream& out) {
  const std::vector<Family>& families = all_families();
  RunResult result;
  result.families.assign(families.size(), {});
  TimeShareScheduler scheduler(time_shares(s.selected, s.batch_share), s.threads);
  std::atomic<std::uint64_t> cases{0}, instances{0}, failures{0};
  std::mutex merge_mutex, print_mutex;
  const Clock::time_point start = Clock::now();
  const auto deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(60 * s.minutes));
  std::vector<std::thread> workers;
  for (unsigned k = 0; k < s.threads; ++k) {
    // On a CUDA context the odd-numbered workers own a stream: that of a
    // second Context on the same device (its own stream and read-back slots).
    const bool own_stream = ctx.is_cuda() && k % 2 == 1;
    if (own_stream) ++result.stream_threads;
    workers.emplace_back([&, k, own_stream] {
      std::vector<FamilyStats> local(families.size());
      std::optional<Context> stream_owner;
      try {
        if (own_stream) stream_owner = Context::cuda(ctx.device());
      } catch (const std::exception& e) {  // counted as a failure; the worker runs without its stream
        failures.fetch_add(1);
        std::lock_guard<std::mutex> lock(print_mutex);
        out << "FAIL a worker's stream: Context::cuda threw " << error_kind(e) << ": " << e.what() << "\n";
      }
      while (Clock::now() < deadline) {
        const auto [index, n] = scheduler.claim(k);
        const Family& family = families[index];
        const CaseRun run = run_case(ctx, s, family, n, stream_owner ? &*stream_owner : nullptr);
        scheduler.finish(k, run.seconds);
        FamilyStats& st = local[index];
        ++st.cases;
        st.instances += run.outcome.instances;
        st.seconds += run.seconds;
        cases.fetch_add(1, std::memory_order_relaxed);
        instances.fetch_add(run.outcome.instances, std::memory_order_relaxed);
        if (!run.outcome.passed()) {
          ++st.failures;
          if (failures.fetch_add(1) < kPrintedFailures) {
            std::lock_guard<std::mutex> lock(print_mutex);
            print_failure(out, s, family, n, run);
          }
        }
      }
      std::lock_guard<std::mutex> lock(merge_mutex);
      for (std::size_t i = 0; i < local.size(); ++i) {
        result.families[i].cases += local[i].cases;
        result.families[i].instances += local[i].instances;
        result.families[i].failures += local[i].failures;
        result.families[i].seconds += local[i].seconds;
      }
    });
  }
  // The calling thread reports progress while the workers run: on a
  // terminal one line rewritten each second, elsewhere a line each 10 s.
  const bool terminal = s.progress && isatty(STDERR_FILENO);
  double last = 0;
  while (Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const double elapsed = seconds_since(start);
    if (!s.progress || elapsed - last < (terminal ? 1.0 : 10.0)) continue;
    last = elapsed;
    const std::string line = progress_line(cases, instances, failures, elapsed, 60 * s.minutes);
    std::lock_guard<std::mutex> lock(print_mutex);
    std::cerr << (terminal ? "\r" + line : line + "\n") << std::flush;
  }
  for (std::thread& t : workers) t.join();
  if (terminal) std::cerr << "\r" << std::string(100, ' ') << "\r" << std::flush;
  result.failures = failures;
  result.seconds = seconds_since(start);
  return result;
}

bool run_replay(const Context& ctx, const RunSettings& s, std::uint64_t n, std::ostream& out) {
  const Family& family = family_of_case(n);
  std::optional<Context> stream_owner;
  if (ctx.is_cuda() && case_wants_stream(s.seed, n)) stream_owner = Context::cuda(ctx.device());
  const CaseRun run = run_case(ctx, s, family, n, stream_owner ? &*stream_owner : nullptr);
  out << "case " << n << " of seed " << s.seed << " (" << family.name << "): " << run.outcome.op
      << (run.on_stream ? " [on a stream of its own]" : "") << "\n";
  if (!run.outcome.sizes.empty()) out << "  operands: " << run.outcome.sizes << "\n";
  if (run.outcome.instances) out << "  " << run.outcome.instances << " batch instances\n";
  if (run.outcome.passed()) {
    out << "  passed (" << std::setprecision(3) << run.seconds << " s)\n";
    return true;
  }
  for (const std::string& f : run.outcome.failures) out << "  FAIL " << f << "\n";
  return false;
}

}  // namespace mpgpu::cli::selftest
