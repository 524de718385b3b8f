// The bookkeeping of the small-upload ring (src/cuda/upload_ring.hpp)
// without a GPU: a simulated device whose "DMA" reads a region of the ring
// only when its transfer completes (in order per stream, at random times or
// when waited for), so that a region handed out while an earlier transfer
// still reads it delivers wrong bytes. Destinations have guard bytes.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <deque>
#include <random>
#include <vector>

#include "cuda/upload_ring.hpp"

namespace {

namespace dc = mpgpu::detail::cuda;
using dc::kUploadRingAlign;

/// Streams of transfers from a ring into a device buffer; events name the
/// transfer they were last recorded after.
struct SimDevice {
  struct Transfer {
    std::uint64_t serial;
    std::size_t ring_offset, dst_offset, bytes;
  };
  std::vector<char> ring;
  std::vector<char> memory;  // the device
  std::vector<std::deque<Transfer>> streams;
  std::vector<std::int64_t> event_serial;  // per event: its transfer, -1 if none yet
  std::vector<std::pair<std::size_t, int>> event_stream_of;
  std::vector<bool> completed;  // per serial
  std::uint64_t next_serial = 0;
  std::vector<std::uint64_t> waited;  // serials waited for, in order
  std::size_t events_made = 0;

  SimDevice(std::size_t ring_bytes, std::size_t memory_bytes, int stream_count)
      : ring(ring_bytes, '\0'), memory(memory_bytes, '\x5a'), streams(stream_count) {}

  void complete_front(int s) {
    const Transfer t = streams[s].front();
    streams[s].pop_front();
    std::memcpy(memory.data() + t.dst_offset, ring.data() + t.ring_offset, t.bytes);
    completed[t.serial] = true;
  }
  /// Queues a transfer on stream s and records event e after it.
  void send(int s, int e, std::size_t ring_offset, std::size_t dst_offset, std::size_t bytes) {
    streams[s].push_back({next_serial, ring_offset, dst_offset, bytes});
    completed.push_back(false);
    event_serial[e] = static_cast<std::int64_t>(next_serial);
    event_stream_of[e] = {static_cast<std::size_t>(next_serial), s};
    ++next_serial;
  }
  /// Whether a transfer not yet completed reads any byte of [offset, offset + bytes).
  bool region_busy(std::size_t offset, std::size_t bytes) const {
    for (const auto& q : streams)
      for (const Transfer& t : q)
        if (t.ring_offset < offset + bytes && offset < t.ring_offset + t.bytes) return true;
    return false;
  }
  void drain() {
    for (int s = 0; s < static_cast<int>(streams.size()); ++s)
      while (!streams[s].empty()) complete_front(s);
  }
};

struct SimEvents {
  using Event = int;
  SimDevice& dev;
  Event create() {
    dev.event_serial.push_back(-1);
    dev.event_stream_of.push_back({0, 0});
    ++dev.events_made;
    return static_cast<int>(dev.event_serial.size()) - 1;
  }
  bool done(Event e) const {
    const std::int64_t serial = dev.event_serial[e];
    return serial < 0 || dev.completed[serial];
  }
  void wait(Event e) {
    const std::int64_t serial = dev.event_serial[e];
    if (serial < 0) return;
    dev.waited.push_back(static_cast<std::uint64_t>(serial));
    const int s = dev.event_stream_of[e].second;
    while (!dev.completed[serial]) dev.complete_front(s);
  }
};

/// One upload as upload_ring.cu makes it: reserve, fill, send, record.
struct Uploader {
  SimDevice& dev;
  dc::UploadRegions<SimEvents>& regions;

