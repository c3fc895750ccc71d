// engine: a tiny alpha-beta Kalah engine of its own (its own sowing, no table) that stops at a
// kalah endgame database, probing it at its leaves the way chess engines probe tablebases.
//   engine DIR POSITION ...    (DIR: kalah build --db DIR --pits 4 --max-seeds 8)
// Each POSITION is side-relative, "A/B" or "A/B/x,y"; the engine's value is checked against the
// library's own analysis. Exits 0 when they all agree.
#include <kalah/kalah.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>
#include <string>

namespace api = kalah::api;

class Engine {
 public:
  explicit Engine(const api::Database& db) : db_(db), rules_(db.rules()), m_(rules_.pits) {}

  // V of b: what the mover will still gain minus the opponent, searched within (alpha, beta).
  int search(const api::Board& b, int alpha, int beta) {
    ++nodes_;
    int mine = 0, theirs = 0;
    for (int i = 0; i < m_; ++i) mine += b.pits[i], theirs += b.pits[m_ + i];
    if (mine == 0 || (rules_.end == "immediate" && theirs == 0))
      return rules_.remainder == "owner" ? mine - theirs : 0;
    if (std::optional<int> v = db_.probe_board(b)) {  // the leaves: in the database
      ++probes_;
      return *v;
    }
    int best = -1000;
    for (int pit = 0; pit < m_ && alpha < beta; ++pit) {
      if (b.pits[pit] == 0) continue;
      api::Board child;
      int gain = 0;
      const bool again = play(b, pit, child, gain);
      const int v = again ? gain + search(child, alpha - gain, beta - gain)
                          : gain - search(child, gain - beta, gain - alpha);
      best = std::max(best, v);
      alpha = std::max(alpha, v);
    }
    return best;
  }
  long nodes() const { return nodes_; }
  long probes() const { return probes_; }

 private:
  // Sows `pit`; true on an extra turn. `child` is seen from whoever moves next.
  bool play(const api::Board& b, int pit, api::Board& child, int& gain) const {
    int bins[2 * 8 + 2] = {};  // the mover's pits, their store, the opponent's pits, their store
    for (int i = 0; i < m_; ++i) bins[i] = b.pits[i], bins[m_ + 1 + i] = b.pits[m_ + i];
    int hand = bins[pit], at = pit;
    bins[pit] = 0;
    while (hand > 0) {
      at = (at + 1) % (2 * m_ + 2);
      if (at != 2 * m_ + 1) ++bins[at], --hand;
    }
    if (at < m_ && bins[at] == 1 && (bins[2 * m_ - at] > 0 || rules_.capture == "empty")) {
      bins[m_] += 1 + bins[2 * m_ - at];
      bins[at] = bins[2 * m_ - at] = 0;
    }
    gain = bins[m_];
    const bool again = at == m_;
    for (int i = 0; i < m_; ++i) {
      child.pits[again ? i : m_ + i] = static_cast<uint8_t>(bins[i]);
      child.pits[again ? m_ + i : i] = static_cast<uint8_t>(bins[m_ + 1 + i]);
    }
    return again;
  }

  const api::Database& db_;
  const api::Rules rules_;
  const int m_;
  long nodes_ = 0, probes_ = 0;
};

// "A/B[/x,y]" -> board and stores.
static bool parse(const std::string& text, int m, api::Board& b, int& mine, int& theirs) {
  std::istringstream in(text);
  char sep = 0;
  mine = theirs = 0;
  for (int i = 0; i < 2 * m; ++i) {
    int v = -1;
    if (!(in >> v) || v < 0 || v > 255) return false;
    b.pits[i] = static_cast<uint8_t>(v);
    if (i + 1 < 2 * m && !(in >> sep)) return false;
  }
  if (in >> sep && !(in >> mine >> sep >> theirs)) return false;
  return true;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: engine DIR POSITION ...\n");
    return 2;
  }
  const api::Database db(argv[1], {.pits = 0, .capture = "standard"});
  Engine engine(db);
  int failures = 0;
  for (int i = 2; i < argc; ++i) {
    api::Board b;
    int mine = 0, theirs = 0;
    if (!parse(argv[i], db.rules().pits, b, mine, theirs)) {
      std::fprintf(stderr, "%s: not a side-relative position of %d pits\n", argv[i],
                   db.rules().pits);
      return 2;
    }
    const auto start = std::chrono::steady_clock::now();
    const long nodes = engine.nodes(), probes = engine.probes();
    const int value = mine - theirs + engine.search(b, -1000, 1000);
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const int library = db.analyse(argv[i]).value;
    std::printf("%s: %+d (engine: %ld nodes, %ld database probes, %.3f s); library %+d\n", argv[i],
                value, engine.nodes() - nodes, engine.probes() - probes, s, library);
    failures += value != library;
  }
  db.check_copies();  // no decoded copy changed under the probes
  return failures == 0 ? 0 : 1;
}
