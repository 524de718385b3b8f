// CGBN's cgbn_set between two widths of one TPI (its templated
// env.set(r, source)): r = source mod 2^BITS, zero above the source's width.
// The two widths may have different shapes (shape.h: their G and L differ).
// Each word that can reach r is broadcast from the source thread that holds
// it, within the larger of the two groups: both are aligned powers of two
// inside the instance, so the larger one holds the smaller one's lanes.
// That is one broadcast a word, as CGBN's own set takes one shuffle a word,
// and no shared scratch.
#pragma once

#include "frame.h"

namespace mpgpu::compat::cgbn_detail {

/// y (shape To) = x (shape From) mod 2^(32 To::W); To::E::Num words past
/// From's width are zero.
template <class To, class From>
MPGPU_HD void set_width(typename To::E::Num& y, const typename From::E::Num& x) {
  constexpr int G = From::G > To::G ? From::G : To::G;
  constexpr int n = From::W < To::W ? From::W : To::W;  // the words of y that can be nonzero
  mpgpu::batch::Group<G, mpgpu::batch::WarpSync::group> group;
  const int lane = lane_in_warp();
  group.rank = lane & (G - 1);
  const int rank_from = lane & (From::G - 1), rank_to = lane & (To::G - 1);
#pragma unroll
  for (int i = 0; i < To::L; ++i) y.w[i] = 0;
  for (int j = 0; j < n; ++j) {
    // Word j is in source rank j / From::L: a rank below From::G <= G, so
    // the lane of that rank in this group holds it (as source rank too).
    const int owner = j / From::L, local = j - owner * From::L;
    word_t v = 0;
#pragma unroll
    for (int i = 0; i < From::L; ++i)
      if (i == local && rank_from == owner) v = x.w[i];
    v = group.broadcast(v, owner);
    const int k = j - rank_to * To::L;
#pragma unroll
    for (int i = 0; i < To::L; ++i)
      if (i == k) y.w[i] = v;
  }
}

}  // namespace mpgpu::compat::cgbn_detail
