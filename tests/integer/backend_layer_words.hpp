// Word inputs and outputs for the low-layer tests of the NTT and gfp layers
// (backend_layer_ntt.cpp, backend_layer_gfp.cpp): 64- or 32-bit words, not
// limbs, with backend_layer.hpp's guards.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "integer/backend_layer.hpp"

namespace backend_layer {

// ---- words (the NTT and gfp layers: 64- or 32-bit words, not limbs) ---------------

/// A word output of `capacity` words of type W between guards, aligned or
/// one word off.
template <class W>
std::unique_ptr<Guarded> word_output(cudaStream_t s, std::size_t capacity, bool odd) {
  return std::make_unique<Guarded>(s, capacity * sizeof(W), odd ? sizeof(W) : 0);
}

/// The first want.size() words W of an output (after read()) against `want`.
template <class W>
::testing::AssertionResult same_words(const Guarded& out, const std::vector<std::uint64_t>& want) {
  std::vector<W> got(want.size());
  if (!got.empty()) std::memcpy(got.data(), out.bytes(), got.size() * sizeof(W));
  for (std::size_t i = 0; i < want.size(); ++i)
    if (std::uint64_t{got[i]} != want[i])
      return ::testing::AssertionFailure() << "word " << i << " of " << want.size() << " is " << hex(got[i])
                                           << ", expected " << hex(want[i]);
  return ::testing::AssertionSuccess();
}

/// The places of a two-input, one-output call's output: apart from its
/// inputs, over a (where 1) or over b (where 2). Over an input, that
/// input's words are first uploaded into the (guarded) output, and the
/// output becomes that input's pointer.
inline const char* const kOutputPlaces[] = {"out apart", "out = a", "out = b"};
template <class W>
void place_output(cudaStream_t s, int where, W* out, const std::vector<W>& a, const std::vector<W>& b, const W*& pa,
                  const W*& pb) {
  if (where == 1) {
    upload(s, out, a.data(), a.size() * sizeof(W));
    pa = out;
  } else if (where == 2) {
    upload(s, out, b.data(), b.size() * sizeof(W));
    pb = out;
  }
}

/// A two-input, one-output word call, call(out, a, b) queued on s, with its
/// output placed as `where` says (place_output) between guards, aligned or
/// one word off (the inputs the other way): the output equals `want`, and
/// its guards and the inputs are intact.
template <class W, class Call>
::testing::AssertionResult guarded_pointwise(cudaStream_t s, int where, bool odd, const std::vector<W>& a,
                                             const std::vector<W>& b, const std::vector<std::uint64_t>& want,
                                             Call call) {
  std::unique_ptr<Guarded> out = word_output<W>(s, want.size(), odd);
  const DeviceWords<W> da(s, a, !odd), db(s, b, odd);
  W* po = static_cast<W*>(out->get());
  const W* pa = da.data();
  const W* pb = db.data();
  place_output(s, where, po, a, b, pa, pb);
  call(po, pa, pb);
  out->read(s);
  return all_of({out->guards_intact(), same_words<W>(*out, want), da.unchanged(s), db.unchanged(s)});
}

}  // namespace backend_layer
