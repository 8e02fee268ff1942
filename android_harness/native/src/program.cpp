#include "program.h"

#include <algorithm>
#include <cstring>
#include <map>

#include <executorch/extension/data_loader/file_data_loader.h>
#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor_ptr_maker.h>
#include <executorch/extension/training/module/training_module.h>
#include <executorch/schema/program_generated.h>

#include "method_layout.h"
#include "npz.h"
#include "program_check.h"

namespace edgecl {
namespace {

namespace et = ::executorch;
using et::aten::ScalarType;
using et::extension::FileDataLoader;
using et::extension::Module;
using et::extension::TensorPtr;
using et::extension::training::TrainingModule;
using et::runtime::EValue;

constexpr const char* kMethod = "forward";
constexpr const char* kModelPrefix = "model.";

/// The runtime reads the program through a FileDataLoader (malloc'd copies), not an mmap: the
/// trainable weights live in the program's constant data and the optimizer writes them in place,
/// which a read-only mapping would not allow.
Result<std::unique_ptr<FileDataLoader>> open_program(const std::string& path) {
  auto loader = FileDataLoader::from(path.c_str());
  if (!loader.ok()) {
    return from_et(loader.error(), path + ": cannot open the program");
  }
  return std::make_unique<FileDataLoader>(std::move(loader.get()));
}

/// One reusable input tensor per spec; forward_backward only swaps its data pointer.
TensorPtr make_input(const TensorSpec& spec) {
  std::vector<et::aten::SizesType> sizes(spec.shape.begin(), spec.shape.end());
  static int64_t dummy = 0;
  return et::extension::from_blob(&dummy, std::move(sizes), scalar_type(spec.dtype),
                                  et::aten::TensorShapeDynamism::STATIC);
}

template <typename T>
TensorRef<T> tensor_ref(const std::string& name, const et::aten::Tensor& t) {
  TensorRef<T> ref;
  ref.name = name;
  ref.data = t.mutable_data_ptr<float>();
  ref.numel = static_cast<size_t>(t.numel());
  ref.shape.assign(t.sizes().begin(), t.sizes().end());
  return ref;
}

std::string model_name(std::string_view fqn) {
  std::string name(fqn);
  return name.rfind(kModelPrefix, 0) == 0 ? name.substr(std::strlen(kModelPrefix)) : name;
}

}  // namespace

struct Program::Impl {
  Manifest manifest;
  std::string train_path, eval_path;
  std::unique_ptr<TrainingModule> train;
  std::unique_ptr<Module> eval;
  std::vector<TensorPtr> train_inputs;
  std::vector<EValue> train_args;
  std::vector<TensorPtr> eval_inputs;
  std::vector<EValue> eval_args;
  std::vector<EValue> outputs;  // user outputs of the last forward_backward
  std::vector<std::string> fqns;  // program parameter names, program order
  std::vector<MutableTensorRef> params;
  std::vector<ConstTensorRef> grads;
  std::vector<MutableTensorRef> masks, buffers;
  std::vector<std::vector<float>> owned;  // storage of masks and buffers
  std::vector<float> eval_x;  // one padded batch
  MethodLayout train_laid, eval_laid;  // before the sparse plans, which lay their arenas out again
  uint64_t grads_generation = 0;  // of the train arena's layout the gradient refs point into
  std::unique_ptr<SparsePlan> sparse, eval_sparse;
  bool sparse_dirty = true, eval_sparse_dirty = true, full_weight_grad = true;
  std::vector<const float*> grad_masks, built_masks;  // the mask inputs the patterns come from

