#include "bench_table.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <vector>

#include "args.hpp"
#include "bench_batch.hpp"
#include "bench_ops.hpp"
#include "bench_workloads.hpp"
#include "mpgpu/mpgpu.hpp"
#include "output.hpp"

namespace mpgpu::cli {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// One side of a row's measurement: warm-up calls (the last sizes the
/// run), then timed samples. A sample is `burst` back-to-back calls with
/// `sync` (waiting for queued device work) before the first and after the
/// last, divided by `burst`. For the device, bursts measure the cost of a
/// call in a stream of calls, which is what an application that chains
/// operations pays: operations that return before their kernels finish
/// (integer.hpp, "Streams") then overlap their launch with the previous
/// call's kernels. The burst is sized from the last warm-up call to about
/// `kBurstTarget` (at most kMaxBurst calls): the synchronization before and
/// after a burst (a driver call of a few microseconds, even with nothing
/// queued) and the clock reads are not a call's cost, and a short burst of
/// sub-microsecond calls would leave them in each call's time. GMP's calls
/// are timed the same way (with nothing to synchronize), so that neither
/// column carries the clock's cost.
class Sampler {
 public:
  Sampler(std::function<void()> call, std::function<void()> sync, bool bursts)
      : call_(std::move(call)), sync_(std::move(sync)), bursts_(bursts) {}

  /// The warm-up; sets the samples to take from the policy.
  void warm_up(const RepPolicy& policy) {
    constexpr double kBurstTarget = 2e-3;
    constexpr double kMaxBurst = 4096;
    // Device: two warm-up calls (the first may load kernels and fill pools,
    // so the second sizes the run); host: one.
    if (bursts_) {
      sync_();
      call_();
    }
    sync_();
    const auto t0 = Clock::now();
    call_();
    sync_();
    const double warm = seconds_since(t0);
    reps_ = policy.max_reps;
    if (warm > 0 && policy.target_s > 0) {
      const double fit = std::ceil(policy.target_s / warm);
      reps_ = static_cast<int>(std::clamp(fit, double(policy.min_reps), double(policy.max_reps)));
    }
    if (bursts_ && warm > 0) burst_ = static_cast<int>(std::clamp(std::ceil(kBurstTarget / warm), 1.0, kMaxBurst));
  }
  bool wants_more() const { return static_cast<int>(times_.size()) < reps_; }
  void sample() {
    sync_();
    const auto t0 = Clock::now();
    for (int i = 0; i < burst_; ++i) call_();
    sync_();
    times_.push_back(seconds_since(t0) / burst_);
  }
  Measurement result() {
    std::sort(times_.begin(), times_.end());
    const std::size_t n = times_.size();
    Measurement m;
    if (!n) return m;
    m.median_s = n % 2 ? times_[n / 2] : (times_[n / 2 - 1] + times_[n / 2]) / 2;
    m.reps = static_cast<int>(n);
    m.burst = burst_;
    return m;
  }

