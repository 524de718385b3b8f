#include "sha256.hpp"

#include <algorithm>
#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace mpgpu::cli {

namespace {

// The first 32 bits of the fractional parts of the cube roots of the first
// 64 primes (FIPS 180-4, section 4.2.2). Aligned for the SHA-NI path's
// 16-byte loads of four constants at a time.
alignas(16) constexpr std::uint32_t kRound[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

constexpr std::uint32_t rotr(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

std::uint32_t load_be32(const std::uint8_t* p) {  // the message is big-endian
  return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
}

// Sections 6.2.2 and 4.1.2, with the message schedule kept as a ring of the
// last 16 words instead of all 64, and the state in locals across blocks.
void blocks_portable(std::uint32_t* state, const std::uint8_t* data, std::size_t blocks) {
  for (; blocks; --blocks, data += 64) {
    std::uint32_t w[16];
    for (int i = 0; i < 16; ++i) w[i] = load_be32(data + 4 * i);
    std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    std::uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    std::uint32_t b_xor_c = b ^ c;
    // Unrolled so that the ring indices are constants and the a..h rotation
    // is register renaming rather than moves.
#pragma GCC unroll 64
    for (int i = 0; i < 64; ++i) {
      if (i >= 16) {
        const std::uint32_t x = w[(i - 15) & 15], y = w[(i - 2) & 15];
        const std::uint32_t s0 = rotr(x ^ rotr(x, 11), 7) ^ (x >> 3);
        const std::uint32_t s1 = rotr(y ^ rotr(y, 2), 17) ^ (y >> 10);
        w[i & 15] += s0 + w[(i - 7) & 15] + s1;
      }
      // The sigmas as nested rotations: fewer register copies on x86's
      // two-operand instructions.
      const std::uint32_t s1 = rotr(e ^ rotr(e ^ rotr(e, 14), 5), 6);
      const std::uint32_t ch = g ^ (e & (f ^ g));
      const std::uint32_t t1 = h + s1 + ch + kRound[i] + w[i & 15];
      const std::uint32_t s0 = rotr(a ^ rotr(a ^ rotr(a, 9), 11), 2);
      // Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c)); this round's a ^ b is the
      // next round's b ^ c.
      const std::uint32_t a_xor_b = a ^ b;
      const std::uint32_t maj = b ^ (a_xor_b & b_xor_c);
      b_xor_c = a_xor_b;
      h = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + s0 + maj;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
  }
}

#if defined(__x86_64__)
// The SHA extensions: sha256rnds2 does two rounds on the state split as ABEF
// and CDGH; sha256msg1/msg2 compute the message schedule four words at a
// time. Compiled for those instructions in this function only, so the binary
// still runs on CPUs without them (they are checked before it is chosen).
__attribute__((target("sha,sse4.1"))) void blocks_shani(std::uint32_t* state, const std::uint8_t* data,
                                                        std::size_t blocks) {
  const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  // A..D, E..H (lanes low to high) -> ABEF, CDGH (lanes high to low).
  const __m128i dcba = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state));
  const __m128i hgfe = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state + 4));
  const __m128i cdab = _mm_shuffle_epi32(dcba, 0xb1);
  const __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1b);
  __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
  __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xf0);
  for (; blocks; --blocks, data += 64) {
    const __m128i abef_in = abef, cdgh_in = cdgh;
    __m128i m[4];  // m[j % 4] holds schedule words 4j..4j+3
#pragma GCC unroll 16
    for (int j = 0; j < 16; ++j) {
      __m128i& x = m[j % 4];
      if (j < 4) {
        x = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16 * j)), byte_swap);
      } else {
        // W[t] = W[t-16] + s0(W[t-15]) (msg1) + W[t-7] (alignr) + s1(W[t-2]) (msg2).
        const __m128i prev = m[(j + 3) % 4], prev2 = m[(j + 2) % 4];
        x = _mm_sha256msg1_epu32(x, m[(j + 1) % 4]);
        x = _mm_add_epi32(x, _mm_alignr_epi8(prev, prev2, 4));
        x = _mm_sha256msg2_epu32(x, prev);
      }
      const __m128i wk = _mm_add_epi32(x, _mm_load_si128(reinterpret_cast<const __m128i*>(kRound + 4 * j)));
      // Each rnds2 returns the new ABEF; the old ABEF is the new CDGH.
      cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
      abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0e));
    }
    abef = _mm_add_epi32(abef, abef_in);
    cdgh = _mm_add_epi32(cdgh, cdgh_in);
  }
  const __m128i feba = _mm_shuffle_epi32(abef, 0x1b);
  const __m128i dchg = _mm_shuffle_epi32(cdgh, 0xb1);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state), _mm_blend_epi16(feba, dchg, 0xf0));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state + 4), _mm_alignr_epi8(dchg, feba, 8));
}
#endif

}  // namespace

