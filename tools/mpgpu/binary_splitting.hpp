// Binary splitting: a sum of n rational terms evaluated as a balanced tree
// of integer products, so that the big products happen near the root where
// fast (NTT) multiplication pays, instead of n small steps on a growing
// number. The series of pi (Chudnovsky) and e (sum of 1/k!) both use it
// (constants_pi.cpp, constants_e.cpp); the recursion, how it is spread over
// host threads, and its progress reporting are here; the terms, how two
// halves merge and how large a node grows are theirs (a Series).
//
// Host threads. The tree's lower part is millions of small products that
// GMP does best, and its subtrees are independent: host threads compute
// them, each job in a CPU context of its own, so nothing a host thread does
// can touch a device, and the threads share no context (a context's
// reference count changes with every value made, and one count written by
// every thread would be a contended cache line). On a CUDA context the nodes
// above them (values larger than plan.host_max_bits, the series' estimate)
// are merged on the calling thread in the CUDA context, where the large
// products run on the device, while the host threads are still busy with
// the subtrees further right; a finished subtree moves to the CUDA context
// on the calling thread. On the CPU context every node is host work: the
// merges near the root run on host threads as well, and the products of
// one large merge at once. The values do not depend on the tree's shape or
// on who computes a node (each node's P, Q, T are fixed functions of its
// range of terms), so the digits are the same for any number of threads.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <span>
#include <thread>
#include <utility>
#include <vector>

#include "mpgpu/integer.hpp"
#include "split_plan.hpp"
#include "split_pool.hpp"

