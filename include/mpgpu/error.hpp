// Exceptions thrown by mpgpu. Every message says what failed, where and why.
// A failed operation leaves its inputs untouched (operations build their
// results in fresh storage and swap them in only on success).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace mpgpu {

/// Base class of every exception mpgpu throws.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A caller passed a value the operation cannot accept (bad digit, base out
/// of range, mismatched contexts, negative size...).
class InvalidArgument : public Error {
 public:
  using Error::Error;
};

/// A string could not be parsed; `position()` is the 0-based offset of the
/// offending character in the caller's string.
class ParseError : public InvalidArgument {
 public:
  ParseError(const std::string& what, std::size_t position)
      : InvalidArgument(what), position_(position) {}
  std::size_t position() const noexcept { return position_; }

 private:
  std::size_t position_;
};

/// Division (or reduction) by zero.
class DivisionByZero : public InvalidArgument {
 public:
  using InvalidArgument::InvalidArgument;
};

/// A size does not fit (more limbs than size_t can index, more bits than a
/// shift count can hold, a value that does not fit the requested C type).
class Overflow : public Error {
 public:
  using Error::Error;
};

/// Device (or host) memory could not be obtained. Carries the bytes asked for
/// and the bytes free at the time, when known.
class OutOfMemory : public Error {
 public:
  OutOfMemory(const std::string& what, std::size_t requested, std::size_t free_bytes)
      : Error(what), requested_(requested), free_(free_bytes) {}
  std::size_t requested_bytes() const noexcept { return requested_; }
  std::size_t free_bytes() const noexcept { return free_; }

 private:
  std::size_t requested_;
  std::size_t free_;
};

/// A CUDA runtime call failed; the message holds the call, the error's name
/// and its description.
class CudaError : public Error {
 public:
  CudaError(const std::string& what, int code) : Error(what), code_(code) {}
  int code() const noexcept { return code_; }

 private:
  int code_;
};

/// The requested backend is not available (no CUDA device, library built
/// without CUDA, device index out of range).
class BackendUnavailable : public Error {
 public:
  using Error::Error;
};

}  // namespace mpgpu
