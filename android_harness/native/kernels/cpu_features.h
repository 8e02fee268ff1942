/*
 * What the CPU the runner runs on offers, asked once at start-up. The hand-vectorized x86_64 paths
 * (the sparse products' tiles, DGM's digit compaction) run where it has AVX2 and fall back to their
 * portable loops elsewhere; both give the same bits.
 */
#pragma once

namespace edgecl::kernels {

#if defined(__x86_64__)
/// AVX2, with the POPCNT every AVX2 CPU has (the compaction counts lanes with it).
inline const bool kHasAvx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
#endif

}  // namespace edgecl::kernels
