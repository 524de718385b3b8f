// Products by columns (src/cuda/mul_short.cu) and through NTTs
// (src/cuda/ntt_mul.cu), the single-limb division (src/cuda/div_limb.cu) and
// the delayed-carry sum (src/cuda/reduce.cu), called directly against GMP;
// see backend_layer.hpp for the guards.
#include "integer/backend_layer.hpp"

namespace backend_layer {
namespace {

struct Shape {
  std::size_t na, nb;
  std::string why;
};

/// Kinds of the factors; the first two for the largest shapes only.
const std::vector<std::pair<Kind, Kind>> kMulKinds = {{Kind::all_ones, Kind::all_ones},  // columns at their bound
                                                      {Kind::random, Kind::random},
                                                      {Kind::runs, Kind::runs},
                                                      {Kind::high_bit, Kind::zero_middle}};
constexpr std::uint64_t kLargeWork = std::uint64_t{1} << 22;  // na * nb above which only two kinds run

// Crossovers of mul_columns: a thread per column up to kMulShortMaxLimbs, a
// warp per column up to kMulSchoolbookMaxLimbs (b in shared memory: above
// 48 KiB, 6144 limbs, the kernel's limit is raised; at most 2048 blocks of
// 8 warps, so more than 16384 columns stride); the three column vectors are
// summed in one block while a.size + b.size <= 2046 (sum_abs: width + 1 <=
// 2048), by the column sum and a scan add above. The context's
// TuningParams::schoolbook_max_work (the tuning table's kSchoolbookMaxWork
// unless MPGPU_SCHOOLBOOK_MAX_WORK says otherwise) is where the host API
// (src/integer/integer_mul.cpp, by_columns) turns to mul_abs: the shapes at
// it and one limb past it (schoolbook_work_shapes) come from that value.
const std::vector<Shape> kColumnShapes = {
    {1, 1, "1 x 1"},
    {2, 1, "2 x 1"},
    {1, 2, "b longer"},
    {31, 31, "below kMulShortMaxLimbs"},
    {dc::kMulShortMaxLimbs, dc::kMulShortMaxLimbs, "kMulShortMaxLimbs"},
    {dc::kMulShortMaxLimbs + 1, dc::kMulShortMaxLimbs, "kMulShortMaxLimbs, a longer"},
    {dc::kMulShortMaxLimbs, dc::kMulShortMaxLimbs + 1, "kMulShortMaxLimbs + 1 (warp per column)"},
    {dc::kMulShortMaxLimbs + 1, dc::kMulShortMaxLimbs + 1, "kMulShortMaxLimbs + 1"},
    {1000, dc::kMulShortMaxLimbs, "unbalanced, thread per column"},
    {1000, dc::kMulShortMaxLimbs + 1, "unbalanced, warp per column"},
    {1023, 1023, "sum in one block (2046 limbs)"},
    {1024, 1023, "sum by column sum and scan add (2047 limbs)"},
    {2045, 1, "sum in one block, b of 1 limb"},
    {2046, 1, "sum by column sum and scan add, b of 1 limb"},
    {20000, dc::kMulShortMaxLimbs, "more columns than a grid, thread per column"},
    {20000, dc::kMulShortMaxLimbs + 1, "more columns than a grid (16384), warp per column"},
    {6144, 6144, "b in 48 KiB of shared memory"},
    {6145, 6145, "b above 48 KiB of shared memory"},
    {dc::kMulSchoolbookMaxLimbs, dc::kMulSchoolbookMaxLimbs, "kMulSchoolbookMaxLimbs"},
    {dc::kMulSchoolbookMaxLimbs + 809, dc::kMulSchoolbookMaxLimbs, "kMulSchoolbookMaxLimbs, a longer"},
};

/// Longest operand of the shapes at schoolbook_max_work: a larger value
/// (an MPGPU_SCHOOLBOOK_MAX_WORK far above the table's) is beyond what
/// this test multiplies, and its shapes are left out (with a note).
constexpr std::size_t kWorkShapeMaxLimbs = std::size_t{1} << 20;

/// The products on either side of by_columns' bound na * nb <= work (the
/// context's schoolbook_max_work), both by the warp-per-column kernel's
/// sizes (the shorter operand of kMulShortMaxLimbs + 1 ..
/// kMulSchoolbookMaxLimbs limbs): b of kMulSchoolbookMaxLimbs limbs (of
/// kMulShortMaxLimbs + 1 for a small work), a of work / nb limbs (the
/// largest product by columns) and one more (the smallest by NTTs). Both
/// functions multiply both shapes: mul_columns and mul_abs take any sizes,
/// the bound only chooses between them.
std::vector<Shape> schoolbook_work_shapes(std::uint64_t work) {
  constexpr std::size_t kWarpMinLimbs = dc::kMulShortMaxLimbs + 1;
  const std::string bound = "schoolbook_max_work = " + std::to_string(work);
  std::size_t nb = dc::kMulSchoolbookMaxLimbs;
  if (work / nb < kWarpMinLimbs) nb = kWarpMinLimbs;
  const std::uint64_t na = work / nb;
  if (na < kWarpMinLimbs) {
    std::printf("[ layer  ] %s: no warp-per-column product is within it, no shapes at it\n", bound.c_str());
    return {};
  }
  if (na > kWorkShapeMaxLimbs) {
    std::printf("[ layer  ] %s: beyond this test's sizes, no shapes at it\n", bound.c_str());
    return {};
  }
  const auto a = static_cast<std::size_t>(na);
  return {{a, nb, bound + ": na * nb at the bound (by columns)"},
          {a + 1, nb, bound + ": na * nb past the bound (by NTTs)"}};
}

TEST_F(BackendLayer, MulColumns) {
  Operands gen(301);
  std::vector<Shape> shapes = kColumnShapes;
  for (Shape& sh : schoolbook_work_shapes(st().tuning.schoolbook_max_work)) shapes.push_back(std::move(sh));
  for (const StreamCase& sc : streams())
    for (const Shape& sh : shapes)
      for (std::size_t ki = 0; ki < kMulKinds.size(); ++ki) {
        if (std::uint64_t(sh.na) * sh.nb > kLargeWork && ki >= 2) break;
        if (!sanitizer_runs(sc, sh.na + sh.nb, ki, 2)) continue;  // at least 2 kinds a shape: each keeps 1
        const auto [ka, kb] = kMulKinds[ki];
        const bool odd = (ki + sh.na) % 2 == 1;
        const std::string what = "mul_columns(" + shape("a", sh.na, kind_name(ka)) + ", " +
                                 shape("b", sh.nb, kind_name(kb)) + "): " + sh.why +
                                 (odd ? ", one limb off" : "") + ", " + sc.name;
        const Limbs va = make_limbs(ka, sh.na, gen), vb = make_limbs(kb, sh.nb, gen);
        const DeviceOperand a(sc.s, va, odd), b(sc.s, vb, !odd);
        Guarded r = limb_output(sc.s, sh.na + sh.nb + 3, odd);
        dc::Deferred deferred = dc::mul_columns(st(), sc.s, r.limbs(), a.op(), b.op());
        const Words w = wait_words(deferred, sc.s);
        Mpz want;
        mpz_mul(want, to_mpz(va), to_mpz(vb));
        if (!report(all_of({output_is(r, sc.s, limbs_of(want), w.size()), operands_unchanged(sc.s, {&a, &b})}),
                    what))
          return;
      }
}

// mul_abs (src/cuda/ntt_mul.cu): transforms of N = 2^ceil(log2(na + nb))
// points; one pass up to 2^13 points (ntt/block_plan.hpp's kBlockTileLog),
// several above; short b: chunks of a (choose_chunking); a squaring when a
// and b are the same vector. The three primes run side by side up to
// 2^side_primes_max_log points (TuningParams; the tuning table's
// kMulSidePrimesMaxLog, 2^21 today: longer than this test's transforms),
// one after another above, with coefficients kept aside for N > 1.5 (na +
// nb). So that both forms run whatever the table says, every shape runs on
// a context whose side_primes_max_log is 0 (never side by side) and on one
// whose value is above every shape's N (always). Digits of 2 or 4 limbs
// start at 2^22 points (the table's kNttDigitModel; tests/integer/mul.cpp
// forces them at smaller sizes).
struct MulShape {
  std::size_t na, nb;
  bool square;
  std::string why;
};
const std::vector<MulShape> kNttShapes = {
    {1, 1, false, "1 x 1"},
    {2, 1, false, "2 x 1"},
    {1, 1, true, "square of 1 limb"},
    {33, 32, false, "65 limbs (N = 128, coefficients kept aside)"},
    {4096, 4096, false, "N = 2^13 = na + nb, one pass"},
    {4097, 4096, false, "N = 2^14 = na + nb + ~2^13, two passes, kept aside"},
    {2049, 2048, false, "na + nb = 2^12 + 1, kept aside"},
    {4096, 4096, true, "square, N = 2^13"},
    {5000, 5000, true, "square, N = 2^14"},
    {30000, 100, false, "b short: chunks of a"},
    {100, 30000, false, "a short: chunks of b"},
    {20000, 20000, false, "N = 2^16, two passes"},
};

/// side_primes_max_log of the two contexts of MulAbs: 0, and a log above
/// every transform of the test (2^40 points is the NTT's limit).
constexpr int kSidePrimesNever = 0, kSidePrimesAlways = 40;

TEST_F(BackendLayer, MulAbs) {
  Operands gen(302);
  std::vector<MulShape> shapes = kNttShapes;
  for (const Shape& sh : schoolbook_work_shapes(st().tuning.schoolbook_max_work))
    shapes.push_back({sh.na, sh.nb, false, sh.why});
  const mpgpu::TuningParams made = st().tuning;
  for (int side_log : {kSidePrimesNever, kSidePrimesAlways}) {
    mpgpu::TuningParams params = made;
    params.side_primes_max_log = side_log;
    use_tuning(params);
    const char* const primes = side_log == kSidePrimesNever ? "primes one after another" : "primes side by side";
    for (const StreamCase& sc : streams())
      for (const MulShape& sh : shapes)
        for (std::size_t ki = 0; ki < kMulKinds.size(); ++ki) {
          if (std::uint64_t(sh.na) * sh.nb > kLargeWork && ki >= 2) break;
          if (!sanitizer_runs(sc, sh.na + sh.nb + (side_log == kSidePrimesNever ? 0 : 1), ki, 2)) continue;
          const auto [ka, kb] = kMulKinds[ki];
          const bool odd = (ki + sh.na) % 2 == 0;
          const std::string what = std::string("mul_abs(") + shape("a", sh.na, kind_name(ka)) + ", " +
                                   (sh.square ? std::string("b = a") : shape("b", sh.nb, kind_name(kb))) +
                                   "): " + sh.why + (odd ? ", one limb off" : "") + ", " + primes + ", " + sc.name;
          const Limbs va = make_limbs(ka, sh.na, gen);
          const Limbs vb = sh.square ? va : make_limbs(kb, sh.nb, gen);
          const DeviceOperand a(sc.s, va, odd), b(sc.s, vb, !odd);
          const dc::Operand bop = sh.square ? a.op() : b.op();  // a squaring: the same vector
          Guarded r = limb_output(sc.s, sh.na + sh.nb + 2, odd);
          dc::Deferred deferred = dc::mul_abs(st(), sc.s, r.limbs(), a.op(), bop);
          const Words w = wait_words(deferred, sc.s);
          Mpz want;
          mpz_mul(want, to_mpz(va), to_mpz(vb));
          if (!report(all_of({output_is(r, sc.s, limbs_of(want), w.size()), operands_unchanged(sc.s, {&a, &b})}),
                      what))
            return;
        }
  }
}

// include/mpgpu/device/div_limb.cuh: DivLimbPolicy, tiles of 4096 limbs
// scanned from the top, each tile's remainder looked back over 32 tiles a
// window (33 tiles and a remainder cross one); even divisors divide by their
// odd part.
constexpr std::size_t kDivTile = 4096;
const std::vector<std::size_t> kDivSizes = {1,        2,           kDivTile - 1,         kDivTile,
                                            kDivTile + 1, 3 * kDivTile + 5, 33 * kDivTile + 7};

/// Where the quotient and remainder go, and which size is published.
struct DivMode {
  bool q, r, publish_remainder_size;
};
const std::vector<DivMode> kDivModes = {{true, true, false},  {true, true, true},   {true, false, false},
                                        {false, true, true},  {false, false, true}, {false, true, false},
                                        {false, false, false}};

TEST_F(BackendLayer, DivremLimb) {
  Operands gen(303);
  std::size_t case_index = 0;
  for (const StreamCase& sc : streams())
    for (std::size_t n : kDivSizes)
      for (Kind k : {Kind::random, Kind::all_ones, Kind::high_bit, Kind::zero_middle}) {
        const Limbs v = make_limbs(k, n, gen);
        const limb_t top = v[n - 1];
        std::vector<limb_t> divisors = {1,
                                        2,
                                        3,
                                        7,
                                        gen.limb() | 1,                               // odd
                                        (gen.limb() | 1) << gen.below(40),            // even: an odd part shifted
                                        limb_t{1} << 63,
                                        ~limb_t{0},
                                        0x8000000000000001ull,
                                        limb_t{1} << 40,
                                        top,                                          // q has n limbs
                                        top == ~limb_t{0} ? ~limb_t{0} : top + 1};    // q has n - 1 limbs
        for (limb_t d : divisors) {
          // Every mode at every size, in turn over the kinds and divisors.
          // Sanitizer-sized: one case in three (48 a size: 16 kept, every
          // mode among them, 3 and 7 being coprime).
          if (!sanitizer_runs(sc, 0, case_index, 3)) {
            ++case_index;
            continue;
          }
          const DivMode mode = kDivModes[case_index++ % kDivModes.size()];
          const bool odd = case_index % 2 == 1;
          const std::string what =
              "divrem_limb(q = " + std::string(mode.q ? "q" : "nullptr") + ", r = " + (mode.r ? "r" : "nullptr") +
              ", " + shape("a", n, kind_name(k)) + ", d = " + std::to_string(d) +
              ", publish_remainder_size = " + (mode.publish_remainder_size ? "true" : "false") + ")" +
              (odd ? ", one limb off" : "") + ", " + sc.name;
          const DeviceOperand a(sc.s, v, odd);
          Guarded q = limb_output(sc.s, n, odd);   // room for a.size limbs
          Guarded r = limb_output(sc.s, 1, !odd);  // r[0]
          dc::Deferred deferred = dc::divrem_limb(st(), sc.s, mode.q ? q.limbs() : nullptr,
                                                mode.r ? r.limbs() : nullptr, a.op(), d, mode.publish_remainder_size);
          const Words w = wait_words(deferred, sc.s);
          Mpz want_q;
          const limb_t want_r = mpz_tdiv_q_ui(want_q, to_mpz(v), d);
          // kSlotFound: the remainder; kSlotSize: the quotient's size (when
          // q is stored: with q == nullptr the kernel publishes none) or,
          // with publish_remainder_size, the remainder's.
          ::testing::AssertionResult ok = ::testing::AssertionSuccess();
          if (w.w[mpgpu::device::kSlotFound] != want_r)
            ok = ::testing::AssertionFailure() << "kSlotFound " << w.w[mpgpu::device::kSlotFound]
                                               << ", expected the remainder " << want_r;
          else if (mode.publish_remainder_size && w.size() != (want_r ? 1u : 0u))
            ok = ::testing::AssertionFailure() << "size " << w.size() << ", expected the remainder's, "
                                               << (want_r ? 1 : 0);
          ::testing::AssertionResult q_ok = ::testing::AssertionSuccess();
          if (mode.q) {
            q_ok = output_is(q, sc.s, limbs_of(want_q),
                             mode.publish_remainder_size ? limbs_of(want_q).size() : w.size());
          } else {
            q.read(sc.s);
            q_ok = all_of({q.guards_intact(), q.output_untouched()});
          }
          r.read(sc.s);
          ::testing::AssertionResult r_ok = r.guards_intact();
          if (r_ok && mode.r && r.limbs_read(1)[0] != want_r)
            r_ok = ::testing::AssertionFailure() << "r[0] = " << r.limbs_read(1)[0] << ", expected " << want_r;
          if (r_ok && !mode.r) r_ok = r.output_untouched();
          if (!report(all_of({ok, q_ok, r_ok, operands_unchanged(sc.s, {&a})}), what)) return;
        }
      }
}

// src/cuda/reduce.cu: a result of width + 1 <= 2048 limbs (SmallSumPolicy)
// is summed in one block, with up to 16 terms passed inline
// (ColumnTerms::kInline); more terms are copied to the device, longer sums
// go through the column sum and a scan add.
const std::vector<std::size_t> kSumWidths = {1, 2, 2046, 2047, 2048, 5000};
const std::vector<std::size_t> kSumCounts = {1, 2, 16, 17, 40};

TEST_F(BackendLayer, SumAbs) {
  Operands gen(304);
  // Sanitizer-sized: one shape kind a width, in rotation over the widths;
  // every width and count.
  std::size_t index = 0;
  for (const StreamCase& sc : streams()) {
    for (std::size_t width : kSumWidths)
      for (std::size_t count : kSumCounts)
        for (int shape_kind = 0; shape_kind < 3; ++shape_kind) {
          if (!sanitizer_runs(sc, width, index++, 3)) continue;
          // 0: all-ones terms of the full width (carries at their largest);
          // 1: random terms of random sizes, one of the full width, some
          // zero (size 0); 2: runs, the widest last.
          std::vector<Limbs> terms(count);
          for (std::size_t j = 0; j < count; ++j) {
            if (shape_kind == 0) terms[j] = make_limbs(Kind::all_ones, width, gen);
            else if (shape_kind == 1) {
              const std::size_t size = j == count / 2 ? width : (gen.below(4) == 0 ? 0 : 1 + gen.below(width));
              terms[j] = make_limbs(Kind::random, size, gen);
            } else {
              terms[j] = make_limbs(Kind::runs, j + 1 == count ? width : 1 + gen.below(width), gen);
            }
          }
          static const char* const names[] = {"all-ones terms", "random terms, some zero", "runs, widest last"};
          const bool odd = (count + width) % 2 == 1;
          const std::string what = "sum_abs(" + std::to_string(count) + " terms of up to " + std::to_string(width) +
                                   " limbs): " + names[shape_kind] + (odd ? ", one limb off" : "") + ", " + sc.name;
          std::vector<std::unique_ptr<DeviceOperand>> ops;
          std::vector<dc::Operand> operands;
          Mpz want;
          for (std::size_t j = 0; j < count; ++j) {
            ops.push_back(std::make_unique<DeviceOperand>(sc.s, terms[j], (j + (odd ? 1 : 0)) % 2 == 1));
            operands.push_back(ops.back()->op());
            mpz_add(want, want, to_mpz(terms[j]));
          }
          Guarded r = limb_output(sc.s, width + 2, odd);
          dc::Deferred deferred = dc::sum_abs(st(), sc.s, r.limbs(), operands.data(), count);
          const Words w = wait_words(deferred, sc.s);
          ::testing::AssertionResult unchanged = ::testing::AssertionSuccess();
          for (const auto& op : ops)
            if (unchanged) unchanged = op->unchanged(sc.s);
          if (!report(all_of({output_is(r, sc.s, limbs_of(want), w.size()), unchanged}), what)) return;
        }
    // Every term zero (none, one or several of size 0): nullptr, r untouched.
    for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{17}}) {
      const std::vector<Limbs> zeros(count);
      std::vector<std::unique_ptr<DeviceOperand>> ops;
      std::vector<dc::Operand> operands;
      for (const Limbs& z : zeros) {
        ops.push_back(std::make_unique<DeviceOperand>(sc.s, z, false));
        operands.push_back(ops.back()->op());
      }
      Guarded r = limb_output(sc.s, 2, false);  // room for max size (0) + 2
      dc::Deferred deferred = dc::sum_abs(st(), sc.s, r.limbs(), operands.data(), count);
      ::testing::AssertionResult ok = ::testing::AssertionSuccess();
      if (deferred) ok = ::testing::AssertionFailure() << "returned deferred words, expected nullptr";
      r.read(sc.s);
      const std::string what = "sum_abs(" + std::to_string(count) + " zero terms), " + std::string(sc.name);
      if (!report(all_of({ok, r.guards_intact(), r.output_untouched()}), what)) return;
    }
  }
}

}  // namespace
}  // namespace backend_layer
