// fill and the copies (src/cuda/runtime.cu, src/cuda/staging.hpp,
// src/cuda/upload_ring.hpp), called directly; see backend_layer.hpp for the
// guards.
#include <random>

#include "cuda/staging.hpp"
#include "cuda/upload_ring.hpp"
#include "integer/backend_layer.hpp"

namespace backend_layer {
namespace {

// fill: cudaMemsetAsync for 0 and 2^64 - 1, else a kernel of 256-thread
// blocks, at most 65536 of them (more limbs stride).
const std::vector<std::size_t> kFillSizes = {0, 1, 255, 256, 257};
constexpr std::size_t kFillLong = 65536 * 256 + 3;

TEST_F(BackendLayer, Fill) {
  Operands gen(401);
  for (const StreamCase& sc : streams()) {
    std::vector<std::pair<std::size_t, limb_t>> cases;
    for (std::size_t n : kFillSizes)
      for (limb_t v : {limb_t{0}, ~limb_t{0}, limb_t{1}, limb_t{1} << 63, limb_t{0xAAAAAAAAAAAAAAAAull}, gen.limb()})
        cases.push_back({n, v});
    cases.push_back({kFillLong, gen.limb() | 2});  // the kernel, striding
    for (const auto& [n, value] : cases) {
      const bool odd = value % 2 == 1;
      const std::string what = "fill(r[" + std::to_string(n) + "], value = " + std::to_string(value) + ")" +
                               (odd ? ", one limb off" : "") + ", " + sc.name;
      Guarded r = limb_output(sc.s, n, odd);
      dc::fill(st(), sc.s, r.limbs(), n, value);
      r.read(sc.s);
      ::testing::AssertionResult ok = r.guards_intact();
      if (ok) {
        const Limbs got = r.limbs_read(n);
        for (std::size_t i = 0; i < n; ++i)
          if (got[i] != value) {
            ok = ::testing::AssertionFailure() << "limb " << i << " is " << hex(got[i]);
            break;
          }
      }
      if (!report(ok, what)) return;
    }
  }
}

// Copies: from the context's TuningParams::staging_min_bytes (the tuning
// table's kStagingMinBytes unless MPGPU_STAGING_MIN_BYTES says otherwise)
// through the pinned staging buffers, in chunks of staging_chunk_bytes
// (kStagingChunkBytes; clamped to [64 KiB, 256 MiB] as src/cuda/staging.cu
// does), a ring of kStagingBuffers; smaller ones are one cudaMemcpyAsync,
// host -> device ones through the upload ring while they take at most its
// share (upload_ring.hpp: a quarter of upload_ring_bytes). The sizes
// straddle each of these bounds, whatever the table says: 1 byte, a few,
// each bound and its neighbours, a chunk and a remainder, and the ring of
// buffers wrapped; sizes above kCopyMaxBytes (from an MPGPU_* override far
// above the table's) are left out, with a note.
constexpr std::size_t kCopyMaxBytes = std::size_t{1} << 30;

std::vector<std::size_t> copy_sizes(const mpgpu::TuningParams& t) {
  std::vector<std::size_t> sizes = {1, 8, 4095};
  const auto around = [&](std::size_t bound) {
    if (bound > 1) sizes.push_back(bound - 1);
    if (bound > 0) sizes.push_back(bound);
    sizes.push_back(bound + 1);
  };
  const std::size_t min_bytes = std::min(t.staging_min_bytes, kCopyMaxBytes + 1);  // no overflow below
  if (t.upload_ring_bytes != 0) {  // the ring's share, when it is below the staged copies
    const std::size_t ring = std::clamp(t.upload_ring_bytes, dc::kUploadRingMinBytes, dc::kUploadRingMaxBytes) /
                             dc::kUploadRingAlign * dc::kUploadRingAlign;
    const std::size_t share = ring / dc::kUploadRingShare / dc::kUploadRingAlign * dc::kUploadRingAlign;
    if (share < min_bytes) around(share);
  }
  around(min_bytes);
  const std::size_t chunk = std::clamp(t.staging_chunk_bytes, std::size_t{1} << 16, std::size_t{1} << 28);
  sizes.push_back(std::max(min_bytes, chunk) + 8);                                   // a chunk and 8 bytes
  sizes.push_back(std::max(min_bytes, (dc::kStagingBuffers + 1) * chunk + 3));  // the ring wrapped
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  while (sizes.back() > kCopyMaxBytes) {
    std::printf("[ layer  ] a copy of %zu bytes is beyond this test's sizes, left out\n", sizes.back());
    sizes.pop_back();
  }
  return sizes;
}

std::vector<unsigned char> random_bytes(std::size_t n, Operands& gen) {
  const Limbs v = make_limbs(Kind::random, (n + 7) / 8, gen);
  std::vector<unsigned char> out(n);
  std::memcpy(out.data(), v.data(), n);
  return out;
}

/// The first byte where got differs from want, as a failure.
::testing::AssertionResult same_bytes(const unsigned char* got, const std::vector<unsigned char>& want) {
  for (std::size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i])
      return ::testing::AssertionFailure() << "byte " << i << " of " << want.size() << " is " << hex(got[i])
                                           << ", expected " << hex(want[i]);
  return ::testing::AssertionSuccess();
}

TEST_F(BackendLayer, Copies) {
  Operands gen(402);
  const std::vector<std::size_t> sizes = copy_sizes(st().tuning);
  for (const StreamCase& sc : streams())
    for (std::size_t bytes : sizes)
      for (std::size_t offset : {std::size_t{0}, std::size_t{3}}) {
        const std::vector<unsigned char> data = random_bytes(bytes, gen);
        // Built with += (g++ 12's -Wrestrict misfires on "(" + std::to_string(...)).
        std::string where = "(";
        where += std::to_string(bytes) + " bytes, " + std::to_string(offset) + " bytes past a 16-byte boundary), ";
        where += sc.name;
        const auto named = [&](const char* fn) { return std::string(fn) + where; };
        {  // host -> device; the host buffer may be reused once it returns
          std::vector<unsigned char> src(offset + bytes);
          std::memcpy(src.data() + offset, data.data(), bytes);
          Guarded dst(sc.s, bytes, offset);
          dc::copy_to_device(st(), sc.s, dst.get(), src.data() + offset, bytes);
          std::fill(src.begin(), src.end(), static_cast<unsigned char>(0x5A));
          dst.read(sc.s);
          if (!report(all_of({dst.guards_intact(), same_bytes(dst.bytes(), data)}), named("copy_to_device")))
            return;
        }
        // A device source at the end of its allocation.
        DeviceMemory mem(offset + bytes);
        upload(sc.s, mem.get() + offset, data.data(), bytes);
        {  // device -> host; the host buffer is filled once it returns
          Guarded dst(sc.s, bytes, offset, /*on_host=*/true);
          dc::copy_to_host(st(), sc.s, dst.get(), mem.get() + offset, bytes);
          dst.read(sc.s);
          if (!report(all_of({dst.guards_intact(), same_bytes(dst.bytes(), data)}), named("copy_to_host"))) return;
        }
        {  // device -> device, stream-ordered
          Guarded dst(sc.s, bytes, (offset + 5) % 16);
          dc::copy_on_device(st(), sc.s, dst.get(), mem.get() + offset, bytes);
          dst.read(sc.s);
          if (!report(all_of({dst.guards_intact(), same_bytes(dst.bytes(), data)}), named("copy_on_device")))
            return;
        }
      }
}

// Small uploads return before their transfer (the context's upload ring,
// TuningParams::upload_ring_bytes, the tuning table's kUploadRingBytes
// unless MPGPU_UPLOAD_RING_BYTES says otherwise): thousands of them, of 1 byte to
// 64 KiB into slots revisited at random, queued behind fills that keep the
// stream busy, wrap the ring many times with transfers in flight. Each
// source is overwritten as soon as the call returns; later uploads to a
// slot land last; the slots' guards stay intact. Read back on the context's
// stream, which a copy on another stream orders itself before.
// Sanitizer-sized: 1000 uploads (~26 MB: a ring of 8 MiB, the table's
// today, still wraps three times) behind fills of 8 MiB; for a larger ring,
// as many uploads as wrap it three times.
TEST_F(BackendLayer, SmallUploadsWithoutWaiting) {
  constexpr std::size_t kSlot = (std::size_t{64} << 10) + 128, kSlots = 96, kGuard = 64;
  const std::size_t busy_bytes = mpgpu_test::sized(std::size_t{64} << 20, std::size_t{8} << 20);
  // Mean bytes of an upload below: 4 in 5 of up to kSlot - 2 kGuard bytes, 1 in 5 of up to 64.
  constexpr std::size_t kMeanUpload = (4 * (kSlot - 2 * kGuard) / 2 + 32) / 5;
  const std::size_t ring_bytes = std::min(st().tuning.upload_ring_bytes, dc::kUploadRingMaxBytes);
  const std::size_t uploads = std::max<std::size_t>(mpgpu_test::sized(4000, 1000), 3 * ring_bytes / kMeanUpload + 1);
  std::mt19937_64 rng(404);
  for (const StreamCase& sc : streams()) {
    DeviceMemory mem(kSlots * kSlot);
    DeviceMemory busy(busy_bytes);  // fills to queue the copies behind
    std::vector<unsigned char> want(kSlots * kSlot);
    fill_canary(want.data(), want.size());
    upload(sc.s, mem.get(), want.data(), want.size());
    for (std::size_t i = 0; i < uploads; ++i) {
      if (i % 50 == 0) dc::fill(st(), sc.s, reinterpret_cast<limb_t*>(busy.get()), busy_bytes / 8, rng() | 2);
      const std::size_t k = rng() % kSlots;
      std::size_t n = 1 + rng() % (kSlot - 2 * kGuard);
      if (i % 5 == 0) n = 1 + rng() % 64;
      std::vector<unsigned char> src(n);
      for (unsigned char& c : src) c = static_cast<unsigned char>(rng());
      unsigned char* const at = mem.get() + k * kSlot + kGuard;
      dc::copy_to_device(st(), sc.s, at, src.data(), n);
      std::memcpy(want.data() + k * kSlot + kGuard, src.data(), n);
      std::fill(src.begin(), src.end(), static_cast<unsigned char>(0x5A));
    }
    std::vector<unsigned char> got(want.size());
    download(st().stream, got.data(), mem.get(), got.size());
    std::size_t first = 0;
    while (first < got.size() && got[first] == want[first]) ++first;
    if (!report(first == got.size() ? ::testing::AssertionSuccess()
                                    : ::testing::AssertionFailure() << "byte " << first << " (slot " << first / kSlot
                                                                    << ") is " << hex(got[first]) << ", expected "
                                                                    << hex(want[first]),
                std::string("small uploads, ") + sc.name))
      return;
    BACKEND_LAYER_CUDA(cudaStreamSynchronize(sc.s));  // before busy and mem go
  }
}

// Many pieces at once (copy_pieces_to_device): groups of pieces through one
// ring region and one kernel, pieces too large for a region (over a quarter
// of the context's ring) alone, empty pieces, destinations one limb off a
// 16-byte boundary, behind fills that keep the stream busy; the sources are
// overwritten as soon as the call returns. Every slot holds its piece, the
// bytes between them their canary. Sanitizer-sized: fewer pieces.
TEST_F(BackendLayer, PiecesToDeviceAtOnce) {
  constexpr std::size_t kGuardLimbs = 8;
  std::mt19937_64 rng(405);
  for (const StreamCase& sc : streams()) {
    std::vector<std::size_t> sizes;
    for (int i = 0; i < mpgpu_test::sized(600, 150); ++i) sizes.push_back(i % 7 == 0 ? 0 : 1 + rng() % 3000);
    const std::size_t share = st().tuning.upload_ring_bytes / 4;  // a region's most (kUploadRingShare)
    if (share >= 4096) {  // (without a ring every piece goes alone anyway)
      sizes.push_back(share / 8 + 1);  // alone: over a region
      sizes.push_back(1);
      sizes.push_back(share / 8 - 40);  // about a region: a group of its own with its neighbours cut off
    }
    std::vector<std::size_t> at;  // each slot's first limb
    std::size_t total = 0;
    for (std::size_t n : sizes) {
      total += kGuardLimbs + (total % 2 == 0);  // every other slot one limb off 16 bytes
      at.push_back(total);
      total += n;
    }
    total += kGuardLimbs;
    DeviceMemory mem(total * sizeof(limb_t));
    DeviceMemory busy(std::size_t{8} << 20);
    std::vector<unsigned char> image(total * sizeof(limb_t));
    fill_canary(image.data(), image.size());
    upload(sc.s, mem.get(), image.data(), image.size());
    dc::fill(st(), sc.s, reinterpret_cast<limb_t*>(busy.get()), (std::size_t{8} << 20) / 8, rng() | 2);
    std::vector<Limbs> sources;
    std::vector<dc::HostLimbs> pieces;
    auto* const base = reinterpret_cast<limb_t*>(mem.get());
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      Limbs v(sizes[i]);
      for (limb_t& x : v) x = rng();
      if (i % 11 == 0 && !v.empty()) v.back() = ~limb_t{0};
      std::memcpy(image.data() + at[i] * sizeof(limb_t), v.data(), v.size() * sizeof(limb_t));
      sources.push_back(std::move(v));
    }
    for (std::size_t i = 0; i < sizes.size(); ++i) pieces.push_back({base + at[i], sources[i].data(), sizes[i]});
    dc::copy_pieces_to_device(st(), sc.s, pieces.data(), pieces.size());
    for (Limbs& v : sources) std::fill(v.begin(), v.end(), limb_t{0x5A5A5A5A5A5A5A5Aull});
    std::vector<unsigned char> got(image.size());
    download(st().stream, got.data(), mem.get(), got.size());
    std::size_t first = 0;
    while (first < got.size() && got[first] == image[first]) ++first;
    if (!report(first == got.size() ? ::testing::AssertionSuccess()
                                    : ::testing::AssertionFailure() << "byte " << first << " (limb " << first / 8
                                                                    << ") is " << hex(got[first]) << ", expected "
                                                                    << hex(image[first]),
                std::string("copy_pieces_to_device, ") + std::to_string(sizes.size()) + " pieces, " + sc.name))
      return;
    BACKEND_LAYER_CUDA(cudaStreamSynchronize(sc.s));
  }
}

}  // namespace
}  // namespace backend_layer
