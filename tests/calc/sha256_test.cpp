// The SHA-256 of `mpgpu calc --sha256` against known digests: the FIPS 180-4
// examples ("abc", the 56- and 112-byte messages), the empty message, a
// million 'a's, and messages whose lengths sit at the padding boundaries (55
// and 56 bytes need one and two final blocks), fed whole and in pieces.
#include <gtest/gtest.h>

#include <string>

#include "sha256.hpp"

namespace {

using mpgpu::cli::Sha256;
using mpgpu::cli::sha256_hex;

std::string hex(const std::array<std::uint8_t, 32>& d) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (std::uint8_t b : d) {
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

TEST(Sha256, FipsExamples) {
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopq"
                       "rlmnopqrsmnopqrstnopqrstu"),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/// "0123456789012..." of length n.
std::string digits_of_length(std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += static_cast<char>('0' + i % 10);
  return s;
}

TEST(Sha256, PaddingBoundaries) {
  // Digests from coreutils' sha256sum of the same messages.
  const std::pair<std::size_t, const char*> cases[] = {
      {55, "f34d5a0f80c0cbf84c8c0b90218c22637abd199965249da736a20143c8c9c9d9"},
      {56, "83aa034bda83e458a0dc9cbce0d4e354716aa0ff770ed37ac0ed2b292052e4af"},
      {63, "074f6e9ac301d5d1b6df6f1dfb8c6f89c187ea945d352ce6a29279a9c630680b"},
      {64, "9674d9e078535b7cec43284387a6ee39956188e735a85452b0050b55341cda56"},
      {65, "52774b57c10e45040a61c14d35c1c8ebefe880082313aa0a21ebb077734cd067"},
      {119, "d0cb70d05ff14123f114c0cca360c62077379cf1ac90e1bfafa9e9e4d827596a"},
      {127, "8e1814fdcfd56f26b96bcdba97754ab886dcb95373419b94a341a17d2634775e"},
      {128, "916e19992e7f9b1e8d9267c3324616dac8f4199419c6e4ebf68fda985f4b64ea"},
  };
  for (const auto& [n, want] : cases) EXPECT_EQ(sha256_hex(digits_of_length(n)), want) << n << " bytes";
}

TEST(Sha256, PiecewiseUpdatesGiveTheSameDigest) {
  const std::string msg = digits_of_length(1000);
  const std::string whole = sha256_hex(msg);
  for (std::size_t piece : {1u, 3u, 55u, 63u, 64u, 65u, 200u}) {
    Sha256 h;
    for (std::size_t i = 0; i < msg.size(); i += piece) h.update(msg.data() + i, std::min(piece, msg.size() - i));
    EXPECT_EQ(hex(h.finish()), whole) << "pieces of " << piece;
  }
}

}  // namespace
