// cmd_play.cpp: `kalah play`, a game against kalah in the terminal.
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>

#include "base/deadline.h"
#include "base/threads.h"
#include "game/game_record.h"
#include "game/notation.h"
#include "query/query.h"
#include "tools/cli/cli.h"
#include "tools/cli/game_options.h"
#include "tools/cli/play_support.h"

namespace kalah {
namespace {

struct PlayOptions {
  GameOptions game;
  std::string side = "S";
  std::string level = "strong";
  double seconds = 0;  // 0: the level's
  bool hints = false;
  int threads = 0;
};

constexpr CommandHelp kHelp = {
    "play",
    "kalah play [--pits M] [--seeds N | POSITION] [--moves RECORD] [rule flags] [--side S|N]\n"
    "           [--level LEVEL] [--time SECONDS] [--hints] [--db DIR | --no-db]",
    "Plays a game against kalah in the terminal, by default Kalah(6,4). You play South, who\n"
    "moves first from the start (--side N: North). Type a pit number, 1..M in your sowing order\n"
    "as the board shows it, to sow that pit, or a whole turn such as 3-6 (each pit but the last\n"
    "must give an extra turn); every move says when it captures or gives an extra turn. h for a\n"
    "hint (the best move kalah finds for you), u to take back your last move, q to stop. At\n"
    "--level perfect, strong or quick (30, 5 or 1 s a move, or --time) kalah plays perfectly\n"
    "where it proves a move's value in that time (always inside the database, and in small\n"
    "games), otherwise the best move of a search bounded by it, and says which; casual and\n"
    "beginner play a move at random among those within 3 or 8 seeds of the best (their values\n"
    "found in the same time). --hints: after each of your turns, how many seeds it gave away\n"
    "against the best. At the end it prints the result and the game record, which\n"
    "'kalah solve --moves' replays.",
    "  kalah play                                         Kalah(6,4), you move first\n"
    "  kalah play --pits 4 --seeds 3 --side N             Kalah(4,3), kalah moves first\n"
    "  kalah play --seeds 6 --time 10                     Kalah(6,6): 10 s a move\n"
    "  kalah play --level beginner --hints                an easy game, each mistake told\n"
    "  kalah play --pits 4 --seeds 3 --moves 'S:2-3 N:2'  go on from a record\n"};

Side parse_side(const std::string& text) {
  if (text == "S" || text == "s" || text == "South" || text == "south") return Side::kSouth;
  if (text == "N" || text == "n" || text == "North" || text == "north") return Side::kNorth;
  throw UsageError("--side must be S or N (the side you play), got '" + printable_input(text, 20) +
                   "'");
}

class Match {
 public:
  Match(const PlayOptions& o, Game game)
      : o_(o),
        game_(std::move(game)),
        user_(parse_side(o.side)),
        level_(parse_level(o.level)),
        seconds_(o.seconds > 0 ? o.seconds : level_.seconds),
        database_(open_database(o.game.database, game_.rules)),
        positions_{game_.position} {}

  int run() {
    const int m = game_.rules.pits;
    std::cout << "kalah play: " << game_.title << ", rules: " << describe(game_.rules)
              << "\nyou play " << side_name(user_) << "; kalah plays " << side_name(other(user_))
              << " at level " << level_.name << " (" << seconds_ << " s a move"
              << (level_.weaker()
                      ? ", within " + std::to_string(level_.within) + " seeds of the best)"
                      : ")")
              << (database_.db ? ", database layers 1.." + std::to_string(database_.db->max_seeds())
                               : "")
              << "\n";
    while (!is_terminal(game_.rules, now().board)) {
      std::cout << "\n" << draw(now(), m, user_, label(other(user_)), label(user_));
      if (now().mover != user_) {
        computer_move();
        continue;
      }
      if (!user_move()) break;
    }
    if (is_terminal(game_.rules, now().board)) print_result();
    std::cout << "record: " << format_record(record()) << "\n"
              << "replay: " << replay_command(!o_.game.position.empty(), game_, record()) << "\n";
    return kExitOk;
  }

 private:
  const Position& now() const { return positions_.back(); }
  std::string label(Side s) const {
    return std::string(side_name(s)) + (s == user_ ? " (you)" : " (kalah)");
  }
  std::vector<Turn> record() const {
    std::vector<Turn> turns = game_.record;
    for (const auto& [side, pit] : plies_) record_ply(turns, side, pit);
    return turns;
  }
  // Plays `pit` for the side to move and says what the move did beyond sowing: "extra turn",
  // "captures N" (the seeds taken, the capturing seed included).
  std::string play(int pit) {
    const int m = game_.rules.pits;
    const int sown = now().board.pits[pit];
    MoveResult r;
    plies_.push_back({now().mover, pit});
    positions_.push_back(apply(game_.rules, now(), pit, &r));
    // The seeds sown into the store: every (2m+1)-th from pit's own distance to it (docs/design.md
    // §1).
    const int to_store = m - pit, lap = 2 * m + 1;
    const int sown_in = sown < to_store ? 0 : (sown - to_store) / lap + 1;
    std::string said;
    if (r.capture) said = "captures " + std::to_string(r.gain - sown_in);
    if (r.extra_turn && !is_terminal(game_.rules, now().board))
      said += std::string(said.empty() ? "" : ", ") + "extra turn";
    return said;
  }

