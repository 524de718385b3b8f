// The public batched NTT on the device (include/mpgpu/ntt.hpp) through the
// block passes of include/mpgpu/ntt/block_ntt.cuh: canonical residues in
// and out, no conversion passes (Shoup twiddles on plain residues), the
// natural order fused into the last forward / first inverse pass, the 1/n
// scaling fused into the last inverse pass. Tables cached per (p, log_n).
//
// Memory passes (read + write of the data) per call: 1 up to 2^13 points,
// 2 up to 2^25 (bit-reversed) or 2^24 (natural), 3 beyond (the old radix-2
// code made 5 to 7 at 2^24: two Montgomery conversions, three radix-2
// passes, a bit reversal by random swaps).
#include <algorithm>
#include <cstdint>

#include "cuda/backend.hpp"
#include "cuda/check.cuh"
#include "cuda/scoped_memory.cuh"
#include "cuda/result_words.cuh"
#include "mpgpu/field/roots.hpp"
#include "mpgpu/ntt/block_ntt.cuh"

namespace mpgpu::detail::cuda {

/// The block-NTT tables of (p, log_n), made once per context and cached
/// (also used by ntt_mul.cu, which declares it).
const void* ntt_block_tables(ContextState& st, Stream s, std::uint64_t p, std::uint64_t generator, int log_n) {
  std::lock_guard<std::recursive_mutex> lock(st.mutex);
  auto key = std::make_pair(p, log_n);
  auto it = st.ntt_twiddles.find(key);
  if (it != st.ntt_twiddles.end()) return it->second;
  const ntt::BlockTableLayout layout = ntt::BlockTableLayout::make(log_n);
  std::uint64_t* tw = nullptr;
  MPGPU_CUDA_CHECK(cudaMalloc(&tw, layout.bytes()));
  const field::PrimeField64 f = field::PrimeField64::make(p);
  const std::uint64_t w = field::root_of_unity(p, generator, log_n);
  const unsigned blocks = static_cast<unsigned>((layout.entries() + 255) / 256);
  ntt::block_table_kernel<<<blocks, 256, 0, s>>>(reinterpret_cast<ulonglong2*>(tw), f, w, f.inv(w), log_n);
  const cudaError_t launch = cudaGetLastError();
  if (launch != cudaSuccess) {
    cudaFree(tw);
    MPGPU_CUDA_CHECK(launch);
  }
  // Later calls may come on other streams: finish the table once, here.
  const cudaError_t done = cudaStreamSynchronize(s);
  if (done != cudaSuccess) {
    cudaFree(tw);
    MPGPU_CUDA_CHECK(done);
  }
  st.ntt_twiddles.emplace(key, tw);
  return tw;
}

void ntt_transform(ContextState& st, Stream s, std::uint64_t* data, std::size_t batch, int log_n, std::uint64_t p,
                   std::uint64_t generator, bool forward, bool bit_reversed) {
  use_device(st.device);
  if (batch == 0 || log_n == 0) return;  // length 1: the transform is the identity (n^-1 = 1)
  const field::PrimeField64 f = field::PrimeField64::make(p);
  const ntt::BlockTables tables = ntt::BlockTables::view(ntt_block_tables(st, s, p, generator, log_n), log_n);
  const bool natural = !bit_reversed;
  // Several passes in natural order go through scratch (block_plan.hpp).
  const bool needs_scratch = natural && ntt::block_passes(log_n, batch, true).size() > 1;
  ScopedDeviceMemory scratch(st, s, needs_scratch ? (batch << log_n) * sizeof(std::uint64_t) : 0);
  ntt::BlockTransform t{};
  t.dst = data;
  t.work = needs_scratch ? scratch.as<std::uint64_t>() : data;
  t.src = data;
  t.src_len = std::uint64_t{1} << log_n;
  t.batch = batch;
  t.log_n = log_n;
  t.forward = forward;
  t.natural = natural;
  t.reduce_input = false;
  t.epilogue = forward ? ntt::PassEpilogue::canonical : ntt::PassEpilogue::scale;
  t.scale = forward ? 1 : f.inv((std::uint64_t{1} << log_n) % p);
  t.other = nullptr;
  MPGPU_CUDA_CHECK(ntt::run_block_transform(t, tables, f, s));
}

}  // namespace mpgpu::detail::cuda
