// mpgpu::Context: where integers live and run. A context is the backend
// (a CUDA device, or the CPU through GMP), the stream its operations are
// ordered on, a stream-ordered device memory pool, and small pinned buffers
// for reading results' sizes back, and the tuning values its operations
// use (TuningParams, fixed when the context is made). Contexts are cheap
// handles: copies share one state, which lives as long as any Integer made
// in it.
//
// A context may also span several CUDA devices (cuda_devices, "cuda:0,1",
// "cuda:all"): it holds one ordinary context per device, its parts, each
// with its own stream and memory pool. A Batch in it is split by instance
// ranges over the parts and every batch operation runs on all of them at
// once (docs/multi-gpu.md). Everything else about it is its first part's:
// device(), stream(), info() and synchronize()'s single-device meaning, and
// Integers, which live on the first device (an Integer operation never
// spreads over the devices yet).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "mpgpu/tuning.hpp"

// cudaStream_t is `struct CUstream_st*`; naming the struct lets host-only code
// hold streams without including CUDA headers.
struct CUstream_st;

namespace mpgpu {

/// A CUDA stream (cudaStream_t). nullptr means "the context's own stream".
using Stream = CUstream_st*;

enum class Backend { cpu, cuda };

/// What `mpgpu info` prints.
struct DeviceInfo {
  Backend backend = Backend::cpu;
  int device = -1;
  std::string name;            ///< GPU name, or "CPU (GMP x.y.z)"
  int multiprocessors = 0;
  int compute_major = 0, compute_minor = 0;
  std::size_t total_memory = 0;  ///< bytes
  std::size_t free_memory = 0;   ///< bytes
  std::size_t l2_cache = 0;      ///< bytes
  int runtime_version = 0;       ///< CUDA runtime, e.g. 13000
  int driver_version = 0;        ///< CUDA driver API version
  std::string gmp_release;     ///< GMP version string the library runs with
};

namespace detail {
struct ContextState;
struct ContextAccess;
}

class Context {
 public:
  /// The CPU backend: every operation runs through GMP on the host.
  static Context cpu();
  /// CUDA device `device`; throws BackendUnavailable if there is none.
  static Context cuda(int device = 0);
  /// CUDA devices `devices` as one context (each device once, in the order
  /// given, which is the order of a batch's instance ranges): one ordinary
  /// context per device. One device gives the same as cuda(devices[0]).
  /// InvalidArgument for an empty list or a device listed twice,
  /// BackendUnavailable for a device that is not usable (as cuda()).
  static Context cuda_devices(const std::vector<int>& devices);
  /// Parses "cpu", "cuda", "cuda:N", "cuda:N,M,..." (several devices, as
  /// cuda_devices), "cuda:all" (every usable device; one device gives
  /// cuda(0)) or "auto" (CUDA device 0 if usable, else CPU).
  static Context from_string(const std::string& spec);
  // The three above take TuningParams::from_environment() (the build's
  // tuning table, with the MPGPU_* overrides of tuning runs, read once
  // now); these take `params` as given and read no environment.
  static Context cpu(const TuningParams& params);
  static Context cuda(int device, const TuningParams& params);
  static Context cuda_devices(const std::vector<int>& devices, const TuningParams& params);
  static Context from_string(const std::string& spec, const TuningParams& params);
  /// A new context of the same backend and device with other tuning
  /// values. It is a context of its own (its own stream, result words,
  /// staging buffers and caches; operands of one call must share a context:
  /// move values with to_context). A context's params never change once it
  /// is made, so threads sharing it read them without a lock.
  Context with_tuning(const TuningParams& params) const;
  /// The tuning values this context's operations use.
  const TuningParams& tuning() const;
  /// The process-wide default: MPGPU_DEVICE if set, else "auto". Made on first use.
  static Context& default_context();
  /// How many CUDA devices this process can use (0 without CUDA support or GPU).
  static int cuda_device_count();
  /// True if the library was built with its CUDA backend.
  static bool built_with_cuda();

  Backend backend() const { return backend_; }
  bool is_cuda() const { return backend_ == Backend::cuda; }
  int device() const;            ///< CUDA device index (the first one of several), -1 for the CPU
  /// The CUDA devices: {} for the CPU, {device()} for one, all of them in
  /// order for a context over several.
  std::vector<int> devices() const;
  /// 1 for an ordinary context, the number of devices for one over several.
  std::size_t part_count() const;
  /// The ordinary context of part i < part_count() (device devices()[i]);
  /// the context itself for part 0 of an ordinary one. InvalidArgument for
  /// i out of range.
  Context part(std::size_t i) const;
  Stream stream() const;         ///< the context's own stream (nullptr on the CPU; the first part's)
  Stream resolve(Stream s) const { return s ? s : stream(); }
  DeviceInfo info() const;       ///< of device(), the first device of several
  /// Waits until all work queued on the context's stream (on every part's
  /// stream) has finished.
  void synchronize() const;
  /// "cpu", "cuda:N (name)", or "cuda:N,M,... (name, name, ...)".
  std::string describe() const;

  bool operator==(const Context& o) const { return state_ == o.state_; }
  bool operator!=(const Context& o) const { return state_ != o.state_; }

 private:
  // Not part of the API: the shared state, which the backends reach through
  // detail::ContextAccess.
  friend struct detail::ContextAccess;
  // The state that streams, pools and caches come from: the context's own,
  // or its first part's for a context over several devices.
  detail::ContextState& state() const { return *work_state_; }
  const Context& part_ref(std::size_t i) const;

  explicit Context(std::shared_ptr<detail::ContextState> s);
  std::shared_ptr<detail::ContextState> state_;
  // state_ itself, or its first part's state (kept alive by state_, whose
  // parts hold it). An inline read: every operation asks.
  detail::ContextState* work_state_ = nullptr;
  // A copy of the state's backend: every operation asks, on small values
  // in a loop, so the answer is an inline read rather than a library call.
  Backend backend_ = Backend::cpu;
};

namespace detail {
/// The library's access to a Context's state (as IntegerAccess in
/// integer.hpp: for src/, tools and tests, not for users).
struct ContextAccess {
  static ContextState& state(const Context& ctx) { return ctx.state(); }
  /// Part i of ctx without a copy of the handle (ctx itself for an ordinary context).
  static const Context& part(const Context& ctx, std::size_t i) { return ctx.part_ref(i); }
  /// A context over `parts` (two or more ordinary contexts of one backend,
  /// CUDA ones on distinct devices), as cuda_devices makes. With CPU parts
  /// it exists for the tests: the split of batches runs on CPU-only machines.
  static Context split(std::vector<Context> parts, const TuningParams& params);
};
}  // namespace detail

}  // namespace mpgpu
