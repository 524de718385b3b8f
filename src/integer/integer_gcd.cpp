// The gcd of huge integers on a CUDA context: the subquadratic half-gcd in
// Moller's form (the structure of GMP's mpn_hgcd and mpn_gcd), written with
// Integer operations so that its large products, quotients and shifts run
// on the device, and GMP's own half-gcd (gmp_half_gcd.hpp) for the parts of
// at most host_max_limbs limbs, which are too small for the device to win.
//
// hgcd(a, b), n = the larger size in limbs, s = n/2 + 1: a matrix M with
// nonnegative entries and det M = 1 and the reduced pair (alpha; beta) =
// M^-1 (a; b), both above s limbs with |alpha - beta| below it. Large n:
// hgcd of the top n - n/2 limbs (its matrix applied to the whole pair),
// division steps down to 3n/4 limbs, hgcd of the top again, steps down to
// s. The matrix of a top part also reduces the whole pair while the top is
// long enough (Moller, "On Schonhage's algorithm and subquadratic integer
// gcd computation", Math. Comp. 2008), which the steps' conditions ensure.
// The outer gcd repeats hgcd on the top third and applies it (p = 2n/3 as
// GMP's gcd), with a division step when the sizes are too far apart.
//
// Exactness does not rest on that theory nor on GMP's internals: every
// matrix used has det 1 (checked: GMP's with mpz products, the one-limb
// ones in 128 bits), so each new pair, computed as M^-1 times the old
// whole pair on the device, has the same gcd; a negative entry or value
// (the theory's promise broken) makes the whole call fall back to GMP on
// the operands. The cofactor follows the same matrices. Private to the
// library; the CPU context runs it in tests with small host_max_limbs.
#include <algorithm>
#include <array>
#include <bit>
#include <utility>
#include <vector>

#include "gmp_half_gcd.hpp"
#include "integer_host_gmp.hpp"
#include "integer_whole.hpp"

namespace mpgpu::detail {

namespace {

constexpr std::uint64_t kLimbBits = 64;

/// A promise of the half-gcd theory did not hold (a negative value or
/// entry, or a matrix with det != 1): gcd_by_half_gcd gives up and GMP
/// computes the result instead.
struct HalfGcdCheckFailed {};

void check(bool ok) {
  if (!ok) throw HalfGcdCheckFailed{};
}

/// (a; b) = M (alpha; beta), det M = 1, entries >= 0.
struct Matrix22 {
  explicit Matrix22(const Context& ctx)
      : m{{Integer(1, ctx), Integer(ctx)}, {Integer(ctx), Integer(1, ctx)}} {}
  Integer m[2][2];
};

Integer high_part(const Integer& x, std::size_t p) {
  Integer r(x.context());
  tdiv_q_2exp(r, x, kLimbBits * p);
  return r;
}

std::size_t larger_size(const Integer& a, const Integer& b) { return std::max(a.size(), b.size()); }

/// (a; b) <- M^-1 (a; b) = (m11 a - m01 b; m00 b - m10 a); both must stay >= 0.
/// The products of apply_inverse and mul_matrix go to mul_each at once: on
/// a CUDA context each is a chain of small launches, so one after another
/// they leave the device idle (mul_each runs them side by side or batched).
void apply_inverse(const Matrix22& M, Integer& a, Integer& b) {
  const Context& ctx = a.context();
  Integer alpha(ctx), beta(ctx), t(ctx), u(ctx);
  mul_each({{alpha, M.m[1][1], a}, {t, M.m[0][1], b}, {beta, M.m[0][0], b}, {u, M.m[1][0], a}});
  sub(alpha, alpha, t);
  sub(beta, beta, u);
  check(alpha.sign() >= 0 && beta.sign() >= 0);
  a = std::move(alpha);
  b = std::move(beta);
}

/// M <- M M1.
void mul_matrix(Matrix22& M, const Matrix22& M1) {
  const Context& ctx = M.m[0][0].context();
  // p[i][j][k] = M[i][k] M1[k][j]; then M[i][j] = p[i][j][0] + p[i][j][1].
  Integer p[2][2][2] = {{{Integer(ctx), Integer(ctx)}, {Integer(ctx), Integer(ctx)}},
                        {{Integer(ctx), Integer(ctx)}, {Integer(ctx), Integer(ctx)}}};
  std::vector<Product> products;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 2; ++k) products.push_back({p[i][j][k], M.m[i][k], M1.m[k][j]});
  mul_each(products);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) add(M.m[i][j], p[i][j][0], p[i][j][1]);
}

