// The public NTT (src/cuda/ntt_public.cu, ntt_public32.cu) and the products
// mod a word-size prime (src/cuda/ntt_poly.cu), called directly against
// transforms and products computed on the host (include/mpgpu/ntt.hpp's
// conventions written out); see backend_layer.hpp for the guards. Words
// are 64 or 32 bits here, not limbs: "one word off" is 8 or 4 bytes past a
// 16-byte boundary.
#include <memory>

#include "integer/backend_layer.hpp"
#include "integer/backend_layer_words.hpp"
#include "mpgpu/field/primes.hpp"

namespace backend_layer {
namespace {

using u64 = std::uint64_t;
using u128 = unsigned __int128;

/// a b mod p for a, b < p (a 64-bit product below 2^32: the long transforms
/// of the 32-bit primes stay quick).
u64 mulmod(u64 a, u64 b, u64 p) {
  return p < (u64{1} << 32) ? a * b % p : static_cast<u64>(static_cast<u128>(a) * b % p);
}
u64 addmod(u64 a, u64 b, u64 p) { return static_cast<u64>((static_cast<u128>(a) + b) % p); }
u64 powmod(u64 a, u64 e, u64 p) {
  u64 r = 1 % p;
  for (a %= p; e; e >>= 1, a = mulmod(a, a, p))
    if (e & 1) r = mulmod(r, a, p);
  return r;
}
std::size_t bit_reverse(std::size_t i, int log_n) {
  std::size_t r = 0;
  for (int b = 0; b < log_n; ++b) r |= ((i >> b) & 1) << (log_n - 1 - b);
  return r;
}

/// ntt.hpp's transform of one vector of 2^log_n residues, on the host:
/// forward X[k] = sum_j x[j] w^(j k), inverse x[j] = n^-1 sum_k X[k]
/// w^(-j k), w = g^((p-1)/n); natural order in and out (an iterative
/// radix-2 transform; checked against the sums themselves below).
std::vector<u64> host_ntt(std::vector<u64> x, int log_n, u64 p, u64 g, bool forward) {
  const std::size_t n = x.size();
  if (n <= 1) return x;
  u64 w = powmod(g, (p - 1) >> log_n, p);
  if (!forward) w = powmod(w, p - 2, p);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = bit_reverse(i, log_n);
    if (i < j) std::swap(x[i], x[j]);
  }
  for (std::size_t len = 2; len <= n; len <<= 1) {
    const u64 wl = powmod(w, n / len, p);
    for (std::size_t i = 0; i < n; i += len) {
      u64 wj = 1;
      for (std::size_t j = 0; j < len / 2; ++j) {
        const u64 u = x[i + j], v = mulmod(x[i + j + len / 2], wj, p);
        x[i + j] = addmod(u, v, p);
        x[i + j + len / 2] = addmod(u, p - v, p);
        wj = mulmod(wj, wl, p);
      }
    }
  }
  if (!forward) {
    const u64 inv_n = powmod(n % p, p - 2, p);
    for (u64& v : x) v = mulmod(v, inv_n, p);
  }
  return x;
}
std::vector<u64> naive_ntt(const std::vector<u64>& x, int log_n, u64 p, u64 g, bool forward) {
  const std::size_t n = x.size();
  u64 w = powmod(g, (p - 1) >> log_n, p);
  if (!forward) w = powmod(w, p - 2, p);
  std::vector<u64> out(n, 0);
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t j = 0; j < n; ++j) out[k] = addmod(out[k], mulmod(x[j], powmod(w, j * k % n, p), p), p);
  if (!forward) {
    const u64 inv_n = powmod(n % p, p - 2, p);
    for (u64& v : out) v = mulmod(v, inv_n, p);
  }
  return out;
}

