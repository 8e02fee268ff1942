// The storage tier's recovery rules: torn tail cut, corrupt record skipped, truncate to a
// position, ids stored once, read-only stores untouched; a large append written in order.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "fileio.h"
#include "replay_memory.h"
#include "replay_store.h"
#include "unit.h"

using namespace edgecl;

namespace {

std::string temp_dir() {
  char tmpl[] = "/tmp/edgecl-units-XXXXXX";
  return ::mkdtemp(tmpl);
}

RecordFormat fmt() { return RecordFormat{{3, 5}, 4}; }

/// Sample `id`: x = id * 0.001 + 0..14, label id % 4, logits id + 0..3 (the Python crash test's rule).
void sample(int64_t id, std::vector<float>* x, std::vector<float>* logits) {
  x->resize(15);
  logits->resize(4);
  for (int i = 0; i < 15; ++i) (*x)[i] = static_cast<float>(static_cast<double>(id) * 0.001) + static_cast<float>(i);
  for (int i = 0; i < 4; ++i) (*logits)[i] = static_cast<float>(id + i);
}

Error append_ids(StorageTier* s, const std::vector<int64_t>& ids) {
  std::vector<std::vector<float>> xs(ids.size()), ls(ids.size());
  std::vector<RecordSource> rows;
  for (size_t i = 0; i < ids.size(); ++i) {
    sample(ids[i], &xs[i], &ls[i]);
    rows.push_back({ids[i], ids[i] % 4, xs[i].data(), ls[i].data()});
  }
  auto n = s->append(rows);
  return n.ok() ? s->commit() : n.error();
}

}  // namespace

TEST(replay_store_roundtrip_and_dedupe) {
  const std::string root = temp_dir();
  {
    auto s = StorageTier::open(root, fmt(), 1 << 20, false);
    CHECK_OK(s.error());
    CHECK_OK(append_ids(s->get(), {0, 1, 4, 5, 8}));
    CHECK_OK(append_ids(s->get(), {4, 12}));  // 4 is stored already
    CHECK_EQ((*s)->count(0), 4);
    CHECK_EQ((*s)->count(1), 2);
  }
  auto s = StorageTier::open(root, fmt(), 1 << 20, false);
  CHECK_OK(s.error());
  CHECK(((*s)->labels() == std::vector<int64_t>{0, 1}));
  auto r = (*s)->read(0, 2);
  CHECK_OK(r.error());
  std::vector<float> x, l;
  sample(8, &x, &l);
  CHECK(r->sample_id == 8 && r->x == x && r->logits == l && r->label == 0);
  CHECK(!(*s)->read(1, 2).ok());
  auto other = StorageTier::open(root, RecordFormat{{15}, 4}, 1 << 20, false);
  CHECK(!other.ok());  // store.json says x_shape [3, 5]
  remove_tree(root);
}

TEST(replay_store_writes_a_large_append_in_whole_chunks_in_order) {
  // 96-byte records: 682 fit in a 64 KiB chunk, so class 1's 1500 records take three writes.
  const std::string root = temp_dir();
  std::vector<int64_t> ids;
  for (int64_t k = 0; k < 1600; ++k) ids.push_back(k < 100 ? 4 * k : 4 * k + 1);  // 100 of class 0, then class 1
  auto holds_them_in_order = [&ids](const StorageTier& s) {
    CHECK_EQ(s.count(0), 100);
    CHECK_EQ(s.count(1), 1500);
    std::vector<float> x, l;
    for (int64_t k = 0; k < 1500; ++k) {
      const int64_t id = ids[static_cast<size_t>(100 + k)];
      auto r = s.read(1, k);
      CHECK_OK(r.error());
      sample(id, &x, &l);
      CHECK(r->sample_id == id && r->x == x && r->logits == l);
    }
  };
  {
    auto s = StorageTier::open(root, fmt(), 1 << 20, false);
    CHECK_OK(s.error());
    CHECK_OK(append_ids(s->get(), ids));
    CHECK_EQ((*s)->used_bytes(), 1600 * fmt().record_size());
    holds_them_in_order(**s);  // the index the appends kept
  }
  auto s = StorageTier::open(root, fmt(), 1 << 20, false);
  CHECK_OK(s.error());
  holds_them_in_order(**s);  // the index rebuilt from the files
  remove_tree(root);
}

