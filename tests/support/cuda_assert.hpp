// CUDA_ASSERT(call): a GPU test's check of a CUDA runtime call, failing with
// the error's name and text.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#define CUDA_ASSERT(call)                                                          \
  do {                                                                             \
    const cudaError_t err_ = (call);                                               \
    ASSERT_EQ(err_, cudaSuccess) << #call << ": " << cudaGetErrorName(err_) << ": " \
                                 << cudaGetErrorString(err_);                      \
  } while (0)
