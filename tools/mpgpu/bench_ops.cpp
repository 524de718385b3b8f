#include "bench_ops.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>

#include "bench_batch.hpp"

namespace mpgpu::cli {

// ---- operands -------------------------------------------------------------------

Workload::Workload(const Context& ctx, std::uint64_t bits, unsigned long seed)
    : ctx_(ctx), bits_(bits), A_(ctx), B_(ctx), A_near_(ctx) {
  gmp_randinit_default(rand_);
  // Seeded per size, so a row's operands do not depend on which rows ran before.
  gmp_randseed_ui(rand_, seed ^ (bits * 0x9E3779B97F4A7C15ull));
  random_operand(a_.get());
  random_operand(b_.get());
  mpz_set(a_near_.get(), a_.get());
  mpz_combit(a_near_.get(), 0);
  A_ = Integer::from_mpz(a_.get(), ctx_);
  B_ = Integer::from_mpz(b_.get(), ctx_);
  A_near_ = Integer::from_mpz(a_near_.get(), ctx_);
}

Workload::~Workload() { gmp_randclear(rand_); }

void Workload::random_operand(mpz_ptr z) {
  mpz_urandomb(z, rand_, bits_);
  mpz_setbit(z, bits_ - 1);  // exactly `bits` bits: full-size operands
}

const std::vector<Mpz>& Workload::gmp_terms() {
  if (gmp_terms_.empty()) {
    gmp_terms_.reserve(kSumTerms);
    for (std::size_t i = 0; i < kSumTerms; ++i) {
      Mpz t;
      if (i == 0) mpz_set(t.get(), a_.get());
      else if (i == 1) mpz_set(t.get(), b_.get());
      else random_operand(t.get());
      gmp_terms_.push_back(std::move(t));
    }
  }
  return gmp_terms_;
}

const std::vector<Integer>& Workload::terms() {
  if (terms_.empty()) {
    terms_.reserve(kSumTerms);
    for (const Mpz& t : gmp_terms()) terms_.push_back(Integer::from_mpz(t.get(), ctx_));
  }
  return terms_;
}

void Workload::drop_terms() {
  terms_.clear();
  terms_.shrink_to_fit();
  gmp_terms_.clear();
  gmp_terms_.shrink_to_fit();
}

// ---- cases ------------------------------------------------------------------------

namespace {

/// An operation whose result is an integer: compared through to_mpz.
class IntegerCase : public OpCase {
 public:
  using MpgpuFn = std::function<void(Integer&)>;
  using GmpFn = std::function<void(mpz_ptr)>;
  IntegerCase(const Context& ctx, MpgpuFn mp, GmpFn gmp)
      : r_(ctx), mp_(std::move(mp)), gmp_(std::move(gmp)) {}
  void run_mpgpu() override { mp_(r_); }
  void run_gmp() override { gmp_(z_.get()); }
  bool verify() override {
    Mpz got;
    r_.to_mpz(got.get());
    return mpz_cmp(got.get(), z_.get()) == 0;
  }

 private:
  Integer r_;
  Mpz z_;
  MpgpuFn mp_;
  GmpFn gmp_;
};

/// An operation whose result is a machine number (cmp, popcount).
template <class T>
class ScalarCase : public OpCase {
 public:
  ScalarCase(std::function<T()> mp, std::function<T()> gmp) : mp_(std::move(mp)), gmp_(std::move(gmp)) {}
  void run_mpgpu() override { got_ = mp_(); }
  void run_gmp() override { want_ = gmp_(); }
  bool verify() override { return got_ == want_; }

