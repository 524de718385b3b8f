// Huge products with digits of D = 2 or 4 limbs per NTT point (see
// ntt_product.hpp). A transform costs about N (log N + c) and the primes
// needed grow with D (2 D + 1 of them, ntt/crt_many.cuh), so D-limb digits
// take 3 (2 D + 1) transforms of N / D points instead of 9 of N: fewer
// point-stages, as log N is smaller. At 2^30 bits D = 2 and D = 4 measured
// faster than D = 1 (docs/tuning-history.md, "Huge products: digit sizes").
//
// Steps: per prime (run_prime_product) the coefficients mod p_i into row i
// of P rows of N words; one kernel turns column j of the rows into the
// 2 D + 1 limbs of coefficient c_j (Garner, CrtMany) and adds c_j at limb
// D j: limb L of the product sums limb t of c_((L - t) / D) for t = L mod D,
// + D, + 2 D (at most three words, so a carry below 3), kept as lo (m words)
// and carry (m + 1 words); one scan add finishes. Memory: P N + max(N, m) +
// (m + 1) words besides the result.
#include <algorithm>
#include <cstdint>
#include <string>

#include "cuda/check.cuh"
#include "cuda/ntt_product.hpp"
#include "cuda/scoped_memory.cuh"
#include "mpgpu/ntt/block_plan.hpp"
#include "mpgpu/ntt/crt_many.cuh"
#include "mpgpu/tuning/table.hpp"

