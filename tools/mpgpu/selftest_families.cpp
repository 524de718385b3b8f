// `mpgpu selftest`: the operation families, their share of the cases, and
// which family a case number runs.
#include "selftest_case.hpp"

namespace mpgpu::cli::selftest {

const std::vector<Family>& all_families() {
  // Weights: the share of cases (out of their sum, 100). The linear and
  // product families are the most used and the cheapest, so they get the
  // most; the number-theory families cost more per case.
  static const std::vector<Family> families = {
      {"add", false, 8, "add, sub, neg, abs, cmp, cmpabs, <=>, ==, sgn, sum", run_add_case},
      {"mul", false, 8, "mul, sqr", run_mul_case},
      {"div", false, 8,
       "tdiv/fdiv/cdiv qr, q and r, mod, divexact, divisible_p, congruent_p, tdiv_qr_ui, tdiv_q_ui, tdiv_ui, "
       "division by zero",
       run_div_case},
      {"shift", false, 5, "mul_2exp, tdiv_q_2exp, fdiv_q_2exp", run_shift_case},
      {"bitwise", false, 6, "and_, ior, xor_, com, popcount, sizeinbase2, tstbit, setbit, clrbit", run_bitwise_case},
      {"pow", false, 3, "pow_ui, ui_pow_ui", run_pow_case},
      {"powm", false, 3, "powm (negative exponents and moduli, no inverse, m = 0)", run_powm_case},
      {"sqrt", false, 3, "sqrt, sqrtrem, perfect_square_p", run_sqrt_case},
      {"root", false, 3, "root (k = 0 and even roots of negatives throw)", run_root_case},
      {"sequence", false, 2, "fac_ui, fib_ui, lucnum_ui, bin_uiui, bin_ui", run_sequence_case},
      {"gcd", false, 3, "gcd, lcm", run_gcd_case},
      {"gcdext", false, 2, "gcdext", run_gcdext_case},
      {"invert", false, 2, "invert (no inverse leaves r alone, m = 0 throws)", run_invert_case},
      {"string", false, 4, "to_string, from_string (bases 2..62 and 0, bad characters)", run_string_case},
      {"convert", false, 4,
       "from/to bytes, from/to limbs, int64/uint64, sizeinbase, copies, to_context, all_ones, power_of_two",
       run_convert_case},
      {"batch_linear", true, 8,
       "add/sub with carry and borrow, add_ui, sub_ui, mul_ui, and_, ior, xor_, com, shifts, rotates, "
       "shift_right_arithmetic",
       run_batch_linear_case},
      {"batch_mul", true, 8, "mul, mul_high, mul_wide, sqr, mul_high_signed", run_batch_mul_case},
      {"batch_div", true, 6, "div_ui, rem_ui, div_qr, div, rem, div_qr_wide, div_wide, rem_wide, zero divisors",
       run_batch_div_case},
      {"batch_compare", true, 4, "compare, equals, popcount, count_leading_zeros, count_trailing_zeros, compare_signed",
       run_batch_compare_case},
      {"batch_gcd", true, 3, "gcd, invert (an instance without inverse throws)", run_batch_gcd_case},
      {"batch_montgomery", true, 4,
       "to_montgomery, from_montgomery, montgomery_mul, montgomery_sqr, montgomery_reduce (even moduli throw)",
       run_batch_montgomery_case},
      {"batch_powm", true, 3, "powm (default, fixed and sliding windows)", run_batch_powm_case},
  };
  return families;
}

const Family& family_of_case(std::uint64_t seed, std::uint64_t n) {
  const std::vector<Family>& all = all_families();
  static const unsigned total = [&] {
    unsigned t = 0;
    for (const Family& f : all) t += f.weight;
    return t;
  }();
  CaseRng pick(seed ^ 0x5BD1E9955BD1E995ull, n);  // not the case's own generator
  std::uint64_t r = pick.below(total);
  for (const Family& f : all) {
    if (r < f.weight) return f;
    r -= f.weight;
  }
  return all.back();
}

}  // namespace mpgpu::cli::selftest