namespace detail {

Sha256Blocks sha256_blocks_portable() { return blocks_portable; }

Sha256Blocks sha256_blocks_accelerated() {
#if defined(__x86_64__)
  // cpuid rather than __builtin_cpu_supports("sha"), which clang 14 rejects:
  // SHA is leaf 7 EBX bit 29, SSE4.1 leaf 1 ECX bit 19 (every CPU with SHA-NI
  // so far has SSE4.1 too; checked anyway).
  static const bool has = [] {
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b >> 29 & 1)) return false;
    return __get_cpuid(1, &a, &b, &c, &d) && (c >> 19 & 1);
  }();
  return has ? blocks_shani : nullptr;
#else
  return nullptr;
#endif
}

}  // namespace detail

Sha256::Sha256() : Sha256(detail::sha256_blocks_accelerated() ? detail::sha256_blocks_accelerated()
                                                                : detail::sha256_blocks_portable()) {}

Sha256::Sha256(detail::Sha256Blocks blocks)
    : blocks_(blocks),
      // The first 32 bits of the fractional parts of the square roots of the
      // first 8 primes (section 5.3.3).
      state_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19} {}

void Sha256::update(const void* data, std::size_t size) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  total_bytes_ += size;
  if (buffered_) {  // complete a partial block first
    const std::size_t take = std::min(size, buffer_.size() - buffered_);
    std::memcpy(buffer_.data() + buffered_, p, take);
    buffered_ += take;
    p += take;
    size -= take;
    if (buffered_ < buffer_.size()) return;
    blocks_(state_.data(), buffer_.data(), 1);
    buffered_ = 0;
  }
  // Whole blocks straight from the caller's memory, without a copy.
  blocks_(state_.data(), p, size / 64);
  p += size / 64 * 64;
  std::memcpy(buffer_.data(), p, size % 64);
  buffered_ = size % 64;
}

std::array<std::uint8_t, 32> Sha256::finish() {
  // Padding (section 5.1.1): a 1 bit, zeros up to 56 mod 64 bytes, then the
  // message length in bits as a big-endian 64-bit number. buffered_ < 64, so
  // the 0x80 fits; past 56 bytes the length needs a second block.
  const std::uint64_t bits = total_bytes_ * 8;
  buffer_[buffered_++] = 0x80;
  if (buffered_ > 56) {
    std::fill(buffer_.begin() + buffered_, buffer_.end(), 0);
    blocks_(state_.data(), buffer_.data(), 1);
    buffered_ = 0;
  }
  std::fill(buffer_.begin() + buffered_, buffer_.begin() + 56, 0);
  for (int i = 0; i < 8; ++i) buffer_[56 + i] = static_cast<std::uint8_t>(bits >> (56 - 8 * i));
  blocks_(state_.data(), buffer_.data(), 1);
  std::array<std::uint8_t, 32> digest{};
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j) digest[4 * i + j] = static_cast<std::uint8_t>(state_[i] >> (24 - 8 * j));
  return digest;
}

std::string digest_hex(const std::array<std::uint8_t, 32>& digest) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (std::uint8_t byte : digest) {
    out += digits[byte >> 4];
    out += digits[byte & 15];
  }
  return out;
}

std::string sha256_hex(std::string_view data) {
  Sha256 h;
  h.update(data.data(), data.size());
  return digest_hex(h.finish());
}

}  // namespace mpgpu::cli
