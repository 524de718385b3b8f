// The device API: Env<W, G> runs operations on one fixed-width instance of
// W 32-bit words (32*W bits) held by a group of G threads, thread `rank`
// owning words [rank*L, (rank+1)*L), L = W/G, in registers (a Num). Users'
// kernels make one Env per thread and chain operations on Nums, so a whole
// formula runs in one kernel with intermediates in registers (a chain of
// additions, a polynomial of products and additions).
//
// The Env hides whether a thread (G == 1), lanes of a warp (G <= 32) or
// several warps (G > 32, one instance per block) cooperate. Rules, because
// the group synchronizes inside operations:
//  - every thread of a block makes the same calls in the same order (give
//    instances past the end of the batch zeros, and skip only their stores);
//  - with G > 32, a block holds exactly one instance;
//  - an Env is not copied (pass `const E&`), and a thread keeps one Env
//    over a scratch area: the group's carry resolves alternate halves of
//    its shared words and track which one is next (group.cuh). A kernel
//    that makes a new Env over the same scratch must __syncthreads() first.
// Inside the library the same rule holds: group operations are never skipped
// by a data-dependent branch (e.g. compare broadcasts even when the operands
// are equal), because lanes of other instances in the warp take part.
// Each instance needs Env::scratch_words words of shared memory (see
// launch.cuh for a kernel skeleton that lays this out).
//
// This file: the Env, loads/stores and the linear operations. Products are in
// mul.cuh, Montgomery arithmetic and powm in montgomery.cuh, division in
// divide.cuh, gcd and inverse in gcd.cuh, two's-complement forms in signed.cuh.
#pragma once

#include "mpgpu/batch/group.cuh"
#include "mpgpu/batch/ntt_sizes.cuh"
#include "mpgpu/batch/register_mul.cuh"
#include "mpgpu/batch/warp_io.cuh"

namespace mpgpu::batch {

template <int W, int G>
struct Env {
  static_assert(W % G == 0, "W must be a multiple of the group size");
  static constexpr int words = W;
  static constexpr int threads = G;
  static constexpr int per_thread = W / G;  ///< L: words per thread
  static_assert(per_thread >= 4 && per_thread % 2 == 0, "at least 4 words per thread");
  /// Columns per product-scanning run (mul.cuh): each thread computes runs of `run`
  /// columns, load-balanced in pairs from both ends (as Oancea & Watt's midsize
  /// multiplication balances its threads).
  static constexpr int run = per_thread / 2;
  /// Shared memory of the product staging: operands with zero padding, then
  /// the two partial-sum arrays of the wide product (they reuse the space).
  static constexpr int operand_span = W + 4 * run;
  static constexpr int partial_span = 2 * W + 2 * run;
  /// A thread per instance of at most kRegisterProductMaxWords words
  /// multiplies in registers (register_mul.cuh): no product staging, so
  /// work is only the W words that shifts stage.
  static constexpr bool register_products = G == 1 && W <= kRegisterProductMaxWords;
  /// Classes of at least kNttProductMinWords words multiply through
  /// transforms in shared memory (ntt_mul.cuh), in ntt_work_words(W) words.
  static constexpr bool ntt_products = !register_products && W >= kNttProductMinWords;
  static constexpr int staged_work_words = 2 * operand_span > 2 * partial_span ? 2 * operand_span : 2 * partial_span;
  static constexpr int work_words = register_products ? W
                                    : ntt_products && ntt_work_words(W) > staged_work_words ? ntt_work_words(W)
                                                                                            : staged_work_words;
  static constexpr int comm_words = Group<G>::comm_words;
  /// Shared words per instance that products (mul, mul_wide, mul_high,
  /// sqr), shifts and the linear operations need: all but the exponent,
  /// i.e. only the W words of a shift for register products.
  static constexpr int product_scratch_words = comm_words + work_words;
  /// Shared words per instance: group communication, staging, an exponent.
  static constexpr int scratch_words = comm_words + work_words + W;

  struct Num {
    word_t w[per_thread];
  };

