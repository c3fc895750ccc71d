// golden_test.cpp: golden signatures. The layer files of a few small databases must hash to the
// recorded SHA-256 values and a few fixed searches must visit the recorded number of nodes: a
// change that alters either without meaning to is caught here (docs/design.md §8). The databases
// are built in every layer format: format 1's hashes are those recorded before format 2 came, so
// the values are still the very bytes they were; formats 2 and 3 have their own hashes and must
// decode to format 1's values.
// tests/data/golden-nodes.txt is the one record of search node counts: `kalah bench`'s search
// signature is its Kalah(4,4) value line (scripts/bench.sh reads it there).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

#include "db/database.h"
#include "db/file_names.h"
#include "db/layer_file.h"
#include "query/query.h"
#include "solver/solver.h"
#include "tests/sha256.h"
#include "tests/test_util.h"

namespace kalah {
namespace {

// The databases whose files tests/data/golden-layers.sha256 lists.
struct GoldenDatabase {
  Rules rules;
  int max_seeds;
};
const GoldenDatabase kGolden[] = {
    {{4, Capture::kStandard, End::kImmediate, Remainder::kOwner}, 14},
    {{4, Capture::kEmpty, End::kOnTurn, Remainder::kDiscard}, 14},
    {{6, Capture::kStandard, End::kImmediate, Remainder::kOwner}, 12},
    {{6, Capture::kEmpty, End::kImmediate, Remainder::kOwner}, 12},
};

// The lines of a data file, comments left out. With `counted`, the last must be "end N", N the
// lines before it: a missing, empty or truncated file fails instead of checking nothing. (The
// hashes need no count: the files built must be exactly those listed.)
std::vector<std::string> data_lines(const std::string& file, bool counted) {
  std::ifstream in(std::string(KALAH_TEST_DATA) + "/" + file);
  EXPECT_TRUE(in) << "cannot read tests/data/" << file;
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') lines.push_back(line);
  if (!counted) return lines;
  const std::string end = lines.empty() ? "" : lines.back();
  if (!lines.empty()) lines.pop_back();
  if (end != "end " + std::to_string(lines.size()))
    ADD_FAILURE() << "tests/data/" << file << " is missing, empty or truncated: its last line is '"
                  << end << "', not 'end " << lines.size() << "'";
  return lines;
}

class Golden : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<test::TempDir>();
    v2_dir_ = std::make_unique<test::TempDir>();
    old_dir_ = std::make_unique<test::TempDir>();
    for (const auto& g : kGolden) {
      test::build(dir_->str(), g.rules, g.max_seeds);
      test::build(v2_dir_->str(), g.rules, g.max_seeds, 0, LayerFormat{2});
      test::build(old_dir_->str(), g.rules, g.max_seeds, 0, LayerFormat{1});
    }
  }
  static void TearDownTestSuite() {
    dir_.reset();
    v2_dir_.reset();
    old_dir_.reset();
  }
  // Each listed file of dir must hash as listed, and dir must hold no other file.
  static void expect_hashes(const std::string& list, const test::TempDir& dir) {
    std::set<std::string> listed;
    for (const std::string& line : data_lines(list, false)) {
      std::istringstream fields(line);
      std::string hash, name;
      fields >> hash >> name;
      listed.insert(name);
      test::Sha256 sha;
      const std::string bytes = test::read_file(dir.str(name));
      sha.update(bytes.data(), bytes.size());
      EXPECT_EQ(sha.hex_digest(), hash) << name << " differs from its golden hash in " << list;
    }
    std::set<std::string> built;
    for (const auto& [name, bytes] : test::snapshot(dir.str())) built.insert(name);
    EXPECT_EQ(built, listed) << "the golden databases are not the files " << list << " lists";
  }
  static inline std::unique_ptr<test::TempDir> dir_, v2_dir_, old_dir_;  // formats 3, 2, 1
};

TEST(Sha256, KnownVectors) {
  test::Sha256 empty;
  EXPECT_EQ(empty.hex_digest(), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  test::Sha256 abc;
  abc.update("abc", 3);
  EXPECT_EQ(abc.hex_digest(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const std::string two_blocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  test::Sha256 long_input;
  long_input.update(two_blocks.data(), two_blocks.size());
  EXPECT_EQ(long_input.hex_digest(),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST_F(Golden, LayerFilesHashToTheRecordedValues) {
  expect_hashes("golden-layers.sha256", *old_dir_);
  expect_hashes("golden-layers-v2.sha256", *v2_dir_);
  expect_hashes("golden-layers-v3.sha256", *dir_);
}

TEST_F(Golden, EveryFormatHoldsTheSameValues) {
  for (const auto& g : kGolden)
    for (int s = 1; s <= g.max_seeds; ++s) {
      const std::string name = layer_file_name(g.rules, s);
      const LayerFile old(old_dir_->str(name), g.rules, s);
      ASSERT_FALSE(old.in_place());
      std::vector<uint8_t> expected(old.header().boards), got(expected.size());
      old.read_all(expected.data());
      for (const test::TempDir* dir : {dir_.get(), v2_dir_.get()}) {
        const LayerFile now(dir->str(name), g.rules, s);
        ASSERT_TRUE(now.in_place());
        now.read_all(got.data());
        EXPECT_EQ(got, expected) << name << " of format " << now.header().version;
      }
    }
}

TEST_F(Golden, SearchesVisitTheRecordedNodes) {
  for (const std::string& line : data_lines("golden-nodes.txt", true)) {
    std::istringstream fields(line);
    int pits, n, db_seeds, value;
    std::string capture, end, remainder, analysis;
    uint64_t nodes, probes;
    fields >> pits >> n >> capture >> end >> remainder >> analysis >> db_seeds >> value >> nodes >>
        probes;
    ASSERT_TRUE(fields) << "malformed line: " << line;
    const Rules rules{pits, parse_capture(capture), parse_end(end), parse_remainder(remainder)};
    std::unique_ptr<Database> db;
    if (db_seeds) {
      db = std::make_unique<Database>(dir_->str(), rules, size_t{1} << 40);
      ASSERT_EQ(db->max_seeds(), db_seeds) << line;
    }
    const Position start{start_board(pits, n)};
    if (analysis == "full") {
      // kalah solve's query, on one thread: a full analysis shares its table between threads,
      // so its node count is deterministic on one thread only (its values on any number).
      Query q;
      q.rules = rules;
      q.position = start;
      q.db = db.get();
      q.threads = 1;
      const Outcome o = run(q);
      EXPECT_EQ(o.analysis->value, value) << line;
      EXPECT_EQ(o.nodes, nodes) << line;
      EXPECT_EQ(o.probes, probes) << line;
    } else {
      Solver solver(rules, kSearchTableBytes, db.get());  // as kalah bench's search
      EXPECT_EQ(solver.value(start.board), value) << line;
      EXPECT_EQ(solver.nodes(), nodes) << line;
      EXPECT_EQ(solver.probes(), probes) << line;
    }
  }
}

}  // namespace
}  // namespace kalah
