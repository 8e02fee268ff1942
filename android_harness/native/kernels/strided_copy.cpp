#include "strided_copy.h"

#include <cstring>

#include "float_vectors.h"

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

/** Every other float of a run (a tap of 2 x 2 pooling windows): four from one eight-float load while the
 * load ends inside the run, then one at a time. */
inline void run_every_other_float(const char* src, char* dst, int64_t len) {
  const float* in = reinterpret_cast<const float*>(src);
  int64_t i = 0;
  for (; i + 4 < len; i += 4) {  // reads in[2i .. 2i + 7], inside the run's last element in[2 (len - 1)]
    const vec8 v = load8(in + 2 * i);
    store4(reinterpret_cast<float*>(dst) + i, __builtin_shufflevector(v, v, 0, 2, 4, 6));
  }
  for (; i < len; ++i) std::memcpy(dst + i * 4, src + i * 8, 4);
}

template <size_t E>
inline void run(const char* src, char* dst, int64_t len, int64_t stride) {
  if (stride == 1) {
    std::memcpy(dst, src, static_cast<size_t>(len) * E);
  } else if (E == 4 && stride == 2) {
    run_every_other_float(src, dst, len);
  } else if (stride == 0) {
    for (int64_t i = 0; i < len; ++i) std::memcpy(dst + i * E, src, E);
  } else {
    for (int64_t i = 0; i < len; ++i) std::memcpy(dst + i * E, src + i * stride * E, E);
  }
}

/** dst[(i + m) * cols + j + k] = src[i + m + (j + k) * stride] for m, k < 4: four loads along i, a
 * register transpose, four stores along j. */
inline void transpose_4x4_floats(const char* src, char* dst, int64_t i, int64_t j, int64_t cols, int64_t stride) {
  const float* in = reinterpret_cast<const float*>(src) + i + j * stride;
  float* out = reinterpret_cast<float*>(dst) + i * cols + j;
  vec4 r[4];
  for (int k = 0; k < 4; ++k) r[k] = load4(in + k * stride);
  const vec4 lo01 = __builtin_shufflevector(r[0], r[1], 0, 4, 1, 5), lo23 = __builtin_shufflevector(r[2], r[3], 0, 4, 1, 5);
  const vec4 hi01 = __builtin_shufflevector(r[0], r[1], 2, 6, 3, 7), hi23 = __builtin_shufflevector(r[2], r[3], 2, 6, 3, 7);
  const vec4 t[4] = {__builtin_shufflevector(lo01, lo23, 0, 1, 4, 5), __builtin_shufflevector(lo01, lo23, 2, 3, 6, 7),
                     __builtin_shufflevector(hi01, hi23, 0, 1, 4, 5), __builtin_shufflevector(hi01, hi23, 2, 3, 6, 7)};
  for (int m = 0; m < 4; ++m) store4(out + m * cols, t[m]);
}

/** out [rows, cols] = the input plane at `src` whose (i, j) element is src[i + j * stride], in 8 x 8 tiles:
 * a tile's reads and writes each stay within eight cache lines (row by row, the reads of one output
 * row would touch `cols` lines); a whole tile of floats moves through registers in 4 x 4 blocks. */
template <size_t E>
void transpose_plane(const char* src, char* dst, int64_t rows, int64_t cols, int64_t stride) {
  constexpr int64_t kTile = 8;
  for (int64_t i0 = 0; i0 < rows; i0 += kTile) {
    const int64_t i1 = i0 + kTile < rows ? i0 + kTile : rows;
    for (int64_t j0 = 0; j0 < cols; j0 += kTile) {
      const int64_t j1 = j0 + kTile < cols ? j0 + kTile : cols;
      if (E == 4 && i1 - i0 == kTile && j1 - j0 == kTile) {  // a whole float tile: four register transposes
        for (int64_t i = i0; i < i1; i += 4) {
          for (int64_t j = j0; j < j1; j += 4) transpose_4x4_floats(src, dst, i, j, cols, stride);
        }
        continue;
      }
      for (int64_t i = i0; i < i1; ++i) {
        for (int64_t j = j0; j < j1; ++j) std::memcpy(dst + (i * cols + j) * E, src + (i + j * stride) * E, E);
      }
    }
  }
}

/** The copy of the collapsed dims: a block is the last dim (a run), or the last two when they transpose
 * an input plane (the second-last contiguous in the input, the last strided); an odometer walks the
 * dims before the block. */
template <size_t E>
void copy_rows(const char* in, char* out, const int64_t* sz, const int64_t* st, size_t n) {
  if (n == 0) {
    std::memcpy(out, in, E);
    return;
  }
  const bool plane = n >= 2 && st[n - 2] == 1 && st[n - 1] != 0 && st[n - 1] != 1;
  const size_t walked = plane ? n - 2 : n - 1;
  const int64_t len = sz[n - 1], stride = st[n - 1], block = plane ? sz[n - 2] * len : len;
  int64_t idx[16] = {0};
  int64_t outer = 1;
  for (size_t k = 0; k < walked; ++k) outer *= sz[k];
  int64_t off = 0;
  for (int64_t r = 0; r < outer; ++r) {
    const char* src = in + off * static_cast<int64_t>(E);
    if (plane) {
      transpose_plane<E>(src, out, sz[n - 2], len, stride);
    } else {
      run<E>(src, out, len, stride);
    }
    out += block * static_cast<int64_t>(E);
    for (size_t k = walked; k-- > 0;) {
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
