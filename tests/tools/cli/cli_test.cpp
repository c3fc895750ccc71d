// cli_test.cpp: the kalah executable end to end: output, JSON and exit codes.
#include <gtest/gtest.h>
#include <pwd.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "tests/test_util.h"

namespace {

using kalah::test::kalah;
using kalah::test::Ran;
using kalah::test::shell;
namespace fs = std::filesystem;
namespace test = kalah::test;

TEST(Cli, SolveJsonGivesThePublishedValue) {
  const Ran r = kalah("solve --pits 3 --seeds 3 --capture empty --json");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("\"value\": 2,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"result\": \"win\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"moves\": [{\"pit\": 1,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"best_line\": [\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"nodes\": "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"seconds\": "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << "not one line: " << r.out;
}

TEST(Cli, SolveTextShowsBoardMovesAndLine) {
  const Ran r = kalah("solve --pits 4 --seeds 2");
  EXPECT_EQ(r.status, 0) << r.out;
  for (const char* s :
       {"Kalah(4,2)", "South to move", "value: ", "moves", "pit 4", "best line:", "nodes:"})
    EXPECT_NE(r.out.find(s), std::string::npos) << "missing '" << s << "' in\n" << r.out;
}

TEST(Cli, PositionsInBothFormsAgree) {
  const Ran rel = kalah("solve 0,3,1/2,0,0/10,9 --json");
  const Ran abs = kalah("solve --position 2,0,0,9,0,3,1,10,N --json");
  ASSERT_EQ(rel.status, 0) << rel.out;
  ASSERT_EQ(abs.status, 0) << abs.out;
  const auto value = [](const std::string& out) {
    const auto at = out.find("\"value\": ");
    return out.substr(at, out.find(',', at) - at);
  };
  EXPECT_EQ(value(rel.out), value(abs.out));
}

// The JSON's best line is a game record: pasted into --moves it plays the game to its end, which
// is worth the value the start was given.
TEST(Cli, TheBestLinePastesBackIntoMoves) {
  const Ran start = kalah("solve --pits 4 --seeds 3 --no-db --json");
  ASSERT_EQ(start.status, 0) << start.out;
  const size_t from = start.out.find("\"best_line\": [") + 14, to = start.out.find(']', from);
  std::string record;
  for (char c : start.out.substr(from, to - from))
    if (c != '"') record += c == ',' ? ' ' : c;
  ASSERT_EQ(record.substr(0, 2), "S:") << start.out;
  const Ran end = kalah("solve --pits 4 --seeds 3 --no-db --json --moves '" + record + "'");
  ASSERT_EQ(end.status, 0) << record << "\n" << end.out;
  EXPECT_NE(end.out.find("\"finished\": true"), std::string::npos) << end.out;
}

TEST(Cli, MovesPlayAGameRecordFirst) {
  // Kalah(4,3)'s best line begins S:2-3 N:2; the record's end is solve's position.
  const Ran after = kalah("solve --pits 4 --seeds 3 --no-db --json --moves 'S:2-3 N:2'");
  const Ran same = kalah("solve 4,0,0,5/4,0,4,4/2,1 --no-db --json");
  ASSERT_EQ(after.status, 0) << after.out;
  ASSERT_EQ(same.status, 0) << same.out;
  const auto without_counts = [](const std::string& out) {
    return out.substr(0, out.find("\"nodes\""));
  };
  EXPECT_EQ(without_counts(after.out), without_counts(same.out));
  const Ran query = kalah("query --db /nonexistent --moves 'S:3' 1,2/3,4");
  EXPECT_EQ(query.status, 2);
  EXPECT_NE(query.out.find("game record, turn 1 (S:3): '3' is not a pit number 1..2"),
            std::string::npos)
      << query.out;
  const Ran late = kalah("solve --pits 4 --seeds 3 --no-db --moves 'S:2 N:1'");
  EXPECT_EQ(late.status, 2);
  EXPECT_EQ(late.out,
            "kalah solve: game record, turn 2 (N:1), pit 1: South is to move, not North\n");
}

TEST(Cli, BadInputExitsTwoWithOneLine) {
  for (const char* args :
       {"solve 1,2,3/1,2", "solve 1,x/1,2", "solve --pits 4 1,2/3,4", "solve --seeds 4 1,2/3,4",
        "solve", "solve --pits 9 --seeds 1", "solve --pits 6 --seeds 30", "solve --seeds 0",
        "solve --seeds 2 --capture sometimes", "solve --seeds 2 --end never",
        "solve --seeds 2 --remainder split", "solve --seeds 2 --bogus", "solve --seeds x",
        "solve --seeds 2 --tt-mb 0", "frobnicate"}) {
    const Ran r = kalah(args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.out;
    EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << args << ": not one line: " << r.out;
  }
}

TEST(Cli, HelpTeaches) {
  const Ran top = kalah("help");
  EXPECT_EQ(top.status, 0);
  EXPECT_NE(top.out.find("solve"), std::string::npos);
  const Ran solve = kalah("solve --help");
  EXPECT_EQ(solve.status, 0);
  for (const char* s :
       {"--capture", "--end", "--remainder", "--pits", "--seeds", "--json", "examples"})
    EXPECT_NE(solve.out.find(s), std::string::npos) << s;
  EXPECT_EQ(kalah("help solve").out, solve.out);
  // kalah alone: a one-line usage naming every command that help lists.
  const Ran bare = kalah("");
  EXPECT_EQ(bare.status, 2);
  for (const char* command : {"solve", "build", "query", "info", "verify", "bench", "serve"}) {
    // string + char*, not char* + string: gcc 12 warns (-Wrestrict) about the insert at 0 that
    // the latter inlines.
    EXPECT_NE(top.out.find(std::string("  ") + command + " "), std::string::npos) << command;
    EXPECT_NE(bare.out.find(std::string(" ") + command), std::string::npos) << command;
  }
}

}  // namespace

namespace {

// A small database built once for the command tests below.
class CliDatabase : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    temp_ = std::make_unique<test::TempDir>();
    dir_ = std::make_unique<std::string>(temp_->str());
    const Ran b = kalah("build --db " + *dir_ + " --pits 4 --max-seeds 10");
    ASSERT_EQ(b.status, 0) << b.out;
  }
  static void TearDownTestSuite() {
    dir_.reset();
    temp_.reset();
  }
  static std::string field(const std::string& json, const std::string& name) {
    const auto at = json.find("\"" + name + "\": ");
    if (at == std::string::npos) return "";
    const auto end = json.find(name == "moves" ? "]" : ",", at);
    return json.substr(at, end - at);
  }
  static inline std::unique_ptr<test::TempDir> temp_;
  static inline std::unique_ptr<std::string> dir_;  // temp_'s path
};

TEST_F(CliDatabase, QueryAgreesWithSolve) {
  for (const char* pos : {"3,0,2,1/0,2,1,1/4,5", "1,1,1,1/1,1,1,1", "0,0,5,0/2,0,0,3/1,1",
                          "2,0,0,0/0,0,0,1", "0,0,0,0/1,2,0,0/3,3", "4,0,0,4/0,1,1,0"}) {
    const Ran q = kalah("query --db " + *dir_ + " --json " + pos);
    const Ran s = kalah("solve --json " + std::string(pos));
    ASSERT_EQ(q.status, 0) << q.out;
    ASSERT_EQ(s.status, 0) << s.out;
    EXPECT_NE(field(q.out, "value"), "") << q.out;
    for (const char* f : {"value", "result", "moves", "best_line"})
      EXPECT_EQ(field(q.out, f), field(s.out, f)) << pos << " field " << f;
  }
}

TEST_F(CliDatabase, QueryRefusesWhatItCannotAnswer) {
  EXPECT_EQ(kalah("query --db " + *dir_ + " 1,2,3/4,5").status, 2);
  EXPECT_EQ(kalah("query --db " + *dir_ + " 9,9,9,9/1,1,1,1").status, 2);  // above the top layer
  const Ran searched = kalah("query --db " + *dir_ + " --search --json 9,9,9,9/1,1,1,1");
  EXPECT_EQ(searched.status, 0) << searched.out;
  EXPECT_NE(searched.out.find("\"source\": \"search\""), std::string::npos);
  EXPECT_EQ(kalah("query --db /nonexistent/dir 1,1/1,1").status, 2);
  const Ran batch =
      kalah("query --db " + *dir_ + " --json --keep-going 1,1,1,1/1,1,1,1 x,1 2,2,1,1/1,1,1,1");
  EXPECT_EQ(batch.status, 2);
  EXPECT_NE(batch.out.find("\"command\": \"query\", \"input\": \"x,1\", \"error\": "),
            std::string::npos)
      << batch.out;
  EXPECT_NE(batch.out.find("\"position\": \"2,2,1,1/1,1,1,1/0,0\""), std::string::npos)
      << "the batch did not go on after the bad line";
}

// Asking for rules the directory has no layers of is a usage error in every command, and the
// message says what the directory does hold.
TEST_F(CliDatabase, MissingRulesAreAUsageErrorThatListsTheDirectory) {
  for (const std::string& command :
       {"query --db " + *dir_ + " --capture empty 1,1,1,1/1,1,1,1",
        "solve --db " + *dir_ + " --capture empty --pits 4 --seeds 1",
        "info --db " + *dir_ + " --capture empty", "verify --db " + *dir_ + " --capture empty"}) {
    const Ran o = kalah(command);
    EXPECT_EQ(o.status, 2) << command;
    EXPECT_NE(o.out.find("it holds m=4 capture=standard"), std::string::npos)
        << command << ": " << o.out;
  }
}

// A database directory that does not exist is input, exit status 2 with one line naming it, in
// every command that reads one (serve too, when --db names it).
TEST(Cli, AMissingDatabaseDirectoryIsInputEverywhere) {
  const std::string missing = "/nonexistent/kalah-db";
  for (const std::string& command :
       {"query --db " + missing + " 1,1,1,1/1,1,1,1", "info --db " + missing,
        "verify --db " + missing, "serve --port 0 --db " + missing,
        "solve --pits 4 --seeds 1 --db " + missing}) {
    const Ran o = kalah(command);
    EXPECT_EQ(o.status, 2) << command << ": " << o.out;
    EXPECT_NE(o.out.find(missing), std::string::npos) << command << ": " << o.out;
    EXPECT_EQ(std::count(o.out.begin(), o.out.end(), '\n'), 1) << command << ": " << o.out;
  }
}

TEST_F(CliDatabase, InfoAndVerify) {
  const Ran info = kalah("info --db " + *dir_);
  EXPECT_EQ(info.status, 0) << info.out;
  EXPECT_NE(info.out.find("layers 1..10"), std::string::npos) << info.out;
  const Ran verify = kalah("verify --db " + *dir_ + " --full");
  EXPECT_EQ(verify.status, 0) << verify.out;
  EXPECT_NE(verify.out.find("verify: ok"), std::string::npos) << verify.out;
}

TEST_F(CliDatabase, VerifyNamesADamagedFile) {
  const test::TempDir damaged;
  const std::string copy = damaged.str();
  // The layer files alone: a decoded copy (DIR/decoded) that an earlier test in this process may
  // have written is used while its header matches the layer's, and would hide the damage.
  for (const auto& entry : std::filesystem::directory_iterator(*dir_))
    if (entry.path().extension() == ".kdb") std::filesystem::copy(entry.path(), copy);
  const std::string file = copy + "/kalah-m4-standard-immediate-owner-s8.kdb";
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(200);
    const char c = static_cast<char>(f.get() ^ 0x01);
    f.seekp(200);
    f.put(c);
  }
  const Ran verify = kalah("verify --db " + copy);
  EXPECT_EQ(verify.status, 1) << verify.out;
  EXPECT_NE(verify.out.find("s8.kdb"), std::string::npos) << verify.out;
  EXPECT_EQ(kalah("query --db " + copy + " 1,1,1,1/1,1,1,1").status, 1);
}

