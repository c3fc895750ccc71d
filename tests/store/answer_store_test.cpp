// answer_store_test.cpp: the answer store beside a database. Records round-trip; a damaged,
// truncated or foreign record is refused and the answer computed again; concurrent writers
// leave only sound records; a full store evicts the least recently used answers but never the
// book; KALAH_STORE=off and --no-store turn it off.
#include "store/answer_store.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "base/checksum.h"
#include "game/notation.h"
#include "query/query.h"
#include "tests/test_util.h"

namespace kalah {
namespace {

const Rules kRules{4};
constexpr int kTop = 8;

class Store : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<test::TempDir>();
    test::build(dir_->str(), kRules, kTop);
  }
  static void TearDownTestSuite() { dir_.reset(); }
  void SetUp() override {
    unsetenv("KALAH_STORE");  // the suite runs with the store off
    std::filesystem::remove_all(dir_->str("answers"));
  }

  // Positions above the database: searched, so stored.
  static std::vector<Position> positions() {
    std::vector<Position> out;
    for (int n = 3; n <= 5; ++n) out.push_back(start_position(4, n));
    out.push_back(parse_position("3,0,4,4/3,3,3,3/1,0").position);
    return out;
  }

  static std::unique_ptr<test::TempDir> dir_;
};
std::unique_ptr<test::TempDir> Store::dir_;

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

// The full analysis of p by the query path, over db and the store beside it (none when
// KALAH_STORE=off), as every front end asks it.
Outcome analysed(const Database& db, const Position& p) {
  const std::unique_ptr<AnswerStore> store = open_answer_store(db.dir(), kRules);
  Query q;
  q.rules = kRules;
  q.position = p;
  q.db = &db;
  q.store = store.get();
  q.table_mb = 1;
  return run(q);
}

void expect_same(const Analysis& a, const Analysis& b) {
  EXPECT_EQ(a.value, b.value);
  EXPECT_EQ(a.board_value, b.board_value);
  EXPECT_EQ(a.finished, b.finished);
  ASSERT_EQ(a.moves.size(), b.moves.size());
  for (size_t i = 0; i < a.moves.size(); ++i) {
    EXPECT_EQ(a.moves[i].pit, b.moves[i].pit);
    EXPECT_EQ(a.moves[i].value, b.moves[i].value);
    EXPECT_EQ(a.moves[i].turn, b.moves[i].turn);
  }
  EXPECT_EQ(a.best_line, b.best_line);
}

TEST_F(Store, ASolvedPositionIsAnsweredFromTheStoreAfterARestart) {
  for (const Position& p : positions()) {
    Outcome first, again;
    {
      const Database db(dir_->str(), kRules);
      first = analysed(db, p);
      EXPECT_EQ(first.source, Source::kSearch);
    }
    {
      const Database db(dir_->str(), kRules);  // another process, as far as the store knows
      again = analysed(db, p);
    }
    EXPECT_EQ(again.source, Source::kStore);
    EXPECT_EQ(again.nodes, 0u);
    expect_same(*again.analysis, *first.analysis);
  }
}

TEST_F(Store, ADamagedRecordIsRefusedAndComputedAgain) {
  const Position p = positions()[1];
  const Database db(dir_->str(), kRules);
  const Analysis truth = *analysed(db, p).analysis;
  AnswerStore store(dir_->str(), kRules);
  const std::string file = store.path(p, false);
  const std::string good = test::read_file(file);
  const auto write = [&](const std::string& text) { std::ofstream(file) << text; };
  std::string flipped = good;
  flipped[flipped.find("value ") + 6] ^= 1;  // one bit of the value
  const Position other = positions()[0];
  std::string foreign = store.record(other, {truth, 1, 1, false});  // sound, of another position
  for (const std::string& damage :
       {flipped, good.substr(0, good.size() / 2), std::string(), foreign,
        good.substr(0, good.find("checksum")) + "checksum 0000000000000000\n"}) {
    write(damage);
    EXPECT_FALSE(store.find(p)) << damage;
    EXPECT_FALSE(std::filesystem::exists(file));  // refused records go
    write(damage);
    const Outcome again = analysed(db, p);
    EXPECT_EQ(again.source, Source::kSearch);
    expect_same(*again.analysis, truth);
    EXPECT_EQ(test::read_file(file).substr(0, 80), good.substr(0, 80));  // stored again
  }
}

