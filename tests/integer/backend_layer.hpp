// The harness of the low-layer tests (backend_layer_*.cpp): direct calls of
// src/cuda/backend.hpp's functions, GMP's way (tests/mpn/toom-shared.h).
// - Every output lies between guard bytes; the guards and the output start
//   with a canary pattern, and after each call the guards must be untouched.
//   The output's room is exactly the capacity its function documents.
// - Every operand sits at the end of its own cudaMalloc allocation, so that
//   compute-sanitizer's memcheck flags a read past it, and must be unchanged
//   after the call.
// - Outputs and operands start 16-byte aligned (as pool allocations do) or
//   one limb off (the kernels' scalar paths, as user pointers may be).
// - Transfers run on the stream of the call (cudaMemcpyAsync, then a
//   synchronize), so they are ordered with it whether or not it is blocking.
// Every CUDA call is checked: a failure throws, and the test fails with the
// call's text and CUDA's error.
#pragma once

#include <cuda_runtime.h>
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "context/context_state.hpp"
#include "cuda/backend.hpp"
#include "mpgpu/context.hpp"
#include "support/mpz.hpp"
#include "support/operands.hpp"
#include "support/test_size.hpp"

namespace backend_layer {

using mpgpu::limb_t;
using mpgpu_test::Mpz;
using mpgpu_test::Operands;
namespace dc = mpgpu::detail::cuda;
using Limbs = std::vector<limb_t>;
static_assert(sizeof(mp_limb_t) == sizeof(limb_t), "GMP's limbs are the library's");

/// "0x..." (gtest's AssertionResult does not keep std::hex between values).
inline std::string hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

inline void cuda_check(cudaError_t e, const char* call) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string(call) + ": " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e));
}
#define BACKEND_LAYER_CUDA(call) ::backend_layer::cuda_check((call), #call)

/// cudaMalloc'd bytes, freed with the object.
class DeviceMemory {
 public:
  explicit DeviceMemory(std::size_t bytes) { BACKEND_LAYER_CUDA(cudaMalloc(&p_, bytes ? bytes : 1)); }
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  ~DeviceMemory() {
    const cudaError_t e = cudaFree(p_);
    if (e != cudaSuccess) ADD_FAILURE() << "cudaFree: " << cudaGetErrorName(e) << ": " << cudaGetErrorString(e);
  }
  unsigned char* get() const { return static_cast<unsigned char*>(p_); }

 private:
  void* p_ = nullptr;
};

/// Host -> device and device -> host on stream s, finished on return.
inline void upload(cudaStream_t s, void* dst, const void* src, std::size_t bytes) {
  if (bytes == 0) return;
  BACKEND_LAYER_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s));
  BACKEND_LAYER_CUDA(cudaStreamSynchronize(s));
}
inline void download(cudaStream_t s, void* dst, const void* src, std::size_t bytes) {
  BACKEND_LAYER_CUDA(cudaStreamSynchronize(s));  // the call's kernels (some publish before they end)
  if (bytes == 0) return;
  BACKEND_LAYER_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, s));
  BACKEND_LAYER_CUDA(cudaStreamSynchronize(s));
}

/// The canary pattern, byte i of a guarded image (guards and output alike):
/// no limb of it is 0 or all ones, and it shifts with i, so a shifted or
/// stale copy shows.
inline unsigned char canary_byte(std::size_t i) {
  return static_cast<unsigned char>(0xA5u ^ (i * 0x3Bu) ^ ((i >> 8) * 0x11u));
}
inline void fill_canary(unsigned char* p, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; ++i) p[i] = canary_byte(i);
}

/// First byte of [begin, end) of `image` that differs from the canary, or end.
inline std::size_t first_changed(const std::vector<unsigned char>& image, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end; ++i)
    if (image[i] != canary_byte(i)) return i;
  return end;
}

/// An output of `capacity` bytes with kGuardBytes of guard on each side,
/// starting `offset` bytes after a 16-byte boundary; in device memory, or
/// host memory for the device -> host copies.
class Guarded {
 public:
  static constexpr std::size_t kGuardBytes = 64;  // 8 limbs

