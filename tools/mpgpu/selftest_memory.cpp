#include "selftest_memory.hpp"

#include <chrono>
#include <functional>
#include <optional>
#include <ostream>
#include <vector>

#include "mpgpu/mpgpu.hpp"
#include "owned_mpz.hpp"
#include "selftest_device_pool.hpp"

namespace mpgpu::cli::selftest {

namespace {

/// The device's free memory may move by this much between rounds without a
/// leak: the driver loads kernels into device memory on their first launch.
/// Leaks are caught exactly by the pool's live bytes.
constexpr std::uint64_t kFreeSlackBytes = std::uint64_t{64} << 20;

std::string mib(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

std::string signed_bytes(std::uint64_t now, std::uint64_t then) {
  std::string s(1, now >= then ? '+' : '-');
  return s.append(std::to_string(now >= then ? now - then : then - now));
}

struct Pressure {
  std::string name;
  std::function<void()> run;
};

}  // namespace

MemoryResult run_memory_pressure(const Context& ctx, unsigned rounds, std::ostream& out) {
  MemoryResult result;
  if (!ctx.is_cuda()) {
    result.note = "skipped: the CPU context has no device memory to exhaust";
    return result;
  }
  const auto start = std::chrono::steady_clock::now();
  const std::optional<DevicePool> before = trimmed_device_pool(ctx);
  if (!before) {
    result.note = "skipped: this mpgpu was built without the CUDA runtime";
    return result;
  }
  result.ran = true;
  auto fail = [&](const std::string& what) {
    ++result.failures;
    out << "FAIL memory pressure: " << what << "\n" << std::flush;
  };
  const std::uint64_t total = ctx.info().total_memory, free0 = before->free_bytes;
  const std::uint64_t bits = (free0 / 10) / 8 * 64;  // a tenth of the free memory, whole limbs
  result.note = "operands of " + mib(bits / 8) + " each, " + mib(free0) + " free of " + mib(total);
  // What the rounds hold besides the operands (caches the context fills in
  // round 0) stays at the end too: the end is checked against the steady
  // state less the operands.
  std::optional<DevicePool> steady, with_operands;
  try {
    const Integer a = Integer::all_ones(bits, ctx), b = Integer::all_ones(bits - 1, ctx);
    Integer r(12345, ctx);
    with_operands = trimmed_device_pool(ctx);
    // A small product on the device, checked against GMP: the context is usable.
    tools::Mpz x, y, want;
    mpz_ui_pow_ui(x.get(), 3, 1500);
    mpz_ui_pow_ui(y.get(), 7, 1000);
    mpz_mul(want.get(), x.get(), y.get());
    const std::vector<Pressure> ops = {
        {"mul of two operands of a tenth of free memory (8x their product's room)", [&] { mul(r, a, b); }},
        {"sqr of such an operand", [&] { sqr(r, a); }},
        {"mul_2exp by as many bits as free memory holds", [&] { mul_2exp(r, a, 8 * free0); }},
        {"mul_2exp past the device's whole memory", [&] { mul_2exp(r, a, 16 * total); }},
        {"power_of_two larger than free memory", [&] { (void)Integer::power_of_two(8 * free0 + 64, ctx); }},
        {"Batch of 1.25x free memory", [&] { Batch big(free0 / 128 + free0 / 512, 1024, ctx); }},
    };
    for (unsigned round = 0; round <= rounds; ++round) {
      for (const Pressure& op : ops) {
        ++result.operations;
        try {
          op.run();
          fail(op.name + ": did not throw OutOfMemory");
        } catch (const OutOfMemory& e) {
          if (e.requested_bytes() == 0) fail(op.name + ": OutOfMemory without the bytes requested: " + e.what());
        } catch (const std::exception& e) {
          fail(op.name + ": threw something other than OutOfMemory: " + e.what());
        }
        if (sizeinbase2(a) != bits || popcount(a) != bits || sizeinbase2(b) != bits - 1 || popcount(b) != bits - 1)
          fail(op.name + ": an operand changed");
        if (!r.fits_int64() || r.to_int64() != 12345) fail(op.name + ": the destination changed");
        Integer p(ctx), X = Integer::from_mpz(x.get(), ctx), Y = Integer::from_mpz(y.get(), ctx);
        X.place_on_device();
        Y.place_on_device();
        mul(p, X, Y);
        tools::Mpz got;
        p.to_mpz(got.get());
        if (mpz_cmp(got.get(), want.get()) != 0) fail(op.name + ": a product after it is wrong");
      }
      // Round 0 lets the context fill its caches (twiddle tables, kernels
      // loaded on first launch); every later round must end where it did.
      const std::optional<DevicePool> now = trimmed_device_pool(ctx);
      if (!now) {
        fail("the device pool could not be read after round " + std::to_string(round));
        break;
      }
      if (round == 0) {
        steady = now;
        continue;
      }
      ++result.rounds;
      if (now->used_bytes != steady->used_bytes)
        fail("round " + std::to_string(round) + ": the pool's live bytes moved by " +
             signed_bytes(now->used_bytes, steady->used_bytes) + " (a leak)");
      const std::uint64_t drift = now->free_bytes > steady->free_bytes ? now->free_bytes - steady->free_bytes
                                                                        : steady->free_bytes - now->free_bytes;
      if (drift > kFreeSlackBytes)
        fail("round " + std::to_string(round) + ": free device memory moved by " +
             signed_bytes(now->free_bytes, steady->free_bytes) + " bytes after trimming the pool");
    }
  } catch (const std::exception& e) {  // making the operands or the checks themselves failed
    fail(std::string("threw outside the operations under test: ") + e.what());
  }
  // The operands are gone: the pool holds what the rounds held without them.
  const std::optional<DevicePool> after = trimmed_device_pool(ctx);
  if (after && steady && with_operands) {
    const std::uint64_t operand_bytes = with_operands->used_bytes - before->used_bytes;
    const std::uint64_t want_used = steady->used_bytes - operand_bytes;
    const std::uint64_t want_free = steady->free_bytes + (free0 - with_operands->free_bytes);
    if (after->used_bytes != want_used)
      fail("at the end the pool's live bytes differ by " + signed_bytes(after->used_bytes, want_used) +
           " from the rounds' less the operands (a leak)");
    const std::uint64_t drift = after->free_bytes > want_free ? after->free_bytes - want_free : want_free - after->free_bytes;
    if (drift > kFreeSlackBytes)
      fail("at the end free device memory differs by " + signed_bytes(after->free_bytes, want_free) +
           " bytes from the rounds' plus the operands'");
    result.note += "; at the end " + signed_bytes(after->free_bytes, free0) + " bytes of free memory against the start (" +
                   signed_bytes(after->free_bytes, want_free) + " against the rounds' less the operands)";
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace mpgpu::cli::selftest
