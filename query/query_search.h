// query_search.h: the searching half of run() (query/query.h), for query.cpp: the value, the full
// analysis and the pie rule, in this process or over a transport's, with their checkpoints; and
// the move to play.
#pragma once

#include "query/query.h"

namespace kalah {

// Answers q by search (kAnalysis, kValue, kPie, kPieValue) into o, stopped by `stop`.
void search(const Query& q, const StopFlag* stop, Outcome& o);

// kMove: the move to play by q's deadline.
MoveChoice move_of(const Query& q, const StopFlag* stop);
// kMove at a weaker level (query/levels.h): every move's value (or estimate) by q's deadline, then
// one at random among those within the level's seeds of the best.
MoveChoice level_move(const Query& q, const StopFlag* stop);

}  // namespace kalah
