// The device branches of include/mpgpu/limb (PTX carry chains, __umul64hi,
// __clzll, ...) against their host branches, on edge and random limbs: one
// kernel evaluates every primitive per input, the host evaluates the same
// calls, and every field must agree. A second kernel chains add_with_carry /
// sub_with_borrow over long vectors, checked against mpn_add_n / mpn_sub_n.
#include <cuda_runtime.h>
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "mpgpu/context.hpp"
#include "mpgpu/limb/arith.cuh"
#include "mpgpu/limb/carry_status.cuh"
#include "mpgpu/limb/twos_complement.cuh"
#include "support/cuda_assert.hpp"
#include "support/operands.hpp"

namespace {

using mpgpu::limb_t;
namespace limb = mpgpu::limb;

struct Input {
  limb_t a, b, c, lo, hi;
  unsigned carry;  // 0 or 1
  std::uint64_t index, n, z;  // for twos_complement_limb
  bool negative;
};

struct Output {
  limb_t add_r, add_c, sub_r, sub_b;
  limb_t mul_lo, mul_hi, wide32, high, inverse, montgomery;
  limb_t ma_lo, ma_hi, ma_carry;
  limb_t acc0, acc1, acc2;
  int clz, ctz, pop;
  std::uint32_t add_status, sub_status, combine;
  limb_t tc, bit_and, bit_ior, bit_xor;
  bool neg_and, neg_ior, neg_xor;

  bool operator==(const Output&) const = default;
};

__host__ __device__ Output evaluate(const Input& in) {
  Output o{};
  o.add_c = limb::add_with_carry(in.a, in.b, in.carry, o.add_r);
  o.sub_b = limb::sub_with_borrow(in.a, in.b, in.carry, o.sub_r);
  o.mul_lo = limb::mul_wide(in.a, in.b, o.mul_hi);
  o.wide32 = limb::mul_wide_32(static_cast<std::uint32_t>(in.a), static_cast<std::uint32_t>(in.b >> 32));
  o.high = limb::mul_hi(in.a, in.b);
  o.inverse = limb::inverse_odd(in.c | 1);
  o.montgomery = limb::montgomery_mul(in.a, in.b % (in.c | 1), in.c | 1, o.inverse);
  o.ma_lo = in.lo;
  o.ma_hi = in.hi;
  o.ma_carry = limb::mul_add(in.a, in.b, in.c, o.ma_lo, o.ma_hi);
  o.acc0 = in.lo;
  o.acc1 = in.hi;
  o.acc2 = in.c >> 1;  // room for the carry out of the 128-bit part
  limb::mul_accumulate(in.a, in.b, o.acc0, o.acc1, o.acc2);
  o.clz = limb::count_leading_zeros(in.a);
  o.ctz = limb::count_trailing_zeros(in.a);
  o.pop = limb::popcount(in.a);
  o.add_status = limb::add_status(in.a, in.a + in.b);
  o.sub_status = limb::sub_status(in.a, in.b, in.a - in.b);
  o.combine = limb::CarryCombine{}(static_cast<std::uint32_t>(in.c % 3), static_cast<std::uint32_t>(in.lo % 3));
  o.tc = limb::twos_complement_limb(in.a, in.index, in.n, in.z, in.negative);
  o.bit_and = limb::apply_bitwise(limb::BitwiseOp::and_, in.a, in.b);
  o.bit_ior = limb::apply_bitwise(limb::BitwiseOp::ior, in.a, in.b);
  o.bit_xor = limb::apply_bitwise(limb::BitwiseOp::xor_, in.a, in.b);
  o.neg_and = limb::bitwise_result_negative(limb::BitwiseOp::and_, in.negative, in.carry);
  o.neg_ior = limb::bitwise_result_negative(limb::BitwiseOp::ior, in.negative, in.carry);
  o.neg_xor = limb::bitwise_result_negative(limb::BitwiseOp::xor_, in.negative, in.carry);
  return o;
}

__global__ void evaluate_kernel(const Input* in, Output* out, std::size_t count) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < count) out[i] = evaluate(in[i]);
}

