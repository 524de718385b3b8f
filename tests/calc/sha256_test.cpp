// The SHA-256 of `mpgpu calc --sha256` against known digests: the FIPS 180-4
// examples ("abc", the 56- and 112-byte messages), the empty message, a
// million 'a's, and messages whose lengths sit at the padding boundaries (55
// and 56 bytes need one and two final blocks), fed whole and in pieces.
// Each block function (portable, SHA-NI) is tested on its own against those
// digests and against the other on random messages; the SHA-NI tests skip,
// saying so, on a CPU without the SHA extensions.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "sha256.hpp"

namespace {

using mpgpu::cli::Sha256;
using mpgpu::cli::sha256_hex;
using mpgpu::cli::detail::Sha256Blocks;

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

/// Bytes (167 i + 13) mod 256: every byte value, not only text.
std::string pattern_of_length(std::size_t n) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i * 167 + 13) % 256);
  return s;
}

/// The digest of `msg` by `blocks`, fed in pieces whose sizes cycle through
/// `pieces` (the whole message at once when empty).
std::string digest(Sha256Blocks blocks, const std::string& msg, std::initializer_list<std::size_t> pieces = {}) {
  Sha256 h(blocks);
  if (pieces.size() == 0) {
    h.update(msg.data(), msg.size());
    return hex(h.finish());
  }
  for (std::size_t i = 0; i < msg.size();) {
    for (std::size_t piece : pieces) {
      const std::size_t take = std::min(piece, msg.size() - i);
      h.update(msg.data() + i, take);
      i += take;
    }
  }
  return hex(h.finish());
}

enum class Path { portable, accelerated };

/// Each test below runs once per block function.
class Sha256Path : public testing::TestWithParam<Path> {
 protected:
  void SetUp() override {
    blocks_ = GetParam() == Path::portable ? mpgpu::cli::detail::sha256_blocks_portable()
                                           : mpgpu::cli::detail::sha256_blocks_accelerated();
    if (!blocks_) GTEST_SKIP() << "this CPU (or a non-x86-64 build) has no SHA extensions: SHA-NI path not tested";
  }
  Sha256Blocks blocks_ = nullptr;
};

TEST_P(Sha256Path, FipsExamples) {
  EXPECT_EQ(digest(blocks_, "abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(digest(blocks_, ""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(digest(blocks_, "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(digest(blocks_, std::string(1000000, 'a'), {1000, 1, 4095}),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_P(Sha256Path, LengthsAroundBlockBoundaries) {
  // Digests from Python's hashlib.sha256 of the same messages.
  const std::pair<std::size_t, const char*> cases[] = {
      {1, "9d1e0e2d9459d06523ad13e28a4093c2316baafe7aec5b25f30eba2e113599c4"},
      {55, "b2ca0adc388a66d3a5a7f6541239331d5a867eede554e11262241271faaf36c5"},
      {56, "3768eff44f1df02704a832cf708935fbed9bb74d0714fbe75454c266c4e12856"},
      {63, "dc06ea9e456da9f9fc2276564018231c36196ff7745bf505fd7f503aec5c67fd"},
      {64, "b68fe543b0b5a544e32eb08712e697bfcd3a3cb491563c3b1cba112d378f4bdb"},
      {65, "587cdb9ad9be371721f2f84a84eb09f2b698ec19bbe2d7c222179996547a04a6"},
      {119, "b27b61037be684924f5497ee79c784f09c971d8c8c3136f6270e0fd34775aa1b"},
      {120, "00c666e960132985e9c99dc98bf25782df791138d0f1252b69781694ed97d693"},
      {127, "805f2702e76ff5d578052c965ded05a689d9293fd86c5584b0db399d33e9745c"},
      {128, "cd77acfc16d0964a4c3ef06f0678a5c88d2d610de00f7b997676fea5b4d2ae9e"},
      {129, "2c0b373b4a62770395098399a7d08ca18fce440e3b6c35a22e5910eaf515b72c"},
  };
  for (const auto& [n, want] : cases) EXPECT_EQ(digest(blocks_, pattern_of_length(n)), want) << n << " bytes";

  // Every length 0..1100 at once: the SHA-256 of their 1101 digests
  // concatenated (raw bytes), also from hashlib.
  Sha256 all(blocks_);
  for (std::size_t n = 0; n <= 1100; ++n) {
    const std::string msg = pattern_of_length(n);
    Sha256 one(blocks_);
    one.update(msg.data(), msg.size());
    const auto d = one.finish();
    all.update(d.data(), d.size());
  }
  EXPECT_EQ(hex(all.finish()), "3cb47d103a8d886a7c4c986a2614cf0637db1977982ca6ad9fe89f9f721c2f9e");
}

TEST_P(Sha256Path, PiecewiseUpdatesGiveTheSameDigest) {
  // hashlib's digest of pattern_of_length(5000).
  const char* want = "914bf9049b69098cd909529e5a40fa51f27cf086d76b7041d1da90d5775aa960";
  const std::string msg = pattern_of_length(5000);
  EXPECT_EQ(digest(blocks_, msg), want);
  for (std::size_t piece : {1u, 3u, 55u, 63u, 64u, 65u, 127u, 128u, 200u, 4999u})
    EXPECT_EQ(digest(blocks_, msg, {piece}), want) << "pieces of " << piece;
  // Mixed sizes leave the buffer at every fill level and hand whole blocks
  // from unaligned addresses.
  EXPECT_EQ(digest(blocks_, msg, {1, 2, 3, 5, 7, 13, 55, 56, 63, 64, 65, 127, 129, 0, 1000}), want);
}

INSTANTIATE_TEST_SUITE_P(Paths, Sha256Path, testing::Values(Path::portable, Path::accelerated),
                         [](const testing::TestParamInfo<Path>& p) {
                           return p.param == Path::portable ? "portable" : "accelerated";
                         });

TEST(Sha256, AcceleratedMatchesPortableOnRandomMessages) {
  const Sha256Blocks fast = mpgpu::cli::detail::sha256_blocks_accelerated();
  if (!fast) GTEST_SKIP() << "this CPU (or a non-x86-64 build) has no SHA extensions: SHA-NI path not tested";
  const Sha256Blocks slow = mpgpu::cli::detail::sha256_blocks_portable();
  std::mt19937_64 rng(20240601);
  for (int trial = 0; trial < 200; ++trial) {
    // Mostly short (the padding cases), some up to 64 KiB.
    const std::size_t n = trial % 4 ? rng() % 300 : rng() % 65536;
    std::string msg(n, '\0');
    for (char& c : msg) c = static_cast<char>(rng());
    const std::size_t piece = 1 + rng() % 200;
    EXPECT_EQ(digest(fast, msg, {piece}), digest(slow, msg)) << n << " bytes in pieces of " << piece;
  }
}

}  // namespace
