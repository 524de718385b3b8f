// `mpgpu selftest`: helpers shared by the Integer families: a destination
// that already holds a value, and the aliasing forms of binary and unary
// operations, each checked against the GMP function of the same meaning.
#pragma once

#include <string>
#include <string_view>

#include "selftest_case.hpp"
#include "selftest_sizes.hpp"

namespace mpgpu::cli::selftest {

using IntBinary = void (*)(Integer&, const Integer&, const Integer&, Stream);
using IntUnary = void (*)(Integer&, const Integer&, Stream);
using MpzBinary = void (*)(mpz_ptr, mpz_srcptr, mpz_srcptr);
using MpzUnary = void (*)(mpz_ptr, mpz_srcptr);

/// A destination: zero, or (half of the time) an old value of about
/// `bits` bits, so results also land in buffers that hold something.
Integer make_destination(CaseEnv& env, std::uint64_t bits);

/// r = f(a, b) in one of five aliasing forms (r apart, r = a, r = b, and
/// unless `distinct`: a = b, r = a = b), against g; operands that are not
/// the result must keep their values. Sets out.op and out.sizes.
void check_binary(CaseEnv& env, CaseOutcome& out, std::string_view name, IntBinary f, MpzBinary g,
                  const Operand& a, const Operand& b, bool distinct = false);
/// r = f(a) with r apart or r = a, against g.
void check_unary(CaseEnv& env, CaseOutcome& out, std::string_view name, IntUnary f, MpzUnary g,
                 const Operand& a);

/// Bits of an operand in `area`, at most `max_limbs` limbs when drawn at random.
Operand operand_in(CaseEnv& env, Area area, std::size_t max_limbs, bool allow_negative = true);

}  // namespace mpgpu::cli::selftest