 private:
  std::function<T()> mp_, gmp_;
  T got_{}, want_{};
};

int sign_of(int c) { return (c > 0) - (c < 0); }

/// The check of results too large for GMP's side (see ProductCase): four
/// primes of about 62 bits that no part of mpgpu uses (its NTT primes are
/// k 2^n + 1 with n >= 53), and x mod q in [0, q) for either sign of x.
constexpr int kCheckPrimes = 4;
const std::vector<unsigned long>& check_primes() {
  static const std::vector<unsigned long> primes = [] {
    std::vector<unsigned long> v;
    Mpz q;
    mpz_set_ui(q.get(), 0x3ffffffffffff000ul);
    for (int i = 0; i < kCheckPrimes; ++i) {
      mpz_nextprime(q.get(), q.get());
      v.push_back(mpz_get_ui(q.get()));
    }
    return v;
  }();
  return primes;
}
unsigned long residue(mpz_srcptr x, unsigned long q) { return mpz_fdiv_ui(x, q); }
unsigned long mul_mod(unsigned long a, unsigned long b, unsigned long q) {
  return static_cast<unsigned long>(static_cast<unsigned __int128>(a) * b % q);
}
std::string check_name(bool gmp) { return gmp ? "GMP" : "mod " + std::to_string(kCheckPrimes) + " primes"; }

/// tdiv_qr of a by a divisor of half its bits (b's top half): both results
/// compared with GMP's; above the GMP limit, n = q d + r modulo the check
/// primes, |r| < |d| and r = 0 or of n's sign (tdiv).
class DivisionCase : public OpCase {
 public:
  DivisionCase(Workload& w, bool gmp)
      : n_(w.A()), N_(w.a()), gmp_(gmp), D_(w.context()), q_(w.context()), r_(w.context()) {
    mpz_fdiv_q_2exp(d_.get(), w.b(), w.bits() - std::max<std::uint64_t>(w.bits() / 2, 1));
    D_ = Integer::from_mpz(d_.get(), w.context());
  }
  void run_mpgpu() override { tdiv_qr(q_, r_, n_, D_); }
  void run_gmp() override {
    if (gmp_) mpz_tdiv_qr(zq_.get(), zr_.get(), N_, d_.get());
  }
  bool runs_gmp() const override { return gmp_; }
  std::string check() const override { return check_name(gmp_); }
  bool verify() override {
    Mpz q, r;
    q_.to_mpz(q.get());
    r_.to_mpz(r.get());
    if (gmp_) return mpz_cmp(q.get(), zq_.get()) == 0 && mpz_cmp(r.get(), zr_.get()) == 0;
    if (mpz_cmpabs(r.get(), d_.get()) >= 0 || (mpz_sgn(r.get()) != 0 && mpz_sgn(r.get()) != mpz_sgn(N_)))
      return false;
    for (unsigned long p : check_primes())
      if ((mul_mod(residue(q.get(), p), residue(d_.get(), p), p) + residue(r.get(), p)) % p != residue(N_, p))
        return false;
    return true;
  }

 private:
  const Integer& n_;
  mpz_srcptr N_;
  bool gmp_;
  Mpz d_, zq_, zr_;
  Integer D_, q_, r_;
};

/// a * b (or a * a): device time; time from host operands to a host result
/// (run_with_transfers); GMP's mpz_mul. Above the GMP limit (mpz_mul of
/// 2^32-bit operands takes minutes on one core) GMP is not run, and the
/// product is checked modulo the check primes: (a mod q)(b mod q) = a b mod
/// q. A wrong product passes only if the error is a multiple of all four,
/// which no ordinary bug makes.
class ProductCase : public OpCase {
 public:
  ProductCase(Workload& w, bool square, bool gmp)
      : ctx_(w.context()), A_(w.A()), B_(square ? w.A() : w.B()), a_(w.a()), b_(square ? w.a() : w.b()),
        square_(square), gmp_(gmp), r_(w.context()), t_(w.context()) {}
  void run_mpgpu() override { compute(r_, A_, B_); }
  void run_gmp() override {
    if (gmp_) mpz_mul(z_.get(), a_, b_);
  }
  bool runs_gmp() const override { return gmp_; }
  std::string check() const override { return check_name(gmp_); }
  bool has_transfers() const override { return true; }
  void run_with_transfers() override {
    const Integer A = Integer::from_mpz(a_, ctx_);
    if (square_) {
      compute(t_, A, A);
    } else {
      const Integer B = Integer::from_mpz(b_, ctx_);
      compute(t_, A, B);
    }
    t_.to_mpz(zt_.get());
    transfers_ran_ = true;
  }
  bool verify() override {
    Mpz got;
    r_.to_mpz(got.get());
    if (transfers_ran_ && mpz_cmp(zt_.get(), got.get()) != 0) return false;
    if (gmp_) return mpz_cmp(got.get(), z_.get()) == 0;
    for (unsigned long p : check_primes())
      if (mul_mod(residue(a_, p), residue(b_, p), p) != residue(got.get(), p)) return false;
    return true;
  }

