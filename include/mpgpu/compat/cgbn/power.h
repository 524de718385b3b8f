// CGBN's modular_power for any modulus: mpgpu's powm_sliding (Montgomery,
// sliding windows; its trip count is uniform over the lanes that
// synchronize together through uniform_max: the instance's, as the Envs
// here are WarpSync::group) when the modulus is odd and > 1, else
// left-to-right square and multiply with wide division (even moduli, 1 and
// 0; CGBN's own modular_power is a Barrett loop for any modulus).
#pragma once

#include "wide.h"

namespace mpgpu::compat::cgbn_detail {

/// r = x^e mod m for any x, e < 2^N and m > 0 (x >= m too; e = 0 gives
/// 1 mod m). m = 0: no meaning (CGBN: undefined).
template <int N, class E, class E2>
MPGPU_HD void modular_power(const E& e, const E2& e2, typename E::Num& r, const typename E::Num& x,
                            const typename E::Num& ex, const typename E::Num& m) {
  using Num = typename E::Num;
  const bool odd = mb::low_bit(e, m) != 0;
  Num one;
  mb::set_ui32(e, one, 1);
  const bool unit = mb::compare(e, m, one) <= 0;  // m = 0 or 1
  const bool general = !odd || unit;
  if (mb::uniform_max(e, general ? 1 : 0) == 0) {
    mb::Modulus<E> mod;
    mb::setup_modulus(e, mod, m);
    mb::powm_sliding(e, r, x, ex, mod);
    return;
  }
  Num q, base, acc, zero;
  mb::set_zero(e, zero);
  mb::divide(e, q, base, x, m);
  mb::divide(e, q, acc, one, m);  // 1 mod m (0 for m = 1)
  const int len = mb::uniform_max(e, mb::bit_length(e, ex));
  for (int i = len - 1; i >= 0; --i) {
    Num lo, hi, t;
    mul_wide<N>(e, lo, hi, acc, acc);
    div_rem_wide<N>(e, e2, q, acc, lo, hi, m);
    mul_wide<N>(e, lo, hi, acc, base);
    div_rem_wide<N>(e, e2, q, t, lo, hi, m);
    const bool bit = bits_ui32(e, ex, static_cast<std::uint32_t>(i), 1) != 0;
    mb::select(e, acc, bit, t, acc);
  }
  r = acc;
}

}  // namespace mpgpu::compat::cgbn_detail
