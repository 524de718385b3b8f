// The device branches of PrimeField32/64: every operation runs in a kernel on
// edge and random operands for every table prime that fits the word, and must
// equal the host branch (which prime_field_test checks against GMP).
// Label `gpu`; skips when no CUDA device is present.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "mpgpu/field/prime_field32.cuh"
#include "mpgpu/field/prime_field64.cuh"
#include "mpgpu/field/primes.hpp"

namespace {

namespace field = mpgpu::field;

template <class Field>
struct OpResults {
  using word = typename Field::word;
  word add, sub, neg, mont_mul, to_mont, from_mont, mul, shoup, mul_shoup, mul_shoup_full, pow,
      inv;
  bool operator==(const OpResults& o) const {
    return add == o.add && sub == o.sub && neg == o.neg && mont_mul == o.mont_mul &&
           to_mont == o.to_mont && from_mont == o.from_mont && mul == o.mul &&
           shoup == o.shoup && mul_shoup == o.mul_shoup && mul_shoup_full == o.mul_shoup_full &&
           pow == o.pow && inv == o.inv;
  }
};

/// One operand triple through every operation; `a_full` is an unreduced
/// full word for the operations that allow it.
template <class Field>
MPGPU_HD OpResults<Field> apply_ops(const Field& f, typename Field::word a, typename Field::word b,
                                    typename Field::word a_full, std::uint64_t e) {
  OpResults<Field> r;
  r.add = f.add(a, b);
  r.sub = f.sub(a, b);
  r.neg = f.neg(a);
  r.mont_mul = f.mont_mul(a_full, b);
  r.to_mont = f.to_mont(a);
  r.from_mont = f.from_mont(a);
  r.mul = f.mul(a, b);
  r.shoup = f.shoup(b);
  r.mul_shoup = f.mul_shoup(a, b, r.shoup);
  r.mul_shoup_full = f.mul_shoup(a_full, b, r.shoup);
  r.pow = f.pow(a, e);
  r.inv = f.inv(a);
  return r;
}

template <class Field>
__global__ void ops_kernel(Field f, const typename Field::word* a, const typename Field::word* b,
                           const typename Field::word* a_full, const std::uint64_t* e,
                           OpResults<Field>* out, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = apply_ops(f, a[i], b[i], a_full[i], e[i]);
}

bool have_device() {
  int devices = 0;
  return cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
}

#define CUDA_OK(call)                                                      \
  do {                                                                     \
    const cudaError_t status_ = (call);                                    \
    ASSERT_EQ(status_, cudaSuccess) << #call << ": " << cudaGetErrorString(status_); \
  } while (0)

template <class T>
struct DeviceArray {
  T* ptr = nullptr;
  explicit DeviceArray(std::size_t n) {
    if (cudaMalloc(&ptr, n * sizeof(T)) != cudaSuccess) ptr = nullptr;
  }
  ~DeviceArray() { cudaFree(ptr); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
};

template <class Field>
void check_field_on_device() {
  using word = typename Field::word;
  std::mt19937_64 rng(20261122);
  int primes_tested = 0;
  field::for_each_ntt_prime([&](const field::NttPrime& q) {
    if (q.p > std::numeric_limits<word>::max()) return;
    ++primes_tested;
    SCOPED_TRACE(q.p);
    const word p = static_cast<word>(q.p);
    const Field f = Field::make(p);
    const std::vector<word> edges = {0, 1, 2, static_cast<word>(p - 1), static_cast<word>(p - 2),
                                     static_cast<word>((p - 1) / 2)};
    std::vector<word> a, b, a_full;
    std::vector<std::uint64_t> e;
    for (word x : edges)
      for (word y : edges) {
        a.push_back(x);
        b.push_back(y);
      }
    while (a.size() < 4096) {
      a.push_back(static_cast<word>(rng() % p));
      b.push_back(static_cast<word>(rng() % p));
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
      a_full.push_back(i % 7 == 0 ? std::numeric_limits<word>::max() : static_cast<word>(rng()));
      e.push_back(i % 5 == 0 ? q.p - 2 : rng());
    }
    const int count = static_cast<int>(a.size());
    DeviceArray<word> da(count), db(count), dfull(count);
    DeviceArray<std::uint64_t> de(count);
    DeviceArray<OpResults<Field>> dout(count);
    ASSERT_TRUE(da.ptr && db.ptr && dfull.ptr && de.ptr && dout.ptr);
    CUDA_OK(cudaMemcpy(da.ptr, a.data(), count * sizeof(word), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(db.ptr, b.data(), count * sizeof(word), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dfull.ptr, a_full.data(), count * sizeof(word), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(de.ptr, e.data(), count * sizeof(std::uint64_t), cudaMemcpyHostToDevice));
    ops_kernel<<<(count + 127) / 128, 128>>>(f, da.ptr, db.ptr, dfull.ptr, de.ptr, dout.ptr, count);
    CUDA_OK(cudaGetLastError());
    std::vector<OpResults<Field>> got(count);
    CUDA_OK(cudaMemcpy(got.data(), dout.ptr, count * sizeof(OpResults<Field>),
                       cudaMemcpyDeviceToHost));
    for (int i = 0; i < count; ++i) {
      const OpResults<Field> want = apply_ops(f, a[i], b[i], a_full[i], e[i]);
      ASSERT_TRUE(got[i] == want) << "a=" << a[i] << " b=" << b[i] << " a_full=" << a_full[i]
                                  << " e=" << e[i];
    }
  });
  EXPECT_GT(primes_tested, 0);
}

TEST(FieldGpu, PrimeField32MatchesHost) {
  if (!have_device()) GTEST_SKIP() << "no CUDA device";
  check_field_on_device<field::PrimeField32>();
}

TEST(FieldGpu, PrimeField64MatchesHost) {
  if (!have_device()) GTEST_SKIP() << "no CUDA device";
  check_field_on_device<field::PrimeField64>();
}

}  // namespace