  Error load_state(const std::string& npz_path);
  Error bind_parameters();
  Error bind_eval();
};

Error Program::Impl::load_state(const std::string& npz_path) {
  auto arrays = read_npz(npz_path);
  if (!arrays.ok()) return arrays.error();
  const Signature& sig = manifest.signature;
  auto take = [&](const std::string& key, std::vector<MutableTensorRef>* out, const std::string& name) -> Error {
    auto it = arrays->find(key);
    if (it == arrays->end()) return Error(ErrorCode::NotFound, npz_path + ": no array '" + key + "'");
    if (it->second.descr != "<f4") {
      return Error(ErrorCode::InvalidType, npz_path + ": " + key + ": dtype " + it->second.descr + ", expected <f4");
    }
    owned.emplace_back(it->second.numel());
    std::memcpy(owned.back().data(), it->second.bytes.data(), it->second.bytes.size());
    out->push_back({name, owned.back().data(), owned.back().size(), it->second.shape});
    return Error();
  };
  owned.reserve(sig.mask_names.size() + sig.buffer_names.size());
  for (const auto& name : sig.mask_names) {
    EDGECL_RETURN_IF_ERROR(take("mask/" + name, &masks, name));
    const int idx = Signature::find(sig.inputs, Signature::mask_input_name(name));
    if (masks.back().numel != sig.inputs[idx].numel()) {
      return Error(ErrorCode::InvalidArgument, npz_path + ": mask/" + name + ": shape differs from the signature's");
    }
  }
  for (const auto& name : sig.buffer_names) {
    EDGECL_RETURN_IF_ERROR(take("buffer/" + name, &buffers, name));
  }
  return Error();
}

Error Program::Impl::bind_parameters() {
  const std::string fqn_method = std::string("__et_training_fqn_") + kMethod;
  auto names = train->execute(fqn_method);
  if (!names.ok()) return from_et(names.error(), train_path + ": not a training program (no " + fqn_method + ")");
  for (const EValue& v : names.get()) {
    fqns.push_back(model_name(v.toString()));
  }
  auto named = train->named_parameters(kMethod);
  if (!named.ok()) return from_et(named.error(), train_path + ": cannot read the parameters");
  const auto& expected = manifest.signature.parameter_names;
  if (fqns != expected || named->size() != fqns.size()) {
    return Error(ErrorCode::InvalidProgram, train_path + ": program parameters (" + std::to_string(fqns.size()) +
                 ", first '" + (fqns.empty() ? "" : fqns[0]) + "') differ from the signature's (" +
                 std::to_string(expected.size()) + ", first '" + (expected.empty() ? "" : expected[0]) + "')");
  }
  for (const auto& [fqn, tensor] : named.get()) {
    if (tensor.scalar_type() != ScalarType::Float) {
      return Error(ErrorCode::InvalidType, train_path + ": parameter " + std::string(fqn) + " is not float32");
    }
  }
  std::map<std::string, et::aten::Tensor> by_name;
  for (const auto& [fqn, tensor] : named.get()) by_name.emplace(model_name(fqn), tensor);
  for (const auto& name : fqns) params.push_back(tensor_ref<float>(name, by_name.at(name)));
  return Error();
}

Error Program::Impl::bind_eval() {
  const Signature& sig = manifest.signature;
  EDGECL_RETURN_IF_ERROR(check_inputs(*eval, kMethod, sig.eval_inputs, eval_path));
  if (sig.eval_inputs.empty() || sig.eval_inputs[0].name != "x" ||
      sig.eval_inputs[0].numel() != sig.inputs[0].numel()) {
    return Error(ErrorCode::InvalidArgument, manifest.folder + "/manifest.json: signature.eval_inputs must start with x");
  }
  auto find = [](const std::vector<MutableTensorRef>& refs, const std::string& name) -> const MutableTensorRef* {
    for (const auto& r : refs) {
      if (r.name == name) return &r;
    }
    return nullptr;
  };
  eval_x.assign(sig.inputs[0].numel(), 0.0f);
  for (const TensorSpec& spec : sig.eval_inputs) {
    eval_inputs.push_back(make_input(spec));
    float* data = nullptr;
    if (spec.name == "x") {
      data = eval_x.data();
    } else if (const auto* p = find(params, spec.name)) {
      data = p->data;
    } else if (const auto* b = find(buffers, spec.name)) {
      data = b->data;
    } else {
      for (const auto& m : masks) {
        if (Signature::mask_input_name(m.name) == spec.name) data = m.data;
      }
    }
    if (data == nullptr) {
      return Error(ErrorCode::InvalidArgument, manifest.folder + "/manifest.json: eval input '" + spec.name +
                   "' is neither x, a parameter, a buffer nor a mask");
    }
    eval_inputs.back()->unsafeGetTensorImpl()->set_data(data);
    eval_args.emplace_back(eval_inputs.back());
  }
  return Error();
}

Program::Program(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Program::~Program() = default;

Result<std::unique_ptr<Program>> Program::load(const std::string& model_dir) {
  auto impl = std::make_unique<Impl>();
  auto manifest = read_manifest(model_dir);
  if (!manifest.ok()) return manifest.error();
  impl->manifest = std::move(manifest.get());
  const Manifest& m = impl->manifest;
  if (m.runtime != "executorch") {
    return Error(ErrorCode::NotSupported, model_dir + "/manifest.json: runtime '" + m.runtime +
                 "': the native runner runs ExecuTorch exports only");
  }
  auto train_path = m.file("training");
  auto eval_path = m.file("eval");
  auto state_path = m.file("initial_state");
  for (const auto* r : {&train_path, &eval_path, &state_path}) {
    if (!r->ok()) return r->error();
  }
  impl->train_path = train_path.get();
  impl->eval_path = eval_path.get();
  for (const char* role : {"training", "eval", "initial_state"}) EDGECL_RETURN_IF_ERROR(m.verify(role));
  EDGECL_RETURN_IF_ERROR(impl->load_state(state_path.get()));

  auto train_loader = open_program(impl->train_path);
  if (!train_loader.ok()) return train_loader.error();
  impl->train = std::make_unique<TrainingModule>(std::move(train_loader.get()));
  EDGECL_RETURN_IF_ERROR(verify_program(*impl->train, impl->train_path));
  EDGECL_RETURN_IF_ERROR(from_et(impl->train->load_method(kMethod), impl->train_path + ": cannot load method"));
  const Signature& sig = m.signature;
  EDGECL_RETURN_IF_ERROR(check_inputs(*impl->train, kMethod, sig.inputs, impl->train_path));
  auto meta = impl->train->method_meta(kMethod);
  if (meta->num_outputs() < sig.outputs.size()) {
    return Error(ErrorCode::InvalidProgram, impl->train_path + ": program gives " +
                 std::to_string(meta->num_outputs()) + " outputs, the signature declares " +
                 std::to_string(sig.outputs.size()) + " user outputs");
  }
  EDGECL_RETURN_IF_ERROR(check_training_layout(*impl->train, kMethod, impl->train_path));
  auto train_laid = MethodLayout::of(impl->train->method(kMethod), impl->train_path);
  if (!train_laid.ok()) return train_laid.error();
  impl->train_laid = std::move(train_laid.get());
  EDGECL_RETURN_IF_ERROR(impl->bind_parameters());
  for (const TensorSpec& spec : sig.inputs) {
    impl->train_inputs.push_back(make_input(spec));
    impl->train_args.emplace_back(impl->train_inputs.back());
  }

  auto eval_loader = open_program(impl->eval_path);
  if (!eval_loader.ok()) return eval_loader.error();
  impl->eval = std::make_unique<Module>(std::move(eval_loader.get()));
  EDGECL_RETURN_IF_ERROR(verify_program(*impl->eval, impl->eval_path));
  EDGECL_RETURN_IF_ERROR(from_et(impl->eval->load_method(kMethod), impl->eval_path + ": cannot load method"));
  auto eval_laid = MethodLayout::of(impl->eval->method(kMethod), impl->eval_path);
  if (!eval_laid.ok()) return eval_laid.error();
  impl->eval_laid = std::move(eval_laid.get());
  // evaluation runs between training steps: in the training arena's memory, around its outputs
  if (impl->train_laid.arena && impl->eval_laid.arena) impl->eval_laid.arena->share_with(impl->train_laid.arena.get());
  EDGECL_RETURN_IF_ERROR(impl->bind_eval());
  return std::unique_ptr<Program>(new Program(std::move(impl)));
}

const Manifest& Program::manifest() const { return impl_->manifest; }
const Signature& Program::signature() const { return impl_->manifest.signature; }

Error Program::forward_backward(const std::vector<InputTensor>& inputs) {
  Impl& s = *impl_;
  const auto& specs = s.manifest.signature.inputs;
  if (inputs.size() != specs.size()) {
    return Error(ErrorCode::InvalidArgument, "forward_backward: " + std::to_string(inputs.size()) +
                 " inputs, the signature has " + std::to_string(specs.size()));
  }
  for (size_t i = 0; i < specs.size(); ++i) {
    if (inputs[i].dtype != specs[i].dtype || inputs[i].numel != specs[i].numel() || inputs[i].data == nullptr) {
      return Error(ErrorCode::InvalidArgument, "forward_backward: input '" + specs[i].name + "': expected " +
                   std::to_string(specs[i].numel()) + " " + dtype_name(specs[i].dtype) + " values");
    }
    s.train_inputs[i]->unsafeGetTensorImpl()->set_data(const_cast<void*>(inputs[i].data));
  }
  if (s.sparse) {
    const size_t first = specs.size() - s.masks.size();
    std::vector<const float*> masks;
    for (size_t i = first; i < specs.size(); ++i) masks.push_back(static_cast<const float*>(inputs[i].data));
    if (s.sparse_dirty || masks != s.built_masks) {
      s.sparse->rebuild(masks, s.full_weight_grad ? std::vector<const float*>{} : s.grad_masks);
      s.built_masks = masks;
      s.sparse_dirty = false;
    }
  }
  auto outs = s.train->execute_forward_backward(kMethod, s.train_args);
  if (!outs.ok()) return from_et(outs.error(), s.train_path + ": forward_backward");
  s.outputs = std::move(outs.get());
  const uint64_t generation = s.train_laid.arena ? s.train_laid.arena->generation() : 0;
  if (generation != s.grads_generation) s.grads.clear();
  if (s.grads.empty()) {
    s.grads_generation = generation;
    auto named = s.train->named_gradients(kMethod);
    if (!named.ok()) return from_et(named.error(), s.train_path + ": cannot read the gradients");
    std::map<std::string, et::aten::Tensor> by_name;
    for (const auto& [fqn, tensor] : named.get()) by_name.emplace(model_name(fqn), tensor);
    for (const auto& p : s.params) {
      auto it = by_name.find(p.name);
      if (it == by_name.end() || static_cast<size_t>(it->second.numel()) != p.numel) {
        return Error(ErrorCode::InvalidProgram, s.train_path + ": no gradient for parameter " + p.name);
      }
      s.grads.push_back(tensor_ref<const float>(p.name, it->second));
    }
  }
  return Error();
}

Error Program::set_sparse(bool on) {
  Impl& s = *impl_;
  const Signature& sig = s.manifest.signature;
  if (!s.sparse) {
    auto plan = s.train_laid.sparse_plan(sig, sig.inputs, s.train_path);
    if (!plan.ok()) return plan.error();
    s.sparse = std::move(plan.get());
  }
  if (!s.eval_sparse) {
    auto plan = s.eval_laid.sparse_plan(sig, sig.eval_inputs, s.eval_path);
    if (!plan.ok()) return plan.error();
    s.eval_sparse = std::move(plan.get());
  }
  s.sparse->set_enabled(on);
  s.eval_sparse->set_enabled(on);
  s.sparse_dirty = s.eval_sparse_dirty = true;
  return Error();
}

void Program::masks_changed() { impl_->sparse_dirty = impl_->eval_sparse_dirty = true; }

void Program::set_grad_masks(std::vector<const float*> grad_masks) {
  impl_->grad_masks = std::move(grad_masks);
  impl_->sparse_dirty = true;
}

void Program::need_full_weight_grad(bool full) {
  if (impl_->full_weight_grad != full) impl_->sparse_dirty = true;
  impl_->full_weight_grad = full;
}

std::vector<LayerReport> Program::sparse_report() const {
  return impl_->sparse ? impl_->sparse->report() : std::vector<LayerReport>{};
}

std::vector<LayerReport> Program::eval_sparse_report() const {
  return impl_->eval_sparse ? impl_->eval_sparse->report() : std::vector<LayerReport>{};
}

void Program::reset_sparse_stats(bool timed) {
  for (SparsePlan* plan : {impl_->sparse.get(), impl_->eval_sparse.get()}) {
    if (plan == nullptr) continue;
    plan->reset_stats();
    plan->set_timed(timed);
  }
}

Program::ArenaReport Program::arena_report() const {
  const MethodLayout& laid = impl_->train_laid;
  return {laid.planned_bytes, laid.arena ? laid.arena->bytes() : laid.planned_bytes, laid.why_not};
}

float Program::loss() const { return impl_->outputs.empty() ? 0.0f : output(0).data[0]; }

size_t Program::num_outputs() const { return impl_->manifest.signature.outputs.size(); }

ConstTensorRef Program::output(size_t i) const {
  const auto& names = impl_->manifest.signature.outputs;
  if (i >= impl_->outputs.size() || i >= names.size() || !impl_->outputs[i].isTensor()) {
    return {};
  }
  return tensor_ref<const float>(names[i], impl_->outputs[i].toTensor());
}

const std::vector<MutableTensorRef>& Program::params() const { return impl_->params; }
const std::vector<ConstTensorRef>& Program::grads() const { return impl_->grads; }
const std::vector<MutableTensorRef>& Program::masks() const { return impl_->masks; }
const std::vector<MutableTensorRef>& Program::buffers() const { return impl_->buffers; }

Error Program::eval(const float* x, int rows, float* logits_out) {
  Impl& s = *impl_;
  const Signature& sig = s.manifest.signature;
  const size_t batch = static_cast<size_t>(sig.batch_size);
  const size_t sample = sig.inputs[0].numel() / batch;
  const size_t classes = static_cast<size_t>(sig.num_classes);
  if (rows < 0 || (rows > 0 && (x == nullptr || logits_out == nullptr))) {
    return Error(ErrorCode::InvalidArgument, "eval: rows must be >= 0 with x and logits_out given");
  }
  if (s.eval_laid.arena && s.eval_laid.arena->stale()) {  // the training arena moved (or this is the first eval)
    if (s.eval_sparse) {
      s.eval_sparse_dirty = true;
    } else {
      s.eval_laid.arena->lay_out({});
    }
  }
  if (s.eval_sparse && s.eval_sparse_dirty) {
    std::vector<const float*> masks;
    for (const auto& m : s.masks) masks.push_back(m.data);
    s.eval_sparse->rebuild(masks, {});
    s.eval_sparse_dirty = false;
  }
  for (size_t start = 0; start < static_cast<size_t>(rows); start += batch) {
    const size_t n = std::min(batch, static_cast<size_t>(rows) - start);
    std::memcpy(s.eval_x.data(), x + start * sample, n * sample * sizeof(float));
    std::fill(s.eval_x.begin() + n * sample, s.eval_x.end(), 0.0f);
    auto outs = s.eval->execute(kMethod, s.eval_args);
    if (!outs.ok()) return from_et(outs.error(), s.eval_path + ": eval");
    if (outs->empty() || !outs->at(0).isTensor() ||
        static_cast<size_t>(outs->at(0).toTensor().numel()) != batch * classes) {
      return Error(ErrorCode::InvalidProgram, s.eval_path + ": output 0 is not [batch, num_classes] logits");
    }
    std::memcpy(logits_out + start * classes, outs->at(0).toTensor().const_data_ptr<float>(), n * classes * sizeof(float));
  }
  return Error();
}

}  // namespace edgecl