/// Column col of M += q times the other column: M <- M (1, 0; q, 1) for
/// col 0 (b was reduced by q a), M (1, q; 0, 1) for col 1 (a by q b).
void add_column_multiple(Matrix22& M, const Integer& q, int col) {
  const Context& ctx = q.context();
  for (auto& row : M.m) {
    Integer t(ctx);
    mul(t, q, row[1 - col]);
    add(row[col], row[col], t);
  }
}

/// Limbs [from, from + 3) of x >= 0 (zero beyond its size), lowest first:
/// read from the host copy or with one small device-to-host copy.
std::array<mp_limb_t, 3> three_limbs(const Integer& x, std::size_t from) {
  std::array<mp_limb_t, 3> out{};
  const std::size_t size = x.size();
  if (size <= from) return out;
  const std::size_t count = std::min<std::size_t>(3, size - from);
  if (detail::IntegerAccess::host_valid(x)) {
    std::copy_n(mpz_limbs_read(detail::IntegerAccess::cpu_mpz(x)) + from, count, out.begin());
  } else {
    const Context& ctx = x.context();
    cuda::copy_to_host(detail::ContextAccess::state(ctx), ctx.resolve(nullptr), out.data(),
                       detail::IntegerAccess::device_data(x) + from, count * sizeof(mp_limb_t));
  }
  return out;
}

/// GMP's half-gcd of (a, b) (n limbs at most): on success M and the reduced
/// pair; 0 if GMP found no reduction.
std::size_t host_hgcd(Integer& a, Integer& b, std::size_t n, Matrix22& M) {
  const Context& ctx = a.context();
  std::vector<mp_limb_t> la(n, 0), lb(n, 0);
  for (auto [x, dst] : {std::pair{&a, &la}, std::pair{&b, &lb}}) {
    const HostOperand h(*x);
    std::copy_n(mpz_limbs_read(h), mpz_size(h), dst->begin());
  }
  const auto limbs = static_cast<mp_size_t>(n);
  std::vector<mp_limb_t> storage(gmp_hgcd_matrix_limbs(limbs)), scratch(__gmpn_hgcd_itch(limbs));
  GmpHgcdMatrix gm;
  __gmpn_hgcd_matrix_init(&gm, limbs, storage.data());
  const mp_size_t nn = __gmpn_hgcd(la.data(), lb.data(), limbs, &gm, scratch.data());
  if (nn <= 0) return 0;
  check(nn <= limbs && gm.n >= 1 && gm.n <= gm.alloc);
  // det M = 1: the only property exactness needs from GMP.
  mpz_t det, t;
  mpz_inits(det, t, nullptr);
  mpz_t e[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) mpz_roinit_n(e[i][j], gm.p[i][j], gm.n);
  mpz_mul(det, e[0][0], e[1][1]);
  mpz_mul(t, e[0][1], e[1][0]);
  mpz_sub(det, det, t);
  const bool unimodular = mpz_cmp_ui(det, 1) == 0;
  mpz_clears(det, t, nullptr);
  check(unimodular);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) M.m[i][j] = Integer::from_limbs(gm.p[i][j], gm.n, 1, ctx);
  a = Integer::from_limbs(la.data(), nn, 1, ctx);
  b = Integer::from_limbs(lb.data(), nn, 1, ctx);
  return static_cast<std::size_t>(nn);
}

/// One subtraction or division step that keeps both values above s limbs
/// (GMP's gcd_subdiv_step with s > 0); returns the new size, 0 if no step
/// is possible. May change a, b and M even when it returns 0 (as GMP's).
std::size_t subdiv_step(Integer& a, Integer& b, std::size_t s, Matrix22& M) {
  const Context& ctx = a.context();
  Integer* pa = &a;  // the smaller
  Integer* pb = &b;
  int swapped = 0;   // whether pb is a (then reducing pb updates column 1)
  if (a.size() == b.size()) {
    const int c = cmp(a, b);
    if (c == 0) return 0;
    if (c > 0) std::swap(pa, pb), swapped ^= 1;
  } else if (a.size() > b.size()) {
    std::swap(pa, pb), swapped ^= 1;
  }
  if (pa->size() <= s) return 0;
  Integer d(ctx);
  sub(d, *pb, *pa);
  if (d.size() <= s) return 0;
  *pb = std::move(d);
  const Integer one(1, ctx);
  if (pa->size() == pb->size()) {
    const int c = cmp(*pa, *pb);
    add_column_multiple(M, one, swapped);
    if (c == 0) return 0;
    if (c > 0) std::swap(pa, pb), swapped ^= 1;
  } else {
    add_column_multiple(M, one, swapped);
    if (pa->size() > pb->size()) std::swap(pa, pb), swapped ^= 1;
  }
  Integer q(ctx), r(ctx);
  tdiv_qr(q, r, *pb, *pa);
  if (r.size() <= s) {  // the quotient is one too large for the s condition
    add(r, r, *pa);
    sub(q, q, one);
  }
  *pb = std::move(r);
  add_column_multiple(M, q, swapped);
  // The larger size, as GMP's: after the add-back pb = r + pa may have one
  // limb more than pa.
  return larger_size(a, b);
}