/// One thread per vector: r = a + b (or a - b) with a carry chain of n limbs.
__global__ void chain_kernel(bool subtract, const limb_t* a, const limb_t* b, limb_t* r, limb_t* carry,
                             std::size_t n, std::size_t vectors) {
  const std::size_t v = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (v >= vectors) return;
  limb_t c = 0;
  for (std::size_t i = v * n; i < (v + 1) * n; ++i)
    c = subtract ? limb::sub_with_borrow(a[i], b[i], static_cast<unsigned>(c), r[i])
                 : limb::add_with_carry(a[i], b[i], static_cast<unsigned>(c), r[i]);
  carry[v] = c;
}

bool have_device() { return mpgpu::Context::cuda_device_count() > 0; }

std::vector<Input> make_inputs() {
  mpgpu_test::Operands gen;
  std::vector<Input> inputs;
  const auto& edges = mpgpu_test::edge_limbs();
  auto make = [&](limb_t a, limb_t b) {
    Input in{};
    in.a = a;
    in.b = b;
    in.c = gen.coin() ? ~limb_t{0} : gen.limb();
    in.lo = gen.coin() ? ~limb_t{0} : gen.limb();
    in.hi = gen.coin() ? ~limb_t{0} : gen.limb();
    in.carry = static_cast<unsigned>(gen.below(2));
    in.n = 1 + gen.below(8);
    in.z = gen.below(in.n);
    in.index = gen.below(in.n + 2);
    in.negative = gen.coin();
    return in;
  };
  for (limb_t a : edges)
    for (limb_t b : edges)
      for (int rep = 0; rep < 4; ++rep) inputs.push_back(make(a, b));
  for (int i = 0; i < 100000; ++i) {
    limb_t a = gen.limb();
    inputs.push_back(make(a, gen.coin() ? ~a : gen.limb()));
  }
  return inputs;
}

TEST(LimbDevice, PrimitivesMatchHost) {
  if (!have_device()) GTEST_SKIP() << "no CUDA device";
  const std::vector<Input> inputs = make_inputs();
  const std::size_t count = inputs.size();
  Input* d_in = nullptr;
  Output* d_out = nullptr;
  CUDA_ASSERT(cudaMalloc(&d_in, count * sizeof(Input)));
  CUDA_ASSERT(cudaMalloc(&d_out, count * sizeof(Output)));
  CUDA_ASSERT(cudaMemcpy(d_in, inputs.data(), count * sizeof(Input), cudaMemcpyHostToDevice));
  CUDA_ASSERT(cudaMemset(d_out, 0xff, count * sizeof(Output)));
  const unsigned threads = 256;
  evaluate_kernel<<<static_cast<unsigned>((count + threads - 1) / threads), threads>>>(d_in, d_out, count);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaDeviceSynchronize());
  std::vector<Output> got(count);
  CUDA_ASSERT(cudaMemcpy(got.data(), d_out, count * sizeof(Output), cudaMemcpyDeviceToHost));
  CUDA_ASSERT(cudaFree(d_in));
  CUDA_ASSERT(cudaFree(d_out));

  for (std::size_t i = 0; i < count; ++i) {
    const Output want = evaluate(inputs[i]);
    const Output& g = got[i];
    if (g == want) continue;
    const Input& in = inputs[i];
    ADD_FAILURE() << std::hex << "input " << std::dec << i << std::hex << ": a=0x" << in.a << " b=0x" << in.b
                  << " c=0x" << in.c << " lo=0x" << in.lo << " hi=0x" << in.hi << " carry=" << in.carry;
    EXPECT_EQ(g.add_r, want.add_r);
    EXPECT_EQ(g.add_c, want.add_c);
    EXPECT_EQ(g.sub_r, want.sub_r);
    EXPECT_EQ(g.sub_b, want.sub_b);
    EXPECT_EQ(g.mul_lo, want.mul_lo);
    EXPECT_EQ(g.mul_hi, want.mul_hi);
    EXPECT_EQ(g.wide32, want.wide32);
    EXPECT_EQ(g.ma_lo, want.ma_lo);
    EXPECT_EQ(g.ma_hi, want.ma_hi);
    EXPECT_EQ(g.ma_carry, want.ma_carry);
    EXPECT_EQ(g.clz, want.clz);
    EXPECT_EQ(g.ctz, want.ctz);
    EXPECT_EQ(g.pop, want.pop);
    EXPECT_EQ(g.add_status, want.add_status);
    EXPECT_EQ(g.sub_status, want.sub_status);
    EXPECT_EQ(g.combine, want.combine);
    EXPECT_EQ(g.tc, want.tc);
    EXPECT_EQ(g.bit_and, want.bit_and);
    EXPECT_EQ(g.bit_ior, want.bit_ior);
    EXPECT_EQ(g.bit_xor, want.bit_xor);
    EXPECT_EQ(g.neg_and, want.neg_and);
    EXPECT_EQ(g.neg_ior, want.neg_ior);
    EXPECT_EQ(g.neg_xor, want.neg_xor);
    return;  // the first mismatch is enough to debug
  }
}

