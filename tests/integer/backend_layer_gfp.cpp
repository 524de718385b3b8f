// The big prime FFT (src/cuda/gfp_fft.cu) and the pointwise product of its
// fields (src/cuda/gfp_pointwise.cu), called directly against GMP: p = r^k
// + 1 (include/mpgpu/gfp/primes.hpp), elements of k base-r digits stored
// digit-major (digit d of element i at x[d n + i]), the value r^k = p - 1
// written as digits 0 .. 0, r (the field's one non-base-r case). The
// elements' values, the transforms' sums and the products are computed
// with GMP here; only omega (Chen et al.'s Algorithm 1, gfp/roots.hpp) comes
// from the library, and the test checks its order and omega^(N/K) = r. See
// backend_layer.hpp for the guards (words here, 8 bytes a word).
#include "integer/backend_layer.hpp"
#include "integer/backend_layer_words.hpp"
#include "mpgpu/gfp/primes.hpp"
#include "mpgpu/gfp/roots.hpp"

namespace backend_layer {
namespace {

namespace gfp = mpgpu::gfp;
using u64 = std::uint64_t;

/// p and the element <-> integer maps of one prime, written out.
struct Field {
  gfp::GfpPrime prime;
  u64 r;
  int k;
  Mpz p;
  explicit Field(const gfp::GfpPrime& q) : prime(q), r(q.radix()), k(q.k) {
    mpz_ui_pow_ui(p, r, static_cast<unsigned long>(k));
    mpz_add_ui(p, p, 1);
  }
  /// The value of element i of a digit-major vector of n elements.
  Mpz value(const std::vector<u64>& x, std::size_t n, std::size_t i) const {
    Mpz v;
    for (int d = k - 1; d >= 0; --d) {
      mpz_mul_ui(v, v, r);
      mpz_add_ui(v, v, x[static_cast<std::size_t>(d) * n + i]);
    }
    return v;
  }
  /// The canonical digits of v in [0, p) into element i.
  void put(std::vector<u64>& x, std::size_t n, std::size_t i, const Mpz& v) const {
    Mpz rest(v), p_minus_1;
    mpz_sub_ui(p_minus_1, p, 1);
    const bool special = mpz_cmp(rest, p_minus_1) == 0;
    for (int d = 0; d < k; ++d) {
      const std::size_t at = static_cast<std::size_t>(d) * n + i;
      x[at] = special ? (d + 1 == k ? r : 0) : mpz_fdiv_q_ui(rest, rest, r);
    }
  }
  /// n elements: random values below p, with zero and p - 1 among them.
  std::vector<u64> elements(std::size_t n, Operands& gen) const {
    std::vector<u64> x(n * static_cast<std::size_t>(k));
    for (std::size_t i = 0; i < n; ++i) {
      Mpz v;
      if (i % 7 == 3) mpz_sub_ui(v, p, 1);
      else if (i % 11 == 5) mpz_set_ui(v, 0);
      else mpz_tdiv_r(v, gen.uniform(mpz_sizeinbase(p, 2) + 64), p);
      put(x, n, i, v);
    }
    return x;
  }
};

/// X_m = sum_n x_n w^(n m) mod p for N = x.size() a power of two (radix 2,
/// recursive; checked against the sums themselves below).
std::vector<Mpz> dft(const std::vector<Mpz>& x, const Mpz& w, const Mpz& p) {
  const std::size_t n = x.size();
  if (n == 1) return x;
  std::vector<Mpz> even(n / 2), odd(n / 2);
  for (std::size_t i = 0; i < n / 2; ++i) {
    even[i] = x[2 * i];
    odd[i] = x[2 * i + 1];
  }
  Mpz w2;
  mpz_mul(w2, w, w);
  mpz_mod(w2, w2, p);
  const std::vector<Mpz> e = dft(even, w2, p), o = dft(odd, w2, p);
  std::vector<Mpz> out(n);
  Mpz t, wj = Mpz::from_ui(1);
  for (std::size_t j = 0; j < n / 2; ++j) {
    mpz_mul(t, wj, o[j]);
    mpz_mod(t, t, p);
    mpz_add(out[j], e[j], t);
    mpz_mod(out[j], out[j], p);
    mpz_sub(out[j + n / 2], e[j], t);
    mpz_mod(out[j + n / 2], out[j + n / 2], p);
    mpz_mul(wj, wj, w);
    mpz_mod(wj, wj, p);
  }
  return out;
}
std::vector<Mpz> naive_dft(const std::vector<Mpz>& x, const Mpz& w, const Mpz& p) {
  const std::size_t n = x.size();
  std::vector<Mpz> out(n);
  Mpz t;
  for (std::size_t m = 0; m < n; ++m)
    for (std::size_t j = 0; j < n; ++j) {
      mpz_powm_ui(t, w, static_cast<unsigned long>(j * m % n), p);
      mpz_mul(t, t, x[j]);
      mpz_add(out[m], out[m], t);
      mpz_mod(out[m], out[m], p);
    }
  return out;
}

/// omega of N points (the library's Algorithm 1), checked: order N and
/// omega^(N/K) = r.
Mpz omega_of(const Field& f, std::size_t n) {
  Mpz w, t;
  gfp::root_of_unity(w, f.prime, n);
  mpz_powm_ui(t, w, static_cast<unsigned long>(n / static_cast<std::size_t>(2 * f.k)), f.p);
  if (mpz_cmp_ui(t.get(), f.r) != 0) throw std::logic_error("gfp test: omega^(N/K) != r");
  mpz_powm_ui(t, w, static_cast<unsigned long>(n / 2), f.p);
  mpz_add_ui(t, t, 1);
  if (mpz_cmp(t, f.p) != 0) throw std::logic_error("gfp test: omega^(N/2) != -1");
  return w;
}

TEST(BackendLayerHost, GfpReferenceDftIsTheSums) {
  Operands gen(700);
  const Field f(gfp::p3);
  for (std::size_t n : {std::size_t{16}, std::size_t{32}}) {
    const Mpz w = omega_of(f, n);
    std::vector<Mpz> x(n);
    for (Mpz& v : x) mpz_tdiv_r(v, gen.uniform(600), f.p);
    const std::vector<Mpz> a = dft(x, w, f.p), b = naive_dft(x, w, f.p);
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(mpz_cmp(a[i], b[i]), 0) << "N = " << n << ", X_" << i;
    // And the element maps round-trip, p - 1 included.
    const std::vector<u64> e = f.elements(n, gen);
    std::vector<u64> back(e.size());
    for (std::size_t i = 0; i < n; ++i) f.put(back, n, i, f.value(e, n, i));
    EXPECT_EQ(back, e);
  }
}

// ---- gfp_fft -----------------------------------------------------------------------------

// Per stage, a group DFT kernel over N / K groups and, where the stage has
// twiddles or the inverse's N^-1 is due, a twiddle kernel over N elements
// (128 threads a block), between x and pool scratch: e = 1 (one stage, no
// twiddles: N^-1 alone), 2 and 3 (the result back in x after an odd count
// of stages, by a copy).
struct FftCase {
  gfp::GfpPrime prime;
  int e;
};

TEST_F(BackendLayer, GfpFft) {
  Operands gen(701);
  const std::vector<FftCase> cases = mpgpu_test::sized<std::vector<FftCase>>(
      {{gfp::p3, 1}, {gfp::p3, 2}, {gfp::p3, 3}, {gfp::p4, 1}, {gfp::p4, 2}, {gfp::p5, 1}, {gfp::p5, 2}},
      {{gfp::p3, 1}, {gfp::p3, 2}, {gfp::p4, 1}, {gfp::p5, 1}});
  std::size_t index = 0;
  for (const StreamCase& sc : streams())
    for (const FftCase& c : cases) {
      const Field f(c.prime);
      const std::size_t kk = static_cast<std::size_t>(f.k), big_k = 2 * kk;
      std::size_t n = 1;
      for (int i = 0; i < c.e; ++i) n *= big_k;
      const Mpz w = omega_of(f, n);
      // The table: omega^0 .. omega^(N-1), element-major (k digits each).
      std::vector<u64> table(n * kk), digit_major(n * kk);
      {
        Mpz power = Mpz::from_ui(1);
        std::vector<u64> one(kk);
        for (std::size_t i = 0; i < n; ++i) {
          f.put(one, 1, 0, power);
          std::copy(one.begin(), one.end(), table.begin() + static_cast<std::ptrdiff_t>(i * kk));
          mpz_mul(power, power, w);
          mpz_mod(power, power, f.p);
        }
      }
      Mpz w_inv, n_inv;
      mpz_invert(w_inv, w, f.p);
      mpz_set_ui(n_inv, static_cast<unsigned long>(n));
      mpz_invert(n_inv, n_inv, f.p);
      std::vector<u64> scale(kk);
      f.put(scale, 1, 0, n_inv);
      // forward; inverse scaled by N^-1; inverse unscaled (scale null).
      for (int mode = 0; mode < 3; ++mode) {
        ++index;
        if (!sanitizer_runs(sc, n, index, 2)) continue;
        const int dir = mode == 0 ? +1 : -1;
        const bool scaled = mode == 1, odd = index % 2 == 1;
        static const char* const modes[] = {"forward", "inverse, scaled by N^-1", "inverse, no scale"};
        const std::string what = "gfp_fft(k = " + std::to_string(f.k) + ", N = " + std::to_string(n) +
                                 " (e = " + std::to_string(c.e) + "), " + modes[mode] +
                                 (odd ? ", one word off" : "") + "), " + sc.name;
        const std::vector<u64> x = f.elements(n, gen);
        std::vector<Mpz> values(n);
        for (std::size_t i = 0; i < n; ++i) values[i] = f.value(x, n, i);
        std::vector<Mpz> sums = dft(values, dir > 0 ? w : w_inv, f.p);
        std::vector<u64> want(n * kk);
        for (std::size_t i = 0; i < n; ++i) {
          if (scaled) {
            mpz_mul(sums[i], sums[i], n_inv);
            mpz_mod(sums[i], sums[i], f.p);
          }
          f.put(want, n, i, sums[i]);
        }
        // x in place between guards of exactly N k words; the table an
        // input at the end of its allocation.
        std::unique_ptr<Guarded> data = word_output<u64>(sc.s, n * kk, odd);
        upload(sc.s, data->get(), x.data(), x.size() * sizeof(u64));
        const DeviceWords<u64> dtable(sc.s, table, !odd);
        dc::gfp_fft(st(), sc.s, f.k, f.r, static_cast<u64*>(data->get()), n, c.e, dtable.data(), dir,
                    scaled ? scale.data() : nullptr);
        data->read(sc.s);
        if (!report(all_of({data->guards_intact(), same_words<u64>(*data, want), dtable.unchanged(sc.s)}), what))
          return;
      }
    }
}

// ---- gfp_pointwise_mul -------------------------------------------------------------------

// A thread an element, 256 a block (grid_stride.hpp).
TEST_F(BackendLayer, GfpPointwiseMul) {
  Operands gen(702);
  const std::vector<std::size_t> counts =
      mpgpu_test::sized<std::vector<std::size_t>>({1, 2, 255, 256, 257, 3000}, {1, 255, 257});
  std::size_t index = 0;
  for (const StreamCase& sc : streams())
    for (const gfp::GfpPrime& prime : gfp::gfp_primes)
      for (std::size_t n : counts)
        for (int where = 0; where < 3; ++where) {  // out apart, out = a, out = b
          ++index;
          if (!sanitizer_runs(sc, n, index, 2)) continue;
          const Field f(prime);
          const std::size_t words = n * static_cast<std::size_t>(f.k);
          const bool odd = index % 2 == 1;
          const std::vector<u64> a = f.elements(n, gen), b = f.elements(n, gen);
          std::vector<u64> want(words);
          for (std::size_t i = 0; i < n; ++i) {
            Mpz v;
            mpz_mul(v, f.value(a, n, i), f.value(b, n, i));
            mpz_mod(v, v, f.p);
            f.put(want, n, i, v);
          }
          const std::string what = "gfp_pointwise_mul(k = " + std::to_string(f.k) + ", n = " + std::to_string(n) +
                                   ", " + kOutputPlaces[where] + (odd ? ", one word off" : "") + "), " + sc.name;
          const auto call = [&](u64* po, const u64* pa, const u64* pb) {
            dc::gfp_pointwise_mul(st(), sc.s, f.k, f.r, po, pa, pb, n);
          };
          if (!report(guarded_pointwise<u64>(sc.s, where, odd, a, b, want, call), what)) return;
        }
  // No elements: nothing written.
  for (const StreamCase& sc : streams()) {
    std::unique_ptr<Guarded> out = word_output<u64>(sc.s, 0, false);
    const DeviceWords<u64> da(sc.s, {}, false);
    dc::gfp_pointwise_mul(st(), sc.s, 8, gfp::p3.radix(), static_cast<u64*>(out->get()), da.data(), da.data(), 0);
    out->read(sc.s);
    if (!report(out->guards_intact(), std::string("gfp_pointwise_mul(n = 0), ") + sc.name)) return;
  }
}

}  // namespace
}  // namespace backend_layer
