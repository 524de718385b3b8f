// Binary splitting: a sum of n rational terms evaluated as a balanced tree
// of integer products, so that the big products happen near the root where
// fast (NTT) multiplication pays, instead of n small steps on a growing
// number. The series of pi (Chudnovsky) and e (sum of 1/k!) both use it
// (constants_pi.cpp, constants_e.cpp); the recursion and its progress
// reporting are here, the terms and how two halves merge are theirs.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <utility>

namespace mpgpu::cli {

/// Called now and then during a long stage with the fraction done (0 to 1).
using ProgressFn = std::function<void(double fraction)>;

/// The recursion's share of progress: a merge of a range of s terms counts
/// s * log2(s), about what its products cost relative to each other, so
/// the fraction moves evenly instead of racing through the leaves and then
/// waiting at the root.
class SplitProgress {
 public:
  SplitProgress(ProgressFn report, std::uint64_t terms) : report_(std::move(report)) {
    if (report_) total_ = work(0, terms);
  }
  void merged(std::uint64_t a, std::uint64_t b) {
    if (!report_ || total_ <= 0) return;
    done_ += weight(b - a);
    if (done_ - last_ >= total_ / 200 || b - a > 1 << 16) {
      last_ = done_;
      report_(std::min(1.0, done_ / total_));
    }
  }

 private:
  static double weight(std::uint64_t s) { return static_cast<double>(s) * std::log2(static_cast<double>(s)); }
  // The total over the tree's merges (its shape as binary_split makes it).
  static double work(std::uint64_t a, std::uint64_t b) {
    if (b - a < 2) return 0;
    const std::uint64_t m = a + (b - a) / 2;
    return weight(b - a) + work(a, m) + work(m, b);
  }
  ProgressFn report_;
  double total_ = 0, done_ = 0, last_ = 0;
};

/// Evaluates the tree over the terms [a, b) (b > a): leaf(k, need_p) makes
/// the node of term k alone, merge(left, right, need_p) combines the nodes
/// of [a, m) and [m, b) into `left`. need_p says whether the node's P (the
/// product that carries into the terms on its right) will be used: not on
/// the right-most path of the tree, which saves the largest product of
/// every level there.
template <class Node, class Leaf, class Merge>
Node binary_split(std::uint64_t a, std::uint64_t b, bool need_p, Leaf&& leaf, Merge&& merge,
                  SplitProgress& progress) {
  if (b - a == 1) return leaf(a, need_p);
  const std::uint64_t m = a + (b - a) / 2;
  Node left = binary_split<Node>(a, m, true, leaf, merge, progress);
  Node right = binary_split<Node>(m, b, need_p, leaf, merge, progress);
  merge(left, right, need_p);
  progress.merged(a, b);
  return left;
}

}  // namespace mpgpu::cli
