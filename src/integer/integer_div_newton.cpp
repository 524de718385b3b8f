// Division by a large divisor on the device: a Newton iteration for the
// reciprocal of the divisor's top bits, built from device Integer operations
// only (mul on the NTT product, shifts, add/sub), then the quotient from the
// reciprocal and a final correction checked by comparisons. Host GMP makes
// only the seed of the iteration, from the divisor's top kHostSeedBits bits.
//
// Notation: D = |d| with k bits, N = |n| with L >= k bits. The quotient has
// at most L - k + 1 bits, so the reciprocal needs s = L - k + 1 + kGuardBits
// bits: X ~ 2^(2s) / D_s where D_s = D * 2^(s - k) (D's top s bits, or D
// padded with zeros when s > k). Newton doubles the precision per step:
// from X_t at t bits to T <= 2t - 4 bits,
//   X' = X_t * 2^(T - t),  X_T = X' + floor(X' * (2^(2T) - D_T X') / 2^(2T)),
// which squares the relative error (e -> e^2, plus about 2^-(T-1) from
// truncating D_T, E and the floors); with T <= 2t - 4 an error below
// 2^-(t-3) gives one below 2^-(T-3). Cost: each step multiplies T x t and
// t x (T - t) bits: about 1.25 s-by-s products for the last step and as
// much again for all the earlier ones; the quotient and the remainder take
// one more each (about 4.5 products in all, for a quotient as long as d).
// Then Q' = floor(N_top * X / 2^(s + k - j)) with N_top = N >> j (N's top
// s + 1 bits) is within Q * 2^-(s-4) + 2 < 3 of Q = floor(N / D), because
// Q < 2^(L-k+1) = 2^(s - kGuardBits). R = N - Q' D is then corrected by at
// most a few steps of +-D, each decided by a comparison.
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "context/context_state.hpp"
#include "integer_div_paths.hpp"

