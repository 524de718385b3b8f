// Rows of slots over Integers (include/mpgpu/device/slot_rows.cuh): the two
// maps that the level-at-once radix conversion needs beside ordinary
// Integer arithmetic, on the CUDA backend (one kernel each) and on the CPU
// backend (the same per-limb functions in a loop), so CI runs the algorithm
// that the GPU runs. Private to the library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "mpgpu/integer.hpp"

namespace mpgpu::detail {

/// A bit field of every slot of the row `src` (magnitude), as
/// device::SlotSource: slot j at limb j * stride (0: broadcast slot 0),
/// `extent` limbs a slot, bits [bit_offset, bit_offset + 64 width).
struct RowField {
  const Integer* src;
  std::size_t stride;
  std::size_t extent;
  std::uint64_t bit_offset;
  std::size_t width;
};

/// dst = sum over s < slots of field_(s mod G)(slot s / G) * 2^(64 s pitch)
/// for the G = 1 or 2 fields (G = 2 interleaves two rows), each field at
/// most `pitch` limbs wide. dst may be one of the sources.
void gather_slots(Integer& dst, std::size_t slots, std::size_t pitch, std::initializer_list<RowField> fields,
                  Stream s = {});

/// One correction step of a row division (device::corrected_limb): for each
/// slot whose limb pitch - 1 in t is set, r's slot becomes t's slot without
/// that limb and c's slot (its limb 0) goes up by one. Returns whether any
/// slot did.
bool correct_slots(Integer& r, Integer& c, const Integer& t, std::size_t slots, std::size_t pitch, Stream s = {});

}  // namespace mpgpu::detail