TEST(LimbDevice, CarryChainsMatchMpn) {
  if (!have_device()) GTEST_SKIP() << "no CUDA device";
  mpgpu_test::Operands gen(5);
  const std::size_t n = 4096, vectors = 64, total = n * vectors;
  std::vector<limb_t> a(total), b(total);
  for (std::size_t v = 0; v < vectors; ++v)
    for (std::size_t i = v * n; i < (v + 1) * n; ++i) {
      switch (v % 4) {
        case 0: a[i] = ~limb_t{0}; b[i] = i == v * n; break;     // carry through every limb
        case 1: a[i] = 0; b[i] = i == v * n; break;               // borrow through every limb
        case 2: a[i] = gen.limb(); b[i] = ~a[i]; break;           // all propagate
        default: a[i] = gen.limb(); b[i] = gen.limb(); break;
      }
    }
  limb_t *d_a = nullptr, *d_b = nullptr, *d_r = nullptr, *d_c = nullptr;
  CUDA_ASSERT(cudaMalloc(&d_a, total * sizeof(limb_t)));
  CUDA_ASSERT(cudaMalloc(&d_b, total * sizeof(limb_t)));
  CUDA_ASSERT(cudaMalloc(&d_r, total * sizeof(limb_t)));
  CUDA_ASSERT(cudaMalloc(&d_c, vectors * sizeof(limb_t)));
  CUDA_ASSERT(cudaMemcpy(d_a, a.data(), total * sizeof(limb_t), cudaMemcpyHostToDevice));
  CUDA_ASSERT(cudaMemcpy(d_b, b.data(), total * sizeof(limb_t), cudaMemcpyHostToDevice));
  for (bool subtract : {false, true}) {
    chain_kernel<<<1, static_cast<unsigned>(vectors)>>>(subtract, d_a, d_b, d_r, d_c, n, vectors);
    CUDA_ASSERT(cudaGetLastError());
    CUDA_ASSERT(cudaDeviceSynchronize());
    std::vector<limb_t> r(total), carry(vectors), want(n);
    CUDA_ASSERT(cudaMemcpy(r.data(), d_r, total * sizeof(limb_t), cudaMemcpyDeviceToHost));
    CUDA_ASSERT(cudaMemcpy(carry.data(), d_c, vectors * sizeof(limb_t), cudaMemcpyDeviceToHost));
    for (std::size_t v = 0; v < vectors; ++v) {
      auto* wp = reinterpret_cast<mp_limb_t*>(want.data());
      auto* ap = reinterpret_cast<const mp_limb_t*>(a.data() + v * n);
      auto* bp = reinterpret_cast<const mp_limb_t*>(b.data() + v * n);
      const mp_limb_t want_carry = subtract ? mpn_sub_n(wp, ap, bp, n) : mpn_add_n(wp, ap, bp, n);
      ASSERT_EQ(carry[v], want_carry) << (subtract ? "sub" : "add") << " vector " << v;
      ASSERT_TRUE(std::equal(want.begin(), want.end(), r.begin() + v * n))
          << (subtract ? "sub" : "add") << " vector " << v;
    }
  }
  CUDA_ASSERT(cudaFree(d_a));
  CUDA_ASSERT(cudaFree(d_b));
  CUDA_ASSERT(cudaFree(d_r));
  CUDA_ASSERT(cudaFree(d_c));
}

}  // namespace