  Guarded(cudaStream_t s, std::size_t capacity, std::size_t offset, bool on_host = false)
      : capacity_(capacity), lead_(kGuardBytes + offset), image_(lead_ + capacity + kGuardBytes) {
    fill_canary(image_.data(), image_.size());
    if (on_host) {
      host_ = image_;
    } else {
      mem_.emplace(image_.size());
      upload(s, mem_->get(), image_.data(), image_.size());
    }
  }
  void* get() { return (mem_ ? mem_->get() : host_.data()) + lead_; }
  limb_t* limbs() { return static_cast<limb_t*>(get()); }

  /// Reads the image back (after the stream's work).
  void read(cudaStream_t s) {
    if (mem_) download(s, image_.data(), mem_->get(), image_.size());
    else image_ = host_;
  }
  /// After read(): whether both guards still hold the canary.
  ::testing::AssertionResult guards_intact() const {
    const std::size_t end = lead_ + capacity_;
    std::size_t i = first_changed(image_, 0, lead_);
    if (i < lead_)
      return ::testing::AssertionFailure() << "guard byte " << (lead_ - i) << " before the output (of room "
                                           << capacity_ << " bytes) overwritten: " << hex(image_[i])
                                           << ", canary " << hex(canary_byte(i));
    i = first_changed(image_, end, image_.size());
    if (i < image_.size())
      return ::testing::AssertionFailure() << "guard byte " << (i - end) << " after the output (of room "
                                           << capacity_ << " bytes) overwritten: " << hex(image_[i])
                                           << ", canary " << hex(canary_byte(i));
    return ::testing::AssertionSuccess();
  }
  /// After read(): whether the output itself still holds the canary.
  ::testing::AssertionResult output_untouched() const {
    const std::size_t i = first_changed(image_, lead_, lead_ + capacity_);
    if (i < lead_ + capacity_)
      return ::testing::AssertionFailure() << "output byte " << (i - lead_) << " written";
    return ::testing::AssertionSuccess();
  }
  /// After read(): the first `bytes` bytes of the output.
  const unsigned char* bytes() const { return image_.data() + lead_; }
  Limbs limbs_read(std::size_t n) const {
    Limbs v(n);
    if (n) std::memcpy(v.data(), bytes(), n * sizeof(limb_t));
    return v;
  }

 private:
  std::size_t capacity_, lead_;
  std::vector<unsigned char> image_;  // the canary image, then what read() found
  std::optional<DeviceMemory> mem_;
  std::vector<unsigned char> host_;
};

/// A limb output of room `capacity` limbs, aligned or one limb off.
inline Guarded limb_output(cudaStream_t s, std::size_t capacity, bool odd) {
  return Guarded(s, capacity * sizeof(limb_t), odd ? sizeof(limb_t) : 0);
}

/// A device input of words W (limbs, or the NTT and gfp layers' 64- and
/// 32-bit words) ending where its own allocation ends, one word off or
/// aligned; unchanged() checks it after the call.
template <class W>
class DeviceWords {
 public:
  DeviceWords(cudaStream_t s, std::vector<W> v, bool odd, const char* noun = "input word")
      : host_(std::move(v)), mem_((host_.size() + (odd ? 1 : 0)) * sizeof(W)), noun_(noun) {
    ptr_ = reinterpret_cast<W*>(mem_.get()) + (odd ? 1 : 0);
    upload(s, ptr_, host_.data(), host_.size() * sizeof(W));
  }
  const W* data() const { return ptr_; }
  std::size_t size() const { return host_.size(); }
  const std::vector<W>& host() const { return host_; }
  ::testing::AssertionResult unchanged(cudaStream_t s) const {
    std::vector<W> now(host_.size());
    download(s, now.data(), ptr_, now.size() * sizeof(W));
    for (std::size_t i = 0; i < now.size(); ++i)
      if (now[i] != host_[i])
        return ::testing::AssertionFailure() << noun_ << " " << i << " of " << now.size() << " changed";
    return ::testing::AssertionSuccess();
  }

 private:
  std::vector<W> host_;
  DeviceMemory mem_;
  const char* noun_;
  W* ptr_ = nullptr;
};

/// An operand (limbs) in device memory, ending where its allocation ends.
class DeviceOperand : public DeviceWords<limb_t> {
 public:
  DeviceOperand(cudaStream_t s, Limbs v, bool odd) : DeviceWords<limb_t>(s, std::move(v), odd, "operand limb") {}
  dc::Operand op() const { return {data(), size()}; }
};

