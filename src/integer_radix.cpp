// Radix conversion by divide and conquer (see integer_radix.hpp).
//
// to_string: with P_k = base^(d 2^k) (d = radix_chunk_digits, P_0 < 2^64,
// P_{k+1} = P_k^2 by mpgpu::sqr), a piece x of n limbs is split as
// x = q * P_k + r (mpgpu::tdiv_qr, device Newton for big P_k) with P_k about
// half of x, so q and r have about n/2 limbs each. r is written with exactly
// d 2^k digits (leading zeros), q with the digits its parent asked for, and
// the most significant chain of q's with no padding. The leaves (at most
// leaf_limbs limbs) are copied to the host and converted by GMP, several
// host threads at once, straight into their slots of the output.
//
// from_string: the reverse. A digit string of length L is cut as
// hi | lo with lo = the last d 2^k digits (the largest such block shorter
// than L); x = hi * P_k + lo by mpgpu::mul and mpgpu::add. Leaves (at most
// d * leaf_limbs digits) are parsed by GMP on host threads, then moved into
// the context.
//
// Every operation goes through the context's own arithmetic, so the same
// code runs on the CPU backend (GMP throughout), which is how CI tests it.
#include "integer_radix.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "mpgpu/error.hpp"

namespace mpgpu::detail {

namespace {

/// Runs fn(i) for i in [0, count) on up to hardware_concurrency host threads.
/// The first exception is rethrown after all threads have stopped.
template <class Fn>
void parallel_for(std::size_t count, Fn fn) {
  const std::size_t threads =
      std::min<std::size_t>(count, std::max(1u, std::min(16u, std::thread::hardware_concurrency())));
  if (threads <= 1) {
    for (std::size_t i = 0; i < count; ++i) fn(i);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto worker = [&] {
    for (;;) {
      const std::size_t i = next.fetch_add(1);
      if (i >= count) return;
      try {
        fn(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
        next.store(count);
      }
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

/// An mpz_t that frees itself.
struct HostMpz {
  mpz_t z;
  HostMpz() { mpz_init(z); }
  HostMpz(const HostMpz&) = delete;
  HostMpz& operator=(const HostMpz&) = delete;
  ~HostMpz() { mpz_clear(z); }
};

/// The powers P_k = base^(d 2^k), made on demand in the context by squaring.
class RadixPowers {
 public:
  RadixPowers(int base, const Context& ctx) : digits0_(radix_chunk_digits(base)) {
    std::uint64_t p = 1;
    for (int i = 0; i < digits0_; ++i) p *= static_cast<std::uint64_t>(base);
    powers_.emplace_back(p, ctx);
  }
  /// Digits of P_k: P_k = base^digits(k).
  std::size_t digits(std::size_t k) const { return static_cast<std::size_t>(digits0_) << k; }
  const Integer& get(std::size_t k) {
    while (powers_.size() <= k) {
      Integer next(powers_.back().context());
      sqr(next, powers_.back());
      powers_.push_back(std::move(next));
    }
    return powers_[k];
  }
  /// Limbs of P_k, made if needed.
  std::size_t limbs(std::size_t k) { return get(k).size(); }
  /// A lower bound on the limbs of P_k without making it: a square of s
  /// limbs has at least 2s - 1.
  std::size_t limbs_at_least(std::size_t k) {
    if (k < powers_.size()) return powers_[k].size();
    std::size_t s = powers_.back().size();
    for (std::size_t j = powers_.size(); j <= k; ++j) s = 2 * s - 1;
    return s;
  }

 private:
  int digits0_;
  std::vector<Integer> powers_;
};

// ---- to_string ---------------------------------------------------------------

struct Leaf {
  Integer value;
  std::size_t digits;  // exact digit count (zero padded); 0 = as many as it has
};

class Splitter {
 public:
  Splitter(int base, const Context& ctx, std::size_t leaf_limbs) : powers_(base, ctx), leaf_limbs_(leaf_limbs) {}

  /// Appends x's leaves, most significant first. `digits` as in Leaf.
  void split(Integer x, std::size_t digits) {
    const std::size_t n = x.size();
    if (n <= leaf_limbs_) {
      leaves_.push_back({std::move(x), digits});
      return;
    }
    // The largest k with 2 |P_k| <= n + 1: then |P_k| <= n - 1 for n >= 2,
    // so P_k < 2^(64 (n-1)) <= x and q >= 1 (an unpadded q is never a
    // spurious "0", and a padded x < base^digits has digits > d 2^k).
    std::size_t k = 0;
    while (2 * powers_.limbs_at_least(k + 1) <= n + 1 && 2 * powers_.limbs(k + 1) <= n + 1) ++k;
    const std::size_t low_digits = powers_.digits(k);
    Integer q(x.context()), r(x.context());
    tdiv_qr(q, r, x, powers_.get(k));
    x = Integer(x.context());  // release the parent before going down
    split(std::move(q), digits ? digits - low_digits : 0);
    split(std::move(r), low_digits);
  }

  std::vector<Leaf>& leaves() { return leaves_; }

 private:
  RadixPowers powers_;
  std::size_t leaf_limbs_;
  std::vector<Leaf> leaves_;
};

}  // namespace

int radix_chunk_digits(int base) {
  if (base < 2 || base > 62) throw InvalidArgument("mpgpu: radix base " + std::to_string(base) + " out of range");
  int d = 0;
  unsigned __int128 p = 1;
  while (p * static_cast<unsigned>(base) < (static_cast<unsigned __int128>(1) << 64)) {
    p *= static_cast<unsigned>(base);
    ++d;
  }
  return d;
}

std::string radix_to_string_dc(const Integer& x, int base, std::size_t leaf_limbs) {
  if (base < 2 || base > 62)
    throw InvalidArgument("mpgpu::Integer::to_string: base " + std::to_string(base) +
                          " is out of range (expected 2..62)");
  leaf_limbs = std::max<std::size_t>(leaf_limbs, 1);
  const bool negative = x.sign() < 0;
  Integer magnitude(x.context());
  abs(magnitude, x);
  Splitter splitter(base, x.context(), leaf_limbs);
  splitter.split(std::move(magnitude), 0);
  std::vector<Leaf>& leaves = splitter.leaves();

  // Leaves to the host (one copy each, in order, on this thread).
  std::vector<HostMpz> host(leaves.size());
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    leaves[i].value.to_mpz(host[i].z);
    leaves[i].value = Integer(x.context());
  }

  // The most significant leaf has no fixed width; the others do.
  std::string head(mpz_sizeinbase(host[0].z, base) + 2, '\0');
  mpz_get_str(head.data(), base, host[0].z);
  head.resize(std::strlen(head.c_str()));
  std::vector<std::size_t> offset(leaves.size(), 0);
  std::size_t total = (negative ? 1 : 0) + head.size();
  for (std::size_t i = 1; i < leaves.size(); ++i) {
    offset[i] = total;
    total += leaves[i].digits;
  }
  std::string out(total, '0');
  if (negative) out[0] = '-';
  std::memcpy(out.data() + (negative ? 1 : 0), head.data(), head.size());
  parallel_for(leaves.size() - 1, [&](std::size_t j) {
    const std::size_t i = j + 1;
    const std::size_t width = leaves[i].digits;
    std::string text(mpz_sizeinbase(host[i].z, base) + 2, '\0');
    mpz_get_str(text.data(), base, host[i].z);
    const std::size_t len = std::strlen(text.c_str());
    if (len > width) throw Error("mpgpu::Integer::to_string: a radix piece overflowed its digits");
    if (mpz_sgn(host[i].z) != 0)  // zero stays all '0' (mpz_get_str writes "0")
      std::memcpy(out.data() + offset[i] + (width - len), text.data(), len);
  });
  return out;
}

// ---- from_string -------------------------------------------------------------

namespace {

class Combiner {
 public:
  Combiner(int base, const Context& ctx, std::size_t leaf_limbs)
      : base_(base), ctx_(ctx), powers_(base, ctx),
        leaf_digits_(static_cast<std::size_t>(radix_chunk_digits(base)) * std::max<std::size_t>(leaf_limbs, 1)) {}

  /// The block exponent for a piece of `len` digits: the largest k with
  /// d 2^k < len (the low block is at least half the piece).
  std::size_t block(std::size_t len) const {
    std::size_t k = 0;
    while (powers_.digits(k + 1) < len) ++k;
    return k;
  }

  /// Pass 1: the leaves of `digits`, most significant first.
  void collect(std::string_view digits) {
    if (digits.size() <= leaf_digits_) {
      leaf_text_.push_back(digits);
      return;
    }
    const std::size_t low = powers_.digits(block(digits.size()));
    collect(digits.substr(0, digits.size() - low));
    collect(digits.substr(digits.size() - low));
  }

  /// Parses every leaf on host threads.
  void parse_leaves() {
    leaf_values_ = std::vector<HostMpz>(leaf_text_.size());
    parallel_for(leaf_text_.size(), [&](std::size_t i) {
      const std::string text(leaf_text_[i]);  // GMP wants a NUL
      if (mpz_set_str(leaf_values_[i].z, text.c_str(), base_) != 0)
        throw Error("mpgpu::Integer::from_string: GMP rejected validated digits");
    });
  }

  /// Pass 2: the same tree, consuming the leaves in order.
  Integer combine(std::string_view digits) {
    if (digits.size() <= leaf_digits_) {
      Integer leaf = Integer::from_mpz(leaf_values_[next_leaf_].z, ctx_);
      mpz_clear(leaf_values_[next_leaf_].z);  // free the host copy early
      mpz_init(leaf_values_[next_leaf_].z);
      ++next_leaf_;
      return leaf;
    }
    const std::size_t k = block(digits.size());
    const std::size_t low = powers_.digits(k);
    Integer hi = combine(digits.substr(0, digits.size() - low));
    Integer x(ctx_);
    if (!hi.is_zero()) mul(x, hi, powers_.get(k));  // leading zeros give hi = 0
    hi = Integer(ctx_);
    Integer lo = combine(digits.substr(digits.size() - low));
    add(x, x, lo);
    return x;
  }

 private:
  int base_;
  Context ctx_;
  RadixPowers powers_;
  std::size_t leaf_digits_;
  std::vector<std::string_view> leaf_text_;
  std::vector<HostMpz> leaf_values_;
  std::size_t next_leaf_ = 0;
};

}  // namespace

Integer radix_from_digits_dc(std::string_view digits, int base, bool negative, const Context& ctx,
                             std::size_t leaf_limbs) {
  if (base < 2 || base > 62)
    throw InvalidArgument("mpgpu::Integer::from_string: base " + std::to_string(base) +
                          " is out of range (expected 2..62)");
  if (digits.empty()) throw InvalidArgument("mpgpu::Integer::from_string: no digits");
  Combiner combiner(base, ctx, leaf_limbs);
  combiner.collect(digits);
  combiner.parse_leaves();
  Integer x = combiner.combine(digits);
  if (negative) neg(x, x);
  return x;
}

}  // namespace mpgpu::detail