 private:
  std::function<void()> call_, sync_;
  bool bursts_;
  int reps_ = 0, burst_ = 1;
  std::vector<double> times_;
};

Measurement measure(std::function<void()> call, std::function<void()> sync, const RepPolicy& policy, bool bursts) {
  Sampler side(std::move(call), std::move(sync), bursts);
  side.warm_up(policy);
  while (side.wants_more()) side.sample();
  return side.result();
}

RepPolicy policy_for(const BenchOptions& opt) {
  if (opt.reps) return {*opt.reps, *opt.reps, 0};
  // Full: up to 21 calls or ~0.25 s per measurement; at 2^30 bits a GMP add
  // takes ~15 ms, so the big rows run the minimum of 3 timed calls.
  if (!opt.quick) return {3, 21, 0.25};
  return {3, 7, 0.05};
}

/// Error messages go into one table cell: one line.
std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

void progress_line(const BenchRow& row, std::size_t index, std::size_t total) {
  std::cerr << "[" << index << "/" << total << "] " << row.op << " " << format_size(row) << ": ";
  if (row.mpgpu.reps) std::cerr << "mpgpu " << format_seconds(row.mpgpu.median_s) << ", ";
  if (row.gmp.reps) std::cerr << "GMP " << format_seconds(row.gmp.median_s) << ", ";
  if (!row.gmp_run) std::cerr << "GMP not run, checked " << row.check << ", ";
  std::cerr << (row.verified ? "verified" : "NOT VERIFIED");
  if (!row.error.empty()) std::cerr << " (" << row.error << ")";
  std::cerr << std::endl;
}

/// The operations a run measures, in order: --ops, else all.
std::vector<const OpInfo*> selected_ops(const BenchOptions& opt) {
  std::vector<const OpInfo*> ops;
  if (opt.ops.empty())
    for (const OpInfo& op : all_ops()) ops.push_back(&op);
  else
    for (const std::string& name : opt.ops) ops.push_back(find_op(name));
  return ops;
}

/// Fills `row` from one case: the mpgpu call timed with the context's stream
/// synchronized around it and the GMP call, their samples taken in turn
/// (mpgpu, GMP, mpgpu, ...) so that a drift of the host's clock or caches
/// over the row touches both columns alike; then the comparison. Never
/// throws.
void measure_row(BenchRow& row, const std::function<std::unique_ptr<OpCase>()>& make, const Context& ctx,
                 const RepPolicy& policy) {
  auto sync = [&ctx] { ctx.synchronize(); };
  auto no_sync = [] {};
  std::unique_ptr<OpCase> c;
  std::optional<Sampler> ours, theirs;
  try {
    c = make();
    ours.emplace([&] { c->run_mpgpu(); }, sync, true);
    ours->warm_up(policy);
  } catch (const std::exception& e) {
    row.error = one_line(std::string("mpgpu: ") + e.what());
    ours.reset();
  }
  if (!c) return;
  row.gmp_run = c->runs_gmp();
  row.check = c->check();
  try {
    if (row.gmp_run) {
      theirs.emplace([&] { c->run_gmp(); }, no_sync, true);
      theirs->warm_up(policy);
    }
  } catch (const std::exception& e) {
    row.error = one_line(std::string("GMP: ") + e.what());
    theirs.reset();
  }
  const char* side = "mpgpu";
  try {
    while ((ours && ours->wants_more()) || (theirs && theirs->wants_more())) {
      side = "mpgpu";
      if (ours && ours->wants_more()) ours->sample();
      side = "GMP";
      if (theirs && theirs->wants_more()) theirs->sample();
    }
    if (ours) row.mpgpu = ours->result();
    if (theirs) row.gmp = theirs->result();
    side = "mpgpu with transfers";
    if (ours && c->has_transfers()) row.with_transfers = measure([&] { c->run_with_transfers(); }, sync, policy, false);
    side = "verification";
    if (ours) {
      row.verified = c->verify();
      if (!row.verified) row.error = row.gmp_run ? "result differs from GMP's" : "result fails the check " + row.check;
    }
  } catch (const std::exception& e) {
    if (row.error.empty()) row.error = one_line(std::string(side) + ": " + e.what());
    if (side == std::string("mpgpu")) row.mpgpu = {};
  }
}

/// Keeps the device busy for about `seconds` before the first timed row. A
/// GPU that has idled (a fresh process spends a while creating its context)
/// runs at a low clock for its first milliseconds of work, so the first rows
/// of a table of microsecond calls would read slow.
void warm_device(const Context& ctx, double seconds) {
  if (!ctx.is_cuda()) return;
  const Integer a = Integer::all_ones(std::size_t{1} << 26, ctx), b = Integer::power_of_two(1, ctx);
  Integer r;
  const auto t0 = Clock::now();
  do {
    for (int i = 0; i < 16; ++i) add(r, a, b);
    ctx.synchronize();
  } while (seconds_since(t0) < seconds);
}

}  // namespace

double BenchRow::speedup() const {
  if (!mpgpu.reps || !gmp.reps || mpgpu.median_s <= 0) return 0;
  return gmp.median_s / mpgpu.median_s;
}

double BenchRow::gbps() const {
  if (!mpgpu.reps || bytes <= 0 || mpgpu.median_s <= 0) return 0;
  return bytes / mpgpu.median_s / 1e9;
}

bool BenchReport::all_verified() const {
  return std::all_of(rows.begin(), rows.end(), [](const BenchRow& r) { return r.verified; });
}

std::vector<std::uint64_t> bench_sizes(const BenchOptions& opt) {
  std::vector<std::uint64_t> sizes = opt.bits;
  if (sizes.empty()) {
    if (opt.quick) sizes = {1u << 16, 1u << 20, 1u << 24};
    else
      for (int e = 16; e <= 30; e += 2) sizes.push_back(std::uint64_t{1} << e);
  }
  std::erase_if(sizes, [&](std::uint64_t b) { return b > opt.max_bits; });
  return sizes;
}

