// Module functions with gmpy2's names and semantics (results, signs, and the
// exception types gmpy2 raises), so a gmpy2 script ports by changing its
// import. Arguments are Integers, ints or anything with __index__; results
// go to the context of the first Integer argument, else the current one.
#include "common.hpp"
#include "integer_ops.hpp"


namespace mpgpu::py {
namespace {

/// Where results go: the first Integer's context, else the current context.
Context context_of(std::initializer_list<nb::handle> args) {
  for (nb::handle h : args)
    if (const Integer* x = as_integer(h)) return x->context();
  return current_context();
}

struct Args2 {
  Context ctx;
  Operand a, b;
};
Args2 two(nb::handle x, nb::handle y, const char* name) {
  Context ctx = context_of({x, y});
  Operand a = require_operand(x, ctx, name);
  Operand b = require_operand(y, ctx, name);
  return {ctx, std::move(a), std::move(b)};
}

// One of GMP's division functions, as gmpy2's {t,f,c}_div, _mod and _divmod.
using QR = void (*)(Integer&, Integer&, const Integer&, const Integer&, Stream);
using Q = void (*)(Integer&, const Integer&, const Integer&, Stream);

template <Q F>
Integer div1(nb::handle x, nb::handle y, const char* name) {
  Args2 a = two(x, y, name);
  Integer r(a.ctx);
  run(release_gil(a.a.get(), a.b.get()), [&] { F(r, a.a.get(), a.b.get(), nullptr); });
  return r;
}

template <QR F>
std::pair<Integer, Integer> div2(nb::handle x, nb::handle y, const char* name) {
  Args2 a = two(x, y, name);
  Integer q(a.ctx), r(a.ctx);
  run(release_gil(a.a.get(), a.b.get()), [&] { F(q, r, a.a.get(), a.b.get(), nullptr); });
  return {std::move(q), std::move(r)};
}

// The _2exp forms: floor by fdiv_q_2exp, truncation by tdiv_q_2exp, ceiling
// as -floor(-x / 2^n); each remainder is x - q * 2^n.
enum class Round { trunc, floor, ceil };
Integer quotient_2exp(const Integer& x, std::uint64_t n, Round mode) {
  Integer q(x.context());
  switch (mode) {
    case Round::trunc: tdiv_q_2exp(q, x, n); break;
    case Round::floor: fdiv_q_2exp(q, x, n); break;
    case Round::ceil: fdiv_q_2exp(q, -x, n); q.negate(); break;
  }
  return q;
}
std::pair<Integer, Integer> divmod_2exp(nb::handle x, nb::handle bits, Round mode, const char* name) {
  const Context ctx = context_of({x});
  Operand a = require_operand(x, ctx, name);
  const std::uint64_t n = to_u64(bits, name);
  Integer q = quotient_2exp(a.get(), n, mode);
  Integer r = a.get() - (q << n);
  return {std::move(q), std::move(r)};
}

Integer unary_result(nb::handle x, const char* name, void (*f)(Integer&, const Integer&, Stream)) {
  const Context ctx = context_of({x});
  Operand a = require_operand(x, ctx, name);
  Integer r(ctx);
  run(!mpgpu::detail::IntegerAccess::has_deferred(a.get()) && a.get().size() >= kReleaseGilLimbs,
      [&] { f(r, a.get(), nullptr); });
  return r;
}

void check_not_negative(const Integer& x, const char* message) {
  if (x.sign() < 0) throw nb::value_error(message);
}

/// A sequence value (fac, fib, lucas) of index n in the current context.
Integer sequence(nb::handle n_arg, const char* name, void (*f)(Integer&, std::uint64_t, Stream)) {
  const std::uint64_t n = to_u64(n_arg, name);
  Integer r(current_context());
  run(n >= 4096, [&] { f(r, n, nullptr); });
  return r;
}

}  // namespace

void bind_functions(nb::module_& m) {
  // ---- roots -------------------------------------------------------------------------
  m.def("isqrt", [](nb::handle x) {
    Operand a = require_operand(x, context_of({x}), "isqrt");
    check_not_negative(a.get(), "isqrt() of negative number");
    return unary_result(x, "isqrt", [](Integer& r, const Integer& v, Stream s) { mpgpu::sqrt(r, v, s); });
  }, nb::arg("x"), "The integer square root of x >= 0.");
  m.def("isqrt_rem", [](nb::handle x) {
    const Context ctx = context_of({x});
    Operand a = require_operand(x, ctx, "isqrt_rem");
    check_not_negative(a.get(), "isqrt_rem() of negative number");
    Integer root(ctx), rem(ctx);
    run(a.get().size() >= kReleaseGilLimbs, [&] { sqrtrem(root, rem, a.get()); });
    return std::make_pair(std::move(root), std::move(rem));
  }, nb::arg("x"), "(s, x - s*s) with s = isqrt(x).");
  m.def("iroot", [](nb::handle x, nb::handle n_arg) {
    const Context ctx = context_of({x});
    Operand a = require_operand(x, ctx, "iroot");
    const std::uint64_t n = to_u64(n_arg, "iroot");
    if (n == 0) throw nb::value_error("n must be > 0");
    check_not_negative(a.get(), "iroot() of negative number");
    Integer r(ctx);
    bool exact = false;
    run(a.get().size() >= kReleaseGilLimbs, [&] { exact = root(r, a.get(), n); });
    return std::make_pair(std::move(r), exact);
  }, nb::arg("x"), nb::arg("n"), "(the integer n-th root of x >= 0, whether it is exact).");
  m.def("iroot_rem", [](nb::handle x, nb::handle n_arg) {
    const Context ctx = context_of({x});
    Operand a = require_operand(x, ctx, "iroot_rem");
    const std::uint64_t n = to_u64(n_arg, "iroot_rem");
    if (n == 0) throw nb::value_error("n must be > 0");
    check_not_negative(a.get(), "iroot_rem() of negative number");
    Integer r(ctx), power(ctx);
    root(r, a.get(), n);
    pow_ui(power, r, n);
    return std::make_pair(std::move(r), a.get() - power);
  }, nb::arg("x"), nb::arg("n"), "(r, x - r**n) with r the integer n-th root of x >= 0.");
  m.def("is_square", [](nb::handle x) {
    Operand a = require_operand(x, context_of({x}), "is_square");
    return perfect_square_p(a.get());
  }, nb::arg("x"), "Whether x is a perfect square (False for x < 0).");

  // ---- gcd and friends --------------------------------------------------------------------
  m.def("gcd", [](nb::args args) {
    Context ctx = current_context();
    for (nb::handle h : args)
      if (const Integer* x = as_integer(h)) { ctx = x->context(); break; }
    Integer g(0, ctx);
    for (nb::handle h : args) {
      Operand a = require_operand(h, ctx, "gcd");
      gcd(g, g, a.get());
    }
    return g;
  }, "The greatest common divisor of any number of integers (0 for none).");
  m.def("lcm", [](nb::args args) {
    Context ctx = current_context();
    for (nb::handle h : args)
      if (const Integer* x = as_integer(h)) { ctx = x->context(); break; }
    Integer l(1, ctx);
    for (nb::handle h : args) {
      Operand a = require_operand(h, ctx, "lcm");
      lcm(l, l, a.get());
    }
    return l;
  }, "The least common multiple of any number of integers (1 for none).");
  m.def("gcdext", [](nb::handle x, nb::handle y) {
    Args2 a = two(x, y, "gcdext");
    Integer g(a.ctx), s(a.ctx), t(a.ctx);
    gcdext(g, s, t, a.a.get(), a.b.get());
    return std::make_tuple(std::move(g), std::move(s), std::move(t));
  }, nb::arg("x"), nb::arg("y"), "(g, s, t) with g = gcd(x, y) = x*s + y*t (GMP's s and t).");
  m.def("invert", [](nb::handle x, nb::handle y) {
    Args2 a = two(x, y, "invert");
    if (a.b.get().is_zero()) {
      PyErr_SetString(PyExc_ZeroDivisionError, "invert() division by 0");
      throw nb::python_error();
    }
    Integer r(a.ctx);
    if (!invert(r, a.a.get(), a.b.get())) {
      PyErr_SetString(PyExc_ZeroDivisionError, "invert() no inverse exists");
      throw nb::python_error();
    }
    return r;
  }, nb::arg("x"), nb::arg("m"), "y with x*y = 1 (mod m), in [0, |m|); ZeroDivisionError if there is none.");
  m.def("powmod", [](nb::handle x, nb::handle y, nb::handle mod) {
    const Context ctx = context_of({x, y, mod});
    Operand a = require_operand(x, ctx, "powmod"), b = require_operand(y, ctx, "powmod"),
            c = require_operand(mod, ctx, "powmod");
    return python_powmod(a.get(), b.get(), c.get());
  }, nb::arg("x"), nb::arg("y"), nb::arg("m"), "pow(x, y, m), a negative y through the inverse.");
  m.def("divexact", [](nb::handle x, nb::handle y) {
    return div1<divexact>(x, y, "divexact");
  }, nb::arg("x"), nb::arg("y"), "x / y when y divides x (faster; the result is unspecified otherwise).");
  m.def("is_divisible", [](nb::handle x, nb::handle d) {
    Args2 a = two(x, d, "is_divisible");
    return divisible_p(a.a.get(), a.b.get());
  }, nb::arg("x"), nb::arg("d"), "Whether d divides x (d = 0 divides only 0).");
  m.def("is_congruent", [](nb::handle x, nb::handle y, nb::handle mod) {
    const Context ctx = context_of({x, y, mod});
    Operand a = require_operand(x, ctx, "is_congruent"), b = require_operand(y, ctx, "is_congruent"),
            c = require_operand(mod, ctx, "is_congruent");
    return congruent_p(a.get(), b.get(), c.get());
  }, nb::arg("x"), nb::arg("y"), nb::arg("m"), "Whether x = y (mod m) (m = 0: whether x == y).");

  // ---- sequences --------------------------------------------------------------------------
  m.def("fac", [](nb::handle n) { return sequence(n, "fac", fac_ui); }, nb::arg("n"), "n!");
  m.def("fib", [](nb::handle n) { return sequence(n, "fib", fib_ui); }, nb::arg("n"),
        "The n-th Fibonacci number (fib(0) = 0).");
  m.def("lucas", [](nb::handle n) { return sequence(n, "lucas", lucnum_ui); }, nb::arg("n"),
        "The n-th Lucas number (lucas(0) = 2).");
  m.def("comb", [](nb::handle n, nb::handle k_arg) {
    const Context ctx = context_of({n});
    Operand a = require_operand(n, ctx, "comb");
    const std::uint64_t k = to_u64(k_arg, "comb");
    Integer r(ctx);
    const bool word = a.get().fits_uint64();  // settles a deferred size while the GIL is held
    run(k >= 4096, [&] {
      if (word) bin_uiui(r, a.get().to_uint64(), k);
      else bin_ui(r, a.get(), k);
    });
    return r;
  }, nb::arg("n"), nb::arg("k"), "The binomial coefficient (n k), any n, k >= 0.");

  // ---- divisions -----------------------------------------------------------------------------
  m.def("t_div", [](nb::handle x, nb::handle y) { return div1<tdiv_q>(x, y, "t_div"); }, nb::arg("x"), nb::arg("y"),
        "x / y rounded toward zero (C's truncation).");
  m.def("t_mod", [](nb::handle x, nb::handle y) { return div1<tdiv_r>(x, y, "t_mod"); }, nb::arg("x"), nb::arg("y"),
        "x - y * t_div(x, y): the remainder with the sign of x.");
  m.def("t_divmod", [](nb::handle x, nb::handle y) { return div2<tdiv_qr>(x, y, "t_divmod"); }, nb::arg("x"), nb::arg("y"),
        "(t_div(x, y), t_mod(x, y)).");
  m.def("f_div", [](nb::handle x, nb::handle y) { return div1<fdiv_q>(x, y, "f_div"); }, nb::arg("x"), nb::arg("y"),
        "x / y rounded toward minus infinity (Python's x // y).");
  m.def("f_mod", [](nb::handle x, nb::handle y) { return div1<fdiv_r>(x, y, "f_mod"); }, nb::arg("x"), nb::arg("y"),
        "x - y * f_div(x, y): the remainder with the sign of y (Python's x % y).");
  m.def("f_divmod", [](nb::handle x, nb::handle y) { return div2<fdiv_qr>(x, y, "f_divmod"); }, nb::arg("x"), nb::arg("y"),
        "(f_div(x, y), f_mod(x, y)): Python's divmod(x, y).");
  m.def("c_div", [](nb::handle x, nb::handle y) { return div1<cdiv_q>(x, y, "c_div"); }, nb::arg("x"), nb::arg("y"),
        "x / y rounded toward plus infinity.");
  m.def("c_mod", [](nb::handle x, nb::handle y) { return div1<cdiv_r>(x, y, "c_mod"); }, nb::arg("x"), nb::arg("y"),
        "x - y * c_div(x, y): the remainder with the sign opposite to y's.");
  m.def("c_divmod", [](nb::handle x, nb::handle y) { return div2<cdiv_qr>(x, y, "c_divmod"); }, nb::arg("x"), nb::arg("y"),
        "(c_div(x, y), c_mod(x, y)).");
  struct Exp2Form {
    const char* prefix;
    Round mode;
    const char* div_doc;
    const char* mod_doc;
    const char* divmod_doc;
  };
  for (Exp2Form f : {
           Exp2Form{"t", Round::trunc, "x / 2**n rounded toward zero (n >= 0).",
                    "x - 2**n * t_div_2exp(x, n): the low n bits of |x|, with the sign of x.",
                    "(t_div_2exp(x, n), t_mod_2exp(x, n))."},
           Exp2Form{"f", Round::floor, "x / 2**n rounded toward minus infinity: x >> n (n >= 0).",
                    "x - 2**n * f_div_2exp(x, n): the low n bits of x's two's complement, x & (2**n - 1).",
                    "(f_div_2exp(x, n), f_mod_2exp(x, n))."},
           Exp2Form{"c", Round::ceil, "x / 2**n rounded toward plus infinity (n >= 0).",
                    "x - 2**n * c_div_2exp(x, n): in (-2**n, 0] (0 when 2**n divides x).",
                    "(c_div_2exp(x, n), c_mod_2exp(x, n))."}}) {
    const std::string p = f.prefix;
    const Round mode = f.mode;
    m.def((p + "_div_2exp").c_str(), [mode](nb::handle x, nb::handle n) {
      return divmod_2exp(x, n, mode, "div_2exp").first;
    }, nb::arg("x"), nb::arg("n"), f.div_doc);
    m.def((p + "_mod_2exp").c_str(), [mode](nb::handle x, nb::handle n) {
      return divmod_2exp(x, n, mode, "mod_2exp").second;
    }, nb::arg("x"), nb::arg("n"), f.mod_doc);
    m.def((p + "_divmod_2exp").c_str(), [mode](nb::handle x, nb::handle n) {
      return divmod_2exp(x, n, mode, "divmod_2exp");
    }, nb::arg("x"), nb::arg("n"), f.divmod_doc);
  }

  // ---- bits and digits ------------------------------------------------------------------------
  m.def("popcount", [](nb::handle x) -> std::int64_t {
    Operand a = require_operand(x, context_of({x}), "popcount");
    return a.get().sign() < 0 ? -1 : static_cast<std::int64_t>(popcount(a.get()));
  }, nb::arg("x"), "Ones in x's binary form; -1 for x < 0 (infinitely many).");
  m.def("bit_length", [](nb::handle x) {
    Operand a = require_operand(x, context_of({x}), "bit_length");
    return a.get().is_zero() ? std::uint64_t{0} : sizeinbase2(a.get());
  }, nb::arg("x"), "Bits of |x| (0 for 0).");
  m.def("num_digits", [](nb::handle x, int base) {
    if (base < 2 || base > 62) throw nb::value_error("base must be in the interval [2, 62]");
    Operand a = require_operand(x, context_of({x}), "num_digits");
    return sizeinbase(a.get(), base);
  }, nb::arg("x"), nb::arg("base") = 10, "Digits of |x| in base (2..62): exact, unlike gmpy2's (which may be 1 more).");
  m.def("digits", [](nb::handle x, int base) {
    Operand a = require_operand(x, context_of({x}), "digits");
    return a.get().to_string(base);
  }, nb::arg("x"), nb::arg("base") = 10, "x in base (2..62), no prefix.");
  m.def("bit_test", [](nb::handle x, nb::handle n) {
    Operand a = require_operand(x, context_of({x}), "bit_test");
    return tstbit(a.get(), to_u64(n, "bit_test"));
  }, nb::arg("x"), nb::arg("n"), "Bit n of x (two's complement for x < 0).");
  m.def("bit_set", [](nb::handle x, nb::handle n) {
    Operand a = require_operand(x, context_of({x}), "bit_set");
    Integer r = a.get();
    setbit(r, to_u64(n, "bit_set"));
    return r;
  }, nb::arg("x"), nb::arg("n"), "x with bit n set (two's complement for x < 0).");
  m.def("bit_clear", [](nb::handle x, nb::handle n) {
    Operand a = require_operand(x, context_of({x}), "bit_clear");
    Integer r = a.get();
    clrbit(r, to_u64(n, "bit_clear"));
    return r;
  }, nb::arg("x"), nb::arg("n"), "x with bit n cleared (two's complement for x < 0).");
  m.def("bit_flip", [](nb::handle x, nb::handle n) {
    Operand a = require_operand(x, context_of({x}), "bit_flip");
    return a.get() ^ Integer::power_of_two(to_u64(n, "bit_flip"), a.get().context());
  }, nb::arg("x"), nb::arg("n"), "x with bit n inverted (two's complement for x < 0).");
  m.def("is_even", [](nb::handle x) {
    Operand a = require_operand(x, context_of({x}), "is_even");
    return !tstbit(a.get(), 0);
  }, nb::arg("x"), "Whether x is even.");
  m.def("is_odd", [](nb::handle x) {
    Operand a = require_operand(x, context_of({x}), "is_odd");
    return tstbit(a.get(), 0);
  }, nb::arg("x"), "Whether x is odd.");
  m.def("sign", [](nb::handle x) {
    Operand a = require_operand(x, context_of({x}), "sign");
    return a.get().sign();
  }, nb::arg("x"), "-1, 0 or 1.");
}

}  // namespace mpgpu::py
