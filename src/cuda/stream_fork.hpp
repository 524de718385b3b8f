// Independent branches of one device operation on streams side by side.
//
// Why: a product of 2^17 to 2^24 bits is, per NTT prime, a chain of about
// six transform passes of a few to a few hundred blocks each: too few to
// fill the GPU, so one chain after another leaves most SMs idle and the
// product costs the sum of the passes' latencies. The three primes' chains
// are independent; on three streams the GPU runs them at once.
//
// StreamFork(st, s, n): branch 0 is s itself, branches 1 .. n-1 the next
// n - 1 of the context's side streams in turn (made on first use), which
// first wait for the work queued on s so far. Forks may nest (a branch of
// one fork forks again: the products of mul_each, each with its primes). join() (or the destructor, also on the way out
// of an exception) makes s wait for every branch, so that what follows on s,
// stream-ordered frees of the branches' buffers included, runs after them.
// Several threads may fork on one context at once: their branches then
// share the side streams, which orders them one after another (never
// wrongly) there. Host-only declarations (plain C++).
#pragma once

#include "context/context_state.hpp"

namespace mpgpu::detail::cuda {

class StreamFork {
 public:
  static constexpr int kMaxBranches = 4;
  /// Forks s into `branches` (1 .. kMaxBranches) streams.
  StreamFork(ContextState& st, Stream s, int branches);
  StreamFork(const StreamFork&) = delete;
  StreamFork& operator=(const StreamFork&) = delete;
  ~StreamFork();
  Stream branch(int i) const { return streams_[i]; }
  int branches() const { return branches_; }
  /// s waits for every branch (once; later calls do nothing).
  void join();

 private:
  ContextState& st_;
  int branches_;
  bool joined_ = false;
  Stream streams_[kMaxBranches] = {};
};

}  // namespace mpgpu::detail::cuda
