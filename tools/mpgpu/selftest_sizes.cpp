#include "selftest_sizes.hpp"

#include <algorithm>
#include <bit>

#include "mpgpu/batch.hpp"
#include "mpgpu/integer.hpp"
#include "mpgpu/integer_crossovers.hpp"
#include "mpgpu/tuning.hpp"

namespace mpgpu::cli::selftest {

namespace {

// Limits documented in docs/integer.md that live in src/ (not a public
// header); keep them in step with the files named.
constexpr std::size_t kShortColumnsMaxLimbs = 32;         // mul_short_columns_kernel: nb <= 32
constexpr std::size_t kColumnsMaxLimbs = 8192;            // mul_columns_warp_kernel: nb <= 8192
// na with nb = 8192 at the tuning table's schoolbook bound (na * nb).
constexpr std::size_t kColumnsWorkLimbs = tuning::table::kSchoolbookMaxWork / kColumnsMaxLimbs;
constexpr std::size_t kDivScanTileLimbs = 4096;           // src/cuda/div_limb.cu: a tile per block
constexpr std::size_t kDivScanThreadLimbs = 16;           // and 16 limbs a thread
// The tuning table's radix crossover and leaves (src/integer/integer_radix.hpp).
constexpr std::size_t kRadixDeviceMinLimbs = tuning::table::kRadixDeviceMinLimbs;
constexpr std::size_t kRadixToStringLeafLimbs = tuning::table::kRadixToStringLeafLimbs;
constexpr std::size_t kRadixFromStringLeafLimbs = tuning::table::kRadixFromStringLeafLimbs;

}  // namespace

const std::vector<Crossover>& crossovers(Area area) {
  static const std::vector<Crossover> linear = {
      {"kHostValueMaxLimbs", kHostValueMaxLimbs},
      {"scan tile (4096 limbs)", kDivScanTileLimbs},
      {"a warp of limbs", 32},
  };
  static const std::vector<Crossover> product = {
      {"short columns (nb <= 32)", kShortColumnsMaxLimbs},
      {"kHostProductMaxLimbs / 2", kHostProductMaxLimbs / 2},
      {"kHostProductMaxLimbs", kHostProductMaxLimbs},
      {"kDeviceProductMinLimbs / 2", kDeviceProductMinLimbs / 2},
      {"columns (nb <= 8192)", kColumnsMaxLimbs},
      {"columns (na * nb <= schoolbook bound)", kColumnsWorkLimbs},
  };
  static const std::vector<Crossover> division = {
      {"one limb", 1},
      {"scan thread (16 limbs)", kDivScanThreadLimbs},
      {"kDeviceDivisionMinLimbs", kDeviceDivisionMinLimbs},
      {"scan tile (4096 limbs)", kDivScanTileLimbs},
  };
  static const std::vector<Crossover> power = {{"kDevicePowerMinLimbs", kDevicePowerMinLimbs}};
  static const std::vector<Crossover> sqrt = {{"kDeviceSqrtMinLimbs", kDeviceSqrtMinLimbs}};
  static const std::vector<Crossover> root = {{"kDeviceRootMinLimbs", kDeviceRootMinLimbs}};
  static const std::vector<Crossover> gcd = {
      {"kHostHalfGcdMaxLimbs", kHostHalfGcdMaxLimbs},
      {"kDeviceGcdMinLimbs", kDeviceGcdMinLimbs},
  };
  static const std::vector<Crossover> radix = {
      {"radix from_string leaf", kRadixFromStringLeafLimbs},
      {"radix to_string leaf", kRadixToStringLeafLimbs},
      {"kRadixDeviceMinLimbs", kRadixDeviceMinLimbs},
  };
  static const std::vector<Crossover> sequence = {{"kDeviceSequenceMinLimbs", kDeviceSequenceMinLimbs}};
  switch (area) {
    case Area::linear: return linear;
    case Area::product: return product;
    case Area::division: return division;
    case Area::power: return power;
    case Area::sqrt: return sqrt;
    case Area::root: return root;
    case Area::gcd: return gcd;
    case Area::radix: return radix;
    case Area::sequence: return sequence;
  }
  return linear;
}

std::uint64_t pick_bits(CaseRng& rng, Area area, std::size_t max_limbs) {
  max_limbs = std::max<std::size_t>(max_limbs, 1);
  auto whole_or_partial = [&](std::uint64_t limbs) -> std::uint64_t {
    limbs = std::max<std::uint64_t>(limbs, 1);
    return rng.coin() ? 64 * limbs : 64 * limbs - rng.below(64);
  };
  const std::uint64_t r = rng.below(8);
  if (r < 2) return rng.between(1, 192);
  if (r < 4) return whole_or_partial(rng.log_uniform(max_limbs));
  if (r < 6) {
    const std::vector<Crossover>& list = crossovers(area);
    const std::int64_t at = static_cast<std::int64_t>(list[rng.below(list.size())].limbs);
    const std::int64_t delta = static_cast<std::int64_t>(rng.below(5)) - 2;  // -2..2
    return whole_or_partial(static_cast<std::uint64_t>(std::max<std::int64_t>(1, at + delta)));
  }
  const unsigned top = static_cast<unsigned>(std::bit_width(max_limbs) - 1);
  const std::uint64_t p = std::uint64_t{1} << rng.below(top + 1);
  const std::uint64_t limbs = p + (rng.below(3) == 0 ? 1 : 0) - (p > 1 && rng.below(3) == 0 ? 1 : 0);
  return whole_or_partial(limbs);
}

const std::vector<std::uint64_t>& batch_class_edges() {
  static const std::vector<std::uint64_t> edges = [] {
    std::vector<std::uint64_t> e;
    for (std::uint64_t bits = 1; bits < Batch::max_bits; ++bits)
      if (batch_stride_limbs(bits) != batch_stride_limbs(bits + 1)) e.push_back(bits);
    e.push_back(Batch::max_bits);
    return e;
  }();
  return edges;
}

std::uint64_t pick_batch_bits(CaseRng& rng, std::uint64_t max_bits) {
  const std::uint64_t r = rng.below(4);
  if (r == 0) return std::min<std::uint64_t>(max_bits, rng.between(1, 130));
  if (r == 3) return rng.log_uniform(max_bits);
  std::vector<std::uint64_t> edges;
  for (std::uint64_t e : batch_class_edges())
    if (e <= max_bits) edges.push_back(e);
  if (edges.empty()) return rng.between(1, max_bits);
  const std::uint64_t e = edges[rng.below(edges.size())];
  // The class's last width (half of the time), one more (the next class's
  // first), or one less.
  const std::uint64_t pick = rng.below(4);
  if (pick == 0 && e < max_bits) return e + 1;
  if (pick == 1 && e > 64) return e - 1;
  return e;
}

}  // namespace mpgpu::cli::selftest
