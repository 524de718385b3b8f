#include "bench_workloads.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <iostream>

#include "args.hpp"
#include "calc_expression.hpp"
#include "constants.hpp"
#include "lucas_lehmer.hpp"
#include "mpgpu/mpgpu.hpp"
#include "output.hpp"
#include "sha256.hpp"

namespace mpgpu::cli {

namespace {

using Clock = std::chrono::steady_clock;

/// CUDA runs shorter than this are run twice and the faster counts (see run_workloads).
constexpr double kSecondRunBelowSeconds = 2.0;
using Kind = WorkloadSpec::Kind;

WorkloadSpec expression(std::string id, std::string text) {
  WorkloadSpec w;
  w.id = std::move(id);
  w.label = text;
  w.expression = std::move(text);
  return w;
}

WorkloadSpec constant(Kind kind, int exponent) {
  WorkloadSpec w;
  const std::string name = kind == Kind::pi ? "pi" : "e";
  w.id = name + "_1e" + std::to_string(exponent);
  w.label = name + " to 10^" + std::to_string(exponent) + " digits";
  w.kind = kind;
  w.n = 1;
  for (int i = 0; i < exponent; ++i) w.n *= 10;
  return w;
}

WorkloadSpec mersenne(std::string id, std::uint64_t p, bool prime) {
  WorkloadSpec w;
  w.id = std::move(id);
  w.label = "Lucas-Lehmer 2^" + std::to_string(p) + "-1";
  w.kind = Kind::lucas_lehmer;
  w.n = p;
  w.expected = prime ? "prime" : "composite";
  return w;
}

/// The workload's text on ctx: the timed part of a run.
std::string workload_text(const WorkloadSpec& w, const Context& ctx) {
  switch (w.kind) {
    case Kind::expression: return evaluate_expression(w.expression, ctx).to_string(10);
    case Kind::pi:
    case Kind::e: {
      const Constant c = w.kind == Kind::pi ? Constant::pi : Constant::e;
      // The CPU column stays GMP on one core, as in every other row; the
      // CUDA column's series uses the host threads as `mpgpu pi` does.
      SeriesOptions series;
      if (!ctx.is_cuda()) series.threads = 1;
      return constant_text(compute_constant(c, ctx, w.n, {}, kDefaultGuardDigits, series).scaled, w.n);
    }
    case Kind::lucas_lehmer: return lucas_lehmer(w.n, ctx) ? "prime" : "composite";
  }
  return {};
}

/// Loads the kernels and fills the memory pools of a CUDA context with a
/// small run of each kind of work, so that the first row does not pay for
/// them.
void warm_up(const Context& ctx) {
  if (!ctx.is_cuda()) return;
  for (const char* text : {"fib(10^5)", "sqrt(10^(10^5))", "(10^(2*10^4)+1) / (7^(10^4)+3)", "fact(10^4)"})
    evaluate_expression(text, ctx).to_string(10);
  constant_text(compute_constant(Constant::pi, ctx, 1000).scaled, 1000);
  lucas_lehmer(607, ctx);
  ctx.synchronize();
}

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return s;
}

void progress_line(const WorkloadRow& row, std::size_t index, std::size_t total) {
  std::cerr << "[" << index << "/" << total << "] " << row.spec.label << ":";
  auto side = [](const char* name, const WorkloadResult& r) {
    if (!r.ran) return;
    std::cerr << " " << name << " " << (r.error.empty() ? format_seconds(r.seconds) : "failed");
  };
  side("cuda", row.cuda);
  side("cpu", row.cpu);
  std::cerr << ", match " << row.match() << std::endl;
}

}  // namespace

std::vector<WorkloadSpec> workload_specs(bool quick) {
  std::vector<WorkloadSpec> w;
  if (quick) {
    w = {expression("fib", "fib(10^7)"),
         expression("pow3", "3^(10^7)"),
         expression("fact", "fact(10^6)"),
         expression("pow_product", "(3^(10^7)) * (7^(9*10^6))"),
         expression("sqrt", "sqrt(10^(10^7))"),
         expression("pow10", "10^(10^7)"),
         expression("binomial", "binomial(2*10^6, 10^6)"),
         expression("quotient", "(10^(2*10^6)+1) / (7^(10^6)+3)")};
    for (Kind k : {Kind::pi, Kind::e})
      for (int e = 4; e <= 6; ++e) w.push_back(constant(k, e));
    w.push_back(mersenne("ll_prime", 4423, true));
    w.push_back(mersenne("ll_composite", 4441, false));
    return w;
  }
  w = {expression("fib", "fib(10^8)"),
       expression("pow3", "3^(10^8)"),
       expression("fact", "fact(10^7)"),
       expression("pow_product", "(3^(10^8)) * (7^(9*10^7))"),
       expression("sqrt", "sqrt(10^(10^8))"),
       expression("pow10", "10^(10^8)"),
       expression("binomial", "binomial(2*10^7, 10^7)"),
       expression("quotient", "(10^(2*10^7)+1) / (7^(10^7)+3)")};
  for (Kind k : {Kind::pi, Kind::e})
    for (int e = 6; e <= 8; ++e) w.push_back(constant(k, e));
  w.push_back(mersenne("ll_prime", 216091, true));
  w.push_back(mersenne("ll_composite", 216103, false));
  return w;
}

