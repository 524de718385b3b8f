#include <iostream>
#include "mpgpu/mpgpu.hpp"
int main() { std::cout << mpgpu::Context::default_context().describe() << "\n"; }
