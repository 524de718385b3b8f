// The vocabulary of binary splitting (binary_splitting.hpp): a Series (its
// terms, how two nodes merge), a SplitPlan (who computes which node), the
// SplitStats of a run for `--timings`, and the progress a run reports.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <mutex>
#include <span>
#include <thread>
#include <utility>
#include <vector>

#include "mpgpu/integer.hpp"
#include "mpgpu/series.hpp"  // SeriesRange

namespace mpgpu::cli {

/// Called now and then during a long stage with the fraction done (0 to 1).
using ProgressFn = std::function<void(double fraction)>;

/// The recursion's share of progress: a merge of a range of s terms counts
/// s * log2(s), about what its products cost relative to each other, so
/// the fraction moves evenly instead of racing through the leaves and then
/// waiting at the root. Work may be counted from any thread; the report is
/// only ever made on the thread that made this object.
class SplitProgress {
 public:
  SplitProgress(ProgressFn report, std::uint64_t terms)
      : report_(std::move(report)), owner_(std::this_thread::get_id()) {
    if (report_) total_ = work(0, terms);
  }
  /// One merge of [a, b).
  void merged(std::uint64_t a, std::uint64_t b) { add(weight(b - a), b - a > 1 << 16); }
  /// All the merges inside the subtree [a, b).
  void merged_subtree(std::uint64_t a, std::uint64_t b) {
    if (report_) add(work(a, b), false);
  }
  /// Reports if enough was done since the last report (owner thread only).
  void poll() { report_if_due(false); }

 private:
  static double weight(std::uint64_t s) { return static_cast<double>(s) * std::log2(static_cast<double>(s)); }
  // The total over the tree's merges (its shape as binary_split makes it).
  static double work(std::uint64_t a, std::uint64_t b) {
    if (b - a < 2) return 0;
    const std::uint64_t m = a + (b - a) / 2;
    return weight(b - a) + work(a, m) + work(m, b);
  }
  void add(double w, bool large) {
    if (!report_ || total_ <= 0) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ += w;
    }
    if (std::this_thread::get_id() == owner_) report_if_due(large);
  }
  void report_if_due(bool force) {
    if (!report_ || total_ <= 0) return;
    double fraction;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (done_ <= last_ || (!force && done_ - last_ < total_ / 200)) return;
      last_ = done_;
      fraction = std::min(1.0, done_ / total_);
    }
    report_(fraction);
  }
  ProgressFn report_;
  std::thread::id owner_;
  std::mutex mutex_;
  double total_ = 0, done_ = 0, last_ = 0;
};

/// Runs the independent steps of one merge: one after the other, or at once
/// on host threads (SplitPool::run_all).
using MergeSteps = std::function<void(std::span<const std::function<void()>>)>;

inline void run_in_order(std::span<const std::function<void()>> steps) {
  for (const auto& step : steps) step();
}

/// The terms [a, b) (the library's type: series_leaves takes them).
using TermRange = SeriesRange;

/// One merge of Series::merge_many: right merged into left.
template <class Node>
struct MergeJob {
  Node* left;
  Node* right;
  bool need_p;
};

/// A series for binary_split: leaf(k, ctx) makes the node of term k alone in
/// ctx; merge(left, right, need_p, steps) combines the nodes of [a, m) and
/// [m, b) (in one context) into `left`, its independent products given to
/// `steps`; need_p
/// says whether the node's P (the product that carries into the terms on
/// its right) will be used: not on the right-most path of the tree, which
/// saves the largest product of every level there. to_context(node, ctx)
/// moves a node's values to ctx. bits(a, b) estimates the size in bits of
/// the largest value of the node [a, b); it must grow with b and with b - a.
/// merge_many (optional) merges every job's right into its left at once, as
/// merge would one after another; the jobs share no node. A series gives it
/// when its merges' products can go to the library together (mul_each), so
/// that the merges of one level cost about one batched product.
/// subtrees_at_once(ranges, work, into) (optional) makes the nodes of many
/// ranges at once, each as the plain recursion would, its work queued in
/// `work` and the nodes' values in `into` (pi: chudnovsky_batch.hpp, a few
/// batch operations a level for all of them); see SplitPlan::batched_share.
template <class Node>
struct Series {
  std::function<Node(std::uint64_t k, const Context& ctx)> leaf;
  std::function<void(Node& left, Node& right, bool need_p, const MergeSteps& steps)> merge;
  std::function<Node(Node&& node, const Context& ctx)> to_context;
  std::function<double(std::uint64_t a, std::uint64_t b)> bits;
  std::function<void(std::span<const MergeJob<Node>> jobs)> merge_many;
  std::function<std::vector<Node>(std::span<const TermRange> ranges, const Context& work, const Context& into)>
      subtrees_at_once;
};