// ---- values ---------------------------------------------------------------------------

inline Mpz to_mpz(const Limbs& v) {
  Mpz z;
  if (!v.empty()) mpz_import(z, v.size(), -1, sizeof(limb_t), 0, 0, v.data());
  return z;
}
/// |z|'s limbs, normalized.
inline Limbs limbs_of(const Mpz& z) {
  Limbs v(mpz_size(z));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = mpz_getlimbn(z, static_cast<mp_size_t>(i));
  return v;
}
inline std::size_t normalized_size(const Limbs& v) {
  std::size_t n = v.size();
  while (n && v[n - 1] == 0) --n;
  return n;
}

/// Operand kinds: `n` limbs, the top one nonzero.
enum class Kind { random, runs, all_ones, high_bit, top_one, zero_middle, alternating, fives };

inline const char* kind_name(Kind k) {
  switch (k) {
    case Kind::random: return "random";
    case Kind::runs: return "runs";
    case Kind::all_ones: return "all-ones";
    case Kind::high_bit: return "high-bit";
    case Kind::top_one: return "top-limb-1";
    case Kind::zero_middle: return "zero-middle";
    case Kind::alternating: return "0xaa..";
    default: return "0x55..";
  }
}

/// A random nonzero limb of 1..64 bits (Operands::limb may return 0: its
/// uniform half can draw fewer bits than it asked for).
inline limb_t nonzero_limb(Operands& gen) {
  const limb_t v = gen.limb();
  return v ? v : 1 + gen.below(1000);
}

inline Limbs make_limbs(Kind k, std::size_t n, Operands& gen) {
  Limbs v(n, 0);
  if (n == 0) return v;
  switch (k) {
    case Kind::random: {
      const Limbs r = limbs_of(gen.uniform(64 * n));
      std::copy(r.begin(), r.end(), v.begin());
      v[n - 1] = nonzero_limb(gen);  // 1..64 significant bits
      break;
    }
    case Kind::runs: {  // mpz_rrandomb: long runs of 0s and 1s, exactly that many bits
      const Limbs r = limbs_of(gen.runs(64 * n - gen.below(64)));
      std::copy(r.begin(), r.end(), v.begin());
      break;
    }
    case Kind::all_ones: std::fill(v.begin(), v.end(), ~limb_t{0}); break;
    case Kind::high_bit: v[n - 1] = limb_t{1} << 63; break;
    case Kind::top_one: v[n - 1] = 1; break;
    case Kind::zero_middle:  // nonzero ends, zeros between
      v[0] = nonzero_limb(gen);
      v[n - 1] = nonzero_limb(gen);
      break;
    case Kind::alternating: std::fill(v.begin(), v.end(), 0xAAAAAAAAAAAAAAAAull); break;
    case Kind::fives: std::fill(v.begin(), v.end(), 0x5555555555555555ull); break;
  }
  return v;
}

/// "a[n] kind", for failure messages.
inline std::string shape(const char* name, std::size_t n, const std::string& kind) {
  return std::string(name) + "[" + std::to_string(n) + "]" + (kind.empty() ? "" : " " + kind);
}

/// got == want, limb by limb, naming the first difference.
inline ::testing::AssertionResult same_limbs(const Limbs& got, const Limbs& want) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure() << got.size() << " limbs, expected " << want.size();
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i])
      return ::testing::AssertionFailure() << "limb " << i << " of " << want.size() << " is " << hex(got[i])
                                           << ", expected " << hex(want[i]);
  return ::testing::AssertionSuccess();
}

/// The words a Deferred operation published (kSlotCount of them), after its
/// stream has finished (a final kernel may publish before its other blocks end).
struct Words {
  std::uint64_t w[mpgpu::device::kSlotCount] = {};
  std::uint64_t size() const { return w[mpgpu::device::kSlotSize]; }
};
inline Words wait_words(dc::Deferred& p, cudaStream_t s) {
  if (!p) throw std::runtime_error("the operation returned no deferred words");
  const std::uint64_t* got = p->wait();
  Words out;
  std::copy(got, got + mpgpu::device::kSlotCount, out.w);
  BACKEND_LAYER_CUDA(cudaStreamSynchronize(s));
  return out;
}

