// The `mpgpu calc` expression language (tools/mpgpu/calc_expression.hpp) on
// each backend: known results, precedence and associativity, literals, GMP's
// tdiv for / and %, random expressions against GMP, the output formats, and
// malformed or refused expressions with the column they are reported at.
// Linked like the integer tests: calc_expression_test on the CPU context,
// calc_expression_gpu_test on CUDA device 0 (skipped without one).
#include <string>
#include <vector>

#include "calc_expression.hpp"
#include "calc_output.hpp"
#include "integer/integer_test.hpp"

namespace {

using mpgpu::Integer;
using mpgpu::cli::CalcError;
using mpgpu::cli::CalcFormat;
using mpgpu::cli::CalcLimits;
using namespace mpgpu_test;

class Calc : public IntegerTest {
 protected:
  Integer eval(const std::string& text, const CalcLimits& limits = {}) const {
    return mpgpu::cli::evaluate_expression(text, ctx(), limits);
  }
  /// The error `text` gives: "column N: message", or "no error".
  std::string error_of(const std::string& text, const CalcLimits& limits = {}) const {
    try {
      eval(text, limits);
    } catch (const CalcError& e) {
      return "column " + std::to_string(e.column()) + ": " + e.what();
    }
    return "no error";
  }
};

TEST_P(Calc, KnownResults) {
  const std::pair<const char*, const char*> cases[] = {
      {"2^100", "1267650600228229401496703205376"},
      {"fact(20)", "2432902008176640000"},
      {"fib(100)", "354224848179261915075"},
      {"fact(0)", "1"},
      {"fib(0)", "0"},
      {"fib(1)", "1"},
      {"gcd(12, 18)", "6"},
      {"gcd(0, 0)", "0"},
      {"gcd(-12, 18)", "6"},
      {"powm(2, 10, 1000)", "24"},
      {"powm(3, -1, 7)", "5"},   // 3 * 5 = 15 = 1 mod 7
      {"powm(-2, 3, 5)", "2"},   // -8 mod 5, non-negative as mpz_powm
      {"powm(5, 0, 7)", "1"},
      {"sqrt(99)", "9"},
      {"sqrt(100)", "10"},
      {"sqrt(0)", "0"},
      {"root(-27, 3)", "-3"},
      {"root(26, 3)", "2"},      // truncated
      {"root(2^64, 64)", "2"},
      {"root(5, 1)", "5"},
      {"fact(1000) / fact(998)", "999000"},
      {"2^127 - 1", "170141183460469231731687303715884105727"},
      {"0xff", "255"},
      {"0XFF + 0x0", "255"},
      {"0xffffffffffffffffffff", "1208925819614629174706175"},
      {"007", "7"},              // decimal: no octal
      {" \t 12\n ", "12"},
      {"-0x10", "-16"},
      {"- -3", "3"},
      {"+5", "5"},
      {"0^0", "1"},
      {"(-1)^(10^30)", "1"},     // |base| <= 1: any exponent
      {"(-1)^(10^30 + 1)", "-1"},
      {"0^(2^100)", "0"},
  };
  for (const auto& [text, want] : cases) EXPECT_EQ(eval(text).to_string(), want) << text;
}

TEST_P(Calc, DivisionAndRemainderTruncateAsTdiv) {
  const std::pair<const char*, long> cases[] = {
      {"-7/2", -3}, {"-7%2", -1}, {"7/-2", -3}, {"7%-2", 1}, {"-7/-2", 3}, {"-7%-2", -1},
      {"7/2", 3},   {"7%2", 1},   {"0/5", 0},   {"6/3", 2},  {"-7>>1", -4}, {"7>>1", 3},
      {"-1>>100", -1}, {"1>>100", 0}, {"-5>>(2^70)", -1}, {"3<<0", 3},
  };
  for (const auto& [text, want] : cases) EXPECT_EQ(eval(text).to_int64(), want) << text;
}

TEST_P(Calc, PrecedenceAndAssociativity) {
  const std::pair<const char*, long> cases[] = {
      {"1+2*3", 7},
      {"(1+2)*3", 9},
      {"10-4-3", 3},              // left to right
      {"100/10/5", 2},
      {"2*3%4", 2},               // (2*3)%4: same level, left to right
      {"-2^2", -4},               // ^ binds tighter than unary minus
      {"(-2)^2", 4},
      {"2^3^2", 512},             // right-associative: 2^(3^2)
      {"-2^3", -8},
      {"2*-3", -6},
      {"1<<2+1", 8},              // + before <<
      {"1+1<<2", 8},
      {"6 & 3 << 1", 6},          // << before &
      {"1 | 2 xor 3 & 5", 3},     // & before xor before |: 1 | (2 xor (3 & 5))
      {"5 xor 3 | 8", 14},
      {"-1 xor 5", -6},           // two's complement, as GMP
      {"-6 & 0xff", 250},
      {"-6 | 1", -5},
      {"2^-(-3)", 8},             // the exponent may be a unary expression
  };
  for (const auto& [text, want] : cases) EXPECT_EQ(eval(text).to_int64(), want) << text;
}

/// "(-123)". Appending (not "(" + s + ")") avoids a false -Wrestrict of GCC 12.
std::string parenthesized(const Mpz& v) {
  std::string s = "(";
  s += v.str();
  s += ')';
  return s;
}

TEST_P(Calc, RandomOperandsAgainstGmp) {
  Operands gen(60);
  for (int i = 0; i < 20; ++i) {
    const Mpz a = gen.random_signed(40), b = gen.random_signed(30), c = gen.random_signed(5);
    if (b.sgn() == 0) continue;
    const std::string x = parenthesized(a), y = parenthesized(b), z = parenthesized(c);
    Mpz want;
    mpz_tdiv_q(want, a, b);
    EXPECT_TRUE(matches(eval(x + "/" + y), want)) << a << " / " << b;
    mpz_tdiv_r(want, a, b);
    EXPECT_TRUE(matches(eval(x + "%" + y), want)) << a << " % " << b;
    mpz_mul(want, a, b);
    mpz_sub(want, want, c);
    EXPECT_TRUE(matches(eval(x + "*" + y + "-" + z), want)) << a << " * " << b << " - " << c;
    mpz_xor(want, a, b);
    EXPECT_TRUE(matches(eval(x + " xor " + y), want)) << a << " xor " << b;
    mpz_fdiv_q_2exp(want, a, 77);
    EXPECT_TRUE(matches(eval(x + ">>77"), want)) << a << " >> 77";
    const Mpz hex = a.abs();
    EXPECT_TRUE(matches(eval("0x" + hex.str(16)), hex)) << hex;
  }
}

TEST_P(Calc, OutputFormats) {
  EXPECT_EQ(format_calc_result(eval("-255"), CalcFormat::hex), "-0xff");
  EXPECT_EQ(format_calc_result(eval("0"), CalcFormat::hex), "0x0");
  EXPECT_EQ(format_calc_result(eval("2^64"), CalcFormat::hex), "0x10000000000000000");
  EXPECT_EQ(format_calc_result(eval("-12"), CalcFormat::decimal), "-12");
  EXPECT_EQ(format_calc_result(eval("0"), CalcFormat::digits), "1");
  EXPECT_EQ(format_calc_result(eval("fact(1000)"), CalcFormat::digits), "2568");
  // sha256sum of the three bytes "123".
  EXPECT_EQ(format_calc_result(eval("123"), CalcFormat::sha256),
            "a665a45920422f9d417e4867efdc4fb8a04a1f3fff1fa07e998e86f7f7a27ae3");
  // Exact digit counts where mpz_sizeinbase may be one too large.
  for (int k = 1; k <= 400; k += 7) {
    const std::string p = "10^" + std::to_string(k);
    EXPECT_EQ(mpgpu::cli::decimal_digits(eval(p)), static_cast<std::uint64_t>(k + 1)) << p;
    EXPECT_EQ(mpgpu::cli::decimal_digits(eval(p + "-1")), static_cast<std::uint64_t>(k)) << p << "-1";
    EXPECT_EQ(mpgpu::cli::decimal_digits(eval("-(" + p + ")")), static_cast<std::uint64_t>(k + 1)) << "-" << p;
  }
}

TEST_P(Calc, MalformedExpressionsReportTheirColumn) {
  const std::pair<const char*, const char*> cases[] = {
      {"(1+2", "column 5: expected ')'"},
      {"(1+2))", "column 6: expected an operator"},
      {"1 +", "column 4: expected a number, '(' or a function"},
      {"2^", "column 3: expected a number"},
      {"1 + * 2", "column 5: expected a number"},
      {"1 2", "column 3: expected an operator, found '2'"},
      {"", "column 1: empty expression"},
      {"   ", "column 1: empty expression"},
      {"foo(1)", "column 1: unknown function 'foo'"},
      {"2 * bar", "column 5: unknown function 'bar'"},
      {"fact 5", "column 6: expected '(' after fact"},
      {"gcd(1)", "column 1: gcd takes 2 arguments, not 1"},
      {"sqrt()", "column 1: sqrt takes 1 argument, not 0"},
      {"gcd(1, 2", "column 9: expected ',' or ')'"},
      {"xor 1", "column 1: expected a number"},
      {"0x", "column 1: 0x must be followed by hexadecimal digits"},
      {"0xg", "column 1: 0x must be followed"},
      {"12ab", "column 3: unexpected 'a' in a number"},
      {"1 < 2", "column 3: unexpected '<'"},
      {"1 $ 2", "column 3: unexpected character '$'"},
      {"2 ** 3", "column 4: expected a number"},
  };
  for (const auto& [text, want] : cases) EXPECT_EQ(error_of(text).rfind(want, 0), 0u) << text << ": " << error_of(text);
}

TEST_P(Calc, RefusedEvaluationsReportTheirColumn) {
  const std::pair<const char*, const char*> cases[] = {
      {"1/0", "column 2: division by zero"},
      {"5 % (3-3)", "column 3: modulo by zero"},
      {"1 + 1/(2-2)", "column 6: division by zero"},
      {"sqrt(-4)", "column 1: square root of a negative number"},
      {"root(-16, 4)", "column 1: even root of a negative number"},
      {"root(8, 0)", "column 1: the index of root must be from 1"},
      {"2^-1", "column 2: negative exponent"},
      {"1 << -1", "column 3: negative shift count"},
      {"powm(2, 3, 0)", "column 1: powm: the modulus is 0"},
      {"powm(6, -1, 9)", "column 1: powm: the exponent is negative"},
      {"fact(100000001)", "column 1: the argument of fact must be from 0 to 100000000"},
      {"fact(-1)", "column 1: the argument of fact"},
      {"3^(2^40)", "column 2: the power would have about"},
      {"1 << (2^40)", "column 3: the shifted value would have about"},
      {"fib(10^12)", "column 1: the argument of fib"},
  };
  for (const auto& [text, want] : cases) EXPECT_EQ(error_of(text).rfind(want, 0), 0u) << text << ": " << error_of(text);
}

// binomial and lucas against GMP's mpz_bin_uiui, mpz_bin_ui and mpz_lucnum_ui,
// from the edge cases to results of a few hundred thousand bits.
TEST_P(Calc, BinomialAndLucasAgainstGmp) {
  auto gmp_text = [](mpz_srcptr z) {
    std::vector<char> buf(mpz_sizeinbase(z, 10) + 2);
    return std::string(mpz_get_str(buf.data(), 10, z));
  };
  mpz_t z, n;
  mpz_inits(z, n, nullptr);
  const std::pair<unsigned long, unsigned long> uiui[] = {
      {0, 0}, {1, 0}, {1, 1}, {5, 2}, {5, 7}, {10, 10}, {64, 32}, {100, 3}, {1000, 500},
      {20000, 10000}, {200000, 7}, {100000, 99990}, {2000, 1999}, {123456, 4567}};
  for (const auto& [a, b] : uiui) {
    mpz_bin_uiui(z, a, b);
    const std::string text = "binomial(" + std::to_string(a) + ", " + std::to_string(b) + ")";
    EXPECT_EQ(eval(text).to_string(), gmp_text(z)) << text;
  }
  // Any integer n (mpz_bin_ui): negative ones, and one beyond 64 bits.
  const std::pair<const char*, unsigned long> any_n[] = {
      {"-1", 0}, {"-1", 5}, {"-7", 3}, {"-10", 4}, {"-1000", 37}, {"2^100 + 3", 4}, {"-(2^70)", 5}};
  for (const auto& [a, b] : any_n) {
    const Integer v = eval(a);
    v.to_mpz(n);
    mpz_bin_ui(z, n, b);
    const std::string text = "binomial(" + std::string(a) + ", " + std::to_string(b) + ")";
    EXPECT_EQ(eval(text).to_string(), gmp_text(z)) << text;
  }
  for (unsigned long k : {0ul, 1ul, 2ul, 3ul, 10ul, 63ul, 64ul, 90ul, 91ul, 92ul, 93ul, 1000ul, 12345ul, 300000ul}) {
    mpz_lucnum_ui(z, k);
    EXPECT_EQ(eval("lucas(" + std::to_string(k) + ")").to_string(), gmp_text(z)) << k;
  }
  mpz_clears(z, n, nullptr);
  EXPECT_EQ(eval("lucas(10) - fib(9) - fib(11)").to_string(), "0");  // L(n) = F(n-1) + F(n+1)
  EXPECT_EQ(eval("binomial(10^6, 10^6 - 2) - 10^6 * (10^6 - 1) / 2").to_string(), "0");
}

TEST_P(Calc, BinomialAndLucasRefusals) {
  const std::pair<const char*, const char*> cases[] = {
      {"binomial(5, -1)", "column 1: the second argument of binomial must be from 0"},
      {"binomial(5)", "column 1: binomial takes 2 arguments, not 1"},
      {"1 + binomial(2^64, 2^64)", "column 5: the second argument of binomial"},
      {"binomial(10^9, 5*10^8)", "column 1: binomial(n, k) needs min(k, n - k) <= 100000000, not 500000000"},
      {"binomial(10^9, 10^9 - 10^8 - 1)", "column 1: binomial(n, k) needs min(k, n - k) <= 100000000, not 100000001"},
      {"binomial(2^(2^20), 2^20)", "column 1: the binomial would have about"},
      {"binomial(-(2^(2^20)), 2^20)", "column 1: the binomial would have about"},
      {"lucas(-1)", "column 1: the argument of lucas must be from 0"},
      {"lucas(10^12)", "column 1: the argument of lucas"},
      {"lucas(1, 2)", "column 1: lucas takes 1 argument, not 2"},
  };
  for (const auto& [text, want] : cases) EXPECT_EQ(error_of(text).rfind(want, 0), 0u) << text << ": " << error_of(text);
  // k > n >= 0 is 0 at any size, with nothing to compute.
  EXPECT_EQ(eval("binomial(10^18, 10^18 + 1)").to_string(), "0");
  EXPECT_EQ(eval("binomial(2^(2^20), 0)").to_string(), "1");
  CalcLimits small;
  small.max_result_bits = 1000;
  EXPECT_EQ(eval("binomial(1000, 500)", small).to_string().size(), 300u);  // 995 bits: within
  EXPECT_EQ(error_of("binomial(1010, 505)", small).rfind("column 1: the binomial would have about", 0), 0u)
      << error_of("binomial(1010, 505)", small);
  EXPECT_EQ(error_of("lucas(1441)", small).rfind("column 1: the argument of lucas must be from 0 to 1440", 0), 0u)
      << error_of("lucas(1441)", small);
}

TEST_P(Calc, LimitsAreEnforced) {
  CalcLimits small;
  small.max_result_bits = 1000;
  small.max_factorial = 50;
  small.max_nesting = 10;
  EXPECT_TRUE(eval("2^997 * 2", small) == eval("2^998"));  // 998 + 2 bits: at the limit
  EXPECT_EQ(error_of("2^999 * 2", small).rfind("column 7: the product would have about 1002 bits, more than the limit of 1000", 0), 0u)
      << error_of("2^999 * 2", small);
  EXPECT_EQ(error_of("2^1000", small).rfind("column 2: the power", 0), 0u) << error_of("2^1000", small);
  EXPECT_EQ(error_of("1 << 1000", small).rfind("column 3: the shifted value", 0), 0u);
  EXPECT_EQ(error_of("fact(51)", small).rfind("column 1: the argument of fact must be from 0 to 50", 0), 0u);
  EXPECT_EQ(eval("((((((((((1))))))))))", small).to_int64(), 1);  // 10 levels
  EXPECT_EQ(error_of("(((((((((((1)))))))))))", small).rfind("column 12: expression nested too deeply", 0), 0u)
      << error_of("(((((((((((1)))))))))))", small);
  EXPECT_EQ(eval("----------1", small).to_int64(), 1);  // 10 levels
  EXPECT_EQ(error_of("-----------1", small).rfind("column 12: expression nested too deeply", 0), 0u);
  // Long flat chains do not nest, however long.
  std::string sum = "1";
  for (int i = 0; i < 5000; ++i) sum += "+1";
  EXPECT_EQ(eval(sum, small).to_int64(), 5001);
  // The default limit of 1000 levels holds without exhausting the stack.
  EXPECT_EQ(eval(std::string(1000, '(') + "7" + std::string(1000, ')')).to_int64(), 7);
}

MPGPU_INSTANTIATE_ON_BACKEND(Calc);

}  // namespace
