// Pool memory owned by a scope (stream-ordered free at the end of it).
#pragma once

#include "cuda/backend.hpp"

namespace mpgpu::detail::cuda {

struct ScopedDeviceMemory {
  ContextState& st;
  Stream s;
  void* p;
  ScopedDeviceMemory(ContextState& st_, Stream s_, std::size_t bytes)
      : st(st_), s(s_), p(allocate(st_, s_, bytes ? bytes : 1)) {}
  ScopedDeviceMemory(const ScopedDeviceMemory&) = delete;
  ScopedDeviceMemory& operator=(const ScopedDeviceMemory&) = delete;
  ~ScopedDeviceMemory() { deallocate(st, s, p); }
  template <class T>
  T* as() const {
    return static_cast<T*>(p);
  }
};

}  // namespace mpgpu::detail::cuda