// info accounts for everything in the directory: what is neither a layer file, the lock nor a
// decoded copy of a layer is listed with its size.
TEST(Cli, InfoListsEveryOtherFile) {
  const test::TempDir dir;
  ASSERT_EQ(kalah("build --pits 4 --max-seeds 6 --format 1 --db " + dir.str()).status, 0);
  ASSERT_EQ(kalah("solve --pits 4 --seeds 2 --db " + dir.str()).status, 0);  // writes copies
  EXPECT_EQ(kalah("info --db " + dir.str()).out.find("other files"), std::string::npos);
  std::ofstream(dir.str("notes.txt")) << "mine";
  std::ofstream(dir.str("decoded/kalah-m4-standard-immediate-owner-s3.values.tmp.7")) << "half";
  const Ran info = kalah("info --db " + dir.str());
  EXPECT_EQ(info.status, 0) << info.out;
  EXPECT_NE(info.out.find("other files in " + dir.str() +
                          ": 2 (8.0 B): "
                          "decoded/kalah-m4-standard-immediate-owner-s3.values.tmp.7, notes.txt"),
            std::string::npos)
      << info.out;
}

TEST(Cli, BuildRefusesTooLittleMemory) {
  const Ran b = kalah("build --db /tmp/kalah-never-built --max-seeds 30 --memory 1");
  EXPECT_EQ(b.status, 1) << b.out;
  EXPECT_NE(b.out.find("the memory limit is 1.0 GiB"), std::string::npos) << b.out;
  EXPECT_EQ(kalah("build --db /tmp/kalah-never-built --max-seeds 0").status, 2);
}

