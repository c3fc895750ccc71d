// book_explorer.cpp: the opening explorer's answer (tools/server/book_explorer.h).
#include "tools/server/book_explorer.h"

#include <algorithm>
#include <functional>
#include <map>

#include "game/notation.h"
#include "query/json_parts.h"

namespace kalah {

std::string book_json(const Rules& rules, const Position& p, const AnswerStore* store) {
  // A book is a few thousand positions at most (every position within K plies, K ≤ 6 or so);
  // each is looked at once.
  constexpr int kMaxDepth = 16;
  std::map<std::string, int> known;
  const std::function<int(const Position&, int)> depth = [&](const Position& q, int left) {
    if (!store || left == 0 || is_terminal(rules, q.board)) return 0;
    const std::string key = format_absolute(q, rules.pits);
    if (const auto it = known.find(key); it != known.end()) return it->second;
    if (!store->in_book(q)) return known[key] = 0;
    int below = 0;
    for (int pit = 0; pit < rules.pits; ++pit)
      if (q.board.pits[pit]) below = std::max(below, depth(apply(rules, q, pit), left - 1));
    return known[key] = 1 + below;
  };
  std::vector<JsonObject> moves;
  if (!is_terminal(rules, p.board))
    for (int pit = 0; pit < rules.pits; ++pit)
      if (p.board.pits[pit])
        moves.push_back(
            JsonObject().add("pit", pit + 1).add("depth", depth(apply(rules, p, pit), kMaxDepth)));
  const int here = depth(p, kMaxDepth);
  return position_json("serve", rules, p)
      .add("in_book", here > 0)
      .add("depth", here)
      .add("moves", moves)
      .str();
}

}  // namespace kalah
