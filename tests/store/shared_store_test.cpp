// shared_store_test.cpp: one answer store, several keys (users, teammates, sudo): what one key
// keeps is never removed, overwritten or evicted by another, and a record that cannot be read
// now is not removed (store/answer_store.h).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "game/notation.h"
#include "query/audit.h"
#include "query/query.h"
#include "store/answer_store.h"
#include "tests/test_util.h"

namespace kalah {
namespace {

namespace fs = std::filesystem;
const Rules kRules{4};

Analysis searched(const Database& db, const Position& p) {
  Query q;
  q.rules = kRules;
  q.position = p;
  q.db = &db;
  q.table_mb = 1;
  return *run(q).analysis;
}

TEST(SharedStore, AnotherKeysRecordsAreNeverRemovedOverwrittenOrEvicted) {
  const test::TempDir dir;
  test::build(dir.str(), kRules, 8);
  const Database db(dir.str(), kRules);
  const uint8_t a_bytes[RecordKey::kBytes] = {1}, b_bytes[RecordKey::kBytes] = {2};
  const RecordKey key_a(a_bytes), key_b(b_bytes);
  const auto quiet = [](const std::string&) {};
  AnswerStore a(dir.str(), kRules, key_a, quiet), b(dir.str(), kRules, key_b, quiet, 1);
  const Position p = start_position(4, 4), q = start_position(4, 5);
  const Analysis truth = searched(db, p);
  ASSERT_TRUE(a.put(p, {truth, 1, 1, false}));
  ASSERT_TRUE(a.put(q, {searched(db, q), 1, 1, true}));  // a book record
  const std::string a_record = test::read_file(a.path(p, false));
  ASSERT_NE(a.path(p, false), b.path(p, false));

  EXPECT_FALSE(b.find(p));  // not B's: nothing found, nothing removed
  EXPECT_EQ(test::read_file(a.path(p, false)), a_record);
  ASSERT_TRUE(b.put(p, {truth, 1, 1, false}));  // B's own name; B's store of 1 byte evicts it
  EXPECT_FALSE(fs::exists(b.path(p, false)));
  EXPECT_EQ(test::read_file(a.path(p, false)), a_record);
  ASSERT_TRUE(a.find(p));
  ASSERT_TRUE(a.find(q));

  // B's audit leaves A's records alone and says so.
  const AnswerAudit audit = audit_answers(db, b, 5);
  EXPECT_TRUE(audit.removed.empty());
  EXPECT_EQ(audit.other_keys, 2u);
  EXPECT_TRUE(fs::exists(a.path(p, false)) && fs::exists(a.path(q, true)));

  // An old record (no key in its name) of A's: A reads it, B leaves it.
  fs::rename(a.path(p, false), a.legacy_path(p, false));
  EXPECT_FALSE(b.find(p));  // B's own record was evicted; A's old one is not B's
  EXPECT_TRUE(fs::exists(a.legacy_path(p, false)));
  EXPECT_TRUE(a.find(p));
}

TEST(SharedStore, ARecordThatCannotBeReadNowIsKeptAndNothingHangs) {
  const test::TempDir dir;
  test::build(dir.str(), kRules, 8);
  const uint8_t bytes[RecordKey::kBytes] = {3};
  const RecordKey key(bytes);
  AnswerStore store(dir.str(), kRules, key, [](const std::string&) {});
  const Position p = start_position(4, 4);
  fs::create_directories(store.dir());
  for (const std::string& name : {store.path(p, false), store.legacy_path(p, true)}) {
    ASSERT_EQ(mkfifo(name.c_str(), 0600), 0) << name;
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_FALSE(store.find(p));
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(1));
    EXPECT_TRUE(fs::is_fifo(name)) << "a record that could not be read was removed";
    std::string why;
    AnswerStore::Verdict verdict;
    EXPECT_FALSE(store.read_file(name, why, &verdict));
    EXPECT_EQ(verdict, AnswerStore::Verdict::kUnreadable) << why;
    fs::remove(name);
  }
}

}  // namespace
}  // namespace kalah
