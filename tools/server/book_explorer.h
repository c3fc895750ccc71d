// book_explorer.h: /api/v1/book, the board's opening explorer over the book (kalah book build):
// whether a position is in the book, how deep the book goes from it, and from each move.
#pragma once

#include <string>

#include "game/rules.h"
#include "store/answer_store.h"

namespace kalah {

// position_json plus in_book, depth (the plies of book positions on the deepest line from p,
// p included: 0 outside the book) and moves (each legal pit 1..m with the depth from the
// position it leads to). Reads only the store's book records (no search): a store of null is
// an empty book.
std::string book_json(const Rules& rules, const Position& p, const AnswerStore* store);

}  // namespace kalah