// A record rewritten by someone without the key (Kalah(4,4) standard, +2, forged to +8) is
// refused, whether its old unkeyed checksum was recomputed or it carries a hash under another
// key; one whose keyed hash holds but whose values do not add up (the value is not its best
// move's) is refused too. Each is removed and answered again by search, from the library and the
// command line alike, with a line saying so.
TEST_F(Store, ForgedRecordsAreNeverBelieved) {
  const Position p = start_position(4, 4);
  const Database db(dir_->str(), kRules);
  const Outcome truth = analysed(db, p);
  ASSERT_EQ(truth.margin.lower, 2);
  AnswerStore store(dir_->str(), kRules);
  const std::string file = store.path(p, false);
  const std::string good = test::read_file(file);
  const std::string body =
      replaced(replaced(good.substr(0, good.find("mac ")), "\nvalue 2\n", "\nvalue 8\n"),
               "\nboard_value 2\n", "\nboard_value 8\n");
  Checksum unkeyed;
  unkeyed.update(body.data(), body.size());
  const uint8_t other_bytes[RecordKey::kBytes] = {7};
  const RecordKey other(other_bytes);
  for (const std::string& forged :
       {body + "checksum " + to_hex(unkeyed.digest()) + "\n",
        body + "mac " + other.mac({body}) + "\n", body + "mac " + std::string(64, '0') + "\n",
        body + "mac " + RecordKey::user().mac({body}) + "\n"}) {
    std::ofstream(file) << forged;
    std::string why;
    EXPECT_FALSE(store.read_file(file, why)) << forged;
    EXPECT_FALSE(why.empty());
    const Outcome again = analysed(db, p);
    EXPECT_EQ(again.source, Source::kSearch);
    EXPECT_EQ(again.margin.lower, 2);
  }
  std::ofstream(file) << body + "mac " + other.mac({body}) + "\n";
  const test::Ran cli =
      test::kalah("solve --pits 4 --seeds 4 --json --db " + dir_->str() + " 2>&1");
  EXPECT_EQ(cli.status, 0);
  EXPECT_NE(cli.out.find("\"value\": 2,"), std::string::npos) << cli.out;
  EXPECT_NE(cli.out.find("\"source\": \"search\""), std::string::npos) << cli.out;
  EXPECT_NE(cli.out.find("ignoring the answer record"), std::string::npos) << cli.out;
}

// A record's values are checked for sense before they are believed, key or no key.
TEST_F(Store, RecordsThatMakeNoSenseAreRefused) {
  const Position p = start_position(4, 4);
  const Database db(dir_->str(), kRules);
  const Analysis truth = *analysed(db, p).analysis;
  AnswerStore store(dir_->str(), kRules);
  const auto refused = [&](Analysis a, const std::string& what) {
    ASSERT_TRUE(store.put(p, {a, 1, 1, false}));
    std::string why;
    EXPECT_FALSE(store.read_file(store.path(p, false), why)) << what;
    EXPECT_NE(why, "") << what;
  };
  Analysis a = truth;
  a.moves[0].value = 60;  // more than the 32 seeds in play
  refused(a, "a move's value beyond the seeds");
  a = truth;
  a.value = a.board_value = truth.value - 2;  // below its best move
  refused(a, "a value that is not the best move's");
  a = truth;
  a.moves.pop_back();
  refused(a, "a legal move left out");
  a = truth;
  a.moves[1].turn = {3};
  refused(a, "a turn that starts elsewhere");
  a = truth;
  a.best_line[0] = a.moves.back().turn;  // pit 4 loses (-2)
  refused(a, "a best line that starts with a worse move");
  a = truth;
  a.finished = true;
  refused(a, "a game over that is not");
}

TEST_F(Store, ConcurrentWritersLeaveOnlySoundRecords) {
  const Database db(dir_->str(), kRules);
  std::vector<Analysis> truth;
  for (const Position& p : positions()) truth.push_back(*analysed(db, p).analysis);
  std::filesystem::remove_all(dir_->str("answers"));
  std::vector<std::thread> writers;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 8; ++t)
    writers.emplace_back([&, t] {
      AnswerStore store(dir_->str(), kRules);
      for (int i = 0; i < 200; ++i) {
        const size_t k = (t + i) % truth.size();
        const Position p = positions()[k];
        if (i % 2)
          store.put(p, {truth[k], 7, 0.5, false});
        else if (auto s = store.find(p); s && s->analysis.value != truth[k].value)
          ++wrong;
      }
    });
  for (auto& w : writers) w.join();
  EXPECT_EQ(wrong, 0);
  AnswerStore store(dir_->str(), kRules);
  for (size_t k = 0; k < truth.size(); ++k) {
    const auto s = store.find(positions()[k]);
    ASSERT_TRUE(s);
    expect_same(s->analysis, truth[k]);
  }
  for (const auto& e : std::filesystem::directory_iterator(store.dir()))
    EXPECT_NE(e.path().string().find(".answer"), std::string::npos) << e.path();  // no temporaries
  EXPECT_EQ(store.census().answers, truth.size());
}

