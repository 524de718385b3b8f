// Per-thread arithmetic modulo one limb for the single-limb division scan
// (div_limb.cuh): a divisor with its precomputed reciprocal, the 2-by-1
// division of Moller and Granlund ("Improved division by invariant
// integers", 2011, algorithm 4), Montgomery products by known weights, the
// affine maps x -> x*w + r (mod d) that the scan composes, and the exact
// division that turns a run's remainders into its quotient. No hardware
// division: reciprocals and inverses are computed once on the host.
//
// The scan runs with an odd divisor only (an even d = odd 2^t divides a >> t
// by odd instead; div_limb.cuh): then Montgomery products (two products and
// a conditional add, where a product mod d by 2-by-1 division takes three
// and two corrections) and Hensel's exact division apply.
//
// Host and device compile the same code (MPGPU_HD), so the host test
// (tests/integer/div_limb_math.cpp) checks exactly what the kernel runs.
// These are limb-level primitives; they live beside their only user until
// a second one needs them in limb/.
#pragma once

#include "mpgpu/limb/arith.cuh"
#include "mpgpu/limb/config.cuh"

namespace mpgpu::device {

/// A divisor d != 0 normalized for 2-by-1 division: dn = d << shift has its
/// top bit set and inv = floor((2^128 - 1) / dn) - 2^64; for odd d also
/// d_inv = d^-1 mod 2^64 (Montgomery products, exact division), else 0.
struct LimbDivisor {
  limb_t d;
  limb_t dn;
  limb_t inv;
  int shift;
  limb_t d_inv;
};

/// floor((2^128 - 1) / dn) - 2^64 for dn with its top bit set (GMP's
/// invert_limb). Host only: one 128-by-64 division per operation.
inline limb_t invert_limb(limb_t dn) {
  const unsigned __int128 num = (static_cast<unsigned __int128>(~dn) << 64) | ~limb_t{0};
  return static_cast<limb_t>(num / dn);  // < 2^64 because dn >= 2^63
}

inline LimbDivisor make_limb_divisor(limb_t d) {
  LimbDivisor v;
  v.d = d;
  v.shift = limb::count_leading_zeros(d);
  v.dn = d << v.shift;
  v.inv = invert_limb(v.dn);
  v.d_inv = d & 1 ? limb::inverse_odd(d) : 0;
  return v;
}

/// q = floor((nh:nl) / dn), r = (nh:nl) mod dn, for nh < dn (so q < 2^64).
/// Moller-Granlund algorithm 4: one high and two low products, at most two
/// corrections, the second rare.
MPGPU_HD limb_t udiv_qrnnd_preinv(limb_t& r, limb_t nh, limb_t nl, limb_t dn, limb_t inv) {
  limb_t q1;
  limb_t q0 = limb::mul_wide(inv, nh, q1);
  // (q1:q0) += (nh + 1 : nl), mod 2^128
  const limb_t c = limb::add_with_carry(q0, nl, 0, q0);
  q1 += nh + 1 + c;
  limb_t rem = nl - q1 * dn;
  if (rem > q0) {  // the estimate was one too large
    --q1;
    rem += dn;
  }
  if (rem >= dn) {  // rare: one too small
    ++q1;
    rem -= dn;
  }
  r = rem;
  return q1;
}

/// One step of long division by d, with the remainder kept shifted
/// (rn = r << shift < dn): (r:u) = q*d + r'; returns q, updates rn.
MPGPU_HD limb_t div_step(limb_t& rn, limb_t u, const LimbDivisor& v) {
  // rn has zeros in its low `shift` bits, so | is +; nh < dn because
  // rn <= dn - 2^shift and the bits shifted in are < 2^shift.
  const limb_t nh = rn | (v.shift ? u >> (64 - v.shift) : 0);
  const limb_t nl = u << v.shift;
  return udiv_qrnnd_preinv(rn, nh, nl, v.dn, v.inv);
}

/// a * b / 2^64 mod d for odd d and b < d: the product by a weight b kept
/// in Montgomery form (b = w 2^64 mod d, to_montgomery) is a * w mod d.
MPGPU_HD limb_t mont_mul(limb_t a, limb_t b, const LimbDivisor& v) {
  return limb::montgomery_mul(a, b, v.d, v.d_inv);
}

/// (a + b) mod d for a, b < d.
MPGPU_HD limb_t add_mod(limb_t a, limb_t b, const LimbDivisor& v) {
  const limb_t s = a + b;
  return (s < a || s >= v.d) ? s - v.d : s;
}

/// x -> x*w + r (mod d): how a run of limbs turns the remainder coming in
/// from above into the remainder going out below (w = 2^(64*len) mod d,
/// r = the run's value mod d). w is kept in Montgomery form (w 2^64 mod d),
/// r plainly. {2^64 mod d, 0} is the identity, {0, x} the constant x.
struct RemainderMap {
  limb_t w;
  limb_t r;
};

/// The map of `upper` followed by `lower` (upper holds the more significant
/// limbs, so the remainder passes through it first).
MPGPU_HD RemainderMap compose(RemainderMap upper, RemainderMap lower, const LimbDivisor& v) {
  return {mont_mul(upper.w, lower.w, v), add_mod(mont_mul(upper.r, lower.w, v), lower.r, v)};
}

/// The remainder out of a run with map m when x comes in.
MPGPU_HD limb_t apply(RemainderMap m, limb_t x, const LimbDivisor& v) { return add_mod(mont_mul(x, m.w, v), m.r, v); }

/// Most limbs a thread of the division scan owns (ItemPowers' capacity).
inline constexpr int kMaxDivItems = 32;

/// 2^(64 j) mod d for j < kMaxDivItems: the weights of a thread's limbs;
/// and 2^(64 k) mod d for k = 0, 1, 2 in Montgomery form, to reduce a
/// three-word sum (a kernel parameter, 280 bytes).
struct ItemPowers {
  limb_t c[kMaxDivItems];
  limb_t fold[3];
};

/// Limb j of the run u[0..items) shifted right by twos (0 <= twos < 64),
/// `above` the limb above the run: how the scan reads a >> twos when d is
/// even (div_limb.cuh) from the unshifted limbs.
MPGPU_HD limb_t run_limb(const limb_t* u, int j, int items, limb_t above, int twos) {
  if (twos == 0) return u[j];
  const limb_t hi = j + 1 < items ? u[j + 1] : above;
  return (u[j] >> twos) | (hi << (64 - twos));
}

/// The remainder of the run (u >> twos)[0..items) (run_limb) by an odd d as
/// one dot product s = sum u[j] (2^(64 j) mod d): independent products,
/// where Horner takes `items` dependent steps. The sum is below items *
/// 2^128 <= 2^133, three words s0 + s1 2^64 + s2 2^128, reduced by one
/// Montgomery product per word.
MPGPU_HD limb_t chunk_remainder(const limb_t* u, int items, limb_t above, int twos, const ItemPowers& powers,
                                const LimbDivisor& v) {
  limb_t s0 = 0, s1 = 0, s2 = 0;
  for (int j = 0; j < items; ++j) limb::mul_accumulate(run_limb(u, j, items, above, twos), powers.c[j], s0, s1, s2);
  const limb_t low = add_mod(mont_mul(s0, powers.fold[0], v), mont_mul(s1, powers.fold[1], v), v);
  return add_mod(low, mont_mul(s2, powers.fold[2], v), v);
}

/// The quotient of the run (u >> twos)[0..items) (run_limb; u[0] least
/// significant) by an odd d when the remainder r_in comes in from above and
/// r_out goes out below, in place: u becomes floor((r_in B^items + u) / d),
/// B = 2^64. With both remainders known the division is exact,
///   r_in B^items + u - r_out = Q d, Q < B^items (as r_in < d),
/// so Q = (u - r_out) d^-1 mod B^items, which needs neither r_in nor the
/// limbs above: Hensel's exact division from the low end (Jebelean; GMP's
/// mpn_divexact_1), q_j = (u_j - c) d^-1 mod B, then c = hi(q_j d) +
/// borrow, starting from c = r_out. One low and one high product a limb,
/// where a 2-by-1 division step from the top takes a full product, a low
/// one and two corrections. c stays <= d, so c = hi + borrow never wraps.
/// u[j + 1] is read before u[j + 1] is written, so the shift reads
/// unshifted limbs.
MPGPU_HD void chunk_quotient(limb_t* u, int items, limb_t above, int twos, limb_t r_out, const LimbDivisor& v) {
  limb_t c = r_out;
  for (int j = 0; j < items; ++j) {
    const limb_t x = run_limb(u, j, items, above, twos);
    const limb_t q = (x - c) * v.d_inv;
    c = limb::mul_hi(q, v.d) + (x < c);
    u[j] = q;
  }
}

/// (w^0 .. w^32) 2^64 mod d, w = 2^(64*kTile) mod d (the weight of every
/// PARTIAL tile of the look-back, in Montgomery form): a kernel parameter
/// (264 bytes).
struct TilePowers {
  limb_t w[33];
};

/// The map of a window of tiles: value[l] is the remainder of the tile l
/// places back (l = 0..last, the nearest first), each a PARTIAL map
/// {w, value[l]} except, when `inclusive`, tile `last` (the constant map
/// {0, value[last]}). Composed from the farthest down, that is
/// {inclusive ? 0 : w^(last+1), sum_l value[l] w^l mod d}; the look-back
/// computes the sum across a warp, one lane per tile.
MPGPU_HD RemainderMap window_map(const limb_t* value, int last, bool inclusive, const TilePowers& powers,
                                 const LimbDivisor& v) {
  limb_t sum = 0;
  for (int l = 0; l <= last; ++l) sum = add_mod(sum, mont_mul(value[l], powers.w[l], v), v);
  return {inclusive ? limb_t{0} : powers.w[last + 1], sum};
}

/// Montgomery arithmetic mod an odd d on the host, to build the tables
/// below: three 128-bit divisions in all (the reciprocal, 2^128 mod d),
/// then Montgomery products, where the tables by 128-bit `%` took about
/// 280 divisions, several microseconds of every division call.
struct HostMontgomery {
  LimbDivisor v;
  limb_t one;   ///< 2^64 mod d: 1 in Montgomery form
  limb_t base;  ///< 2^128 mod d: 2^64 in Montgomery form