  Group<G> group;
  word_t* work = nullptr;      ///< work_words words
  word_t* exponent = nullptr;  ///< W words (powm)

  MPGPU_HD Env(int rank, word_t* scratch) {
    group.rank = rank;
    group.comm = scratch;
    work = scratch + comm_words;
    exponent = work + work_words;
  }
  MPGPU_HD int rank() const { return group.rank; }
  /// Index of this thread's first word in the instance.
  MPGPU_HD int first_word() const { return group.rank * per_thread; }
};

// ---- construction, loads and stores ---------------------------------------------------

template <class E>
MPGPU_HD void set_zero(const E&, typename E::Num& r) {
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) r.w[i] = 0;
}

template <class E>
MPGPU_HD void set_ui32(const E& env, typename E::Num& r, word_t v) {
  set_zero(env, r);
  if (env.rank() == 0) r.w[0] = v;
}

/// r = v for a 64-bit v: words 0 and 1, both thread 0's (L >= 4).
template <class E>
MPGPU_HD void set_ui64(const E& env, typename E::Num& r, std::uint64_t v) {
  set_zero(env, r);
  if (env.rank() == 0) r.w[0] = static_cast<word_t>(v), r.w[1] = static_cast<word_t>(v >> word_bits);
}

// How the device moves a thread's words (the same answer in every compile,
// host or device; the host, and the CPU emulation of the tests, always move
// them word by word: the paths below are device code).
namespace env_detail {
/// 16-byte loads and stores when a thread's words allow them.
template <class E>
constexpr bool vector_io() {
  return E::per_thread % 4 == 0;
}

/// Thread-per-instance classes of 512 and 1024 bits load and store through
/// a shared tile per warp (warp_io.cuh): a thread's own 64 or 128 bytes
/// would otherwise make every warp instruction touch 32 cache lines.
/// (-DMPGPU_NO_WARP_TILED_IO turns it off, for A/B measurements.)
template <class E>
constexpr bool warp_tiled_io() {
#if defined(MPGPU_NO_WARP_TILED_IO)
  return false;
#else
  return E::threads == 1 && (E::words == 16 || E::words == 32);
#endif
}
}  // namespace env_detail

/// Loads this thread's words of an instance stored at `p` (W words, 16-byte aligned).
template <class E>
MPGPU_HD void load(const E& env, typename E::Num& r, const word_t* p) {
  p += env.first_word();
#if defined(__CUDA_ARCH__)
  if constexpr (env_detail::warp_tiled_io<E>()) {
    warp_io::tiled_load<E::words>(r.w, p);
  } else if constexpr (env_detail::vector_io<E>()) {
#pragma unroll
    for (int i = 0; i < E::per_thread; i += 4) {
      uint4 v = *reinterpret_cast<const uint4*>(p + i);
      r.w[i] = v.x, r.w[i + 1] = v.y, r.w[i + 2] = v.z, r.w[i + 3] = v.w;
    }
  } else
#endif
  {
#pragma unroll
    for (int i = 0; i < E::per_thread; ++i) r.w[i] = p[i];
  }
}

template <class E>
MPGPU_HD void store(const E& env, word_t* p, const typename E::Num& a) {
  p += env.first_word();
#if defined(__CUDA_ARCH__)
  if constexpr (env_detail::warp_tiled_io<E>()) {
    warp_io::tiled_store<E::words>(p, a.w);
  } else if constexpr (env_detail::vector_io<E>()) {
#pragma unroll
    for (int i = 0; i < E::per_thread; i += 4)
      *reinterpret_cast<uint4*>(p + i) = make_uint4(a.w[i], a.w[i + 1], a.w[i + 2], a.w[i + 3]);
  } else
#endif
  {
#pragma unroll
    for (int i = 0; i < E::per_thread; ++i) p[i] = a.w[i];
  }
}

/// Zeroes every bit at position >= bits (bits <= 32*W): results of a logical
/// width below the class width.
template <class E>
MPGPU_HD void mask_bits(const E& env, typename E::Num& r, int bits) {
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) {
    int lowest = (env.first_word() + i) * word_bits;
    int keep = bits - lowest;
    if (keep <= 0) r.w[i] = 0;
    else if (keep < word_bits) r.w[i] &= (word_t{1} << keep) - 1u;
  }
}

