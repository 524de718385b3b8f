// The host side of staged copies, without a GPU: the copy team (src/context/copy_team.hpp)
// with and without pages to fault in ahead, the fault-ahead windows and the
// chunk pipelines of src/cuda/staging.hpp driven by a ring whose transfers
// are memcpys, and the page advice of src/context/host_pages.hpp (contents never
// change). Destinations are fresh anonymous mappings, as a new mpz of many
// MiB is, with guard bytes around every copy.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "context/copy_team.hpp"
#include "context/host_pages.hpp"
#include "context/stream_copy.hpp"
#include "cuda/staging.hpp"

namespace {

using mpgpu::detail::CopyTeam;
namespace dc = mpgpu::detail::cuda;

/// A fresh private anonymous mapping (pages untouched), unmapped on scope exit.
struct Mapping {
  explicit Mapping(std::size_t n) : bytes(n) {
    void* p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    data = p == MAP_FAILED ? nullptr : static_cast<char*>(p);
  }
  ~Mapping() {
    if (data) munmap(data, bytes);
  }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  char* data;
  std::size_t bytes;
};

std::vector<char> random_bytes(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<char> v(n);
  for (char& c : v) c = static_cast<char>(rng());
  return v;
}

// Sizes around the 4 KiB part alignment and a thread count that does not
// divide them; the bytes just outside the copy stay as they were.
TEST(CopyTeam, CopiesExactlyWithGuards) {
  for (unsigned threads : {1u, 2u, 3u, 5u}) {
    CopyTeam team(threads);
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{4095}, std::size_t{4096}, std::size_t{4097},
                          std::size_t{3 * 4096 + 17}, std::size_t{1} << 20, (std::size_t{5} << 20) + 3}) {
      const std::vector<char> src = random_bytes(n + 1, static_cast<unsigned>(n));
      std::vector<char> dst(n + 64, '\x5a');
      team.copy(dst.data() + 32, src.data(), n);
      EXPECT_EQ(std::memcmp(dst.data() + 32, src.data(), n), 0) << n << " bytes, " << threads << " threads";
      for (std::size_t i = 0; i < 32; ++i) {
        ASSERT_EQ(dst[i], '\x5a') << "guard before, " << n << " bytes";
        ASSERT_EQ(dst[32 + n + i], '\x5a') << "guard after, " << n << " bytes";
      }
    }
  }
}

// Streaming stores (stream_copy.hpp): every misalignment of the destination
// and source against the 16-byte store width, lengths around the 64-byte
// loop step, and whole team copies; exact, guards untouched.
TEST(CopyTeam, StreamingStoresCopyExactlyWithGuards) {
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{15}, std::size_t{16}, std::size_t{63},
                        std::size_t{64}, std::size_t{65}, std::size_t{127}, std::size_t{4096 + 79}}) {
    for (std::size_t dst_off = 32; dst_off < 48; ++dst_off) {
      for (std::size_t src_off : {std::size_t{0}, std::size_t{1}, std::size_t{8}, std::size_t{13}}) {
        const std::vector<char> src = random_bytes(n + 16, static_cast<unsigned>(n + 131 * dst_off + src_off));
        std::vector<char> dst(n + 96, '\x5a');
        mpgpu::detail::stream_copy(dst.data() + dst_off, src.data() + src_off, n);
        ASSERT_EQ(std::memcmp(dst.data() + dst_off, src.data() + src_off, n), 0) << n << " bytes at +" << dst_off;
        for (std::size_t i = 0; i < dst_off; ++i) ASSERT_EQ(dst[i], '\x5a') << "guard before, " << n << " bytes";
        for (std::size_t i = dst_off + n; i < dst.size(); ++i) ASSERT_EQ(dst[i], '\x5a') << "guard after, " << n;
      }
    }
  }
  for (unsigned threads : {1u, 3u, 4u}) {
    CopyTeam team(threads);
    for (std::size_t n : {std::size_t{4097}, (std::size_t{3} << 20) + 5}) {
      const std::vector<char> src = random_bytes(n, static_cast<unsigned>(n + threads));
      std::vector<char> dst(n + 64, '\x5a');
      team.copy(dst.data() + 33, src.data(), n, nullptr, 0, CopyTeam::Stores::streaming);
      EXPECT_EQ(std::memcmp(dst.data() + 33, src.data(), n), 0) << n << " bytes, " << threads << " threads";
      for (std::size_t i = 0; i < 33; ++i) ASSERT_EQ(dst[i], '\x5a') << "guard before, " << n << " bytes";
      for (std::size_t i = 33 + n; i < dst.size(); ++i) ASSERT_EQ(dst[i], '\x5a') << "guard after, " << n;
    }
  }
}

