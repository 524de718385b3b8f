// GMP's half-gcd, which the huge gcd (integer_gcd.cpp) uses for the parts
// small enough for the host. GMP exports it from libgmp (as __gmpn_hgcd,
// __gmpn_hgcd2, ...) but declares it only in its internal gmp-impl.h, so the
// declarations are repeated here; the matrix layout has been the same from
// GMP 5.0 to 6.3. The symbols are weak: a libgmp without them (another
// build, mini-gmp) leaves them null, and then the huge gcd is not used
// (half_gcd_available()). Exactness does not depend on GMP's internals:
// integer_gcd.cpp checks what it receives (see there) and falls back to
// mpz_gcd / mpz_gcdext when a check fails. Private to the library; host only.
#pragma once

#include <gmp.h>

namespace mpgpu::detail {

/// struct hgcd_matrix of gmp-impl.h: (a; b) = M (alpha; beta), entries of
/// n limbs (not normalized) at p[i][j], det M = 1, entries >= 0.
struct GmpHgcdMatrix {
  mp_size_t alloc;
  mp_size_t n;
  mp_ptr p[2][2];
};
/// struct hgcd_matrix1: the same with one-limb entries.
struct GmpHgcdMatrix1 {
  mp_limb_t u[2][2];
};

/// Limbs for GmpHgcdMatrix storage of an n-limb half-gcd
/// (MPN_HGCD_MATRIX_INIT_ITCH).
inline mp_size_t gmp_hgcd_matrix_limbs(mp_size_t n) { return 4 * ((n + 1) / 2 + 1); }

}  // namespace mpgpu::detail

extern "C" {
mp_size_t __gmpn_hgcd_itch(mp_size_t n) __attribute__((weak));
void __gmpn_hgcd_matrix_init(mpgpu::detail::GmpHgcdMatrix* m, mp_size_t n, mp_ptr storage) __attribute__((weak));
/// Reduces (a, b) (n limbs each, one of the top limbs nonzero) in place
/// until |a - b| fits in n/2 + 1 limbs; returns the new size, 0 when no
/// reduction is possible.
mp_size_t __gmpn_hgcd(mp_ptr a, mp_ptr b, mp_size_t n, mpgpu::detail::GmpHgcdMatrix* m, mp_ptr scratch)
    __attribute__((weak));
/// The half-gcd of the top two limbs (ah:al, bh:bl; one of ah, bh with its
/// high bit set): 1 and a one-limb matrix if it reduced, 0 otherwise.
int __gmpn_hgcd2(mp_limb_t ah, mp_limb_t al, mp_limb_t bh, mp_limb_t bl, mpgpu::detail::GmpHgcdMatrix1* m)
    __attribute__((weak));
}

namespace mpgpu::detail {

inline bool half_gcd_available() {
  return __gmpn_hgcd_itch != nullptr && __gmpn_hgcd_matrix_init != nullptr && __gmpn_hgcd != nullptr &&
         __gmpn_hgcd2 != nullptr;
}

}  // namespace mpgpu::detail