BenchReport run_bench_table(const Context& ctx, const BenchOptions& opt) {
  const auto start = Clock::now();
  BenchReport report;
  report.context = ctx.describe();
  const DeviceInfo info = ctx.info();
  report.device_name = info.name;
  report.gmp_release = info.gmp_release;
  report.date = utc_now();
  report.quick = opt.quick;
  report.policy = policy_for(opt);

  const std::vector<const OpInfo*> ops = selected_ops(opt);
  const std::vector<std::uint64_t> sizes = bench_sizes(opt);
  const bool default_ops = opt.ops.empty();
  auto included = [default_ops](const OpInfo* op, std::uint64_t bits) {
    return !op->batch && (!default_ops || op->default_max_bits == 0 || bits <= op->default_max_bits);
  };
  const bool cpu_context = !ctx.is_cuda();
  const std::vector<BatchShape> batch_rows = plan_batch_rows(ops, opt, cpu_context);
  std::size_t total = batch_rows.size();
  for (std::uint64_t bits : sizes)
    for (const OpInfo* op : ops) total += included(op, bits);
  auto add_row = [&](BenchRow row) {
    report.rows.push_back(std::move(row));
    if (opt.progress) progress_line(report.rows.back(), report.rows.size(), total);
  };

  warm_device(ctx, 0.3);

  // Integer rows: size by size, every operation on one workload.
  for (std::uint64_t bits : sizes) {
    if (std::none_of(ops.begin(), ops.end(), [&](const OpInfo* op) { return included(op, bits); })) continue;
    std::unique_ptr<Workload> work;
    std::string setup_error;
    try {
      work = std::make_unique<Workload>(ctx, bits, opt.seed);
    } catch (const std::exception& e) {
      setup_error = one_line(std::string("making the operands failed: ") + e.what());
    }
    for (const OpInfo* op : ops) {
      if (!included(op, bits)) continue;
      BenchRow row;
      row.op = std::string(op->name);
      row.bits = bits;
      row.bytes = op->bytes_per_bit * static_cast<double>(bits);
      row.error = setup_error;
      if (work) {
        measure_row(row, [&] { return make_case(op->name, *work, opt.gmp_max_bits); }, ctx, report.policy);
        if (op->name == "sum") work->drop_terms();
      }
      add_row(std::move(row));
    }
  }

  // Batch rows: consecutive rows of one shape share their operands.
  std::unique_ptr<BatchWorkload> batch_work;
  for (const BatchShape& shape : batch_rows) {
    BenchRow row;
    row.op = std::string(shape.op->name);
    row.bits = shape.bits;
    row.instances = shape.count;
    row.bytes = shape.op->bytes_per_bit * static_cast<double>(shape.bits) * static_cast<double>(shape.count);
    if (!batch_work || batch_work->bits() != shape.bits || batch_work->count() != shape.count) {
      batch_work.reset();  // the old operands go before the new ones are made
      try {
        batch_work = std::make_unique<BatchWorkload>(ctx, shape.bits, shape.count, opt.seed);
      } catch (const std::exception& e) {
        row.error = one_line(std::string("making the operands failed: ") + e.what());
      }
    }
    if (batch_work) measure_row(row, [&] { return make_batch_case(shape.op->name, *batch_work); }, ctx, report.policy);
    add_row(std::move(row));
  }
  if (!batch_rows.empty()) report.notes = batch_notes(cpu_context);

  report.total_s = seconds_since(start);
  return report;
}

int run_bench(const Context& ctx, const BenchOptions& opt) {
  if (opt.workloads) return run_workloads(ctx, opt);
  if (opt.progress)
    std::cerr << "mpgpu bench: " << ctx.describe() << ", " << bench_sizes(opt).size() << " sizes"
              << std::endl;
  const BenchReport report = run_bench_table(ctx, opt);
  write_report(std::cout, report, opt.format);
  std::cout.flush();

  auto save = [&report](const std::string& path, Format format) {
    if (path.empty()) return true;
    std::ofstream file(path);
    if (file) write_report(file, report, format);
    if (!file) {
      std::cerr << "mpgpu bench: cannot write " << path << "\n";
      return false;
    }
    return true;
  };
  bool saved = save(opt.csv_out, Format::csv);
  saved = save(opt.json_out, Format::json) && saved;
  saved = save(opt.text_out, Format::text) && saved;

  if (!report.all_verified()) {
    std::size_t bad = std::count_if(report.rows.begin(), report.rows.end(),
                                    [](const BenchRow& r) { return !r.verified; });
    std::cerr << "mpgpu bench: " << bad << " of " << report.rows.size()
              << " rows NOT verified against GMP\n";
    return kExitNotVerified;
  }
  return saved ? kExitOk : kExitError;
}