// A team with more threads than the host has cores, beside threads that
// keep every core busy (threads sharing a context): copy after copy, each
// exact and the guards untouched, whichever threads claim the parts.
TEST(CopyTeam, ExactWhenCoresAreBusy) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  std::atomic<bool> stop{false};
  std::vector<std::thread> busy;
  for (unsigned i = 0; i < cores; ++i)
    busy.emplace_back([&] {
      volatile std::uint64_t x = 0;
      while (!stop.load(std::memory_order_relaxed)) x = x + 1;
    });
  {
    CopyTeam team(2 * cores + 1);
    const std::size_t n = (std::size_t{1} << 20) + 4096 + 3;
    const std::vector<char> src = random_bytes(n, 11);
    for (int round = 0; round < 200; ++round) {
      std::vector<char> dst(n + 64, '\x5a');
      team.copy(dst.data() + 32, src.data(), n - round);
      ASSERT_EQ(std::memcmp(dst.data() + 32, src.data(), n - round), 0) << "round " << round;
      for (std::size_t i = 0; i < 32; ++i) {
        ASSERT_EQ(dst[i], '\x5a') << "guard before, round " << round;
        ASSERT_EQ(dst[32 + n - round + i], '\x5a') << "guard after, round " << round;
      }
    }
    team.rest();
  }
  stop.store(true);
  for (std::thread& t : busy) t.join();
}

// Faulting in ahead leaves contents alone: written bytes keep their values,
// untouched ones read zero, and the copy of the same call is exact.
TEST(CopyTeam, FaultAheadKeepsContents) {
  for (unsigned threads : {1u, 3u, 8u}) {
    CopyTeam team(threads);
    const std::size_t n = (std::size_t{40} << 20) + 4096 * 3 + 5;  // spans whole huge pages per thread
    Mapping ahead(n + 8192);
    ASSERT_NE(ahead.data, nullptr);
    char* const at = ahead.data + 4096 + 7;  // neither page- nor huge-page-aligned
    std::memset(at + 100, 0x33, 5000);       // some of it written already
    const std::vector<char> src = random_bytes(3 << 20, threads);
    std::vector<char> dst(src.size());
    team.copy(dst.data(), src.data(), src.size(), at, n);
    EXPECT_EQ(dst, src);
    for (std::size_t i = 0; i < n; i += 4093) {
      const char want = i >= 100 && i < 5100 ? '\x33' : '\0';
      ASSERT_EQ(at[i], want) << "byte " << i << ", " << threads << " threads";
    }
    ASSERT_EQ(at[n - 1], '\0');
    for (std::size_t i = 0; i < n; i += std::size_t{1} << 20) {  // every page was touched
      EXPECT_TRUE(mpgpu::detail::page_resident(at + i)) << "byte " << i << " not faulted in";
    }
  }
}

TEST(HostPages, AdviceKeepsContents) {
  const std::size_t n = (std::size_t{36} << 20) + 12345;  // above kHugePageAdviceMinBytes
  Mapping m(n + 4096);
  ASSERT_NE(m.data, nullptr);
  char* const at = m.data + 1000;
  const std::vector<char> head = random_bytes(1 << 16, 7);
  std::memcpy(at, head.data(), head.size());
  mpgpu::detail::advise_huge_pages(at, n);
  mpgpu::detail::advise_huge_pages(at, 100);  // small: nothing
  mpgpu::detail::fault_in_for_write(at, n);
  mpgpu::detail::fault_in_for_write(at, 0);
  EXPECT_EQ(std::memcmp(at, head.data(), head.size()), 0);
  for (std::size_t i = head.size(); i < n; i += 4099) ASSERT_EQ(at[i], '\0') << i;
  std::memset(at, 0x11, n);  // the advised range is ordinary writable memory
  EXPECT_EQ(at[n - 1], '\x11');
}

