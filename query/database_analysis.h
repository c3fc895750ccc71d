// database_analysis.h: the analysis of a position from a database's values alone (every move's
// value and a best line, solver/analysis.h), here above both so that the prober (db/) knows
// nothing of the search.
#pragma once

#include <cstdint>

#include "db/database.h"
#include "solver/analysis.h"

namespace kalah {

// Every move's value and a best line of p, which has at most db.max_seeds() seeds on its pits;
// `lookups` counts the probes.
Analysis analyse(const Database& db, const Position& p, uint64_t& lookups);

}  // namespace kalah
