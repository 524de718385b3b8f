// `mpgpu selftest`: the operation families, their shares of the workers'
// time, and which family a case number runs.
#include "selftest_case.hpp"
#include "selftest_schedule.hpp"

namespace mpgpu::cli::selftest {

const std::vector<Family>& all_families() {
  // Weights: a family's share of its group's time (the Integer families'
  // weights sum to 100, the batch families' too; RunSettings::batch_share
  // splits the time between the groups). The linear, product and division families are the
  // most used, so they get the most; the number-theory families' cases cost
  // more each but also hold the most code paths, so they get nearly as much.
  static const std::vector<Family> families = {
      {"add", false, 8, "add, sub, neg, abs, cmp, cmpabs, <=>, ==, sgn, sum", run_add_case},
      {"mul", false, 10, "mul, sqr", run_mul_case},
      {"div", false, 10,
       "tdiv/fdiv/cdiv qr, q and r, mod, divexact, divisible_p, congruent_p, tdiv_qr_ui, tdiv_q_ui, tdiv_ui, "
       "division by zero",
       run_div_case},
      {"shift", false, 4, "mul_2exp, tdiv_q_2exp, fdiv_q_2exp", run_shift_case},
      {"bitwise", false, 5, "and_, ior, xor_, com, popcount, sizeinbase2, tstbit, setbit, clrbit", run_bitwise_case},
      {"pow", false, 5, "pow_ui, ui_pow_ui", run_pow_case},
      {"powm", false, 8, "powm (negative exponents and moduli, no inverse, m = 0)", run_powm_case},
      {"sqrt", false, 8, "sqrt, sqrtrem, perfect_square_p", run_sqrt_case},
      {"root", false, 7, "root (k = 0 and even roots of negatives throw)", run_root_case},
      {"sequence", false, 4, "fac_ui, fib_ui, lucnum_ui, bin_uiui, bin_ui", run_sequence_case},
      {"gcd", false, 8, "gcd, lcm", run_gcd_case},
      {"gcdext", false, 7, "gcdext", run_gcdext_case},
      {"invert", false, 5, "invert (no inverse leaves r alone, m = 0 throws)", run_invert_case},
      {"string", false, 6, "to_string, from_string (bases 2..62 and 0, bad characters)", run_string_case},
      {"convert", false, 5,
       "from/to bytes, from/to limbs, int64/uint64, sizeinbase, copies, to_context, all_ones, power_of_two",
       run_convert_case},
      {"batch_linear", true, 18,
       "add/sub with carry and borrow, add_ui, sub_ui, mul_ui, and_, ior, xor_, com, shifts, rotates, "
       "shift_right_arithmetic",
       run_batch_linear_case},
      {"batch_mul", true, 18, "mul, mul_high, mul_wide, sqr, mul_high_signed", run_batch_mul_case},
      {"batch_div", true, 14, "div_ui, rem_ui, div_qr, div, rem, div_qr_wide, div_wide, rem_wide, zero divisors",
       run_batch_div_case},
      {"batch_compare", true, 14, "compare, equals, popcount, count_leading_zeros, count_trailing_zeros, compare_signed",
       run_batch_compare_case},
      {"batch_gcd", true, 12, "gcd, invert (an instance without inverse throws)", run_batch_gcd_case},
      {"batch_montgomery", true, 12,
       "to_montgomery, from_montgomery, montgomery_mul, montgomery_sqr, montgomery_reduce (even moduli throw)",
       run_batch_montgomery_case},
      {"batch_powm", true, 12, "powm (default, fixed and sliding windows)", run_batch_powm_case},
  };
  return families;
}

const Family& family_of_case(std::uint64_t n) {
  const std::vector<Family>& all = all_families();
  return all[TimeShareScheduler::family_of(n, all.size())];
}

std::vector<double> time_shares(const std::vector<bool>& selected, double batch_share) {
  const std::vector<Family>& all = all_families();
  double weights[2] = {0, 0};  // selected weight per group: Integer, batch
  for (std::size_t i = 0; i < all.size(); ++i)
    if (selected[i]) weights[all[i].batch] += all[i].weight;
  // A group that has nothing selected leaves the whole time to the other.
  const double group[2] = {weights[1] > 0 ? 1 - batch_share : 1, weights[0] > 0 ? batch_share : 1};
  std::vector<double> shares(all.size(), 0);
  for (std::size_t i = 0; i < all.size(); ++i)
    if (selected[i]) shares[i] = group[all[i].batch] * all[i].weight / weights[all[i].batch];
  return shares;
}

}  // namespace mpgpu::cli::selftest