/// The device call's expected result for one vector: `bit_reversed` puts
/// the forward output (and takes the inverse input) in bit-reversed order.
std::vector<u64> expected_transform(const std::vector<u64>& x, int log_n, u64 p, u64 g, bool forward,
                                    bool bit_reversed) {
  const std::size_t n = x.size();
  if (forward) {
    const std::vector<u64> X = host_ntt(x, log_n, p, g, true);
    if (!bit_reversed) return X;
    std::vector<u64> out(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = X[bit_reverse(i, log_n)];
    return out;
  }
  std::vector<u64> X(n);
  for (std::size_t i = 0; i < n; ++i) X[i] = bit_reversed ? x[bit_reverse(i, log_n)] : x[i];
  return host_ntt(X, log_n, p, g, false);
}

/// Residues < p: random, or every one p - 1 (the largest).
std::vector<u64> residues(std::size_t n, u64 p, bool largest, Operands& gen) {
  std::vector<u64> v(n, p - 1);
  if (!largest)
    for (u64& x : v) x = static_cast<u64>((static_cast<u128>(gen.limb()) << 64 | gen.limb()) % p);
  return v;
}

TEST(BackendLayerHost, ReferenceTransformIsTheSums) {
  // The host transform against ntt.hpp's sums, so that a failure below is
  // the device's (both directions, a 64-bit and a 32-bit prime).
  Operands gen(600);
  for (const auto& q : {mpgpu::field::ntt_primes62[0], mpgpu::field::goldilocks, mpgpu::field::ntt_primes31[0]})
    for (int log_n = 0; log_n <= 6; ++log_n)
      for (bool forward : {true, false}) {
        const std::vector<u64> x = residues(std::size_t{1} << log_n, q.p, false, gen);
        EXPECT_EQ(host_ntt(x, log_n, q.p, q.generator, forward), naive_ntt(x, log_n, q.p, q.generator, forward))
            << "p = " << q.p << ", log_n = " << log_n << (forward ? ", forward" : ", inverse");
      }
}

// ---- ntt_transform, ntt_transform32 ---------------------------------------------------

// 64-bit: one block pass up to 2^13 points (ntt/block_plan.hpp's
// kBlockTileLog), two up to 2^24 in natural order (through scratch) and
// 2^25 bit-reversed (the three-pass sizes are beyond the host reference's
// time here); log_n 0 is the identity (nothing written).
// 32-bit: one team pass up to 2^10 points (kTeamNtt32MaxLog), then column
// passes of up to 6 stages (kColumnNtt32MaxLog) and a team pass, plus a
// bit reversal for natural order.
struct TransformPrime {
  u64 p, generator;
  int max_log;  // 2^max_log | p - 1
};

class BackendLayerNtt : public BackendLayer {
 protected:
  /// Every (prime, log_n, batch, direction, order) on both streams: the
  /// data in place between guards of exactly batch 2^log_n words.
  template <class W>
  void transforms(const std::vector<TransformPrime>& primes, const std::vector<int>& logs, unsigned long salt) {
    Operands gen(salt);
    std::size_t index = 0;
    for (const StreamCase& sc : streams())
      for (const TransformPrime& q : primes)
        for (int log_n : logs) {
          if (log_n > q.max_log) continue;
          for (std::size_t batch : {std::size_t{1}, std::size_t{3}})
            for (int dir = 0; dir < 4; ++dir) {
              if (batch > 1 && log_n > 14) break;  // long transforms: one a call (the host's reference is slow)
              ++index;
              if (!sanitizer_runs(sc, static_cast<std::size_t>(log_n), index, 2)) continue;
              const bool forward = dir < 2, bit_reversed = dir % 2 == 1;
              const bool odd = index % 2 == 1, largest = index % 5 == 0;
              const std::size_t n = std::size_t{1} << log_n;
              const std::string what = std::string(sizeof(W) == 8 ? "ntt_transform" : "ntt_transform32") +
                                       "(p = " + std::to_string(q.p) + ", log_n = " + std::to_string(log_n) +
                                       ", batch " + std::to_string(batch) + (forward ? ", forward" : ", inverse") +
                                       (bit_reversed ? ", bit-reversed" : ", natural") +
                                       (largest ? ", every word p - 1" : "") + (odd ? ", one word off" : "") + "), " +
                                       sc.name;
              const std::vector<u64> x = residues(batch * n, q.p, largest, gen);
              std::vector<W> words(x.begin(), x.end());
              std::unique_ptr<Guarded> data = word_output<W>(sc.s, batch * n, odd);
              upload(sc.s, data->get(), words.data(), words.size() * sizeof(W));
              W* d = static_cast<W*>(data->get());
              if constexpr (sizeof(W) == 8)
                dc::ntt_transform(st(), sc.s, d, batch, log_n, q.p, q.generator, forward, bit_reversed);
              else
                dc::ntt_transform32(st(), sc.s, d, batch, log_n, static_cast<std::uint32_t>(q.p), q.generator,
                                    forward, bit_reversed);
              std::vector<u64> want;
              for (std::size_t b = 0; b < batch; ++b) {
                const std::vector<u64> one(x.begin() + static_cast<std::ptrdiff_t>(b * n),
                                           x.begin() + static_cast<std::ptrdiff_t>((b + 1) * n));
                const std::vector<u64> t = expected_transform(one, log_n, q.p, q.generator, forward, bit_reversed);
                want.insert(want.end(), t.begin(), t.end());
              }
              data->read(sc.s);
              if (!report(all_of({data->guards_intact(), same_words<W>(*data, want)}), what)) return;
            }
        }
  }
};

TEST_F(BackendLayerNtt, Transform64) {
  using mpgpu::field::goldilocks;
  using mpgpu::field::ntt_primes62;
  const std::vector<TransformPrime> primes = {{ntt_primes62[0].p, ntt_primes62[0].generator, ntt_primes62[0].n},
                                              {goldilocks.p, goldilocks.generator, goldilocks.n},
                                              {ntt_primes62[3].p, ntt_primes62[3].generator, ntt_primes62[3].n}};
  transforms<std::uint64_t>(primes,
                            mpgpu_test::sized<std::vector<int>>({0, 1, 2, 3, 7, 12, 13, 14, 16},
                                                                {0, 1, 2, 13, 14}),
                            601);
}

TEST_F(BackendLayerNtt, Transform32) {
  using mpgpu::field::ntt_primes31;
  using mpgpu::field::ntt_primes32;
  const std::vector<TransformPrime> primes = {{ntt_primes31[0].p, ntt_primes31[0].generator, ntt_primes31[0].n},
                                              {ntt_primes32[0].p, ntt_primes32[0].generator, ntt_primes32[0].n},
                                              {ntt_primes31[3].p, ntt_primes31[3].generator, ntt_primes31[3].n}};
  transforms<std::uint32_t>(primes,
                            mpgpu_test::sized<std::vector<int>>({0, 1, 2, 5, 10, 11, 16, 17, 22, 23},
                                                                {0, 1, 10, 11, 16, 17}),
                            602);
}

// ---- ntt_pointwise ----------------------------------------------------------------------

// A thread a word, 256 a block, at most 65536 blocks (grid_stride.hpp):
// counts around a block and past one grid's 2^24 words (full runs).
TEST_F(BackendLayer, NttPointwise) {
  Operands gen(603);
  const std::vector<u64> primes = {mpgpu::field::ntt_primes62[0].p, mpgpu::field::goldilocks.p,
                                   mpgpu::field::ntt_primes31[0].p};
  const std::vector<std::size_t> counts = mpgpu_test::sized<std::vector<std::size_t>>(
      {1, 2, 255, 256, 257, 100000, (std::size_t{1} << 24) + 5}, {1, 255, 256, 257, 3000});
  std::size_t index = 0;
  for (const StreamCase& sc : streams())
    for (u64 p : primes)
      for (std::size_t count : counts)
        for (int where = 0; where < 3; ++where) {  // out apart, out = a, out = b
          ++index;
          if (count > (std::size_t{1} << 20) && where != 0) continue;  // the largest count once a prime
          const bool odd = index % 2 == 1, largest = index % 4 == 0;
          const std::vector<u64> a = residues(count, p, largest, gen), b = residues(count, p, false, gen);
          std::vector<u64> want(count);
          for (std::size_t i = 0; i < count; ++i) want[i] = mulmod(a[i], b[i], p);
          const std::string what = "ntt_pointwise(p = " + std::to_string(p) + ", count " + std::to_string(count) +
                                   ", " + kOutputPlaces[where] + (largest ? ", a all p - 1" : "") +
                                   (odd ? ", one word off" : "") + "), " + sc.name;
          // The input that out equals lives in the guarded output itself.
          const auto call = [&](u64* po, const u64* pa, const u64* pb) {
            dc::ntt_pointwise(st(), sc.s, po, pa, pb, count, p);
          };
          if (!report(guarded_pointwise<u64>(sc.s, where, odd, a, b, want, call), what)) return;
        }
  // No words: nothing written.
  for (const StreamCase& sc : streams()) {
    std::unique_ptr<Guarded> out = word_output<u64>(sc.s, 0, false);
    const DeviceWords<u64> da(sc.s, {}, false);
    dc::ntt_pointwise(st(), sc.s, static_cast<u64*>(out->get()), da.data(), da.data(), 0, primes[0]);
    out->read(sc.s);
    if (!report(out->guards_intact(), std::string("ntt_pointwise(count 0), ") + sc.name)) return;
  }
}

// ---- poly_mul_schoolbook, poly_mul_ntt ---------------------------------------------------

/// c = a * b mod p for each of `batch` pairs, on the host.
std::vector<u64> host_poly_mul(const std::vector<u64>& a, std::size_t la, const std::vector<u64>& b, std::size_t lb,
                               std::size_t batch, u64 p) {
  const std::size_t lc = la + lb - 1;
  std::vector<u64> c(batch * lc, 0);
  for (std::size_t k = 0; k < batch; ++k)
    for (std::size_t i = 0; i < la; ++i)
      for (std::size_t j = 0; j < lb; ++j)
        c[k * lc + i + j] = addmod(c[k * lc + i + j], mulmod(a[k * la + i], b[k * lb + j], p), p);
  return c;
}

struct PolyShape {
  std::size_t la, lb, batch;
  std::string why;
};
// Schoolbook: a thread per output coefficient (256 a block). NTT: the
// smallest transform that holds la + lb - 1 coefficients and one twice as
// long; a power of two exactly; a squaring (a and b one vector).
const std::vector<PolyShape> kPolyShapes = {
    {1, 1, 1, "1 x 1"},
    {1, 5, 2, "a constant"},
    {7, 1, 3, "b constant"},
    {32, 33, 4, "64 coefficients"},
    {129, 128, 1, "256 coefficients (a block)"},
    {129, 129, 2, "257 coefficients"},
    {500, 300, 2, "unbalanced"},
    {2000, 1500, 1, "3499 coefficients"},
};

enum class Overlap { none, c_is_a, c_is_b, square };
const char* overlap_name(Overlap o) {
  switch (o) {
    case Overlap::none: return "c apart";
    case Overlap::c_is_a: return "c over a";
    case Overlap::c_is_b: return "c over b";
    default: return "a squaring (b = a)";
  }
}

class BackendLayerPoly : public BackendLayer {
 protected:
  /// The product in every overlap on both streams; by NTTs of 2^log_n and
  /// 2^(log_n + 1) points when by_ntt (log_n the smallest that holds the
  /// product), else schoolbook.
  void products(bool by_ntt, unsigned long salt) {
    Operands gen(salt);
    const mpgpu::field::NttPrime primes[] = {mpgpu::field::ntt_primes62[0], mpgpu::field::goldilocks,
                                             mpgpu::field::ntt_primes31[3]};
    std::size_t index = 0;
    for (const StreamCase& sc : streams())
      for (const auto& q : primes)
        for (const PolyShape& sh : kPolyShapes)
          for (Overlap ov : {Overlap::none, Overlap::c_is_a, Overlap::c_is_b, Overlap::square})
            for (int extra = 0; extra < (by_ntt ? 2 : 1); ++extra) {
              ++index;
              if (!sanitizer_runs(sc, sh.la + sh.lb, index, 3)) continue;
              const std::size_t lb = ov == Overlap::square ? sh.la : sh.lb, lc = sh.la + lb - 1;
              int log_n = 0;
              while ((std::size_t{1} << log_n) < lc) ++log_n;
              log_n += extra;
              if (log_n > q.n) continue;
              const bool odd = index % 2 == 1, largest = index % 5 == 0;
              const std::vector<u64> a = residues(sh.batch * sh.la, q.p, largest, gen);
              const std::vector<u64> b = ov == Overlap::square ? a : residues(sh.batch * lb, q.p, false, gen);
              const std::vector<u64> want = host_poly_mul(a, sh.la, b, lb, sh.batch, q.p);
              const std::string what =
                  std::string(by_ntt ? "poly_mul_ntt" : "poly_mul_schoolbook") + "(p = " + std::to_string(q.p) +
                  ", len_a " + std::to_string(sh.la) + ", len_b " + std::to_string(lb) + ", batch " +
                  std::to_string(sh.batch) + (by_ntt ? ", log_n " + std::to_string(log_n) : std::string()) + ", " +
                  overlap_name(ov) + (largest ? ", a all p - 1" : "") + (odd ? ", one word off" : "") + "): " +
                  sh.why + ", " + sc.name;
              // c's room: batch (len_a + len_b - 1) words, exactly. When c
              // lies over a (or b), that input is the first words of c's room.
              std::unique_ptr<Guarded> c = word_output<u64>(sc.s, sh.batch * lc, odd);
              const DeviceWords<u64> da(sc.s, a, !odd), db(sc.s, b, odd);
              u64* pc = static_cast<u64*>(c->get());
              const u64* pa = da.data();
              const u64* pb = ov == Overlap::square ? da.data() : db.data();
              if (ov == Overlap::c_is_a) {
                upload(sc.s, pc, a.data(), a.size() * sizeof(u64));
                pa = pc;
              } else if (ov == Overlap::c_is_b) {
                upload(sc.s, pc, b.data(), b.size() * sizeof(u64));
                pb = pc;
              }
              if (by_ntt)
                dc::poly_mul_ntt(st(), sc.s, pc, pa, sh.la, pb, lb, sh.batch, log_n, q.p, q.generator);
              else
                dc::poly_mul_schoolbook(st(), sc.s, pc, pa, sh.la, pb, lb, sh.batch, q.p);
              c->read(sc.s);
              if (!report(all_of({c->guards_intact(), same_words<u64>(*c, want), da.unchanged(sc.s),
                                  db.unchanged(sc.s)}),
                          what))
                return;
            }
  }
};

TEST_F(BackendLayerPoly, Schoolbook) { products(false, 604); }
TEST_F(BackendLayerPoly, ByNtt) { products(true, 605); }

}  // namespace
}  // namespace backend_layer
