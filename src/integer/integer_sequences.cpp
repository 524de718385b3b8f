// Factorials, binomial coefficients, Fibonacci and Lucas numbers. The CPU
// context calls GMP. A CUDA context computes results of
// kDeviceSequenceMinLimbs limbs or more with detail::fib_lucas_doubling and
// detail::range_product, whose large steps run on the device.
#include <algorithm>
#include <bit>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "context/context_state.hpp"
#include "context/host_parallel.hpp"
#include "integer_host_gmp.hpp"
#include "integer_whole.hpp"
#include "prime_sieve.hpp"

namespace mpgpu {

using detail::HostOperand;
using detail::HostResult;

namespace {

std::string where(const char* op) { return std::string("mpgpu::") + op + ": "; }

/// log2(n!) = lgamma(n + 1) / ln 2.
double log2_factorial(std::uint64_t n) { return std::lgamma(static_cast<double>(n) + 1) / std::log(2.0); }

bool on_device(const Context& ctx, double bits) {
  return ctx.is_cuda() && bits / 64 >= static_cast<double>(kDeviceSequenceMinLimbs);
}

/// The leaves' size, in limbs, for a product tree of about `bits` bits
/// (kSequenceLeavesPerThread; ctx's sequence_leaf_limbs, if set, instead).
std::size_t leaf_limbs_for(const Context& ctx, double bits) {
  if (const std::size_t fixed = detail::ContextAccess::state(ctx).tuning.sequence_leaf_limbs) return fixed;
  const double leaves = static_cast<double>(kSequenceLeavesPerThread * detail::host_thread_count());
  const double limbs = bits / 64 / leaves;
  return static_cast<std::size_t>(std::clamp(limbs, static_cast<double>(kDeviceSequenceMinLimbs),
                                             static_cast<double>(kSequenceLeafMaxLimbs)));
}

/// z = lo (lo + 1) ... (hi - 1) by GMP, for lo < hi: factors packed into a
/// word while they fit, then a balanced tree of mpz_mul (subquadratic).
void host_range_product(mpz_ptr z, std::uint64_t lo, std::uint64_t hi) {
  if (hi - lo <= 16) {
    mpz_set_ui(z, 1);
    unsigned __int128 word = 1;
    for (std::uint64_t i = lo; i < hi; ++i) {
      if (word * i >> 64) {
        mpz_mul_ui(z, z, static_cast<unsigned long>(word));
        word = 1;
      }
      word *= i;
    }
    mpz_mul_ui(z, z, static_cast<unsigned long>(word));
    return;
  }
  const std::uint64_t mid = lo + (hi - lo) / 2;
  mpz_t upper;
  mpz_init(upper);
  host_range_product(z, lo, mid);
  host_range_product(upper, mid, hi);
  mpz_mul(z, z, upper);
  mpz_clear(upper);
}

/// z = words[0] words[1] ... words[count - 1] (count >= 1) by GMP: a
/// balanced tree of mpz_mul over products of a few words.
void host_word_product(mpz_ptr z, const std::uint64_t* words, std::size_t count) {
  if (count <= 16) {
    mpz_set_ui(z, 1);
    for (std::size_t i = 0; i < count; ++i) mpz_mul_ui(z, z, static_cast<unsigned long>(words[i]));
    return;
  }
  mpz_t upper;
  mpz_init(upper);
  host_word_product(z, words, count / 2);
  host_word_product(upper, words + count / 2, count - count / 2);
  mpz_mul(z, z, upper);
  mpz_clear(upper);
}

/// r = the product of `count` >= 1 leaves: leaf(z, i) makes leaf i with GMP
/// on host threads, while the calling thread multiplies the leaves already
/// made in ctx, in leaf order, as a binary counter: a product of 2^h leaves
/// meets its left neighbour of 2^h leaves as soon as both exist, so each
/// product's operands have about the same size and the small device
/// products overlap the host's leaves. The remaining partial products
/// (2^h leaves each, h decreasing) are multiplied from the smallest up.
template <class Leaf>
void product_of_leaves(Integer& r, std::size_t count, Leaf leaf, const Context& ctx, Stream s) {
  std::vector<__mpz_struct> host(count);
  for (auto& z : host) mpz_init(&z);
  struct Clear {
    std::vector<__mpz_struct>& v;
    ~Clear() {
      for (auto& z : v) mpz_clear(&z);
    }
  } clear{host};
  std::vector<Integer> partial;  // partial[j]: the product of 2^heights[j] leaves, heights decreasing
  std::vector<int> heights;
  detail::parallel_for_in_order(
      count, [&](std::size_t i) { leaf(&host[i], i); },
      [&](std::size_t i) {
        Integer v = Integer::from_mpz(&host[i], ctx);
        mpz_realloc2(&host[i], 0);  // frees the host copy early
        int h = 0;
        for (; !heights.empty() && heights.back() == h; ++h) {
          Integer up(ctx);
          mul(up, partial.back(), v, s);
          v = std::move(up);
          partial.pop_back();
          heights.pop_back();
        }
        partial.push_back(std::move(v));
        heights.push_back(h);
      });
  while (partial.size() > 1) {
    Integer up(ctx);
    mul(up, partial[partial.size() - 2], partial.back(), s);
    partial.pop_back();
    partial.back() = std::move(up);
  }
  r = std::move(partial[0]);
}

/// q = n / d for d dividing n, d > 0, through the top bits only: with sh
/// chosen so that (q + 2) 2^sh < d, q = floor((floor(n / 2^sh) + 1) /
/// floor(d / 2^sh)) (both truncations move the quotient by less than one,
/// in opposite directions, and the + 1 puts it on the right side).
void divexact_by_top_bits(Integer& q, const Integer& n, const Integer& d, Stream s) {
  const std::uint64_t nbits = sizeinbase2(n, s), dbits = sizeinbase2(d, s);
  const std::uint64_t qbits = nbits - dbits + 2;  // q + 2 < 2^qbits
  if (dbits <= qbits + 2) {
    divexact(q, n, d, s);
    return;
  }
  const std::uint64_t sh = dbits - qbits - 2;
  Integer nt(n.context()), dt(n.context());
  tdiv_q_2exp(nt, n, sh, s);
  tdiv_q_2exp(dt, d, sh, s);
  add(nt, nt, Integer(1, n.context()), s);
  tdiv_q(q, nt, dt, s);
}

}  // namespace

namespace detail {

void fib_lucas_doubling(Integer* fib, Integer* luc, std::uint64_t n, std::size_t host_max_limbs,
                        const Context& ctx, Stream s) {
  // F(m) < 2^(0.6943 m): the doubling starts from the largest m = n >> j
  // whose pair stays below host_max_limbs.
  int j = 0;
  while ((n >> j) > 1 && static_cast<double>(n >> j) * 0.6943 > 64.0 * static_cast<double>(host_max_limbs)) ++j;
  std::uint64_t m = n >> j;
  if (j == 0 || m == 0) {
    HostResult f, g;
    if (fib) mpz_fib_ui(f, n);
    if (luc) mpz_lucnum_ui(g, n);
    if (fib) *fib = f.take(ctx, s);
    if (luc) *luc = g.take(ctx, s);
    return;
  }
  Integer fm(ctx), fm1(ctx);  // F(m), F(m-1)
  {
    HostResult f, g;
    mpz_fib2_ui(f, g, m);
    fm = f.take(ctx, s);
    fm1 = g.take(ctx, s);
  }
  const Integer one(1, ctx), two(2, ctx);
  Integer a(ctx), b(ctx), next(ctx);
  for (int bit = j - 1; bit >= 1; --bit) {
    // F(2m+1) = 4F(m)^2 - F(m-1)^2 + 2(-1)^m, F(2m-1) = F(m)^2 + F(m-1)^2,
    // F(2m) = F(2m+1) - F(2m-1).
    sqr(a, fm, s);
    sqr(b, fm1, s);
    add(fm1, a, b, s);  // F(2m-1)
    mul_2exp(a, a, 2, s);
    sub(a, a, b, s);
    if (m & 1) sub(a, a, two, s);
    else add(a, a, two, s);  // a = F(2m+1)
    sub(next, a, fm1, s);    // F(2m)
    if ((n >> bit) & 1) {
      fm = std::move(a);      // F(2m+1)
      fm1 = std::move(next);  // F(2m)
      m = 2 * m + 1;
    } else {
      fm = std::move(next);  // F(2m); fm1 = F(2m-1) already
      m = 2 * m;
    }
    a = Integer(ctx);
    next = Integer(ctx);
  }
  // The last step, the largest, as one product (or square) of two numbers
  // of its operands' size instead of two squares: with L(m) = F(m) +
  // 2F(m-1) and L(m+1) = 3F(m) + F(m-1),
  //   F(2m) = F(m) L(m),  F(2m+1) = (2F(m) + F(m-1)) (2F(m) - F(m-1)) + 2(-1)^m,
  //   L(2m) = L(m)^2 - 2(-1)^m,  L(2m+1) = L(m) L(m+1) - (-1)^m.
  const bool odd_n = n & 1;
  const bool odd_m = m & 1;
  if (fib) {
    Integer f(ctx);
    if (odd_n) {
      mul_2exp(a, fm, 1, s);
      add(b, a, fm1, s);
      sub(a, a, fm1, s);
      mul(f, a, b, s);
      if (odd_m) sub(f, f, two, s);
      else add(f, f, two, s);
    } else {
      mul_2exp(a, fm1, 1, s);
      add(a, a, fm, s);  // L(m)
      mul(f, fm, a, s);
    }
    if (!luc) {
      *fib = std::move(f);
      return;
    }
    next = std::move(f);  // F(n), kept until L(n) is done
  }
  Integer l(ctx);
  mul_2exp(a, fm1, 1, s);
  add(a, a, fm, s);  // L(m)
  if (odd_n) {
    mul_2exp(b, fm, 1, s);
    add(b, b, fm, s);
    add(b, b, fm1, s);  // L(m+1)
    mul(l, a, b, s);
    if (odd_m) add(l, l, one, s);
    else sub(l, l, one, s);
  } else {
    sqr(l, a, s);
    if (odd_m) add(l, l, two, s);
    else sub(l, l, two, s);
  }
  *luc = std::move(l);
  if (fib) *fib = std::move(next);
}

void range_product(Integer& r, std::uint64_t lo, std::uint64_t hi, std::size_t leaf_limbs, const Context& ctx,
                   Stream s) {
  if (lo >= hi) {
    r = Integer(1, ctx);
    return;
  }
  if (lo == 0) {
    r = Integer(0, ctx);
    return;
  }
  // Leaves of about leaf_limbs limbs: a factor i adds log2(i) bits; the
  // count is estimated at the start of the leaf, then at its middle.
  const double leaf_bits = 64.0 * static_cast<double>(std::max<std::size_t>(leaf_limbs, 1));
  std::vector<std::pair<std::uint64_t, std::uint64_t>> leaves;
  for (std::uint64_t begin = lo; begin < hi;) {
    double count = leaf_bits / std::max(1.0, std::log2(static_cast<double>(begin) + 1));
    count = leaf_bits / std::max(1.0, std::log2(static_cast<double>(begin) + count / 2 + 1));
    const auto whole = static_cast<std::uint64_t>(std::max(1.0, count));
    const std::uint64_t end = hi - begin <= whole ? hi : begin + whole;
    leaves.emplace_back(begin, end);
    begin = end;
  }
  product_of_leaves(
      r, leaves.size(), [&](mpz_ptr z, std::size_t i) { host_range_product(z, leaves[i].first, leaves[i].second); },
      ctx, s);
}

void binomial_by_primes(Integer& r, std::uint64_t n, std::uint64_t k, std::size_t leaf_limbs, const Context& ctx,
                        Stream s) {
  if (k > n) {
    r = Integer(0, ctx);
    return;
  }
  // The exponent of a prime p in binomial(n, k) is the number of borrows
  // when k is subtracted from n in base p (Kummer), and p^e <= n: every
  // prime power is one word. Above sqrt(n), n has two digits in base p and
  // n >= k, so the exponent is 1 exactly when n mod p < k mod p. The odd
  // primes come from a segmented sieve, a segment per task on host threads;
  // each task multiplies its prime powers into words while the product
  // fits 64 bits (at n = 2 * 10^7 most are primes of 24 bits: two a word).
  const std::uint64_t root = detail::isqrt_u64(n);
  const std::vector<std::uint32_t> sieving = detail::odd_primes_up_to(static_cast<std::uint32_t>(root));
  constexpr std::uint64_t span = kPrimeSieveSegmentNumbers;
  static_assert(span % 2 == 0, "segments start at even numbers");
  const std::size_t segments = n / span + 1;  // [i span, (i + 1) span) for i < segments covers [0, n]
  std::vector<std::vector<std::uint64_t>> words(segments);
  std::vector<std::uint64_t> ends(segments + 1);  // ends[i + 1]: the bits of segment i's words, then a prefix sum
  detail::parallel_for(segments, [&](std::size_t i) {
    std::vector<unsigned char> bytes;
    std::vector<std::uint64_t>& out = words[i];
    std::uint64_t word = 1, bits = 0;
    auto multiply = [&](std::uint64_t power) {
      if (static_cast<unsigned __int128>(word) * power >> 64) {
        out.push_back(word);
        bits += std::bit_width(word);
        word = 1;
      }
      word *= power;
    };
    const std::uint64_t lo = i * span, hi = std::min(n + 1, lo + span);  // n < 2^63: n + 1 does not wrap
    detail::for_each_odd_prime_in(lo, hi, sieving, bytes, [&](std::uint64_t p) {
      if (p > root) {
        if (n % p < k % p) multiply(p);
        return;
      }
      std::uint64_t power = 1, a = n, b = k;
      bool borrow = false;
      while (a) {
        borrow = a % p < b % p + borrow;
        if (borrow) power *= p;
        a /= p;
        b /= p;
      }
      multiply(power);
    });
    if (word > 1) {
      out.push_back(word);
      bits += std::bit_width(word);
    }
    ends[i + 1] = bits;
  });
  // The exponent of 2: the carries of k + (n - k) in base 2.
  const int twos = std::popcount(k) + std::popcount(n - k) - std::popcount(n);
  if (twos) {
    words[0].push_back(std::uint64_t{1} << twos);  // 2^twos <= n
    ends[1] += static_cast<std::uint64_t>(twos) + 1;
  }
  for (std::size_t i = 0; i < segments; ++i) ends[i + 1] += ends[i];
  const std::uint64_t total = ends[segments];
  if (total == 0) {
    r = Integer(1, ctx);
    return;
  }

  // Leaf j holds the words that end, in the concatenation of the segments'
  // words, at a bit in (j L, min((j + 1) L, total)], L = leaf_bits. Words
  // have at most 64 <= L bits, so no leaf is empty; each leaf task finds its
  // words itself, scanning only the segments it overlaps.
  const std::uint64_t leaf_bits = 64 * std::max<std::size_t>(leaf_limbs, 1);
  product_of_leaves(
      r, static_cast<std::size_t>((total + leaf_bits - 1) / leaf_bits),
      [&](mpz_ptr z, std::size_t leaf) {
        const std::uint64_t from = leaf * leaf_bits, to = std::min(from + leaf_bits, total);
        std::vector<std::uint64_t> run;
        // The last segment whose words start at or before bit `from`.
        auto seg = static_cast<std::size_t>(std::upper_bound(ends.begin(), ends.end(), from) - ends.begin()) - 1;
        for (; seg < segments && ends[seg] < to; ++seg) {
          std::uint64_t end = ends[seg];
          for (const std::uint64_t w : words[seg]) {
            end += std::bit_width(w);
            if (end > to) break;
            if (end > from) run.push_back(w);
          }
        }
        host_word_product(z, run.data(), run.size());
      },
      ctx, s);
}

void binomial_by_products(Integer& r, std::uint64_t n, std::uint64_t k, std::size_t leaf_limbs, const Context& ctx,
                          Stream s) {
  if (k == 0) {
    r = Integer(1, ctx);
    return;
  }
  Integer numerator(ctx), denominator(ctx);
  range_product(numerator, n - k + 1, n, leaf_limbs, ctx, s);  // n + 1 may wrap: n comes apart
  mul(numerator, numerator, Integer(n, ctx), s);
  range_product(denominator, 1, k + 1, leaf_limbs, ctx, s);
  divexact_by_top_bits(r, numerator, denominator, s);
}

}  // namespace detail

void fac_ui(Integer& r, std::uint64_t n, Stream s) {
  const Context& ctx = r.context();
  const double bits = n > 20 ? log2_factorial(n) + 64 : 64;
  detail::require_host_bits("fac_ui", bits);
  if (on_device(ctx, bits)) return detail::range_product(r, 1, n + 1, leaf_limbs_for(ctx, bits), ctx, s);
  HostResult z;
  mpz_fac_ui(z, n);
  r = z.take(ctx, s);
}

namespace {

/// F(n) (lucas false) or L(n): both below 2^(0.6943 n + 1), since
/// log2(phi) < 0.6943 and L(n) < phi^n + 1.
void fibonacci_or_lucas(Integer& r, std::uint64_t n, bool lucas, Stream s) {
  const double bits = static_cast<double>(n) * 0.6943 + 64;
  detail::require_host_bits(lucas ? "lucnum_ui" : "fib_ui", bits);
  const Context& ctx = r.context();
  if (on_device(ctx, bits))
    return detail::fib_lucas_doubling(lucas ? nullptr : &r, lucas ? &r : nullptr, n, kDeviceSequenceMinLimbs, ctx, s);
  // GMP reserves MPN_FIB2_SIZE(n) = n/32 * 23/64 + 4 limbs (about 3.5%
  // more than the result) for each of its two working values.
  detail::require_gmp_room(lucas ? "lucnum_ui" : "fib_ui", n / 32 * 23 / 64 + 4 + 10,
                           [n] { return "F(" + std::to_string(n) + ")"; });
  HostResult z;
  if (lucas) mpz_lucnum_ui(z, n);
  else mpz_fib_ui(z, n);
  r = z.take(ctx, s);
}

}  // namespace

void fib_ui(Integer& r, std::uint64_t n, Stream s) { fibonacci_or_lucas(r, n, false, s); }

void lucnum_ui(Integer& r, std::uint64_t n, Stream s) { fibonacci_or_lucas(r, n, true, s); }

void bin_uiui(Integer& r, std::uint64_t n, std::uint64_t k, Stream s) {
  const Context& ctx = r.context();
  if (k > n) {
    r = Integer(0, ctx);
    return;
  }
  k = std::min(k, n - k);
  const double bits = log2_factorial(n) - log2_factorial(k) - log2_factorial(n - k) + 64;
  detail::require_host_bits("bin_uiui", bits);
  if (!on_device(ctx, bits)) {
    HostResult z;
    mpz_bin_uiui(z, n, k);
    r = z.take(ctx, s);
    return;
  }
  // By primes while sieving up to n costs little next to the result (the
  // products of n - k + 1 .. n and of 1 .. k are about log2(n) times larger
  // than it); by those products for a large n and a small k.
  if (static_cast<double>(n) <= 64.0 * bits) {
    detail::binomial_by_primes(r, n, k, leaf_limbs_for(ctx, bits), ctx, s);
  } else {  // the numerator's product: about k log2(n) bits
    const double numerator_bits = static_cast<double>(k) * std::log2(static_cast<double>(n));
    detail::binomial_by_products(r, n, k, leaf_limbs_for(ctx, numerator_bits), ctx, s);
  }
}

void bin_ui(Integer& r, const Integer& n, std::uint64_t k, Stream s) {
  const Context& ctx = n.context();
  if (n.sign() >= 0 && n.fits_uint64()) {
    Integer out(ctx);
    bin_uiui(out, n.to_uint64(), k, s);
    r = std::move(out);
    return;
  }
  if (n.sign() < 0 && n.fits_int64() && k < (std::uint64_t{1} << 62) && n.to_int64() > -(std::int64_t{1} << 62)) {
    // binomial(n, k) = (-1)^k binomial(k - n - 1, k) for n < 0.
    Integer out(ctx);
    bin_uiui(out, k + static_cast<std::uint64_t>(-n.to_int64()) - 1, k, s);
    if (k & 1) out.negate();
    r = std::move(out);
    return;
  }
  detail::wait_for_caller_stream(ctx, s);
  HostOperand hn(n);
  if (k > 1 && mpz_sizeinbase(hn, 2) * static_cast<double>(k) > detail::kHostGmpMaxBits)
    throw Overflow(where("bin_ui") + "the result would exceed host GMP's size limit");
  HostResult z;
  mpz_bin_ui(z, hn, k);
  r = z.take(ctx, s);
}

}  // namespace mpgpu
