// File formats: session.json validation, .npy bytes, checkpoints, events recovery, JSON output.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "checkpoint.h"
#include "events.h"
#include "fileio.h"
#include "json_io.h"
#include "npy.h"
#include "session_spec.h"
#include "sha256.h"
#include "unit.h"

using namespace edgecl;

namespace {

std::string temp_dir() {
  char tmpl[] = "/tmp/edgecl-units-XXXXXX";
  return ::mkdtemp(tmpl);
}

const char* kSpec = R"({"session_id": "s1", "model_dir": "models/m", "data_dir": "data/d", "replay_dir": "replay/r",
  "tasks": [0, 1], "seed": 3, "trace": true, "train": {"method": "er", "epochs": 4, "batch_size": 16},
  "sparcl": {"tdm": true, "ddr_steps": [0.25, 0.5], "ddr_select": "random", "ddr_store_removed": true}})";

}  // namespace

TEST(session_spec_reads_every_table) {
  auto s = parse_session_spec(kSpec, "session.json");
  CHECK_OK(s.error());
  CHECK(s->session_id == "s1" && s->tasks == std::vector<int64_t>({0, 1}) && s->seed == 3 && s->trace);
  CHECK(s->train.method == Method::kEr && s->train.epochs == 4 && s->train.batch_size == 16 && s->train.lr == 0.03);
  CHECK(s->sparcl.tdm && s->sparcl.ddr_steps == std::vector<double>({0.25, 0.5}) && s->sparcl.dgm);
  CHECK(s->sparcl.ddr_store_removed && s->sparcl.ddr_select == DdrSelect::kRandom);
  CHECK(!s->sparcl.enabled && !s->sparcl.tdm_on() && !s->sparcl.dgm_on());
  CHECK(s->replay.em_size == 200 && s->keep_checkpoints == 2);
}

TEST(session_spec_names_every_bad_key) {
  std::string bad = kSpec;
  bad.replace(bad.find("\"epochs\": 4"), 11, "\"epochs\": 0, \"buffer_batch_size\": 8");
  bad.replace(bad.find("\"seed\": 3"), 9, "\"seed\": \"x\"");
  auto s = parse_session_spec(bad, "sessions/s1/session.json");
  CHECK(!s.ok());
  const std::string m = s.error().message();
  CHECK(m.find("sessions/s1/session.json") == 0);
  CHECK(m.find("train.buffer_batch_size: unknown key") != std::string::npos);
  CHECK(m.find("seed: expected an integer") != std::string::npos);
  auto v = parse_session_spec(std::string(kSpec).replace(std::string(kSpec).find("\"er\""), 4, "\"ewc\""), "x");
  CHECK(!v.ok() && v.error().message().find("train.method") != std::string::npos);
  auto missing = parse_session_spec(R"({"model_dir": "m"})", "x");
  CHECK(!missing.ok() && missing.error().message().find("session_id: required key is missing") != std::string::npos);
}

TEST(npy_bytes_match_numpy_layout) {
  const float v[3] = {1.0f, 2.0f, 3.0f};
  const std::string bytes = npy_file_bytes(npy_f32({3}, v));
  CHECK_EQ(bytes.size(), 128u + 12u);  // numpy 2 pads the header to 128 bytes here
  CHECK(bytes.compare(0, 6, "\x93NUMPY") == 0);
  CHECK(bytes.find("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }") == 10);
  CHECK_EQ(bytes[127], '\n');
  NpyArray back;
  CHECK_OK(parse_npy("x", reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), &back));
  std::vector<float> out;
  CHECK_OK(npy_to_f32(back, 3, "x", &out));
  CHECK(out == std::vector<float>({1.0f, 2.0f, 3.0f}));
  CHECK(!npy_to_i64(back, 3, "x", nullptr).ok());
}

