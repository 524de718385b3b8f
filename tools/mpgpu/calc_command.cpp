#include "calc_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <iostream>
#include <optional>
#include <sstream>
#include <string_view>

#include "args.hpp"
#include "calc_expression.hpp"

namespace mpgpu::cli {

namespace {

/// "error at column 5" for one line, "error at line 2, column 3" for more,
/// then the line with a caret under the spot (if it is short enough to read).
void report(std::ostream& err, std::string_view text, const CalcError& e) {
  const std::size_t offset = std::min(e.offset(), text.size());
  const std::size_t line_start = offset == 0 ? 0 : text.rfind('\n', offset - 1) + 1;  // npos + 1 = 0
  const std::size_t line_end = std::min(text.find('\n', offset), text.size());
  const std::size_t column = offset - line_start + 1;
  err << "mpgpu calc: error at ";
  if (text.find('\n') != std::string_view::npos)
    err << "line " << 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n') << ", ";
  err << "column " << column << ": " << e.what() << "\n";
  std::string line(text.substr(line_start, line_end - line_start));
  if (line.size() > 200) return;
  std::replace(line.begin(), line.end(), '\t', ' ');  // keeps the caret aligned
  err << "  " << line << "\n  " << std::string(column - 1, ' ') << "^\n";
}

}  // namespace

void print_calc_help(std::ostream& out) {
  out << "usage: mpgpu [--device SPEC] calc [--hex | --digits | --sha256] [--] [EXPRESSION...]\n"
         "\n"
         "Evaluates an integer expression exactly and prints the result in decimal. The\n"
         "expression is the arguments joined by spaces, or standard input if there are none.\n"
         "It runs through the mpgpu Integer API on the chosen context (--device).\n"
         "\n"
         "  numbers     123, 0x7b (hex); no size limit\n"
         "  operators   loosest first:  |   xor   &   << >>   + -   * / %   unary -   ^\n"
         "              ^ is the power and right-associative (2^3^2 = 2^9); it binds tighter\n"
         "              than unary minus (-2^2 = -4). / and % truncate toward zero, as GMP's\n"
         "              tdiv and C (-7/2 = -3, -7%2 = -1); >> rounds toward minus infinity\n"
         "              (-7>>1 = -4); & | xor act on two's complement, as GMP\n"
         "  functions   fact(n), fib(n), lucas(n), binomial(n, k), gcd(a, b), powm(a, b, m),\n"
         "              sqrt(a), root(a, k) (sqrt and root truncate; powm with b < 0 uses the\n"
         "              inverse of a mod m; lucas(0) = 2, lucas(1) = 1; binomial takes any n,\n"
         "              k >= 0, and is 0 for k > n >= 0)\n"
         "\n"
         "options:\n"
         "  --hex       print in hexadecimal: 0x1f, -0x1f\n"
         "  --digits    print only the number of decimal digits of |result| (exact, counted\n"
         "              without making the decimal text)\n"
         "  --sha256    print only the SHA-256 of the decimal result (as `printf %s N | sha256sum`)\n"
         "  --          the remaining arguments are the expression (for one starting with --)\n"
         "  -h, --help  this help\n"
         "\n"
         "Quote expressions for the shell: mpgpu calc '2^127 - 1'. Results are limited to 2^36\n"
         "bits, fact(n) to n <= 10^8 and binomial(n, k) to min(k, n - k) <= 10^8. A bad\n"
         "expression or argument is reported with its column, with exit status 2.\n";
}

CalcOptions parse_calc_options(std::vector<std::string> args) {
  CalcOptions opt;
  bool format_set = false;
  bool options_done = false;
  std::vector<std::string> parts;
  for (const std::string& a : args) {
    if (!options_done) {
      std::optional<CalcFormat> format;
      if (a == "--") {
        options_done = true;
        continue;
      }
      if (a == "-h" || a == "--help") {
        opt.help = true;
        continue;
      }
      if (a == "--hex") format = CalcFormat::hex;
      else if (a == "--digits") format = CalcFormat::digits;
      else if (a == "--sha256") format = CalcFormat::sha256;
      else if (a.rfind("--", 0) == 0) throw UsageError("calc: unknown option " + a);
      if (format) {
        if (format_set && opt.format != *format)
          throw UsageError("calc: " + a + " conflicts with an earlier output option");
        opt.format = *format;
        format_set = true;
        continue;
      }
    }
    parts.push_back(a);  // "-5" is an expression, not an option
  }
  if (!parts.empty()) {
    std::string text;
    for (const std::string& p : parts) text += (text.empty() ? "" : " ") + p;
    opt.expression = text;
  }
  return opt;
}

int run_calc(const Context& ctx, const CalcOptions& opt) {
  std::string text;
  if (opt.expression) {
    text = *opt.expression;
  } else {
    if (isatty(STDIN_FILENO))
      throw UsageError("calc: no expression (give it as an argument, or on standard input)");
    std::ostringstream in;
    in << std::cin.rdbuf();
    text = in.str();
  }
  // Trailing newlines from files and pipes would only move "at the end" to a
  // line of its own.
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  try {
    const Integer result = evaluate_expression(text, ctx);
    std::cout << format_calc_result(result, opt.format) << "\n";
    return kExitOk;
  } catch (const CalcError& e) {
    report(std::cerr, text, e);
    return kExitUsage;
  }
}

}  // namespace mpgpu::cli
