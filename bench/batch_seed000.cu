// Seed 000's batched benchmarks through mpgpu's device API, measured as in
// ../shared/ANCHORS.md: NumBits x NumInsts = 2^32 bits per operand array,
// random full-width operands, one kernel per program; 1-Add and 6-Add in
// GB/s (3 x NumInsts x NumBits / 8 bytes per kernel; 6-Add through
// launch_staged where tuned_staged_chain says so: the same six carry-resolving
// additions, with the next instances' operands in flight), and 6-Add with
// delayed carries (mb::LazySum: the same six additions, one carry resolve
// at the end instead of six; a column of its own, not seed 000's 6-Add), 1-Mul (low half) and
// Poly = (a*a+b)*(b*b+b)+a*b (mod 2^bits) in instances/s; then powm in
// operations/s at 256 .. 8192 bits, fixed and sliding windows (mb::powm,
// mb::powm_sliding) on the same operands. Each row is checked against GMP on a
// sample of instances. CUDA events, one warm-up, median of the runs.
//
//   batch_seed000 [--min-bits N] [--max-bits N] [--reps N] [--quick] [--tune] [--no-powm]
// --tune sweeps the group size per width class instead (the measurements
// behind the table in include/mpgpu/batch/tuning_table.hpp), over the classes
// between --min-bits and --max-bits.
// Prints a markdown table; never fails on speed (exit 1 only on a mismatch
// or a CUDA error).
//
// The program is split for the build's sake: batch_seed000.cuh has the
// bodies and row templates, batch_seed000_rows*.cu and batch_seed000_tune*.cu
// instantiate them in parts.
#include "batch_seed000.cuh"

bool seed000_all_ok = true;

int main(int argc, char** argv) {
  int min_bits = 0, max_bits = 1 << 18, reps = 11;
  bool quick = false, tune_only = false, powm = true;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--max-bits") && i + 1 < argc) max_bits = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) reps = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--quick")) quick = true, reps = 3;
    else if (!std::strcmp(argv[i], "--min-bits") && i + 1 < argc) min_bits = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--tune")) tune_only = true;
    else if (!std::strcmp(argv[i], "--no-powm")) powm = false;
    else {
      std::fprintf(stderr, "usage: %s [--min-bits N] [--max-bits N] [--reps N] [--quick] [--tune] [--no-powm]\n", argv[0]);
      return 2;
    }
  }
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("Device: %s, %d SMs. NumBits x NumInsts = 2^32; median of %d runs after a warm-up.\n\n",
              prop.name, prop.multiProcessorCount, reps);
  if (tune_only) {
    std::printf(
        "| bits | G | words/thread | 1-Mul M/s | Poly M/s | verified | 1-Add GB/s | 6-Add GB/s | powm/s |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    seed000_tune_narrow(reps, min_bits, max_bits);
    seed000_tune_wide(reps, min_bits, max_bits);
    std::printf("\nAll rows verified against GMP: %s\n", seed000_all_ok ? "yes" : "NO");
    return seed000_all_ok ? 0 : 1;
  }
  std::printf("| bits | insts | G (products / adds) | 1-Add GB/s | 6-Add GB/s | 6-Add delayed carries GB/s | 1-Mul M/s | vs best | Poly M/s | vs best | verified |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  seed000_rows_narrow(reps, quick, min_bits, max_bits);
  seed000_rows_wide(reps, quick, min_bits, max_bits);
  std::printf("\n(vs best: against the best of the prototype and CGBN in ANCHORS.md, H100.)\n\n");
  if (!powm) {
    std::printf("All rows verified against GMP: %s\n", seed000_all_ok ? "yes" : "NO");
    return seed000_all_ok ? 0 : 1;
  }
  std::printf(
      "| powm bits | insts | G | fixed ms | fixed powm/s | sliding ms | sliding powm/s | sliding speed-up | verified |\n"
      "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  seed000_powm_rows(quick);
  std::printf("\nAll rows verified against GMP: %s\n", seed000_all_ok ? "yes" : "NO");
  return seed000_all_ok ? 0 : 1;
}
