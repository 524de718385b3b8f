// A CGBN program built against the installed drop-in header, as a CGBN user
// builds theirs: `#include "cgbn/cgbn.h"` with only the include path changed,
//   g++ -std=c++17 -I <prefix>/include/mpgpu/compat -I <prefix>/include main.cpp
// It runs CGBN's host path (a thread an instance), so it needs neither nvcc
// nor a GPU; the install test compiles and runs it and compares its output
// with expected.txt (values computed independently, with Python's integers).
#include "cgbn/cgbn.h"

#include <cstdint>
#include <cstdio>

namespace {

constexpr uint32_t kBits = 1024;
using context_t = cgbn_context_t<8>;
using env_t = cgbn_env_t<context_t, kBits>;
using bn_t = env_t::cgbn_t;
using mem_t = cgbn_mem_t<kBits>;

/// value, most significant word first, as hexadecimal.
void print(const char* name, const mem_t& m) {
  std::printf("%s ", name);
  bool leading = true;
  for (int i = kBits / 32 - 1; i >= 0; --i) {
    if (leading && m._limbs[i] == 0 && i > 0) continue;
    std::printf(leading ? "%x" : "%08x", m._limbs[i]);
    leading = false;
  }
  std::printf("\n");
}

}  // namespace

int main() {
  cgbn_error_report_t* report = nullptr;
  if (cgbn_error_report_alloc(&report) != 0) return 1;
  context_t context(cgbn_report_monitor, report, 0);
  env_t env(context);

  // a = 2^1023 + 12345, m = 2^1024 - 1 (odd), e = 65537.
  mem_t a_mem{}, m_mem{};
  a_mem._limbs[0] = 12345;
  a_mem._limbs[kBits / 32 - 1] = 0x80000000u;
  for (auto& w : m_mem._limbs) w = 0xFFFFFFFFu;
  bn_t a, m, b, e, r;
  cgbn_load(env, a, &a_mem);
  cgbn_load(env, m, &m_mem);
  cgbn_set_ui32(env, b, 0xDEADBEEFu);
  cgbn_set_ui32(env, e, 65537);

  mem_t out{};
  const int32_t carry = cgbn_add(env, r, a, a);  // 2a = 2^1024 + 24690: carry 1
  cgbn_store(env, &out, r);
  std::printf("carry %d\n", static_cast<int>(carry));
  print("a+a", out);
  cgbn_mul(env, r, a, b);  // low 1024 bits of a * b
  cgbn_store(env, &out, r);
  print("a*b", out);
  cgbn_modular_power(env, r, b, e, m);  // b^e mod m
  cgbn_store(env, &out, r);
  print("b^e mod m", out);
  const uint32_t rem = cgbn_rem_ui32(env, a, 1000003u);
  std::printf("a mod 1000003 = %u\n", rem);

  // CGBN's error report: a division by zero is reported, not a crash.
  bn_t zero, q;
  cgbn_set_ui32(env, zero, 0);
  cgbn_div(env, q, a, zero);
  std::printf("report: %s\n", cgbn_error_report_check(report) ? cgbn_error_string(report) : "no error");
  cgbn_error_report_free(report);
  return 0;
}
