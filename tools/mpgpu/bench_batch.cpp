#include "bench_batch.hpp"

#include <gmp.h>

#include <algorithm>
#include <bit>
#include <functional>
#include <stdexcept>
#include <thread>

namespace mpgpu::cli {

namespace {

/// How a batch operation is sized: count = budget / limbs^cost_power,
/// rounded down to a power of two, in [1, cap] (before --quick and the CPU
/// context divide both). Budgets: add moves 2^24 limbs (128 MiB) per
/// operand; mul does ~2^28 limb products (2^20 instances at 1024 bits);
/// powm 2^20 / limbs^2 gives 2^12 instances at 1024 bits and 2^10 at 2048,
/// where GMP takes ~0.4 ms and ~3 ms per instance on one core.
struct BatchSpec {
  std::string_view name;
  double budget;
  std::uint64_t cap;
  int cost_power;
  std::vector<std::uint64_t> widths;  ///< the default widths
  std::uint64_t max_bits;
};

const std::vector<BatchSpec>& specs() {
  static const std::vector<BatchSpec> s = {
      {"batch_add", 0x1p24, 1u << 20, 1, {256, 1024, 4096}, Batch::max_bits},
      {"batch_mul", 0x1p28, 1u << 20, 2, {256, 1024, 4096}, Batch::max_bits},
      {"batch_mul_wide", 0x1p28, 1u << 20, 2, {256, 1024, 4096}, Batch::max_bits / 2},
      {"batch_powm", 0x1p20, 1u << 14, 2, {256, 1024, 2048}, Batch::max_bits},
      {"batch_powm_sliding", 0x1p20, 1u << 14, 2, {256, 1024, 2048}, Batch::max_bits},
  };
  return s;
}

const BatchSpec& spec_of(std::string_view name) {
  for (const BatchSpec& s : specs())
    if (s.name == name) return s;
  throw std::logic_error("mpgpu bench: unknown batch operation " + std::string(name));
}

constexpr std::uint64_t kQuickDivisor = 16, kCpuDivisor = 4;

std::size_t limbs_of(std::uint64_t bits) { return static_cast<std::size_t>((bits + 63) / 64); }

/// The bits of a top limb that lie below `bits` (all ones for whole limbs).
limb_t top_mask(std::uint64_t bits) { return bits % 64 ? (limb_t{1} << (bits % 64)) - 1 : ~limb_t{0}; }

mp_size_t mp(std::size_t n) { return static_cast<mp_size_t>(n); }

/// SplitMix64: a fast, well-mixed host generator; operands only need to be
/// reproducible, not cryptographic.
limb_t splitmix(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// A batch result compared limb by limb with GMP's, every instance.
class LimbCase : public OpCase {
 public:
  using MpgpuFn = std::function<void(Batch&)>;
  using GmpFn = std::function<void(limb_t*)>;
  LimbCase(std::size_t result_limbs, MpgpuFn mp, GmpFn gmp)
      : want_(result_limbs), mp_(std::move(mp)), gmp_(std::move(gmp)) {}
  void run_mpgpu() override { mp_(r_); }
  void run_gmp() override { gmp_(want_.data()); }
  bool verify() override { return r_.to_limbs() == want_; }

 private:
  Batch r_;
  std::vector<limb_t> want_;
  MpgpuFn mp_;
  GmpFn gmp_;
};

/// powm: mpz_powm on read-only views of the host limbs (mpz_roinit_n, made
/// once), into results allocated once, so the GMP loop only computes.
class PowmCase : public OpCase {
 public:
  PowmCase(BatchWorkload& w, PowmWindow window)
      : w_(w), window_(window), base_(w.count()), exp_(w.count()), mod_(w.count()), res_(w.count()) {
    w.M();  // made now, not in the timed calls
    const std::size_t n = w.limbs();
    for (std::size_t i = 0; i < w.count(); ++i) {
      mpz_roinit_n(&base_[i], w.a().data() + i * n, mp(n));
      mpz_roinit_n(&exp_[i], w.b().data() + i * n, mp(n));
      mpz_roinit_n(&mod_[i], w.m().data() + i * n, mp(n));
      mpz_realloc2(res_[i].get(), 64 * n);
    }
  }
  void run_mpgpu() override { powm(r_, w_.A(), w_.B(), w_.M(), window_); }
  void run_gmp() override {
    for (std::size_t i = 0; i < res_.size(); ++i) mpz_powm(res_[i].get(), &base_[i], &exp_[i], &mod_[i]);
  }
  bool verify() override {
    const std::vector<limb_t> got = r_.to_limbs();
    const std::size_t n = w_.limbs();
    if (got.size() != res_.size() * n) return false;
    for (std::size_t i = 0; i < res_.size(); ++i) {
      const limb_t* g = got.data() + i * n;
      const std::size_t k = mpz_size(res_[i].get());
      const limb_t* z = mpz_limbs_read(res_[i].get());
      if (k > n || !std::equal(z, z + k, g) || std::any_of(g + k, g + n, [](limb_t x) { return x != 0; }))
        return false;
    }
    return true;
  }

 private:
  BatchWorkload& w_;
  PowmWindow window_;
  std::vector<__mpz_struct> base_, exp_, mod_;
  std::vector<Mpz> res_;
  Batch r_;
};

}  // namespace

const std::vector<OpInfo>& batch_ops() {
  static const std::vector<OpInfo> ops = {
      {"batch_add", 3.0 / 8, "batch a + b mod 2^bits (GMP: mpn_add_n)", 0, true},
      {"batch_mul", 0, "batch a * b mod 2^bits, the low half (GMP: mpn_mul_n, truncated)", 0, true},
      {"batch_mul_wide", 0, "batch a * b, the whole product (GMP: mpn_mul_n)", 0, true},
      {"batch_powm", 0, "batch a^b mod m, b of m's width, m odd, fixed 4-bit windows (GMP: mpz_powm)", 0, true},
      {"batch_powm_sliding", 0, "batch_powm by sliding windows (PowmWindow::sliding)", 0, true},
  };
  return ops;
}

std::uint64_t batch_count(std::string_view op, std::uint64_t bits, bool quick, bool cpu_context) {
  const BatchSpec& s = spec_of(op);
  const std::uint64_t divisor = (quick ? kQuickDivisor : 1) * (cpu_context ? kCpuDivisor : 1);
  const double n = static_cast<double>(limbs_of(bits));
  const double fit = s.budget / static_cast<double>(divisor) / (s.cost_power == 1 ? n : n * n);
  const std::uint64_t cap = std::max<std::uint64_t>(1, s.cap / divisor);
  if (fit < 1) return 1;
  return std::min(cap, std::bit_floor(static_cast<std::uint64_t>(std::min(fit, 0x1p62))));
}

std::vector<BatchShape> plan_batch_rows(const std::vector<const OpInfo*>& ops, const BenchOptions& opt,
                                        bool cpu_context) {
  std::vector<BatchShape> rows;
  if (opt.ops.empty() && !opt.bits.empty()) return rows;
  for (const OpInfo* op : ops) {
    if (!op->batch) continue;
    const BatchSpec& s = spec_of(op->name);
    for (std::uint64_t bits : opt.bits.empty() ? s.widths : opt.bits)
      if (bits >= 1 && bits <= s.max_bits && bits <= opt.max_bits)
        rows.push_back({op, bits, batch_count(op->name, bits, opt.quick, cpu_context)});
  }
  std::stable_sort(rows.begin(), rows.end(), [](const BatchShape& x, const BatchShape& y) { return x.bits < y.bits; });
  return rows;
}

std::vector<std::string> batch_notes(bool cpu_context) {
  std::vector<std::string> notes = {
      "batch_*: one call over an mpgpu::Batch of N numbers of one width (size: width x N); GMP: the "
      "same operation instance by instance on ONE host thread (mpn_add_n; mpn_mul_n, truncated for "
      "batch_mul; mpz_powm, exponent as wide as the modulus); every instance verified; batch_add "
      "GB/s: 3 x bits/8 bytes x N / mpgpu time."};
  if (cpu_context) {
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    notes.push_back("CPU context: the batch rows' mpgpu column is the batch CPU backend (up to " +
                    std::to_string(threads) + " threads), on 1/" + std::to_string(kCpuDivisor) +
                    " of the instances a CUDA context runs.");
  }
  return notes;
}

// ---- operands -------------------------------------------------------------------

BatchWorkload::BatchWorkload(const Context& ctx, std::uint64_t bits, std::uint64_t count, unsigned long seed)
    : ctx_(ctx), bits_(bits), count_(count), limbs_(limbs_of(bits)), seed_(seed) {
  a_ = random_limbs(1, false);
  b_ = random_limbs(2, false);
  A_ = Batch::from_limbs(a_.data(), count_, limbs_, bits_, ctx_);
  B_ = Batch::from_limbs(b_.data(), count_, limbs_, bits_, ctx_);
}

std::vector<limb_t> BatchWorkload::random_limbs(std::uint64_t stream, bool odd) const {
  // Seeded per shape and operand, so a row's operands do not depend on which rows ran before.
  std::uint64_t state = seed_ ^ (bits_ * 0x9E3779B97F4A7C15ull) ^ (count_ << 32) ^ (stream << 56);
  std::vector<limb_t> v(count_ * limbs_);
  for (limb_t& x : v) x = splitmix(state);
  const limb_t top = top_mask(bits_);
  const limb_t high_bit = limb_t{1} << ((bits_ - 1) % 64);
  for (std::size_t i = 0; i < count_; ++i) {
    limb_t* x = v.data() + i * limbs_;
    x[limbs_ - 1] = (x[limbs_ - 1] & top) | high_bit;  // exactly `bits` bits
    if (odd) x[0] |= 1;
  }
  return v;
}

const std::vector<limb_t>& BatchWorkload::m() {
  if (m_.empty()) m_ = random_limbs(3, true);
  return m_;
}

const Batch& BatchWorkload::M() {
  if (M_.empty()) M_ = Batch::from_limbs(m().data(), count_, limbs_, bits_, ctx_);
  return M_;
}

// ---- cases ------------------------------------------------------------------------

std::unique_ptr<OpCase> make_batch_case(std::string_view name, BatchWorkload& w) {
  const Batch& A = w.A();
  const Batch& B = w.B();
  const limb_t* a = w.a().data();
  const limb_t* b = w.b().data();
  const std::size_t n = w.limbs(), count = w.count();
  const limb_t top = top_mask(w.bits());
  if (name == "batch_add")
    return std::make_unique<LimbCase>(
        count * n, [&A, &B](Batch& r) { add(r, A, B); },
        [a, b, n, count, top](limb_t* r) {
          for (std::size_t i = 0; i < count; ++i, r += n) {
            mpn_add_n(r, a + i * n, b + i * n, mp(n));
            r[n - 1] &= top;
          }
        });
  if (name == "batch_mul")
    return std::make_unique<LimbCase>(
        count * n, [&A, &B](Batch& r) { mul(r, A, B); },
        [a, b, n, count, top, t = std::vector<limb_t>(2 * n)](limb_t* r) mutable {
          for (std::size_t i = 0; i < count; ++i, r += n) {
            mpn_mul_n(t.data(), a + i * n, b + i * n, mp(n));
            std::copy_n(t.data(), n, r);
            r[n - 1] &= top;
          }
        });
  if (name == "batch_mul_wide") {
    // The product has ceil(2 bits / 64) limbs: 2n, or 2n - 1 when the top
    // limb is at most half used (then GMP's last limb is zero).
    const std::size_t rn = limbs_of(2 * w.bits());
    return std::make_unique<LimbCase>(
        count * rn, [&A, &B](Batch& r) { mul_wide(r, A, B); },
        [a, b, n, rn, count, t = std::vector<limb_t>(2 * n)](limb_t* r) mutable {
          for (std::size_t i = 0; i < count; ++i, r += rn) {
            if (rn == 2 * n) {
              mpn_mul_n(r, a + i * n, b + i * n, mp(n));
            } else {
              mpn_mul_n(t.data(), a + i * n, b + i * n, mp(n));
              std::copy_n(t.data(), rn, r);
            }
          }
        });
  }
  if (name == "batch_powm") return std::make_unique<PowmCase>(w, PowmWindow::fixed);
  if (name == "batch_powm_sliding") return std::make_unique<PowmCase>(w, PowmWindow::sliding);
  throw std::logic_error("mpgpu bench: unknown batch operation " + std::string(name));
}

}  // namespace mpgpu::cli
