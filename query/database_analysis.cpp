// database_analysis.cpp: see database_analysis.h.
#include "query/database_analysis.h"

namespace kalah {

Analysis analyse(const Database& db, const Position& p, uint64_t& lookups) {
  return analyse(db.rules(), p, [&](const Board& b) {
    ++lookups;
    return *db.probe(b);  // every board reached has at most p's seeds
  });
}

}  // namespace kalah