namespace mpgpu::detail::cuda {

namespace {

constexpr int kCrtThreads = 256;

/// Garner and the column sums in one pass, so the coefficients never go
/// back to memory. Block b takes coefficients j0 = b kCrtThreads .. j0 +
/// kCrtThreads - 1 (rows[i * n + j]: residue mod prime i), one a thread, and
/// keeps their 2 kD + 1 limbs in shared memory with those of c_(j0-2) and
/// c_(j0-1); then it writes limbs L = kD j0 .. kD (j0 + kCrtThreads) - 1 (and
/// < m) of lo and carry: lo[L] = low word of the sum of limb t of
/// c_((L - t) / kD) over t = L mod kD + {0, kD, 2 kD}, t <= 2 kD (at most
/// three words), carry[L + 1] = its high word (< 3), carry[0] = 0.
template <int kP, int kD>
__global__ void __launch_bounds__(kCrtThreads) crt_columns_kernel(const std::uint64_t* rows, std::size_t n,
                                                                  ntt::CrtMany<kP> crt, std::size_t count,
                                                                  std::uint64_t* lo, std::uint64_t* carry,
                                                                  std::size_t m) {
  constexpr int kL = 2 * kD + 1;
  static_assert(kL <= kP);
  __shared__ std::uint64_t c[kL][kCrtThreads + 2];  // slot s: c_(j0 - 2 + s)
  const std::size_t j0 = std::size_t(blockIdx.x) * kCrtThreads;
  auto coefficient = [&](std::size_t j, bool valid, int slot) {
    std::uint64_t limbs[kL];
#pragma unroll
    for (int t = 0; t < kL; ++t) limbs[t] = 0;
    if (valid && j < count) {
      std::uint64_t r[kP];
#pragma unroll
      for (int i = 0; i < kP; ++i) r[i] = rows[i * n + j];
      crt.template combine<kL>(r, limbs);
    }
#pragma unroll
    for (int t = 0; t < kL; ++t) c[t][slot] = limbs[t];
  };
  coefficient(j0 + threadIdx.x, true, threadIdx.x + 2);
  if (threadIdx.x < 2) coefficient(j0 + threadIdx.x - 2, j0 + threadIdx.x >= 2, threadIdx.x);  // c_(j0-2), c_(j0-1)
  __syncthreads();
#pragma unroll
  for (int k = 0; k < kD; ++k) {
    const int i = threadIdx.x + k * kCrtThreads;  // limb L = kD j0 + i; L mod kD = i mod kD
    const std::size_t l = kD * j0 + i;
    if (l >= m) break;
    std::uint64_t s = 0, h = 0;
#pragma unroll
    for (int u = 0; u < 3; ++u) {
      const int t = i % kD + u * kD;
      if (t > 2 * kD) break;  // c_j has limbs 0 .. 2 kD
      h += limb::add_with_carry(s, c[t][2 + i / kD - u], 0, s);  // c_(j0 + i / kD - u)
    }
    lo[l] = s;
    carry[l + 1] = h;
    if (l == 0) carry[0] = 0;
  }
}

template <int kP, int kD>
void crt_and_columns(Stream s, const std::uint64_t* rows, std::size_t n, std::size_t count, std::uint64_t* lo,
                     std::uint64_t* carry, std::size_t m) {
  const std::size_t blocks = (count + kCrtThreads - 1) / kCrtThreads;
  if (blocks > 0x7fffffffu) throw Overflow("mpgpu::mul: too many coefficients for one grid");
  crt_columns_kernel<kP, kD><<<static_cast<unsigned>(blocks), kCrtThreads, 0, s>>>(
      rows, n, ntt::CrtMany<kP>::make(), count, lo, carry, m);
  MPGPU_CHECK_LAUNCH("crt_columns_kernel");
}

/// Words of device memory a plan takes, the result's m + 2 included.
std::size_t plan_words(const DigitsPlan& p, std::size_t m) {
  const std::size_t n = std::size_t{1} << p.log_n;
  if (p.limbs == 1) return (4 * n + 2 * m + 3 > 8 * m ? n + 2 * m : 3 * n) + n + (m + 1) + (m + 2);  // ntt_mul.cu
  return p.primes * n + std::max(n, m) + (m + 1) + (m + 2);
}

/// Modelled seconds of a plan, to rank the digit sizes, with the tuning
/// table's coefficients (tuning::table::kNttDigitModel, fitted on an H100):
/// a pass of k stages costs pass_point + k stage_point a point, plus
/// narrow_pass_point for a strided pass of fewer than 4 columns (rows read
/// and written in runs of 16 bytes, half a 32-byte sector), plus a launch;
/// a forward transform's first pass reads D limbs a point, digit_limb_point
/// each beyond the first; Garner costs garner_point_prime2 per coefficient
/// and prime^2; the column sums write 2 m words at column_bytes_per_s. The
/// absolute times run under the measured ones; only the ranking matters
/// (docs/tuning-history.md, "Huge products: digit sizes").
double plan_seconds(const DigitsPlan& p, std::size_t m, bool square) {
  constexpr tuning::sm90::NttDigitModel model = tuning::table::kNttDigitModel;
  const double n = double(std::size_t{1} << p.log_n);
  const auto passes = ntt::block_passes(p.log_n, 1, false);
  double point_ps = 0;
  for (const ntt::BlockPass& pass : passes) {
    const bool narrow = pass.hi - pass.k + 1 > 0 && pass.log_c < 2;
    point_ps += model.pass_point_ps + model.stage_point_ps * pass.k + (narrow ? model.narrow_pass_point_ps : 0);
  }
  const double transform = n * point_ps * 1e-12 + model.pass_launch_s * double(passes.size());
  const double forwards = square ? 1 : 2;
  const double loads = forwards * n * model.digit_limb_point_ps * 1e-12 * (p.limbs - 1);
  const double per_prime = (forwards + 1) * transform + loads;
  const double columns = 8.0 * 2.0 * double(m) / model.column_bytes_per_s;
  return p.primes * per_prime + model.garner_point_prime2_ps * 1e-12 * n * p.primes * p.primes + columns;
}

DigitsPlan plan_for(std::size_t na, std::size_t nb, int limbs) {
  DigitsPlan p;
  p.limbs = limbs;
  const std::size_t da = (na + limbs - 1) / limbs, db = (nb + limbs - 1) / limbs;
  p.primes = ntt::digits_primes(limbs, std::min(da, db));
  while ((std::size_t{1} << p.log_n) < da + db) ++p.log_n;
  return p;
}

}  // namespace

DigitsPlan choose_digits(std::size_t na, std::size_t nb, bool square, int forced_limbs) {
  const std::size_t m = na + nb;
  const int forced = forced_limbs == 1 || forced_limbs == 2 || forced_limbs == 4 ? forced_limbs : 0;
  DigitsPlan best = plan_for(na, nb, 1);
  double best_time = plan_seconds(best, m, square);
  for (int limbs : {2, 4}) {
    const DigitsPlan p = plan_for(na, nb, limbs);
    // Short transforms measured slower than the model says
    // (docs/tuning-history.md, "Huge products: digit sizes"): with few
    // tiles per SM less of their work overlaps.
    const bool usable = p.primes != 0 && plan_words(p, m) <= 8 * m &&
                        (forced == limbs || p.log_n >= tuning::table::kNttDigitModel.digits_min_log_n);
    if (!usable) continue;
    const double time = plan_seconds(p, m, square);
    if (forced == limbs || (forced == 0 && time < best_time)) {
      best = p;
      best_time = time;
    }
  }
  return forced == 1 ? plan_for(na, nb, 1) : best;
}

Deferred mul_abs_digits(ContextState& st, Stream s, limb_t* r, Operand a, Operand b, bool square,
                       const DigitsPlan& plan) {
  const std::size_t m = a.size + b.size, n = std::size_t{1} << plan.log_n;
  const std::size_t count = (a.size + plan.limbs - 1) / plan.limbs + (b.size + plan.limbs - 1) / plan.limbs;
  for (int i = 0; i < plan.primes; ++i)
    if (plan.log_n > field::ntt_primes62[i].n)
      throw Overflow("mpgpu::mul: a product of " + std::to_string(m) + " limbs exceeds the NTT length limit");
  ScopedDeviceMemory residues(st, s, plan.primes * n * sizeof(std::uint64_t));
  ScopedDeviceMemory other(st, s, std::max(n, m) * sizeof(std::uint64_t));
  ScopedDeviceMemory carries(st, s, (m + 1) * sizeof(std::uint64_t));
  std::uint64_t* const rows = residues.as<std::uint64_t>();
  std::uint64_t* const y = other.as<std::uint64_t>();
  for (int i = 0; i < plan.primes; ++i) {
    std::uint64_t* const x = rows + i * n;
    run_prime_product(st, s, field::ntt_primes62[i], {a, b, square, plan.log_n, plan.limbs, x, y, x});
  }
  std::uint64_t* const lo = y;  // m words: b's spectra are no longer needed
  std::uint64_t* const carry = carries.as<std::uint64_t>();
  if (plan.limbs == 2 && plan.primes == 5) crt_and_columns<5, 2>(s, rows, n, count, lo, carry, m);
  else if (plan.limbs == 4 && plan.primes == 9) crt_and_columns<9, 4>(s, rows, n, count, lo, carry, m);
  else throw Overflow("mpgpu::mul: no CRT set for " + std::to_string(plan.limbs) + "-limb digits of a product of " +
                      std::to_string(m) + " limbs");
  // r = carry (m + 1 limbs) + lo (m limbs); neither need be normalized.
  return add_abs(st, s, r, {carry, m + 1}, {lo, m});
}

}  // namespace mpgpu::detail::cuda
