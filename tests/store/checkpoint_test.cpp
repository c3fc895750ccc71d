// checkpoint_test.cpp: long solves that survive restarts (parallel/parallel_search.h's checkpoints,
// store/checkpoint.h's files, `kalah solve --checkpoint`): searches paused, saved, stopped and
// resumed find the values of an uninterrupted search; a damaged file is never trusted.
#include "store/checkpoint.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <tbb/global_control.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "parallel/parallel_search.h"
#include "tests/oracle.h"
#include "tests/test_util.h"

namespace kalah {
namespace {

Position random_position(std::mt19937_64& rng, int m, int s) {
  Position p;
  do p.board = test::random_board(rng, m, s);
  while (is_terminal(Rules{m}, p.board));
  return p;
}

// A search paused for checkpoints as often as it lets itself be, stopped halfway through its
// tests, then resumed from what it saved at the end: the same analysis as one search, having
// searched before what the state says; on one thread, where node counts are deterministic, in
// fewer nodes than the whole search (the resumed run finds the proven bounds and subtrees).
TEST(Checkpoint, StoppedAndResumedSearchesFindTheSameValues) {
  std::mt19937_64 rng(99);
  for (const int threads : {1, 2}) {
    const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
    for (const Rules& r : test::all_variants(5)) {
      const Position p = random_position(rng, 5, 28 + static_cast<int>(rng() % 5));
      SCOPED_TRACE(describe(r) + " threads " + std::to_string(threads));
      SearchSetup setup{.rules = r, .table_bytes = 1 << 20};
      int tests = 0;
      setup.progress = [&](const SearchProgress&) { ++tests; };
      const SearchResult whole = analyse_parallel(setup, p);
      ASSERT_TRUE(whole.complete());

      StopFlag stop;
      SearchState saved;
      int saves = 0;
      Checkpointing c;
      c.seconds = 0;  // the first pause at the searches' first check, the next soon after
      c.save = [&](const SearchState& s) {
        saved = s;
        ++saves;
      };
      int done = 0;
      setup.progress = [&](const SearchProgress&) {
        if (++done == tests / 2) stop.raise();
      };
      setup.stop = &stop;
      setup.checkpoint = &c;
      const SearchResult first = analyse_parallel(setup, p);
      ASSERT_FALSE(first.complete()) << "too few tests to stop halfway: make it bigger";
      EXPECT_EQ(first.stopped, StopReason::kStop);
      EXPECT_GE(saves, 1);  // saved when stopped (and at each pause on the way)
      EXPECT_EQ(saved.moves.size(), whole.analysis.moves.size());
      for (const MoveBounds& mv : saved.moves) {  // every saved bound holds
        const MoveReport& exact = whole.analysis.moves[&mv - saved.moves.data()];
        EXPECT_EQ(mv.pit, exact.pit);
        EXPECT_LE(mv.bounds.lower, exact.value);
        EXPECT_GE(mv.bounds.upper, exact.value);
      }
      EXPECT_EQ(saved.nodes, first.nodes);

      c.resume = &saved;
      c.seconds = 60;
      setup.stop = nullptr;
      setup.progress = {};
      const SearchResult resumed = analyse_parallel(setup, p);
      ASSERT_TRUE(resumed.complete());
      EXPECT_EQ(resumed.earlier_nodes, first.nodes);
      if (threads == 1) {
        EXPECT_LT(resumed.nodes, whole.nodes);
      }
      EXPECT_EQ(resumed.analysis.value, whole.analysis.value);
      for (size_t i = 0; i < whole.analysis.moves.size(); ++i)
        EXPECT_EQ(resumed.analysis.moves[i].value, whole.analysis.moves[i].value);
      EXPECT_EQ(resumed.analysis.best_line, whole.analysis.best_line);

      c.resume = nullptr;  // the value alone, paused as often as it lets itself be
      c.seconds = 0.001;
      const SearchResult v = value_parallel(setup, p);
      EXPECT_EQ(v.margin.lower, whole.analysis.value);
      EXPECT_EQ(v.margin.upper, whole.analysis.value);
    }
  }
}

TEST(Checkpoint, FilesRoundTripAndDamageIsNeverTrusted) {
  test::TempDir dir;
  const Rules r{6, Capture::kEmpty};
  const Board b = start_board(6, 4), other = start_board(6, 5);
  SearchState s;
  s.nodes = 123456789;
  s.moves = {{0, {-20, -2}}, {2, {10, 10}}};
  for (int i = 0; i < 1000; ++i) {
    TranspositionTable::Entry e{};
    e.key = start_board(6, 1 + i % 7);
    e.key.pits[i % 12] = static_cast<uint8_t>(i % 200);
    const int seeds_on = seeds(e.key);  // bounds a search can prove: within the seeds
    e.lo = static_cast<int16_t>(std::max(-(i % 30), -seeds_on));
    e.hi = static_cast<int16_t>(std::min(i % 40, seeds_on));
    e.move = static_cast<int8_t>(i % 6);
    e.work = static_cast<uint8_t>(1 + i % 30);
    s.entries.push_back(e);
  }
  write_checkpoint(dir.str("ck"), r, b, s);
  std::string problem;
  const std::optional<SearchState> back = read_checkpoint(dir.str("ck"), r, b, problem);
  ASSERT_TRUE(back) << problem;
  EXPECT_EQ(back->nodes, s.nodes);
  ASSERT_EQ(back->moves.size(), 2u);
  EXPECT_EQ(back->moves[0].bounds.lower, -20);
  EXPECT_EQ(back->moves[1].pit, 2);
  ASSERT_EQ(back->entries.size(), s.entries.size());
  for (size_t i = 0; i < s.entries.size(); ++i) {
    EXPECT_TRUE(back->entries[i].key == s.entries[i].key);
    EXPECT_EQ(back->entries[i].lo, s.entries[i].lo);
    EXPECT_EQ(back->entries[i].hi, s.entries[i].hi);
    EXPECT_EQ(back->entries[i].move, s.entries[i].move);
    EXPECT_EQ(back->entries[i].work, s.entries[i].work);
  }
  EXPECT_FALSE(read_checkpoint(dir.str("ck"), r, other, problem));  // none for that board
  EXPECT_TRUE(problem.empty());

  const std::string path = checkpoint_path(dir.str("ck"), r, b);
  const std::string good = test::read_file(path);
  const auto damaged = [&](const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    problem.clear();
    return !read_checkpoint(dir.str("ck"), r, b, problem) && !problem.empty();
  };
  std::string flipped = good;
  flipped[good.find("move 1 -20") + 7] = '3';  // a bound changed: -30
  EXPECT_TRUE(damaged(flipped));
  flipped = good;
  flipped[good.size() - 30] ^= 1;  // in the entries
  EXPECT_TRUE(damaged(flipped));
  EXPECT_TRUE(damaged(good.substr(0, good.size() / 2)));
  EXPECT_TRUE(damaged(""));
  // Another board's file under this board's name.
  write_checkpoint(dir.str("ck"), r, other, s);
  EXPECT_TRUE(damaged(test::read_file(checkpoint_path(dir.str("ck"), r, other))));
  EXPECT_NE(problem.find("another board"), std::string::npos) << problem;
}

// A checkpoint written without this user's key is ignored, whatever it holds; one written with
// it but holding bounds no search can prove, or declaring more entries than it holds, is refused
// before anything it declares is allocated. The command says it ignores the file and answers as
// if there were none.
TEST(Checkpoint, ForgedImpossibleAndOversizedCheckpointsAreRefused) {
  test::TempDir dir;
  const Rules r{4};
  const Board b = start_board(4, 3);  // 24 seeds
  SearchState s;
  s.nodes = 1000;
  s.moves = {{0, {-6, 6}}, {1, {6, 6}}};
  TranspositionTable::Entry e{};
  e.key = start_board(4, 2);
  e.lo = -4;
  e.hi = 6;
  s.entries = {e};
  std::string problem;
  write_checkpoint(dir.str(), r, b, s);
  ASSERT_TRUE(read_checkpoint(dir.str(), r, b, problem)) << problem;

  const uint8_t other_bytes[RecordKey::kBytes] = {9};
  const RecordKey other(other_bytes);  // its file, put under this key's name
  write_checkpoint(dir.str(), r, b, s, other);
  std::filesystem::copy_file(checkpoint_path(dir.str(), r, b, other),
                             checkpoint_path(dir.str(), r, b),
                             std::filesystem::copy_options::overwrite_existing);
  EXPECT_FALSE(read_checkpoint(dir.str(), r, b, problem));
  EXPECT_NE(problem.find("key"), std::string::npos) << problem;

  const auto refused = [&](const SearchState& impossible, const std::string& what) {
    write_checkpoint(dir.str(), r, b, impossible);
    problem.clear();
    EXPECT_FALSE(read_checkpoint(dir.str(), r, b, problem)) << what;
    EXPECT_NE(problem.find("impossible"), std::string::npos) << what << ": " << problem;
  };
  SearchState bad = s;
  bad.moves[1].bounds = {25, 25};  // more than the 24 seeds
  refused(bad, "a root move's bounds beyond the seeds");
  bad = s;
  bad.moves[0].bounds = {3, 2};
  refused(bad, "bounds that do not meet");
  bad = s;
  bad.entries[0].lo = bad.entries[0].hi = 1000;
  refused(bad, "an entry's bounds beyond its seeds");
  bad = s;
  bad.moves.push_back({3, {0, 0}});
  bad.moves.push_back({3, {0, 0}});
  bad.moves[2].pit = 7;  // no such pit
  refused(bad, "a move that is not legal");

  // 2^40 entries declared in a few hundred bytes: refused at once, with or without the key.
  const std::string head =
      "kalah checkpoint 2\nrules m=4 capture=standard end=immediate "
      "remainder=owner\nboard 3 3 3 3 3 3 3 3\nnodes 1\n"
      "entries 1099511627776\n";
  const std::string frame = std::string(16, '\0');
  for (const std::string& mac : {std::string(64, '0'), RecordKey::user().mac({head, frame})}) {
    problem.clear();
    EXPECT_FALSE(parse_checkpoint(head + "mac " + mac + "\nend\n" + frame, r, b, problem,
                                  RecordKey::user()));
    EXPECT_FALSE(problem.empty());
  }
  std::ofstream(checkpoint_path(dir.str(), r, b), std::ios::binary | std::ios::trunc)
      << head + "mac " + std::string(64, '0') + "\nend\n" + frame;
  const test::Ran solve =
      test::kalah("solve --pits 4 --seeds 3 --no-db --json --checkpoint " + dir.str() + " 2>&1");
  EXPECT_EQ(solve.status, 0) << solve.out;
  EXPECT_NE(solve.out.find("ignoring"), std::string::npos) << solve.out;
  EXPECT_NE(solve.out.find("\"value\": 6,"), std::string::npos) << solve.out;
}

// The JSON answer line in a command's output, up to `field` (what follows differs between runs).
std::string answer_until(const std::string& out, const std::string& field) {
  const size_t at = out.find("{\"kalah_version\"");
  if (at == std::string::npos) return "no answer in: " + out;
  const std::string line = out.substr(at, out.find('\n', at) - at);
  return line.substr(0, line.find(field));
}

// The command, killed with SIGKILL after its first checkpoint, then run again: it says it
// resumes and gives the answer of an uninterrupted run.
TEST(Checkpoint, KilledSolveResumesToTheSameAnswer) {
  test::TempDir dir;
  const std::string game = "solve --pits 5 --seeds 4 --capture empty --no-db --threads 1 --json";
  const test::Ran reference = test::kalah(game);
  ASSERT_EQ(reference.status, 0) << reference.out;

  const std::vector<std::string> args{"solve",       "--pits",
                                      "5",           "--seeds",
                                      "4",           "--capture",
                                      "empty",       "--no-db",
                                      "--threads",   "1",
                                      "--json",      "--checkpoint",
                                      dir.str("ck"), "--checkpoint-every",
                                      "0.3"};
  test::Process solve(KALAH_EXE, args);
  const auto has_checkpoint = [&] {
    return std::filesystem::exists(dir.str("ck")) && !std::filesystem::is_empty(dir.str("ck"));
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (!has_checkpoint() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  solve.signal(SIGKILL);
  const int status = solve.wait();
  ASSERT_TRUE(has_checkpoint()) << solve.output();
  if (status == 0) GTEST_SKIP() << "the solve finished before it was killed";

  // Resumed and stopped with Ctrl-C at once, it counts the killed run's nodes too.
  test::Process stopped(KALAH_EXE, args);
  ASSERT_TRUE(stopped.read_until("resuming from")) << stopped.output();
  stopped.signal(SIGINT);
  if (stopped.wait() == 130) {
    EXPECT_NE(stopped.output().find("\"earlier_nodes\": "), std::string::npos) << stopped.output();
  }

  const test::Ran resumed = test::kalah(game + " --checkpoint " + dir.str("ck"));
  ASSERT_EQ(resumed.status, 0) << resumed.out;
  EXPECT_NE(resumed.out.find("resuming from"), std::string::npos) << resumed.out;
  // The answer line: the same but for nodes and time.
  EXPECT_EQ(answer_until(resumed.out, "\"source\""), answer_until(reference.out, "\"source\""));
  // It counts the killed run's nodes apart, as many as the checkpoint said it holds.
  const size_t said = resumed.out.find(": ", resumed.out.find("resuming from"));
  const std::string earlier =
      resumed.out.substr(said + 2, resumed.out.find(' ', said + 2) - said - 2);
  EXPECT_NE(resumed.out.find("\"earlier_nodes\": " + earlier + "}"), std::string::npos)
      << resumed.out;
  EXPECT_EQ(reference.out.find("earlier_nodes"), std::string::npos);
}

// The pie rule keeps a checkpoint per analysis (the start's and those after its extra turns),
// the start's shared with a full analysis: a rerun resumes from every one and answers the same.
TEST(Checkpoint, ThePieRuleResumesFromItsAnalyses) {
  test::TempDir dir;
  const std::string game = "solve --pits 4 --seeds 3 --no-db --json --checkpoint " + dir.str("ck");
  ASSERT_EQ(test::kalah(game).status, 0);  // the start's full analysis
  const auto files = [&] {
    return std::distance(std::filesystem::directory_iterator(dir.str("ck")),
                         std::filesystem::directory_iterator{});
  };
  ASSERT_EQ(files(), 1);
  const test::Ran first = test::kalah(game + " --pie");
  ASSERT_EQ(first.status, 0) << first.out;
  EXPECT_NE(first.out.find("resuming from"), std::string::npos) << first.out;
  const auto analyses = files();
  EXPECT_GT(analyses, 1);  // Kalah(4,3) has extra turns in its first turn
  const test::Ran again = test::kalah(game + " --pie");
  ASSERT_EQ(again.status, 0) << again.out;
  size_t resumed = 0;
  for (size_t at = 0; (at = again.out.find("resuming from", at)) != std::string::npos; ++at)
    ++resumed;
  EXPECT_EQ(static_cast<long>(resumed), analyses) << again.out;
  const std::string plain = test::kalah("solve --pits 4 --seeds 3 --no-db --json --pie").out;
  EXPECT_EQ(answer_until(again.out, "\"nodes\""), answer_until(first.out, "\"nodes\""));
  EXPECT_EQ(answer_until(first.out, "\"nodes\""), answer_until(plain, "\"nodes\""));
}

// The pie rule's value alone keeps a checkpoint per opening it searched: a rerun resumes every
// one of them and answers the same.
TEST(Checkpoint, ThePieRulesValueResumesFromItsSearches) {
  test::TempDir dir;
  const std::string game =
      "solve --pits 5 --seeds 3 --no-db --json --pie --value-only --checkpoint " + dir.str("ck");
  const test::Ran first = test::kalah(game);
  ASSERT_EQ(first.status, 0) << first.out;
  const auto searched = std::distance(std::filesystem::directory_iterator(dir.str("ck")),
                                      std::filesystem::directory_iterator{});
  EXPECT_GT(searched, 1);
  const test::Ran again = test::kalah(game);
  ASSERT_EQ(again.status, 0) << again.out;
  size_t resumed = 0;
  for (size_t at = 0; (at = again.out.find("resuming from", at)) != std::string::npos; ++at)
    ++resumed;
  EXPECT_EQ(static_cast<long>(resumed), searched) << again.out;
  EXPECT_EQ(answer_until(again.out, "\"nodes\""), answer_until(first.out, "\"nodes\""));
}

}  // namespace
}  // namespace kalah
