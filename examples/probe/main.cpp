// probe: looks positions up in a kalah database, and checks what it prints against search.
//   probe DIR [POSITION ...]     (a database built by: kalah build --db DIR --pits 4 --max-seeds 8)
// Exits 0 when every check holds.
#include <kalah/kalah.h>

#include <cstdio>
#include <stdexcept>
#include <string>

namespace api = kalah::api;

static int failures = 0;
static void check(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "FAILED: %s\n", what.c_str());
    ++failures;
  }
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: probe DIR [POSITION ...]\n");
    return 2;
  }
  std::printf("kalah library %s\n", api::version().c_str());
  check(api::version() == KALAH_VERSION_STRING, "the library matches its headers");

  // Kalah(4,3) by search alone: +6 for the first player (docs/results.md).
  const api::Analysis start = api::solve({.pits = 4, .capture = "standard"}, 3);
  std::printf("Kalah(4,3): %+d (%s), best first turn %s\n", start.value, start.result.c_str(),
              start.best_line.at(0).c_str());
  check(start.value == 6, "Kalah(4,3) is +6");

  // The database: pits and layers from its files.
  const api::Database db(argv[1], {.pits = 0, .capture = "standard"});
  std::printf("database: %d pits, layers 1..%d\n", db.rules().pits, db.max_seeds());
  for (int i = 2; i < argc; ++i) {
    const std::optional<int> v = db.probe(argv[i]);
    if (!v) {
      std::printf("%s: not in the database\n", argv[i]);
      continue;
    }
    // The same value by search, which does not read the database.
    const api::Analysis a = api::analyse(db.rules(), argv[i]);
    std::printf("%s: %+d; search says %+d, best move %s\n", argv[i], *v, a.value,
                a.moves.empty() ? "-" : a.best_line.at(0).c_str());
    check(*v == a.value, std::string("database and search agree on ") + argv[i]);
  }
  try {
    db.probe("1,2,3");
    check(false, "a malformed position is refused");
  } catch (const std::invalid_argument& e) {
    std::printf("malformed position refused: %s\n", e.what());
  }
  return failures == 0 ? 0 : 1;
}