namespace mpgpu::cli {

/// The plain recursion over [a, b) (b > a), in ctx, on the calling thread.
template <class Node>
Node binary_split(std::uint64_t a, std::uint64_t b, bool need_p, const Series<Node>& series, const Context& ctx,
                  SplitProgress* progress) {
  if (b - a == 1) return series.leaf(a, ctx);
  const std::uint64_t m = a + (b - a) / 2;
  Node left = binary_split(a, m, true, series, ctx, progress);
  Node right = binary_split(m, b, need_p, series, ctx, progress);
  series.merge(left, right, need_p, MergeSteps(run_in_order));
  if (progress) progress->merged(a, b);
  return left;
}

namespace split_detail {

/// Host jobs are subtrees of at least this many terms (unless the whole
/// tree is smaller): below it a job costs about what queueing it does.
inline constexpr std::uint64_t kMinSubtreeTerms = 64;
/// The products of a host merge run at once from this node size (bits):
/// each then takes far longer than handing it to another thread.
inline constexpr double kParallelStepsMinBits = 1 << 16;
/// The host part is cut into about this many subtrees a thread, so that a
/// thread that drew larger terms does not keep the others waiting.
inline constexpr unsigned kSubtreesPerThread = 8;

template <class Node>
struct Slot {
  std::uint64_t a = 0, b = 0;
  bool need_p = false;
  bool host = false;      // computed by host jobs, in CPU contexts of their own
  bool subtree = false;   // one job computes it whole (else: merged from its children)
  Slot* left = nullptr;
  Slot* right = nullptr;
  Slot* parent = nullptr;
  bool device_subtree = false;  // merged whole by one device thread
  bool level_group = false;     // merged level by level by the calling thread (merge_many)
  bool batched = false;         // made by subtrees_at_once on the batching thread (or under such a node)
  unsigned height = 0;          // a device subtree's height above the host nodes, once ready
  std::atomic<int> missing{2};       // a host merge: children not ready yet
  std::atomic<bool> ready{false};    // value holds the node (host slots and device subtrees)
  std::optional<Node> value;
  std::optional<Context> context;    // value's (host slots)
};

}  // namespace split_detail

/// The tree over [a, b) (b > a) in ctx, as `plan` spreads it over host
/// threads and device threads (see the top of this file). `stats` may be null.
template <class Node>
Node binary_split(std::uint64_t a, std::uint64_t b, bool need_p, const Series<Node>& series, const Context& ctx,
                  const SplitPlan& plan, SplitProgress& progress, SplitStats* stats = nullptr) {
  using Slot = split_detail::Slot<Node>;
  using Levels = std::vector<SplitStats::UpperLevel>;
  using Clock = std::chrono::steady_clock;
  if (stats) *stats = SplitStats{};
  if (plan.threads <= 1 || b - a < 2 * split_detail::kMinSubtreeTerms) {
    if (stats) {
      stats->upper_merges = b - a - 1;
    }
    return binary_split(a, b, need_p, series, ctx, &progress);
  }
  auto is_host = [&](std::uint64_t lo, std::uint64_t hi) { return series.bits(lo, hi) <= plan.host_max_bits; };
  // Host nodes are split into merges down to this depth, then whole subtrees.
  unsigned split_depth = 0;
  while ((std::uint64_t{1} << split_depth) < std::uint64_t{plan.threads} * split_detail::kSubtreesPerThread)
    ++split_depth;

  // The tree down to the host subtrees, on the calling thread; the subtrees
  // and the device subtrees each in order from left to right, the order in
  // which the calling thread will need them.
  std::deque<Slot> slots;
  std::vector<Slot*> subtrees, device_subtrees;
  SplitStats local;
  auto build = [&](auto& self, std::uint64_t lo, std::uint64_t hi, bool p, bool host, bool in_device_subtree,
                   unsigned depth, Slot* parent) -> Slot* {
    Slot& s = slots.emplace_back();
    s.a = lo;
    s.b = hi;
    s.need_p = p;
    s.host = host || is_host(lo, hi);
    s.parent = parent;
    s.subtree = s.host && (depth >= split_depth || hi - lo < 2 * split_detail::kMinSubtreeTerms);
    if (s.subtree) {
      subtrees.push_back(&s);
      local.min_terms = local.subtrees ? std::min(local.min_terms, hi - lo) : hi - lo;
      local.max_terms = std::max(local.max_terms, hi - lo);
      ++local.subtrees;
      return &s;
    }
    s.device_subtree = !s.host && !in_device_subtree && plan.device_threads > 0 &&
                       series.bits(lo, hi) <= plan.device_subtree_max_bits;
    if (s.device_subtree) device_subtrees.push_back(&s);
    s.level_group = !s.host && !in_device_subtree && plan.device_threads == 0 && series.merge_many &&
                    series.bits(lo, hi) <= plan.level_group_max_bits;
    const bool below = in_device_subtree || s.device_subtree || s.level_group;
    const std::uint64_t m = lo + (hi - lo) / 2;
    s.left = self(self, lo, m, true, s.host, below, depth + 1, &s);
    s.right = self(self, m, hi, p, s.host, below, depth + 1, &s);
    ++(s.host ? local.host_merges : local.upper_merges);
    return &s;
  };
  Slot* root = build(build, a, b, need_p, false, false, 0, nullptr);

  // The batched nodes (SplitPlan::batched_share): the left-most of the
  // maximal host nodes (a subtree, or a host merge, whose parent is merged
  // in the target context: host threads touch no device value), in order;
  // the host jobs under them are not posted.
  std::vector<Slot*> batched;
  if (series.subtrees_at_once && plan.batched_share > 0 && plan.device_threads == 0) {
    std::vector<Slot*> maximal;  // slots are in pre-order: left to right
    for (Slot& s : slots)
      if (s.host && (!s.parent || !s.parent->host)) maximal.push_back(&s);
    const auto want = static_cast<std::size_t>(plan.batched_share * static_cast<double>(maximal.size()));
    auto mark = [](auto& self, Slot& s) -> void {
      s.batched = true;
      if (s.left) self(self, *s.left);
      if (s.right) self(self, *s.right);
    };
    for (std::size_t i = 0; i < want && i < maximal.size(); ++i) {
      mark(mark, *maximal[i]);
      batched.push_back(maximal[i]);
    }
  }

  SplitPool pool(plan.threads - 1);
  // A finished host node: a host merge above it may be ready now.
  std::function<void(Slot&)> finish;
  auto merge_job = [&](Slot& s) {
    Node& left = *s.left->value;
    if (*s.right->context != *s.left->context)  // one copy, far cheaper than the products
      s.right->value = series.to_context(std::move(*s.right->value), *s.left->context);
    const bool at_once = series.bits(s.a, s.b) >= split_detail::kParallelStepsMinBits;
    series.merge(left, *s.right->value, s.need_p,
                 at_once ? MergeSteps([&pool](std::span<const std::function<void()>> steps) { pool.run_all(steps); })
                         : MergeSteps(run_in_order));
    s.value.emplace(std::move(left));
    s.context = s.left->context;
    s.left->value.reset();
    s.right->value.reset();
    progress.merged(s.a, s.b);
    finish(s);
  };
  finish = [&](Slot& s) {
    s.ready.store(true, std::memory_order_release);
    Slot* p = s.parent;
    if (p && p->host && p->missing.fetch_sub(1, std::memory_order_acq_rel) == 1)
      pool.post([&merge_job, p] { merge_job(*p); }, true);
  };

  // The nodes above the host ones, in `target`: on the calling thread in
  // ctx (it takes the device subtrees' values as they become ready, and
  // runs host jobs while it waits), or on a device thread in its own
  // context (it merges one device subtree whole, and sleeps while host jobs
  // run). Returns the node; `height` is its height above the host nodes.
  std::atomic<bool> device_stop{false};
  std::atomic<std::int64_t> upload_ns{0};
  std::atomic<std::uint64_t> uploads{0};
  std::exception_ptr device_error;  // the first device thread's failure (under device_mutex)
  std::mutex device_mutex;
  // A level group (SplitPlan::level_group_max_bits) on the calling thread:
  // its host nodes first, left to right (waiting for each as upper does),
  // then its merges by height above them, each height in one merge_many.
  std::function<Node(Slot&, const Context&, Levels&)> take_host;  // upper's host-slot branch, set below
  auto merge_group = [&](Slot& g, unsigned& height, const Context& target, Levels& levels) -> Node {
    std::vector<std::vector<Slot*>> by_height;  // [h - 1]: the merges of height h
    auto walk = [&](auto& self, Slot& s) -> unsigned {
      if (s.host) {
        s.value.emplace(take_host(s, target, levels));
        return 0;
      }
      const unsigned h = std::max(self(self, *s.left), self(self, *s.right)) + 1;
      if (by_height.size() < h) by_height.resize(h);
      by_height[h - 1].push_back(&s);
      return h;
    };
    height = walk(walk, g);
    if (levels.size() < by_height.size()) levels.resize(by_height.size());
    std::vector<MergeJob<Node>> jobs;
    for (std::size_t h = 0; h < by_height.size(); ++h) {
      const auto t0 = Clock::now();
      jobs.clear();
      for (Slot* s : by_height[h]) jobs.push_back({&*s->left->value, &*s->right->value, s->need_p});
      series.merge_many(jobs);
      for (Slot* s : by_height[h]) {
        s->value.emplace(std::move(*s->left->value));
        s->left->value.reset();
        s->right->value.reset();
        progress.merged(s->a, s->b);
        levels[h].max_bits = std::max(levels[h].max_bits, series.bits(s->a, s->b));
      }
      levels[h].merges += by_height[h].size();
      levels[h].seconds += std::chrono::duration<double>(Clock::now() - t0).count();
      progress.poll();
    }
    Node v = std::move(*g.value);
    g.value.reset();
    return v;
  };
  auto upper = [&](auto& self, Slot& s, unsigned& height, const Context& target, bool calling, Levels& levels) -> Node {
    if (s.host || (calling && s.device_subtree)) {
      auto ready = [&s, &device_stop] {
        return s.ready.load(std::memory_order_acquire) || device_stop.load(std::memory_order_acquire);
      };
      if (calling)
        pool.wait_until(ready, plan.caller_helps || pool.workers() == 0, [&] { progress.poll(); });
      else
        pool.wait_until_done(ready);
      if (!s.ready.load(std::memory_order_acquire)) {  // stopped: a device thread failed, or the caller did
        std::lock_guard<std::mutex> lock(device_mutex);
        if (device_error) std::rethrow_exception(device_error);
        throw std::runtime_error("binary_split: stopped");
      }
      if (s.device_subtree || s.batched) {  // already in target's context
        Node v = std::move(*s.value);
        s.value.reset();
        height = s.height;
        return v;
      }
      const auto t0 = Clock::now();
      Node v = series.to_context(std::move(*s.value), target);
      s.value.reset();
      height = 0;
      upload_ns += std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
      ++uploads;
      return v;
    }
    if (calling && s.level_group) return merge_group(s, height, target, levels);
    unsigned hl = 0, hr = 0;
    Node left = self(self, *s.left, hl, target, calling, levels);
    Node right = self(self, *s.right, hr, target, calling, levels);
    const auto t0 = Clock::now();
    series.merge(left, right, s.need_p, MergeSteps(run_in_order));
    progress.merged(s.a, s.b);
    height = std::max(hl, hr) + 1;
    if (levels.size() < height) levels.resize(height);
    auto& level = levels[height - 1];
    ++level.merges;
    level.max_bits = std::max(level.max_bits, series.bits(s.a, s.b));
    level.seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    return left;
  };

  take_host = [&](Slot& s, const Context& target, Levels& levels) {
    unsigned h = 0;
    return upper(upper, s, h, target, true, levels);
  };

  // Device threads take the device subtrees from left to right, each
  // merging in a context of its own (on ctx's device; the CPU context for
  // a CPU ctx, where this only spreads the work) and moving the finished
  // subtree to ctx.
  std::vector<std::thread> device_threads;
  std::atomic<std::size_t> next_device_subtree{0};
  Levels device_levels;
  const unsigned device_thread_count =
      static_cast<unsigned>(std::min<std::size_t>(plan.device_threads, device_subtrees.size()));
  // A device thread's or the batching thread's failure: kept (the first
  // one) for the calling thread to rethrow, and every thread stopped.
  auto stop_with = [&](std::exception_ptr error) {
    {
      std::lock_guard<std::mutex> lock(device_mutex);
      if (!device_error) device_error = std::move(error);
    }
    device_stop.store(true, std::memory_order_release);
    pool.wake_waiters();
  };
  auto device_thread = [&](const Context& own) {
    Levels levels;
    try {
      for (;;) {
        const std::size_t i = next_device_subtree.fetch_add(1);
        if (i >= device_subtrees.size() || device_stop.load(std::memory_order_acquire)) break;
        Slot& s = *device_subtrees[i];
        unsigned height = 0;
        Node v = upper(upper, s, height, own, false, levels);
        s.value.emplace(series.to_context(std::move(v), ctx));
        s.height = height;
        s.ready.store(true, std::memory_order_release);
        pool.wake_waiters();
      }
    } catch (...) {
      stop_with(std::current_exception());
    }
    std::lock_guard<std::mutex> lock(device_mutex);
    if (device_levels.size() < levels.size()) device_levels.resize(levels.size());
    for (std::size_t k = 0; k < levels.size(); ++k) {
      device_levels[k].merges += levels[k].merges;
      device_levels[k].max_bits = std::max(device_levels[k].max_bits, levels[k].max_bits);
      device_levels[k].seconds += levels[k].seconds;
    }
  };
  // The batched nodes, left to right, a chunk at a time, on a thread of
  // their own in a context of its own (its own stream: its kernels run
  // beside the calling thread's merges), their values made in ctx, each
  // marked ready as a host node is.
  std::atomic<std::int64_t> batched_ns{0};
  std::atomic<std::uint64_t> batched_chunks{0};
  auto batcher = [&](const Context& own) {
    const auto t0 = Clock::now();
    try {
      for (std::size_t next = 0; next < batched.size() && !device_stop.load(std::memory_order_acquire);) {
        std::vector<TermRange> ranges;
        std::vector<Slot*> chunk;
        while (next < batched.size() && chunk.size() < std::max<std::size_t>(plan.batched_chunk, 1)) {
          chunk.push_back(batched[next++]);
          ranges.push_back({chunk.back()->a, chunk.back()->b});
        }
        std::vector<Node> nodes = series.subtrees_at_once(ranges, own, ctx);
        for (std::size_t i = 0; i < chunk.size(); ++i) {
          chunk[i]->value.emplace(std::move(nodes[i]));
          progress.merged_subtree(chunk[i]->a, chunk[i]->b);
          chunk[i]->ready.store(true, std::memory_order_release);
        }
        ++batched_chunks;
        pool.wake_waiters();
      }
    } catch (...) {
      stop_with(std::current_exception());
    }
    batched_ns += std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
  };
  std::optional<Context> batcher_context;  // outlives the threads (joined by stop_first below)
  // The jobs and the device threads use the slots and the functions above:
  // on every way out of here (an exception included) they stop before those
  // go: the device threads first (they may wait for host jobs), then the pool.
  std::vector<Context> own_contexts;
  struct StopFirst {
    SplitPool& pool;
    std::atomic<bool>& device_stop;
    std::vector<std::thread>& device_threads;
    ~StopFirst() {
      device_stop.store(true, std::memory_order_release);
      pool.wake_waiters();
      for (std::thread& t : device_threads) t.join();
      pool.stop();
    }
  } stop_first{pool, device_stop, device_threads};
  for (Slot* s : subtrees)
    if (!s->batched) pool.post([&, s] {
      const Context own = Context::cpu(ctx.tuning());
      s->value.emplace(binary_split(s->a, s->b, s->need_p, series, own, nullptr));
      s->context = own;
      progress.merged_subtree(s->a, s->b);
      finish(*s);
    });
  for (unsigned k = 0; k < device_thread_count; ++k)
    own_contexts.push_back(ctx.with_tuning(ctx.tuning()));  // the same backend and params, a stream of its own
  for (unsigned k = 0; k < device_thread_count; ++k) device_threads.emplace_back(device_thread, std::cref(own_contexts[k]));
  if (!batched.empty()) {
    batcher_context.emplace(ctx.with_tuning(ctx.tuning()));
    device_threads.emplace_back(batcher, std::cref(*batcher_context));
  }

  unsigned root_height = 0;
  Node result = upper(upper, *root, root_height, ctx, true, local.upper_levels);
  if (stats) {
    device_stop.store(true, std::memory_order_release);  // every device subtree is taken: they are all done
    for (std::thread& t : device_threads) t.join();
    device_threads.clear();
    *stats = local;
    stats->threads = plan.threads;
    stats->host_busy_seconds = pool.busy_seconds();
    stats->waited_seconds = pool.waited_seconds();
    stats->helped_seconds = pool.helped_seconds();
    stats->uploads = uploads.load();
    stats->batched_subtrees = batched.size();
    stats->batched_chunks = batched_chunks.load();
    stats->batched_seconds = static_cast<double>(batched_ns.load()) * 1e-9;
    stats->upload_seconds = static_cast<double>(upload_ns.load()) * 1e-9;
    stats->device_waited_seconds = pool.done_waited_seconds();
    stats->device_threads = device_thread_count;
    stats->device_subtrees = device_subtrees.size();
    if (stats->upper_levels.size() < device_levels.size()) stats->upper_levels.resize(device_levels.size());
    for (std::size_t k = 0; k < device_levels.size(); ++k) {
      stats->upper_levels[k].merges += device_levels[k].merges;
      stats->upper_levels[k].max_bits = std::max(stats->upper_levels[k].max_bits, device_levels[k].max_bits);
      stats->upper_levels[k].seconds += device_levels[k].seconds;
    }
  }
  return result;
}

}  // namespace mpgpu::cli
