// A host emulation of one warp for the batch device API, so that groups of
// several threads (Env<W, G>, 1 < G <= 32) run where there is no GPU.
//
// The 32 lanes are fibers (ucontext) on one OS thread. Every group operation
// is: write a slot, barrier, read the slots, barrier; a barrier switches to
// the next lane. Each operation names the lanes it synchronizes with (its
// mask, as the intrinsics' first argument: the whole warp for
// WarpSync::warp, the group's G lanes for WarpSync::group). The scheduler
// checks at each barrier that every lane of a mask reached the same one (the
// same count of barriers, the same kind: ballot, shuffle, max-reduction or
// __syncwarp, and the same mask), which is what the device needs, and
// reports a divergence otherwise: a group operation skipped by one instance's
// data-dependent branch shows up here as it would hang or mix values on the
// GPU. Lanes of different masks may be at different barriers (instances
// that diverge with WarpSync::group), and a lane may finish while lanes
// outside its masks go on. The lanes run in a shuffled order between
// barriers, so a shared-memory access not ordered by a sync gives
// order-dependent results.
//
// Include it before any Env<W, G> with G > 1 is used: it specializes
// Group<G, S> for 1 < G <= 32, whose uniform_max is a reduction over the
// mask, as __reduce_max_sync. Groups larger than a warp are not emulated.
#pragma once

#include <ucontext.h>

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <vector>

#include "mpgpu/batch/env.cuh"

namespace group_emulation {

constexpr int lanes = 32;

struct Warp {
  ucontext_t main_ctx;
  ucontext_t ctx[lanes];
  std::vector<char> stacks[lanes];
  int cur = 0;
  bool done[lanes] = {};
  long count[lanes] = {};
  int kind[lanes] = {};
  std::uint32_t mask[lanes] = {};
  std::uint64_t slot[lanes] = {};
  std::function<void(int)> body;
};

inline Warp* current = nullptr;
inline unsigned long long order_seed = 1;

inline int lane() { return current->cur; }

constexpr std::uint32_t full = 0xffffffffu;

inline void barrier(int kind, std::uint32_t mask) {
  current->count[current->cur]++;
  current->kind[current->cur] = kind;
  current->mask[current->cur] = mask;
  swapcontext(&current->ctx[current->cur], &current->main_ctx);
}

inline void trampoline() {
  const int l = current->cur;
  current->body(l);
  current->done[l] = true;
  swapcontext(&current->ctx[l], &current->main_ctx);
}

/// Runs body(lane) on the 32 lanes of one warp. Returns false if the lanes
/// diverged (they are then abandoned, not finished).
inline bool run_warp(std::function<void(int)> body) {
  auto w = std::make_unique<Warp>();
  current = w.get();
  w->body = std::move(body);
  for (int l = 0; l < lanes; ++l) {
    w->stacks[l].resize(1 << 20);
    getcontext(&w->ctx[l]);
    w->ctx[l].uc_stack.ss_sp = w->stacks[l].data();
    w->ctx[l].uc_stack.ss_size = w->stacks[l].size();
    w->ctx[l].uc_link = nullptr;
    makecontext(&w->ctx[l], trampoline, 0);
  }
  bool ok = true;
  for (;;) {
    int order[lanes];
    for (int l = 0; l < lanes; ++l) order[l] = l;
    for (int l = lanes - 1; l > 0; --l) {  // a shuffled order in each round
      order_seed = order_seed * 6364136223846793005ull + 1442695040888963407ull;
      const int j = static_cast<int>((order_seed >> 33) % static_cast<unsigned long long>(l + 1));
      std::swap(order[l], order[j]);
    }
    for (int l : order) {
      if (w->done[l]) continue;
      w->cur = l;
      swapcontext(&w->main_ctx, &w->ctx[l]);
    }
    int finished = 0;
    for (int l = 0; l < lanes; ++l) finished += w->done[l];
    if (finished == lanes) break;
    // Every lane waiting at a barrier: each lane of its mask is waiting at
    // the same barrier (count, kind, mask), none has finished, and its own
    // bit is in the mask.
    bool same = true;
    for (int l = 0; l < lanes && same; ++l) {
      if (w->done[l]) continue;
      same = (w->mask[l] >> l) & 1u;
      for (int k = 0; k < lanes && same; ++k)
        if ((w->mask[l] >> k) & 1u)
          same = !w->done[k] && w->count[k] == w->count[l] && w->kind[k] == w->kind[l] && w->mask[k] == w->mask[l];
    }
    if (!same) {
      ok = false;
      break;
    }
  }
  current = nullptr;
  return ok;
}

/// A lane outside the mask was read: on the device the value is undefined.
inline std::uint64_t read_slot(int l, std::uint32_t mask) {
  if (!((mask >> l) & 1u)) std::abort();
  return current->slot[l];
}

/// __ballot_sync(mask, flag): the lanes outside the mask read as 0.
inline std::uint32_t ballot(bool flag, std::uint32_t mask = full) {
  current->slot[lane()] = flag;
  barrier(1, mask);
  std::uint32_t m = 0;
  for (int l = 0; l < lanes; ++l)
    if ((mask >> l) & 1u) m |= static_cast<std::uint32_t>(current->slot[l] != 0) << l;
  barrier(2, mask);
  return m;
}

/// __shfl_sync(mask, v, src, width).
inline std::uint32_t shfl(std::uint32_t v, int src, int width, std::uint32_t mask = full) {
  current->slot[lane()] = v;
  barrier(3, mask);
  const int base = lane() & ~(width - 1);
  const auto r = static_cast<std::uint32_t>(read_slot(base + (src % width), mask));
  barrier(4, mask);
  return r;
}

/// __shfl_xor_sync(mask, v, offset, width).
inline std::uint32_t shfl_xor(std::uint32_t v, int offset, int width, std::uint32_t mask = full) {
  current->slot[lane()] = v;
  barrier(5, mask);
  int src = lane() ^ offset;
  if ((src & ~(width - 1)) != (lane() & ~(width - 1))) src = lane();
  const auto r = static_cast<std::uint32_t>(read_slot(src, mask));
  barrier(6, mask);
  return r;
}

/// __reduce_max_sync(mask, v).
inline unsigned reduce_max(unsigned v, std::uint32_t mask = full) {
  current->slot[lane()] = v;
  barrier(7, mask);
  unsigned m = 0;
  for (int l = 0; l < lanes; ++l)
    if ((mask >> l) & 1u) m = current->slot[l] > m ? static_cast<unsigned>(current->slot[l]) : m;
  barrier(8, mask);
  return m;
}

inline void syncwarp(std::uint32_t mask = full) { barrier(9, mask); }

}  // namespace group_emulation

