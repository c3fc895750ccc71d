// frontier_analysis.h: value_parallel and analyse_parallel (parallel/parallel_search.h) over a
// search spread over processes (parallel/frontier_search.h): the same answers, from the jobs the
// transport's processes run.
#pragma once

#include "parallel/frontier_search.h"

namespace kalah {

// The setup's table_bytes is unused: the transport's slots have the tables. Its checkpoint keeps
// the DAG's bounds, saved between tests and a test's rounds (the manager's state is its own: no
// search pauses) and at the end; progress is reported after each test and every second. `stats`, if
// given, gets the search's counts before each progress call and at the end.
SearchResult value_frontier(const SearchSetup& setup, const Position& p, JobTransport& transport,
                            const FrontierOptions& options, FrontierStats* stats = nullptr);
SearchResult analyse_frontier(const SearchSetup& setup, const Position& p, JobTransport& transport,
                              const FrontierOptions& options, FrontierStats* stats = nullptr);

}  // namespace kalah
