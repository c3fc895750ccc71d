// analysis_bench.cpp: what a full analysis costs against a value search on positions of real
// games (scripts/bench.sh; issue goal: at most 2x in all). Samples positions from the first
// plies of Kalah(M,N) games of random legal play (a fixed seed), then times, for each, the
// value search and the full analysis in fresh tables on all threads, and prints both and their
// ratio, per position and in all.
//
//   kalah-analysis-bench DIR [--pits M] [--seeds N] [--capture standard|empty] [--positions K]
//                            [--plies P] [--seed S]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/units.h"
#include "db/database.h"
#include "game/notation.h"
#include "parallel/parallel_search.h"

namespace {

using namespace kalah;

// A position after up to `plies` random legal moves from the start; never a finished one.
Position sample(const Rules& rules, int seeds, int plies, std::mt19937_64& rng) {
  Position p{start_board(rules.pits, seeds)};
  const int n = static_cast<int>(rng() % (plies + 1));
  for (int i = 0; i < n; ++i) {
    std::vector<int> legal;
    for (int pit = 0; pit < rules.pits; ++pit)
      if (p.board.pits[pit] > 0) legal.push_back(pit);
    const Position next = apply(rules, p, legal[rng() % legal.size()]);
    if (is_terminal(rules, next.board)) break;
    p = next;
  }
  return p;
}

int64_t number(const std::string& flag, const std::string& value) {
  if (const auto n = parse_whole_number(value, 0, INT32_MAX)) return *n;
  throw std::invalid_argument(flag + ": '" + value + "' is not a count");
}

int run(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: kalah-analysis-bench DIR [--pits M] [--seeds N] [--capture RULE] "
                 "[--positions K] [--plies P] [--seed S]\n");
    return 2;
  }
  const std::string dir = argv[1];
  int pits = 6, per_pit = 4, positions = 50, plies = 10;
  unsigned long seed = 1;
  Capture capture = Capture::kEmpty;
  for (int i = 2; i < argc; i += 2) {
    const std::string flag = argv[i];
    if (i + 1 == argc) throw std::invalid_argument(flag + " needs a value");
    const std::string value = argv[i + 1];
    if (flag == "--pits")
      pits = static_cast<int>(number(flag, value));
    else if (flag == "--seeds")
      per_pit = static_cast<int>(number(flag, value));
    else if (flag == "--capture")
      capture = parse_capture(value);
    else if (flag == "--positions")
      positions = static_cast<int>(number(flag, value));
    else if (flag == "--plies")
      plies = static_cast<int>(number(flag, value));
    else if (flag == "--seed")
      seed = static_cast<unsigned long>(number(flag, value));
    else {
      std::fprintf(stderr, "kalah-analysis-bench: unknown option '%s'\n", flag.c_str());
      return 2;
    }
  }
  const Rules rules{pits, capture, End::kImmediate, Remainder::kOwner};
  const Database db(dir, rules, Database::search_cache_bytes());
  std::mt19937_64 rng(seed);
  // Every block the searches read is checked once per process: not a cost of the first position.
  const SearchSetup value{.rules = rules, .leaves = &db, .table_bytes = kSearchTableBytes};
  const SearchSetup full{.rules = rules, .leaves = &db, .table_bytes = kAnalysisTableBytes};
  value_parallel(value, Position{start_board(pits, per_pit)});
  std::vector<double> ratios;
  double value_total = 0, full_total = 0;
  std::printf(
      "position                          value s   full s   ratio  value  nodes (value, full)\n");
  for (int k = 0; k < positions; ++k) {
    const Position p = sample(rules, per_pit, plies, rng);
    if (seeds(p.board) <= db.max_seeds()) continue;  // the database answers it: nothing to time
    auto t0 = std::chrono::steady_clock::now();
    const SearchResult v = value_parallel(value, p);
    const double value_s = seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    const SearchResult a = analyse_parallel(full, p);
    const double full_s = seconds_since(t0);
    if (a.analysis.value != v.margin.lower) {
      std::fprintf(stderr, "kalah-analysis-bench: values differ on %s\n",
                   format_relative(p, pits).c_str());
      return 1;
    }
    value_total += value_s;
    full_total += full_s;
    ratios.push_back(full_s / value_s);
    std::printf("%-32s %8.3f %8.3f %7.2f %+6d  %llu, %llu\n", format_relative(p, pits).c_str(),
                value_s, full_s, full_s / value_s, v.margin.lower,
                static_cast<unsigned long long>(v.nodes), static_cast<unsigned long long>(a.nodes));
  }
  std::sort(ratios.begin(), ratios.end());
  const auto at = [&](double q) { return ratios[static_cast<size_t>(q * (ratios.size() - 1))]; };
  if (ratios.empty()) return 0;
  std::printf("%zu positions: value %.2f s, full analysis %.2f s in all: %.2fx\n", ratios.size(),
              value_total, full_total, full_total / value_total);
  std::printf("ratio per position: min %.2f, median %.2f, 90th percentile %.2f, max %.2f\n", at(0),
              at(0.5), at(0.9), at(1));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {  // a bad number or rule, a missing database
    std::fprintf(stderr, "kalah-analysis-bench: %s\n", e.what());
    return 2;
  }
}
