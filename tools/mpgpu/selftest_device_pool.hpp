// `mpgpu selftest`: what a device holds, for the memory-pressure check.
// Context::info() reports the device's free memory (cudaMemGetInfo), but the
// context's pool keeps freed blocks (its release threshold is "never"), so
// that number only returns to where it was once the pool is trimmed. This is
// the one place the tool calls the CUDA runtime itself (the default pool of
// the context's device: trim it, and read the bytes in live allocations).
#pragma once

#include <cstdint>
#include <optional>

#include "mpgpu/context.hpp"

namespace mpgpu::cli::selftest {

struct DevicePool {
  std::uint64_t used_bytes = 0;  ///< in live allocations of the pool (cudaMemPoolAttrUsedMemCurrent)
  std::uint64_t free_bytes = 0;  ///< the device's free memory after the trim (Context::info())
};

/// Synchronizes the device, returns the pool's unused memory to it, and
/// reads both numbers. nullopt on the CPU context, or when the tool was
/// built without the CUDA runtime.
std::optional<DevicePool> trimmed_device_pool(const Context& ctx);

}  // namespace mpgpu::cli::selftest
