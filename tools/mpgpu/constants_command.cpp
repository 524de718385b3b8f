#include "constants_command.hpp"

#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <string_view>
#include <vector>

#include "args.hpp"
#include "sha256.hpp"

namespace mpgpu::cli {

namespace {

/// A digit count: decimal ("1000000") or a power of ten ("10^6").
std::uint64_t parse_digits(const std::string& text) {
  auto to_u64 = [](std::string_view s) -> std::optional<std::uint64_t> {
    std::uint64_t v = 0;
    if (s.empty()) return std::nullopt;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
  };
  std::optional<std::uint64_t> v;
  if (text.rfind("10^", 0) == 0) {
    if (auto e = to_u64(std::string_view(text).substr(3)); e && *e <= 10) v = static_cast<std::uint64_t>(std::pow(10.0, *e) + 0.5);
  } else {
    v = to_u64(text);
  }
  if (!v || *v > kMaxConstantDigits)
    throw UsageError("\"" + text + "\" is not a digit count from 0 to 10^10 (such as 1000000 or 10^6)");
  return *v;
}

/// The stages on stderr. `live`: "series 42%" on one terminal line,
/// rewritten in place. Either way, when a stage ends, its wall time
/// ("series: 1.234 s"); with `timings` also its notes (how the series was
/// split) and at the end the total. With `timings` the context is
/// synchronized when a stage ends, so that device work a stage queued
/// counts in that stage and not in the next.
class StageReport {
 public:
  StageReport(std::string prefix, bool live, bool timings, const Context& ctx)
      : prefix_(std::move(prefix)), live_(live), timings_(timings), ctx_(ctx), start_(Clock::now()) {}
  void progress(std::string_view stage, double fraction) {
    const int percent = static_cast<int>(fraction * 100);
    if (stage == stage_ && percent == percent_) return;
    if (stage != stage_) {
      finish_stage();
      stage_ = std::string(stage);
      stage_start_ = Clock::now();
    }
    percent_ = percent;
    if (!live_) return;
    std::cerr << "\r" << prefix_ << stage_ << " ";
    if (percent > 0) std::cerr << percent << "%";
    else std::cerr << "...";
    std::cerr << "    " << std::flush;
  }
  /// A stage whose live line would mix with what it writes (the output).
  void quiet_stage(std::string_view stage) {
    finish_stage();
    stage_ = std::string(stage);
    stage_start_ = Clock::now();
    percent_ = -1;
  }
  void note(std::string_view stage, const std::string& text) {
    if (timings_) notes_.push_back(std::string(stage) + ": " + text);
  }
  void done() {
    finish_stage();
    stage_.clear();
    if (timings_) std::cerr << prefix_ << "total: " << seconds(Clock::now() - start_) << "\n" << std::flush;
  }

 private:
  using Clock = std::chrono::steady_clock;
  static std::string seconds(Clock::duration d) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f s", std::chrono::duration<double>(d).count());
    return buf;
  }
  void finish_stage() {
    if (stage_.empty()) return;
    if (timings_) ctx_.synchronize();
    std::cerr << (live_ ? "\r" : "") << prefix_ << stage_ << ": " << seconds(Clock::now() - stage_start_)
              << (live_ ? "            \n" : "\n");
    for (const std::string& n : notes_) std::cerr << prefix_ << "  " << n << "\n";
    notes_.clear();
    std::cerr << std::flush;
  }
  std::string prefix_, stage_;
  bool live_, timings_;
  Context ctx_;
  int percent_ = -1;
  Clock::time_point start_, stage_start_;
  std::vector<std::string> notes_;
};

}  // namespace

void print_constant_help(Constant c, std::ostream& out) {
  const std::string name = constant_name(c);
  const std::string sample = c == Constant::pi ? "3.14159265358979323846" : "2.71828182845904523536";
  out << "usage: mpgpu [--device SPEC] " << name << " [--digits | --sha256] [--output FILE] DIGITS\n"
         "\n"
         "Prints " << name << " truncated (never rounded) to DIGITS decimal digits after the point:\n"
         "`mpgpu " << name << " 20` prints " << sample << " (DIGITS + 1 digits in all).\n"
         "DIGITS is a decimal count or a power of ten (10^6), from 0 to 10^10.\n"
         "\n";
  if (c == Constant::pi)
    out << "Method: the Chudnovsky series by binary splitting (P, Q, T), then\n"
           "426880 sqrt(10005) Q / T in fixed point: an integer square root of 10005 10^(2D')\n"
           "and one division, D' = DIGITS + guard digits.\n";
  else
    out << "Method: the sum of 1/k! by binary splitting (P, Q), then floor((P + Q) 10^D' / Q),\n"
           "D' = DIGITS + guard digits.\n";
  out << "The guard digits make the last digit exact: when they are too close to all 0s or\n"
         "all 9s to decide it, the computation is repeated with twice as many. Everything\n"
         "runs through the mpgpu Integer API on the chosen context (--device).\n"
         "\n"
         "options:\n"
         "  --digits           print only the number of digits printed (DIGITS + 1)\n"
         "  --sha256           print only the SHA-256 of the text, without its newline\n"
         "                     (as `mpgpu " << name << " N | tr -d '\\n' | sha256sum`)\n"
         "  --output FILE      write to FILE instead of standard output\n"
         "  --guard-digits N   guard digits of the first attempt (default 19, at least 2)\n"
         "  --progress         the stage and its progress on stderr (the default when\n"
         "                     stderr is a terminal; --no-progress turns it off)\n"
         "  --timings          the wall time of each stage on stderr (series, square root,\n"
         "                     division, guard digits, decimal text (and sha256), output), how\n"
         "                     the series was spread over host threads, and the total\n"
         "  --threads N        host threads for the series (default: $MPGPU_THREADS, else\n"
         "                     every hardware thread; 1: the series on one thread)\n"
         "  -h, --help         this help\n";
}