// ---- add and sub --------------------------------------------------------------------

/// r = a + b + carry_in; returns the carry out of the instance (in every thread).
template <class E>
MPGPU_HD word_t add(const E& env, typename E::Num& r, const typename E::Num& a,
                    const typename E::Num& b, word_t carry_in = 0) {
  const word_t c = add_words<E::per_thread>(a.w, b.w, r.w);
  word_t all_ones = ~word_t{0};
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) all_ones &= r.w[i];
  CarryPair cp = env.group.resolve_carry(c, c == 0 && all_ones == ~word_t{0}, carry_in);
  // Adding the incoming carry: every word absorbs it unless it is all ones.
  add_carry_words<E::per_thread>(r.w, cp.in);
  return cp.out;
}

/// r = a - b - borrow_in; returns the borrow out.
template <class E>
MPGPU_HD word_t sub(const E& env, typename E::Num& r, const typename E::Num& a,
                    const typename E::Num& b, word_t borrow_in = 0) {
  const word_t c = sub_words<E::per_thread>(a.w, b.w, r.w);
  word_t any = 0;
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) any |= r.w[i];
  CarryPair cp = env.group.resolve_carry(c, c == 0 && any == 0, borrow_in);
  sub_borrow_words<E::per_thread>(r.w, cp.in);
  return cp.out;
}

// ---- delayed carries -----------------------------------------------------------------------

/// A sum whose carries between the group's threads are not resolved yet:
/// its value is the sum over ranks t of (n_t + hi_t 2^(32 L)) 2^(32 L t),
/// n_t the thread's L words and hi_t the carries out of them so far. Adding
/// to it (add_lazy) needs no group communication; normalize resolves all
/// the delayed carries at once. A chain of k additions then costs one carry
/// resolve instead of k -- with G > 32 a resolve is a block-wide barrier,
/// which is what bounds a chain of six additions at 2^17 and 2^18 bits
/// (docs/tuning-history.md, "Staged chains"). hi grows by at most a.hi + b.hi
/// + 1 an addition; a word holds it for any chain of fewer than 2^31
/// additions.
template <class E>
struct LazySum {
  typename E::Num n;
  word_t hi = 0;
};

/// r = a as a lazy sum.
template <class E>
MPGPU_HD void to_lazy(const E&, LazySum<E>& r, const typename E::Num& a) {
  r.n = a;
  r.hi = 0;
}

/// r = a + b with the carries between threads delayed (no communication).
template <class E>
MPGPU_HD void add_lazy(const E&, LazySum<E>& r, const LazySum<E>& a, const LazySum<E>& b) {
  r.hi = a.hi + b.hi + add_words<E::per_thread>(a.n.w, b.n.w, r.n.w);
}

/// r = a + b, b a normalized number.
template <class E>
MPGPU_HD void add_lazy(const E&, LazySum<E>& r, const LazySum<E>& a, const typename E::Num& b) {
  r.hi = a.hi + add_words<E::per_thread>(a.n.w, b.w, r.n.w);
}

/// r = a mod 2^(32 W): every thread adds the delayed carries of the thread
/// below (one exchange up the group) and the carries that leaves resolve
/// as in add (one carry resolve). Returns the carry of that resolve out of
/// the instance: with the top thread's own hi (not added here), what a
/// caller needs to extend the sum past W words.
template <class E>
MPGPU_HD word_t normalize(const E& env, typename E::Num& r, const LazySum<E>& a) {
  word_t below[E::per_thread] = {env.group.from_previous(a.hi)};
  const word_t c = add_words<E::per_thread>(a.n.w, below, r.w);
  word_t all_ones = ~word_t{0};
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) all_ones &= r.w[i];
  CarryPair cp = env.group.resolve_carry(c, c == 0 && all_ones == ~word_t{0}, 0);
  add_carry_words<E::per_thread>(r.w, cp.in);
  return cp.out;
}

