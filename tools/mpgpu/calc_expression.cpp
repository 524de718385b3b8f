// Evaluation of a parsed `mpgpu calc` expression with mpgpu::Integer. Every
// operation goes through the Integer API of the chosen context. Arguments the
// library would refuse (division by zero, negative square roots...) and
// results beyond CalcLimits are reported as CalcError at the operator or
// function they come from.
#include "calc_expression.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "calc_syntax.hpp"
#include "mpgpu/error.hpp"

namespace mpgpu::cli {

namespace {

/// "2^36" for powers of two, else the decimal number.
std::string limit_text(std::uint64_t bits) {
  if (bits && (bits & (bits - 1)) == 0) return "2^" + std::to_string(std::countr_zero(bits));
  return std::to_string(bits);
}

class Evaluator {
 public:
  Evaluator(const Context& ctx, const CalcLimits& limits) : ctx_(ctx), limits_(limits) {}

  Integer eval(const CalcNode& n) {
    switch (n.kind) {
      case CalcNode::Kind::number:
        return Integer::from_string(n.text, n.base, ctx_);
      case CalcNode::Kind::negate: {
        Integer v = eval(n.operands[0]);
        v.negate();
        return v;
      }
      case CalcNode::Kind::chain: {
        Integer acc = eval(n.operands[0]);
        for (std::size_t i = 0; i < n.ops.size(); ++i) {
          const Integer rhs = eval(n.operands[i + 1]);
          guarded(n.op_offsets[i], [&] { binary(acc, n.ops[i], rhs, n.op_offsets[i]); });
        }
        return acc;
      }
      case CalcNode::Kind::power: {
        const Integer base = eval(n.operands[0]);
        const Integer exp = eval(n.operands[1]);
        Integer r(ctx_);
        guarded(n.offset, [&] { power(r, base, exp, n.offset); });
        return r;
      }
      case CalcNode::Kind::call: {
        std::vector<Integer> args;
        for (const CalcNode& a : n.operands) args.push_back(eval(a));
        Integer r(ctx_);
        guarded(n.offset, [&] { call(r, n.text, args, n.offset); });
        return r;
      }
    }
    throw CalcError(n.offset, "internal error: unknown node");
  }

 private:
  /// Runs f; the library's refusals become errors at `offset` (the checks
  /// below catch the usual ones first, with plainer messages).
  template <class F>
  void guarded(std::size_t offset, F&& f) {
    try {
      f();
    } catch (const mpgpu::InvalidArgument& e) {
      throw CalcError(offset, strip_prefix(e.what()));
    } catch (const mpgpu::Overflow& e) {
      throw CalcError(offset, strip_prefix(e.what()));
    }
  }
  static std::string strip_prefix(const std::string& what) {
    return what.rfind("mpgpu::", 0) == 0 ? what.substr(7) : what;
  }

  void require_bits(double bits, std::size_t offset, const std::string& what) const {
    if (!(bits <= static_cast<double>(limits_.max_result_bits)))
      throw CalcError(offset, what + " would have about " + std::to_string(static_cast<unsigned long long>(std::min(bits, 1e19))) +
                                  " bits, more than the limit of " + limit_text(limits_.max_result_bits) + " bits");
  }

  /// v as a uint64 in [min, max], else an error saying what it is for.
  static std::uint64_t small(const Integer& v, std::uint64_t min, std::uint64_t max, std::size_t offset,
                             const std::string& what) {
    if (v.sign() < 0 || !v.fits_uint64() || v.to_uint64() < min || v.to_uint64() > max)
      throw CalcError(offset, what + " must be from " + std::to_string(min) + " to " + std::to_string(max) +
                                  (v.size() <= 2 ? ", not " + v.to_string() : ""));
    return v.to_uint64();
  }

  /// log2 |v| for v != 0, from its top 64 bits.
  static double log2_abs(const Integer& v) {
    const std::uint64_t bits = sizeinbase2(v);
    Integer top(v.context());
    abs(top, v);
    if (bits > 64) tdiv_q_2exp(top, top, bits - 64);
    return std::log2(static_cast<double>(top.to_uint64())) + (bits > 64 ? static_cast<double>(bits - 64) : 0.0);
  }

  void binary(Integer& acc, CalcOp op, const Integer& rhs, std::size_t offset) {
    switch (op) {
      case CalcOp::add: add(acc, acc, rhs); return;
      case CalcOp::sub: sub(acc, acc, rhs); return;
      case CalcOp::mul:
        if (!acc.is_zero() && !rhs.is_zero())
          require_bits(static_cast<double>(sizeinbase2(acc)) + static_cast<double>(sizeinbase2(rhs)), offset,
                       "the product");
        mul(acc, acc, rhs);
        return;
      case CalcOp::div:
      case CalcOp::mod:
        if (rhs.is_zero()) throw CalcError(offset, op == CalcOp::div ? "division by zero" : "modulo by zero");
        if (op == CalcOp::div) tdiv_q(acc, acc, rhs);
        else tdiv_r(acc, acc, rhs);
        return;
      case CalcOp::shl:
      case CalcOp::shr: {
        if (rhs.sign() < 0) throw CalcError(offset, "negative shift count");
        if (acc.is_zero()) return;
        if (op == CalcOp::shr) {  // floor: past the top only the sign is left
          if (!rhs.fits_uint64() || rhs.to_uint64() >= sizeinbase2(acc)) acc = Integer(acc.sign() < 0 ? -1 : 0, ctx_);
          else fdiv_q_2exp(acc, acc, rhs.to_uint64());
          return;
        }
        const double bits = static_cast<double>(sizeinbase2(acc)) +
                            (rhs.fits_uint64() ? static_cast<double>(rhs.to_uint64()) : 1e30);
        require_bits(bits, offset, "the shifted value");
        mul_2exp(acc, acc, rhs.to_uint64());
        return;
      }
      case CalcOp::bit_and: and_(acc, acc, rhs); return;
      case CalcOp::bit_or: ior(acc, acc, rhs); return;
      case CalcOp::bit_xor: xor_(acc, acc, rhs); return;
    }
  }