// ---- command line -----------------------------------------------------------------

void print_bench_help(std::ostream& out) {
  out << "usage: mpgpu [--device SPEC] bench [options]\n"
         "       mpgpu [--device SPEC] bench --workloads [--quick] [options]   (see below)\n"
         "\n"
         "Times each operation at each size with mpgpu (in the chosen context) and with\n"
         "plain GMP mpz calls on the host, on the same random full-size operands, and\n"
         "checks that the results are equal. Times are medians over repeated samples\n"
         "after warm-up calls. A sample is a burst of back-to-back calls (about 2 ms of\n"
         "work, 1 to 4096 calls) divided by the burst, for mpgpu with the device\n"
         "synchronized before and after: the cost of a call in a stream of calls.\n"
         "\n"
         "operations: ";
  auto list_ops = [&out](bool batch) {
    std::string line;
    for (const OpInfo& op : all_ops())
      if (op.batch == batch) line += (line.empty() ? "" : ", ") + std::string(op.name);
    out << line << "\n";
  };
  list_ops(false);
  out << "sizes:      2^16, 2^18, ..., 2^30 bits (--quick: 2^16, 2^20, 2^24)\n"
         "+transfers: mul, sqr: the time from host operands (mpz_t) to a host result,\n"
         "            uploads and download included\n"
         "GB/s:       for add, sub, and, ior, xor: 3 x bits/8 bytes (two reads, one write);\n"
         "            tdiv_q_ui: 2 x bits/8 (one read, one write)\n"
         "            divided by the mpgpu time; batch_add: that times the instances\n"
         "\n"
         "batch ops:  ";
  list_ops(true);
  out << "            one call over an mpgpu::Batch of N unsigned numbers of one width\n"
         "            (batch_mul: the low half); GMP does the same instance by instance\n"
         "            (mpn_add_n, mpn_mul_n, mpz_powm) on ONE host thread; every instance\n"
         "            is compared. After the integer rows, size shown as width x N.\n"
         "widths:     256, 1024, 4096 bits (batch_powm*: 256, 1024, 2048); with --ops, --bits\n"
         "            gives the widths instead (without --ops, --bits drops the batch rows)\n"
         "instances:  add, mul, mul_wide 2^20 (2^16 at 4096 bits for the products, 2^18\n"
         "            for add); powm 2^14, 2^12, 2^10; --quick: 1/16 of that, and on the\n"
         "            CPU context 1/4 of it again (its mpgpu column is the threaded CPU backend)\n"
         "\n"
         "options:\n"
         "  --quick            three sizes, fewer repetitions\n"
         "  --max-bits N       skip sizes above N bits (N: 1048576 or 2^20)\n"
         "  --gmp-max-bits N   mul, sqr, tdiv_qr, to/from_string, to/from_hex above N bits\n"
         "                     (default 2^30): GMP not run (minutes a call; strings: tens of\n"
         "                     seconds); products, quotients and text checked modulo 4 primes\n"
         "                     of ~62 bits, parsed values against a\n"
         "  --bits LIST        measure these sizes instead (e.g. 2^20,3000000)\n"
         "  --ops LIST         only these operations (e.g. add,sub,popcount or batch_mul)\n"
         "  --reps N           exactly N timed calls per measurement (default: adaptive,\n"
         "                     3..21, or 3..7 with --quick)\n"
         "  --csv, --json      print CSV or JSON instead of the text table (--text: the default)\n"
         "  --csv-out FILE     also write the table as CSV to FILE\n"
         "  --json-out FILE    also write it as JSON to FILE\n"
         "  --text-out FILE    also write the text table to FILE\n"
         "  --progress         one line per finished row on stderr (the default when\n"
         "                     stderr is a terminal; --no-progress turns it off)\n"
         "  --seed N           seed of the random operands (default 20261122)\n"
         "  -h, --help         this help\n"
         "\n"
         "exit status: 0 if every row matched GMP, 1 if any did not (or failed), 2 for a\n"
         "bad command line, 3 for other errors. Speed never makes the command fail.\n"
         "\n";
  print_workloads_help(out);
}