  // The rules, the database and the store of every question asked.
  Query base() const {
    Query q;
    q.rules = game_.rules;
    database_.attach(q);
    return q;
  }
  // kalah's move for the side to move within the level's time: at its level, or (a hint) the
  // best it finds.
  MoveChoice choose(bool at_level = true) const {
    Query q = base();
    q.position = now();
    q.ask = Ask::kMove;
    q.level = at_level ? &level_ : nullptr;
    q.deadline = seconds_from_now(seconds_);
    return *kalah::run(q).move;
  }

  void computer_move() {
    const Side me = now().mover;
    std::cout << "kalah is thinking..." << std::flush;
    const bool weaker = level_.weaker();
    const MoveChoice c = choose();
    std::cout << "\rkalah (" << side_name(me) << ") plays " << c.pit + 1;
    const std::string said = play(c.pit);
    std::cout << (said.empty() ? "" : ": " + said) << " ("
              << (weaker && c.best ? level_note(level_, c) : verdict(me, c, seconds_)) << ")\n";
  }

  // --hints: what the user's turn from `before` gave away against the best, in seeds. The value
  // after it is read first from the table of the position before its last pit (the database's
  // or the answer store's, such as the book's).
  void coach(const Position& before) const {
    const double half = seconds_ / 2;
    const Valued was = value_within(base(), before, half);
    Valued is = stored_move_value(base(), positions_[positions_.size() - 2], plies_.back().second);
    if (!is.proven) {
      is = value_within(base(), now(), half);
      if (now().mover != user_) is.value = -is.value;  // for the user
    }
    const int after = is.value;
    const bool proven = was.proven && is.proven;
    std::cout << "coach: ";
    if (was.value <= after)
      std::cout << "the best (" << signed_number(was.value);
    else
      std::cout << "that turn gave away " << (proven ? "" : "about ") << was.value - after
                << " seeds (" << signed_number(was.value) << " before it, " << signed_number(after)
                << " after it";
    std::cout << (proven ? ", proven)\n" : ", estimated)\n");
  }

  // Reads the user's command; false to stop (q or end of input).
  bool user_move() {
    for (;;) {
      std::cout << "your move, " << side_name(user_) << ": pit";
      for (int pit = 0; pit < game_.rules.pits; ++pit)
        if (now().board.pits[pit]) std::cout << " " << pit + 1;
      std::cout << "; h hint, u undo, q quit > " << std::flush;
      std::string line;
      if (!std::getline(std::cin, line)) {
        std::cout << "\n";
        return false;
      }
      const auto first = line.find_first_not_of(" \t\r");
      const std::string word = first == std::string::npos
                                   ? ""
                                   : line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
      if (word == "q" || word == "quit") return false;
      if (word == "h" || word == "hint") {
        const MoveChoice c = choose(false);
        std::cout << "hint: pit " << c.pit + 1 << " (" << verdict(user_, c, seconds_) << ")\n";
        continue;
      }
      if (word == "u" || word == "undo") {
        if (undo()) return true;
        std::cout << "nothing to undo\n";
        continue;
      }
      if (word.empty()) continue;  // an empty line: ask again
      const std::vector<int> turn = turn_of(word);
      const Position before = now();
      for (size_t i = 0; i < turn.size(); ++i) {
        const std::string said = play(turn[i]);
        std::cout << "you play " << turn[i] + 1 << (said.empty() ? "" : ": " + said) << "\n";
        // Between the pits of a typed turn the board is shown as after any extra turn.
        if (i + 1 < turn.size())
          std::cout << "\n"
                    << draw(now(), game_.rules.pits, user_, label(other(user_)), label(user_));
      }
      if (turn.empty()) continue;
      if (o_.hints) coach(before);
      return true;
    }
  }

