// Annotations shared by code that both nvcc and a plain C++ compiler build.
// With g++ the CUDA qualifiers vanish, so the same source is the host version.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__CUDACC__)
#define MPGPU_HD __host__ __device__ __forceinline__
#define MPGPU_DEVICE_ONLY __device__ __forceinline__
#define MPGPU_UNROLL _Pragma("unroll")
#else
#define MPGPU_HD inline
#define MPGPU_UNROLL  // g++ would warn about an unknown pragma
#endif

namespace mpgpu {
/// One limb: 64 bits, little-endian order inside an integer, exactly GMP's
/// mp_limb_t on x86-64, so buffers pass between GMP and the device unchanged.
using limb_t = std::uint64_t;
inline constexpr int limb_bits = 64;
}  // namespace mpgpu