 private:
  void compute(Integer& r, const Integer& a, const Integer& b) const {
    if (square_) sqr(r, a);
    else mul(r, a, b);
  }
  Context ctx_;
  const Integer& A_;
  const Integer& B_;
  mpz_srcptr a_;
  mpz_srcptr b_;
  bool square_, gmp_, transfers_ran_ = false;
  Integer r_, t_;
  Mpz z_, zt_;
};

/// An unbalanced product: a times the top bits/64 bits of b (at least 64).
class UnbalancedMulCase : public OpCase {
 public:
  explicit UnbalancedMulCase(Workload& w) : A_(w.A()), a_(w.a()), S_(w.context()), r_(w.context()) {
    mpz_fdiv_q_2exp(s_.get(), w.b(), w.bits() - std::max<std::uint64_t>(w.bits() / 64, 64));
    S_ = Integer::from_mpz(s_.get(), w.context());
  }
  void run_mpgpu() override { mul(r_, A_, S_); }
  void run_gmp() override { mpz_mul(z_.get(), a_, s_.get()); }
  bool verify() override {
    Mpz got;
    r_.to_mpz(got.get());
    return mpz_cmp(got.get(), z_.get()) == 0;
  }

 private:
  const Integer& A_;
  mpz_srcptr a_;
  Mpz s_, z_;
  Integer S_, r_;
};

/// The value of a string of digits in base 10 or 16 (optional '-', lower-case
/// letters) modulo q, by Horner's rule over blocks of 15 digits.
unsigned long text_residue(const std::string& text, int base, unsigned long q) {
  std::size_t i = text.size() && text[0] == '-' ? 1 : 0;
  const bool negative = i == 1;
  unsigned long h = 0;
  while (i < text.size()) {
    const std::size_t len = std::min<std::size_t>(15, text.size() - i);
    unsigned long block = 0, scale = 1;
    for (std::size_t k = 0; k < len; ++k) {
      const char c = text[i + k];
      block = block * static_cast<unsigned long>(base) + static_cast<unsigned long>(c <= '9' ? c - '0' : c - 'a' + 10);
      scale *= static_cast<unsigned long>(base);
    }
    h = static_cast<unsigned long>((static_cast<unsigned __int128>(h) * scale + block) % q);
    i += len;
  }
  return negative && h ? q - h : h;
}

/// a in decimal or hex (to_string) against mpz_get_str: the strings compared.
/// Above the GMP limit (mpz_get_str of 2^30 bits takes tens of seconds),
/// GMP is not run: the text must be digits with no leading zero, of the
/// right length (mpz_sizeinbase or one less), and equal to a modulo the
/// check primes.
class ToStringCase : public OpCase {
 public:
  ToStringCase(Workload& w, bool gmp, int base) : A_(w.A()), a_(w.a()), gmp_(gmp), base_(base) {}
  void run_mpgpu() override { got_ = A_.to_string(base_); }
  void run_gmp() override {
    if (!gmp_) return;
    want_.assign(mpz_sizeinbase(a_, base_) + 2, '\0');
    mpz_get_str(want_.data(), base_, a_);
    want_.resize(std::char_traits<char>::length(want_.c_str()));
  }
  bool runs_gmp() const override { return gmp_; }
  std::string check() const override { return check_name(gmp_); }
  bool verify() override {
    if (gmp_) return got_ == want_;
    const std::size_t sign = mpz_sgn(a_) < 0 ? 1 : 0, bound = mpz_sizeinbase(a_, base_);
    const std::size_t digits = got_.size() - sign;
    if (got_.size() <= sign || digits > bound || digits + 1 < bound || (sign && got_[0] != '-')) return false;
    if (digits > 1 && got_[sign] == '0') return false;
    for (std::size_t i = sign; i < got_.size(); ++i)
      if (!((got_[i] >= '0' && got_[i] <= '9') || (base_ == 16 && got_[i] >= 'a' && got_[i] <= 'f'))) return false;
    for (unsigned long p : check_primes())
      if (text_residue(got_, base_, p) != residue(a_, p)) return false;
    return true;
  }

