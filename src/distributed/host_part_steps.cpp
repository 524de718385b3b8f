// PartSteps over CPU parts (part_steps.hpp): host loops.
#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>

#include "distributed/part_steps.hpp"
#include "mpgpu/field/prime_field64.cuh"
#include "mpgpu/field/primes.hpp"
#include "mpgpu/error.hpp"
#include "mpgpu/ntt/crt_many.cuh"

namespace mpgpu::distributed {

namespace {

using u128 = unsigned __int128;

class HostPartSteps final : public PartSteps {
 public:
  std::uint64_t* allocate(std::size_t, std::size_t words) override {
    std::vector<std::uint64_t> v(std::max<std::size_t>(words, 1), 0);
    std::uint64_t* p = v.data();
    buffers_.emplace(p, std::move(v));
    return p;
  }
  void release(std::size_t, std::uint64_t* p) override { buffers_.erase(p); }
  void copy_rects(std::size_t, std::uint64_t* dst, const std::uint64_t* src, const std::vector<Rect>& rects) override {
    for (const Rect& r : rects)
      for (std::size_t i = 0; i < r.rows; ++i)
        for (std::size_t j = 0; j < r.columns; ++j)
          dst[r.to.offset + i * r.to.row_stride + j * r.to.col_stride] =
              src[r.from.offset + i * r.from.row_stride + j * r.from.col_stride];
  }
  void twiddles(std::size_t, std::uint64_t* dst, std::size_t first, std::size_t columns, std::size_t n2,
                std::uint64_t w, std::uint64_t p) override {
    const field::PrimeField64 f = field::PrimeField64::make(p);
    const std::uint64_t mask = root_order_mask(f, w);
    for (std::size_t i = 0; i < columns * n2; ++i) dst[i] = twiddle_word(f, w, mask, first, n2, i);
  }
  void pointwise_mul(std::size_t, std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b, std::size_t n,
                     std::uint64_t p) override {
    const field::PrimeField64 f = field::PrimeField64::make(p);
    for (std::size_t i = 0; i < n; ++i) out[i] = f.mul(a[i], b[i]);
  }
  void reduce(std::size_t, std::uint64_t* dst, const std::uint64_t* src, std::size_t columns, std::size_t n2,
              std::size_t d, std::uint64_t p) override {
    const std::uint64_t radix = static_cast<std::uint64_t>((static_cast<u128>(1) << 64) % p);  // 2^64 mod p
    for (std::size_t c = 0; c < columns; ++c)
      for (std::size_t j = 0; j < n2; ++j) dst[c * n2 + j] = digit_residue(src, c, j, n2, d, p, radix);
  }
  void crt_sum(std::size_t, std::uint64_t* acc, const std::vector<const std::uint64_t*>& r, std::size_t n,
               std::size_t d) override {
    // Digits of 1, 2 and 4 limbs take 3, 5 and 9 primes: P = 2 d + 1, the coefficient's limbs too.
    if (r.size() != 2 * d + 1) throw InvalidArgument("crt_sum: " + std::to_string(r.size()) + " primes for digits of " +
                                                     std::to_string(d) + " limbs");
    switch (d) {
      case 1: return crt_sum_of<3>(acc, r, n);
      case 2: return crt_sum_of<5>(acc, r, n);
      case 4: return crt_sum_of<9>(acc, r, n);
      default: throw InvalidArgument("crt_sum: digits of " + std::to_string(d) + " limbs; 1, 2 or 4 are made");
    }
  }
  std::pair<bool, bool> add_incoming(std::size_t, std::uint64_t* acc, std::size_t n, const std::uint64_t* in,
                                     std::size_t m) override {
    unsigned carry = 0;
    for (std::size_t j = 0; j < n && (j < m || carry); ++j) {
      const u128 s = static_cast<u128>(acc[j]) + (j < m ? in[j] : 0) + carry;
      acc[j] = static_cast<std::uint64_t>(s);
      carry = static_cast<unsigned>(s >> 64);
    }
    return {carry != 0, std::all_of(acc, acc + n, [](std::uint64_t v) { return v == ~std::uint64_t{0}; })};
  }
  void add_one(std::size_t, std::uint64_t* acc, std::size_t n) override {
    for (std::size_t j = 0; j < n && ++acc[j] == 0; ++j) {
    }
  }
  void copy(std::size_t, std::uint64_t* dst, const std::uint64_t* src, std::size_t n) override {
    if (n != 0) std::memmove(dst, src, n * sizeof(std::uint64_t));
  }
  void to_host(std::size_t g, std::uint64_t* host, const std::uint64_t* src, std::size_t n) override {
    copy(g, host, src, n);
  }
  void from_host(std::size_t g, std::uint64_t* dst, const std::uint64_t* host, std::size_t n) override {
    copy(g, dst, host, n);
  }

 private:
  /// P primes, coefficients of P = 2 d + 1 limbs.
  template <int P>
  static void crt_sum_of(std::uint64_t* acc, const std::vector<const std::uint64_t*>& r, std::size_t n) {
    constexpr std::size_t d = (P - 1) / 2;
    const ntt::CrtMany<P> crt = ntt::CrtMany<P>::make();
    std::fill(acc, acc + n * d + d + 1, 0);
    for (std::size_t k = 0; k < n; ++k) {
      std::uint64_t residues[P], c[P];
      for (int i = 0; i < P; ++i) residues[i] = r[static_cast<std::size_t>(i)][k];
      crt.template combine<P>(residues, c);
      // The sum of c_k 2^(64 d k) over k < n is below 2^(64 (n d + d + 1)) (c_k < 2^(128 d +
      // 53)): no carry leaves acc.
      unsigned carry = 0;
      for (std::size_t j = 0; j < std::size_t{P} || carry; ++j) {
        const u128 s = static_cast<u128>(acc[k * d + j]) + (j < std::size_t{P} ? c[j] : 0) + carry;
        acc[k * d + j] = static_cast<std::uint64_t>(s);
        carry = static_cast<unsigned>(s >> 64);
      }
    }
  }

  std::unordered_map<std::uint64_t*, std::vector<std::uint64_t>> buffers_;  // by their data, which never moves
};

}  // namespace

std::unique_ptr<PartSteps> make_host_part_steps(std::size_t) { return std::make_unique<HostPartSteps>(); }

}  // namespace mpgpu::distributed
