// A first mpgpu program: parse two integers, add them, look at the result.
//   CMake:      find_package(mpgpu) and target_link_libraries(app PRIVATE mpgpu::mpgpu)
//   pkg-config: g++ -std=c++20 main.cpp $(pkg-config --cflags --libs mpgpu)
// Run `./app` for the CPU backend (GMP), `./app auto` for the first GPU if any.
#include <mpgpu/mpgpu.hpp>

#include <iostream>
#include <vector>

int main(int argc, char** argv) {
  try {
    mpgpu::Context ctx = mpgpu::Context::from_string(argc > 1 ? argv[1] : "cpu");

    auto a = mpgpu::Integer::from_string("123456789012345678901234567890", 10, ctx);
    auto b = mpgpu::Integer::from_string("-0xffffffffffffffffffffffffffffffff", 0, ctx);
    mpgpu::Integer sum = a + b;  // a kernel on a CUDA context, mpz_add on the CPU

    std::cout << sum.to_string() << "\n" << sum.to_string(16) << "\n";
    std::cout << (sum < a ? "sum < a" : "sum >= a") << "\n";

    // Sign and magnitude; the magnitude is little-endian 64-bit limbs (GMP's layout).
    std::vector<mpgpu::limb_t> limbs = sum.to_limbs();
    std::cout << "sign " << sum.sign() << ", limbs" << std::hex;
    for (mpgpu::limb_t l : limbs) std::cout << " 0x" << l;
    std::cout << std::dec << "\n";

    // GMP interop without strings: square with GMP, bring the result back.
    mpz_t z;
    mpz_init(z);
    sum.to_mpz(z);
    mpz_mul(z, z, z);
    mpgpu::Integer square = mpgpu::Integer::from_mpz(z, ctx);
    mpz_clear(z);
    std::cout << "square has " << mpgpu::sizeinbase2(square) << " bits\n";

    // Errors are exceptions that say what went wrong and where.
    try {
      mpgpu::Integer::from_string("12x4", 10, ctx);
    } catch (const mpgpu::ParseError& e) {
      std::cout << "bad digit at position " << e.position() << "\n";
    }
    return 0;
  } catch (const mpgpu::Error& e) {
    std::cerr << "mpgpu: " << e.what() << "\n";
    return 1;
  }
}