  // The pits (0-based) of the turn `word` names, "3" or a whole turn "3-6" whose every pit but
  // the last gives an extra turn; none after saying why: the input shown escaped and cut short
  // (it may hold control bytes), and what was expected.
  std::vector<int> turn_of(const std::string& word) const {
    std::string shown = printable_input(word, 20);
    shown.insert(shown.begin(), '\'');  // not "'" + ...: GCC 12 warns falsely (-Wrestrict)
    shown += '\'';
    std::string legal;
    for (int pit = 0; pit < game_.rules.pits; ++pit) {
      if (!now().board.pits[pit]) continue;
      if (!legal.empty()) legal += ' ';
      legal += std::to_string(pit + 1);
    }
    const std::string expected = "type a pit with seeds (" + legal + "), h, u or q";
    std::vector<int> pits;
    try {
      pits = parse_turn(word, game_.rules.pits, shown);
    } catch (const std::invalid_argument&) {
      std::cout << shown << " is not a pit; " << expected << "\n";
      return {};
    }
    // Checked on a copy (game/game_record.h), so that a turn that cannot be played leaves the
    // game as it was.
    const TurnPlayed played = play_turn(game_.rules, now(), pits);
    const size_t i = played.at;
    if (played.fault == TurnFault::kEmpty)
      std::cout << "pit " << pits[i] + 1 << " is empty"
                << (i ? " after " + format_turn(pits, i) : "") << "; " << expected << "\n";
    else if (played.fault != TurnFault::kNone)
      std::cout << format_turn(pits, i) << " ends the turn: " << shown << " cannot be played; "
                << expected << "\n";
    return played.fault == TurnFault::kNone ? pits : std::vector<int>{};
  }
  // The first n pits of a turn as the record writes them, "3-6".
  static std::string format_turn(const std::vector<int>& pits, size_t n) {
    return kalah::format_turn(std::vector<int>(pits.begin(), pits.begin() + n));
  }

  // Takes back the user's last pit and kalah's answers to it.
  bool undo() {
    size_t n = plies_.size();
    while (n > 0 && plies_[n - 1].first != user_) --n;
    if (n == 0) return false;
    plies_.resize(n - 1);
    positions_.resize(n);
    return true;
  }

  void print_result() const {
    const Position& p = now();
    const int m = game_.rules.pits;
    const bool keep = game_.rules.remainder == Remainder::kOwner;
    const int left_mover = mover_seeds(p.board, m), left_opponent = opponent_seeds(p.board, m);
    const bool south_moves = p.mover == Side::kSouth;
    // The sweep: the seeds left on each row go to its owner (or out of the game).
    if (left_mover + left_opponent) {
      const int left_south = south_moves ? left_mover : left_opponent;
      const int left_north = left_mover + left_opponent - left_south;
      std::cout << "the seeds left on the board " << (keep ? "go to their owners" : "are discarded")
                << ": South's row " << left_south << ", North's row " << left_north << "\n";
    }
    const int mover = p.mover_store + (keep ? left_mover : 0);
    const int opponent = p.opponent_store + (keep ? left_opponent : 0);
    const int south = south_moves ? mover : opponent;
    const int north = mover + opponent - south;
    std::cout << "game over: South " << south << ", North " << north << ": ";
    if (south == north)
      std::cout << "a draw\n";
    else
      std::cout << label(south > north ? Side::kSouth : Side::kNorth) << " wins by "
                << std::abs(south - north) << "\n";
  }

  const PlayOptions& o_;
  Game game_;
  Side user_;
  const Level& level_;
  double seconds_;
  OpenedDatabase database_;
  std::vector<Position> positions_;          // positions_[k] after k plies of this game
  std::vector<std::pair<Side, int>> plies_;  // played here, after game_.record
};

}  // namespace

int cmd_play(const std::vector<std::string>& args, bool check_only) {
  PlayOptions o;
  po::options_description desc("options");
  add_game_options(desc, o.game);
  desc.add_options()("side", po::value(&o.side)->value_name("S|N"),
                     "the side you play (default S, South, who moves first from the start)")(
      "level", po::value(&o.level)->value_name("LEVEL"),
      "perfect, strong (the default), quick, casual or beginner")(
      "time", po::value(&o.seconds)->value_name("SECONDS"),
      "kalah's time for a move and a hint (default: the level's, 30, 5 or 1)")(
      "hints", po::bool_switch(&o.hints), "after each of your turns, the seeds it gave away");
  add_threads_option(desc, o.threads);
  po::positional_options_description positional;
  positional.add("position", 1);
  po::variables_map vm;
  if (!parse_command(kHelp, desc, &positional, args, vm)) return kExitOk;
  if (vm.count("time")) check_range("--time", o.seconds, 0.01, 3600.0);
  parse_side(o.side);
  parse_level(o.level);
  const ThreadLimit limit(o.threads);
  Game game = resolve_game(o.game, 4);
  if (check_only) return kExitOk;
  return Match(o, std::move(game)).run();
}

}  // namespace kalah
