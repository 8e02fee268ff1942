/*
 * Float vectors as GCC vectors, loaded and stored unaligned.
 * - vec4 (and its lane mask ivec4): one register on both ABIs (SSE2, the x86_64 baseline; NEON), so a
 *   comparison or a shuffle is one instruction: the elementwise fast paths and the copies that move
 *   floats by lane shuffles (cat's interleave, the strided copy's taps and transposes).
 * - vec8: one AVX register on x86_64, two NEON registers on arm64: the register blocks of the dense and
 *   the sparse matrix kernels.
 * Each lane is computed by plain float operations in the order written (-ffp-contract=off), so both
 * ABIs round alike.
 */
#pragma once

#include <cstdint>
#include <cstring>

namespace edgecl {
namespace kernels {

typedef float vec4 __attribute__((vector_size(16)));
typedef int32_t ivec4 __attribute__((vector_size(16)));
typedef float vec8 __attribute__((vector_size(32)));

/// A vector of V's lanes from p (unaligned).
template <class V>
inline V load_lanes(const float* p) {
  V v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}
inline vec4 load4(const float* p) { return load_lanes<vec4>(p); }
inline vec8 load8(const float* p) { return load_lanes<vec8>(p); }
inline void store4(float* p, vec4 v) { std::memcpy(p, &v, sizeof(v)); }
inline void store8(float* p, vec8 v) { std::memcpy(p, &v, sizeof(v)); }

}  // namespace kernels
}  // namespace edgecl