/// r = a + v for a 32-bit v; returns the carry out.
template <class E>
MPGPU_HD word_t add_ui32(const E& env, typename E::Num& r, const typename E::Num& a, word_t v) {
  typename E::Num t;
  set_ui32(env, t, v);
  return add(env, r, a, t);
}

template <class E>
MPGPU_HD word_t sub_ui32(const E& env, typename E::Num& r, const typename E::Num& a, word_t v) {
  typename E::Num t;
  set_ui32(env, t, v);
  return sub(env, r, a, t);
}

/// r = a + v for a 64-bit v; returns the carry out.
template <class E>
MPGPU_HD word_t add_ui64(const E& env, typename E::Num& r, const typename E::Num& a, std::uint64_t v) {
  typename E::Num t;
  set_ui64(env, t, v);
  return add(env, r, a, t);
}

/// r = a - v for a 64-bit v; returns the borrow out.
template <class E>
MPGPU_HD word_t sub_ui64(const E& env, typename E::Num& r, const typename E::Num& a, std::uint64_t v) {
  typename E::Num t;
  set_ui64(env, t, v);
  return sub(env, r, a, t);
}

// ---- comparisons -----------------------------------------------------------------------

/// Sign of a - b (unsigned), in every thread.
template <class E>
MPGPU_HD int compare(const E& env, const typename E::Num& a, const typename E::Num& b) {
  // From the top, the first differing word decides. (Written without a
  // conditional "last write wins" store: g++ 12 at -O3 vectorized that form
  // wrongly on the host, where G == 1 runs in tests.)
  int local = 0;
#pragma unroll
  for (int i = E::per_thread - 1; i >= 0; --i) {
    const int d = static_cast<int>(a.w[i] > b.w[i]) - static_cast<int>(a.w[i] < b.w[i]);
    local = local != 0 ? local : d;
  }
  // Shuffles run in every lane (instances sharing a warp may differ in
  // whether any word differs), so broadcast first, decide after.
  int top = env.group.highest_flag(local != 0);
  int sign = static_cast<int>(env.group.broadcast(static_cast<word_t>(local), top < 0 ? 0 : top));
  return top < 0 ? 0 : sign;
}

template <class E>
MPGPU_HD bool equals(const E& env, const typename E::Num& a, const typename E::Num& b) {
  return compare(env, a, b) == 0;
}

template <class E>
MPGPU_HD bool is_zero(const E& env, const typename E::Num& a) {
  word_t any = 0;
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) any |= a.w[i];
  return env.group.highest_flag(any != 0) < 0;
}

// ---- bitwise -------------------------------------------------------------------------

template <class E>
MPGPU_HD void bit_and(const E&, typename E::Num& r, const typename E::Num& a, const typename E::Num& b) {
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) r.w[i] = a.w[i] & b.w[i];
}
template <class E>
MPGPU_HD void bit_or(const E&, typename E::Num& r, const typename E::Num& a, const typename E::Num& b) {
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) r.w[i] = a.w[i] | b.w[i];
}
template <class E>
MPGPU_HD void bit_xor(const E&, typename E::Num& r, const typename E::Num& a, const typename E::Num& b) {
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) r.w[i] = a.w[i] ^ b.w[i];
}
template <class E>
MPGPU_HD void bit_not(const E&, typename E::Num& r, const typename E::Num& a) {
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) r.w[i] = ~a.w[i];
}

// ---- bit counts (in every thread) ------------------------------------------------------

template <class E>
MPGPU_HD int popcount(const E& env, const typename E::Num& a) {
  word_t n = 0;
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) n += popcount_word(a.w[i]);
  return static_cast<int>(env.group.sum(n));
}

/// Leading zeros within the class width 32*W.
template <class E>
MPGPU_HD int count_leading_zeros(const E& env, const typename E::Num& a) {
  int local = -1;  // index in the instance of the highest set bit
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i)
    if (a.w[i] != 0) local = (env.first_word() + i) * word_bits + 31 - clz_word(a.w[i]);
  int top = env.group.highest_flag(local >= 0);
  int bit = static_cast<int>(env.group.broadcast(static_cast<word_t>(local), top < 0 ? 0 : top));
  return top < 0 ? E::words * word_bits : E::words * word_bits - 1 - bit;
}

