/*
 * Eight float lanes as a GCC vector (one AVX register on x86_64, two NEON registers on arm64), loaded and
 * stored unaligned: the register blocks of the dense and the sparse matrix kernels. Each lane is
 * computed by plain float operations in the order written (-ffp-contract=off), so both ABIs round alike.
 */
#pragma once

#include <cstring>

namespace edgecl {
namespace kernels {

typedef float vec8 __attribute__((vector_size(32)));

inline vec8 load8(const float* p) {
  vec8 v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

inline void store8(float* p, vec8 v) { std::memcpy(p, &v, sizeof(v)); }

}  // namespace kernels
}  // namespace edgecl
