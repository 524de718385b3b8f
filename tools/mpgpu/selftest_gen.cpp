#include "selftest_gen.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace mpgpu::cli::selftest {

namespace {

std::uint64_t splitmix(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// Sets bits [lo, hi) of out.
void set_range(limb_t* out, std::uint64_t lo, std::uint64_t hi) {
  while (lo < hi) {
    const std::size_t limb = lo / 64;
    const unsigned shift = lo % 64;
    const std::uint64_t take = std::min<std::uint64_t>(64 - shift, hi - lo);
    const limb_t mask = take == 64 ? ~limb_t{0} : ((limb_t{1} << take) - 1) << shift;
    out[limb] |= mask;
    lo += take;
  }
}

void mask_to(limb_t* out, std::size_t limbs, std::uint64_t bits) {
  const std::size_t used = (bits + 63) / 64;
  std::fill(out + used, out + limbs, limb_t{0});
  if (bits % 64) out[used - 1] &= (limb_t{1} << (bits % 64)) - 1;
}

void set_bit(limb_t* out, std::uint64_t bit) { out[bit / 64] |= limb_t{1} << (bit % 64); }

}  // namespace

CaseRng::CaseRng(std::uint64_t seed, std::uint64_t case_number) {
  std::uint64_t x = seed;
  x = splitmix(x) ^ (case_number * 0xD1B54A32D192ED03ull + 0x632BE59BD9B4E019ull);
  for (std::uint64_t& s : s_) s = splitmix(x);
}

std::uint64_t CaseRng::log_uniform(std::uint64_t max) {
  if (max <= 1) return 1;
  const unsigned e = static_cast<unsigned>(below(std::bit_width(max)));
  const std::uint64_t lo = std::uint64_t{1} << e;
  const std::uint64_t hi = std::min(max, e >= 63 ? max : (lo << 1) - 1);
  return between(lo, hi);
}

Shape random_shape(CaseRng& rng) {
  // Weights out of 16: half of the values are runs or uniform bits.
  const std::uint64_t r = rng.below(16);
  if (r < 5) return Shape::runs;
  if (r < 8) return Shape::uniform;
  if (r < 10) return Shape::all_ones;
  if (r < 11) return Shape::power_of_two;
  if (r < 12) return Shape::above_power;
  if (r < 14) return Shape::below_power;
  if (r < 15) return Shape::sparse;
  return Shape::alternating;
}

const char* shape_name(Shape s) {
  switch (s) {
    case Shape::uniform: return "uniform";
    case Shape::runs: return "runs";
    case Shape::all_ones: return "all-ones";
    case Shape::power_of_two: return "power of two";
    case Shape::above_power: return "2^k + small";
    case Shape::below_power: return "2^k - small";
    case Shape::sparse: return "sparse";
    case Shape::alternating: return "alternating";
  }
  return "?";
}

void fill_value(CaseRng& rng, limb_t* out, std::size_t limbs, std::uint64_t bits, Shape s) {
  std::fill(out, out + limbs, limb_t{0});
  if (bits == 0) return;
  const std::size_t used = (bits + 63) / 64;
  const std::uint64_t top = bits - 1;
  // A small number below 2^16 that leaves the top bit alone.
  auto small = [&] { return rng.below(std::uint64_t{1} << std::min<std::uint64_t>(16, top)); };
  switch (s) {
    case Shape::uniform:
      for (std::size_t i = 0; i < used; ++i) out[i] = rng.next();
      break;
    case Shape::runs: {
      // Alternating runs of 1s and 0s from the top bit down, their lengths
      // log-uniform up to the whole width (mpz_rrandomb's kind of value).
      std::uint64_t pos = bits;
      bool ones = true;
      while (pos > 0) {
        const std::uint64_t len = std::min(pos, rng.log_uniform(bits));
        if (ones) set_range(out, pos - len, pos);
        pos -= len;
        ones = !ones;
      }
      break;
    }
    case Shape::all_ones:
      set_range(out, 0, bits);
      break;
    case Shape::power_of_two:
      break;
    case Shape::above_power:
      out[0] = small();
      break;
    case Shape::below_power: {
      set_range(out, 0, bits);
      const limb_t r = small();  // 2^bits - 1 - r: no borrow leaves limb 0
      out[0] -= r;
      break;
    }
    case Shape::sparse:
      for (std::uint64_t k = rng.between(1, 8); k > 0; --k) set_bit(out, rng.below(bits));
      break;
    case Shape::alternating: {
      const bool words = rng.coin();
      for (std::size_t i = 0; i < used; ++i)
        out[i] = words ? (i % 2 ? ~limb_t{0} : 0) : (i % 2 ? 0xAAAAAAAAAAAAAAAAull : 0x5555555555555555ull);
      break;
    }
  }
  mask_to(out, limbs, bits);
  set_bit(out, top);
}

void random_mpz(mpz_ptr z, CaseRng& rng, std::uint64_t bits, Shape s) {
  const std::size_t limbs = std::max<std::size_t>(1, (bits + 63) / 64);
  mp_limb_t* p = mpz_limbs_write(z, static_cast<mp_size_t>(limbs));
  fill_value(rng, p, limbs, bits, s);
  mpz_limbs_finish(z, static_cast<mp_size_t>(limbs));  // normalizes
}

std::string describe_bits(std::uint64_t bits) {
  if (bits % 64 == 0 && bits > 0) return std::to_string(bits / 64) + (bits == 64 ? " limb" : " limbs");
  return std::to_string(bits) + (bits == 1 ? " bit" : " bits");
}

}  // namespace mpgpu::cli::selftest
