// kalah.h: the kalah library. Perfect-play values of Kalah positions, from endgame databases
// built by `kalah build` and from search.
//
//   #include <kalah/kalah.h>
//   kalah::api::Database db("/data/kalah", {.pits = 0, .capture = "empty"});
//   std::optional<int> v = db.probe("0,0,2,1,0,0/1,2,3,2,0,0/15,14");  // margin, stores included
//   kalah::api::Analysis a = kalah::api::solve({.pits = 4, .capture = "standard"}, 3);  // +6
//
// Link with kalah::kalah (find_package(kalah CONFIG)) or `pkg-config --libs kalah`.
//
// Positions are text, as on the command line: side-relative "A/B[/x,y]" (the mover's pits in
// sowing order, the opponent's, then the two stores, mover's first) or absolute (2m+2 bins
// counter-clockwise and S or N for the side to move). A value is the final margin, own store
// minus the opponent's, for the player to move under perfect play, stores included.
//
// Errors: std::invalid_argument for bad input (a malformed position, unknown rule names, a
// position whose pit count differs from the database's, a directory without layers of the
// rules), with the command line's message; std::runtime_error for a database that cannot be
// read or is damaged.
//
// Stopping: a search ends early when its `stop` flag is set (from any thread) or its
// Options::timeout runs out; either way the Analysis holds the bounds proven (exact = false,
// `stopped` says which), never an exception.
//
// Thread safety: a Database may be shared; all its const member functions may be called from
// any number of threads at once. The free functions and Position are thread-safe; solve() and
// analyse() use every core unless Options::threads says otherwise.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kalah/version.h"

#if defined(KALAH_BUILDING_LIBRARY)
#define KALAH_API __attribute__((visibility("default")))
#else
#define KALAH_API
#endif

namespace kalah::api {

// "0.1.0", the version of the library (KALAH_VERSION_STRING is the headers').
KALAH_API std::string version();

// The directory the command line uses when --db is not given: $KALAH_DB, else
// ${XDG_CACHE_HOME:-$HOME/.cache}/kalah/db.
KALAH_API std::string default_directory();

// A rule variant, with the command line's names for each rule (docs/design.md §1).
struct Rules {
  int pits = 6;                      // per row, 1..8; for a Database, 0 = read it from the files
  std::string capture = "standard";  // "standard" or "empty"
  std::string end = "immediate";     // "immediate" or "on-turn"
  std::string remainder = "owner";   // "owner" or "discard"
  bool operator==(const Rules&) const = default;
};

// How far a search has come (Options::progress).
struct Progress {
  double seconds = 0;           // since the call began
  uint64_t nodes = 0;           // searched so far
  int lower = 0, upper = 0;     // proven on the final margin for the player to move
  int done = 0, total = 0;      // a full analysis: moves valued exactly, of all (fair(): candidates
                                // settled, or certificates written, of all)
  std::optional<int> estimate;  // the heuristic's estimate of the final margin, within the bounds
  int estimate_depth = 0;       // the plies it looked ahead
  std::string json;             // this report as one line of JSON (docs/json.md, "progress")
};

// What solve() and analyse() find.
enum class Question {
  analysis,  // the value, every move's value and a best line
  value,     // the value alone: no move values or line, far less work in big games
  pie,       // the pie rule: after the mover's first turn the opponent may swap sides; every
             // opening's value and the best one (Analysis::openings)
};

// How solve() and analyse() work.
struct Options {
  int threads = 0;  // worker threads of this call (a oneTBB arena); 0 = every core
  Question ask = Question::analysis;  // what is found
  double timeout = 0;  // seconds, 0 or infinity = none: when they run out the search stops and
                       // the Analysis holds the bounds proven (exact = false)
  // Called as a search proves bounds and as its estimate improves, and every 0.5 s while it
  // runs (the nodes so far), from kalah's threads, one call at a time; it should return
  // quickly. A search with progress or a timeout also runs the heuristic search beside it (an
  // estimate within 150 ms), whose last estimate a stopped Analysis holds.
  std::function<void(const Progress&)> progress = {};
};

// How fair() works.
struct FairOptions {
  int moved = 2;             // candidates within this many seeds moved from the start (1..3)
  bool exact = false;        // every candidate's value, not only its sign (about 9 times slower)
  int threads = 0;           // worker threads of this call (a oneTBB arena); 0 = every core
  double timeout = 0;        // seconds, 0 or infinity = none: the candidates settled by then
  std::string checkpoint;    // a directory: keep each settled candidate there, resume from it
  std::string certificates;  // a directory: prove each fair start's value 0 by a certificate
  // Told, one call at a time, as each candidate is settled (`done` of `total`) and each
  // certificate written; `json` is `kalah fair --progress --json`'s line (docs/json.md).
  std::function<void(const Progress&)> progress = {};
};

// A board for probing inside a search, without text: pits[0..m) are the mover's pits in sowing
// order, pits[m..2m) the opponent's in theirs, the rest 0. Stores are not part of a board: play
// never depends on them, and a board's value V is what the mover will still add to their store
// minus what the opponent will (a position's value is its stores' difference plus V).
struct Board {
  uint8_t pits[16] = {};
  bool operator==(const Board&) const = default;
};

// A position of a game under its rules, for playing through games: legal moves, the position
// each leads to, the end of the game. A small value type (32 bytes); every call is cheap (no
// search, no database).
class KALAH_API Position {
 public:
  // The start of Kalah(rules.pits, seeds): South to move, empty stores.
  static Position start(const Rules& rules, int seeds);
  // Either notation (see above); rules.pits = 0 takes the pit count from the text.
  static Position parse(const std::string& text, const Rules& rules = {.pits = 0});

