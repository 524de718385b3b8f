// A host emulation of one warp for the batch device API, so that groups of
// several threads (Env<W, G>, 1 < G <= 32) run where there is no GPU.
//
// The 32 lanes are fibers (ucontext) on one OS thread. Every group operation
// is: write a slot, barrier, read the slots, barrier; a barrier switches to
// the next lane. The scheduler checks at each barrier that every lane reached
// the same one (the same count of barriers and the same kind: ballot,
// shuffle, max-reduction or __syncwarp), which is what the device needs, and
// reports a divergence otherwise: a group operation skipped by one instance's
// data-dependent branch shows up here as it would hang or mix values on the
// GPU. The lanes run in a shuffled order between barriers, so a shared-memory
// access not ordered by a sync gives order-dependent results.
//
// Include it before any Env<W, G> with G > 1 is used: it specializes Group<G>
// for 1 < G <= 32 and overloads uniform_max for those Envs (a reduction over
// the 32 lanes, as __reduce_max_sync). Groups larger than a warp are not
// emulated.
#pragma once

#include <ucontext.h>

#include <cstdint>
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
  std::uint64_t slot[lanes] = {};
  std::function<void(int)> body;
};

inline Warp* current = nullptr;
inline unsigned long long order_seed = 1;

inline int lane() { return current->cur; }

inline void barrier(int kind) {
  current->count[current->cur]++;
  current->kind[current->cur] = kind;
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
    bool same = finished == 0;
    for (int l = 1; l < lanes && same; ++l) same = w->count[l] == w->count[0] && w->kind[l] == w->kind[0];
    if (!same) {
      ok = false;
      break;
    }
  }
  current = nullptr;
  return ok;
}

inline std::uint32_t ballot(bool flag) {
  current->slot[lane()] = flag;
  barrier(1);
  std::uint32_t m = 0;
  for (int l = 0; l < lanes; ++l) m |= static_cast<std::uint32_t>(current->slot[l] != 0) << l;
  barrier(2);
  return m;
}

/// __shfl_sync(full mask, v, src, width).
inline std::uint32_t shfl(std::uint32_t v, int src, int width) {
  current->slot[lane()] = v;
  barrier(3);
  const int base = lane() & ~(width - 1);
  const auto r = static_cast<std::uint32_t>(current->slot[base + (src % width)]);
  barrier(4);
  return r;
}

/// __shfl_xor_sync(full mask, v, offset, width).
inline std::uint32_t shfl_xor(std::uint32_t v, int offset, int width) {
  current->slot[lane()] = v;
  barrier(5);
  int src = lane() ^ offset;
  if ((src & ~(width - 1)) != (lane() & ~(width - 1))) src = lane();
  const auto r = static_cast<std::uint32_t>(current->slot[src]);
  barrier(6);
  return r;
}

/// __reduce_max_sync(full mask, v).
inline unsigned reduce_max(unsigned v) {
  current->slot[lane()] = v;
  barrier(7);
  unsigned m = 0;
  for (int l = 0; l < lanes; ++l) m = current->slot[l] > m ? static_cast<unsigned>(current->slot[l]) : m;
  barrier(8);
  return m;
}

inline void syncwarp() { barrier(9); }

}  // namespace group_emulation

namespace mpgpu::batch {

/// Group<G> of group.cuh for 1 < G <= 32, its device branch with the
/// intrinsics replaced by the emulation's.
template <int G>
  requires(G > 1 && G <= 32)
struct Group<G> {
  static constexpr int warps = 1;
  static constexpr int comm_words = 0;
  int rank = 0;
  word_t* comm = nullptr;

  void sync() const { group_emulation::syncwarp(); }

  CarryPair resolve_carry(word_t gen, word_t prop, word_t cin) const {
    const auto lane = static_cast<unsigned>(group_emulation::lane());
    std::uint64_t g = group_emulation::ballot(gen != 0);
    std::uint64_t p = group_emulation::ballot(prop != 0);
    const unsigned base = lane & ~static_cast<unsigned>(G - 1);
    const std::uint64_t mask = (std::uint64_t{1} << G) - 1;
    g = (g >> base) & mask;
    p = (p >> base) & mask;
    const std::uint64_t c = group_detail::carries(g, p, cin);
    return {static_cast<word_t>((c >> (lane - base)) & 1u), static_cast<word_t>((c >> G) & 1u)};
  }

  int highest_flag(bool flag) const { return extreme_flag<true>(flag); }
  int lowest_flag(bool flag) const { return extreme_flag<false>(flag); }

  word_t broadcast(word_t v, int src) const { return group_emulation::shfl(v, src, G); }

  word_t from_previous(word_t v) const {
    const word_t p = group_emulation::shfl(v, rank > 0 ? rank - 1 : 0, G);
    return rank == 0 ? 0 : p;
  }

  word_t sum(word_t v) const {
    for (int off = G / 2; off > 0; off >>= 1) v += group_emulation::shfl_xor(v, off, G);
    return v;
  }

 private:
  template <bool Highest>
  int extreme_flag(bool flag) const {
    const auto lane = static_cast<unsigned>(group_emulation::lane());
    unsigned m = group_emulation::ballot(flag);
    const unsigned base = lane & ~static_cast<unsigned>(G - 1);
    m = G == 32 ? m : (m >> base) & ((1u << G) - 1u);
    if (m == 0) return -1;
    return Highest ? 31 - __builtin_clz(m) : __builtin_ctz(m);
  }
};

/// uniform_max over the warp's 32 lanes, as on the device.
template <int W, int G>
  requires(G > 1 && G <= 32)
int uniform_max(const Env<W, G>&, int v) {
  return static_cast<int>(group_emulation::reduce_max(static_cast<unsigned>(v)));
}

}  // namespace mpgpu::batch
