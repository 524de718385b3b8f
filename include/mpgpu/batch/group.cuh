// Communication among the G threads that cooperate on one instance.
//
// G is a power of two from 1 to 1024. Groups of up to 32 threads are lanes of
// one warp and talk through ballots and shuffles; larger groups span whole
// warps and add a second level through `comm` (Group::comm_words words of
// shared memory per instance). Every thread of a block must call the same
// group operations in the same order (instances past the end of a batch run
// on zeros and skip their stores), because they synchronize.
//
// That is the default, WarpSync::warp: with G < 32 every shuffle, ballot,
// reduction and __syncwarp names the whole warp, so the instances that share
// a warp synchronize together (and uniform_max bounds loops by the warp's
// largest count). WarpSync::group (Env's third parameter) names only the G
// lanes of the thread's own group instead: instances of one warp may then
// take different branches, run different trip counts or return early, as
// CGBN lets its instances do (compat/cgbn). For G = 32, G > 32 and the
// default, the masks are the full-warp constants of before, so the
// library's kernels compile to the same code.
//
// With g++ (host code) only G == 1 is meaningful; the device-only branches
// vanish, so the headers still compile there.
#pragma once

#include "mpgpu/batch/word.cuh"

namespace mpgpu::batch {

/// Carry entering this thread's words and carry leaving the whole group.
struct CarryPair {
  word_t in;
  word_t out;
};

namespace group_detail {
/// Carries of the carry-lookahead sum: bit i of the result is the carry into
/// position i when position i generates (gen), or passes on (prop) a carry.
/// gen and prop never hold together, so X = gen|prop, Y = gen, X + Y + cin.
MPGPU_HD std::uint64_t carries(std::uint64_t gen, std::uint64_t prop, word_t cin) {
  std::uint64_t x = gen | prop, y = gen;
  std::uint64_t s = x + y + cin;
  return s ^ x ^ y;
}
}  // namespace group_detail

/// Which lanes a group operation of a group of G <= 32 threads names (see the top).
enum class WarpSync { warp, group };

template <int G, WarpSync S = WarpSync::warp>
struct Group {
  static_assert(G >= 1 && G <= 1024 && (G & (G - 1)) == 0, "group size: a power of two <= 1024");
  static constexpr WarpSync sync_kind = S;
  static constexpr int warps = G > 32 ? G / 32 : 1;
  /// Shared words per instance this group needs for its second level.
  static constexpr int comm_words = G > 32 ? 64 : 0;

  int rank = 0;           ///< 0..G-1 inside the instance
  word_t* comm = nullptr; ///< comm_words words of shared memory (G > 32)
#if !defined(MPGPU_GROUP_TWO_BARRIER_CARRY)
  /// G > 32: the half of comm (words 0-31 or 32-63) that the next carry
  /// resolve writes. Alternating halves lets a resolve go with one barrier
  /// instead of two: its write to half h cannot overtake a reader of h,
  /// since that reader's resolve (two calls back) was followed by the
  /// previous resolve's barrier. from_previous alternates the same way; the
  /// other group operations use half 0 and set `next_half` to 1 after their
  /// reads. Every thread of the block makes
  /// the same calls, so the state agrees across the block -- as long as the
  /// Env is not copied: a copy would diverge, so Group cannot be copied.
  /// (-DMPGPU_GROUP_TWO_BARRIER_CARRY restores the two-barrier form, for A/B
  /// measurements: docs/tuning-history.md, "Carry resolves".)
  mutable int next_half = 0;

  Group() = default;
  Group(const Group&) = delete;
  Group& operator=(const Group&) = delete;
#endif

  /// The lanes of the warp that this thread's group operations name: the
  /// whole warp, or (WarpSync::group, G < 32) the G lanes of its group.
  MPGPU_HD static unsigned lanes() {
#if defined(__CUDA_ARCH__)
    if constexpr (S == WarpSync::group && G < 32) {
      return ((1u << G) - 1u) << ((threadIdx.x & 31u) & ~static_cast<unsigned>(G - 1));
    } else {
      return 0xffffffffu;
    }
#else
    return 0xffffffffu;
#endif
  }

