// cli_test.cpp: the kalah executable end to end: output, JSON and exit codes.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace {

struct Outcome {
  int status;
  std::string out;
};

// Runs kalah with the given arguments (a shell fragment), stderr folded into out.
Outcome kalah(const std::string& args) {
  const std::string cmd = std::string(KALAH_EXE) + " " + args + " 2>&1 </dev/null";
  FILE* f = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  const int st = pclose(f);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), out};
}

TEST(Cli, SolveJsonGivesThePublishedValue) {
  const Outcome r = kalah("solve --pits 3 --seeds 3 --capture empty --json");
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
  const Outcome r = kalah("solve --pits 4 --seeds 2");
  EXPECT_EQ(r.status, 0) << r.out;
  for (const char* s :
       {"Kalah(4,2)", "South to move", "value: ", "moves", "pit 4", "best line:", "nodes:"})
    EXPECT_NE(r.out.find(s), std::string::npos) << "missing '" << s << "' in\n" << r.out;
}

TEST(Cli, PositionsInBothFormsAgree) {
  const Outcome rel = kalah("solve 0,3,1/2,0,0/10,9 --json");
  const Outcome abs = kalah("solve --position 2,0,0,9,0,3,1,10,N --json");
  ASSERT_EQ(rel.status, 0) << rel.out;
  ASSERT_EQ(abs.status, 0) << abs.out;
  const auto value = [](const std::string& out) {
    const auto at = out.find("\"value\": ");
    return out.substr(at, out.find(',', at) - at);
  };
  EXPECT_EQ(value(rel.out), value(abs.out));
}

TEST(Cli, BadInputExitsTwoWithOneLine) {
  for (const char* args :
       {"solve 1,2,3/1,2", "solve 1,x/1,2", "solve --pits 4 1,2/3,4", "solve --seeds 4 1,2/3,4",
        "solve", "solve --pits 9 --seeds 1", "solve --pits 6 --seeds 30", "solve --seeds 0",
        "solve --seeds 2 --capture sometimes", "solve --seeds 2 --end never",
        "solve --seeds 2 --remainder split", "solve --seeds 2 --bogus", "solve --seeds x",
        "solve --seeds 2 --tt-mb 0", "frobnicate"}) {
    const Outcome r = kalah(args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.out;
    EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << args << ": not one line: " << r.out;
  }
}

TEST(Cli, HelpTeaches) {
  const Outcome top = kalah("help");
  EXPECT_EQ(top.status, 0);
  EXPECT_NE(top.out.find("solve"), std::string::npos);
  const Outcome solve = kalah("solve --help");
  EXPECT_EQ(solve.status, 0);
  for (const char* s :
       {"--capture", "--end", "--remainder", "--pits", "--seeds", "--json", "examples"})
    EXPECT_NE(solve.out.find(s), std::string::npos) << s;
  EXPECT_EQ(kalah("help solve").out, solve.out);
}

}  // namespace
