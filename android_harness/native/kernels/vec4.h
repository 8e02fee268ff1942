/*
 * Four float lanes as a GCC vector: one register on both ABIs (SSE2, the x86_64 baseline; NEON), so a
 * comparison or a shuffle is one instruction (a wider vector's is lowered lane by lane where the target
 * has no such register). Loaded and stored unaligned; used by the elementwise fast paths and the
 * copies that move floats by lane shuffles (cat's interleave, the strided copy's taps and transposes).
 */
#pragma once

#include <cstdint>
#include <cstring>

namespace edgecl {
namespace kernels {

typedef float vec4 __attribute__((vector_size(16)));
typedef int32_t ivec4 __attribute__((vector_size(16)));

inline vec4 load4(const float* p) {
  vec4 v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}
inline void store4(float* p, vec4 v) { std::memcpy(p, &v, sizeof(v)); }

}  // namespace kernels
}  // namespace edgecl
