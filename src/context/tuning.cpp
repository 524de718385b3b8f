// TuningParams::from_environment: the MPGPU_* overrides of tuning runs. Read
// when a context is made without params, never on an operation's path.
#include "mpgpu/tuning.hpp"

#include <cstdlib>

namespace mpgpu {

namespace {

/// Sets `value` to the unsigned number in environment variable `name`
/// (decimal, or hexadecimal after 0x) when the variable is set; a value
/// that is not a number reads as 0, as strtoull gives it.
template <class T>
void read_override(const char* name, T& value) {
  if (const char* v = std::getenv(name)) value = static_cast<T>(std::strtoull(v, nullptr, 0));
}

}  // namespace

TuningParams TuningParams::from_environment() {
  TuningParams p;
  for_each_field(p, [](const char*, const char* variable, auto& value) { read_override(variable, value); });
  return p;
}

}  // namespace mpgpu
