// Operands at GMP's size limit without the memory they would take. An mpz of
// 2^31 - 1 limbs is 16 GiB: VirtualLimbs reserves the address range with
// MAP_NORESERVE (its pages read as zero and take no memory until written;
// only the top limb, and optionally the bottom one, is written), and
// BorrowLimbs lends such limbs to a CPU-context Integer for a scope.
// VirtualText is a text of tens of GiB made of one 64 MiB block of a memfd
// mapped over and over. The tests that use them expect mpgpu to refuse the
// operation before reading the operands; GmpAllocationCap turns a regression
// into a quick abort with a message (GMP asking for more than the cap)
// instead of gigabytes allocated and written. Linux only.
#pragma once

#include <gmp.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "mpgpu/integer.hpp"

namespace mpgpu_test {

/// `count` limbs reading as zero except the top one (`top`) and the bottom
/// one (`bottom`). False when the address range could not be reserved.
class VirtualLimbs {
 public:
  explicit VirtualLimbs(std::size_t count, mp_limb_t top = 1, mp_limb_t bottom = 0)
      : count_(count), bytes_(count * sizeof(mp_limb_t)) {
    void* p = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return;
    limbs_ = static_cast<mp_limb_t*>(p);
    limbs_[count - 1] = top;
    if (bottom) limbs_[0] = bottom;
  }
  VirtualLimbs(const VirtualLimbs&) = delete;
  VirtualLimbs& operator=(const VirtualLimbs&) = delete;
  ~VirtualLimbs() {
    if (limbs_) ::munmap(limbs_, bytes_);
  }
  explicit operator bool() const { return limbs_ != nullptr; }
  mp_limb_t* data() const { return limbs_; }
  std::size_t count() const { return count_; }

 private:
  std::size_t count_, bytes_;
  mp_limb_t* limbs_ = nullptr;
};

/// For its scope, `x` (a CPU-context Integer) is +-limbs: its mpz points at
/// them (count <= INT_MAX, the top limb nonzero). x's own storage comes back
/// at the end of the scope.
class BorrowLimbs {
 public:
  BorrowLimbs(mpgpu::Integer& x, const VirtualLimbs& limbs, int sign = 1)
      : x_(x), saved_(*mpgpu::detail::IntegerAccess::cpu_mpz(x)) {
    mpz_ptr z = mpgpu::detail::IntegerAccess::cpu_mpz(x);
    z->_mp_alloc = static_cast<int>(limbs.count());
    z->_mp_size = static_cast<int>(limbs.count()) * (sign < 0 ? -1 : 1);
    z->_mp_d = limbs.data();
    mpgpu::detail::IntegerAccess::refresh_cpu_meta(x);
  }
  BorrowLimbs(const BorrowLimbs&) = delete;
  BorrowLimbs& operator=(const BorrowLimbs&) = delete;
  ~BorrowLimbs() {
    *mpgpu::detail::IntegerAccess::cpu_mpz(x_) = saved_;
    mpgpu::detail::IntegerAccess::refresh_cpu_meta(x_);
  }
  /// Whether x still holds the borrowed limbs with this size and sign.
  bool unchanged(const VirtualLimbs& limbs, int sign = 1) const {
    return mpgpu::detail::IntegerAccess::cpu_mpz(x_)->_mp_d == limbs.data() && x_.size() == limbs.count() &&
           x_.sign() == (sign < 0 ? -1 : 1);
  }

 private:
  mpgpu::Integer& x_;
  __mpz_struct saved_;
};

/// `length` bytes of address space reading as `fill` repeated: one block of
/// a memfd mapped again and again. False when that failed.
class VirtualText {
 public:
  VirtualText(std::size_t length, char fill) : length_(length) {
    constexpr std::size_t kBlock = std::size_t{64} << 20;
    reserved_ = (length + kBlock - 1) / kBlock * kBlock;
    const int fd = ::memfd_create("mpgpu_test_text", 0);
    if (fd < 0) return;
    bool ok = ::ftruncate(fd, kBlock) == 0;
    void* block = ok ? ::mmap(nullptr, kBlock, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
    if (block != MAP_FAILED) {
      std::memset(block, fill, kBlock);
      ::munmap(block, kBlock);
    }
    void* range = ::mmap(nullptr, reserved_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    ok = ok && block != MAP_FAILED && range != MAP_FAILED;
    for (std::size_t off = 0; ok && off < reserved_; off += kBlock)
      ok = ::mmap(static_cast<char*>(range) + off, kBlock, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0) != MAP_FAILED;
    ::close(fd);
    if (range != MAP_FAILED) text_ = static_cast<const char*>(range);
    if (!ok && text_) {
      ::munmap(const_cast<char*>(text_), reserved_);
      text_ = nullptr;
    }
  }
  VirtualText(const VirtualText&) = delete;
  VirtualText& operator=(const VirtualText&) = delete;
  ~VirtualText() {
    if (text_) ::munmap(const_cast<char*>(text_), reserved_);
  }
  explicit operator bool() const { return text_ != nullptr; }
  std::string_view view() const { return {text_, length_}; }

 private:
  std::size_t length_, reserved_ = 0;
  const char* text_ = nullptr;
};

/// While alive, a GMP allocation of more than `cap` bytes prints what was
/// asked and aborts the process. The functions forward to the ones GMP had.
class GmpAllocationCap {
 public:
  explicit GmpAllocationCap(std::size_t cap) {
    mp_get_memory_functions(&alloc_, &realloc_, &free_);
    cap_ = cap;
    mp_set_memory_functions(capped_alloc, capped_realloc, free_);
  }
  GmpAllocationCap(const GmpAllocationCap&) = delete;
  GmpAllocationCap& operator=(const GmpAllocationCap&) = delete;
  ~GmpAllocationCap() { mp_set_memory_functions(alloc_, realloc_, free_); }

 private:
  static void check(std::size_t bytes) {
    if (bytes <= cap_) return;
    std::fprintf(stderr, "GmpAllocationCap: GMP asked for %zu bytes (cap %zu): the operation was not refused\n",
                 bytes, cap_);
    std::abort();
  }
  static void* capped_alloc(std::size_t bytes) {
    check(bytes);
    return alloc_(bytes);
  }
  static void* capped_realloc(void* p, std::size_t old_bytes, std::size_t bytes) {
    check(bytes);
    return realloc_(p, old_bytes, bytes);
  }
  static inline void* (*alloc_)(std::size_t) = nullptr;
  static inline void* (*realloc_)(void*, std::size_t, std::size_t) = nullptr;
  static inline void (*free_)(void*, std::size_t) = nullptr;
  static inline std::size_t cap_ = 0;
};

}  // namespace mpgpu_test
