// Batch construction and conversions: width classes, zeros, limbs, bytes in
// both byte orders, GMP integers (negative ones as two's complement),
// seeded random batches, copies between contexts, and the invariant that
// bits at and above the width are zero on every path in.
#include <algorithm>
#include <cstring>

#include "batch_test.hpp"

namespace {

using namespace mpgpu_test;
using mpgpu::Endian;
using mpgpu::limb_t;

class BatchConvert : public BatchTest {};

TEST(BatchWidthClasses, StrideLimbs) {
  const std::pair<std::size_t, std::size_t> cases[] = {
      {1, 2},      {64, 2},      {127, 2},     {128, 2},      {129, 4},      {256, 4},     {257, 8},
      {1000, 16},  {1024, 16},   {1025, 32},   {2048, 32},    {2049, 48},    {3072, 48},   {3073, 64},
      {4096, 64},  {4097, 128},  {8192, 128},  {65536, 1024}, {131073, 4096}, {262144, 4096}};
  for (const auto& [bits, stride] : cases) {
    EXPECT_EQ(mpgpu::batch_stride_limbs(bits), stride) << bits << " bits";
    const Batch b(3, bits, mpgpu::Context::cpu());
    EXPECT_EQ(b.stride_limbs(), stride) << bits << " bits";
    EXPECT_EQ(b.limbs_per_instance(), (bits + 63) / 64) << bits << " bits";
  }
  EXPECT_THROW(mpgpu::batch_stride_limbs(0), mpgpu::InvalidArgument);
  EXPECT_THROW(mpgpu::batch_stride_limbs(Batch::max_bits + 1), mpgpu::InvalidArgument);
}

TEST_P(BatchConvert, ZerosAndEmptyBatches) {
  for (std::size_t bits : batch_widths()) {
    const Batch z(5, bits, ctx());
    EXPECT_EQ(z.count(), 5u);
    EXPECT_EQ(z.bits(), bits);
    EXPECT_EQ(z.context(), ctx());
    ASSERT_TRUE(equals(z, bits, std::vector<Mpz>(5), "Batch(5, bits)"));
  }
  const Batch empty(0, 64, ctx());
  EXPECT_TRUE(empty.empty());
  EXPECT_TRUE(empty.to_limbs().empty());
  Batch r;
  mpgpu::add(r, empty, empty);  // nothing to do, but r takes the shape
  EXPECT_TRUE(r.empty());
  EXPECT_EQ(r.bits(), 64u);
}

TEST_P(BatchConvert, MovesLeaveTheSourceEmpty) {
  Batch a = Batch::random(4, 100, 1, ctx());
  const std::vector<limb_t> limbs = a.to_limbs();
  Batch b = std::move(a);
  EXPECT_EQ(a.count(), 0u);  // NOLINT(bugprone-use-after-move): the state after a move is specified
  EXPECT_EQ(a.bits(), 0u);
  EXPECT_EQ(b.to_limbs(), limbs);
  a = std::move(b);
  EXPECT_EQ(a.to_limbs(), limbs);
  EXPECT_TRUE(b.empty());
}

TEST_P(BatchConvert, LimbsRoundTripAndReduce) {
  Operands gen(41);
  for (std::size_t bits : batch_widths()) {
    const std::size_t n = std::min<std::size_t>(instances_for(bits), 16), lpi = (bits + 63) / 64;
    // Wider input instances than the class, with garbage everywhere: the
    // batch keeps each one mod 2^bits.
    const std::size_t in_lpi = mpgpu::batch_stride_limbs(bits) + 1;
    std::vector<limb_t> in(n * in_lpi);
    for (limb_t& l : in) l = gen.limb() | (gen.coin() ? ~limb_t{0} << 32 : 0);
    std::vector<Mpz> want(n);
    for (std::size_t i = 0; i < n; ++i) {
      Mpz v;
      mpz_import(v, in_lpi, -1, sizeof(limb_t), 0, 0, in.data() + i * in_lpi);
      want[i] = mod2exp(v, bits);
    }
    const Batch b = Batch::from_limbs(in.data(), n, in_lpi, bits, ctx());
    ASSERT_TRUE(equals(b, bits, want, "from_limbs with wide input"));
    // to_limbs: limbs_per_instance() limbs each, the reduced values.
    const std::vector<limb_t> out = b.to_limbs();
    ASSERT_EQ(out.size(), n * lpi);
    for (std::size_t i = 0; i < n; ++i) {
      Mpz v;
      mpz_import(v, lpi, -1, sizeof(limb_t), 0, 0, out.data() + i * lpi);
      ASSERT_EQ(v, want[i]) << "to_limbs at " << bits << " bits, instance " << i;
    }
    // Narrow input: one limb per instance, zero-extended.
    const Batch one = Batch::from_limbs(in.data(), n, 1, bits, ctx());
    std::vector<Mpz> low(n);
    for (std::size_t i = 0; i < n; ++i) low[i] = mod2exp(Mpz::from_ui(in[i]), bits);
    ASSERT_TRUE(equals(one, bits, low, "from_limbs with one limb per instance"));
    ASSERT_TRUE(equals(Batch::from_limbs(out.data(), n, lpi, bits, ctx()), bits, want, "from_limbs(to_limbs())"));
  }
}

/// Bytes of v in `order`, zero-extended to `len` bytes (v < 2^(8 len)).
std::vector<unsigned char> bytes_of(const Mpz& v, std::size_t len, Endian order) {
  std::vector<unsigned char> out(len, 0);
  std::size_t count = 0;
  std::vector<unsigned char> tmp(len + 8);
  mpz_export(tmp.data(), &count, -1, 1, 0, 0, v);  // little-endian, count significant bytes
  for (std::size_t k = 0; k < count && k < len; ++k) out[order == Endian::little ? k : len - 1 - k] = tmp[k];
  return out;
}

TEST_P(BatchConvert, BytesBothOrders) {
  Operands gen(42);
  for (std::size_t bits : batch_widths()) {
    const std::size_t n = std::min<std::size_t>(instances_for(bits), 12);
    const std::vector<Mpz> v = make_operands(gen, bits, n, 0);
    for (Endian order : {Endian::little, Endian::big}) {
      const char* name = order == Endian::little ? "little" : "big";
      const Batch b = to_batch(v, bits, ctx());
      // Exactly ceil(bits / 8) bytes, then 9 more (zero-extended).
      for (std::size_t len : {(bits + 7) / 8, (bits + 7) / 8 + 9}) {
        std::vector<unsigned char> got(n * len, 0xee);
        b.to_bytes(got.data(), len, order);
        for (std::size_t i = 0; i < n; ++i)
          ASSERT_TRUE(std::equal(got.begin() + i * len, got.begin() + (i + 1) * len, bytes_of(v[i], len, order).begin()))
              << "to_bytes (" << name << ", " << len << " bytes) at " << bits << " bits, instance " << i << ": "
              << v[i];
        ASSERT_TRUE(equals(Batch::from_bytes(got.data(), n, len, order, bits, ctx()), bits, v,
                           std::string("from_bytes(to_bytes()) ") + name));
      }
      // Input wider than the width: reduced mod 2^bits.
      const std::size_t wide = (bits + 7) / 8 + 16;
      std::vector<unsigned char> in(n * wide);
      for (unsigned char& c : in) c = static_cast<unsigned char>(gen.below(256));
      std::vector<Mpz> want(n);
      for (std::size_t i = 0; i < n; ++i) {
        Mpz t;
        mpz_import(t, wide, order == Endian::big ? 1 : -1, 1, 0, 0, in.data() + i * wide);
        want[i] = mod2exp(t, bits);
      }
      ASSERT_TRUE(equals(Batch::from_bytes(in.data(), n, wide, order, bits, ctx()), bits, want,
                         std::string("from_bytes with wide input ") + name));
    }
  }
}

TEST_P(BatchConvert, BytesThatDoNotFitThrowOverflow) {
  std::vector<Mpz> v = {Mpz::from_ui(0xff), Mpz::from_ui(0x1ff)};
  const Batch b = to_batch(v, 100, ctx());
  std::vector<unsigned char> out(4, 0xee);
  EXPECT_THROW(b.to_bytes(out.data(), 1, Endian::little), mpgpu::Overflow);
  EXPECT_EQ(out, std::vector<unsigned char>(4, 0xee)) << "nothing is written before the check";
  v.pop_back();
  const Batch small = to_batch(v, 100, ctx());
  small.to_bytes(out.data(), 1, Endian::big);  // fits in one byte although 100 bits wide
  EXPECT_EQ(out[0], 0xff);
}

TEST_P(BatchConvert, MpzTakesNegativesAsTwosComplement) {
  Operands gen(43);
  for (std::size_t bits : batch_widths()) {
    std::vector<Mpz> in = {Mpz::from_si(-1), -Mpz::pow2(bits), -Mpz::pow2(bits - 1), Mpz::pow2(bits),
                           Mpz::all_ones(bits + 70), -gen.random_bits(bits + 200), -gen.random_bits(1 + gen.below(bits)),
                           gen.random_bits(2 * bits + 3)};
    std::vector<Mpz> want;
    for (const Mpz& v : in) want.push_back(mod2exp(v, bits));
    const Batch b = to_batch(in, bits, ctx());
    ASSERT_TRUE(equals(b, bits, want, "from_mpz", operands_of({{"z", &in}})));
    // The single-instance reader.
    for (std::size_t i = 0; i < in.size(); ++i) {
      Mpz z = Mpz::from_si(-5);
      b.to_mpz(i, z);
      ASSERT_EQ(z, want[i]) << "to_mpz(" << i << ") at " << bits << " bits";
    }
  }
}

TEST_P(BatchConvert, RandomIsSeededAndBelowTheWidth) {
  for (std::size_t bits : batch_widths()) {
    const std::size_t n = std::min<std::size_t>(instances_for(bits), 16);
    const Batch a = Batch::random(n, bits, 7, ctx());
    const Batch same = Batch::random(n, bits, 7, mpgpu::Context::cpu());  // host generator: any context
    const Batch other = Batch::random(n, bits, 8, ctx());
    const Readback ra = read(a), rs = read(same), ro = read(other);
    ASSERT_TRUE(ra.padding_error.empty()) << ra.padding_error;
    std::size_t differ = 0, top_set = 0;
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(ra.values[i], rs.values[i]) << bits << " bits, instance " << i;
      differ += !(ra.values[i] == ro.values[i]);
      top_set += ra.values[i].bits() == bits;
    }
    EXPECT_GT(differ, 0u) << bits << " bits: seeds 7 and 8 gave the same batch";
    if (bits >= 64) {
      EXPECT_GT(top_set, 0u) << bits << " bits: the top bit is never set";
    }
  }
}

