// Debug checks of the contract that backend.hpp states for its mpn-style
// functions: the destination has the room the function names and shares no
// limb with an operand, and the operand sizes are in the stated order. The
// launchers call the check of their function first; a broken contract is a
// bug of the calling layer, so it ends the process with the function's name,
// as GMP's ASSERTs do.
//
// On when MPGPU_DEBUG_CONTRACTS is 1: by default in builds without NDEBUG
// (CMake's Debug), off in Release and RelWithDebInfo. Off, every check is
// an empty inline function and allocate() records nothing: no cost on any
// path. On, the room of a destination is known when it lies in a live pool
// allocation (allocate() records each one; memory from elsewhere, such as
// a test's own buffers, is not checked for room).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>

#include "cuda/backend.hpp"

#if !defined(MPGPU_DEBUG_CONTRACTS)
#if defined(NDEBUG)
#define MPGPU_DEBUG_CONTRACTS 0
#else
#define MPGPU_DEBUG_CONTRACTS 1
#endif
#endif

namespace mpgpu::detail::cuda::contract {

inline constexpr bool kEnabled = MPGPU_DEBUG_CONTRACTS != 0;

[[noreturn]] inline void violated(const char* function, const char* what) {
  std::fprintf(stderr, "mpgpu: cuda::%s: broken contract (src/cuda/backend.hpp): %s\n", function, what);
  std::abort();
}

/// The live pool allocations of the process (start -> bytes). One table for
/// every context: contexts of a device share its pool, and a buffer may be
/// freed through another context than the one that made it.
struct Allocations {
  std::mutex mutex;
  std::map<std::uintptr_t, std::size_t> live;
};
inline Allocations& allocations() {
  static Allocations table;
  return table;
}

inline void record_allocation(const void* p, std::size_t bytes) {
  if constexpr (kEnabled) {
    if (!p) return;
    const auto start = reinterpret_cast<std::uintptr_t>(p);
    Allocations& t = allocations();
    std::lock_guard<std::mutex> lock(t.mutex);
    // Entries the pool has reused (freed some other way) would misstate the room.
    t.live.erase(t.live.lower_bound(start), t.live.lower_bound(start + (bytes ? bytes : 1)));
    t.live[start] = bytes;
  }
}

inline void forget_allocation(const void* p) {
  if constexpr (kEnabled) {
    Allocations& t = allocations();
    std::lock_guard<std::mutex> lock(t.mutex);
    t.live.erase(reinterpret_cast<std::uintptr_t>(p));
  }
}

/// Whether [p, p + limbs) fits in the live allocation that holds p; true
/// when p lies in none (memory not from allocate(): its room is unknown).
inline bool has_room(const void* p, std::size_t limbs) {
  const auto start = reinterpret_cast<std::uintptr_t>(p);
  Allocations& t = allocations();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.live.upper_bound(start);
  if (it == t.live.begin()) return true;
  --it;
  const std::uintptr_t end = it->first + it->second;
  if (start >= end) return true;
  return limbs <= (end - start) / sizeof(limb_t);
}

/// Whether [p, p + p_limbs) and [q, q + q_limbs) share a limb.
inline bool overlap(const limb_t* p, std::size_t p_limbs, const limb_t* q, std::size_t q_limbs) {
  if (!p || !q || !p_limbs || !q_limbs) return false;
  const auto a = reinterpret_cast<std::uintptr_t>(p), b = reinterpret_cast<std::uintptr_t>(q);
  return a < b + q_limbs * sizeof(limb_t) && b < a + p_limbs * sizeof(limb_t);
}

/// r has room for `limbs` limbs and shares none with a or b.
inline void destination(const char* fn, const limb_t* r, std::size_t limbs, Operand a, Operand b = {nullptr, 0}) {
  if constexpr (kEnabled) {
    if (!r && limbs) violated(fn, "no destination");
    if (!has_room(r, limbs)) violated(fn, "the destination has less room than the function states");
    if (overlap(r, limbs, a.limbs, a.size) || overlap(r, limbs, b.limbs, b.size))
      violated(fn, "the destination overlaps an operand");
  }
}

inline void size_order(const char* fn, Operand a, Operand b) {
  if constexpr (kEnabled) {
    if (a.size < b.size) violated(fn, "a.size < b.size");
  }
}

// ---- one check per function of backend.hpp whose output has a stated room ------------
inline void add_abs(limb_t* r, Operand a, Operand b) {
  size_order("add_abs", a, b);
  destination("add_abs", r, a.size + 1, a, b);
}
inline void add_abs_scalar(limb_t* r, Operand a) { destination("add_abs_scalar", r, a.size + 1, a); }
inline void sub_abs(limb_t* r, Operand a, Operand b) {
  size_order("sub_abs", a, b);
  destination("sub_abs", r, a.size, a, b);
}
inline void sub_abs_scalar(limb_t* r, Operand a) { destination("sub_abs_scalar", r, a.size, a); }
inline void sub_abs_ordered(limb_t* r, const limb_t* a, const limb_t* b, std::size_t n) {
  destination("sub_abs_ordered", r, n, {a, n}, {b, n});
}
inline void shift_left(limb_t* r, Operand a, std::uint64_t bits) {
  destination("shift_left", r, a.size + bits / 64 + 1, a);
}
inline void shift_right(limb_t* r, Operand a, std::uint64_t bits) {
  if constexpr (kEnabled) {
    if (bits / 64 >= a.size) violated("shift_right", "bits / 64 >= a.size");
    destination("shift_right", r, a.size - bits / 64, a);
  }
}
inline void bitwise(limb_t* r, Operand a, Operand b) {
  destination("bitwise", r, (a.size > b.size ? a.size : b.size) + 1, a, b);
}
inline void mul_abs(limb_t* r, Operand a, Operand b) { destination("mul_abs", r, a.size + b.size + 2, a, b); }
inline void mul_columns(limb_t* r, Operand a, Operand b) {
  if constexpr (kEnabled) {
    if ((a.size < b.size ? a.size : b.size) > kMulSchoolbookMaxLimbs)
      violated("mul_columns", "the shorter operand has more than kMulSchoolbookMaxLimbs limbs");
    destination("mul_columns", r, a.size + b.size + 3, a, b);
  }
}
inline void mul_abs_each(const ProductJob* jobs, std::size_t count) {
  if constexpr (kEnabled) {
    for (std::size_t i = 0; i < count; ++i) {
      const ProductJob& j = jobs[i];
      if (j.by_columns) mul_columns(j.r, j.a, j.b);
      else mul_abs(j.r, j.a, j.b);
      const std::size_t limbs = j.a.size + j.b.size + (j.by_columns ? 3 : 2);
      for (std::size_t k = 0; k < count; ++k)
        if (k != i && (overlap(j.r, limbs, jobs[k].a.limbs, jobs[k].a.size) ||
                       overlap(j.r, limbs, jobs[k].b.limbs, jobs[k].b.size)))
          violated("mul_abs_each", "a job's destination overlaps another job's operand");
    }
  }
}
inline void divrem_limb(limb_t* q, limb_t* r, Operand a, limb_t d) {
  if constexpr (kEnabled) {
    if (a.size < 1) violated("divrem_limb", "a.size < 1");
    if (d == 0) violated("divrem_limb", "d == 0");
    if (q) destination("divrem_limb", q, a.size, a);
    if (r) destination("divrem_limb", r, 1, a);
    if (overlap(q, a.size, r, 1)) violated("divrem_limb", "q overlaps r");
  }
}
inline void sum_abs(limb_t* r, const Operand* terms, std::size_t count) {
  if constexpr (kEnabled) {
    std::size_t longest = 0;
    for (std::size_t i = 0; i < count; ++i) longest = terms[i].size > longest ? terms[i].size : longest;
    for (std::size_t i = 0; i < count; ++i) destination("sum_abs", r, longest + 2, terms[i]);
  }
}
inline void fill(limb_t* r, std::size_t n) { destination("fill", r, n, {nullptr, 0}); }

}  // namespace mpgpu::detail::cuda::contract