  void power(Integer& r, const Integer& base, const Integer& exp, std::size_t offset) {
    if (exp.sign() < 0) throw CalcError(offset, "negative exponent (integers only; use powm for inverses mod m)");
    if (cmpabs(base, Integer(1, ctx_)) <= 0) {  // 0, 1, -1: any exponent, no growth
      const bool odd = tstbit(exp, 0);
      if (exp.is_zero()) r = Integer(1, ctx_);
      else r = base.sign() < 0 && !odd ? Integer(1, ctx_) : base;
      return;
    }
    const double bits = exp.fits_uint64() ? static_cast<double>(exp.to_uint64()) * log2_abs(base) + 1 : 1e30;
    require_bits(bits, offset, "the power");
    pow_ui(r, base, exp.to_uint64());
  }

  void call(Integer& r, const std::string& name, const std::vector<Integer>& args, std::size_t offset) {
    if (name == "fact") {
      fac_ui(r, small(args[0], 0, limits_.max_factorial, offset, "the argument of fact"));
    } else if (name == "fib") {
      // F(n) < phi^n has at most n * log2(phi) < 0.6943 n bits.
      const std::uint64_t max_n = static_cast<std::uint64_t>(static_cast<double>(limits_.max_result_bits) / 0.6943);
      fib_ui(r, small(args[0], 0, max_n, offset, "the argument of fib"));
    } else if (name == "lucas") {
      // L(n) = phi^n + (-phi)^-n has at most n * log2(phi) + 2 bits, as F(n).
      const std::uint64_t max_n = static_cast<std::uint64_t>(static_cast<double>(limits_.max_result_bits) / 0.6943);
      lucnum_ui(r, small(args[0], 0, max_n, offset, "the argument of lucas"));
    } else if (name == "binomial") {
      binomial(r, args[0], args[1], offset);
    } else if (name == "gcd") {
      gcd(r, args[0], args[1]);
    } else if (name == "powm") {
      if (args[2].is_zero()) throw CalcError(offset, "powm: the modulus is 0");
      powm(r, args[0], args[1], args[2]);
    } else if (name == "sqrt") {
      if (args[0].sign() < 0) throw CalcError(offset, "square root of a negative number");
      sqrt(r, args[0]);
    } else if (name == "root") {
      const std::uint64_t k = small(args[1], 1, ~std::uint64_t{0}, offset, "the index of root");
      if (args[0].sign() < 0 && k % 2 == 0) throw CalcError(offset, "even root of a negative number");
      root(r, args[0], k);
    } else {
      throw CalcError(offset, "internal error: no function " + name);
    }
  }

  /// binomial(n, k) for any integer n (bin_ui: for n < 0 it is
  /// (-1)^k binomial(k - n - 1, k)) and 0 <= k < 2^64. Its cost is that of
  /// a factorial of min(k, m - k) (m = n, or k - n - 1 for n < 0), limited
  /// as fact's argument; its size is log2 of m! / (k! (m - k)!) by lgamma
  /// while m is exact in a double, else at most min(k, m - k) log2(m).
  void binomial(Integer& r, const Integer& n, const Integer& k_arg, std::size_t offset) {
    const std::uint64_t k = small(k_arg, 0, ~std::uint64_t{0}, offset, "the second argument of binomial");
    Integer m = n;  // the top of the equivalent binomial(m, k) with m >= 0
    if (n.sign() < 0) {
      m = Integer(k, ctx_) - n;
      m -= Integer(1, ctx_);
    } else if (cmp(n, Integer(k, ctx_)) < 0) {
      r = Integer(0, ctx_);  // k > n >= 0
      return;
    }
    // k <= m here; the smaller of k and m - k counts the factors.
    Integer rest = m - Integer(k, ctx_);
    const std::uint64_t factors = rest.fits_uint64() ? std::min(k, rest.to_uint64()) : k;
    if (factors > limits_.max_factorial)
      throw CalcError(offset, "binomial(n, k) needs min(k, n - k) <= " + std::to_string(limits_.max_factorial) +
                                  ", not " + std::to_string(factors));
    if (factors > 0) {
      double bits = static_cast<double>(factors) * log2_abs(m) + 1;
      if (m.fits_uint64() && m.to_uint64() < (std::uint64_t{1} << 53)) {
        const double md = static_cast<double>(m.to_uint64()), kd = static_cast<double>(k);
        const double log2_binomial = (std::lgamma(md + 1) - std::lgamma(kd + 1) - std::lgamma(md - kd + 1)) / std::log(2.0);
        bits = std::min(bits, std::floor(log2_binomial + 1e-9 * log2_binomial) + 1);
      }
      require_bits(bits, offset, "the binomial");
    }
    if (n.sign() >= 0 && n.fits_uint64()) bin_uiui(r, n.to_uint64(), k);
    else bin_ui(r, n, k);
  }

  const Context& ctx_;
  const CalcLimits& limits_;
};

}  // namespace

Integer evaluate_expression(std::string_view text, const Context& ctx, const CalcLimits& limits) {
  const CalcNode tree = parse_calc_expression(text, limits.max_nesting);
  return Evaluator(ctx, limits).eval(tree);
}

}  // namespace mpgpu::cli