namespace mpgpu::detail {

namespace {

/// Bits of reciprocal precision beyond the quotient's (see above).
constexpr std::uint64_t kGuardBits = 64;
/// Precision (bits) of the reciprocal's seed, computed by GMP on the host:
/// every halving below it would be a Newton step of some six dependent
/// device operations (one reading a size back), each step costing at least
/// as much as GMP's whole division of 2 x 32768 by 32768 bits
/// (docs/integer.md, "Division and number theory", has the timings).
constexpr std::uint64_t kHostSeedBits = 32768;
/// A correct X leaves |Q' - Q| < 3; more steps than this mean a bug.
constexpr int kMaxCorrections = 8;

/// D * 2^(t - k): D's top t bits (or D padded with zeros).
Integer top_bits(const Integer& D, std::uint64_t k, std::uint64_t t) {
  Integer r(D.context());
  if (t <= k) tdiv_q_2exp(r, D, k - t);
  else mul_2exp(r, D, t - k);
  return r;
}

/// X ~ 2^(2s) / (D * 2^(s - k)), relative error below 2^-(s-3).
Integer newton_reciprocal(const Integer& D, std::uint64_t k, std::uint64_t s) {
  const Context& ctx = D.context();
  std::vector<std::uint64_t> precisions{s};  // s, then about halving down to <= kHostSeedBits
  while (precisions.back() > kHostSeedBits) precisions.push_back(precisions.back() / 2 + 3);
  // Seed: floor(2^(2 t0) / D_t0), exact, by GMP on the host from D's top t0
  // bits (one read-back); below 1 in the last place, so its relative error
  // is below 2^-(t0-1).
  const std::uint64_t t0 = precisions.back();
  mpz_t d_t0, seed;
  mpz_init(d_t0);
  mpz_init(seed);
  Integer X(ctx);
  try {
    top_bits(D, k, t0).to_mpz(d_t0);  // in [2^(t0-1), 2^t0)
    mpz_setbit(seed, 2 * t0);
    mpz_tdiv_q(seed, seed, d_t0);  // < 2^(t0+1)
    X = Integer::from_mpz(seed, ctx);
  } catch (...) {
    mpz_clear(d_t0);
    mpz_clear(seed);
    throw;
  }
  mpz_clear(d_t0);
  mpz_clear(seed);
  std::uint64_t t = t0;
  Integer E(ctx), P(ctx);
  for (auto it = precisions.rbegin() + 1; it != precisions.rend(); ++it) {
    const std::uint64_t T = *it;
    // E = 2^(2T) - D_T X' with X' = X_t 2^(T - t) (t + 1 significant bits).
    mul(E, top_bits(D, k, T), X);
    mul_2exp(E, E, T - t);
    sub(E, Integer::power_of_two(2 * T, ctx), E);
    // X' E / 2^(2T) ~ 2^(T - t + 1) needs E only to about T - t bits: keep
    // its top T - t + 8 (the product is then t x (T - t) bits, not T x 2T).
    const std::uint64_t keep = T - t + 8, e_bits = sizeinbase2(E);
    const std::uint64_t h = e_bits > keep ? e_bits - keep : 0;
    fdiv_q_2exp(E, E, h);
    mul(P, X, E);
    if (h <= T + t) fdiv_q_2exp(P, P, T + t - h);
    else mul_2exp(P, P, h - T - t);  // only for a far-off X: Newton still converges
    mul_2exp(X, X, T - t);
    add(X, X, P);
    t = T;
  }
  return X;
}

}  // namespace

/// From the context's division_min_limbs (TuningParams; kDeviceDivisionMinLimbs
/// by default) divisor limbs up, and a dividend at least as long.
bool newton_division_applies(const Integer& n, const Integer& d) {
  return n.context().is_cuda() && d.size() >= detail::ContextAccess::state(n.context()).tuning.division_min_limbs &&
         n.size() >= d.size();
}

NewtonDivisor::NewtonDivisor(const Integer& d, std::uint64_t max_dividend_bits, Stream s)
    : D_(d), X_(d.context()) {
  if (D_.sign() < 0) D_.negate();
  k_ = sizeinbase2(D_, s);
  sbits_ = (max_dividend_bits > k_ ? max_dividend_bits - k_ : 0) + 1 + kGuardBits;
  if (max_dividend_bits >= k_) X_ = newton_reciprocal(D_, k_, sbits_);  // else every quotient is 0
}

std::uint64_t NewtonDivisor::max_dividend_bits() const { return k_ + sbits_ - 1 - kGuardBits; }

// divide() truncates N by j = L - sbits - 1 <= k - kGuardBits - 2 bits at most;
// any smaller j only adds precision.
std::uint64_t NewtonDivisor::max_truncation() const { return k_ > kGuardBits + 2 ? k_ - kGuardBits - 2 : 0; }

void NewtonDivisor::divide(Integer* Q_out, Integer& R, const Integer& N, Stream s) const {
  const Context& ctx = N.context();
  const std::uint64_t L = sizeinbase2(N, s);
  if (L > k_ + sbits_ - 1 - kGuardBits)
    throw Error("mpgpu: internal: a " + std::to_string(L) + "-bit dividend for a divisor prepared for " +
                std::to_string(k_ + sbits_ - 1 - kGuardBits) + " bits");
  Integer Q(ctx);
  if (N.sign() == 0 || L < k_) {
    R = N;  // Q = 0
  } else {
    // The reciprocal has sbits_ >= L - k + 1 + kGuardBits bits: the estimate
    // below is within 3 of the quotient for any L up to the prepared size.
    const std::uint64_t j = L > sbits_ + 1 ? L - sbits_ - 1 : 0;
    Integer Ntop(ctx);
    tdiv_q_2exp(Ntop, N, j);
    mul(Q, Ntop, X_);
    tdiv_q_2exp(Q, Q, sbits_ + k_ - j);
    mul(R, Q, D_);
    sub(R, N, R);
    const Integer one(1, ctx);
    int steps = 0;
    while (R.sign() < 0) {
      sub(Q, Q, one);
      add(R, R, D_);
      if (++steps > kMaxCorrections) break;
    }
    while (steps <= kMaxCorrections && cmp(R, D_, s) >= 0) {
      add(Q, Q, one);
      sub(R, R, D_);
      ++steps;
    }
    if (steps > kMaxCorrections)
      throw Error("mpgpu: Newton division needed more than " + std::to_string(kMaxCorrections) +
                  " corrections (a library bug; please report the operand sizes " + std::to_string(L) + " and " +
                  std::to_string(k_) + " bits)");
  }
  if (Q_out) *Q_out = std::move(Q);
}

void divide_newton(Integer* q, Integer* r, const Integer& n, const Integer& d, int d_sign, Rounding rd,
                   Stream s) {
  const Context& ctx = n.context();
  const int n_sign = n.sign();
  Integer N = n;  // magnitude (a device copy: n may alias q or r)
  if (n_sign < 0) N.negate();
  const std::uint64_t L = sizeinbase2(N, s);

  Integer Q(ctx), R(ctx);
  const NewtonDivisor divisor(d, L, s);
  const Integer& D = divisor.magnitude();
  divisor.divide(&Q, R, N, s);
  // Signs and rounding, as GMP: tdiv (sign_n sign_d Q, sign_n R); away from
  // zero when R != 0: Q + 1 and D - R with the divisor's sign (floor) or the
  // opposite (ceil).
  const int q_sign = n_sign * d_sign;
  int r_sign = n_sign;
  if (n_sign != 0 && !R.is_zero() && rounds_away(rd, n_sign, d_sign)) {
    add(Q, Q, Integer(1, ctx));
    sub(R, D, R);
    r_sign = rd == Rounding::floor ? d_sign : -d_sign;
  }
  if (q_sign < 0) Q.negate();
  if (r_sign < 0) R.negate();
  if (q) *q = std::move(Q);
  if (r) *r = std::move(R);
}

}  // namespace mpgpu::detail