namespace mpgpu::batch {

/// Group<G, S> of group.cuh for 1 < G <= 32, its device branch with the
/// intrinsics replaced by the emulation's.
template <int G, WarpSync S>
  requires(G > 1 && G <= 32)
struct Group<G, S> {
  static constexpr WarpSync sync_kind = S;
  static constexpr int warps = 1;
  static constexpr int comm_words = 0;
  int rank = 0;
  word_t* comm = nullptr;

  static std::uint32_t lanes() {
    if constexpr (S == WarpSync::group && G < 32) {
      const auto lane = static_cast<unsigned>(group_emulation::lane());
      return ((1u << G) - 1u) << (lane & ~static_cast<unsigned>(G - 1));
    } else {
      return group_emulation::full;
    }
  }

  void sync() const { group_emulation::syncwarp(lanes()); }

  int uniform_max(int v) const {
    return static_cast<int>(group_emulation::reduce_max(static_cast<unsigned>(v), lanes()));
  }

  CarryPair resolve_carry(word_t gen, word_t prop, word_t cin) const {
    const auto lane = static_cast<unsigned>(group_emulation::lane());
    std::uint64_t g = group_emulation::ballot(gen != 0, lanes());
    std::uint64_t p = group_emulation::ballot(prop != 0, lanes());
    const unsigned base = lane & ~static_cast<unsigned>(G - 1);
    const std::uint64_t mask = (std::uint64_t{1} << G) - 1;
    g = (g >> base) & mask;
    p = (p >> base) & mask;
    const std::uint64_t c = group_detail::carries(g, p, cin);
    return {static_cast<word_t>((c >> (lane - base)) & 1u), static_cast<word_t>((c >> G) & 1u)};
  }

  int highest_flag(bool flag) const { return extreme_flag<true>(flag); }
  int lowest_flag(bool flag) const { return extreme_flag<false>(flag); }

  word_t broadcast(word_t v, int src) const { return group_emulation::shfl(v, src, G, lanes()); }

  word_t from_previous(word_t v) const {
    const word_t p = group_emulation::shfl(v, rank > 0 ? rank - 1 : 0, G, lanes());
    return rank == 0 ? 0 : p;
  }

  word_t sum(word_t v) const {
    for (int off = G / 2; off > 0; off >>= 1) v += group_emulation::shfl_xor(v, off, G, lanes());
    return v;
  }

 private:
  template <bool Highest>
  int extreme_flag(bool flag) const {
    const auto lane = static_cast<unsigned>(group_emulation::lane());
    unsigned m = group_emulation::ballot(flag, lanes());
    const unsigned base = lane & ~static_cast<unsigned>(G - 1);
    m = G == 32 ? m : (m >> base) & ((1u << G) - 1u);
    if (m == 0) return -1;
    return Highest ? 31 - __builtin_clz(m) : __builtin_ctz(m);
  }
};

}  // namespace mpgpu::batch
