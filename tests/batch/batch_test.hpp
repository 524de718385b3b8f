// Shared pieces of the Batch differential tests.
//
// The bodies are compiled once and linked twice, as the Integer tests are:
// batch_ops_test runs them on the CPU context, batch_ops_gpu_test on CUDA
// device 0 (skipping itself without one); the fixture is IntegerTest's. GMP
// computes every expected value here, in the test. Results are read back
// through a CPU copy whose padding is checked too, every instance is
// compared, and a failure names the operation, the width, the first bad
// instance and its operands.
#pragma once

#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "integer/integer_test.hpp"
#include "mpgpu/batch.hpp"

namespace mpgpu_test {

using mpgpu::Batch;

class BatchTest : public IntegerTest {};

/// The widths of the issue, with the awkward ones around limb boundaries.
/// Sanitizer-sized (support/test_size.hpp), every width class still (so
/// every G of the tuning tables, the NTT classes' block-wide code from 2^16
/// bits included) but one or two widths a class: 1, 64 and 65 bits for the
/// class of two limbs, 1000 for that of 16 (a partial top limb).
/// MPGPU_TEST_BATCH_MAX_BITS (environment) drops the wider ones, which
/// drops classes: for runs of chosen tests only.
inline const std::vector<std::size_t>& batch_widths() {
  static const std::vector<std::size_t> w = [] {
    const std::vector<std::size_t> all = sized<std::vector<std::size_t>>(
        {1, 63, 64, 65, 100, 128, 256, 512, 1000, 1024, 2048, 3072, 4096, 8192, 16384, 32768, 65536, 131072, 262144},
        {1, 64, 65, 256, 512, 1000, 2048, 3072, 4096, 8192, 16384, 32768, 65536, 131072, 262144});
    const char* env = std::getenv("MPGPU_TEST_BATCH_MAX_BITS");
    const std::size_t max_bits = env ? std::strtoull(env, nullptr, 0) : all.back();
    std::vector<std::size_t> kept;
    for (std::size_t bits : all)
      if (bits <= max_bits) kept.push_back(bits);
    return kept;
  }();
  return w;
}

/// Instances per width: every pair of special values plus random ones up to
/// 4096 bits, fewer above (the CPU run must stay short). Sanitizer-sized: 24
/// up to 4096 bits (the special values mixed in the first half, as above
/// 4096 bits), 4 above (one launch each either way; the instrumentation's
/// cost grows with the instances).
inline std::size_t instances_for(std::size_t bits) {
  return bits <= 4096 ? sized(96, 24) : bits <= 16384 ? sized(16, 4) : 4;
}

/// x mod 2^bits, in [0, 2^bits).
inline Mpz mod2exp(const Mpz& x, std::size_t bits) {
  Mpz r;
  mpz_fdiv_r_2exp(r, x, bits);
  return r;
}

/// Values that break carry, borrow, shift and product code: zero, a single
/// low bit, all ones, a single high bit, all ones but the lowest, alternating
/// bits, the low half set, 2^(bits/2) + 1. All < 2^bits.
inline std::vector<Mpz> special_values(std::size_t bits) {
  std::vector<Mpz> v;
  v.push_back(Mpz());
  v.push_back(Mpz::from_ui(1));
  v.push_back(Mpz::all_ones(bits));
  v.push_back(Mpz::pow2(bits - 1));
  Mpz ones_but_low = Mpz::all_ones(bits);
  mpz_clrbit(ones_but_low, 0);
  v.push_back(ones_but_low);
  v.push_back(mod2exp(repeated_limb(0xAAAAAAAAAAAAAAAAull, (bits + 63) / 64), bits));
  v.push_back(Mpz::all_ones(bits / 2 ? bits / 2 : 1));
  Mpz middle = Mpz::pow2(bits / 2);
  mpz_add_ui(middle, middle, 1);
  v.push_back(mod2exp(middle, bits));
  return v;
}

/// A random value below 2^bits: long runs of 0s and 1s or uniform, of a
/// random length (full length half the time).
inline Mpz random_below_pow2(Operands& gen, std::size_t bits) {
  const std::size_t len = gen.coin() ? bits : 1 + gen.below(bits);
  return gen.random_bits(len);
}

/// Operand `role` (0: a, 1: b, 2: a third) of `count` instances. When there
/// is room, the first |S|^2 instances pair every special value S with every
/// other (a = S[k / |S|], b = S[k % |S|]); otherwise the first half mixes
/// them; the rest are random.
inline std::vector<Mpz> make_operands(Operands& gen, std::size_t bits, std::size_t count, int role) {
  const std::vector<Mpz> s = special_values(bits);
  const std::size_t n = s.size();
  const bool all_pairs = count >= n * n + 16;
  std::vector<Mpz> v;
  for (std::size_t k = 0; k < count; ++k) {
    if (all_pairs && k < n * n) v.push_back(s[role == 0 ? k / n : role == 1 ? k % n : (k * 5 + 1) % n]);
    else if (!all_pairs && k < count / 2) v.push_back(s[role == 0 ? k % n : (k * 3 + 2 + role) % n]);
    else v.push_back(random_below_pow2(gen, bits));
  }
  return v;
}

inline Batch to_batch(const std::vector<Mpz>& values, std::size_t bits, const mpgpu::Context& ctx) {
  std::vector<mpz_srcptr> p;
  for (const Mpz& v : values) p.push_back(v.get());
  return Batch::from_mpz(p, bits, ctx);
}

/// A batch's values, read through a copy on a CPU context; `padding_error`
/// names the first instance with a set bit at or above bits().
struct Readback {
  std::vector<Mpz> values;
  std::string padding_error;
};

inline Readback read(const Batch& b) {
  Readback out;
  const Batch host = b.to_context(mpgpu::Context::cpu());
  const std::size_t stride = host.stride_limbs(), bits = host.bits();
  for (std::size_t i = 0; i < host.count() && out.padding_error.empty(); ++i) {
    const mpgpu::limb_t* x = host.data() + i * stride;
    for (std::size_t j = bits / 64; j < stride; ++j) {
      const mpgpu::limb_t allowed = j == bits / 64 ? (mpgpu::limb_t{1} << (bits % 64)) - 1 : 0;
      if (x[j] & ~allowed) {
        out.padding_error = "instance " + std::to_string(i) + " has bits set above its width in limb " +
                            std::to_string(j) + " of " + std::to_string(stride);
        break;
      }
    }
  }
  out.values.resize(host.count());
  std::vector<mpz_ptr> p;
  for (Mpz& v : out.values) p.push_back(v.get());
  host.to_mpz(p);
  return out;
}

/// Describes the operands of instance i for a failure message.
using Describe = std::function<std::string(std::size_t)>;

/// "a = ..., b = ..." from named operand vectors.
inline Describe operands_of(std::vector<std::pair<const char*, const std::vector<Mpz>*>> named) {
  return [named](std::size_t i) {
    std::string s;
    for (const auto& [name, values] : named) {
      if (!s.empty()) s += ", ";
      s += std::string(name) + " = " + (*values)[i].describe();
    }
    return s;
  };
}

/// `got` has `bits` bits, want.size() instances, zero padding, and equals want.
inline ::testing::AssertionResult equals(const Batch& got, std::size_t bits, const std::vector<Mpz>& want,
                                         const std::string& what, const Describe& describe = {}) {
  if (got.count() != want.size() || got.bits() != bits)
    return ::testing::AssertionFailure() << what << ": result has " << got.count() << " instances of "
                                         << got.bits() << " bits, want " << want.size() << " of " << bits;
  const Readback r = read(got);
  if (!r.padding_error.empty())
    return ::testing::AssertionFailure() << what << " at " << bits << " bits: " << r.padding_error;
  for (std::size_t i = 0; i < want.size(); ++i)
    if (!(r.values[i] == want[i]))
      return ::testing::AssertionFailure() << what << " at " << bits << " bits, instance " << i << " of "
                                           << want.size() << ": got " << r.values[i] << ", want " << want[i]
                                           << (describe ? "; " + describe(i) : std::string());
  return ::testing::AssertionSuccess();
}

/// The per-instance answers equal want.
template <typename T>
::testing::AssertionResult equals(const std::vector<T>& got, const std::vector<T>& want, const std::string& what,
                                  std::size_t bits, const Describe& describe = {}) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure() << what << ": " << got.size() << " answers, want " << want.size();
  for (std::size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i])
      return ::testing::AssertionFailure() << what << " at " << bits << " bits, instance " << i << " of "
                                           << want.size() << ": got " << got[i] << ", want " << want[i]
                                           << (describe ? "; " + describe(i) : std::string());
  return ::testing::AssertionSuccess();
}