/// Who computes which node of the tree.
struct SplitPlan {
  /// Host threads in all, the calling one included. 1: the whole tree on
  /// the calling thread, in the target context, as a plain recursion (each
  /// operation then runs where the library places it).
  unsigned threads = 1;
  /// Nodes estimated at most this many bits are host work (CPU contexts);
  /// larger ones are merged on the calling thread in the target context.
  /// Infinite (everything host work) for the CPU context.
  double host_max_bits = std::numeric_limits<double>::infinity();
  /// Threads besides these that merge nodes above the cut, each in a
  /// context of its own on the target's device (a CUDA context: its own
  /// stream and lock; operations on one context are serialized) and hands
  /// its finished subtree to the target context (one device copy). 0: the
  /// calling thread merges them all. Why: a merge of nodes of 2^19 to 2^24
  /// bits is a handful of device operations, each bound by its launches and
  /// by the wait for its result's size, not by the GPU, so one thread leaves
  /// the GPU mostly idle there; several threads keep several merges in
  /// flight at once.
  unsigned device_threads = 0;
  /// With device_threads: the nodes above the cut estimated at most this
  /// many bits are device subtrees, each merged whole (from the host nodes
  /// under it up) by one device thread; the larger nodes, by the calling
  /// thread on the context's stream.
  double device_subtree_max_bits = 0;
  /// Without device threads, and for a series with merge_many: the maximal
  /// nodes above the cut estimated at most this many bits are level groups.
  /// The calling thread merges each group level by level, every merge of a
  /// level in one merge_many call, once all its host nodes are done. Why:
  /// each merge there is a handful of products too small to fill the GPU,
  /// so a level's merges at once cost about what one of them does. 0: none.
  double level_group_max_bits = 0;
  /// Whether the calling thread runs queued host jobs while it waits for a
  /// host node (false only with worker threads). On a CPU context it is a
  /// core like the others; on a CUDA context it alone drives the device,
  /// and a job it takes (a whole subtree: milliseconds) holds back every
  /// merge that becomes ready meanwhile.
  bool caller_helps = true;
  /// For a series with subtrees_at_once, without device threads: this share
  /// of the maximal host nodes (those whose parent is merged in the target
  /// context; the left-most, which the calling thread needs first) is made
  /// through subtrees_at_once, batched_chunk nodes a call, left to right, by
  /// a thread of its own in a context of its own (on a CUDA context: its own
  /// stream, beside the calling thread's merges), the nodes' values made in
  /// the target context; host threads make the rest. Why: there the GPU makes
  /// the subtrees several times faster than the host's cores and is
  /// otherwise mostly idle while they work; the share balances the two. 0: none.
  double batched_share = 0;
  std::size_t batched_chunk = 1024;
};

/// What a split did, for `--timings`.
struct SplitStats {
  unsigned threads = 1;
  std::uint64_t subtrees = 0;                   ///< computed whole by one host thread each
  std::uint64_t min_terms = 0, max_terms = 0;   ///< their term counts
  std::uint64_t host_merges = 0;                ///< merges above them on host threads
  std::uint64_t upper_merges = 0;               ///< merges on the calling thread in the target context
  double host_busy_seconds = 0;                 ///< time inside host jobs, summed over threads
  double waited_seconds = 0;                    ///< the calling thread's sleep while host or device jobs ran
  double helped_seconds = 0;                    ///< the calling thread's time in host jobs while it waited
  std::uint64_t batched_subtrees = 0;           ///< maximal host nodes made by subtrees_at_once
  std::uint64_t batched_chunks = 0;             ///< in this many calls
  double batched_seconds = 0;                   ///< the batching thread's time
  std::uint64_t uploads = 0;                    ///< host nodes moved into the target context (or a device thread's)
  double upload_seconds = 0;                    ///< their to_context time, summed over the threads
  unsigned device_threads = 0;                  ///< threads that merged device subtrees
  std::uint64_t device_subtrees = 0;            ///< how many
  double device_waited_seconds = 0;             ///< the device threads' sleep while host jobs ran, summed
  /// The merges above the host subtrees by height (index 0: the merges of
  /// two host nodes, the smallest; the last: the root), on the calling
  /// thread and the device threads: how many, the largest node's estimated
  /// bits, and the time of the merges (the host operands' copies into the
  /// target context are `uploads`), summed over the threads (a thread's device work is
  /// asynchronous: a level's time includes what it waited for of the level
  /// below). Where the time goes, for tuning the cut.
  struct UpperLevel {
    std::uint64_t merges = 0;
    double max_bits = 0;
    double seconds = 0;
  };
  std::vector<UpperLevel> upper_levels;
};

}  // namespace mpgpu::cli
