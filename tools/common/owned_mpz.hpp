// An owned mpz_t for the command-line tool and the benchmarks (GMP's own type
// is an array and does not fit containers or return values).
#pragma once

#include <gmp.h>

namespace mpgpu::tools {

class Mpz {
 public:
  Mpz() { mpz_init(v_); }
  Mpz(const Mpz&) = delete;
  Mpz& operator=(const Mpz&) = delete;
  Mpz(Mpz&& o) noexcept {
    mpz_init(v_);
    mpz_swap(v_, o.v_);
  }
  ~Mpz() { mpz_clear(v_); }
  mpz_ptr get() { return v_; }
  mpz_srcptr get() const { return v_; }

 private:
  mpz_t v_;
};

}  // namespace mpgpu::tools
