// A buffer in the test's context: device memory when the test is built as a
// GPU test (MPGPU_DOT_TEST_CUDA=1), host memory otherwise, so one test body
// checks the Context API (mpgpu/dot.hpp) on
// both backends. Copies go through the legacy stream and are finished
// (cudaDeviceSynchronize) before the context's own stream uses the data.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "mpgpu/context.hpp"

#if MPGPU_DOT_TEST_CUDA
#include <cuda_runtime.h>
#endif

namespace mpgpu_test {

inline mpgpu::Context test_context() {
#if MPGPU_DOT_TEST_CUDA
  return mpgpu::Context::cuda(0);
#else
  return mpgpu::Context::cpu();
#endif
}

/// Call from SetUp(): GTEST_SKIP() there when the GPU build has no device.
inline bool test_device_missing() {
#if MPGPU_DOT_TEST_CUDA
  return mpgpu::Context::cuda_device_count() == 0;
#else
  return false;
#endif
}

template <class T>
class TestBuffer {
 public:
  explicit TestBuffer(const std::vector<T>& host) : size_(host.size()) {
#if MPGPU_DOT_TEST_CUDA
    const std::size_t bytes = (size_ ? size_ : 1) * sizeof(T);
    EXPECT_EQ(cudaMalloc(&ptr_, bytes), cudaSuccess);
    if (size_) {
      EXPECT_EQ(cudaMemcpy(ptr_, host.data(), size_ * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
    }
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
#else
    host_ = host;
    ptr_ = host_.data();
#endif
  }
  TestBuffer(const TestBuffer&) = delete;
  TestBuffer& operator=(const TestBuffer&) = delete;
  ~TestBuffer() {
#if MPGPU_DOT_TEST_CUDA
    cudaFree(ptr_);
#endif
  }
  T* get() const { return ptr_; }
  /// The current contents (waits for all device work first).
  std::vector<T> read() const {
#if MPGPU_DOT_TEST_CUDA
    std::vector<T> out(size_);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    if (size_) {
      EXPECT_EQ(cudaMemcpy(out.data(), ptr_, size_ * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    }
    return out;
#else
    return host_;
#endif
  }

 private:
  std::size_t size_;
  T* ptr_ = nullptr;
#if !MPGPU_DOT_TEST_CUDA
  std::vector<T> host_;
#endif
};

}  // namespace mpgpu_test
