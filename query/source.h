// source.h: where an answer came from (query/query.h's Outcome, query/move_choice.h's MoveChoice).
#pragma once

namespace kalah {

enum class Source { kDatabase, kStore, kSearch, kHeuristic };

// "database", "store", "search", "heuristic": the word answers use (docs/json.md).
constexpr const char* to_string(Source source) {
  constexpr const char* kWords[] = {"database", "store", "search", "heuristic"};
  return kWords[static_cast<int>(source)];
}

}  // namespace kalah
