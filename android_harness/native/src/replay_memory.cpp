#include "replay_memory.h"

#include <chrono>
#include <cstring>

namespace edgecl {

void SampleRows::resize(int64_t n) {
  x.resize(static_cast<size_t>(n * numel));
  logits.resize(static_cast<size_t>(n * n_logits));
  y.resize(static_cast<size_t>(n));
  ids.resize(static_cast<size_t>(n));
}

void EpisodicMemory::set_slot(int64_t s, const RecordRef& ref, const StoredSample& sample) {
  refs[s] = ref;
  std::memcpy(data.x_row(s), sample.x.data(), sizeof(float) * static_cast<size_t>(data.numel));
  if (data.n_logits > 0) {
    std::memcpy(data.logits_row(s), sample.logits.data(), sizeof(float) * static_cast<size_t>(data.n_logits));
  }
  data.y[s] = sample.label;
  data.ids[s] = sample.sample_id;
}

Error load_em(const StorageTier& storage, const std::vector<RecordRef>& refs, EpisodicMemory* em) {
  em->refs.assign(refs.size(), RecordRef{0, 0});
  em->data.resize(static_cast<int64_t>(refs.size()));
  for (size_t s = 0; s < refs.size(); ++s) {
    auto sample = storage.read(refs[s].first, refs[s].second);
    if (!sample.ok()) return sample.error();
    em->set_slot(static_cast<int64_t>(s), refs[s], *sample);
  }
  return Error();
}

SwapWorker::SwapWorker(const StorageTier* storage) : storage_(storage) {}

SwapWorker::~SwapWorker() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void SwapWorker::submit(std::vector<SwapChange> plan) {
  if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  {
    std::lock_guard<std::mutex> lock(mu_);
    plan_ = std::move(plan);
    has_job_ = true;
    done_ = false;
  }
  pending_ = true;
  cv_.notify_one();
}

void SwapWorker::read_plan(const std::vector<SwapChange>& plan, std::vector<StoredSample>* out, Error* err,
                           double* secs) const {
  const auto t0 = std::chrono::steady_clock::now();
  out->clear();
  for (const auto& change : plan) {
    auto sample = storage_->read(change.ref.first, change.ref.second);
    if (!sample.ok()) {
      *err = sample.error();
      break;
    }
    out->push_back(std::move(*sample));
  }
  *secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void SwapWorker::run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    cv_.wait(lock, [this] { return stop_ || has_job_; });
    if (stop_) return;
    has_job_ = false;
    const std::vector<SwapChange> plan = plan_;
    lock.unlock();
    std::vector<StoredSample> read;
    Error err;
    double secs = 0.0;
    read_plan(plan, &read, &err, &secs);
    lock.lock();
    read_ = std::move(read);
    error_ = err;
    seconds_ = secs;
    done_ = true;
    cv_.notify_all();
  }
}

Result<int64_t> SwapWorker::apply(EpisodicMemory* em, double* seconds) {
  if (!pending_) return int64_t{0};
  std::unique_lock<std::mutex> lock(mu_);
  if (has_job_) {  // the thread has not started it: read it here instead of waiting for the scheduler
    has_job_ = false;
    lock.unlock();
    error_ = Error();
    read_plan(plan_, &read_, &error_, &seconds_);
    lock.lock();
    done_ = true;
  }
  cv_.wait(lock, [this] { return done_; });
  pending_ = false;
  done_ = false;
  if (!error_.ok()) return error_;
  for (size_t i = 0; i < plan_.size(); ++i) em->set_slot(plan_[i].slot, plan_[i].ref, read_[i]);
  if (seconds != nullptr) *seconds += seconds_;
  return static_cast<int64_t>(plan_.size());
}

}  // namespace edgecl
