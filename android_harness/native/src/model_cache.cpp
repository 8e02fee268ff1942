#include "model_cache.h"

#include <sys/stat.h>

#include <climits>
#include <cstdlib>
#include <cstring>

#include "fileio.h"
#include "program_probe.h"

namespace edgecl {
namespace {

std::vector<std::vector<float>> snapshot(const std::vector<MutableTensorRef>& tensors) {
  std::vector<std::vector<float>> out;
  for (const auto& t : tensors) out.emplace_back(t.data, t.data + t.numel);
  return out;
}

void restore(const std::vector<std::vector<float>>& values, const std::vector<MutableTensorRef>& tensors) {
  for (size_t i = 0; i < tensors.size(); ++i) std::memcpy(tensors[i].data, values[i].data(), values[i].size() * sizeof(float));
}

std::string real_path(const std::string& path) {
  char buf[PATH_MAX];
  return ::realpath(path.c_str(), buf) != nullptr ? std::string(buf) : absolute_path(path);
}

}  // namespace

Result<std::unique_ptr<LoadedModel>> LoadedModel::load(const std::string& model_dir) {
  auto program = Program::load(model_dir);
  if (!program.ok()) return program.error();
  EDGECL_RETURN_IF_ERROR(probe_program(*program.get(), model_dir));
  std::unique_ptr<LoadedModel> m(new LoadedModel());
  m->program_ = std::move(program.get());
  m->params_ = snapshot(m->program_->params());
  m->masks_ = snapshot(m->program_->masks());
  m->buffers_ = snapshot(m->program_->buffers());
  return m;
}

void LoadedModel::reset() {
  restore(params_, program_->params());
  restore(masks_, program_->masks());
  program_->masks_changed();
  restore(buffers_, program_->buffers());
}

Result<LoadedModel*> ModelCache::get(const std::string& model_dir) {
  const std::string manifest = join_path(model_dir, "manifest.json");
  struct stat st;
  if (::stat(manifest.c_str(), &st) != 0) return errno_error(manifest, "stat");
  const int64_t mtime = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  const std::string real = real_path(model_dir);
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (it->real_dir == real && it->mtime_ns == mtime && it->size == st.st_size) {
      entries_.splice(entries_.begin(), entries_, it);
      entries_.front().model->reset();
      ++reuses_;
      return entries_.front().model.get();
    }
  }
  auto loaded = LoadedModel::load(model_dir);
  if (!loaded.ok()) return loaded.error();
  ++loads_;
  entries_.push_front({real, mtime, static_cast<int64_t>(st.st_size), std::move(loaded.get())});
  while (entries_.size() > capacity_) entries_.pop_back();
  return entries_.front().model.get();
}

void ModelCache::drop(const std::string& model_dir) {
  const std::string real = real_path(model_dir);
  entries_.remove_if([&](const Entry& e) { return e.real_dir == real; });
}

}  // namespace edgecl