  explicit HostMontgomery(limb_t d)
      : v(make_limb_divisor(d)),
        one((limb_t{0} - d) % d),
        base(static_cast<limb_t>((static_cast<unsigned __int128>(one) << 64) % d)) {}

  limb_t mul(limb_t a, limb_t b) const { return mont_mul(a, b, v); }
  /// The plain residue of x in Montgomery form.
  limb_t plain(limb_t x) const { return mont_mul(x, 1, v); }
  /// x^k, both in Montgomery form.
  limb_t pow(limb_t x, std::uint64_t k) const {
    limb_t acc = one;
    for (; k; k >>= 1, x = mul(x, x))
      if (k & 1) acc = mul(acc, x);
    return acc;
  }
  /// out[j] = x^j for j < count, in Montgomery form.
  void powers(limb_t x, limb_t* out, int count) const {
    limb_t acc = one;
    for (int j = 0; j < count; ++j, acc = mul(acc, x)) out[j] = acc;
  }
};

/// The ItemPowers of odd d, on the host.
inline ItemPowers item_powers(limb_t d) {
  const HostMontgomery m(d);
  ItemPowers t{};
  m.powers(m.base, t.c, kMaxDivItems);
  for (int k = 0; k < 3; ++k) t.fold[k] = t.c[k];
  for (limb_t& c : t.c) c = m.plain(c);
  return t;
}

/// The weights of the block scan of the division, in Montgomery form (every
/// thread's run has kItems limbs, so its map has the weight W = 2^(64
/// kItems) mod d, and a warp's W^32): thread[j] = W^j, warp[j] = W^(32 j),
/// j <= 32. With the weights known, a scan step is one product mod d, not a
/// composition of two maps (two products).
struct ScanPowers {
  limb_t thread[33];
  limb_t warp[33];
};

/// The ScanPowers for runs of `items` limbs and odd d, on the host.
inline ScanPowers scan_powers(std::uint64_t items, limb_t d) {
  const HostMontgomery m(d);
  ScanPowers t{};
  const limb_t w = m.pow(m.base, items);
  m.powers(w, t.thread, 33);
  m.powers(m.pow(w, 32), t.warp, 33);
  return t;
}

/// The TilePowers of w = 2^(64*tile_limbs) mod d for odd d, on the host.
inline TilePowers tile_powers(std::uint64_t tile_limbs, limb_t d) {
  const HostMontgomery m(d);
  TilePowers t{};
  m.powers(m.pow(m.base, tile_limbs), t.w, 33);
  return t;
}

}  // namespace mpgpu::device
