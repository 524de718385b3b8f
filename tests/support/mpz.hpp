// Mpz: an owning mpz_t for tests. GMP is the oracle every mpgpu test compares
// against; this wrapper only manages memory and prints values readably
// (short numbers in full, long ones as their size and both ends).
#pragma once

#include <gmp.h>

#include <cstdint>
#include <ostream>
#include <stdexcept>
#include <string>

namespace mpgpu_test {

class Mpz {
 public:
  Mpz() { mpz_init(z_); }
  explicit Mpz(mpz_srcptr z) { mpz_init_set(z_, z); }
  /// Parses `text` in `base` (GMP's rules); throws on bad text, since a test's
  /// own constants must never be silently wrong.
  explicit Mpz(const char* text, int base = 10) {
    if (mpz_init_set_str(z_, text, base) != 0) {
      mpz_clear(z_);
      throw std::invalid_argument(std::string("Mpz: bad constant ") + text);
    }
  }
  static Mpz from_si(long v) {
    Mpz r;
    mpz_set_si(r.z_, v);
    return r;
  }
  static Mpz from_ui(unsigned long v) {
    Mpz r;
    mpz_set_ui(r.z_, v);
    return r;
  }
  /// 2^bit
  static Mpz pow2(std::uint64_t bit) {
    Mpz r;
    mpz_setbit(r.z_, bit);
    return r;
  }
  /// 2^bits - 1
  static Mpz all_ones(std::uint64_t bits) {
    Mpz r = pow2(bits);
    mpz_sub_ui(r.z_, r.z_, 1);
    return r;
  }
  Mpz(const Mpz& o) { mpz_init_set(z_, o.z_); }
  Mpz(Mpz&& o) noexcept {
    mpz_init(z_);
    mpz_swap(z_, o.z_);
  }
  Mpz& operator=(const Mpz& o) {
    mpz_set(z_, o.z_);
    return *this;
  }
  Mpz& operator=(Mpz&& o) noexcept {
    mpz_swap(z_, o.z_);
    return *this;
  }
  ~Mpz() { mpz_clear(z_); }

  mpz_ptr get() { return z_; }
  mpz_srcptr get() const { return z_; }
  operator mpz_ptr() { return z_; }
  operator mpz_srcptr() const { return z_; }

  int sgn() const { return mpz_sgn(z_); }
  std::size_t limbs() const { return mpz_size(z_); }
  std::uint64_t bits() const { return mpz_sgn(z_) != 0 ? mpz_sizeinbase(z_, 2) : 0; }
  Mpz operator-() const {
    Mpz r;
    mpz_neg(r.z_, z_);
    return r;
  }
  Mpz abs() const {
    Mpz r;
    mpz_abs(r.z_, z_);
    return r;
  }
  std::string str(int base = 10) const {
    std::string s(mpz_sizeinbase(z_, base) + 2, '\0');
    mpz_get_str(s.data(), base, z_);
    s.resize(std::char_traits<char>::length(s.c_str()));
    return s;
  }
  /// "-0x1f", or "-(4000 bits) 0x1234567890abcdef...fedcba0987654321".
  std::string describe() const {
    const std::string hex = abs().str(16);
    const std::string sign = sgn() < 0 ? "-" : "";
    if (hex.size() <= 40) return sign + "0x" + hex;
    return sign + "(" + std::to_string(bits()) + " bits) 0x" + hex.substr(0, 16) + "..." +
           hex.substr(hex.size() - 16);
  }

  friend bool operator==(const Mpz& a, const Mpz& b) { return mpz_cmp(a.z_, b.z_) == 0; }
  friend std::ostream& operator<<(std::ostream& os, const Mpz& v) { return os << v.describe(); }

 private:
  mpz_t z_;
};

}  // namespace mpgpu_test