WorkloadResult run_workload(const WorkloadSpec& w, const Context& ctx) {
  WorkloadResult r;
  r.ran = true;
  try {
    ctx.synchronize();
    const auto t0 = Clock::now();
    std::string text = workload_text(w, ctx);
    ctx.synchronize();
    r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    r.sha256 = sha256_hex(text);
    const auto digits = std::count_if(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    r.digits = static_cast<std::uint64_t>(digits);
    if (digits == 0) r.word = text;
  } catch (const CalcError& e) {
    r.error = one_line(std::string("expression: ") + e.what());
  } catch (const std::exception& e) {
    r.error = one_line(e.what());
  }
  return r;
}

std::string WorkloadRow::match() const {
  if ((cuda.ran && !cuda.error.empty()) || (cpu.ran && !cpu.error.empty())) return "failed";
  const WorkloadResult& any = cuda.ran ? cuda : cpu;
  if (!any.ran) return "-";
  const std::string word = any.word.empty() ? "" : " (" + any.word + ")";
  if (cuda.ran && cpu.ran && cuda.sha256 != cpu.sha256) return "NO";
  if (!spec.expected.empty() && any.word != spec.expected) return "NO" + word + ", expected " + spec.expected;
  return (cuda.ran && cpu.ran ? "yes" : "-") + word;
}

bool WorkloadRow::ok() const {
  const std::string m = match();
  return m != "failed" && m.rfind("NO", 0) != 0;
}

double WorkloadRow::speedup() const {
  if (!cuda.ran || !cpu.ran || !cuda.error.empty() || !cpu.error.empty() || cuda.seconds <= 0) return 0;
  return cpu.seconds / cuda.seconds;
}

bool WorkloadReport::all_ok() const {
  return std::all_of(rows.begin(), rows.end(), [](const WorkloadRow& r) { return r.ok(); });
}

int run_workloads(const Context& ctx, const BenchOptions& opt) {
  const auto start = Clock::now();
  WorkloadReport report;
  report.quick = opt.quick;
  report.date = utc_now();
  const Context cpu = Context::cpu();
  report.gmp_release = cpu.info().gmp_release;
  const bool use_cuda = ctx.is_cuda();
  if (!use_cuda && opt.no_cpu)
    throw UsageError("bench: --no-cpu leaves nothing to run: the chosen context is the CPU (" + ctx.describe() + ")");
  if (use_cuda) report.cuda_context = ctx.describe();
  if (!opt.no_cpu) report.cpu_context = cpu.describe();
  if (!use_cuda)
    report.note = Context::built_with_cuda() && Context::cuda_device_count() > 0
                      ? "the CPU context was chosen (--device): the CUDA column is not run"
                      : "no usable CUDA device (or a build without CUDA): only the CPU context runs";

  std::vector<WorkloadSpec> specs = workload_specs(opt.quick);
  if (!opt.only.empty())
    std::erase_if(specs, [&](const WorkloadSpec& w) {
      return std::find(opt.only.begin(), opt.only.end(), w.id) == opt.only.end();
    });
  if (opt.progress) {
    std::cerr << "mpgpu bench --workloads: " << (use_cuda ? report.cuda_context : "") << (use_cuda && !opt.no_cpu ? " and " : "")
              << report.cpu_context << ", " << specs.size() << " workloads";
    if (!report.note.empty()) std::cerr << " (" << report.note << ")";
    std::cerr << std::endl;
  }
  if (use_cuda) {
    try {
      warm_up(ctx);
    } catch (const std::exception& e) {
      std::cerr << "mpgpu bench: the warm-up on " << ctx.describe() << " failed: " << e.what() << "\n";
    }
  }
  for (const WorkloadSpec& w : specs) {
    WorkloadRow row;
    row.spec = w;
    if (use_cuda) {
      row.cuda = run_workload(w, ctx);
      // A short workload's first run pays once-per-size costs that a user's
      // later calls do not (twiddle tables made on first use, growth of the
      // memory pool to the workload's peak): the faster of two runs.
      if (row.cuda.error.empty() && row.cuda.seconds < kSecondRunBelowSeconds) {
        WorkloadResult again = run_workload(w, ctx);
        if (!again.error.empty() || again.sha256 != row.cuda.sha256 || again.seconds < row.cuda.seconds)
          row.cuda = std::move(again);  // a failure or a different text is what the table must show
      }
    }
    if (!opt.no_cpu) row.cpu = run_workload(w, cpu);
    report.rows.push_back(std::move(row));
    if (opt.progress) progress_line(report.rows.back(), report.rows.size(), specs.size());
  }
  report.total_s = std::chrono::duration<double>(Clock::now() - start).count();

  auto write = [&report](std::ostream& out, Format f) {
    if (f == Format::csv) write_workloads_csv(out, report);
    else if (f == Format::json) write_workloads_json(out, report);
    else write_workloads_text(out, report);
  };
  write(std::cout, opt.format);
  std::cout.flush();
  bool saved = true;
  for (const auto& [path, format] : {std::pair{opt.csv_out, Format::csv}, std::pair{opt.json_out, Format::json},
                                     std::pair{opt.text_out, Format::text}}) {
    if (path.empty()) continue;
    std::ofstream file(path);
    if (file) write(file, format);
    if (!file) {
      std::cerr << "mpgpu bench: cannot write " << path << "\n";
      saved = false;
    }
  }
  if (!report.all_ok()) {
    const auto bad = std::count_if(report.rows.begin(), report.rows.end(), [](const WorkloadRow& r) { return !r.ok(); });
    std::cerr << "mpgpu bench: " << bad << " of " << report.rows.size() << " workloads failed or did not match\n";
    return kExitNotVerified;
  }
  return saved ? kExitOk : kExitError;
}

void print_workloads_help(std::ostream& out) {
  out << "usage: mpgpu [--device SPEC] bench --workloads [--quick] [options]\n"
         "\n"
         "Whole computations, each run once on the CUDA context (--device, default the\n"
         "first GPU) and once on the CPU context (GMP), in the same run. A time covers\n"
         "computing the value and its decimal text (hashing it is not timed); the two\n"
         "texts are compared by SHA-256. Without a usable GPU (or with --device cpu) only\n"
         "the CPU context runs, and the table says so. The CUDA context first does a small\n"
         "warm-up run of each kind of work, and a workload it finishes in under 2 s runs\n"
         "twice there (the faster run counts: the first pays for twiddle tables and the\n"
         "memory pool's growth to the workload's size).\n"
         "\n"
         "workloads (id: full size; --quick size):\n"
         "  fib            fib(10^8);                          fib(10^7)\n"
         "  pow3           3^(10^8);                           3^(10^7)\n"
         "  fact           fact(10^7);                         fact(10^6)\n"
         "  pow_product    (3^(10^8)) * (7^(9*10^7));          (3^(10^7)) * (7^(9*10^6))\n"
         "  sqrt           sqrt(10^(10^8));                    sqrt(10^(10^7))\n"
         "  pow10          10^(10^8);                          10^(10^7)\n"
         "  binomial       binomial(2*10^7, 10^7);             binomial(2*10^6, 10^6)\n"
         "  quotient       (10^(2*10^7)+1) / (7^(10^7)+3);     (10^(2*10^6)+1) / (7^(10^6)+3)\n"
         "  pi_1eK, e_1eK  pi and e to 10^K digits after the point (mpgpu pi, mpgpu e):\n"
         "                 K = 6, 7, 8;                        K = 4, 5, 6\n"
         "  ll_prime       Lucas-Lehmer test of 2^216091-1;    2^4423-1 (both prime)\n"
         "  ll_composite   Lucas-Lehmer test of 2^216103-1;    2^4441-1 (both composite)\n"
         "The expressions run through the `mpgpu calc` evaluator. --quick keeps the CPU\n"
         "column under a minute on two cores; the full CPU column takes far longer than the\n"
         "CUDA one (GMP on one core: many minutes for the 10^8-digit rows).\n"
         "\n"
         "options:\n"
         "  --quick            the small sizes above\n"
         "  --only LIST        only these workloads, by id (e.g. pi_1e8,ll_prime)\n"
         "  --no-cpu           skip the CPU context (the CUDA column alone; no comparison)\n"
         "  --csv, --json      print CSV or JSON instead of the text table\n"
         "  --csv-out FILE, --json-out FILE, --text-out FILE   also write the table there\n"
         "  --progress         one line per finished workload on stderr (the default when\n"
         "                     stderr is a terminal; --no-progress turns it off)\n"
         "\n"
         "exit status: 0 if every workload ran and the contexts agree (and Lucas-Lehmer\n"
         "found the known answer), 1 otherwise, 2 for a bad command line, 3 for other errors.\n";
}

}  // namespace mpgpu::cli
