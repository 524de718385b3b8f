// One instance of the device API's layout on the host: W 32-bit words,
// least significant first, from and to GMP values (for the tests that run
// Env<W, G> on the host: device_api_group_test, montgomery_rows_test).
#pragma once

#include <gmp.h>

#include <cstddef>
#include <vector>

#include "mpgpu/batch/word.cuh"
#include "support/mpz.hpp"

namespace instance_words {

/// x mod 2^(32 W) as W words.
template <int W>
std::vector<mpgpu::batch::word_t> words_of(const mpgpu_test::Mpz& x) {
  std::vector<mpgpu::batch::word_t> r(W, 0);
  mpgpu_test::Mpz y;
  mpz_fdiv_r_2exp(y, x, 32 * W);
  std::size_t n = 0;
  mpz_export(r.data(), &n, -1, sizeof(mpgpu::batch::word_t), 0, 0, y);
  return r;
}

/// The value of W words.
template <int W>
mpgpu_test::Mpz mpz_of(const std::vector<mpgpu::batch::word_t>& w) {
  mpgpu_test::Mpz r;
  mpz_import(r, W, -1, sizeof(mpgpu::batch::word_t), 0, 0, w.data());
  return r;
}

}  // namespace instance_words
