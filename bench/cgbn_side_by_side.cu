// CGBN against mpgpu's batch device API, side by side: the same instances, the
// same GPU, the same run (issue 38, section 2). For each width (256 .. 8192
// bits, 3072 included):
//
//  powm    CGBN: our own kernel written with CGBN's public API the way its
//          sample samples/sample_03_powm/powm_odd.cu does it (fixed windows of
//          5 bits, 4 at 256 and 512 bits; cgbn_bn2mont, cgbn_mont_sqr,
//          cgbn_mont_mul, cgbn_mont2bn; the window table in local memory), and
//          CGBN's library cgbn_modular_power (Barrett, bit by bit); mpgpu:
//          mpgpu::batch::powm after setup_modulus, one kernel through
//          mpgpu::batch::launch<Env<W, G>>, as the library's own powm does.
//  mont    k dependent Montgomery products an instance (x = x y / R mod n, or
//          x = x^2 / R mod n), R = 2^bits for both libraries: cgbn_mont_mul /
//          cgbn_mont_sqr against montgomery_mul / montgomery_sqr. The inputs
//          come in Montgomery form (made by GMP); each kernel sets up its
//          modulus per instance (CGBN: np0 from cgbn_binary_inverse_ui32;
//          mpgpu: setup_modulus). The rate is products per second from the
//          difference of the kernel with k products and with none, so the
//          setup, loads and stores are not counted.
//  invert  cgbn_modular_inverse against mpgpu::batch::invert (odd full-width
//          moduli, a < m; instances without an inverse must say so in both).
//  gcd     cgbn_gcd against mpgpu::batch::gcd (full-width random a, b).
//
// CGBN runs at every threads-per-instance count TPI in {4, 8, 16, 32} that
// divides the words of the width with at most 32 words a thread; mpgpu at every
// group size G in {1, 2, 4, 8, 16, 32} that Env allows (W / G >= 4 and even)
// with at most 32 words a thread (so G = 1 up to 1024 bits), as the tuning sweep
// does. The tables give each library's best configuration, and mpgpu's at the
// G of its tuning tables (tuned_modular_group_size(W, instances) for powm and
// Montgomery products, tuned_gcd_group_size(W) for invert and gcd). 128-thread blocks
// for both (CGBN's sample's default; mpgpu's launch for G <= 32). Timing: CUDA
// events, one warm-up, the median of --reps runs (7). Every instance of every
// configuration is checked against GMP (mpz_powm, mpz_invert, mpz_gcd; the
// Montgomery chains against GMP computing the same chain); CGBN's mont_mul
// leaves results in [0, 2^bits) (one conditional subtraction), so its chains
// are checked mod n, mpgpu's exactly. A mismatch is printed loudly and the exit
// status is 1; speed never fails the run.
//
//   cgbn_side_by_side [--quick] [--widths 1024,2048] [--ops powm,mont,invert,gcd]
//                     [--reps N] [--k N] [--threads N] [--no-details]
//
// Build (scripts/cgbn-side-by-side does this, in parts compiled in parallel):
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -I include -I .cgbn/include -I bench \
//        bench/cgbn_side_by_side.cu -o cgbn_side_by_side -lgmp
// Compiled with -DSBS_UNIT=0 the file holds only the driver (main and the
// tables); with -DSBS_UNIT=BITS -DSBS_OP=N only the kernels and the runner of
// one operation (1 powm, 2 mont, 3 invert, 4 gcd) at that width; the parts
// link together into the same program (each registers its runners). Header-only use of mpgpu's
// device API (include/mpgpu/batch/batch.cuh); no mpgpu library is linked.
#include <gmp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

// The parts: SBS_UNIT = 0 the driver, = BITS one width; SBS_OP = 1 .. 4 one
// operation of it (powm, mont, invert, gcd), 0 or undefined all of them.
#if defined(SBS_UNIT)
#define SBS_ALL 0
#if !defined(SBS_OP)
#define SBS_OP 0
#endif
// CGBN's headers define a few host functions out of line (cgbn.cu's error
// reports; impl_mpz.cc's make_mask): give each part its own names for them, so
// that the parts link together.
#define SBS_JOIN2(a, u, o) a##_sbs_part_##u##_##o
#define SBS_JOIN(a, u, o) SBS_JOIN2(a, u, o)
#define SBS_RENAME(a) SBS_JOIN(a, SBS_UNIT, SBS_OP)
#define cgbn_error_report_alloc SBS_RENAME(cgbn_error_report_alloc)
#define cgbn_error_report_free SBS_RENAME(cgbn_error_report_free)
#define cgbn_error_report_check SBS_RENAME(cgbn_error_report_check)
#define cgbn_error_report_reset SBS_RENAME(cgbn_error_report_reset)
#define cgbn_error_string SBS_RENAME(cgbn_error_string)
#define make_mask SBS_RENAME(make_mask)
#else
#define SBS_ALL 1
#define SBS_UNIT (-1)
#define SBS_OP 0
#endif

#include "cgbn/cgbn.h"
#include "cuda_timing.cuh"
#include "mpgpu/batch/batch.cuh"

// The driver part (-DSBS_UNIT=0) leaves the helpers of the width parts unused.
#pragma nv_diag_suppress 177

namespace mb = mpgpu::batch;
using word_t = std::uint32_t;
static_assert(std::is_same_v<word_t, mb::word_t>);

// ---- shared by every part: options and results ------------------------------------------------

struct Options {
  std::vector<int> widths;
  bool quick = false;
  int reps = 7;
  int k = 64;
  unsigned threads = 0;
  bool powm = true, mont = true, invert = true, gcd = true;
  bool details = true;
};

/// One configuration of one kernel on one instance set.
struct Record {
  int bits = 0;
  std::size_t count = 0;
  std::string op;      ///< powm, mont_mul, mont_sqr, invert, gcd
  std::string lib;     ///< CGBN or mpgpu
  std::string kernel;  ///< powm_odd, modular_power, mont_mul, ..., powm, montgomery_mul, ...
  int config = 0;      ///< TPI (CGBN) or G (mpgpu)
  double ms = 0;       ///< median of one launch
  double ms0 = -1;     ///< Montgomery chains: the same kernel with no product
  double rate = 0;     ///< instances/s (Montgomery: products/s)
  std::size_t mismatches = 0;
};

struct Results {
  std::vector<Record> records;
  std::vector<std::string> failures;
};

enum SbsOp { sbs_powm = 1, sbs_mont = 2, sbs_invert = 3, sbs_gcd = 4 };

/// What a part brings: the runner of one operation at one width. Each part
/// registers its runners when the program starts; the driver looks them up.
struct Runner {
  int bits;
  int op;
  void (*run)(const Options&, Results&);
};
std::vector<Runner>& sbs_registry();  // defined with the driver