// The windows follow each other, cover the destination once, and stay at
// least a window ahead of the chunk being drained.
TEST(FaultAhead, WindowsCoverTheDestinationOnce) {
  std::vector<char> dst(1000);
  for (std::size_t window : {1, 7, 64, 333, 1000, 4096}) {
    for (std::size_t chunk : {1, 10, 64, 999}) {
      if (chunk > window) continue;  // fault_ahead_bytes is at least a chunk
      dc::FaultAhead ahead{dst.data(), dst.data() + dst.size(), window};
      char* next = dst.data();
      auto take = [&](const char* upto) {
        const auto [at, len] = ahead.next(upto);
        if (!len) return;
        ASSERT_EQ(at, next);
        next += len;
        ASSERT_LE(next, dst.data() + dst.size());
      };
      take(dst.data());
      for (std::size_t off = 0; off < dst.size(); off += chunk) {
        const std::size_t end = std::min(dst.size(), off + chunk);
        take(dst.data() + end);
        ASSERT_TRUE(next == dst.data() + dst.size() || static_cast<std::size_t>(next - dst.data()) >= end + window)
            << "window " << window << ", chunk " << chunk << ", offset " << off;
      }
      EXPECT_EQ(next, dst.data() + dst.size()) << "window " << window << ", chunk " << chunk;
    }
  }
}

/// download_in_chunks with memcpy for the DMA and the team for the host,
/// faulting in ahead as staging.cu's ring does.
struct MemcpyDownloadRing {
  CopyTeam& team;
  std::vector<std::vector<char>> buffers;
  const char* src;
  char* dst;
  dc::FaultAhead ahead;
  int readies = 0;

  void wait(int) {}
  void receive(int b, std::size_t off, std::size_t len) { std::memcpy(buffers[b].data(), src + off, len); }
  void ready() {
    ++readies;
    const auto [at, len] = ahead.next(dst);
    team.copy(nullptr, nullptr, 0, at, len);
  }
  void drain(int b, std::size_t off, std::size_t len) {
    const auto [at, window] = ahead.next(dst + off + len);
    team.copy(dst + off, buffers[b].data(), len, at, window);
  }
};

TEST(StagingPipeline, DownloadIntoFreshMemoryIsExact) {
  for (unsigned threads : {1u, 4u}) {
    CopyTeam team(threads);
    for (std::size_t chunk : {std::size_t{65547}, std::size_t{1} << 20}) {
      for (std::size_t n : {std::size_t{1}, chunk - 1, chunk, chunk + 1, 4 * chunk + 3, (std::size_t{17} << 20) + 9}) {
        const std::vector<char> src = random_bytes(n, static_cast<unsigned>(n + chunk));
        Mapping m(n + 64);
        ASSERT_NE(m.data, nullptr);
        char* const dst = m.data + 32;
        MemcpyDownloadRing ring{team, std::vector<std::vector<char>>(4, std::vector<char>(chunk)), src.data(), dst,
                                dc::FaultAhead{dst, dst + n, dc::fault_ahead_bytes(threads, chunk)}};
        dc::download_in_chunks(ring, 4, dc::ChunkPlan{n, chunk});
        EXPECT_EQ(ring.readies, 1);
        EXPECT_EQ(std::memcmp(dst, src.data(), n), 0) << n << " bytes in chunks of " << chunk;
        for (int i = 0; i < 32; ++i) {
          ASSERT_EQ(m.data[i], '\0');
          ASSERT_EQ(dst[n + i], '\0');
        }
      }
    }
  }
}

}  // namespace
