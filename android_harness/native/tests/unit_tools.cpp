// The helper commands of edgecl-units (see units_main.cpp): each runs one C++ part on inputs the
// pytest side made with the Python counterpart and prints or writes what it computed.
#include "unit_tools.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <iterator>
#include <thread>
#include <type_traits>

#include "checksum.h"
#include "fileio.h"
#include "json_io.h"
#include "npy.h"
#include "optimizer.h"
#include "policies.h"
#include "pool.h"
#include "replay_store.h"
#include "rng.h"
#include "schedule.h"
#include "session_spec.h"
#include "shards.h"

namespace edgecl_tools {

using namespace edgecl;

namespace {

int fail(const Error& e) {
  std::fprintf(stderr, "%s\n", e.message().c_str());
  return 1;
}

using Args = std::vector<std::string>;

int rng_json() {
  OrderedJson out = OrderedJson::array();
  const uint64_t keys[][4] = {{0, 1, 0, 0}, {3, 3, 2, 5}, {(1ull << 63) - 1, 6, 9, 1}, {42, 4, 7, 123456}};
  for (const auto& k : keys) {
    Stream s(k[0], static_cast<Purpose>(k[1]), k[2], k[3]);
    OrderedJson row = OrderedJson::object();
    row["key"] = {k[0], k[1], k[2], k[3]};
    OrderedJson next = OrderedJson::array();
    for (int i = 0; i < 4; ++i) next.push_back(s.next());
    row["next"] = next;
    OrderedJson below = OrderedJson::array();
    for (uint64_t n : {1ull, 2ull, 3ull, 10ull, 1000ull, 1ull << 40, ~0ull}) below.push_back(s.below(n));
    row["below"] = below;
    std::vector<int64_t> a(20);
    for (int i = 0; i < 20; ++i) a[i] = i;
    s.shuffle(a);
    row["shuffle"] = a;
    row["sample"] = s.sample(50, 7);
    out.push_back(row);
  }
  std::cout << to_json_text(out, JsonStyle::kCompact) << "\n";
  return 0;
}

int schedule_json(const Args& a) {
  if (a.size() < 7) return fail(Error(ErrorCode::InvalidArgument, "schedule-json EPOCHS S EVERY SWAP FREEZE N FRACTION STEP..."));
  const int64_t epochs = std::atoll(a[0].c_str()), n = std::atoll(a[5].c_str());
  std::vector<double> steps;
  for (size_t i = 7; i < a.size(); ++i) steps.push_back(std::atof(a[i].c_str()));
  OrderedJson out = OrderedJson::object();
  OrderedJson tdm = OrderedJson::array();
  for (const auto& e : tdm_schedule(epochs, std::atof(a[1].c_str()), std::atof(a[2].c_str()), std::atof(a[3].c_str()),
                                    std::atof(a[4].c_str()))) {
    tdm.push_back({e.epoch, e.kind, e.drop_to, e.grow_to, e.freeze});
  }
  out["tdm"] = tdm;
  OrderedJson ddr = OrderedJson::object();
  for (const auto& [e, k] : ddr_counts(n, ddr_schedule(epochs, steps, std::atof(a[6].c_str())))) ddr[std::to_string(e)] = k;
  out["ddr"] = ddr;
  std::cout << to_json_text(out, JsonStyle::kCompact) << "\n";
  return 0;
}

int shard_read(const Args& a) {
  if (a.size() != 1) return fail(Error(ErrorCode::InvalidArgument, "shard-read PATH"));
  auto s = read_shard(a[0]);
  if (!s.ok()) return fail(s.error());
  OrderedJson out = OrderedJson::object();
  out["count"] = s->count;
  out["shape"] = s->sample_shape;
  out["y"] = s->y;
  out["x_crc"] = crc32(s->x.data(), s->x.size() * sizeof(float));
  std::cout << to_json_text(out, JsonStyle::kCompact) << "\n";
  return 0;
}

int replay_writer(const Args& a) {
  if (a.size() != 3) return fail(Error(ErrorCode::InvalidArgument, "replay-writer ROOT FIRST SEED"));
  auto store = StorageTier::open(a[0], RecordFormat{{3, 5}, 4}, int64_t{1} << 30, false);
  if (!store.ok()) return fail(store.error());
  uint64_t lcg = std::strtoull(a[2].c_str(), nullptr, 10) * 6364136223846793005ull + 1442695040888963407ull;
  auto rnd = [&lcg](uint64_t n) {
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    return (lcg >> 33) % n;
  };
  std::printf("ready\n");
  std::fflush(stdout);
  int64_t next = std::atoll(a[1].c_str());
  while (true) {
    const int64_t count = 1 + static_cast<int64_t>(rnd(8));
    std::vector<int64_t> ids;
    std::vector<float> x, logits;
    for (int64_t id = next; id < next + count; ++id) {
      ids.push_back(id);
      for (int i = 0; i < 15; ++i) x.push_back(static_cast<float>(static_cast<double>(id) * 0.001) + static_cast<float>(i));
      for (int i = 0; i < 4; ++i) logits.push_back(static_cast<float>(id + i));
    }
    std::vector<RecordSource> rows;
    for (int64_t k = 0; k < count; ++k) rows.push_back({next + k, (next + k) % 4, x.data() + 15 * k, logits.data() + 4 * k});
    next += count;
    auto n = (*store)->append(rows);
    if (!n.ok()) return fail(n.error());
    const Error c = (*store)->commit();
    if (!c.ok()) return fail(c);
    std::string line;
    for (int64_t id : ids) line += (line.empty() ? "" : " ") + std::to_string(id);
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
    std::this_thread::sleep_for(std::chrono::microseconds(rnd(2000)));
  }
}

int replay_read(const Args& a) {
  if (a.size() < 3) return fail(Error(ErrorCode::InvalidArgument, "replay-read ROOT N_LOGITS DIM..."));
  RecordFormat fmt;
  fmt.n_logits = std::atoll(a[1].c_str());
  for (size_t i = 2; i < a.size(); ++i) fmt.x_shape.push_back(std::atoll(a[i].c_str()));
  auto store = StorageTier::open(a[0], fmt, int64_t{1} << 40, true);
  if (!store.ok()) return fail(store.error());
  OrderedJson out = OrderedJson::array();
  for (int64_t label : (*store)->labels()) {
    for (int64_t k = 0; k < (*store)->count(label); ++k) {
      auto r = (*store)->read(label, k);
      if (!r.ok()) return fail(r.error());
      uint32_t crc = crc32(r->x.data(), r->x.size() * 4);
      crc = crc32(r->logits.data(), r->logits.size() * 4, crc);
      out.push_back({label, k, r->sample_id, crc});
    }
  }
  std::cout << to_json_text(out, JsonStyle::kCompact) << "\n";
  return 0;
}

int npy_write(const Args& a) {
  if (a.size() != 1) return fail(Error(ErrorCode::InvalidArgument, "npy-write DIR"));
  const float f[6] = {0.5f, -1.0f, 3.25f, 0.0f, -0.0f, 1e-30f};
  const int64_t i[4] = {1, -2, int64_t{1} << 40, 0};
  const uint8_t u[3] = {0, 1, 255};
  const std::vector<std::pair<std::string, NpyArray>> arrays = {
      {"f_2x3", npy_f32({2, 3}, f)}, {"f_6", npy_f32({6}, f)}, {"f_scalar", npy_f32({}, f)},
      {"i_4x1", npy_i64({4, 1}, i)}, {"u_3", npy_u8({3}, u)}, {"f_0", npy_f32({0}, f)},
      {"f_big", npy_f32({1234567, 0}, f)}};
  for (const auto& [name, arr] : arrays) {
    const Error e = write_file_atomic(join_path(a[0], name + ".npy"), npy_file_bytes(arr));
    if (!e.ok()) return fail(e);
  }
  return 0;
}

int json_floats() {
  OrderedJson out = OrderedJson::array();
  uint64_t lcg = 7;
  std::vector<double> values = {0.0, -0.0, 1.0, 0.1, 1e-5, 1e-4, 1e15, -1e15, 1234567890123456.7, 9999999999999998.0, 1e16, 1e17,
                                123456789.125, 5e-324, 1.7976931348623157e308,
                                100.0, 2.5, 0.30000000000000004, 1.0 / 3.0};
  for (int e = -330; e <= 308; ++e) values.push_back(std::pow(10.0, e) * 1.2345678901234567);
  for (int e = -1074; e <= 1023; e += 3) values.push_back(std::ldexp(1.0, e));  // asymmetric rounding intervals
  for (int k = 0; k < 300; ++k) {
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    double d;
    uint64_t bits = lcg;
    std::memcpy(&d, &bits, 8);
    if (std::isfinite(d)) values.push_back(d);
    values.push_back(static_cast<double>(static_cast<float>(static_cast<double>(lcg >> 11) / 9007199254740992.0)));
  }
  for (double v : values) {
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(bits));
    out.push_back({hex, to_json_text(OrderedJson(v), JsonStyle::kCompact), round_digits(v, 6), round_digits(v, 4)});
  }
  std::cout << to_json_text(out, JsonStyle::kCompact) << "\n";
  return 0;
}

int optimizer(const Args& a) {
  if (a.size() != 5) return fail(Error(ErrorCode::InvalidArgument, "optimizer DIR NAME LR MOMENTUM WD"));
  auto p0 = read_npy(join_path(a[0], "p0.npy"));
  auto g = read_npy(join_path(a[0], "grads.npy"));
  if (!p0.ok()) return fail(p0.error());
  if (!g.ok()) return fail(g.error());
  std::vector<float> p, grads;
  Error e = npy_to_f32(*p0, -1, "p0", &p);
  if (e.ok()) e = npy_to_f32(*g, -1, "grads", &grads);
  if (!e.ok()) return fail(e);
  OptimizerSpec spec;
  spec.name = a[1];
  spec.momentum = std::atof(a[3].c_str());
  spec.weight_decay = std::atof(a[4].c_str());
  auto opt = Optimizer::create(spec, {p.size()});
  if (!opt.ok()) return fail(opt.error());
  const double lr = std::atof(a[2].c_str());
  const size_t n = p.size(), k = grads.size() / n;
  for (size_t s = 0; s < k; ++s) {
    std::vector<MutableTensorRef> params = {{"p", p.data(), n, {static_cast<int64_t>(n)}}};
    std::vector<ConstTensorRef> gs = {{"p", grads.data() + s * n, n, {static_cast<int64_t>(n)}}};
    opt->step(params, gs, {nullptr}, lr);
  }
  const Error w = write_file_atomic(join_path(a[0], "p.npy"), npy_file_bytes(npy_f32({static_cast<int64_t>(n)}, p.data())));
  return w.ok() ? 0 : fail(w);
}

Result<std::vector<float>> f32(const std::string& path) {
  auto a = read_npy(path);
  if (!a.ok()) return a.error();
  std::vector<float> v;
  EDGECL_RETURN_IF_ERROR(npy_to_f32(*a, -1, path, &v));
  return v;
}

/// tdm-update DIR SEED TASK EPOCH LAM DROP GROW STRUCTURED: w.npy [R, K], mask.npy, g.npy (optional)
/// -> w_out.npy, mask_out.npy, kept.npy (one layer, the first draws of TDM_GROW(task, epoch)).
int tdm_update(const Args& a) {
  if (a.size() != 8) return fail(Error(ErrorCode::InvalidArgument, "tdm-update DIR SEED TASK EPOCH LAM DROP GROW STRUCTURED"));
  const std::string dir = a[0];
  auto w_arr = read_npy(join_path(dir, "w.npy"));
  if (!w_arr.ok()) return fail(w_arr.error());
  auto w = f32(join_path(dir, "w.npy"));
  auto mask = f32(join_path(dir, "mask.npy"));
  if (!w.ok() || !mask.ok()) return fail(Error(ErrorCode::InvalidArgument, "w.npy and mask.npy needed"));
  std::vector<float> g;
  const bool has_g = is_file(join_path(dir, "g.npy"));
  if (has_g) g = *f32(join_path(dir, "g.npy"));
  Stream grow(std::strtoull(a[1].c_str(), nullptr, 10), Purpose::kTdmGrow, std::strtoull(a[2].c_str(), nullptr, 10),
              std::strtoull(a[3].c_str(), nullptr, 10));
  std::vector<uint8_t> kept;
  const int64_t n = static_cast<int64_t>(w->size());
  tdm_update_layer(w->data(), has_g ? g.data() : nullptr, n, w_arr->shape.at(0), a[7] == "1", std::atof(a[4].c_str()),
                   std::atof(a[5].c_str()), std::atof(a[6].c_str()), grow, &*mask, &kept);
  for (const auto& [name, arr] : {std::pair<const char*, NpyArray>{"w_out", npy_f32(w_arr->shape, w->data())},
                                  {"mask_out", npy_f32(w_arr->shape, mask->data())}, {"kept", npy_u8(w_arr->shape, kept.data())}}) {
    const Error e = write_file_atomic(join_path(dir, std::string(name) + ".npy"), npy_file_bytes(arr));
    if (!e.ok()) return fail(e);
  }
  return 0;
}

/// dgm-mask DIR RATIO: g.npy, mask.npy -> gmask.npy.
int dgm_mask(const Args& a) {
  if (a.size() != 2) return fail(Error(ErrorCode::InvalidArgument, "dgm-mask DIR RATIO"));
  auto g_arr = read_npy(join_path(a[0], "g.npy"));
  auto g = f32(join_path(a[0], "g.npy"));
  auto mask = f32(join_path(a[0], "mask.npy"));
  if (!g_arr.ok() || !g.ok() || !mask.ok()) return fail(Error(ErrorCode::InvalidArgument, "g.npy and mask.npy needed"));
  std::vector<uint8_t> bytes;
  DgmScratch scratch;
  dgm_layer_mask(g->data(), mask->data(), static_cast<int64_t>(mask->size()), std::atof(a[1].c_str()), &bytes, &scratch);
  const std::vector<float> out(bytes.begin(), bytes.end());
  const Error e = write_file_atomic(join_path(a[0], "gmask.npy"), npy_file_bytes(npy_f32(g_arr->shape, out.data())));
  return e.ok() ? 0 : fail(e);
}

/// em-refs SEED TASK EM_SIZE LABEL:COUNT...: the EM's (class, k) references (section 5.3).
int em_refs(const Args& a) {
  if (a.size() < 3) return fail(Error(ErrorCode::InvalidArgument, "em-refs SEED TASK EM_SIZE LABEL:COUNT..."));
  std::map<int64_t, int64_t> records;
  for (size_t i = 3; i < a.size(); ++i) {
    const auto colon = a[i].find(':');
    records[std::atoll(a[i].substr(0, colon).c_str())] = std::atoll(a[i].substr(colon + 1).c_str());
  }
  OrderedJson out = OrderedJson::array();
  for (const auto& [c, k] : build_em_refs(std::strtoull(a[0].c_str(), nullptr, 10), std::atoll(a[1].c_str()), records,
                                          std::atoll(a[2].c_str()))) {
    out.push_back({c, k});
  }
  std::cout << to_json_text(out, JsonStyle::kCompact) << "\n";
  return 0;
}

/// spec-check: one session.json text a line on stdin; prints "ok" or the runner's refusal for each.
int spec_check() {
  std::string line;
  while (std::getline(std::cin, line)) {
    auto spec = parse_session_spec(line, "session.json");
    std::cout << (spec.ok() ? std::string("ok") : spec.error().message()) << "\n";
  }
  return 0;
}

template <typename T>
OrderedJson spec_value(const T& v) {
  if constexpr (std::is_enum_v<T>) {
    return name_of(v);
  } else {
    return v;
  }
}

/// spec-resolved: one session.json text on stdin; prints every field as the runner resolved it.
int spec_resolved() {
  std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  auto spec = parse_session_spec(text, "session.json");
  if (!spec.ok()) return fail(spec.error());
  OrderedJson out = OrderedJson::object();
#define EDGECL_SPEC_DUMP(type, name, default_value, required, doc) table[#name] = spec_value(obj.name);
  {
    OrderedJson& table = out;
    const SessionSpec& obj = *spec;
    EDGECL_SPEC_SESSION(EDGECL_SPEC_DUMP)
  }
  {
    OrderedJson table = OrderedJson::object();
    const TrainConfig& obj = spec->train;
    EDGECL_SPEC_TRAIN(EDGECL_SPEC_DUMP)
    out["train"] = table;
  }
  {
    OrderedJson table = OrderedJson::object();
    const ReplayConfig& obj = spec->replay;
    EDGECL_SPEC_REPLAY(EDGECL_SPEC_DUMP)
    out["replay"] = table;
  }
  {
    OrderedJson table = OrderedJson::object();
    const SparclConfig& obj = spec->sparcl;
    EDGECL_SPEC_SPARCL(EDGECL_SPEC_DUMP)
    out["sparcl"] = table;
  }
#undef EDGECL_SPEC_DUMP
  std::cout << to_json_text(out, JsonStyle::kCompact) << "\n";
  return 0;
}

}  // namespace

int run_tool(const std::string& cmd, const Args& rest) {
  if (cmd == "rng-json") return rng_json();
  if (cmd == "schedule-json") return schedule_json(rest);
  if (cmd == "shard-read") return shard_read(rest);
  if (cmd == "replay-writer") return replay_writer(rest);
  if (cmd == "replay-read") return replay_read(rest);
  if (cmd == "npy-write") return npy_write(rest);
  if (cmd == "json-floats") return json_floats();
  if (cmd == "optimizer") return optimizer(rest);
  if (cmd == "tdm-update") return tdm_update(rest);
  if (cmd == "dgm-mask") return dgm_mask(rest);
  if (cmd == "em-refs") return em_refs(rest);
  if (cmd == "spec-check") return spec_check();
  if (cmd == "spec-resolved") return spec_resolved();
  return -1;
}

}  // namespace edgecl_tools
