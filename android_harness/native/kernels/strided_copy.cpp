#include "strided_copy.h"

#include <cstring>

namespace edgecl {
namespace kernels {

namespace {

/** Merge adjacent dimensions that step through the input contiguously (stride[k] = stride[k+1] *
 * size[k+1]), so a run is as long as the memory allows; drops dimensions of size 1. */
size_t collapse(const int64_t* sizes, const int64_t* strides, size_t ndim, int64_t* sz, int64_t* st) {
  size_t n = 0;
  for (size_t k = 0; k < ndim; ++k) {
    if (sizes[k] == 1) continue;
    if (n > 0 && st[n - 1] == strides[k] * sizes[k]) {
      sz[n - 1] *= sizes[k];
      st[n - 1] = strides[k];
    } else {
      sz[n] = sizes[k];
      st[n] = strides[k];
      ++n;
    }
  }
  return n;
}

template <size_t E>
inline void run(const char* src, char* dst, int64_t len, int64_t stride) {
  if (stride == 1) {
    std::memcpy(dst, src, static_cast<size_t>(len) * E);
  } else if (stride == 0) {
    for (int64_t i = 0; i < len; ++i) std::memcpy(dst + i * E, src, E);
  } else {
    for (int64_t i = 0; i < len; ++i) std::memcpy(dst + i * E, src + i * stride * E, E);
  }
}

template <size_t E>
void copy_rows(const char* in, char* out, const int64_t* sz, const int64_t* st, size_t n) {
  if (n == 0) {
    std::memcpy(out, in, E);
    return;
  }
  const int64_t len = sz[n - 1], stride = st[n - 1];
  int64_t idx[16] = {0};
  int64_t outer = 1;
  for (size_t k = 0; k + 1 < n; ++k) outer *= sz[k];
  int64_t off = 0;
  for (int64_t r = 0; r < outer; ++r) {
    run<E>(in + off * static_cast<int64_t>(E), out, len, stride);
    out += len * static_cast<int64_t>(E);
    for (size_t k = n - 1; k-- > 0;) {
      if (++idx[k] < sz[k]) {
        off += st[k];
        break;
      }
      off -= st[k] * (sz[k] - 1);
      idx[k] = 0;
    }
  }
}

}  // namespace

void strided_copy(const char* in, char* out, const int64_t* sizes, const int64_t* strides, size_t ndim,
                  size_t elem) {
  int64_t sz[16], st[16];
  for (size_t k = 0; k < ndim; ++k) {
    if (sizes[k] == 0) return;
  }
  const size_t n = collapse(sizes, strides, ndim, sz, st);
  switch (elem) {
    case 1: copy_rows<1>(in, out, sz, st, n); break;
    case 2: copy_rows<2>(in, out, sz, st, n); break;
    case 4: copy_rows<4>(in, out, sz, st, n); break;
    case 8: copy_rows<8>(in, out, sz, st, n); break;
    default: {  // any other element size: as bytes, one element a row
      int64_t bsz[17], bst[17];
      for (size_t k = 0; k < n; ++k) {
        bsz[k] = sz[k];
        bst[k] = st[k] * static_cast<int64_t>(elem);
      }
      bsz[n] = static_cast<int64_t>(elem);
      bst[n] = 1;
      copy_rows<1>(in, out, bsz, bst, n + 1);
    }
  }
}

}  // namespace kernels
}  // namespace edgecl