TEST(checkpoint_roundtrip_and_keep) {
  const std::string dir = temp_dir();
  CheckpointState s;
  s.task = 1;
  s.task_finished = false;
  s.iteration = 7;
  s.epoch_loss_sum = 0.1 + 0.2;
  s.storage_position = {{3, 120}, {10, 40}};
  s.evals.push_back(OrderedJson::object({{"after_task", 0}}));
  const int64_t refs[4] = {3, 0, 10, 1};
  ArrayMap arrays;
  arrays["em_refs"] = npy_i64({2, 2}, refs);
  for (int64_t it : {7, 9, 12}) {
    s.iteration = it;
    auto p = write_checkpoint(dir, s, arrays, 2);
    CHECK_OK(p.error());
  }
  CHECK(list_checkpoints(dir) == std::vector<std::string>({"ckpt-000000009", "ckpt-000000012"}));
  CHECK_OK(make_dirs(join_path(dir, ".ckpt-000000015.tmp/arrays")));  // a kill mid-write
  CHECK_EQ(latest_checkpoint(dir), join_path(dir, "ckpt-000000012"));
  auto back = read_checkpoint_state(latest_checkpoint(dir));
  CHECK_OK(back.error());
  CHECK(back->task == 1 && !back->task_finished && back->iteration == 12 && back->epoch_loss_sum == 0.1 + 0.2);
  CHECK(back->storage_position == s.storage_position && back->evals == s.evals);
  auto a = read_checkpoint_arrays(latest_checkpoint(dir));
  CHECK_OK(a.error());
  std::vector<int64_t> r;
  CHECK_OK(npy_to_i64(a->at("em_refs"), 4, "em_refs", &r));
  CHECK(r == std::vector<int64_t>({3, 0, 10, 1}));
  remove_tree(dir);
}

TEST(events_continue_sequence_after_torn_line) {
  const std::string dir = temp_dir();
  const std::string path = join_path(dir, "events.jsonl");
  {
    auto log = EventLog::open(path);
    CHECK_OK(log.error());
    CHECK_OK((*log)->emit("session_start", OrderedJson::object({{"pid", 1}})));
    CHECK_OK((*log)->emit("step", OrderedJson::object({{"loss", 0.5}})));
  }
  {
    std::ofstream f(path, std::ios::app);
    f << "{\"seq\": 2, \"t\": 1.0, \"ty";  // killed mid-write
  }
  auto log = EventLog::open(path);
  CHECK_OK(log.error());
  CHECK_EQ((*log)->next_seq(), 2);
  CHECK((*log)->last_type() == "step");  // the last complete line's (the server's write_end reads it)
  CHECK_OK((*log)->emit("session_end", OrderedJson::object({{"status", "ok"}})));
  CHECK((*log)->last_type() == "session_end");
  log->reset();
  auto text = read_file(path);
  CHECK_OK(text.error());
  CHECK(text->find("\"seq\":2,\"t\":") != std::string::npos && text->find("\"ty\n") == std::string::npos);
  CHECK(text->find("{\"seq\":1,\"t\":") != std::string::npos && text->find("\"type\":\"step\",\"loss\":0.5}") != std::string::npos);
  remove_tree(dir);
}

TEST(files_read_in_chunks_whole_and_digested) {
  const std::string dir = temp_dir();
  const std::string path = join_path(dir, "blob");
  std::string data;
  for (int i = 0; i < 200000; ++i) data.push_back(static_cast<char>('a' + i % 26));  // 3 chunks of <= 64 KiB
  CHECK_OK(write_file_atomic(path, data));
  std::string joined;
  size_t chunks = 0;
  CHECK_OK(read_chunks(path, [&](const char* p, size_t n) {
    joined.append(p, n);
    ++chunks;
  }));
  CHECK(joined == data && chunks >= 4);
  auto whole = read_file(path);
  CHECK_OK(whole.error());
  CHECK(*whole == data);
  CHECK_OK(write_file_atomic(path, "abc"));
  auto digest = sha256_file(path);  // FIPS 180-4 example
  CHECK_OK(digest.error());
  CHECK_EQ(digest->sha256, std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
  CHECK_EQ(digest->size, 3);
  CHECK(!sha256_file(join_path(dir, "missing")).ok() && !read_file(join_path(dir, "missing")).ok());
  remove_tree(dir);
}

TEST(json_text_like_python) {
  OrderedJson v = OrderedJson::object();
  v["b"] = 1;
  v["a"] = OrderedJson::array({1.5, 1e-05, 100.0, nullptr, true});
  v["e"] = OrderedJson::object();
  CHECK_EQ(to_json_text(v, JsonStyle::kCompact), std::string("{\"b\":1,\"a\":[1.5,1e-05,100.0,null,true],\"e\":{}}"));
  CHECK_EQ(to_json_text(v, JsonStyle::kPython), std::string("{\"b\": 1, \"a\": [1.5, 1e-05, 100.0, null, true], \"e\": {}}"));
  CHECK_EQ(to_json_text(OrderedJson::object({{"k", OrderedJson::array({1})}}), JsonStyle::kIndent1),
           std::string("{\n \"k\": [\n  1\n ]\n}"));
  CHECK_EQ(round_digits(0.1234565, 6), 0.123456);  // the double is just below ...565
  CHECK_EQ(round_digits(2.5e-7, 6), 0.0);
}
