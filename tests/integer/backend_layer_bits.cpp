// The shifts (src/cuda/shift.cu), the two's-complement bitwise operations
// (src/cuda/bitwise.cu) and popcount (src/cuda/reduce.cu), called directly
// against GMP; see backend_layer.hpp for the guards.
#include "integer/backend_layer.hpp"

namespace backend_layer {
namespace {

// include/mpgpu/device/shift.cuh: ShiftPolicy, a thread per pair of output
// limbs (a warp 64 limbs, a block 512); the third input limb a thread needs
// comes from the next or previous lane, or from memory at a warp's edge.
constexpr std::size_t kShiftBlock = 512;
const std::vector<std::size_t> kShiftSizes = {1,  2,  63,  64,  65, kShiftBlock - 1, kShiftBlock, kShiftBlock + 1,
                                              3 * kShiftBlock + 7};
/// Shift counts: whole limbs (odd and even), partial limbs, more than a block.
const std::vector<std::uint64_t> kShiftBits = {0,   1,   63,  64,           65,           127,
                                               145, 1989, 64 * 511 + 3, 64 * 512, 64 * 1000 + 63};
/// Two kinds a (size, count): random, and all-ones (a carry out of every
/// limb), high-bit (the top bit moves to a new limb) or zero-middle in turn.
std::vector<Kind> shift_kinds(std::size_t rotation) {
  static const Kind others[] = {Kind::all_ones, Kind::high_bit, Kind::zero_middle};
  return {Kind::random, others[rotation % 3]};
}

TEST_F(BackendLayer, ShiftLeft) {
  Operands gen(201);
  std::size_t rotation = 0;
  for (const StreamCase& sc : streams())
    for (std::size_t n : kShiftSizes)
      for (std::uint64_t bits : kShiftBits)
        for (Kind k : shift_kinds(rotation++)) {
          if (!sanitizer_runs(sc, n, rotation, 3)) continue;  // one shift count in three, both its kinds
          const bool odd = (bits / 64 + n) % 2 == 1;
          const std::string what = "shift_left(" + shape("a", n, kind_name(k)) + ", bits = " +
                                   std::to_string(bits) + ")" + (odd ? ", one limb off" : "") + ", " + sc.name;
          const Limbs v = make_limbs(k, n, gen);
          const DeviceOperand a(sc.s, v, !odd);
          Guarded r = limb_output(sc.s, n + bits / 64 + 1, odd);
          dc::Deferred deferred = dc::shift_left(st(), sc.s, r.limbs(), a.op(), bits);
          const Words w = wait_words(deferred, sc.s);
          Mpz want;
          mpz_mul_2exp(want, to_mpz(v), bits);
          if (!report(all_of({output_is(r, sc.s, limbs_of(want), w.size()), operands_unchanged(sc.s, {&a})}),
                      what))
            return;
        }
}

TEST_F(BackendLayer, ShiftRight) {
  Operands gen(202);
  std::size_t rotation = 0;
  for (const StreamCase& sc : streams())
    for (std::size_t n : kShiftSizes) {
      std::vector<std::uint64_t> counts;
      for (std::uint64_t bits : kShiftBits)
        if (bits / 64 < n) counts.push_back(bits);  // the contract: bits/64 < a.size
      counts.push_back(64 * (n - 1));               // to the top limb
      counts.push_back(64 * n - 1);                 // to the top bit
      for (std::uint64_t bits : counts)
        for (Kind k : shift_kinds(rotation++)) {
          if (!sanitizer_runs(sc, n, rotation, 3)) continue;  // one count in three (at least 5 a size)
          const bool odd = (bits / 64 + n) % 2 == 0;
          const std::string what = "shift_right(" + shape("a", n, kind_name(k)) + ", bits = " +
                                   std::to_string(bits) + ")" + (odd ? ", one limb off" : "") + ", " + sc.name;
          const Limbs v = make_limbs(k, n, gen);
          const DeviceOperand a(sc.s, v, odd);
          Guarded r = limb_output(sc.s, n - bits / 64, odd);
          dc::Deferred deferred = dc::shift_right(st(), sc.s, r.limbs(), a.op(), bits);
          const Words w = wait_words(deferred, sc.s);
          Mpz want;
          mpz_tdiv_q_2exp(want, to_mpz(v), bits);
          if (!report(all_of({output_is(r, sc.s, limbs_of(want), w.size()), operands_unchanged(sc.s, {&a})}),
                      what))
            return;
        }
      }
}

// include/mpgpu/device/bitwise.cuh: BitwisePolicy::kTile = 512 limbs a
// block; the lowest-nonzero searches of negative operands and results use
// limb_search.cuh's chunks of 2048 limbs (a probe first above 16 chunks).
constexpr std::size_t kBitwiseTile = 512;
const std::vector<std::size_t> kBitwiseSizes = {1, kBitwiseTile - 1, kBitwiseTile, kBitwiseTile + 1,
                                                3 * kBitwiseTile + 100};
constexpr std::size_t kBitwiseLong = 17 * 2048 + 5;

struct BitPair {
  std::string name;
  Limbs a, b;
};

std::vector<BitPair> bitwise_pairs(std::size_t n, Operands& gen, bool all) {
  std::vector<BitPair> v;
  v.push_back({"high-bit, high-bit (lowest nonzero limb at the top)", make_limbs(Kind::high_bit, n, gen),
               make_limbs(Kind::high_bit, n, gen)});
  {  // -(2^(64n-1)) & -(2^(64n-1) + 1) = -2^(64n): a result one limb longer
    BitPair p{"high-bit, high-bit + 1", make_limbs(Kind::high_bit, n, gen), make_limbs(Kind::high_bit, n, gen)};
    p.b[0] += 1;
    v.push_back(p);
  }
  v.push_back({"random, runs[n/2] (unbalanced)", make_limbs(Kind::random, n, gen),
               make_limbs(Kind::runs, std::max<std::size_t>(1, n / 2), gen)});
  if (!all) return v;
  v.push_back({"random, random", make_limbs(Kind::random, n, gen), make_limbs(Kind::random, n, gen)});
  v.push_back({"zero-middle, all-ones", make_limbs(Kind::zero_middle, n, gen), make_limbs(Kind::all_ones, n, gen)});
  v.push_back({"random[1], runs (a shorter)", make_limbs(Kind::random, 1, gen), make_limbs(Kind::runs, n, gen)});
  return v;
}

const char* op_name(mpgpu::limb::BitwiseOp op) {
  switch (op) {
    case mpgpu::limb::BitwiseOp::and_: return "and";
    case mpgpu::limb::BitwiseOp::ior: return "ior";
    default: return "xor";
  }
}

TEST_F(BackendLayer, Bitwise) {
  using mpgpu::limb::BitwiseOp;
  Operands gen(203);
  std::vector<std::size_t> sizes = kBitwiseSizes;
  sizes.push_back(kBitwiseLong);
  // Sanitizer-sized: one (signs, op) combination in four, in rotation (each
  // pair of operands keeps 3 of its 12, every op among them).
  std::size_t index = 0;
  for (const StreamCase& sc : streams())
    for (std::size_t n : sizes)
      for (const BitPair& p : bitwise_pairs(n, gen, n != kBitwiseLong))
        for (int signs = 0; signs < 4; ++signs)
          for (BitwiseOp op : {BitwiseOp::and_, BitwiseOp::ior, BitwiseOp::xor_}) {
            if (!sanitizer_runs(sc, n, index++, 4)) continue;
            const bool an = signs & 1, bn = signs & 2;
            const bool odd = (signs + n) % 2 == 1;
            const std::size_t L = std::max(p.a.size(), p.b.size());
            const std::string what = std::string("bitwise(") + op_name(op) + ", " + (an ? "-" : "+") +
                                     shape("a", p.a.size(), "") + ", " + (bn ? "-" : "+") +
                                     shape("b", p.b.size(), "") + "): " + p.name +
                                     (odd ? ", one limb off" : "") + ", " + sc.name;
            const DeviceOperand a(sc.s, p.a, odd), b(sc.s, p.b, !odd);
            Guarded r = limb_output(sc.s, L + 1, odd);
            dc::Deferred deferred = dc::bitwise(st(), sc.s, op, r.limbs(), a.op(), an, b.op(), bn);
            const Words w = wait_words(deferred, sc.s);
            Mpz x = to_mpz(p.a), y = to_mpz(p.b), want;
            if (an) mpz_neg(x, x);
            if (bn) mpz_neg(y, y);
            if (op == BitwiseOp::and_) mpz_and(want, x, y);
            else if (op == BitwiseOp::ior) mpz_ior(want, x, y);
            else mpz_xor(want, x, y);
            // The caller's sign: bitwise_result_negative; GMP's must agree (a
            // zero result has none).
            ::testing::AssertionResult sign_ok = ::testing::AssertionSuccess();
            const bool negative = mpgpu::limb::bitwise_result_negative(op, an, bn);
            if (want.sgn() != 0 && negative != (want.sgn() < 0))
              sign_ok = ::testing::AssertionFailure() << "bitwise_result_negative says "
                                                      << (negative ? "negative" : "non-negative") << ", GMP's "
                                                      << want;
            if (!report(all_of({output_is(r, sc.s, limbs_of(want), w.size()), sign_ok,
                                operands_unchanged(sc.s, {&a, &b})}),
                        what))
              return;
          }
}

// include/mpgpu/device/popcount.cuh: one block up to kPopcountOneBlockLimbs
// = 8192 limbs; above, blocks of 256 threads (at most 1056) striding with
// four loads in flight, then the rest one at a time.
const std::vector<std::size_t> kPopcountSizes = {1, 255, 256, 257, 8191, 8192, 8193, 4 * 1056 * 256 + 13};

TEST_F(BackendLayer, Popcount) {
  Operands gen(204);
  std::size_t index = 0;
  for (const StreamCase& sc : streams())
    for (std::size_t n : kPopcountSizes)
      for (Kind k : {Kind::random, Kind::runs, Kind::all_ones, Kind::high_bit, Kind::zero_middle}) {
        const bool odd = n % 2 == 1;
        const Limbs v = make_limbs(k, n, gen);
        if (!sanitizer_runs(sc, n, index++, 2)) continue;
        const DeviceOperand a(sc.s, v, odd);
        const std::uint64_t got = dc::popcount(st(), sc.s, a.op());
        const std::uint64_t want = mpz_popcount(to_mpz(v));
        ::testing::AssertionResult ok = ::testing::AssertionSuccess();
        if (got != want) ok = ::testing::AssertionFailure() << "returned " << got << ", expected " << want;
        const std::string what = "popcount(" + shape("a", n, kind_name(k)) + ")" + (odd ? ", one limb off" : "") +
                                 ", " + sc.name;
        if (!report(all_of({ok, operands_unchanged(sc.s, {&a})}), what)) return;
      }
}

}  // namespace
}  // namespace backend_layer