  std::size_t upload(int stream, std::size_t dst_offset, const char* src, std::size_t bytes) {
    const auto r = regions.reserve(bytes);
    EXPECT_EQ(r.offset % kUploadRingAlign, 0u);
    EXPECT_LE(r.offset + bytes, dev.ring.size());
    EXPECT_FALSE(dev.region_busy(r.offset, bytes)) << "region at " << r.offset << " handed out while read";
    std::memcpy(dev.ring.data() + r.offset, src, bytes);
    dev.send(stream, r.event, r.offset, dst_offset, bytes);
    return r.offset;
  }
};

std::vector<char> random_bytes(std::size_t n, std::mt19937_64& rng) {
  std::vector<char> v(n);
  for (char& c : v) c = static_cast<char>(rng());
  return v;
}

TEST(UploadRing, TakesOnlySmallCopies) {
  const std::size_t ring = std::size_t{8} << 20, staging = std::size_t{1} << 20;
  EXPECT_FALSE(dc::upload_ring_takes(0, ring, staging));
  EXPECT_TRUE(dc::upload_ring_takes(1, ring, staging));
  EXPECT_TRUE(dc::upload_ring_takes(staging - 1, ring, staging));
  EXPECT_FALSE(dc::upload_ring_takes(staging, ring, staging));  // staged
  EXPECT_FALSE(dc::upload_ring_takes(64, 0, staging));           // no ring
  // A small ring: at most a quarter of it, rounded down to the alignment.
  const std::size_t small = 4096 + 100;
  EXPECT_TRUE(dc::upload_ring_takes(1024, small, staging));
  EXPECT_FALSE(dc::upload_ring_takes(1025, small, staging));
  EXPECT_FALSE(dc::upload_ring_takes(1, 1000, staging));  // share below one aligned region
  // A large staging threshold does not let copies past the ring's share.
  EXPECT_FALSE(dc::upload_ring_takes(ring / 4 + 1, ring, std::size_t{1} << 30));
  EXPECT_TRUE(dc::upload_ring_takes(ring / 4, ring, std::size_t{1} << 30));
}

// Regions follow each other, aligned; when the ring is full the next one
// wraps to 0 and waits for exactly the uploads it overlaps, oldest first.
TEST(UploadRing, WrapsAndWaitsForOverlapsOnly) {
  const std::size_t cap = 4096;
  SimDevice dev(cap, 1 << 16, 1);
  SimEvents events{dev};
  dc::UploadRegions<SimEvents> regions(events, cap, 64);
  Uploader up{dev, regions};
  ASSERT_EQ(regions.max_bytes(), 1024u);
  std::mt19937_64 rng(1);
  std::vector<std::vector<char>> sources;
  std::vector<std::size_t> offsets;
  for (int i = 0; i < 16; ++i) {  // 16 regions of 256: the ring full, nothing done
    sources.push_back(random_bytes(200, rng));
    offsets.push_back(up.upload(0, i * 256, sources.back().data(), 200));
    EXPECT_EQ(offsets.back(), static_cast<std::size_t>(i) * 256);
  }
  EXPECT_EQ(regions.in_flight(), 16u);
  EXPECT_TRUE(dev.waited.empty());
  // 600 bytes take 768 at 0: the three oldest uploads are waited for.
  sources.push_back(random_bytes(600, rng));
  EXPECT_EQ(up.upload(0, 16 * 256, sources.back().data(), 600), 0u);
  EXPECT_EQ(regions.in_flight(), 14u);
  EXPECT_EQ(dev.waited, (std::vector<std::uint64_t>{0, 1, 2}));
  // The next region follows at 768, overlapping the fourth upload only.
  sources.push_back(random_bytes(256, rng));
  EXPECT_EQ(up.upload(0, 16 * 256 + 1024, sources.back().data(), 256), 768u);
  EXPECT_EQ(regions.in_flight(), 14u);
  EXPECT_EQ(dev.waited, (std::vector<std::uint64_t>{0, 1, 2, 3}));
  dev.drain();
  for (std::size_t i = 0; i < 16; ++i)
    EXPECT_EQ(std::memcmp(dev.memory.data() + i * 256, sources[i].data(), 200), 0) << i;
  EXPECT_EQ(std::memcmp(dev.memory.data() + 16 * 256, sources[16].data(), 600), 0);
  EXPECT_EQ(std::memcmp(dev.memory.data() + 16 * 256 + 1024, sources[17].data(), 256), 0);
}

// On separate streams an upload's wait covers only its own stream: the
// ring must wait for each overlapped upload, not only the newest.
TEST(UploadRing, WaitsForEachOverlapAcrossStreams) {
  const std::size_t cap = 4096;
  SimDevice dev(cap, 1 << 16, 4);
  SimEvents events{dev};
  dc::UploadRegions<SimEvents> regions(events, cap, 64);
  Uploader up{dev, regions};
  std::mt19937_64 rng(2);
  std::vector<std::vector<char>> sources;
  for (int i = 0; i < 16; ++i) {
    sources.push_back(random_bytes(256, rng));
    up.upload(i % 4, i * 256, sources.back().data(), 256);
  }
  sources.push_back(random_bytes(1024, rng));
  EXPECT_EQ(up.upload(0, 16 * 256, sources.back().data(), 1024), 0u);  // overlaps uploads 0..3
  EXPECT_EQ(dev.waited, (std::vector<std::uint64_t>{0, 1, 2, 3}));  // each, oldest first
  dev.drain();
  for (std::size_t i = 0; i < 16; ++i)
    EXPECT_EQ(std::memcmp(dev.memory.data() + i * 256, sources[i].data(), 256), 0) << i;
  EXPECT_EQ(std::memcmp(dev.memory.data() + 16 * 256, sources[16].data(), 1024), 0);
}

// A region that does not fit before the end wraps to 0. An upload of the
// previous lap may still be in flight beyond the head (here on a slow
// stream while the others finished); it is waited for at the wrap, so that
// the uploads in flight stay one run in ring order.
TEST(UploadRing, WrapWaitsForTheTail) {
  const std::size_t cap = 4096;
  SimDevice dev(cap, 1 << 16, 2);
  SimEvents events{dev};
  dc::UploadRegions<SimEvents> regions(events, cap, 64);
  Uploader up{dev, regions};
  std::mt19937_64 rng(3);
  const std::vector<char> a = random_bytes(1024, rng), b = random_bytes(1024, rng), c = random_bytes(256, rng);
  EXPECT_EQ(up.upload(0, 0, a.data(), 1024), 0u);
  EXPECT_EQ(up.upload(0, 1024, a.data(), 1024), 1024u);
  EXPECT_EQ(up.upload(0, 2048, a.data(), 1024), 2048u);
  EXPECT_EQ(up.upload(0, 3072, a.data(), 768), 3072u);
  EXPECT_EQ(up.upload(1, 4096, c.data(), 256), 3840u);  // serial 4, slow stream
  while (!dev.streams[0].empty()) dev.complete_front(0);
  // The finished ones leave; the region wraps past the upload at 3840.
  EXPECT_EQ(up.upload(0, 8192, b.data(), 1024), 0u);  // serial 5
  EXPECT_EQ(up.upload(0, 9216, b.data(), 1024), 1024u);
  EXPECT_EQ(up.upload(0, 10240, b.data(), 1024), 2048u);
  EXPECT_EQ(up.upload(0, 11264, b.data(), 512), 3072u);
  EXPECT_TRUE(dev.waited.empty());
  // 1024 from 3584 pass the end: the upload at 3840 is waited for, then
  // the one at 0 that the new region overlaps.
  EXPECT_EQ(up.upload(0, 12288, a.data(), 1024), 0u);
  EXPECT_EQ(dev.waited, (std::vector<std::uint64_t>{4, 5}));
  dev.drain();
  EXPECT_EQ(std::memcmp(dev.memory.data() + 4096, c.data(), 256), 0);
  EXPECT_EQ(std::memcmp(dev.memory.data() + 8192, b.data(), 1024), 0);
  EXPECT_EQ(std::memcmp(dev.memory.data() + 11264, b.data(), 512), 0);
  EXPECT_EQ(std::memcmp(dev.memory.data() + 12288, a.data(), 1024), 0);
}

// When every event is in flight the oldest upload is waited for.
TEST(UploadRing, EventPoolBoundsUploadsInFlight) {
  const std::size_t cap = 1 << 16;
  SimDevice dev(cap, 1 << 16, 1);
  SimEvents events{dev};
  dc::UploadRegions<SimEvents> regions(events, cap, 4);
  Uploader up{dev, regions};
  const char byte = 7;
  for (int i = 0; i < 4; ++i) up.upload(0, i, &byte, 1);
  EXPECT_TRUE(dev.waited.empty());
  up.upload(0, 4, &byte, 1);
  ASSERT_EQ(dev.waited.size(), 1u);
  EXPECT_EQ(dev.waited[0], 0u);
  EXPECT_EQ(dev.events_made, 4u);
  EXPECT_EQ(regions.in_flight(), 4u);
  regions.wait_all();
  EXPECT_EQ(regions.in_flight(), 0u);
  EXPECT_TRUE(dev.streams[0].empty());
}

// Finished uploads leave without a wait, and an empty ring starts over at 0.
TEST(UploadRing, FinishedUploadsLeaveWithoutWaiting) {
  const std::size_t cap = 4096;
  SimDevice dev(cap, 1 << 16, 1);
  SimEvents events{dev};
  dc::UploadRegions<SimEvents> regions(events, cap, 64);
  Uploader up{dev, regions};
  const char byte = 1;
  EXPECT_EQ(up.upload(0, 0, &byte, 1), 0u);
  EXPECT_EQ(up.upload(0, 1, &byte, 1), 256u);
  dev.drain();
  EXPECT_EQ(up.upload(0, 2, &byte, 1), 0u);  // both done: start over
  EXPECT_TRUE(dev.waited.empty());
  EXPECT_EQ(regions.in_flight(), 1u);
}

// Many uploads of random sizes on random streams, transfers finishing at
// random: every destination receives its own bytes, later uploads to the
// same destination on the same stream land last, and the guards between
// destinations stay untouched.
TEST(UploadRing, ManySmallUploads) {
  for (std::size_t cap : {std::size_t{4096}, std::size_t{4096 + 256 * 3}, std::size_t{1} << 16}) {
    for (int stream_count : {1, 3}) {
      const std::size_t slot = cap / 4 + 64;  // destination slots, 32 guard bytes each side
      const std::size_t slots = 64;
      SimDevice dev(cap, slots * slot, stream_count);
      SimEvents events{dev};
      dc::UploadRegions<SimEvents> regions(events, cap, 16);
      Uploader up{dev, regions};
      std::mt19937_64 rng(cap * 31 + stream_count);
      std::vector<std::vector<char>> last(slots);
      std::vector<int> stream_of(slots);
      for (std::size_t k = 0; k < slots; ++k) stream_of[k] = static_cast<int>(k % stream_count);
      for (int i = 0; i < 20000; ++i) {
        const std::size_t k = rng() % slots;
        std::size_t n = 1 + rng() % regions.max_bytes();
        if (i % 7 == 0) n = regions.max_bytes();
        if (i % 11 == 0) n = kUploadRingAlign + 1;
        std::vector<char> src = random_bytes(n, rng);
        // This upload's bytes land over the slot's earlier ones.
        if (last[k].size() < n) last[k].resize(n);
        std::memcpy(last[k].data(), src.data(), n);
        up.upload(stream_of[k], k * slot + 32, src.data(), n);
        std::memset(src.data(), 0x33, n);  // the caller's buffer is free at once
        EXPECT_LE(regions.in_flight(), 16u);
        // The device makes progress at random.
        for (int s = 0; s < stream_count; ++s)
          while (!dev.streams[s].empty() && rng() % 3 == 0) dev.complete_front(s);
      }
      dev.drain();
      for (std::size_t k = 0; k < slots; ++k) {
        const char* at = dev.memory.data() + k * slot;
        for (std::size_t g = 0; g < 32; ++g) ASSERT_EQ(at[g], '\x5a') << "guard before slot " << k;
        ASSERT_EQ(std::memcmp(at + 32, last[k].data(), last[k].size()), 0) << "slot " << k << ", ring " << cap;
        for (std::size_t g = 32 + last[k].size(); g < slot; ++g) ASSERT_EQ(at[g], '\x5a') << "guard after slot " << k;
      }
      EXPECT_LE(dev.events_made, 16u);
    }
  }
}

}  // namespace