/// `call` throws InvalidArgument naming `fn` and `reason`, and the batches in
/// `untouched` keep their shape, storage and values.
inline ::testing::AssertionResult rejects(const std::function<void()>& call, const std::string& fn, const std::string& reason,
                                   const std::vector<const Batch*>& untouched) {
  struct Snap {
    std::size_t count, bits;
    const mpgpu::limb_t* data;
    std::vector<Mpz> values;
  };
  auto snap = [](const Batch& b) {
    // part(0): the batch itself, or a split batch's first part (data() is nullptr there).
    return Snap{b.count(), b.bits(), b.part(0).data(), b.bits() ? read(b).values : std::vector<Mpz>{}};
  };
  std::vector<Snap> before;
  for (const Batch* b : untouched) before.push_back(snap(*b));
  try {
    call();
    return ::testing::AssertionFailure() << fn << ": no exception (expected one about " << reason << ")";
  } catch (const mpgpu::InvalidArgument& e) {
    const std::string what = e.what();
    if (what.find("mpgpu::" + fn + ":") == std::string::npos || what.find(reason) == std::string::npos)
      return ::testing::AssertionFailure() << "message \"" << what << "\" should name mpgpu::" << fn << " and say \""
                                           << reason << "\"";
  }
  for (std::size_t k = 0; k < untouched.size(); ++k) {
    const Snap now = snap(*untouched[k]);
    if (now.count != before[k].count || now.bits != before[k].bits || now.data != before[k].data ||
        !(now.values == before[k].values))
      return ::testing::AssertionFailure() << fn << " (" << reason << ") changed a batch it should not have";
  }
  return ::testing::AssertionSuccess();
}

}  // namespace mpgpu_test
