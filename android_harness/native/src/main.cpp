/*
 * edgecl-runner's command line:
 *   run SESSION_DIR                        one session (docs/contracts.md); exit 0 ok, 3 cancelled, 1 error
 *   serve QUEUE_DIR [IDLE_S]               the persistent runner of one storage root (server.h)
 *   check                                  JSON: version, ABI, build flags, the registered operators
 *   ops                                    the registered operators, one per line
 *   bench-step MODEL_DIR [--steps N] [--warmup W] [--sparse on|off] [--mask-sparsity S [--structured]]
 *                                          JSON timings of forward_backward + optimizer steps; with
 *                                          --sparse, the masked layers' products (per layer, per product)
 *   steps MODEL_DIR INPUTS.bin OUT_DIR [--lr LR] [--sparse on|off]
 *                                          train on recorded inputs; write losses, params, logits
 *   check-program MODEL_DIR...             load each export as a session would; one line each
 *   --help | --version
 * Errors: one line on stderr, exit code 1 (2 for a usage error: a bad command, option or folder).
 */
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <executorch/runtime/kernel/operator_registry.h>
#include <executorch/runtime/platform/runtime.h>
#include <nlohmann/json.hpp>

#include "edgecl_build_info.h"
#include "fileio.h"
#include "optimizer.h"
#include "program.h"
#include "sparse_report.h"
#include "program_probe.h"
#include "server.h"

