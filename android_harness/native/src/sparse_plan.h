/*
 * The sparse products of a loaded training program, found by walking its execution plan once.
 *
 * A masked layer's weight enters the program as mul(weight, mask_input); the products that read it
 * are the mm / bmm instructions reached from that mul's output through layout copies (view, permute,
 * flip, expand): its forward and its input gradient, the weight a sparse operand. Its gradient leaves
 * as mul(G, mask_input) where G comes from an mm / bmm through layout copies (and a sum over the
 * batch of a bmm) that nothing else reads: the weight gradient, needed only where the mask is 1.
 * Each product gets an index map from its matrix's entries to the mask's (layout copies applied to
 * an index tensor), so its pattern is rebuilt from the mask alone when the masks change. The
 * products are registered with the kernels (kernels/sparse_dispatch.h) for as long as this lives.
 * A convolution's products read its columns in place (direct_columns.h) while they run sparse, and
 * its im2col copy is skipped while all of them do; the arena (arena.h) is laid out again for each
 * change, the copy's source live until its last reader and a skipped copy given no bytes.
 */
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <executorch/runtime/executor/method.h>

#include "arena.h"
#include "result.h"
#include "sparse_dispatch.h"

namespace edgecl {

class Walker;

/// Densities above which the dense kernel is faster, per kind (measured: bench-step's per-product
/// figures on the programs' shapes; a rectangular pattern always runs compacted).
constexpr double kLeftCrossover = 0.45;
constexpr double kRightCrossover = 0.3;
constexpr double kOutputCrossover = 0.15;
/// Whether a convolution whose output rows are `len` wide reads its columns in place: where a row
/// fills at least one 8-wide vector (measured with bench-step: rows of 4 lose, 8 and more gain).
constexpr bool fills_vectors(int64_t len) { return len >= 8; }

/// One product's figures: role "forward" | "input_grad" | "weight_grad".
struct ProductReport {
  std::string role;
  double density = 0.0;
  bool rectangular = false, dense = false;
  bool in_place = false;  // reads a convolution's columns where they lie, not an im2col copy
  kernels::ProductStats stats;
};

struct LayerReport {
  std::string name;
  std::vector<ProductReport> products;
};

class SparsePlan final {
 public:
  /// Walks a method's plan; `mask_values` are the plan's value indices of the mask inputs, in
  /// mask_names order. A layer none of whose products is found has no products (the report shows it).
  /// `arena` (null: the export's layout is kept, and no columns are read in place) must outlive the plan.
  static Result<std::unique_ptr<SparsePlan>> build(const Walker& w, Arena* arena,
                                                   const std::vector<std::string>& mask_names,
                                                   const std::vector<int>& mask_values);
  ~SparsePlan();
  SparsePlan(const SparsePlan&) = delete;
  SparsePlan& operator=(const SparsePlan&) = delete;

  /// Sparse kernels on (patterns chosen by density) or off (every product dense, still counted).
  void set_enabled(bool on);
  void set_timed(bool on);
  /// Patterns from the masks (`masks[l]`: layer l's mask, its numel) and, for the weight gradients,
  /// the DGM masks `grad_masks[l]` (null or empty: the weight mask alone).
  void rebuild(const std::vector<const float*>& masks, const std::vector<const float*>& grad_masks);
  std::vector<LayerReport> report() const;
  void reset_stats();

 private:
  struct Product;
  struct Layer;
  struct Copy;
  SparsePlan();
  bool runs_sparse(const Product& p) const;  // sparse kernels on and the pattern under its crossover
  void choose(Product& p) const;
  void update_copies();
  void read_columns_in_place(const Walker& w);
  std::vector<std::unique_ptr<Layer>> layers_;
  std::vector<std::unique_ptr<Copy>> copies_;
  Arena* arena_ = nullptr;
  std::vector<InPlaceRead> reads_;  // what the arena's current layout allows for
  bool enabled_ = false;
};

}  // namespace edgecl