/// One step of the half-gcd loop: GMP's two-limb half-gcd on the top limbs
/// (a one-limb matrix applied to the whole pair) or else subdiv_step.
std::size_t hgcd_step(std::size_t n, Integer& a, Integer& b, std::size_t s, Matrix22& M) {
  const Context& ctx = a.context();
  const auto ta = three_limbs(a, n - 3), tb = three_limbs(b, n - 3);
  const mp_limb_t mask = ta[2] | tb[2];
  check(mask != 0);
  mp_limb_t ah = ta[2], al = ta[1], bh = tb[2], bl = tb[1];
  if (n == s + 1) {
    if (mask < 4) return subdiv_step(a, b, s, M);
  } else if (!(mask >> 63)) {
    const int shift = std::countl_zero(mask);
    ah = (ta[2] << shift) | (ta[1] >> (64 - shift));
    al = (ta[1] << shift) | (ta[0] >> (64 - shift));
    bh = (tb[2] << shift) | (tb[1] >> (64 - shift));
    bl = (tb[1] << shift) | (tb[0] >> (64 - shift));
  }
  GmpHgcdMatrix1 m1;
  if (!__gmpn_hgcd2(ah, al, bh, bl, &m1)) return subdiv_step(a, b, s, M);
  using u128 = unsigned __int128;
  check(u128(m1.u[0][0]) * m1.u[1][1] - u128(m1.u[0][1]) * m1.u[1][0] == 1);
  Matrix22 M1(ctx);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) M1.m[i][j] = Integer(m1.u[i][j], ctx);
  mul_matrix(M, M1);
  apply_inverse(M1, a, b);
  return larger_size(a, b);
}

std::size_t hgcd(Integer& a, Integer& b, Matrix22& M, std::size_t host_max_limbs);

/// hgcd of the top limbs (from limb p up) of (a, b); on success M and the
/// whole pair reduced by it. Returns the new size or 0.
std::size_t hgcd_of_top(Integer& a, Integer& b, std::size_t p, Matrix22& M, std::size_t host_max_limbs) {
  Integer ah = high_part(a, p), bh = high_part(b, p);
  if (!hgcd(ah, bh, M, host_max_limbs)) return 0;
  apply_inverse(M, a, b);
  return larger_size(a, b);
}

/// The half-gcd (see the file comment); M is the identity on entry and
/// changes only on success. Returns the reduced size, 0 if no reduction.
/// The steps' small matrices are gathered in S, whose entries stay small
/// (host values on a CUDA context, so GMP multiplies them), and R takes
/// their product once before each half-gcd of a top part and at the end:
/// one device matrix product per run of steps instead of one per step.
std::size_t hgcd(Integer& a, Integer& b, Matrix22& M, std::size_t host_max_limbs) {
  const Context& ctx = a.context();
  std::size_t n = larger_size(a, b);
  const std::size_t s = n / 2 + 1;
  if (n <= s) return 0;
  if (n <= host_max_limbs) return host_hgcd(a, b, n, M);
  Matrix22 R(ctx), S(ctx);
  bool success = false, steps_pending = false;
  auto take_steps = [&] {
    if (!steps_pending) return;
    mul_matrix(R, S);
    S = Matrix22(ctx);
    steps_pending = false;
  };
  auto step = [&]() -> bool {
    const std::size_t nn = hgcd_step(n, a, b, s, S);
    steps_pending = true;  // S may have changed even when no step was possible
    if (!nn) return false;
    n = nn, success = true;
    return true;
  };
  auto finish = [&]() -> std::size_t {
    if (!success) return 0;
    take_steps();
    M = std::move(R);
    return n;
  };
  const std::size_t n2 = 3 * n / 4 + 1;
  if (const std::size_t nn = hgcd_of_top(a, b, n / 2, R, host_max_limbs)) n = nn, success = true;
  while (n > n2)
    if (!step()) return finish();
  if (n > s + 2) {
    Matrix22 R1(ctx);
    if (const std::size_t nn = hgcd_of_top(a, b, 2 * s - n + 1, R1, host_max_limbs)) {
      take_steps();
      mul_matrix(R, R1);
      n = nn, success = true;
    }
  }
  while (step()) {
  }
  return finish();
}

