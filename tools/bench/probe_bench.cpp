// probe_bench.cpp: what the library's board-level probe costs an engine, per call, through the
// public API (scripts/bench/probe.py runs it beside Python's probe on the same positions).
//
//   kalah-probe-bench DIR CAPTURE POSITIONS_FILE ROUNDS
//
// Reads one position per line (absolute), then times Database::probe_board on each of them in
// turn, ROUNDS times over, and on the first one alone as often; prints two JSON numbers:
// nanoseconds per call over the list ("list") and on one board again and again ("same").
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "kalah/kalah.h"

namespace api = kalah::api;

template <class Loop>
double ns_per_call(size_t calls, const Loop& loop) {
  const auto t0 = std::chrono::steady_clock::now();
  loop();
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
         static_cast<double>(calls);
}

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: kalah-probe-bench DIR CAPTURE POSITIONS_FILE ROUNDS\n");
    return 2;
  }
  try {
    const api::Database db(argv[1], {.pits = 0, .capture = argv[2]});
    std::vector<api::Board> boards;
    std::ifstream in(argv[3]);
    for (std::string line; std::getline(in, line);)
      boards.push_back(api::Position::parse(line, db.rules()).board());
    const int rounds = std::stoi(argv[4]);
    if (boards.empty() || rounds < 1) throw std::invalid_argument("no positions, or no rounds");
    long sum = 0;  // used, so that no probe is optimised away
    for (const api::Board& b : boards) sum += db.probe_board(b).value_or(0);  // warm: mapped
    const size_t calls = boards.size() * static_cast<size_t>(rounds);
    const double list = ns_per_call(calls, [&] {
      for (int r = 0; r < rounds; ++r)
        for (const api::Board& b : boards) sum += db.probe_board(b).value_or(0);
    });
    const double same = ns_per_call(calls, [&] {
      for (size_t i = 0; i < calls; ++i) sum += db.probe_board(boards[0]).value_or(0);
    });
    db.check_copies();
    std::printf("{\"list\": %.1f, \"same\": %.1f, \"checksum\": %ld}\n", list, same, sum);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kalah-probe-bench: %s\n", e.what());
    return 1;
  }
}