TEST_F(Store, AFullStoreEvictsTheLeastRecentlyUsedButNeverTheBook) {
  const Database db(dir_->str(), kRules);
  const Position p0 = positions()[0];
  const Analysis a = *analysed(db, p0).analysis;
  AnswerStore store(dir_->str(), kRules, RecordKey::user(), {}, 8 * 4096);  // eight records
  store.put(p0, {a, 1, 1, true});                                           // the book
  std::vector<Position> filler;
  std::mt19937_64 rng(3);
  while (filler.size() < 20) {  // stored as if analysed: eviction looks at files, not values
    Position p = p0;
    for (int i = 0; i < 8; ++i) p.board.pits[i] = 1 + rng() % 9;
    filler.push_back(p);
  }
  for (const Position& p : filler) {  // an analysis that makes sense: every move a draw
    Analysis fake;
    fake.value = p.mover_store - p.opponent_store;
    for (int pit = 0; pit < 4; ++pit) fake.moves.push_back({pit, fake.value, {pit}});
    fake.best_line = {{0}};
    ASSERT_TRUE(store.put(p, {fake, 1, 1, false}));
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // distinct modification times
  }
  const AnswerStore::Census c = store.census();
  EXPECT_LE(c.answer_bytes, 8u * 4096);
  EXPECT_GE(c.answers, 4u);
  EXPECT_EQ(c.book, 1u);
  EXPECT_TRUE(store.find(p0));               // the book stays
  EXPECT_TRUE(store.find(filler.back()));    // the newest answers stay
  EXPECT_FALSE(store.find(filler.front()));  // the oldest went
}

// kalah verify --answers finds what the keyed hash cannot: a record written with the key whose
// values are consistently wrong. It also refuses a record without the key, removes both, keeps
// the sound one and says what it checked.
TEST_F(Store, VerifyAuditsTheStore) {
  const Database db(dir_->str(), kRules);
  AnswerStore store(dir_->str(), kRules);
  for (const Position& p : positions()) analysed(db, p);
  Analysis wrong = *analysed(db, positions()[1]).analysis;  // every value 2 better
  wrong.value += 2;
  wrong.board_value += 2;
  for (MoveReport& m : wrong.moves) m.value += 2;
  ASSERT_TRUE(store.put(positions()[1], {wrong, 1, 1, true}));  // as the book
  const std::string foreign = store.path(positions()[2], false);
  const std::string body =
      test::read_file(foreign).substr(0, test::read_file(foreign).find("mac "));
  const uint8_t other_bytes[RecordKey::kBytes] = {5};
  std::ofstream(foreign) << body + "mac " + RecordKey(other_bytes).mac({body}) + "\n";

  const test::Ran o = test::kalah("verify --pits 4 --answers --json --db " + dir_->str());
  EXPECT_EQ(o.status, 1) << o.out;
  for (const char* expected :
       {"\"records\": 4", "\"by_search\": 2", "\"unchecked\": 0", "its value is not the position's",
        "not written with this user's key"})
    EXPECT_NE(o.out.find(expected), std::string::npos) << expected << " in " << o.out;
  EXPECT_FALSE(store.find(positions()[1]));
  EXPECT_TRUE(store.find(positions()[0]));
  EXPECT_EQ(test::kalah("verify --pits 4 --answers --db " + dir_->str()).status, 0);
}

TEST_F(Store, OffByEnvironmentAndFlag) {
  const Position p = positions()[0];
  setenv("KALAH_STORE", "off", 1);
  {
    const Database db(dir_->str(), kRules);
    EXPECT_EQ(open_answer_store(db.dir(), kRules), nullptr);
    EXPECT_EQ(analysed(db, p).source, Source::kSearch);
  }
  setenv("KALAH_STORE", "/some/dir", 1);  // read as nothing it means: refused, not ignored
  EXPECT_THROW(open_answer_store(dir_->str(), kRules), std::invalid_argument);
  const test::Ran refused = test::kalah("solve --pits 4 --seeds 2 --db " + dir_->str());
  EXPECT_EQ(refused.status, 2) << refused.out;
  EXPECT_NE(refused.out.find("KALAH_STORE is '/some/dir': it takes off"), std::string::npos)
      << refused.out;
  unsetenv("KALAH_STORE");
  EXPECT_FALSE(std::filesystem::exists(dir_->str("answers")));
  // --no-store keeps nothing, in solve and query alike.
  const std::string solve = "solve --pits 4 --seeds 3 --json --db " + dir_->str();
  EXPECT_EQ(test::kalah(solve + " --no-store").status, 0);
  EXPECT_EQ(test::kalah("query --search --no-store --json --db " + dir_->str() + " 3,3,3,3/3,3,3,3")
                .status,
            0);
  EXPECT_FALSE(std::filesystem::exists(dir_->str("answers")));
  // The first answer kept says where it goes.
  const test::Ran first = test::kalah(solve);
  EXPECT_NE(first.out.find("\"source\": \"search\""), std::string::npos);
  EXPECT_NE(first.out.find("answers are kept in " + dir_->str() + "/answers/"), std::string::npos)
      << first.out;
  EXPECT_NE(test::kalah(solve).out.find("\"source\": \"store\""), std::string::npos);
  EXPECT_NE(test::kalah(solve + " --no-store").out.find("\"source\": \"search\""),
            std::string::npos);
  EXPECT_NE(test::kalah(solve + " --value-only").out.find("\"source\": \"store\""),
            std::string::npos);
}

}  // namespace
}  // namespace kalah
