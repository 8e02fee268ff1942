/*
 * Where a sparse product can read a convolution's columns in place. The export writes a
 * convolution's im2col as one as_strided_copy of its padded input (its windows), read by the
 * forward, input-gradient and weight-gradient products through views. Along an output row the
 * windows of a stride-1 convolution are contiguous in that input, so a product can read the input
 * where it lies (kernels::Columns), with no copy, when the input still holds its values at the read.
 */
#pragma once

#include <cstdint>
#include <vector>

#include "plan_walker.h"
#include "sparse_dispatch.h"

namespace edgecl {

/// A product operand that is an im2col copy's output, read in place.
struct ColumnsSite {
  int copy = -1;    // the as_strided_copy instruction
  int source = -1;  // the value it copies from
  int64_t offset = 0;  // of the copy's first element in the source (elements)
  kernels::DirectColumns columns;  // source unset: set once the source's memory is final
};

/// The in-place form of operand `operand` (0 left, 1 right) of product instruction `instr`: a view
/// of an as_strided_copy of an instruction's output whose windows split into the matrix's rows and
/// columns (per matrix of a batch), the columns' last dimension contiguous, every read inside the
/// source. False otherwise.
bool find_columns(const Walker& w, int instr, int operand, ColumnsSite* site);

/// The instructions reading the output of instruction `copy`, through views (-1: a program output).
std::vector<int> copy_readers(const Walker& w, int copy);

}  // namespace edgecl