namespace {

using edgecl::DType;
using edgecl::Error;
using edgecl::ErrorCode;
using edgecl::InputTensor;
using edgecl::Program;
using Clock = std::chrono::steady_clock;

int fail(const Error& err) {
  std::fprintf(stderr, "edgecl-runner: %s\n", err.message().c_str());
  return 1;
}

constexpr const char* kUsage =
    "usage: edgecl-runner run SESSION_DIR | serve QUEUE_DIR [IDLE_S] | check | ops | check-program MODEL_DIR... | "
    "bench-step MODEL_DIR [--steps N] [--warmup W] [--sparse on|off] [--mask-sparsity S [--structured]] | "
    "steps MODEL_DIR INPUTS.bin OUT_DIR [--lr LR] [--sparse on|off] | --help | --version";

int usage(const std::string& why) {
  std::fprintf(stderr, "edgecl-runner: %s (edgecl-runner --help)\n", why.c_str());
  return 2;
}

int cmd_help() {
  std::printf("%s\n"
              "  run SESSION_DIR         one session (its session.json); exit 0 ok, 3 cancelled, 1 error\n"
              "  serve QUEUE_DIR [IDLE_S] the persistent runner of <storage_root>/runner/queue (an existing folder)\n"
              "  check                   JSON: version, ABI, build flags, the registered operators\n"
              "  ops                     the registered operators, one a line\n"
              "  check-program MODEL_DIR...  load each export as a session would (manifest, hashes, verified\n"
              "                          programs, signature, a trial step); one line each; exit 1 if any fails\n"
              "  bench-step MODEL_DIR [--steps N] [--warmup W]   JSON timings of training steps\n"
              "  steps MODEL_DIR INPUTS.bin OUT_DIR [--lr LR]    train on recorded inputs\n"
              "Errors: one line on stderr; exit 2 for a usage error.\n", kUsage);
  return 0;
}

/// Each export loaded as a session loads it (its manifest's hashes, both programs verified whole,
/// the signature, a trial step in a child process): one line each, `<dir>: ok` or `<dir>: <error>`; many in one process, so a fuzz
/// of malformed programs costs one process start.
int cmd_check_program(const std::vector<std::string>& dirs) {
  if (dirs.empty()) return usage("check-program takes one or more MODEL_DIR");
  int rc = 0;
  for (const auto& dir : dirs) {
    auto program = Program::load(dir);
    const Error err = program.ok() ? edgecl::probe_program(*program.get(), dir) : program.error();
    if (err.ok()) {
      std::printf("%s: ok\n", dir.c_str());
    } else {
      std::printf("%s: %s\n", dir.c_str(), err.message().c_str());
      rc = 1;
    }
    std::fflush(stdout);
  }
  return rc;
}

std::vector<std::string> registered_operators() {
  std::vector<std::string> names;
  for (const auto& kernel : executorch::runtime::get_registered_kernels()) {
    names.emplace_back(kernel.name_);
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

/// Value of `--name V` in args (removed from args), or `fallback`.
std::string take_option(std::vector<std::string>* args, const std::string& name, const std::string& fallback) {
  for (size_t i = 0; i + 1 < args->size(); ++i) {
    if ((*args)[i] == name) {
      std::string v = (*args)[i + 1];
      args->erase(args->begin() + i, args->begin() + i + 2);
      return v;
    }
  }
  return fallback;
}

bool parse_int(const std::string& s, long* out) {
  char* end = nullptr;
  *out = std::strtol(s.c_str(), &end, 10);
  return !s.empty() && *end == '\0';
}

int cmd_check() {
  const auto ops = registered_operators();
  nlohmann::json out = {
      {"runner", "edgecl-runner"}, {"version", EDGECL_RUNNER_VERSION}, {"abi", EDGECL_ABI},
      {"source_hash", EDGECL_SOURCE_HASH}, {"compiler", EDGECL_COMPILER}, {"cxxflags", EDGECL_CXXFLAGS},
      {"operator_count", ops.size()}, {"operators", ops},
  };
  std::cout << out.dump() << "\n";
  return 0;
}

int cmd_ops() {
  for (const auto& name : registered_operators()) std::cout << name << "\n";
  return 0;
}

/// Fixed inputs (x from a 32-bit LCG in [-1, 1), labels b % C, plain cross-entropy), the masks the
/// program holds: the same work every run, so timings of one build and model compare.
struct FixedBatch {
  std::vector<float> x, logit_mask, ce_weight, target, mse_weight;
  std::vector<int64_t> y;

  explicit FixedBatch(const edgecl::Signature& sig) {
    const size_t b = sig.batch_size, c = sig.num_classes;
    x.resize(sig.inputs[0].numel());
    uint32_t state = 12345u;
    for (float& v : x) {
      state = state * 1664525u + 1013904223u;
      v = static_cast<float>(state >> 8) / 8388608.0f - 1.0f;
    }
    y.resize(b);
    for (size_t i = 0; i < b; ++i) y[i] = static_cast<int64_t>(i % c);
    logit_mask.assign(b * c, 1.0f);
    ce_weight.assign(b, 1.0f / static_cast<float>(b));
    target.assign(b * c, 0.0f);
    mse_weight.assign(b, 0.0f);
  }

  std::vector<InputTensor> inputs(const Program& program) const {
    std::vector<InputTensor> in = {
        {x.data(), DType::Float32, x.size()}, {y.data(), DType::Int64, y.size()},
        {logit_mask.data(), DType::Float32, logit_mask.size()}, {ce_weight.data(), DType::Float32, ce_weight.size()},
        {target.data(), DType::Float32, target.size()}, {mse_weight.data(), DType::Float32, mse_weight.size()},
    };
    for (const auto& m : program.masks()) in.push_back({m.data, DType::Float32, m.numel});
    return in;
  }
};

/// The manifest's optimizer (the session runner's, one implementation) for the program's parameters.
edgecl::Result<edgecl::Optimizer> program_optimizer(const Program& p) {
  std::vector<size_t> sizes;
  for (const auto& t : p.params()) sizes.push_back(t.numel);
  return edgecl::Optimizer::create(p.manifest().optimizer, sizes);
}

/// `--sparse on|off` (removed from args): -1 absent, 1 on, 0 off, -2 bad value.
int take_sparse(std::vector<std::string>* args) {
  const std::string v = take_option(args, "--sparse", "");
  return v.empty() ? -1 : v == "on" ? 1 : v == "off" ? 0 : -2;
}

/// Replace the program's masks by masks of sparsity `s` (a fixed LCG draw): unstructured, the
/// round(s * n) zeros at random entries; structured, at random output channels (dim 0).
void set_masks(Program& p, double s, bool structured) {
  uint64_t state = 0x5eed;
  auto below = [&](uint64_t n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % n;
  };
  for (const auto& m : p.masks()) {
    const size_t units = structured ? static_cast<size_t>(m.shape[0]) : m.numel;
    const size_t per = m.numel / units;
    std::vector<size_t> order(units);
    for (size_t i = 0; i < units; ++i) order[i] = i;
    for (size_t i = units; i > 1; --i) std::swap(order[i - 1], order[below(i)]);
    const size_t zeros = std::min(units - 1, static_cast<size_t>(std::nearbyint(s * static_cast<double>(units))));
    std::fill(m.data, m.data + m.numel, 1.0f);
    for (size_t i = 0; i < zeros; ++i) std::fill(m.data + order[i] * per, m.data + (order[i] + 1) * per, 0.0f);
  }
  p.masks_changed();
}

/// The training arena's sizes (MB): the export's plan, the runner's layout of it, and why the plan is kept.
edgecl::OrderedJson arena_json(const Program::ArenaReport& a) {
  return {{"planned_mb", a.planned_bytes / 1048576.0}, {"laid_out_mb", a.bytes / 1048576.0},
          {"kept_because", a.kept_because}};
}

int cmd_bench_step(std::vector<std::string> args) {
  long steps = 0, warmup = 0;
  if (!parse_int(take_option(&args, "--steps", "50"), &steps) || steps < 1 ||
      !parse_int(take_option(&args, "--warmup", "5"), &warmup) || warmup < 0) {
    return usage("bench-step: --steps must be >= 1 and --warmup >= 0");
  }
  const int sparse = take_sparse(&args);
  const std::string sparsity_arg = take_option(&args, "--mask-sparsity", "");
  const auto structured_at = std::find(args.begin(), args.end(), "--structured");
  const bool structured = structured_at != args.end();
  if (structured) args.erase(structured_at);
  char* end = nullptr;
  const double sparsity = sparsity_arg.empty() ? -1.0 : std::strtod(sparsity_arg.c_str(), &end);
  if (sparse == -2) return usage("bench-step: --sparse takes on or off");
  if (!sparsity_arg.empty() && (*end != '\0' || sparsity < 0.0 || sparsity >= 1.0)) {
    return usage("bench-step: --mask-sparsity takes a number in [0, 1)");
  }
  if (args.size() != 1) return usage("bench-step takes one MODEL_DIR");
  const auto t_load = Clock::now();
  auto program = Program::load(args[0]);
  if (!program.ok()) return fail(program.error());
  const double load_ms = ms_since(t_load);
  Program& p = *program.get();
  if (sparsity >= 0.0) set_masks(p, sparsity, structured);
  if (sparse >= 0) {
    Error err = p.set_sparse(sparse == 1);
    if (!err.ok()) return fail(err);
  }
  const FixedBatch batch(p.signature());
  const auto inputs = batch.inputs(p);
  auto opt = program_optimizer(p);
  if (!opt.ok()) return fail(opt.error());
  const double lr = p.manifest().optimizer.lr;
  std::vector<double> step_ms, fb_ms;
  for (long i = 0; i < warmup + steps; ++i) {
    const auto t0 = Clock::now();
    Error err = p.forward_backward(inputs);
    if (!err.ok()) return fail(err);
    const double fb = ms_since(t0);
    opt->step(p.params(), p.grads(), {}, lr);
    if (i + 1 == warmup) p.reset_sparse_stats(true);
    if (i >= warmup) {
      fb_ms.push_back(fb);
      step_ms.push_back(ms_since(t0));
    }
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
  };
  double total = 0;
  for (double v : step_ms) total += v;
  edgecl::OrderedJson out = {
      {"model_dir", args[0]}, {"abi", EDGECL_ABI}, {"steps", steps}, {"warmup", warmup}, {"load_ms", load_ms},
      {"step_ms_median", median(step_ms)}, {"step_ms_mean", total / steps},
      {"step_ms_min", *std::min_element(step_ms.begin(), step_ms.end())},
      {"forward_backward_ms_median", median(fb_ms)}, {"final_loss", p.loss()},
  };
  out["arena"] = arena_json(p.arena_report());
  if (sparse >= 0) out["sparse"] = {{"enabled", sparse == 1}, {"layers", edgecl::sparse_layers_json(p.sparse_report())}};
  std::cout << out.dump() << "\n";
  return 0;
}

Error write_file(const std::string& path, const void* data, size_t n) {
  const std::string tmp = path + ".tmp";
  std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
  f.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
  f.close();
  if (!f || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return Error(ErrorCode::AccessFailed, path + ": cannot write");
  }
  return Error();
}

/// INPUTS.bin: K steps, each the signature's training inputs in order as raw little-endian bytes.
/// Writes OUT_DIR/losses.f32 (K floats), params.f32 (final params, signature order, concatenated)
/// and logits.f32 (eval logits of the first step's x after training).
int cmd_steps(std::vector<std::string> args) {
  const std::string lr_arg = take_option(&args, "--lr", "");
  const int sparse = take_sparse(&args);
  if (sparse == -2) return usage("steps: --sparse takes on or off");
  if (args.size() != 3) return usage("steps takes MODEL_DIR INPUTS.bin OUT_DIR");
  auto program = Program::load(args[0]);
  if (!program.ok()) return fail(program.error());
  Program& p = *program.get();
  if (sparse >= 0) {
    Error err = p.set_sparse(sparse == 1);
    if (!err.ok()) return fail(err);
  }
  const auto& specs = p.signature().inputs;
  auto opt = program_optimizer(p);
  if (!opt.ok()) return fail(opt.error());
  const double lr = lr_arg.empty() ? p.manifest().optimizer.lr : std::strtod(lr_arg.c_str(), nullptr);
  std::ifstream in(args[1], std::ios::binary);
  if (!in) return fail(Error(ErrorCode::NotFound, args[1] + ": cannot open"));
  const std::vector<char> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t step_bytes = 0;
  for (const auto& s : specs) step_bytes += s.nbytes();
  if (data.empty() || data.size() % step_bytes != 0) {
    return fail(Error(ErrorCode::InvalidArgument, args[1] + ": " + std::to_string(data.size()) +
                      " bytes, not a whole number of steps of " + std::to_string(step_bytes) + " bytes"));
  }
  const size_t k = data.size() / step_bytes;
  std::vector<float> losses;
  for (size_t step = 0; step < k; ++step) {
    std::vector<InputTensor> inputs;
    const char* at = data.data() + step * step_bytes;
    for (const auto& s : specs) {
      inputs.push_back({at, s.dtype, s.numel()});
      at += s.nbytes();
    }
    Error err = p.forward_backward(inputs);
    if (!err.ok()) return fail(err.with_context("step " + std::to_string(step)));
    losses.push_back(p.loss());
    opt->step(p.params(), p.grads(), {}, lr);
  }
  std::vector<float> params;
  for (const auto& t : p.params()) params.insert(params.end(), t.data, t.data + t.numel);
  const int rows = static_cast<int>(p.signature().batch_size);
  std::vector<float> logits(static_cast<size_t>(rows) * p.signature().num_classes);
  std::vector<float> x0(specs[0].numel());
  std::memcpy(x0.data(), data.data(), specs[0].nbytes());
  Error err = p.eval(x0.data(), rows, logits.data());
  if (!err.ok()) return fail(err);
  const std::string out = args[2];
  for (const auto& [name, vec] : {std::pair<const char*, const std::vector<float>*>{"losses.f32", &losses},
                                  {"params.f32", &params}, {"logits.f32", &logits}}) {
    Error w = write_file(out + "/" + name, vec->data(), vec->size() * sizeof(float));
    if (!w.ok()) return fail(w);
  }
  edgecl::OrderedJson done = {{"steps", k}, {"final_loss", losses.back()}, {"arena", arena_json(p.arena_report())}};
  if (sparse >= 0) {
    done["sparse"] = {{"enabled", sparse == 1}, {"layers", edgecl::sparse_layers_json(p.sparse_report())},
                      {"eval_layers", edgecl::sparse_layers_json(p.eval_sparse_report())}};
  }
  std::cout << done.dump() << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // A buffer of 128 KiB or more is mapped on its own and returned to the system when freed. glibc's
  // default raises that threshold to the size of the first large buffer freed, after which freed
  // shards, arenas and file copies stay resident in the heap for the rest of the process.
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  mallopt(M_TRIM_THRESHOLD, 128 * 1024);
  executorch::runtime::runtime_init();
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return usage("no command");
  const std::string cmd = args[0];
  args.erase(args.begin());
  if (cmd == "--help" || cmd == "-h" || cmd == "help") return cmd_help();
  if (cmd == "--version") {
    std::printf("edgecl-runner %s (%s, source %s)\n", EDGECL_RUNNER_VERSION, EDGECL_ABI, EDGECL_SOURCE_HASH);
    return 0;
  }
  if (cmd == "run") {
    if (args.size() != 1) return usage("run takes one SESSION_DIR");
    if (!edgecl::is_file(edgecl::join_path(args[0], "session.json"))) {
      return usage("run: '" + args[0] + "' is not a session folder (no session.json in it)");
    }
    return edgecl::run_one(args[0]);
  }
  if (cmd == "serve") {
    char* end = nullptr;
    const double idle = args.size() == 2 ? std::strtod(args[1].c_str(), &end) : edgecl::kIdleExitSeconds;
    if (args.empty() || args.size() > 2 || (args.size() == 2 && (*end != '\0' || idle < 0))) {
      return usage("serve takes QUEUE_DIR and an optional IDLE_S >= 0");
    }
    std::string queue = args[0];
    while (queue.size() > 1 && queue.back() == '/') queue.pop_back();
    const std::string runner = edgecl::dir_name(edgecl::absolute_path(queue));
    // the lock and the heartbeat go beside the queue: never into a folder that is not a storage root's runner/
    if (!edgecl::is_dir(queue) || edgecl::base_name(queue) != "queue" || edgecl::base_name(runner) != "runner") {
      return usage("serve: '" + args[0] + "' is not an existing <storage_root>/runner/queue folder (the host creates it)");
    }
    char self[4096];
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    return edgecl::serve(queue, idle, n > 0 ? std::string(self, static_cast<size_t>(n)) : std::string(argv[0]));
  }
  if (cmd == "check") return cmd_check();
  if (cmd == "ops") return cmd_ops();
  if (cmd == "bench-step") return cmd_bench_step(args);
  if (cmd == "steps") return cmd_steps(args);
  if (cmd == "check-program") return cmd_check_program(args);
  return usage("unknown command '" + cmd + "'");
}