/// A limb output holds `want` (normalized) in its first limbs, its size
/// `size` equals want's, and its guards are intact.
inline ::testing::AssertionResult output_is(Guarded& out, cudaStream_t s, const Limbs& want, std::uint64_t size) {
  out.read(s);
  if (auto g = out.guards_intact(); !g) return g;
  if (size != want.size())
    return ::testing::AssertionFailure() << "size " << size << ", expected " << want.size();
  if (auto c = same_limbs(out.limbs_read(want.size()), want); !c) return c;
  return ::testing::AssertionSuccess();
}

/// Every operand unchanged.
inline ::testing::AssertionResult operands_unchanged(cudaStream_t s, std::initializer_list<const DeviceOperand*> ops) {
  for (const DeviceOperand* op : ops)
    if (auto u = op->unchanged(s); !u) return u;
  return ::testing::AssertionSuccess();
}

// ---- the fixture ------------------------------------------------------------------------

/// CUDA device 0's context; every case runs on its stream (where results may
/// be published early, ResultWords::publish_now) and on a second,
/// non-blocking stream (published by the last block).
class BackendLayer : public ::testing::Test {
 protected:
  struct StreamCase {
    cudaStream_t s;
    const char* name;
  };
  static constexpr int kMaxFailedCases = 12;

  void SetUp() override {
    if (mpgpu::Context::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
    ctx_.emplace(mpgpu::Context::cuda(0));
    BACKEND_LAYER_CUDA(cudaSetDevice(ctx_->device()));
    BACKEND_LAYER_CUDA(cudaStreamCreateWithFlags(&side_, cudaStreamNonBlocking));
  }
  void TearDown() override {
    if (side_) {
      EXPECT_EQ(cudaStreamSynchronize(side_), cudaSuccess);
      EXPECT_EQ(cudaStreamDestroy(side_), cudaSuccess);
    }
  }

  mpgpu::detail::ContextState& st() const { return mpgpu::detail::ContextAccess::state(*ctx_); }
  /// Makes the context again with `params` (the context's tuning values,
  /// fixed when a context is made): st() and streams() are then the new
  /// context's. The old context's work (on either stream) is finished first.
  void use_tuning(const mpgpu::TuningParams& params) {
    BACKEND_LAYER_CUDA(cudaStreamSynchronize(ctx_->stream()));
    BACKEND_LAYER_CUDA(cudaStreamSynchronize(side_));
    const int device = ctx_->device();
    ctx_.reset();
    ctx_.emplace(mpgpu::Context::cuda(device, params));
  }
  std::vector<StreamCase> streams() const { return {{ctx_->stream(), "context stream"}, {side_, "side stream"}}; }

  /// Sanitizer-sized runs (support/test_size.hpp): whether case `index` of
  /// the cases at size `n` on stream `sc` runs: one in `keep_one_in`, the
  /// rotation shifted by the size and the stream, so that every size,
  /// stream and function keeps cases and each kind of case comes round over
  /// the sizes and streams (with one in two, each case of a size runs on one
  /// of the two streams). The kinds decide the values; the sizes and the
  /// stream, where and how the kernels read, write and publish. Full runs
  /// keep every case.
  bool sanitizer_runs(const StreamCase& sc, std::size_t n, std::size_t index, std::size_t keep_one_in) const {
    return mpgpu_test::sanitizer_keeps(n + index + (sc.s == side_ ? 1 : 0), keep_one_in);
  }

  /// Records a case's result; false once too many cases failed (the test
  /// then stops: one bug fails hundreds of cases).
  bool report(const ::testing::AssertionResult& r, const std::string& what) {
    if (r) return true;
    ADD_FAILURE() << what << ": " << r.message();
    if (++failed_ == kMaxFailedCases) ADD_FAILURE() << "stopping after " << kMaxFailedCases << " failed cases";
    return failed_ < kMaxFailedCases;
  }

 private:
  std::optional<mpgpu::Context> ctx_;
  cudaStream_t side_ = nullptr;
  int failed_ = 0;
};

/// The first failing check of a case (all are evaluated), or success.
inline ::testing::AssertionResult all_of(std::initializer_list<::testing::AssertionResult> checks) {
  for (const auto& c : checks)
    if (!c) return c;
  return ::testing::AssertionSuccess();
}

}  // namespace backend_layer
