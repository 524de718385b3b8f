// The public NTT (include/mpgpu/ntt.hpp): argument checks, then the host
// plan (CPU context) or the device passes (CUDA context).
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "context/context_state.hpp"
#include "cuda/backend.hpp"
#include "mpgpu/error.hpp"
#include "mpgpu/field/primes.hpp"
#include "mpgpu/field/roots.hpp"
#include "mpgpu/ntt.hpp"
#include "mpgpu/ntt/ntt_host.hpp"

namespace mpgpu {

namespace {

constexpr int kMaxLogN = 28;

/// Checks (p, log_n) and returns a primitive root mod p.
std::uint64_t check_and_generator(const char* fn, const void* data, std::size_t batch, int log_n,
                                  std::uint64_t p) {
  const std::string where = std::string("mpgpu::") + fn + ": ";
  if (log_n < 0 || log_n > kMaxLogN)
    throw InvalidArgument(where + "length 2^" + std::to_string(log_n) + " is outside 2^0 .. 2^28");
  if (batch != 0 && data == nullptr) throw InvalidArgument(where + "data is null");
  if (p < 3 || p % 2 == 0)
    throw InvalidArgument(where + "modulus " + std::to_string(p) + " is not an odd prime");
  if (const field::NttPrime* known = field::find_ntt_prime(p)) {
    if (log_n > known->n)
      throw InvalidArgument(where + "length 2^" + std::to_string(log_n) + " does not divide p - 1 for p = " +
                            std::to_string(p) + " (at most 2^" + std::to_string(known->n) + ")");
    return known->generator;
  }
  if (!field::is_prime(p)) throw InvalidArgument(where + "modulus " + std::to_string(p) + " is not prime");
  const int adicity = field::two_adicity(p);
  if (log_n > adicity)
    throw InvalidArgument(where + "length 2^" + std::to_string(log_n) + " does not divide p - 1 for p = " +
                          std::to_string(p) + " (at most 2^" + std::to_string(adicity) + ")");
  return field::find_generator(p);
}

template <class Word>
void bit_reverse_host(Word* x, int log_n) {
  const std::size_t n = std::size_t{1} << log_n;
  for (std::size_t i = 1, j = 0; i < n; ++i) {
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(x[i], x[j]);
  }
}

/// The CPU backend: the host plan on 64-bit words.
void transform_host(std::uint64_t* data, std::size_t batch, int log_n, std::uint64_t p, bool reversed, bool forward) {
  const auto plan = ntt::host_plan<field::PrimeField64>(p, log_n);
  const std::size_t n = std::size_t{1} << log_n;
  if (forward) {
    plan->forward(data, batch);
    if (reversed)
      for (std::size_t b = 0; b < batch; ++b) bit_reverse_host(data + b * n, log_n);
  } else {
    if (reversed)
      for (std::size_t b = 0; b < batch; ++b) bit_reverse_host(data + b * n, log_n);
    plan->inverse(data, batch);
  }
}

/// Checks, then the device path of the word size or the host plan. 32-bit
/// words have their own device path; on the CPU they go through the 64-bit
/// host plan on a widened copy (the host plan is not where 32-bit users'
/// time goes).
template <class Word>
void transform(const char* fn, const Context& ctx, Word* data, std::size_t batch, int log_n, Word p,
               NttOrder order, Stream s, bool forward) {
  const std::uint64_t g = check_and_generator(fn, data, batch, log_n, p);
  if (batch == 0) return;
  const bool reversed = order == NttOrder::bit_reversed;
  if (ctx.is_cuda()) {
    if constexpr (sizeof(Word) == 8)
      detail::cuda::ntt_transform(detail::ContextAccess::state(ctx), ctx.resolve(s), data, batch, log_n, p, g, forward,
                                  reversed);
    else
      detail::cuda::ntt_transform32(detail::ContextAccess::state(ctx), ctx.resolve(s), data, batch, log_n, p, g,
                                    forward, reversed);
    return;
  }
  if constexpr (sizeof(Word) == 8) {
    transform_host(data, batch, log_n, p, reversed, forward);
  } else {
    std::vector<std::uint64_t> wide(data, data + (batch << log_n));
    transform_host(wide.data(), batch, log_n, p, reversed, forward);
    std::copy(wide.begin(), wide.end(), data);
  }
}

}  // namespace

void ntt_forward(const Context& ctx, std::uint64_t* data, std::size_t batch, int log_n, std::uint64_t p,
                 NttOrder output, Stream s) {
  transform("ntt_forward", ctx, data, batch, log_n, p, output, s, true);
}

void ntt_inverse(const Context& ctx, std::uint64_t* data, std::size_t batch, int log_n, std::uint64_t p,
                 NttOrder input, Stream s) {
  transform("ntt_inverse", ctx, data, batch, log_n, p, input, s, false);
}

void ntt_forward(const Context& ctx, std::uint32_t* data, std::size_t batch, int log_n, std::uint32_t p,
                 NttOrder output, Stream s) {
  transform("ntt_forward", ctx, data, batch, log_n, p, output, s, true);
}

void ntt_inverse(const Context& ctx, std::uint32_t* data, std::size_t batch, int log_n, std::uint32_t p,
                 NttOrder input, Stream s) {
  transform("ntt_inverse", ctx, data, batch, log_n, p, input, s, false);
}

}  // namespace mpgpu