/// What the outer loop tracks for the cofactor of a: the second row
/// (m10, m11) of the product M of every step, (a0; b0) = M (a; b), so that
/// a = m11 a0 - m01 b0 and b = m00 b0 - m10 a0.
struct CofactorRow {
  Integer m10, m11;
  void times(const Matrix22& M1) {  // row <- row M1
    const Context& ctx = m10.context();
    Integer c0(ctx), c1(ctx), t(ctx);
    mul(c0, m10, M1.m[0][0]);
    mul(t, m11, M1.m[1][0]);
    add(c0, c0, t);
    mul(c1, m10, M1.m[0][1]);
    mul(t, m11, M1.m[1][1]);
    add(c1, c1, t);
    m10 = std::move(c0);
    m11 = std::move(c1);
  }
};

/// Reduces the larger of a, b modulo the smaller (both > 0), recording the
/// quotient in the row.
void division_step(Integer& a, Integer& b, CofactorRow* row) {
  const Context& ctx = a.context();
  Integer q(ctx), r(ctx), t(ctx);
  if (cmp(a, b) >= 0) {  // a = q b + r: M <- M (1, q; 0, 1)
    tdiv_qr(q, r, a, b);
    a = std::move(r);
    if (row) mul(t, q, row->m10), add(row->m11, row->m11, t);
  } else {  // b = q a + r: M <- M (1, 0; q, 1)
    tdiv_qr(q, r, b, a);
    b = std::move(r);
    if (row) mul(t, q, row->m11), add(row->m10, row->m10, t);
  }
}

void gcd_reduce_and_finish(Integer& g, Integer* cofactor, const Integer& a0, const Integer& b0,
                           std::size_t host_max_limbs) {
  const Context& ctx = a0.context();
  Integer a(ctx), b(ctx);
  abs(a, a0);
  abs(b, b0);
  CofactorRow row{Integer(ctx), Integer(1, ctx)};
  CofactorRow* tracked = cofactor ? &row : nullptr;
  for (;;) {
    if (a.is_zero() || b.is_zero()) break;
    const std::size_t n = larger_size(a, b), m = std::min(a.size(), b.size());
    if (m <= host_max_limbs) {
      if (n > host_max_limbs) division_step(a, b, tracked);
      break;
    }
    const std::size_t p = 2 * n / 3;
    // The top n - p limbs can reduce only while the smaller value keeps
    // more than half of them; below, one division does more.
    if (m <= p + (n - p) / 2 + 1) {
      division_step(a, b, tracked);
      continue;
    }
    Matrix22 M(ctx);
    if (hgcd_of_top(a, b, p, M, host_max_limbs)) {
      if (tracked) tracked->times(M);
    } else {
      division_step(a, b, tracked);
    }
  }
  // Both at most host_max_limbs limbs now (or one is zero): GMP finishes.
  const HostOperand ha(a), hb(b);
  HostResult zg, zx, zy;
  if (!cofactor) {
    mpz_gcd(zg, ha, hb);
    g = zg.take(ctx, nullptr);
    return;
  }
  mpz_gcdext(zg, zx, zy, ha, hb);
  // g = x a + y b = (x m11 - y m10) a0 + (y m00 - x m01) b0.
  Integer s = zx.take(ctx, nullptr), y = zy.take(ctx, nullptr), t(ctx);
  mul(s, s, row.m11);
  mul(t, y, row.m10);
  sub(s, s, t);
  Integer gg = zg.take(ctx, nullptr);
  // GMP's choice (mpz_gcdext): the s with |s| <= |b0| / (2g) (unique for
  // |b0| / g > 2; for |b0| = 2g it is s = sgn(a0), which the rounding below
  // gives too; |a0| = |b0| gives B = 1 and s = 0).
  Integer B(ctx), twice(ctx);
  abs(B, b0);
  divexact(B, B, gg);
  fdiv_r(s, s, B);
  mul_2exp(twice, s, 1);
  if (cmp(twice, B) > 0) sub(s, s, B);
  if (a0.sign() < 0) s.negate();
  g = std::move(gg);
  *cofactor = std::move(s);
}

}  // namespace

bool gcd_by_half_gcd(Integer& g, Integer* s, const Integer& a, const Integer& b, std::size_t host_max_limbs) {
  if (!half_gcd_available() || a.is_zero() || b.is_zero()) return false;
  try {
    Integer rg(a.context()), rs(a.context());
    gcd_reduce_and_finish(rg, s ? &rs : nullptr, a, b, std::max<std::size_t>(host_max_limbs, 4));
    g = std::move(rg);
    if (s) *s = std::move(rs);
    return true;
  } catch (const HalfGcdCheckFailed&) {
    return false;
  }
}

}  // namespace mpgpu::detail
