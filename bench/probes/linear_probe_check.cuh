// Shared by the linear-class probes (linear_occupancy.cu, staged_linear.cu,
// linear_chains.cu): random operand words on the device (with_probe_operands), the check of a
// sample of instances of 1-Add / seed 000's 6-Add against a host
// computation, and the chain and plain-launch body of staged_linear.cu and
// linear_chains.cu. Needs CHECK (../cuda_timing.cuh), mb and mb::word_t.
#pragma once

#include <cstdint>
#include <vector>

__global__ void fill(word_t* p, std::size_t n, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += gridDim.x * std::size_t(blockDim.x)) {
    std::uint64_t z = (i + seed) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    p[i] = word_t(z ^ (z >> 31));
  }
}

/// Seed 000's operands for width W (NumBits x NumInsts = 2^32): a and b of
/// random words and r, on the device for the duration of f(a, b, r, count).
template <int W, class F>
void with_probe_operands(F f) {
  const std::size_t count = (std::size_t{1} << 32) / (W * 32);
  const std::size_t n = count * W;
  word_t *a, *b, *r;
  CHECK(cudaMalloc(&a, n * 4));
  CHECK(cudaMalloc(&b, n * 4));
  CHECK(cudaMalloc(&r, n * 4));
  fill<<<4096, 256>>>(a, n, 1);
  fill<<<4096, 256>>>(b, n, 2);
  CHECK(cudaGetLastError());
  f(a, b, r, count);
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(r));
}

/// r = x + y mod 2^(32 n), host words.
static std::vector<word_t> add_words(const std::vector<word_t>& x, const std::vector<word_t>& y) {
  std::vector<word_t> r(x.size());
  std::uint64_t c = 0;
  for (std::size_t j = 0; j < x.size(); ++j) {
    c += std::uint64_t(x[j]) + y[j];
    r[j] = word_t(c);
    c >>= 32;
  }
  return r;
}

/// 1-Add (x + y) or 6-Add of 64 instances spread over the batch and the
/// last one, mod 2^(32 W).
template <int W, bool kSix>
static bool verify(const word_t* a, const word_t* b, const word_t* r, std::size_t count) {
  std::vector<word_t> x(W), y(W), got(W);
  for (int s = 0; s <= 64; ++s) {
    const std::size_t i = s == 64 ? count - 1 : (count / 64) * s + s;
    CHECK(cudaMemcpy(x.data(), a + i * W, W * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(y.data(), b + i * W, W * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(got.data(), r + i * W, W * 4, cudaMemcpyDeviceToHost));
    std::vector<word_t> want;
    if (!kSix) {
      want = add_words(x, y);
    } else {
      auto t1 = add_words(x, y), t2 = add_words(t1, x), t3 = add_words(t2, y);
      t1 = add_words(t3, t1);
      t2 = add_words(t1, t2);
      want = add_words(t2, t3);
    }
    if (want != got) return false;
  }
  return true;
}

/// Six dependent additions (seed 000's 6-Add) or one, on numbers already loaded.
template <bool kSix, class E>
__device__ __forceinline__ void add_chain(const E& env, typename E::Num& out, const typename E::Num& x,
                                          const typename E::Num& y) {
  if constexpr (!kSix) {
    mb::add(env, out, x, y);
  } else {
    typename E::Num t1, t2, t3;
    mb::add(env, t1, x, y);
    mb::add(env, t2, t1, x);
    mb::add(env, t3, t2, y);
    mb::add(env, t1, t3, t1);
    mb::add(env, t2, t1, t2);
    mb::add(env, out, t2, t3);
  }
}

/// The library's launch: each block loads its instance from global memory.
template <bool kSix>
struct PlainBody {
  const word_t *a, *b;
  word_t* r;
  template <class E>
  __device__ void operator()(const E& env, std::size_t i, bool live) const {
    typename E::Num x, y, t;
    const std::size_t off = i * E::words;
    if (live) {
      mb::load(env, x, a + off);
      mb::load(env, y, b + off);
    } else {
      mb::set_zero(env, x);
      mb::set_zero(env, y);
    }
    add_chain<kSix>(env, t, x, y);
    if (live) mb::store(env, r + off, t);
  }
};

/// Persistent blocks, kStages shared-memory stages of both operands (the
/// next kStages - 1 instances in flight), each operand queued as kChunks
/// bulk copies.
