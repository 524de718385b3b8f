#include "selftest_batch_gen.hpp"

#include <algorithm>
#include <thread>

namespace mpgpu::cli::selftest {

namespace {

std::string hex_of(mpz_srcptr z) { return short_hex(z); }

}  // namespace

HostBatch::HostBatch(std::uint64_t b, std::size_t n) : bits(b), count(n), limbs((b + 63) / 64), data(n * limbs, 0) {}

mpz_srcptr HostBatch::view(std::size_t i, __mpz_struct& storage) const {
  return mpz_roinit_n(&storage, at(i), static_cast<mp_size_t>(limbs));
}

std::string HostBatch::hex(std::size_t i) const {
  __mpz_struct v;
  return hex_of(view(i, v));
}

Batch HostBatch::upload(const Context& ctx) const {
  return Batch::from_limbs(data.data(), count, limbs, bits, ctx);
}

HostBatch random_batch(CaseRng& rng, std::uint64_t bits, std::size_t count) {
  HostBatch h(bits, count);
  for (std::size_t i = 0; i < count; ++i) {
    limb_t* p = h.at(i);
    const std::uint64_t r = rng.below(32);
    if (r == 0) continue;  // zero
    if (r == 1) {
      p[0] = 1;
    } else if (r < 4) {
      fill_value(rng, p, h.limbs, bits, Shape::all_ones);
    } else if (r < 5) {
      fill_value(rng, p, h.limbs, rng.between(1, bits), Shape::power_of_two);
    } else if (r < 7) {
      fill_value(rng, p, h.limbs, rng.log_uniform(bits), random_shape(rng));
    } else if (r < 18) {
      fill_value(rng, p, h.limbs, bits, Shape::runs);
    } else {
      fill_value(rng, p, h.limbs, bits, Shape::uniform);
    }
  }
  return h;
}

std::size_t pick_count(CaseEnv& env, double cost) {
  const double most = std::clamp(env.batch_budget / std::max(cost, 1.0), 1.0, double(1 << 20));
  const std::size_t max_count = static_cast<std::size_t>(most);
  const std::uint64_t r = env.rng.below(8);
  if (r < 4) return max_count;
  if (r == 4) {
    static const std::size_t edges[] = {1, 2, 31, 32, 33, 255, 256, 257};
    return std::min(max_count, edges[env.rng.below(8)]);
  }
  return env.rng.log_uniform(max_count);
}

void parallel_instances(std::size_t count, unsigned threads, const std::function<void(std::size_t, std::size_t)>& fn) {
  threads = static_cast<unsigned>(std::clamp<std::size_t>(count / 64, 1, std::max(1u, threads)));
  if (threads == 1) return fn(0, count);
  std::vector<std::thread> team;
  for (unsigned t = 0; t < threads; ++t)
    team.emplace_back([&, t] { fn(count * t / threads, count * (t + 1) / threads); });
  for (std::thread& th : team) th.join();
}

void store_instance(limb_t* out, std::size_t limbs, std::uint64_t bits, mpz_srcptr z) {
  std::fill(out, out + limbs, limb_t{0});
  if (mpz_sgn(z) >= 0 && mpz_sizeinbase(z, 2) <= bits) {  // the common case: no copy
    std::copy(mpz_limbs_read(z), mpz_limbs_read(z) + mpz_size(z), out);
    return;
  }
  Mpz t;
  mpz_fdiv_r_2exp(t.get(), z, bits);  // two's complement of a negative z
  std::copy(mpz_limbs_read(t.get()), mpz_limbs_read(t.get()) + mpz_size(t.get()), out);
}

HostBatch oracle(const CaseEnv& env, const HostBatch& a, const HostBatch* b, std::uint64_t rbits,
                 const InstanceOracle& f) {
  HostBatch want(rbits, a.count);
  parallel_instances(a.count, env.oracle_threads, [&](std::size_t lo, std::size_t hi) {
    Mpz r;
    __mpz_struct va, vb;
    for (std::size_t i = lo; i < hi; ++i) {
      f(r.get(), a.view(i, va), b ? b->view(i, vb) : nullptr);
      store_instance(want.at(i), want.limbs, rbits, r.get());
    }
  });
  return want;
}

void to_signed(mpz_ptr out, mpz_srcptr a, std::uint64_t bits) {
  mpz_set(out, a);
  if (bits > 0 && mpz_tstbit(a, bits - 1)) {
    Mpz p;
    mpz_setbit(p.get(), bits);
    mpz_sub(out, out, p.get());
  }
}

std::function<std::string(std::size_t)> describe_instances(const HostBatch& a, const HostBatch* b, const HostBatch* c) {
  return [&a, b, c](std::size_t i) {
    std::string s = "a = " + a.hex(i);
    if (b) s += ", b = " + b->hex(i);
    if (c) s += ", m = " + c->hex(i);
    return s;
  };
}

bool expect_instances(CaseOutcome& out, std::string_view what, const std::vector<limb_t>& got,
                      const std::vector<limb_t>& want, std::size_t limbs,
                      const std::function<std::string(std::size_t)>& describe) {
  if (got.size() != want.size()) {
    out.fail(std::string(what) + ": " + std::to_string(got.size()) + " limbs, want " + std::to_string(want.size()));
    return false;
  }
  if (got == want) return true;
  const std::size_t count = limbs ? want.size() / limbs : 0;
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < count; ++i)
    if (!std::equal(got.begin() + i * limbs, got.begin() + (i + 1) * limbs, want.begin() + i * limbs) && bad++ == 0)
      first = i;
  __mpz_struct g, w;
  out.fail(std::string(what) + ": " + std::to_string(bad) + " of " + std::to_string(count) +
           " instances differ; first: instance " + std::to_string(first) + " (" + describe(first) + "): got " +
           hex_of(mpz_roinit_n(&g, got.data() + first * limbs, static_cast<mp_size_t>(limbs))) + ", want " +
           hex_of(mpz_roinit_n(&w, want.data() + first * limbs, static_cast<mp_size_t>(limbs))));
  return false;
}

std::string describe_batch(std::uint64_t bits, std::size_t count) {
  return std::to_string(bits) + " bits x " + std::to_string(count) + (count == 1 ? " instance" : " instances");
}

}  // namespace mpgpu::cli::selftest