  Rules rules() const;
  const Board& board() const { return board_; }  // the mover's pits first
  int mover_store() const { return stores_[0]; }
  int opponent_store() const { return stores_[1]; }
  char mover() const { return mover_; }  // 'S' (South, who moves first) or 'N'
  // The mover's pits (1..m, sowing order) that hold seeds; none once the game is over.
  std::vector<int> legal_moves() const;
  // The position after sowing `pit` (1..m): the same player again after an extra turn (the last
  // seed in their store), the opponent otherwise. Throws std::invalid_argument for a pit that is
  // not a legal move.
  Position play(int pit) const;
  // Whether the game has ended (the end rule: a row empty, or the mover's).
  bool is_over() const;
  // The mover's store minus the opponent's; once the game is over, with the seeds left on the
  // board counted by the remainder rule: the final margin, what a value predicts.
  int score() const;
  std::string str() const;       // side-relative, "A/B/x,y"
  std::string absolute() const;  // 2m+2 bins and S or N
  bool operator==(const Position&) const = default;

 private:
  friend struct PositionAccess;
  // 32 bytes: a Position in an engine's loop (or a Python object's) is one cache line.
  Board board_;
  int stores_[2] = {0, 0};
  char mover_ = 'S';
  uint8_t pits_ = 6;
  uint8_t rules_[3] = {0, 0, 0};  // capture, end, remainder, as the library codes them
};

// One opening under the pie rule (Options::pie).
struct Opening {
  std::string turn;      // the first player's whole first turn, e.g. "S:3-6"
  int value = 0;         // final margin for the first player if the opponent did not swap
  bool swapped = false;  // the opponent swaps (value > 0): the first player then gets -value
};

// One legal move of an analysed position.
struct Move {
  int pit = 0;           // 1..m, in the mover's sowing order
  int value = 0;         // final margin for the player to move after this move and best play
  std::string result;    // "win", "draw" or "loss"
  std::string turn;      // the whole turn with its best extra moves, e.g. "S:3-6-1"
  std::string position;  // where this pit leads, side-relative (for the player then to move)
  std::string absolute;  // the same, absolute
};

// A position's perfect-play analysis.
struct Analysis {
  std::string position;  // side-relative
  std::string absolute;
  int value = 0;                // final margin for the player to move (exact: see below)
  bool exact = true;            // false when the search was stopped first: the value
  int lower = 0, upper = 0;     //   lies in [lower, upper] (value = lower); else both are it
  std::string stopped;          // why not exact: "stop" (the flag) or "deadline" (timeout)
  std::optional<int> estimate;  // not exact, with progress or a timeout: the heuristic's
  int estimate_depth = 0;       //   estimate of the final margin and its depth, and the
  std::vector<std::string> estimate_line;  // turns it expects from here, "S:3-6" (not proven)
  std::string result;                      // "win", "draw" or "loss"
  bool finished = false;                   // the game is already over
  std::vector<Move> moves;                 // every legal move, by pit
  std::vector<std::string> best_line;      // turns to the end, sided as records are: "S:3-6"
  std::vector<Opening> openings;           // Options::pie: every opening (value: the pie rule's)
  std::string best_opening;                // Options::pie: the first opening reaching the value
  std::string source;                      // "database", "store", "search" or "bounds" (stopped)
  uint64_t nodes = 0;                      // search nodes or database look-ups
  uint64_t probes = 0;                     // database probes
  double seconds = 0;
  std::string json;  // this answer as one line of JSON, as `kalah solve --json` (docs/json.md)
};

// The endgame database of one rule variant in a directory (`kalah build --db DIR`).
class KALAH_API Database {
 public:
  // Opens every layer of `rules` in `directory`; rules.pits = 0 takes the pit count from the
  // files (refused if they hold several). `cache_mb` caps the decoded blocks held in memory;
  // 0, the default, is what a search uses: half the machine's memory, so that a database that
  // fits is resident (its decoded copies mapped, written on first use: 1 byte a board of disk)
  // and probed without locks or decoding. A smaller cache decodes a 64 KiB block per miss.
  // `store`: analyses found by search are kept in, and read from, the answer store beside the
  // database (DIR/answers, under the user's key: docs/design.md §7); false keeps none.
  explicit Database(const std::string& directory, const Rules& rules = {}, size_t cache_mb = 0,
                    bool store = true);
  ~Database();
  Database(Database&&) noexcept;
  Database& operator=(Database&&) noexcept;