TEST_P(BatchConvert, ToContextAndClone) {
  Operands gen(44);
  const mpgpu::Context cpu = mpgpu::Context::cpu();
  for (std::size_t bits : {std::size_t{1}, std::size_t{65}, std::size_t{3072}, std::size_t{131072}}) {
    const std::vector<Mpz> v = make_operands(gen, bits, 8, 0);
    const Batch a = to_batch(v, bits, ctx());
    const Batch there = a.to_context(cpu);
    EXPECT_EQ(there.context(), cpu);
    ASSERT_TRUE(equals(there, bits, v, "to_context(cpu)"));
    const Batch back = there.to_context(ctx());
    EXPECT_EQ(back.context(), ctx());
    ASSERT_TRUE(equals(back, bits, v, "to_context(cpu).to_context(ctx)"));
    // A clone is independent storage: changing it leaves the original.
    Batch c = a.clone();
    EXPECT_NE(c.part(0).data(), a.part(0).data());  // part(0): a itself unless split
    mpgpu::com(c, c);
    ASSERT_TRUE(equals(a, bits, v, "the original after changing its clone"));
  }
}

TEST_P(BatchConvert, DocExample) {
  // docs/batch.md shows these lines (with Context::from_string("auto") for ctx()).
  const mpgpu::Context& ctx = this->ctx();
  auto a = mpgpu::Batch::random(1 << 12, 1024, /*seed=*/1, ctx);  // 4096 numbers of 1024 bits
  auto b = mpgpu::Batch::random(1 << 12, 1024, /*seed=*/2, ctx);
  mpgpu::Batch r, carry;
  mpgpu::add(r, a, b, &carry);  // r = a + b mod 2^1024, carry = the bit that left
  mpgpu::mul_high(r, a, b);     // r = floor(a b / 2^1024), written into r's storage
  std::vector<mpgpu::limb_t> limbs = r.to_limbs();  // 16 limbs per instance

  ASSERT_EQ(limbs.size(), std::size_t{16} << 12);
  const Readback x = read(a), y = read(b), high = read(r), c = read(carry);
  for (std::size_t i = 0; i < x.values.size(); ++i) {
    Mpz want, sum;
    mpz_mul(want, x.values[i], y.values[i]);
    mpz_fdiv_q_2exp(want, want, 1024);
    mpz_add(sum, x.values[i], y.values[i]);
    mpz_fdiv_q_2exp(sum, sum, 1024);
    ASSERT_EQ(high.values[i], want) << "instance " << i;
    ASSERT_EQ(c.values[i], sum) << "instance " << i;
  }
}

MPGPU_INSTANTIATE_ON_BACKEND(BatchConvert);

}  // namespace
