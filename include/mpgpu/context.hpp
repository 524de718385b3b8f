// mpgpu::Context: where integers live and run. A context is the backend
// (a CUDA device, or the CPU through GMP), the stream its operations are
// ordered on, a stream-ordered device memory pool, and small pinned buffers
// for reading results' sizes back, and the tuning values its operations
// use (TuningParams, fixed when the context is made). Contexts are cheap
// handles: copies share one state, which lives as long as any Integer made
// in it.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

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
  /// Parses "cpu", "cuda", "cuda:N" or "auto" (CUDA device 0 if usable, else CPU).
  static Context from_string(const std::string& spec);
  // The three above take TuningParams::from_environment() (the build's
  // tuning table, with the MPGPU_* overrides of tuning runs, read once
  // now); these take `params` as given and read no environment.
  static Context cpu(const TuningParams& params);
  static Context cuda(int device, const TuningParams& params);
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
  int device() const;            ///< CUDA device index, -1 for the CPU
  Stream stream() const;         ///< the context's own stream (nullptr on the CPU)
  Stream resolve(Stream s) const { return s ? s : stream(); }
  DeviceInfo info() const;
  /// Waits until all work queued on the context's stream has finished.
  void synchronize() const;
  std::string describe() const;  ///< "cpu" or "cuda:N (name)"

  bool operator==(const Context& o) const { return state_ == o.state_; }
  bool operator!=(const Context& o) const { return state_ != o.state_; }

 private:
  // Not part of the API: the shared state, which the backends reach through
  // detail::ContextAccess.
  friend struct detail::ContextAccess;
  detail::ContextState& state() const { return *state_; }

  explicit Context(std::shared_ptr<detail::ContextState> s);
  std::shared_ptr<detail::ContextState> state_;
  // A copy of the state's backend: every operation asks, on small values
  // in a loop, so the answer is an inline read rather than a library call.
  Backend backend_ = Backend::cpu;
};

namespace detail {
/// The library's access to a Context's state (as IntegerAccess in
/// integer.hpp: for src/, tools and tests, not for users).
struct ContextAccess {
  static ContextState& state(const Context& ctx) { return ctx.state(); }
};
}  // namespace detail

}  // namespace mpgpu