/// CGBN's parameter class (as its samples write it).
struct SbsCgbnParams {
  static const uint32_t TPB = 0;           // threads per block from blockDim.x
  static const uint32_t MAX_ROTATION = 4;  // CGBN's default
  static const uint32_t SHM_LIMIT = 0;
  static const bool CONSTANT_TIME = false;
};


namespace {

// ---- host helpers ----------------------------------------------------------------------------

struct Rng {  // splitmix64
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  word_t word() { return static_cast<word_t>(next() >> 32); }
};

struct Mpz {
  mpz_t z;
  Mpz() { mpz_init(z); }
  ~Mpz() { mpz_clear(z); }
  Mpz(const Mpz&) = delete;
  Mpz& operator=(const Mpz&) = delete;
};

void import_words(mpz_t z, const word_t* p, int words) { mpz_import(z, words, -1, 4, 0, 0, p); }

/// p = z as `words` words, zero-padded (z < 2^(32 words)).
void export_words(word_t* p, int words, const mpz_t z) {
  std::fill(p, p + words, 0u);
  if (mpz_sizeinbase(z, 2) > static_cast<std::size_t>(32 * words)) std::abort();
  std::size_t n = 0;
  mpz_export(p, &n, -1, 4, 0, 0, z);
}

/// -1, 0, 1 for a < b, a == b, a > b (words least significant first).
int compare_words(const word_t* a, const word_t* b, int words) {
  for (int i = words - 1; i >= 0; --i)
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

void sub_words(word_t* a, const word_t* b, int words) {  // a -= b
  std::uint64_t borrow = 0;
  for (int i = 0; i < words; ++i) {
    const std::uint64_t d = std::uint64_t{a[i]} - b[i] - borrow;
    a[i] = static_cast<word_t>(d);
    borrow = (d >> 32) & 1u;
  }
}

/// f(begin, end) over [0, n) on `threads` host threads (GMP references).
template <class F>
void parallel_for(std::size_t n, unsigned threads, F f) {
  threads = std::max(1u, threads);
  std::atomic<std::size_t> next{0};
  constexpr std::size_t chunk = 16;
  auto worker = [&] {
    for (;;) {
      const std::size_t b = next.fetch_add(chunk);
      if (b >= n) return;
      f(b, std::min(n, b + chunk));
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
}

/// Random full-width odd moduli (top bit set).
void random_moduli(std::vector<word_t>& m, std::size_t count, int words, Rng& rng) {
  m.resize(count * words);
  for (auto& w : m) w = rng.word();
  for (std::size_t i = 0; i < count; ++i) {
    m[i * words] |= 1u;
    m[i * words + words - 1] |= 0x80000000u;
  }
}

/// Random values below the moduli (full-width random, minus m once if >= m:
/// m > 2^(bits-1), so the value is then below m).
void random_below(std::vector<word_t>& a, const std::vector<word_t>& m, std::size_t count, int words, Rng& rng) {
  a.resize(count * words);
  for (auto& w : a) w = rng.word();
  for (std::size_t i = 0; i < count; ++i)
    if (compare_words(&a[i * words], &m[i * words], words) >= 0) sub_words(&a[i * words], &m[i * words], words);
}

void random_full(std::vector<word_t>& a, std::size_t count, int words, Rng& rng, bool top_bit) {
  a.resize(count * words);
  for (auto& w : a) w = rng.word();
  if (top_bit)
    for (std::size_t i = 0; i < count; ++i) a[i * words + words - 1] |= 0x80000000u;
}

struct DevBuf {
  word_t* p = nullptr;
  std::size_t words = 0;
  explicit DevBuf(std::size_t n) : words(n) { CHECK(cudaMalloc(&p, std::max<std::size_t>(n, 1) * sizeof(word_t))); }
  DevBuf(const std::vector<word_t>& h) : DevBuf(h.size()) {
    CHECK(cudaMemcpy(p, h.data(), h.size() * sizeof(word_t), cudaMemcpyHostToDevice));
  }
  ~DevBuf() { CHECK(cudaFree(p)); }
  DevBuf(const DevBuf&) = delete;
  DevBuf& operator=(const DevBuf&) = delete;
  void poison() const { CHECK(cudaMemset(p, 0xA5, words * sizeof(word_t))); }
  std::vector<word_t> read(std::size_t n) const {
    std::vector<word_t> h(n);
    CHECK(cudaMemcpy(h.data(), p, n * sizeof(word_t), cudaMemcpyDeviceToHost));
    return h;
  }
};

// ---- configurations --------------------------------------------------------------------------

/// CGBN: threads per instance in {4, 8, 16, 32}, dividing the words, at most
/// 32 words a thread; kernels that divide (cgbn_bn2mont, cgbn_modular_power's
/// Barrett reduction) at most TPI words a thread, CGBN's limit for division
/// (its dlimbs_algs_multi has no implementation).
constexpr bool cgbn_tpi_ok(int W, int tpi, bool divides) {
  return W % tpi == 0 && W / tpi <= 32 && (!divides || W / tpi <= tpi);
}
/// mpgpu: Env<W, G> needs W / G >= 4 and even; at most 32 words a thread (the tuning sweep's range).
constexpr bool mpgpu_group_ok(int W, int G) { return W % G == 0 && W / G >= 4 && (W / G) % 2 == 0 && W / G <= 32; }

template <int W, bool Divides, class F>
void for_each_tpi(F&& f) {
  if constexpr (cgbn_tpi_ok(W, 4, Divides)) f(std::integral_constant<int, 4>{});
  if constexpr (cgbn_tpi_ok(W, 8, Divides)) f(std::integral_constant<int, 8>{});
  if constexpr (cgbn_tpi_ok(W, 16, Divides)) f(std::integral_constant<int, 16>{});
  if constexpr (cgbn_tpi_ok(W, 32, Divides)) f(std::integral_constant<int, 32>{});
}

template <int W, class F>
void for_each_group(F&& f) {
  if constexpr (mpgpu_group_ok(W, 1)) f(std::integral_constant<int, 1>{});
  if constexpr (mpgpu_group_ok(W, 2)) f(std::integral_constant<int, 2>{});
  if constexpr (mpgpu_group_ok(W, 4)) f(std::integral_constant<int, 4>{});
  if constexpr (mpgpu_group_ok(W, 8)) f(std::integral_constant<int, 8>{});
  if constexpr (mpgpu_group_ok(W, 16)) f(std::integral_constant<int, 16>{});
  if constexpr (mpgpu_group_ok(W, 32)) f(std::integral_constant<int, 32>{});
}

constexpr int kBlockThreads = 128;

// ---- CGBN kernels (CGBN's public API only) ----------------------------------------------------

template <int TPI, int BITS>
struct Cgbn {
  using context_t = cgbn_context_t<TPI, SbsCgbnParams>;
  using env_t = cgbn_env_t<context_t, BITS>;
  using bn_t = typename env_t::cgbn_t;
  using local_t = typename env_t::cgbn_local_t;
  using mem_t = cgbn_mem_t<BITS>;
  static __device__ __forceinline__ mem_t* at(word_t* p, uint32_t i) { return reinterpret_cast<mem_t*>(p) + i; }
  static __device__ __forceinline__ uint32_t instance() { return (blockIdx.x * blockDim.x + threadIdx.x) / TPI; }
  static unsigned blocks(std::size_t count) {
    return static_cast<unsigned>((count * TPI + kBlockThreads - 1) / kBlockThreads);
  }
};

/// r = x^e mod n, x < n, n odd with its top bit set, by fixed windows of
/// `Window` bits from the top, in Montgomery form (R = 2^BITS): as CGBN's
/// powm_odd sample computes it.
template <int TPI, int BITS, int Window>
__device__ __forceinline__ void cgbn_fixed_window_powm(typename Cgbn<TPI, BITS>::env_t env,
                                                       typename Cgbn<TPI, BITS>::bn_t& r,
                                                       const typename Cgbn<TPI, BITS>::bn_t& x,
                                                       const typename Cgbn<TPI, BITS>::bn_t& e,
                                                       const typename Cgbn<TPI, BITS>::bn_t& n) {
  using C = Cgbn<TPI, BITS>;
  typename C::local_t powers[1 << Window];  // x^j R mod n (local memory)
  typename C::bn_t t;
  // x^0 in Montgomery form: R mod n = 2^BITS - n, as n > 2^(BITS-1).
  cgbn_negate(env, t, n);
  cgbn_store(env, powers + 0, t);
  const uint32_t np0 = cgbn_bn2mont(env, r, x, n);
  cgbn_store(env, powers + 1, r);
  cgbn_set(env, t, r);
#pragma nounroll
  for (int j = 2; j < (1 << Window); ++j) {
    cgbn_mont_mul(env, r, r, t, n, np0);
    cgbn_store(env, powers + j, r);
  }
  int top = BITS - static_cast<int>(cgbn_clz(env, e));  // bit length of e
  if (top == 0) {
    cgbn_set_ui32(env, r, 1);  // e = 0 (never in this benchmark)
    return;
  }
  // The windows sit at multiples of Window from bit 0; start with the highest.
  int pos = (top - 1) / Window * Window;
  cgbn_load(env, r, powers + cgbn_extract_bits_ui32(env, e, pos, Window));
  while (pos > 0) {
#pragma nounroll
    for (int s = 0; s < Window; ++s) cgbn_mont_sqr(env, r, r, n, np0);
    pos -= Window;
    cgbn_load(env, t, powers + cgbn_extract_bits_ui32(env, e, pos, Window));
    cgbn_mont_mul(env, r, r, t, n, np0);
  }
  cgbn_mont2bn(env, r, r, n, np0);
}

template <int TPI, int BITS, int Window>
__global__ void cgbn_powm_odd_kernel(word_t* base, word_t* exp, word_t* mod, word_t* out, uint32_t count) {
  using C = Cgbn<TPI, BITS>;
  const uint32_t i = C::instance();
  if (i >= count) return;
  typename C::context_t context(cgbn_no_checks);
  typename C::env_t env(context);
  typename C::bn_t x, e, n, r;
  cgbn_load(env, x, C::at(base, i));
  cgbn_load(env, e, C::at(exp, i));
  cgbn_load(env, n, C::at(mod, i));
  cgbn_fixed_window_powm<TPI, BITS, Window>(env, r, x, e, n);
  cgbn_store(env, C::at(out, i), r);
}

template <int TPI, int BITS>
__global__ void cgbn_modular_power_kernel(word_t* base, word_t* exp, word_t* mod, word_t* out, uint32_t count) {
  using C = Cgbn<TPI, BITS>;
  const uint32_t i = C::instance();
  if (i >= count) return;
  typename C::context_t context(cgbn_no_checks);
  typename C::env_t env(context);
  typename C::bn_t x, e, n, r;
  cgbn_load(env, x, C::at(base, i));
  cgbn_load(env, e, C::at(exp, i));
  cgbn_load(env, n, C::at(mod, i));
  cgbn_modular_power(env, r, x, e, n);
  cgbn_store(env, C::at(out, i), r);
}

/// k dependent Montgomery products: x = x y / R (or x^2 / R) mod n.
template <int TPI, int BITS, bool Square>
__global__ void cgbn_mont_chain_kernel(word_t* xm, word_t* ym, word_t* mod, word_t* out, uint32_t count, int k) {
  using C = Cgbn<TPI, BITS>;
  const uint32_t i = C::instance();
  if (i >= count) return;
  typename C::context_t context(cgbn_no_checks);
  typename C::env_t env(context);
  typename C::bn_t x, y, n;
  cgbn_load(env, x, C::at(xm, i));
  if constexpr (!Square) cgbn_load(env, y, C::at(ym, i));
  cgbn_load(env, n, C::at(mod, i));
  // np0 = -n^-1 mod 2^32, as CGBN's documentation computes it besides bn2mont.
  const uint32_t np0 = 0u - cgbn_binary_inverse_ui32(env, cgbn_get_ui32(env, n));
#pragma nounroll
  for (int j = 0; j < k; ++j) {
    if constexpr (Square) cgbn_mont_sqr(env, x, x, n, np0);
    else cgbn_mont_mul(env, x, x, y, n, np0);
  }
  cgbn_store(env, C::at(out, i), x);
}

template <int TPI, int BITS>
__global__ void cgbn_invert_kernel(word_t* a, word_t* mod, word_t* out, word_t* flags, uint32_t count) {
  using C = Cgbn<TPI, BITS>;
  const uint32_t i = C::instance();
  if (i >= count) return;
  typename C::context_t context(cgbn_no_checks);
  typename C::env_t env(context);
  typename C::bn_t x, m, r;
  cgbn_load(env, x, C::at(a, i));
  cgbn_load(env, m, C::at(mod, i));
  const bool ok = cgbn_modular_inverse(env, r, x, m);
  cgbn_store(env, C::at(out, i), r);
  if ((threadIdx.x & (TPI - 1)) == 0) flags[i] = ok ? 1u : 0u;
}

template <int TPI, int BITS>
__global__ void cgbn_gcd_kernel(word_t* a, word_t* b, word_t* out, uint32_t count) {
  using C = Cgbn<TPI, BITS>;
  const uint32_t i = C::instance();
  if (i >= count) return;
  typename C::context_t context(cgbn_no_checks);
  typename C::env_t env(context);
  typename C::bn_t x, y, g;
  cgbn_load(env, x, C::at(a, i));
  cgbn_load(env, y, C::at(b, i));
  cgbn_gcd(env, g, x, y);
  cgbn_store(env, C::at(out, i), g);
}

// ---- mpgpu bodies (the batch device API) -----------------------------------------------------

template <class E>
__device__ __forceinline__ void load_live(const E& env, typename E::Num& r, const word_t* p, std::size_t i, bool live) {
  if (live) mb::load(env, r, p + i * E::words);
  else mb::set_zero(env, r);  // padding instances run on zeros and store nothing
}

struct PowmBody {
  const word_t *base, *exp, *mod;
  word_t* out;
  template <class E>
  __device__ void operator()(const E& env, std::size_t i, bool live) const {
    typename E::Num x, e, n, r;
    load_live(env, x, base, i, live);
    load_live(env, e, exp, i, live);
    load_live(env, n, mod, i, live);
    mb::Modulus<E> m;
    mb::setup_modulus(env, m, n);
    mb::powm(env, r, x, e, m);
    if (live) mb::store(env, out + i * E::words, r);
  }
};

template <bool Square>
struct MontChainBody {
  const word_t *xm, *ym, *mod;
  word_t* out;
  int k;
  template <class E>
  __device__ void operator()(const E& env, std::size_t i, bool live) const {
    typename E::Num x, y, n, t;
    load_live(env, x, xm, i, live);
    if constexpr (!Square) load_live(env, y, ym, i, live);
    load_live(env, n, mod, i, live);
    mb::Modulus<E> m;
    mb::setup_modulus(env, m, n);
    for (int j = 0; j < k; ++j) {
      if constexpr (Square) mb::montgomery_sqr(env, t, x, m);
      else mb::montgomery_mul(env, t, x, y, m);
      x = t;
    }
    if (live) mb::store(env, out + i * E::words, x);
  }
};

struct InvertBody {
  const word_t *a, *mod;
  word_t *out, *status;
  template <class E>
  __device__ void operator()(const E& env, std::size_t i, bool live) const {
    typename E::Num x, m, r;
    load_live(env, x, a, i, live);
    load_live(env, m, mod, i, live);
    const word_t s = mb::invert(env, r, x, m);
    if (live) {
      mb::store(env, out + i * E::words, r);
      if (env.rank() == 0) status[i] = s;
    }
  }
};

struct GcdBody {
  const word_t *a, *b;
  word_t* out;
  template <class E>
  __device__ void operator()(const E& env, std::size_t i, bool live) const {
    typename E::Num x, y, g;
    load_live(env, x, a, i, live);
    load_live(env, y, b, i, live);
    mb::gcd(env, g, x, y);
    if (live) mb::store(env, out + i * E::words, g);
  }
};

// ---- timing and checking -----------------------------------------------------------------------

/// Median ms of `reps` launches after a warm-up; every launch checked.
template <class Launch>
double time_launch(int reps, Launch&& launch) {
  const double ms = mpgpu_bench::median_ms(nullptr, reps, [&] {
    launch();
    CHECK(cudaGetLastError());
  });
  CHECK(cudaDeviceSynchronize());
  return ms;
}

/// Instances of `got` that differ from `want` (W words each); with
/// `mod_once`, a value v with v - n == want also matches (CGBN's Montgomery
/// products are below 2^bits, not always below n).
std::size_t count_mismatches(const std::vector<word_t>& got, const std::vector<word_t>& want, std::size_t count,
                             int words, std::size_t* first, const std::vector<word_t>* mod_once = nullptr) {
  std::size_t bad = 0;
  std::vector<word_t> t(words);
  for (std::size_t i = 0; i < count; ++i) {
    const word_t* g = &got[i * words];
    const word_t* w = &want[i * words];
    bool ok = std::memcmp(g, w, words * sizeof(word_t)) == 0;
    if (!ok && mod_once) {
      const word_t* n = &(*mod_once)[i * words];
      if (compare_words(g, n, words) >= 0) {
        std::copy(g, g + words, t.begin());
        sub_words(t.data(), n, words);
        ok = std::memcmp(t.data(), w, words * sizeof(word_t)) == 0;
      }
    }
    if (!ok) {
      if (bad == 0 && first) *first = i;
      ++bad;
    }
  }
  return bad;
}

std::string config_name(const std::string& lib, int config) {
  return (lib == "CGBN" ? "TPI " : "G ") + std::to_string(config);
}

void add_record(Results& res, Record r) {
  std::fprintf(stderr, "  %5d bits %7zu inst  %-9s %-5s %-15s %-6s %9.3f ms  %10.4g/s  %s\n", r.bits, r.count,
               r.op.c_str(), r.lib.c_str(), r.kernel.c_str(), config_name(r.lib, r.config).c_str(), r.ms, r.rate,
               r.mismatches ? "MISMATCH" : "ok");
  res.records.push_back(std::move(r));
}

void note_mismatch(Results& res, const Record& r, std::size_t first) {
  char line[320];
  std::snprintf(line, sizeof line,
                "MISMATCH: %d bits, %s, %s %s at %s: %zu of %zu instances differ from GMP (first: instance %zu)",
                r.bits, r.op.c_str(), r.lib.c_str(), r.kernel.c_str(), config_name(r.lib, r.config).c_str(),
                r.mismatches, r.count, first);
  std::fprintf(stderr, "%s\n", line);
  res.failures.push_back(line);
}

// ---- instance counts -------------------------------------------------------------------------

/// powm: the counts of ANCHORS.md's CGBN rows (3072 bits in between).
std::vector<std::size_t> powm_counts(int bits, bool quick) {
  std::vector<std::size_t> c;
  switch (bits) {
    case 256: c = {131072}; break;
    case 512: c = {32768}; break;
    case 1024: c = {16384, 65536}; break;
    case 2048: c = {4096, 16384}; break;
    case 3072: c = {2048, 8192}; break;
    case 4096: c = {1024, 4096}; break;
    default: c = {1024}; break;
  }
  if (quick) c = {std::max<std::size_t>(256, c[0] / 4)};
  return c;
}

/// Montgomery chains: about 2^22 words an operand array.
std::size_t mont_count(int bits, bool quick) {
  std::size_t c = bits <= 256 ? 262144 : bits <= 512 ? 131072 : bits <= 1024 ? 65536 : bits <= 2048 ? 32768
                : bits <= 4096 ? 16384 : 8192;
  return quick ? c / 4 : c;
}

std::size_t gcd_count(int bits, bool quick) {
  std::size_t c = bits <= 256 ? 65536 : bits <= 512 ? 32768 : bits <= 1024 ? 16384 : bits <= 2048 ? 8192
                : bits <= 4096 ? 4096 : 2048;
  return quick ? c / 4 : c;
}

// ---- one width ---------------------------------------------------------------------------------

template <int W>
void run_powm(const Options& opt, Results& res) {
  constexpr int bits = W * 32;
  constexpr int window = bits <= 512 ? 4 : 5;  // as ANCHORS' CGBN rows
  const std::vector<std::size_t> counts = powm_counts(bits, opt.quick);
  const std::size_t total = *std::max_element(counts.begin(), counts.end());
  Rng rng{0x5eed0000ull + bits};
  std::vector<word_t> m, x, e, want(total * W);
  random_moduli(m, total, W, rng);
  random_below(x, m, total, W, rng);
  random_full(e, total, W, rng, /*top_bit=*/true);
  std::fprintf(stderr, "%d bits: powm references (GMP, %zu instances)\n", bits, total);
  parallel_for(total, opt.threads, [&](std::size_t b, std::size_t end) {
    Mpz zx, ze, zm, zr;
    for (std::size_t i = b; i < end; ++i) {
      import_words(zx.z, &x[i * W], W);
      import_words(ze.z, &e[i * W], W);
      import_words(zm.z, &m[i * W], W);
      mpz_powm(zr.z, zx.z, ze.z, zm.z);
      export_words(&want[i * W], W, zr.z);
    }
  });
  DevBuf dm(m), dx(x), de(e), dout(total * W);
  for (std::size_t ci = 0; ci < counts.size(); ++ci) {
    const std::size_t count = counts[ci];
    auto finish = [&](Record r) {
      std::size_t first = 0;
      r.mismatches = count_mismatches(dout.read(count * W), want, count, W, &first);
      r.rate = count / (r.ms / 1e3);
      if (r.mismatches) note_mismatch(res, r, first);
      add_record(res, std::move(r));
    };
    for_each_tpi<W, true>([&](auto tpi) {
      constexpr int T = decltype(tpi)::value;
      using C = Cgbn<T, bits>;
      dout.poison();
      Record r{bits, count, "powm", "CGBN", "powm_odd", T};
      r.ms = time_launch(opt.reps, [&] {
        cgbn_powm_odd_kernel<T, bits, window>
            <<<C::blocks(count), kBlockThreads>>>(dx.p, de.p, dm.p, dout.p, static_cast<uint32_t>(count));
      });
      finish(r);
    });
    if (ci == 0) {  // CGBN's library powm: the first (smaller) count only
      for_each_tpi<W, true>([&](auto tpi) {
        constexpr int T = decltype(tpi)::value;
        using C = Cgbn<T, bits>;
        dout.poison();
        Record r{bits, count, "powm", "CGBN", "modular_power", T};
        r.ms = time_launch(opt.reps, [&] {
          cgbn_modular_power_kernel<T, bits>
              <<<C::blocks(count), kBlockThreads>>>(dx.p, de.p, dm.p, dout.p, static_cast<uint32_t>(count));
        });
        finish(r);
      });
    }
    for_each_group<W>([&](auto group) {
      constexpr int G = decltype(group)::value;
      using E = mb::Env<W, G>;
      dout.poison();
      Record r{bits, count, "powm", "mpgpu", "powm", G};
      const PowmBody body{dx.p, de.p, dm.p, dout.p};
      r.ms = time_launch(opt.reps, [&] { CHECK((mb::launch<E, E::scratch_words>(body, count, nullptr))); });
      finish(r);
    });
  }
}

template <int W>
void run_mont(const Options& opt, Results& res) {
  constexpr int bits = W * 32;
  const std::size_t count = mont_count(bits, opt.quick);
  const int k = opt.k;
  Rng rng{0x3047000ull + bits};
  std::vector<word_t> m, x, y, xm(count * W), ym(count * W), want_mul(count * W), want_sqr(count * W);
  random_moduli(m, count, W, rng);
  random_below(x, m, count, W, rng);
  random_below(y, m, count, W, rng);
  std::fprintf(stderr, "%d bits: Montgomery references (GMP, %zu instances, k = %d)\n", bits, count, k);
  parallel_for(count, opt.threads, [&](std::size_t b, std::size_t end) {
    Mpz zx, zy, zm, zr, zt, zk, zR;
    mpz_setbit(zR.z, bits);  // R = 2^bits
    mpz_set_ui(zk.z, static_cast<unsigned long>(k));
    for (std::size_t i = b; i < end; ++i) {
      import_words(zx.z, &x[i * W], W);
      import_words(zy.z, &y[i * W], W);
      import_words(zm.z, &m[i * W], W);
      mpz_mul_2exp(zt.z, zx.z, bits);  // x R mod n
      mpz_mod(zt.z, zt.z, zm.z);
      export_words(&xm[i * W], W, zt.z);
      mpz_mul_2exp(zt.z, zy.z, bits);
      mpz_mod(zt.z, zt.z, zm.z);
      export_words(&ym[i * W], W, zt.z);
      // k products x y / R in Montgomery form: (x y^k) R mod n.
      mpz_powm(zt.z, zy.z, zk.z, zm.z);
      mpz_mul(zt.z, zt.z, zx.z);
      mpz_mul_2exp(zt.z, zt.z, bits);
      mpz_mod(zr.z, zt.z, zm.z);
      export_words(&want_mul[i * W], W, zr.z);
      // k squarings: x^(2^k) R mod n.
      mpz_set_ui(zt.z, 0);
      mpz_setbit(zt.z, static_cast<mp_bitcnt_t>(k));
      mpz_powm(zt.z, zx.z, zt.z, zm.z);
      mpz_mul_2exp(zt.z, zt.z, bits);
      mpz_mod(zr.z, zt.z, zm.z);
      export_words(&want_sqr[i * W], W, zr.z);
    }
  });
  DevBuf dm(m), dxm(xm), dym(ym), dout(count * W);
  // Times the chain of k products, checks it, then times it with none.
  auto measure = [&](Record r, bool square, bool mod_once, auto&& launch) {
    dout.poison();
    r.ms = time_launch(opt.reps, [&] { launch(k); });
    std::size_t first = 0;
    r.mismatches = count_mismatches(dout.read(count * W), square ? want_sqr : want_mul, count, W, &first,
                                    mod_once ? &m : nullptr);
    r.ms0 = time_launch(opt.reps, [&] { launch(0); });
    r.rate = r.ms > r.ms0 ? static_cast<double>(count) * k / ((r.ms - r.ms0) / 1e3) : 0.0;
    if (r.mismatches) note_mismatch(res, r, first);
    add_record(res, std::move(r));
  };
  auto cgbn = [&](auto square) {
    constexpr bool S = decltype(square)::value;
    for_each_tpi<W, false>([&](auto tpi) {
      constexpr int T = decltype(tpi)::value;
      using C = Cgbn<T, bits>;
      measure(Record{bits, count, S ? "mont_sqr" : "mont_mul", "CGBN", S ? "mont_sqr" : "mont_mul", T}, S, true,
              [&](int kk) {
                cgbn_mont_chain_kernel<T, bits, S><<<C::blocks(count), kBlockThreads>>>(
                    dxm.p, dym.p, dm.p, dout.p, static_cast<uint32_t>(count), kk);
              });
    });
  };
  auto mpgpu = [&](auto square) {
    constexpr bool S = decltype(square)::value;
    for_each_group<W>([&](auto group) {
      constexpr int G = decltype(group)::value;
      using E = mb::Env<W, G>;
      measure(Record{bits, count, S ? "mont_sqr" : "mont_mul", "mpgpu", S ? "montgomery_sqr" : "montgomery_mul", G},
              S, false, [&](int kk) {
                const MontChainBody<S> body{dxm.p, dym.p, dm.p, dout.p, kk};
                CHECK((mb::launch<E, E::scratch_words>(body, count, nullptr)));
              });
    });
  };
  cgbn(std::false_type{});
  mpgpu(std::false_type{});
  cgbn(std::true_type{});
  mpgpu(std::true_type{});
}

template <int W>
void run_invert(const Options& opt, Results& res) {
  constexpr int bits = W * 32;
  const std::size_t count = gcd_count(bits, opt.quick);
  Rng rng{0x1a7e000ull + bits};
  std::vector<word_t> m, a, want(count * W), exists(count);
  random_moduli(m, count, W, rng);
  random_below(a, m, count, W, rng);
  std::fprintf(stderr, "%d bits: inverse references (GMP, %zu instances)\n", bits, count);
  parallel_for(count, opt.threads, [&](std::size_t b, std::size_t end) {
    Mpz za, zm, zr;
    for (std::size_t i = b; i < end; ++i) {
      import_words(za.z, &a[i * W], W);
      import_words(zm.z, &m[i * W], W);
      exists[i] = mpz_invert(zr.z, za.z, zm.z) != 0;
      if (!exists[i]) mpz_set_ui(zr.z, 0);
      export_words(&want[i * W], W, zr.z);
    }
  });
  DevBuf dm(m), da(a), dout(count * W), dflag(count);
  // An instance matches when both say whether the inverse exists and, if it
  // does, the value is GMP's (CGBN leaves r undefined without an inverse).
  auto check = [&](Record r, bool cgbn_flags) {
    const std::vector<word_t> got = dout.read(count * W), flag = dflag.read(count);
    std::size_t bad = 0, first = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const bool says = cgbn_flags ? flag[i] == 1u : flag[i] == mb::status_ok;
      const bool known = cgbn_flags ? flag[i] <= 1u : (flag[i] == mb::status_ok || flag[i] == mb::status_no_inverse);
      bool ok = known && says == (exists[i] != 0);
      if (ok && exists[i]) ok = std::memcmp(&got[i * W], &want[i * W], W * sizeof(word_t)) == 0;
      if (!ok && bad++ == 0) first = i;
    }
    r.mismatches = bad;
    r.rate = count / (r.ms / 1e3);
    if (bad) note_mismatch(res, r, first);
    add_record(res, std::move(r));
  };
  for_each_tpi<W, false>([&](auto tpi) {
    constexpr int T = decltype(tpi)::value;
    using C = Cgbn<T, bits>;
    dout.poison();
    dflag.poison();
    Record r{bits, count, "invert", "CGBN", "modular_inverse", T};
    r.ms = time_launch(opt.reps, [&] {
      cgbn_invert_kernel<T, bits>
          <<<C::blocks(count), kBlockThreads>>>(da.p, dm.p, dout.p, dflag.p, static_cast<uint32_t>(count));
    });
    check(r, true);
  });
  for_each_group<W>([&](auto group) {
    constexpr int G = decltype(group)::value;
    using E = mb::Env<W, G>;
    dout.poison();
    dflag.poison();
    Record r{bits, count, "invert", "mpgpu", "invert", G};
    const InvertBody body{da.p, dm.p, dout.p, dflag.p};
    r.ms = time_launch(opt.reps, [&] { CHECK((mb::launch<E, E::scratch_words>(body, count, nullptr))); });
    check(r, false);
  });
}

template <int W>
void run_gcd(const Options& opt, Results& res) {
  constexpr int bits = W * 32;
  const std::size_t count = gcd_count(bits, opt.quick);
  Rng rng{0x9cd0000ull + bits};
  std::vector<word_t> a, b, want(count * W);
  random_full(a, count, W, rng, false);
  random_full(b, count, W, rng, false);
  std::fprintf(stderr, "%d bits: gcd references (GMP, %zu instances)\n", bits, count);
  parallel_for(count, opt.threads, [&](std::size_t lo, std::size_t end) {
    Mpz za, zb, zr;
    for (std::size_t i = lo; i < end; ++i) {
      import_words(za.z, &a[i * W], W);
      import_words(zb.z, &b[i * W], W);
      mpz_gcd(zr.z, za.z, zb.z);
      export_words(&want[i * W], W, zr.z);
    }
  });
  DevBuf da(a), db(b), dout(count * W);
  auto finish = [&](Record r) {
    std::size_t first = 0;
    r.mismatches = count_mismatches(dout.read(count * W), want, count, W, &first);
    r.rate = count / (r.ms / 1e3);
    if (r.mismatches) note_mismatch(res, r, first);
    add_record(res, std::move(r));
  };
  for_each_tpi<W, false>([&](auto tpi) {
    constexpr int T = decltype(tpi)::value;
    using C = Cgbn<T, bits>;
    dout.poison();
    Record r{bits, count, "gcd", "CGBN", "gcd", T};
    r.ms = time_launch(opt.reps, [&] {
      cgbn_gcd_kernel<T, bits><<<C::blocks(count), kBlockThreads>>>(da.p, db.p, dout.p, static_cast<uint32_t>(count));
    });
    finish(r);
  });
  for_each_group<W>([&](auto group) {
    constexpr int G = decltype(group)::value;
    using E = mb::Env<W, G>;
    dout.poison();
    Record r{bits, count, "gcd", "mpgpu", "gcd", G};
    const GcdBody body{da.p, db.p, dout.p};
    // The library's gcd launches with the linear operations' scratch (comm + W words).
    r.ms = time_launch(opt.reps, [&] { CHECK((mb::launch<E, E::comm_words + E::words>(body, count, nullptr))); });
    finish(r);
  });
}

}  // namespace

// ---- this part's runners ---------------------------------------------------------------------
namespace {

constexpr bool part_has(int bits, int op) {
  return SBS_ALL || (SBS_UNIT == bits && (SBS_OP == 0 || SBS_OP == op));
}

template <int W>
void register_width() {
  constexpr int bits = W * 32;
  if constexpr (part_has(bits, sbs_powm)) sbs_registry().push_back({bits, sbs_powm, &run_powm<W>});
  if constexpr (part_has(bits, sbs_mont)) sbs_registry().push_back({bits, sbs_mont, &run_mont<W>});
  if constexpr (part_has(bits, sbs_invert)) sbs_registry().push_back({bits, sbs_invert, &run_invert<W>});
  if constexpr (part_has(bits, sbs_gcd)) sbs_registry().push_back({bits, sbs_gcd, &run_gcd<W>});
}

[[maybe_unused]] const bool registered = [] {
  register_width<8>();
  register_width<16>();
  register_width<32>();
  register_width<64>();
  register_width<96>();
  register_width<128>();
  register_width<256>();
  return true;
}();

}  // namespace

// ---- the driver: options, the runs, the tables --------------------------------------------------
#if SBS_ALL || SBS_UNIT == 0
std::vector<Runner>& sbs_registry() {
  static std::vector<Runner> runners;
  return runners;
}

namespace {

/// The best (highest rate) record of a kernel on an instance set; nullptr if none.
const Record* best(const Results& res, int bits, std::size_t count, const std::string& op, const std::string& lib,
                   const std::string& kernel) {
  const Record* b = nullptr;
  for (const Record& r : res.records)
    if (r.bits == bits && r.count == count && r.op == op && r.lib == lib && r.kernel == kernel &&
        (!b || r.rate > b->rate))
      b = &r;
  return b;
}

const Record* at_config(const Results& res, int bits, std::size_t count, const std::string& op,
                        const std::string& lib, int config) {
  for (const Record& r : res.records)
    if (r.bits == bits && r.count == count && r.op == op && r.lib == lib && r.config == config) return &r;
  return nullptr;
}

bool all_verified(const Results& res, int bits, std::size_t count, const std::string& op) {
  for (const Record& r : res.records)
    if (r.bits == bits && r.count == count && r.op == op && r.mismatches) return false;
  return true;
}

std::string cell(const Record* r) {
  if (!r) return "-";
  char s[64];
  std::snprintf(s, sizeof s, "%.3g (%s %d)", r->rate, r->lib == "CGBN" ? "TPI" : "G", r->config);
  return s;
}

std::string ratio(const Record* a, const Record* b) {
  if (!a || !b || b->rate <= 0 || a->rate <= 0) return "-";
  char s[32];
  std::snprintf(s, sizeof s, "%.2fx", a->rate / b->rate);
  return s;
}

const char* verdict(bool ok) { return ok ? "verified" : "**MISMATCH**"; }

/// The instance sets of an operation, in the order they ran.
std::vector<std::pair<int, std::size_t>> sets(const Results& res, const std::string& op) {
  std::vector<std::pair<int, std::size_t>> s;
  for (const Record& r : res.records)
    if (r.op == op && std::find(s.begin(), s.end(), std::make_pair(r.bits, r.count)) == s.end())
      s.emplace_back(r.bits, r.count);
  return s;
}

/// The G the host API runs: the modular table's for powm and Montgomery
/// products, the general one's for invert and gcd.
int tuned_g(int bits) { return mb::tuned_gcd_group_size(bits / 32); }
int tuned_modular_g(int bits, std::size_t count) { return mb::tuned_modular_group_size(bits / 32, count); }

void print_tables(const Options& opt, const Results& res) {
  if (opt.powm) {
    std::printf(
        "### powm (full-width exponents, instances/s)\n\n"
        "| bits | instances | CGBN powm_odd (best TPI) | CGBN modular_power (best TPI) | mpgpu powm (best G) | "
        "mpgpu at tuned G | mpgpu / CGBN | tuned / CGBN | check |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (auto [bits, count] : sets(res, "powm")) {
      const Record* c = best(res, bits, count, "powm", "CGBN", "powm_odd");
      const Record* cl = best(res, bits, count, "powm", "CGBN", "modular_power");
      const Record* m = best(res, bits, count, "powm", "mpgpu", "powm");
      const Record* t = at_config(res, bits, count, "powm", "mpgpu", tuned_modular_g(bits, count));
      std::printf("| %d | %zu | %s | %s | %s | %s | %s | %s | %s |\n", bits, count, cell(c).c_str(), cell(cl).c_str(),
                  cell(m).c_str(), cell(t).c_str(), ratio(m, c).c_str(), ratio(t, c).c_str(),
                  verdict(all_verified(res, bits, count, "powm")));
    }
    std::printf("\n");
  }
  if (opt.mont) {
    std::printf(
        "### Montgomery products (%d dependent products an instance, products/s net of the setup)\n\n"
        "| bits | instances | CGBN mont_mul (best TPI) | mpgpu montgomery_mul (best G) | mpgpu at tuned G | mpgpu / CGBN "
        "| CGBN mont_sqr (best TPI) | mpgpu montgomery_sqr (best G) | mpgpu at tuned G | mpgpu / CGBN | check |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n",
        opt.k);
    for (auto [bits, count] : sets(res, "mont_mul")) {
      const Record* cm = best(res, bits, count, "mont_mul", "CGBN", "mont_mul");
      const Record* mm = best(res, bits, count, "mont_mul", "mpgpu", "montgomery_mul");
      const Record* tm = at_config(res, bits, count, "mont_mul", "mpgpu", tuned_modular_g(bits, count));
      const Record* cs = best(res, bits, count, "mont_sqr", "CGBN", "mont_sqr");
      const Record* ms = best(res, bits, count, "mont_sqr", "mpgpu", "montgomery_sqr");
      const Record* ts = at_config(res, bits, count, "mont_sqr", "mpgpu", tuned_modular_g(bits, count));
      const bool ok = all_verified(res, bits, count, "mont_mul") && all_verified(res, bits, count, "mont_sqr");
      std::printf("| %d | %zu | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", bits, count, cell(cm).c_str(),
                  cell(mm).c_str(), cell(tm).c_str(), ratio(mm, cm).c_str(), cell(cs).c_str(), cell(ms).c_str(),
                  cell(ts).c_str(), ratio(ms, cs).c_str(), verdict(ok));
    }
    std::printf("\n");
  }
  struct Two {
    const char *op, *title, *cgbn_kernel, *mpgpu_kernel;
  };
  for (const Two& t : {Two{"invert", "modular inverse (odd full-width moduli, instances/s)", "modular_inverse", "invert"},
                       Two{"gcd", "gcd (full-width random operands, instances/s)", "gcd", "gcd"}}) {
    if ((t.op == std::string("invert") && !opt.invert) || (t.op == std::string("gcd") && !opt.gcd)) continue;
    std::printf(
        "### %s\n\n"
        "| bits | instances | CGBN %s (best TPI) | mpgpu %s (best G) | mpgpu at tuned G | mpgpu / CGBN | tuned / CGBN "
        "| check |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- |\n",
        t.title, t.cgbn_kernel, t.mpgpu_kernel);
    for (auto [bits, count] : sets(res, t.op)) {
      const Record* c = best(res, bits, count, t.op, "CGBN", t.cgbn_kernel);
      const Record* m = best(res, bits, count, t.op, "mpgpu", t.mpgpu_kernel);
      const Record* tg = at_config(res, bits, count, t.op, "mpgpu", tuned_g(bits));
      std::printf("| %d | %zu | %s | %s | %s | %s | %s | %s |\n", bits, count, cell(c).c_str(), cell(m).c_str(),
                  cell(tg).c_str(), ratio(m, c).c_str(), ratio(tg, c).c_str(),
                  verdict(all_verified(res, bits, count, t.op)));
    }
    std::printf("\n");
  }
  if (opt.details) {
    std::printf(
        "### Every configuration\n\n"
        "| bits | instances | operation | library | kernel | TPI / G | ms | ms without products | rate/s | check |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (const Record& r : res.records) {
      char ms0[32] = "-";
      if (r.ms0 >= 0) std::snprintf(ms0, sizeof ms0, "%.4g", r.ms0);
      std::printf("| %d | %zu | %s | %s | %s | %s | %.4g | %s | %.4g | %s |\n", r.bits, r.count, r.op.c_str(),
                  r.lib.c_str(), r.kernel.c_str(), config_name(r.lib, r.config).c_str(), r.ms, ms0, r.rate,
                  r.mismatches ? "**MISMATCH**" : "verified");
    }
    std::printf("\n");
  }
}

std::vector<int> parse_list(const char* s) {
  std::vector<int> v;
  for (const char* p = s; *p;) {
    char* end = nullptr;
    const long x = std::strtol(p, &end, 10);
    if (end == p) return {};
    v.push_back(static_cast<int>(x));
    p = *end == ',' ? end + 1 : end;
    if (*end && *end != ',') return {};
  }
  return v;
}

int usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s [--quick] [--widths 256,512,1024,2048,3072,4096,8192] [--ops powm,mont,invert,gcd]\n"
               "          [--reps N] [--k N] [--threads N] [--no-details]\n",
               argv0);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  opt.threads = std::max(1u, std::thread::hardware_concurrency());
  bool widths_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") {
      opt.quick = true;
    } else if (a == "--widths" && i + 1 < argc) {
      opt.widths = parse_list(argv[++i]);
      widths_given = true;
      if (opt.widths.empty()) return usage(argv[0]);
    } else if (a == "--ops" && i + 1 < argc) {
      const std::string ops = std::string(",") + argv[++i] + ",";
      opt.powm = ops.find(",powm,") != std::string::npos;
      opt.mont = ops.find(",mont,") != std::string::npos;
      opt.invert = ops.find(",invert,") != std::string::npos;
      opt.gcd = ops.find(",gcd,") != std::string::npos;
      if (!opt.powm && !opt.mont && !opt.invert && !opt.gcd) return usage(argv[0]);
    } else if (a == "--reps" && i + 1 < argc) {
      opt.reps = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--k" && i + 1 < argc) {
      opt.k = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--threads" && i + 1 < argc) {
      opt.threads = static_cast<unsigned>(std::max(1, std::atoi(argv[++i])));
    } else if (a == "--no-details") {
      opt.details = false;
    } else {
      return usage(argv[0]);
    }
  }
  if (!widths_given)
    opt.widths = opt.quick ? std::vector<int>{256, 1024, 2048, 4096} : std::vector<int>{256, 512, 1024, 2048, 3072, 4096, 8192};
  if (opt.quick && opt.reps == 7) opt.reps = 3;
  for (int b : opt.widths)
    if (b != 256 && b != 512 && b != 1024 && b != 2048 && b != 3072 && b != 4096 && b != 8192) {
      std::fprintf(stderr, "cgbn_side_by_side: no width %d (256, 512, 1024, 2048, 3072, 4096, 8192)\n", b);
      return 2;
    }

  // Every runner asked for must be in this build (a build of some parts only
  // says so before anything runs).
  std::vector<const Runner*> plan;
  for (int b : opt.widths) {
    for (int op : {int{sbs_powm}, int{sbs_mont}, int{sbs_invert}, int{sbs_gcd}}) {
      if ((op == sbs_powm && !opt.powm) || (op == sbs_mont && !opt.mont) || (op == sbs_invert && !opt.invert) ||
          (op == sbs_gcd && !opt.gcd))
        continue;
      const Runner* found = nullptr;
      for (const Runner& r : sbs_registry())
        if (r.bits == b && r.op == op) found = &r;
      if (!found) {
        static const char* names[] = {"", "powm", "mont", "invert", "gcd"};
        std::fprintf(stderr, "cgbn_side_by_side: this build has no part for %s at %d bits\n", names[op], b);
        return 2;
      }
      plan.push_back(found);
    }
  }
  int device = 0;
  CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, device));
  std::printf("## CGBN and mpgpu side by side (bench/cgbn_side_by_side.cu)\n\n");
  std::printf(
      "Device: %s, %d SMs. Same instances for both libraries; 128-thread blocks; CUDA events, median of %d runs after "
      "a warm-up; every instance of every configuration checked against GMP (%u host threads)%s.\n\n",
      prop.name, prop.multiProcessorCount, opt.reps, opt.threads, opt.quick ? "; --quick: fewer instances" : "");

  Results res;
  for (const Runner* r : plan) r->run(opt, res);
  print_tables(opt, res);
  std::printf(
      "CGBN: our kernels through CGBN's public API (powm_odd as its sample_03_powm, fixed windows of %s bits), "
      "cgbn_no_checks; TPI in {4, 8, 16, 32} with at most 32 words a thread. mpgpu: mpgpu::batch device API, "
      "setup_modulus per instance, G in {1, .., 32} with 4 .. 32 words a thread (even); tuned G = "
      "tuned_modular_group_size(W, instances) for powm and Montgomery products, tuned_gcd_group_size(W) for invert and gcd. Ratios: mpgpu's rate over CGBN's best. Montgomery rates: (k products - none) per "
      "instance; CGBN's mont_mul results are checked mod n (they may lie in [n, 2^bits)).\n\n",
      "5 (4 at 256 and 512)");
  if (!res.failures.empty()) {
    std::printf("**MISMATCHES AGAINST GMP: %zu kernel configurations**\n\n", res.failures.size());
    for (const std::string& f : res.failures) std::printf("- %s\n", f.c_str());
    std::printf("\nAll instances verified against GMP: NO\n");
    return 1;
  }
  std::printf("All instances verified against GMP: yes\n");
  return 0;
}
#endif
