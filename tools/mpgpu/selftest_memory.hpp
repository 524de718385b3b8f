// `mpgpu selftest`: memory pressure on a CUDA context. Two operands of a
// tenth of the free device memory each, then rounds of operations whose
// results cannot fit: each must throw OutOfMemory with the bytes asked for,
// leave its operands and destination as they were, leak nothing (the pool's
// live bytes and, once it is trimmed, the device's free memory return to
// where they were), and leave the context usable for the next operation.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "mpgpu/context.hpp"

namespace mpgpu::cli::selftest {

struct MemoryResult {
  bool ran = false;
  std::string note;  ///< why it was skipped, or what it used
  std::uint64_t rounds = 0, operations = 0, failures = 0;
  double seconds = 0;
};

/// `rounds` rounds after a first one that lets the context fill its caches.
/// Failures are printed to `out` as they happen.
MemoryResult run_memory_pressure(const Context& ctx, unsigned rounds, std::ostream& out);

}  // namespace mpgpu::cli::selftest