 private:
  const Integer& A_;
  mpz_srcptr a_;
  bool gmp_;
  int base_;
  std::string got_, want_;
};

/// a's decimal text parsed (from_string) against mpz_set_str. The text is
/// made once, untimed, when the case is built: by mpz_get_str, or above the
/// GMP limit (where mpz_get_str takes tens of seconds) by mpgpu's to_string.
/// The result must equal a; above the GMP limit mpz_set_str is not run.
class FromStringCase : public OpCase {
 public:
  FromStringCase(Workload& w, bool gmp, int base) : a_(w.a()), gmp_(gmp), base_(base), r_(w.context()) {
    if (!gmp) {  // mpgpu's text: a wrong one cannot parse back to a
      text_ = w.A().to_string(base);
      return;
    }
    text_.assign(mpz_sizeinbase(w.a(), base) + 2, '\0');
    mpz_get_str(text_.data(), base, w.a());
    text_.resize(std::char_traits<char>::length(text_.c_str()));
  }
  void run_mpgpu() override { r_ = Integer::from_string(text_, base_, r_.context()); }
  void run_gmp() override {
    if (gmp_) mpz_set_str(z_.get(), text_.c_str(), base_);
  }
  bool runs_gmp() const override { return gmp_; }
  std::string check() const override { return gmp_ ? check_name(true) : "equal to a"; }
  bool verify() override {
    Mpz got;
    r_.to_mpz(got.get());
    return mpz_cmp(got.get(), a_) == 0 && (!gmp_ || mpz_cmp(z_.get(), a_) == 0);
  }

