// The debug checks of the device layer's contract (src/cuda/contracts.hpp)
// without a GPU: compiled with MPGPU_DEBUG_CONTRACTS=1 whatever the build
// type, over host buffers that stand in for pool allocations. A broken
// contract must end the process naming the function; a kept one must pass.
#include <gtest/gtest.h>

#include <cstdint>

#include "cuda/contracts.hpp"

namespace {

namespace dc = mpgpu::detail::cuda;
namespace contract = dc::contract;
using mpgpu::limb_t;

static_assert(contract::kEnabled, "this test is built with MPGPU_DEBUG_CONTRACTS=1");

/// A recorded "pool allocation" of `limbs` limbs for the life of the test.
struct Allocation {
  explicit Allocation(std::size_t limbs) : limbs(new limb_t[limbs + 8]()) {
    contract::record_allocation(this->limbs, limbs * sizeof(limb_t));
  }
  ~Allocation() {
    contract::forget_allocation(limbs);
    delete[] limbs;
  }
  limb_t* limbs;
};

TEST(BackendContracts, KeptContractsPass) {
  Allocation r(12), a(5), b(4);
  contract::add_abs(r.limbs, {a.limbs, 5}, {b.limbs, 4});
  contract::sub_abs(r.limbs, {a.limbs, 5}, {b.limbs, 4});
  contract::shift_left(r.limbs, {a.limbs, 5}, 64 * 6 + 3);
  contract::shift_right(r.limbs, {a.limbs, 5}, 64 * 4);
  contract::bitwise(r.limbs, {a.limbs, 5}, {b.limbs, 4});
  contract::mul_columns(r.limbs, {a.limbs, 5}, {b.limbs, 4});
  contract::mul_abs(r.limbs, {a.limbs, 5}, {a.limbs, 5});  // a square: a and b the same vector
  contract::divrem_limb(r.limbs, r.limbs + 6, {a.limbs, 5}, 7);
  contract::fill(r.limbs, 12);
  // Memory that no allocation holds (a test's own buffer) is not checked for room.
  limb_t own[2] = {};
  contract::add_abs(own, {a.limbs, 5}, {b.limbs, 4});
}

TEST(BackendContractsDeathTest, TooLittleRoom) {
  Allocation r(5), a(5), b(4);
  EXPECT_DEATH(contract::add_abs(r.limbs, {a.limbs, 5}, {b.limbs, 4}), "add_abs: .*less room");
  EXPECT_DEATH(contract::shift_left(r.limbs, {a.limbs, 5}, 64), "shift_left: .*less room");
  EXPECT_DEATH(contract::mul_abs(r.limbs + 1, {a.limbs, 2}, {b.limbs, 1}), "mul_abs: .*less room");
}

TEST(BackendContractsDeathTest, Overlap) {
  Allocation buffer(32);
  limb_t* const p = buffer.limbs;
  EXPECT_DEATH(contract::add_abs(p, {p + 4, 4}, {p + 20, 2}), "add_abs: .*overlaps an operand");
  EXPECT_DEATH(contract::sub_abs_ordered(p + 10, p, p + 12, 3), "sub_abs_ordered: .*overlaps");
  EXPECT_DEATH(contract::divrem_limb(p, p + 3, {p + 20, 4}, 3), "divrem_limb: .*q overlaps r");
  const dc::ProductJob jobs[2] = {{p, {p + 20, 2}, {p + 22, 2}, true}, {p + 10, {p + 2, 1}, {p + 24, 1}, true}};
  EXPECT_DEATH(contract::mul_abs_each(jobs, 2), "mul_abs_each: .*another job's operand");
  contract::add_abs(p, {p + 5, 4}, {p + 9, 2});  // r's 5 limbs end where a begins
}

TEST(BackendContractsDeathTest, SizeOrder) {
  Allocation r(8), a(2), b(4);
  EXPECT_DEATH(contract::add_abs(r.limbs, {a.limbs, 2}, {b.limbs, 4}), "add_abs: .*a.size < b.size");
  EXPECT_DEATH(contract::shift_right(r.limbs, {a.limbs, 2}, 128), "shift_right: .*bits / 64 >= a.size");
  EXPECT_DEATH(contract::divrem_limb(r.limbs, nullptr, {a.limbs, 2}, 0), "divrem_limb: .*d == 0");
}

}  // namespace