template <class E>
MPGPU_HD int count_trailing_zeros(const E& env, const typename E::Num& a) {
  int local = -1;
#pragma unroll
  for (int i = E::per_thread - 1; i >= 0; --i)
    if (a.w[i] != 0) local = (env.first_word() + i) * word_bits + ctz_word(a.w[i]);
  int low = env.group.lowest_flag(local >= 0);
  int bit = static_cast<int>(env.group.broadcast(static_cast<word_t>(local), low < 0 ? 0 : low));
  return low < 0 ? E::words * word_bits : bit;
}

// ---- shifts within the class width (through shared memory) ----------------------------

namespace env_detail {
/// Stages a in env.work so any thread can read any word; call read_word after.
template <class E>
MPGPU_HD void stage(const E& env, const typename E::Num& a) {
  env.group.sync();  // earlier readers of work are done
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) env.work[env.first_word() + i] = a.w[i];
  env.group.sync();
}
/// Word j of the staged value; 0 outside [0, W) unless rotating (then mod W).
template <class E>
MPGPU_HD word_t staged_word(const E& env, int j, bool wrap) {
  if (wrap) return env.work[((j % E::words) + E::words) % E::words];
  return (j >= 0 && j < E::words) ? env.work[j] : 0u;
}
template <class E>
MPGPU_HD void shift_words(const E& env, typename E::Num& r, const typename E::Num& a, int up, bool wrap) {
  // r = a * 2^up (up may be negative: a right shift), within 32*W bits.
  stage(env, a);
  const int words = up >= 0 ? up / word_bits : -((-up + word_bits - 1) / word_bits);
  const int bits = up - words * word_bits;  // 0..31
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) {
    int j = env.first_word() + i - words;
    word_t hi = staged_word(env, j, wrap);
    word_t lo = staged_word(env, j - 1, wrap);
    r.w[i] = bits == 0 ? hi : (hi << bits) | (lo >> (word_bits - bits));
  }
}
}  // namespace env_detail

/// r = a << n (n >= 0, bits shifted past 32*W are lost).
template <class E>
MPGPU_HD void shift_left(const E& env, typename E::Num& r, const typename E::Num& a, int n) {
  if (n >= E::words * word_bits) return set_zero(env, r);
  env_detail::shift_words(env, r, a, n, false);
}
/// r = a >> n.
template <class E>
MPGPU_HD void shift_right(const E& env, typename E::Num& r, const typename E::Num& a, int n) {
  if (n >= E::words * word_bits) return set_zero(env, r);
  env_detail::shift_words(env, r, a, -n, false);
}
/// Rotations within the class width 32*W.
template <class E>
MPGPU_HD void rotate_left(const E& env, typename E::Num& r, const typename E::Num& a, int n) {
  n %= E::words * word_bits;
  env_detail::shift_words(env, r, a, n, true);
}
template <class E>
MPGPU_HD void rotate_right(const E& env, typename E::Num& r, const typename E::Num& a, int n) {
  n %= E::words * word_bits;
  env_detail::shift_words(env, r, a, n == 0 ? 0 : E::words * word_bits - n, true);
}

/// Copies a into r (for symmetry with the other operations).
template <class E>
MPGPU_HD void set(const E&, typename E::Num& r, const typename E::Num& a) {
  r = a;
}

/// Swaps two numbers (each thread its own words: no communication).
template <class E>
MPGPU_HD void swap(const E&, typename E::Num& a, typename E::Num& b) {
  const typename E::Num t = a;
  a = b;
  b = t;
}

/// Swaps two numbers when `condition` (same in all threads of the instance).
template <class E>
MPGPU_HD void swap_if(const E&, bool condition, typename E::Num& a, typename E::Num& b) {
  word_t mask = condition ? ~word_t{0} : 0u;
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) {
    word_t d = (a.w[i] ^ b.w[i]) & mask;
    a.w[i] ^= d;
    b.w[i] ^= d;
  }
}

}  // namespace mpgpu::batch
