#include "sparse_report.h"

namespace edgecl {

OrderedJson sparse_layers_json(const std::vector<LayerReport>& layers) {
  OrderedJson out = OrderedJson::array();
  for (const auto& layer : layers) {
    OrderedJson products = OrderedJson::array();
    for (const auto& r : layer.products) {
      const auto& st = r.stats;
      products.push_back({{"role", r.role}, {"density", r.density}, {"rectangular", r.rectangular},
                          {"kernel", r.dense ? "dense" : "sparse"}, {"in_place", r.in_place}, {"sparse_calls", st.sparse_calls},
                          {"dense_calls", st.dense_calls}, {"seconds", st.seconds},
                          {"nonzero_gflop", st.nonzero_flops * 1e-9}, {"dense_gflop", st.dense_flops * 1e-9},
                          {"gflops_nonzero", st.seconds > 0 ? st.nonzero_flops * 1e-9 / st.seconds : 0.0}});
    }
    out.push_back({{"name", layer.name}, {"products", products}});
  }
  return out;
}

}  // namespace edgecl