  MPGPU_HD void sync() const {
#if defined(__CUDA_ARCH__)
    if constexpr (G > 32) {
      __syncthreads();
    } else {
      // G == 1 still shares the instance's scratch with no one, but staging
      // through shared memory needs ordering.
      __syncwarp(lanes());
    }
#endif
  }

  /// The largest v (>= 0) over every group that synchronizes with this one:
  /// the warp (WarpSync::warp, G <= 32), else the group, whose threads
  /// already agree on v. A loop it bounds keeps those lanes on one path.
  MPGPU_HD int uniform_max(int v) const {
#if defined(__CUDA_ARCH__)
    if constexpr (G <= 32 && (S == WarpSync::warp || G > 1))
      v = static_cast<int>(__reduce_max_sync(lanes(), static_cast<unsigned>(v)));
#endif
    return v;
  }

  /// Carry-lookahead across the group: gen = this thread's words carried out,
  /// prop = they would pass a carry through; cin enters rank 0.
  MPGPU_HD CarryPair resolve_carry(word_t gen, word_t prop, word_t cin) const {
    if constexpr (G == 1) {
      return {cin, gen | (prop & cin)};
    } else {
#if defined(__CUDA_ARCH__)
      const unsigned lane = threadIdx.x & 31u;
      std::uint64_t g = __ballot_sync(lanes(), gen != 0);
      std::uint64_t p = __ballot_sync(lanes(), prop != 0);
      if constexpr (G <= 32) {
        const unsigned base = lane & ~static_cast<unsigned>(G - 1);
        const std::uint64_t mask = (std::uint64_t{1} << G) - 1;
        g = (g >> base) & mask;
        p = (p >> base) & mask;
        std::uint64_t c = group_detail::carries(g, p, cin);
        return {static_cast<word_t>((c >> (lane - base)) & 1u), static_cast<word_t>((c >> G) & 1u)};
      } else {
        // Level 2: each warp is one position of a warps-wide lookahead.
        const int warp = rank >> 5;
        std::uint64_t wc = group_detail::carries(g, p, 0);
        word_t warp_gen = static_cast<word_t>((wc >> 32) & 1u);
        word_t warp_prop = p == 0xffffffffull;
        word_t* flags = exchange_words();
        if (lane == 0) flags[warp] = warp_gen | (warp_prop << 1);
        sync();
        word_t f = lane < static_cast<unsigned>(warps) ? flags[lane] : 0u;
        std::uint64_t wg = __ballot_sync(lanes(), f & 1u);
        std::uint64_t wp = __ballot_sync(lanes(), (f >> 1) & 1u);
        std::uint64_t wcar = group_detail::carries(wg, wp, cin);
        word_t warp_in = static_cast<word_t>((wcar >> warp) & 1u);
        std::uint64_t c = group_detail::carries(g, p, warp_in);
        return {static_cast<word_t>((c >> lane) & 1u), static_cast<word_t>((wcar >> warps) & 1u)};
      }
#else
      return {0, 0};
#endif
    }
  }

  /// Rank of the highest (or lowest) thread whose flag is set; -1 if none.
  MPGPU_HD int highest_flag(bool flag) const { return extreme_flag<true>(flag); }
  MPGPU_HD int lowest_flag(bool flag) const { return extreme_flag<false>(flag); }

  /// The value held by thread `src` of the group, in every thread.
  MPGPU_HD word_t broadcast(word_t v, int src) const {
    if constexpr (G == 1) {
      (void)src;
      return v;
    } else {
#if defined(__CUDA_ARCH__)
      if constexpr (G <= 32) {
        return __shfl_sync(lanes(), v, src, G);
      } else {
        sync();
        if (rank == src) comm[0] = v;
        sync();
        after_half0();
        return comm[0];
      }
#else
      return v;
#endif
    }
  }

