/*
 * Matrix products with one sparse side, bit-identical to edgecl::kernels::matmul_f32.
 *
 * matmul_f32 computes each output element as ((+0 + x0*y0) + x1*y1) + ... over k ascending, so a
 * partial sum is never -0 (+0 + -0 = +0, and an exact cancellation rounds to +0). Adding a product
 * w * x with w = +-0 (and x finite) adds +-0, which leaves such a sum unchanged. A kernel that walks
 * the same k in the same order and skips the k whose sparse factor is an exact zero therefore gives
 * the same bits. Every kernel here keeps that order:
 * - spmm_left:  z = a @ b, a sparse ([m, k], its live entries a pattern), b dense;
 * - spmm_right: z = a @ b, a dense, b sparse;
 * - sddmm:      z = a @ b only on the pattern's entries of z, +0 elsewhere (a weight gradient that
 *               a mask multiplies next: elsewhere the dense path gives w * 0 = +-0 instead).
 * A pattern whose live set is a rectangle (live rows x live columns: a channel mask, density 0 or 1)
 * runs the dense kernel on the compacted operands (a channel's products on its surviving rows).
 * spmm_left's dense side and sddmm's left side may also be read in place (Columns): a convolution's
 * columns read from its padded input, with no im2col copy; the same values in the same order.
 */
#pragma once

#include <cstdint>
#include <vector>

namespace edgecl {
namespace kernels {

/// The live entries of a [rows, cols] matrix: CSR (row_ptr, col ascending within a row), and the
/// rectangle form (live_rows x live_cols) when the live set is one.
struct SparsePattern {
  int64_t rows = 0, cols = 0;
  std::vector<int64_t> row_ptr;  // rows + 1
  std::vector<int32_t> col;      // nnz
  std::vector<int64_t> t_row_ptr;  // the same entries by column: cols + 1
  std::vector<int32_t> t_col;      // their rows, ascending within a column
  bool rectangular = false;
  std::vector<int32_t> live_rows, live_cols;  // ascending; set when rectangular
  bool has_entries = false;  // col and the by-column form built (else counts alone: row_ptr, the rectangle)

  int64_t nnz() const { return row_ptr.empty() ? 0 : row_ptr.back(); }
  double density() const { return rows * cols != 0 ? static_cast<double>(nnz()) / static_cast<double>(rows * cols) : 0.0; }
  /// From row-major flags (non-zero = live). With `entries` false only the counts and the rectangle
  /// are built: enough to choose between the kernels, for a product that then runs dense.
  static SparsePattern from_flags(const uint8_t* live, int64_t rows, int64_t cols, bool entries = true);
  /// Builds col and the by-column form of a pattern of counts, from the flags it was counted from.
  void add_entries(const uint8_t* live);
};

/// A dense [rows, segs * seg_len] matrix read where it lies: entry (k, j) at
/// data[row_off[k] + seg_off[j / seg_len] + j % seg_len]. A convolution's im2col columns are its
/// padded input read at a tap's offset (row_off) along each output row (a segment).
/// A matrix stored as usual is the case row_off = null (row k at k * row_stride), seg_off = null
/// (segment s at s * seg_len).
struct Columns {
  const float* data = nullptr;
  const int64_t* row_off = nullptr;  // rows
  const int64_t* seg_off = nullptr;  // segs
  int64_t row_stride = 0, seg_len = 0, segs = 0;

  /// A row-major [rows, cols] matrix: one segment per row.
  static Columns dense(const float* data, int64_t cols) { return {data, nullptr, nullptr, cols, cols, 1}; }
  int64_t row(int64_t k) const { return row_off != nullptr ? row_off[k] : k * row_stride; }
  int64_t seg(int64_t s) const { return seg_off != nullptr ? seg_off[s] : s * seg_len; }
};

/// A rectangle runs the dense kernel compacted only when it fills its row tiles (and, for the
/// weight gradient, column vectors); thinner ones are faster on the CSR kernels (measured:
/// bench-step's per-product GFLOP/s).
constexpr int64_t kMinRows = 6;
constexpr int64_t kMinCols = 16;
/// Whether spmm_left (sddmm) runs `p` as a compacted dense product rather than the CSR walk; only the
/// CSR walk reads columns in place.
bool left_compacted(const SparsePattern& pa);
bool output_compacted(const SparsePattern& pz);

/// z [m, p] = a [m, n] @ b [n, p]; a's entries outside `pa` ([m, n]) are treated as zero.
void spmm_left(float* z, const float* a, const SparsePattern& pa, const float* b, int64_t m, int64_t n, int64_t p);
/// z [m, p] = a [m, n] @ b [n, p]; b's entries outside `pb` ([n, p]) are treated as zero.
void spmm_right(float* z, const float* a, const float* b, const SparsePattern& pb, int64_t m, int64_t n, int64_t p);
/// z [m, p] = (a [m, n] @ b [n, p]) on the entries of `pz` ([m, p]), +0 on the others.
void sddmm(float* z, const float* a, const float* b, const SparsePattern& pz, int64_t m, int64_t n, int64_t p);
/// spmm_left with b [n, b.segs * b.seg_len] read in place; the CSR walk whatever the pattern's shape.
void spmm_left_direct(float* z, const float* a, const SparsePattern& pa, const Columns& b, int64_t m, int64_t n);
/// sddmm with a [m, n = a.segs * a.seg_len] read in place; the CSR walk by column whatever the
/// pattern's shape.
void sddmm_direct(float* z, const Columns& a, const float* b, const SparsePattern& pz, int64_t m, int64_t n, int64_t p);

}  // namespace kernels
}  // namespace edgecl