// Without --db every command uses $KALAH_DB, else ${XDG_CACHE_HOME:-$HOME/.cache}/kalah/db.
TEST(Cli, DefaultDatabaseDirectory) {
  test::TempDir home;
  const std::string exe = KALAH_EXE;
  const auto run = [&](const std::string& env, const std::string& args) {
    return test::shell("env -u KALAH_DB -u XDG_CACHE_HOME " + env + " " + exe + " " + args);
  };
  const std::string kalah_db = "KALAH_DB=" + home.str("db");
  ASSERT_EQ(run(kalah_db, "build --pits 4 --max-seeds 6").status, 0);
  EXPECT_TRUE(fs::exists(home.str("db/kalah-m4-standard-immediate-owner-s6.kdb")));
  EXPECT_EQ(run(kalah_db, "query 1,0,1,0/1,1,0,0").status, 0);
  EXPECT_EQ(run(kalah_db, "info --pits 4").status, 0);
  EXPECT_EQ(run(kalah_db, "verify").status, 0);
  const Ran solved = run(kalah_db, "solve 1,0,1,0/1,1,0,0");  // in the database
  EXPECT_NE(solved.out.find("database: " + home.str("db") + ", layers 1..6"), std::string::npos)
      << solved.out;
  EXPECT_EQ(run(kalah_db, "solve --no-db 1,1,1,1/1,1,1,1").out.find("database:"),
            std::string::npos);
  // Rules the directory lacks: solve searches alone, query says what is there.
  EXPECT_EQ(run(kalah_db, "solve --capture empty 1,1,1,1/1,1,1,1").status, 0);
  EXPECT_EQ(run(kalah_db, "query --capture empty 1,1,1,1/1,1,1,1").status, 2);

  ASSERT_EQ(run("XDG_CACHE_HOME=" + home.str("xdg"), "build --pits 3 --max-seeds 2").status, 0);
  EXPECT_TRUE(fs::exists(home.str("xdg/kalah/db/kalah-m3-standard-immediate-owner-s2.kdb")));
  ASSERT_EQ(run("HOME=" + home.str(), "build --pits 3 --max-seeds 2").status, 0);
  EXPECT_TRUE(fs::exists(home.str(".cache/kalah/db/kalah-m3-standard-immediate-owner-s2.kdb")));
  EXPECT_NE(run(kalah_db, "query --help").out.find(home.str("db")), std::string::npos);
  // A relative XDG_CACHE_HOME is ignored (the XDG spec); without HOME, the account's home.
  EXPECT_NE(run("HOME=" + home.str() + " XDG_CACHE_HOME=relative", "query --help")
                .out.find(home.str(".cache/kalah/db")),
            std::string::npos);
  const Ran no_home = run("-u HOME", "query --help");
  EXPECT_EQ(no_home.out.find("(=/.cache"), std::string::npos) << no_home.out;
  EXPECT_NE(no_home.out.find(std::string("(=") + ::getpwuid(::getuid())->pw_dir + "/.cache/"),
            std::string::npos)
      << no_home.out;
}

}  // namespace

namespace {

TEST(Cli, InterruptPrintsTheProvenBounds) {
  // Kalah(6,4) without a database takes minutes. solve prints its heading (the drawing ends with
  // "to move") once its Ctrl-C handler is in place and before it searches: interrupt it then.
  kalah::test::Process solve(KALAH_EXE,
                             {"solve", "--pits", "6", "--seeds", "4", "--capture", "empty"});
  ASSERT_TRUE(solve.read_until("to move\n")) << solve.output();
  solve.signal(SIGINT);
  EXPECT_EQ(solve.wait(), 130) << solve.output();
  EXPECT_NE(solve.output().find("interrupted after"), std::string::npos) << solve.output();
  EXPECT_NE(solve.output().find("lies in ["), std::string::npos) << solve.output();
}

TEST(Cli, ValueOnlyGivesThePublishedValue) {
  const Ran r = kalah("solve --pits 4 --seeds 4 --capture empty --value-only --json");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("\"value\": 2,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"value_only\": true"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"moves\""), std::string::npos) << r.out;
}

}  // namespace