ConstantOptions parse_constant_options(Constant c, std::vector<std::string> args) {
  ConstantOptions opt;
  opt.constant = c;
  opt.progress = isatty(STDERR_FILENO);
  const std::string cmd = constant_name(c);
  bool format_set = false;
  std::optional<std::uint64_t> digits;
  ArgReader r(std::move(args));
  while (!r.done()) {
    const std::string a = r.next();
    std::optional<CalcFormat> format;
    if (a == "-h" || a == "--help") {
      opt.help = true;
    } else if (a == "--digits") {
      r.no_value(a);
      format = CalcFormat::digits;
    } else if (a == "--sha256") {
      r.no_value(a);
      format = CalcFormat::sha256;
    } else if (a == "--output") {
      opt.output = r.value(a);
    } else if (a == "--guard-digits") {
      opt.first_guard = parse_count(a, r.value(a), 1'000'000);
    } else if (a == "--progress") {
      r.no_value(a);
      opt.progress = true;
    } else if (a == "--no-progress") {
      r.no_value(a);
      opt.progress = false;
    } else if (a == "--timings") {
      r.no_value(a);
      opt.timings = true;
    } else if (a == "--threads") {
      opt.threads = static_cast<unsigned>(parse_count(a, r.value(a), 4096));
    } else if (!a.empty() && a[0] == '-') {
      throw UsageError(cmd + ": unknown option " + a);
    } else if (digits) {
      throw UsageError(cmd + ": unexpected argument \"" + a + "\" (DIGITS was already given)");
    } else {
      try {
        digits = parse_digits(a);
      } catch (const UsageError& e) {
        throw UsageError(cmd + ": DIGITS: " + e.what());
      }
    }
    if (format) {
      if (format_set && opt.format != *format) throw UsageError(cmd + ": " + a + " conflicts with an earlier output option");
      opt.format = *format;
      format_set = true;
    }
  }
  if (!opt.help && !digits) throw UsageError(cmd + ": how many digits? (mpgpu " + cmd + " DIGITS)");
  if (opt.first_guard < 2) throw UsageError(cmd + ": --guard-digits must be at least 2");
  opt.digits = digits.value_or(0);
  return opt;
}

int run_constant(const Context& ctx, const ConstantOptions& opt) {
  // Open the file first: a bad path should not cost the whole computation.
  std::ofstream file;
  if (!opt.output.empty()) {
    file.open(opt.output, std::ios::binary | std::ios::trunc);
    if (!file) {
      std::cerr << "mpgpu " << constant_name(opt.constant) << ": cannot write " << opt.output << "\n";
      return kExitError;
    }
  }
  std::optional<StageReport> report;
  StageHooks hooks;
  if (opt.progress || opt.timings) {
    report.emplace(std::string("mpgpu ") + constant_name(opt.constant) + ": ", opt.progress, opt.timings, ctx);
    hooks.progress = [&report](std::string_view stage, double f) { report->progress(stage, f); };
    hooks.note = [&report](std::string_view stage, const std::string& text) { report->note(stage, text); };
  }
  const StageProgress& progress = hooks.progress;
  SeriesOptions series;
  series.threads = opt.threads;
  const ConstantResult result = compute_constant(opt.constant, ctx, opt.digits, hooks, opt.first_guard, series);
  std::string out;
  if (opt.format == CalcFormat::digits) {
    if (progress) progress("digit count", 0);
    out = std::to_string(sizeinbase(result.scaled, 10));
  } else {
    if (opt.format == CalcFormat::sha256) {
      if (progress) progress("decimal text and sha256", 0);  // one stage: the text is hashed without a copy
      out = constant_sha256_hex(result.scaled, opt.digits);
    } else {
      if (progress) progress("decimal text", 0);
      out = constant_text(result.scaled, opt.digits);
    }
  }
  if (report) report->quiet_stage("output");
  std::ostream& dest = opt.output.empty() ? std::cout : file;
  dest << out << "\n";
  dest.flush();
  if (report) report->done();
  if (!dest) {
    std::cerr << "mpgpu " << constant_name(opt.constant) << ": cannot write "
              << (opt.output.empty() ? "standard output" : opt.output) << "\n";
    return kExitError;
  }
  return kExitOk;
}

}  // namespace mpgpu::cli