TEST(replay_store_torn_tail_and_corrupt_record) {
  const std::string root = temp_dir();
  const int64_t size = fmt().record_size();
  {
    auto s = StorageTier::open(root, fmt(), 1 << 20, false);
    CHECK_OK(s.error());
    CHECK_OK(append_ids(s->get(), {0, 4, 8, 12}));
  }
  const std::string file = join_path(root, "class_0.rec");
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(size * 2 + 30);
    f.put('\x7f');  // corrupt record 2 (id 8)
    f.seekp(0, std::ios::end);
    f.write("ECR1partial", 11);  // a torn tail
  }
  auto ro = StorageTier::open(root, fmt(), 1 << 20, true);
  CHECK_OK(ro.error());
  CHECK_EQ((*ro)->count(0), 3);
  ro->reset();
  std::ifstream still(file, std::ios::binary | std::ios::ate);
  CHECK_EQ(static_cast<int64_t>(still.tellg()), 4 * size + 11);  // read-only: nothing cut
  auto s = StorageTier::open(root, fmt(), 1 << 20, false);
  CHECK_OK(s.error());
  CHECK_EQ((*s)->count(0), 3);
  CHECK_EQ((*s)->skipped_corrupt(), 1);
  CHECK(!(*s)->contains(8));
  CHECK_EQ((*s)->position().at(0), 4 * size);  // tail cut
  auto third = (*s)->read(0, 2);
  CHECK_OK(third.error());
  CHECK_EQ(third->sample_id, 12);
  remove_tree(root);
}

TEST(replay_store_truncate_to_position) {
  const std::string root = temp_dir();
  auto s = StorageTier::open(root, fmt(), 1 << 20, false);
  CHECK_OK(s.error());
  CHECK_OK(append_ids(s->get(), {0, 1, 2}));
  const auto pos = (*s)->position();
  CHECK_OK(append_ids(s->get(), {4, 5, 7}));
  CHECK_EQ((*s)->size(), 6);
  CHECK_OK((*s)->truncate_to(pos));
  CHECK_EQ((*s)->size(), 3);
  CHECK_EQ((*s)->count(3), 0);  // class 3 appeared after the position
  CHECK(!(*s)->contains(4));
  CHECK_OK(append_ids(s->get(), {4}));
  CHECK_EQ((*s)->count(0), 2);
  remove_tree(root);
}

TEST(replay_store_budget_and_read_only) {
  const std::string root = temp_dir();
  auto s = StorageTier::open(root, fmt(), fmt().record_size() * 2, false);
  CHECK_OK(s.error());
  CHECK_OK(append_ids(s->get(), {0, 1}));
  const Error full = append_ids(s->get(), {2});
  CHECK(!full.ok() && full.message().find("budget") != std::string::npos);
  auto ro = StorageTier::open(root, fmt(), 1 << 20, true);
  CHECK_OK(ro.error());
  CHECK(!append_ids(ro->get(), {9}).ok());
  remove_tree(root);
}

TEST(swap_worker_reads_in_background) {
  const std::string root = temp_dir();
  auto s = StorageTier::open(root, fmt(), 1 << 20, false);
  CHECK_OK(s.error());
  CHECK_OK(append_ids(s->get(), {0, 4, 8, 1}));
  EpisodicMemory em(15, 4);
  CHECK_OK(load_em(**s, {{0, 0}, {1, 0}}, &em));
  CHECK(em.data.ids == std::vector<int64_t>({0, 1}));
  SwapWorker w(s->get());
  w.submit({{0, {0, 2}}});
  double secs = 0;
  auto n = w.apply(&em, &secs);
  CHECK_OK(n.error());
  CHECK_EQ(*n, 1);
  CHECK(em.data.ids == std::vector<int64_t>({8, 1}));
  CHECK(em.refs[0] == RecordRef(0, 2));
  CHECK_EQ(em.data.logits[0], 8.0f);
  w.submit({{1, {1, 5}}});  // no such record: the error comes back at apply
  CHECK(!w.apply(&em, &secs).ok());
  remove_tree(root);
}