  Rules rules() const;
  int max_seeds() const;  // the top layer: boards with up to this many seeds are held

  // The value of a position (stores included), or nothing when it has more seeds on its pits
  // than the top layer.
  std::optional<int> probe(const std::string& position) const;
  // The same without text; a position of other rules than the database's is invalid_argument.
  // Both check, after the probe, that the layer file read was not written to since the database
  // was opened (one fstat, a few hundred ns; std::runtime_error when it was).
  std::optional<int> probe(const Position& position) const;
  // V of `board`, or nothing when it has more seeds than the top layer: the probe to call inside
  // a search, at its leaves (like Fathom's tb_probe_wdl), where probe() and analyse() are root
  // calls (tb_probe_root). No text, no allocation; with the database resident (it fits half the
  // memory: a decoded copy mapped, docs/design.md §6) no lock either: a load of the block's
  // state and one of the value, where probe() parses text and checks every decoded copy per
  // call (docs/costs.md has the figures). The first probe of each block also checks
  // it (a 64 KiB hash). Thread-safe. A board with seeds beyond pit 2m throws
  // std::invalid_argument. Unlike probe(), it does not check after each call that no decoded
  // copy was changed under the process: call check_copies() once the search that used it is
  // over.
  std::optional<int> probe_board(const Board& board) const;
  // Throws std::runtime_error when a decoded copy of a layer was changed (written or truncated)
  // under this process since the database was opened: values read since may be wrong. One
  // fstat per layer.
  void check_copies() const;
  // Every move's value and a best line: from the database, or by a search that ends at it when
  // the position is above the top layer. Setting *stop (from any thread) ends a search early,
  // with the bounds proven.
  Analysis analyse(const std::string& position, const std::atomic<bool>* stop = nullptr,
                   const Options& options = {}) const;
  // The same without text; a position of other rules than the database's is invalid_argument.
  Analysis analyse(const Position& position, const std::atomic<bool>* stop = nullptr,
                   const Options& options = {}) const;

 private:
  friend KALAH_API Analysis analyse(const Rules&, const std::string&, const Database*,
                                    const std::atomic<bool>*, const Options&);
  friend KALAH_API Analysis solve(const Rules&, int, const Database*, const std::atomic<bool>*,
                                  const Options&);
  friend KALAH_API std::string fair(const Rules&, int, const Database*, const std::atomic<bool>*,
                                    const FairOptions&);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Analyses any position: from `db` when it holds the position, else by search (on all cores)
// ending at `db` when given (same rules). rules.pits = 0 takes the pit count from the position.
// Setting *stop (from any thread) ends the search early, as a timeout does: the Analysis holds
// the bounds proven. `kalah solve POSITION`.
KALAH_API Analysis analyse(const Rules& rules, const std::string& position,
                           const Database* db = nullptr, const std::atomic<bool>* stop = nullptr,
                           const Options& options = {});
// Solves the start position of Kalah(rules.pits, seeds): `kalah solve --seeds N`.
KALAH_API Analysis solve(const Rules& rules, int seeds, const Database* db = nullptr,
                         const std::atomic<bool>* stop = nullptr, const Options& options = {});

// The fair starts of Kalah(rules.pits, seeds) as Neller's FairKalah defines them: every position
// within options.moved seeds moved from the start, one at a time from a pit to any other pit or
// store, South to move, settled as worth 0 (fair), less or more. Returns `kalah fair --json`'s
// object as one line (docs/json.md): `candidates`, `settled` (fewer when stopped or timed out),
// `fair`, `values`. `db` (same rules) ends the searches; a bigger database pays
// (docs/results.md, "Fair starts").
KALAH_API std::string fair(const Rules& rules, int seeds, const Database* db = nullptr,
                           const std::atomic<bool>* stop = nullptr,
                           const FairOptions& options = {});

}  // namespace kalah::api