  /// The value v of the thread of rank - 1 (0 in rank 0): a word handed up
  /// the group, e.g. delayed carries (env.cuh, normalize). G > 32: one
  /// barrier (the halves of comm alternate, as in resolve_carry).
  MPGPU_HD word_t from_previous(word_t v) const {
    if constexpr (G == 1) {
      (void)v;
      return 0;
    } else {
#if defined(__CUDA_ARCH__)
      if constexpr (G <= 32) {
        const word_t p = __shfl_up_sync(lanes(), v, 1, G);
        return rank == 0 ? 0 : p;
      } else {
        const unsigned lane = threadIdx.x & 31u;
        const word_t p = __shfl_up_sync(0xffffffffu, v, 1);
        word_t* slots = exchange_words();
        if (lane == 31) slots[rank >> 5] = v;
        sync();
        const word_t prev_warp = rank >= 32 ? slots[(rank >> 5) - 1] : 0;
        return lane == 0 ? prev_warp : p;
      }
#else
      return 0;
#endif
    }
  }

  /// Sum of v over the group (no overflow check: callers sum bit counts).
  MPGPU_HD word_t sum(word_t v) const {
    if constexpr (G == 1) {
      return v;
    } else {
#if defined(__CUDA_ARCH__)
      constexpr int width = G <= 32 ? G : 32;
      for (int off = width / 2; off > 0; off >>= 1) v += __shfl_xor_sync(lanes(), v, off, width);
      if constexpr (G > 32) {
        sync();
        if ((threadIdx.x & 31u) == 0) comm[rank >> 5] = v;
        sync();
        word_t total = 0;
        for (int w = 0; w < warps; ++w) total += comm[w];
        after_half0();
        return total;
      }
      return v;
#else
      return v;
#endif
    }
  }

 private:
  /// The 32 words of comm that a one-barrier exchange (resolve_carry,
  /// from_previous) writes: the next of the alternating halves (see
  /// next_half); with MPGPU_GROUP_TWO_BARRIER_CARRY, half 0 after a barrier.
  MPGPU_HD word_t* exchange_words() const {
#if defined(MPGPU_GROUP_TWO_BARRIER_CARRY)
    sync();
    return comm;
#else
    word_t* half = comm + 32 * next_half;
    next_half ^= 1;
    return half;
#endif
  }

  /// After an operation that used comm's half 0 (its reads may still be
  /// going on): the next carry resolve writes half 1.
  MPGPU_HD void after_half0() const {
#if !defined(MPGPU_GROUP_TWO_BARRIER_CARRY)
    next_half = 1;
#endif
  }

  template <bool Highest>
  MPGPU_HD int extreme_flag(bool flag) const {
    if constexpr (G == 1) {
      return flag ? 0 : -1;
    } else {
#if defined(__CUDA_ARCH__)
      const unsigned lane = threadIdx.x & 31u;
      unsigned m = __ballot_sync(lanes(), flag);
      if constexpr (G <= 32) {
        const unsigned base = lane & ~static_cast<unsigned>(G - 1);
        m = G == 32 ? m : (m >> base) & ((1u << G) - 1u);
        if (m == 0) return -1;
        return Highest ? 31 - __clz(static_cast<int>(m)) : __ffs(static_cast<int>(m)) - 1;
      } else {
        int in_warp = m == 0 ? -1 : (Highest ? 31 - __clz(static_cast<int>(m)) : __ffs(static_cast<int>(m)) - 1);
        sync();
        if (lane == 0) comm[rank >> 5] = static_cast<word_t>(in_warp);
        sync();
        int found = -1;
        for (int w = 0; w < warps; ++w) {
          int v = static_cast<int>(comm[Highest ? warps - 1 - w : w]);
          if (v >= 0) {
            found = (Highest ? warps - 1 - w : w) * 32 + v;
            break;
          }
        }
        after_half0();
        return found;
      }
#else
      return -1;
#endif
    }
  }
};

}  // namespace mpgpu::batch