 private:
  mpz_srcptr a_;
  bool gmp_;
  int base_;
  std::string text_;
  Integer r_;
  Mpz z_;
};

}  // namespace

const std::vector<OpInfo>& all_ops() {
  static const std::vector<OpInfo> ops = [] {
    std::vector<OpInfo> v = {
        {"add", 3.0 / 8, "a + b"},
        {"sub", 3.0 / 8, "a - b"},
        {"and", 3.0 / 8, "a & b"},
        {"ior", 3.0 / 8, "a | b"},
        {"xor", 3.0 / 8, "a ^ b"},
        {"mul_2exp", 0, "a << 1003"},
        {"fdiv_q_2exp", 0, "floor(a / 2^1003)"},
        {"cmp", 0, "cmp(a, a ^ 1): operands differ in the lowest bit only"},
        {"popcount", 0, "popcount(a)"},
        {"sum", 0, "sum of 8 terms"},
        // GMP multiplies 2^26-bit numbers in about a second on one core.
        {"mul", 0, "a * b", std::uint64_t{1} << 26},
        {"sqr", 0, "a * a", std::uint64_t{1} << 26},
        {"mul_unbalanced", 0, "a * s, s = top bits/64 bits of b", std::uint64_t{1} << 26},
        // Division by one limb: a memory-bound scan (read a, write q).
        {"tdiv_q_ui", 2.0 / 8, "a / 0xfedcba9876543211 (one-limb divisor)"},
        // GMP divides a 2^26-bit number by a 2^25-bit one in a few seconds.
        {"tdiv_qr", 0, "a / d and a % d, d = top half of b (bits/2 bits)", std::uint64_t{1} << 26},
        // GMP's mpz_get_str / mpz_set_str take about a second at 2^26 bits
        // and tens of seconds at 2^30 (the target size: --max-bits 2^30).
        {"to_string", 0, "a in decimal (to_string vs mpz_get_str)", std::uint64_t{1} << 26},
        {"from_string", 0, "a's decimal text parsed (from_string vs mpz_set_str)", std::uint64_t{1} << 26},
        // Hexadecimal: linear (a regrouping of bits) in GMP and on the device.
        {"to_hex", 0, "a in hex (to_string(16) vs mpz_get_str)", std::uint64_t{1} << 26},
        {"from_hex", 0, "a's hex text parsed (from_string(16) vs mpz_set_str)", std::uint64_t{1} << 26},
    };
    v.insert(v.end(), batch_ops().begin(), batch_ops().end());
    return v;
  }();
  return ops;
}

const OpInfo* find_op(std::string_view name) {
  for (const OpInfo& op : all_ops())
    if (op.name == name) return &op;
  return nullptr;
}

std::unique_ptr<OpCase> make_case(std::string_view name, Workload& w, std::uint64_t gmp_max_bits) {
  const Integer& A = w.A();
  const Integer& B = w.B();
  mpz_srcptr a = w.a();
  mpz_srcptr b = w.b();
  auto integer_case = [&](IntegerCase::MpgpuFn mp, IntegerCase::GmpFn gmp) {
    return std::make_unique<IntegerCase>(w.context(), std::move(mp), std::move(gmp));
  };
  if (name == "add")
    return integer_case([&A, &B](Integer& r) { add(r, A, B); }, [a, b](mpz_ptr z) { mpz_add(z, a, b); });
  if (name == "sub")
    return integer_case([&A, &B](Integer& r) { sub(r, A, B); }, [a, b](mpz_ptr z) { mpz_sub(z, a, b); });
  if (name == "and")
    return integer_case([&A, &B](Integer& r) { and_(r, A, B); }, [a, b](mpz_ptr z) { mpz_and(z, a, b); });
  if (name == "ior")
    return integer_case([&A, &B](Integer& r) { ior(r, A, B); }, [a, b](mpz_ptr z) { mpz_ior(z, a, b); });
  if (name == "xor")
    return integer_case([&A, &B](Integer& r) { xor_(r, A, B); }, [a, b](mpz_ptr z) { mpz_xor(z, a, b); });
  if (name == "mul_2exp")
    return integer_case([&A](Integer& r) { mul_2exp(r, A, kBenchShift); },
                        [a](mpz_ptr z) { mpz_mul_2exp(z, a, kBenchShift); });
  if (name == "fdiv_q_2exp")
    return integer_case([&A](Integer& r) { fdiv_q_2exp(r, A, kBenchShift); },
                        [a](mpz_ptr z) { mpz_fdiv_q_2exp(z, a, kBenchShift); });
  if (name == "cmp") {
    const Integer& N = w.A_near();
    mpz_srcptr n = w.a_near();
    return std::make_unique<ScalarCase<int>>([&A, &N] { return sign_of(cmp(A, N)); },
                                             [a, n] { return sign_of(mpz_cmp(a, n)); });
  }
  if (name == "popcount")
    return std::make_unique<ScalarCase<std::uint64_t>>(
        [&A] { return popcount(A); }, [a] { return static_cast<std::uint64_t>(mpz_popcount(a)); });
  if (name == "sum") {
    const std::vector<Integer>& terms = w.terms();
    const std::vector<Mpz>& gmp_terms = w.gmp_terms();
    // GMP has no sum: the plain loop of additions a GMP user writes.
    return integer_case([&terms](Integer& r) { sum(r, terms); },
                        [&gmp_terms](mpz_ptr z) {
                          mpz_add(z, gmp_terms[0].get(), gmp_terms[1].get());
                          for (std::size_t i = 2; i < gmp_terms.size(); ++i)
                            mpz_add(z, z, gmp_terms[i].get());
                        });
  }
  if (name == "mul" || name == "sqr")
    return std::make_unique<ProductCase>(w, name == "sqr", w.bits() <= gmp_max_bits);
  if (name == "mul_unbalanced") return std::make_unique<UnbalancedMulCase>(w);
  if (name == "tdiv_q_ui")
    return integer_case([&A](Integer& r) { tdiv_q_ui(r, A, kBenchLimbDivisor); },
                        [a](mpz_ptr z) { mpz_tdiv_q_ui(z, a, kBenchLimbDivisor); });
  if (name == "tdiv_qr") return std::make_unique<DivisionCase>(w, w.bits() <= gmp_max_bits);
  if (name == "to_string" || name == "to_hex")
    return std::make_unique<ToStringCase>(w, w.bits() <= gmp_max_bits, name == "to_hex" ? 16 : 10);
  if (name == "from_string" || name == "from_hex")
    return std::make_unique<FromStringCase>(w, w.bits() <= gmp_max_bits, name == "from_hex" ? 16 : 10);
  throw std::logic_error("mpgpu bench: unknown operation " + std::string(name));
}

}  // namespace mpgpu::cli