BenchOptions parse_bench_options(std::vector<std::string> args) {
  BenchOptions opt;
  std::string table_option, workloads_option;  // one of each kind given, to refuse mixing them
  opt.progress = isatty(STDERR_FILENO);
  bool format_set = false;
  auto set_format = [&](Format f, const std::string& name) {
    if (format_set && opt.format != f) throw UsageError("bench: " + name + " conflicts with an earlier format option");
    opt.format = f;
    format_set = true;
  };
  ArgReader r(std::move(args));
  while (!r.done()) {
    const std::string a = r.next();
    if (a == "-h" || a == "--help") {
      opt.help = true;
    } else if (a == "--quick") {
      r.no_value(a);
      opt.quick = true;
    } else if (a == "--workloads") {
      r.no_value(a);
      opt.workloads = true;
    } else if (a == "--only") {
      workloads_option = a;
      opt.only = split_list(a, r.value(a));
    } else if (a == "--no-cpu") {
      r.no_value(a);
      workloads_option = a;
      opt.no_cpu = true;
    } else if (a == "--csv") {
      r.no_value(a);
      set_format(Format::csv, a);
    } else if (a == "--json") {
      r.no_value(a);
      set_format(Format::json, a);
    } else if (a == "--text") {
      r.no_value(a);
      set_format(Format::text, a);
    } else if (a == "--max-bits") {
      table_option = a;
      opt.max_bits = parse_bits(a, r.value(a));
    } else if (a == "--gmp-max-bits") {
      table_option = a;
      opt.gmp_max_bits = parse_bits(a, r.value(a));
    } else if (a == "--bits") {
      table_option = a;
      opt.bits.clear();
      for (const std::string& item : split_list(a, r.value(a))) opt.bits.push_back(parse_bits(a, item));
    } else if (a == "--ops") {
      table_option = a;
      opt.ops = split_list(a, r.value(a));
      for (const std::string& name : opt.ops)
        if (!find_op(name)) {
          std::string known;
          for (const OpInfo& op : all_ops()) known += (known.empty() ? "" : ", ") + std::string(op.name);
          throw UsageError("--ops: unknown operation \"" + name + "\" (known: " + known + ")");
        }
    } else if (a == "--reps") {
      table_option = a;
      opt.reps = static_cast<int>(parse_count(a, r.value(a), 100000));
    } else if (a == "--csv-out") {
      opt.csv_out = r.value(a);
    } else if (a == "--json-out") {
      opt.json_out = r.value(a);
    } else if (a == "--text-out") {
      opt.text_out = r.value(a);
    } else if (a == "--progress") {
      r.no_value(a);
      opt.progress = true;
    } else if (a == "--no-progress") {
      r.no_value(a);
      opt.progress = false;
    } else if (a == "--seed") {
      table_option = a;
      opt.seed = static_cast<unsigned long>(parse_count(a, r.value(a), ~0ul));
    } else if (!a.empty() && a[0] == '-') {
      throw UsageError("bench: unknown option " + a);
    } else {
      throw UsageError("bench: unexpected argument \"" + a + "\"");
    }
  }
  if (opt.workloads && !table_option.empty())
    throw UsageError("bench: " + table_option + " is an option of the operation table, not of --workloads");
  if (!opt.workloads && !workloads_option.empty())
    throw UsageError("bench: " + workloads_option + " needs --workloads");
  if (opt.workloads && !opt.help) {
    const std::vector<WorkloadSpec> specs = workload_specs(opt.quick);
    for (const std::string& id : opt.only)
      if (std::none_of(specs.begin(), specs.end(), [&](const WorkloadSpec& w) { return w.id == id; })) {
        std::string known;
        for (const WorkloadSpec& w : specs) known += (known.empty() ? "" : ", ") + w.id;
        throw UsageError("--only: unknown workload \"" + id + "\" (" + (opt.quick ? "--quick " : "") +
                         "workloads: " + known + ")");
      }
    return opt;
  }
  if (!opt.help) {
    const std::vector<const OpInfo*> ops = selected_ops(opt);
    const bool integer_ops = std::any_of(ops.begin(), ops.end(), [](const OpInfo* op) { return !op->batch; });
    if ((!integer_ops || bench_sizes(opt).empty()) && plan_batch_rows(ops, opt, false).empty()) {
      if (integer_ops)
        throw UsageError("bench: no size left to measure: every size is above --max-bits " +
                         std::to_string(opt.max_bits) + " (the smallest default size is 2^16 bits)");
      throw UsageError("bench: no batch width left to measure (widths: 1 to 2^18 bits, 2^17 for "
                       "batch_mul_wide, at most --max-bits)");
    }
  }
  return opt;
}

}  // namespace mpgpu::cli
