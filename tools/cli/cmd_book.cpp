// cmd_book.cpp: `kalah book build`, the opening book: every position within K plies of a start,
// analysed and kept in the database's answer store (store/answer_store.h) for good; `kalah book
// list`, what the book holds.
#include <chrono>
#include <cstdio>
#include <functional>
#include <iostream>
#include <set>

#include "base/threads.h"
#include "base/units.h"
#include "db/file_names.h"
#include "game/notation.h"
#include "query/json_parts.h"
#include "query/query.h"
#include "tools/cli/cli.h"
#include "tools/cli/game_options.h"
#include "tools/cli/report.h"

namespace kalah {
namespace {

constexpr int kMaxPlies = 12;

struct BookOptions {
  GameOptions game;
  int plies = -1;
  bool json = false;
  int threads = 0;
};

constexpr CommandHelp kHelp = {
    "book",
    "kalah book build [--pits M] --seeds N [rule flags] --plies K [--db DIR] [--json]\n"
    "       kalah book list [--pits M] --seeds N [rule flags] [--plies K] [--db DIR] [--json]",
    "Builds the opening book of Kalah(M,N): every position within K plies of the start (a ply\n"
    "is one pit played, extra turns included) is analysed exactly (value, every move's value,\n"
    "best line) and kept in the answer store beside the database, DIR/answers, for good (the\n"
    "store's other answers are evicted when it is full, the book's never). Afterwards 'solve',\n"
    "'query', 'serve', 'play', the library and Python answer those positions in milliseconds.\n"
    "Positions the database holds are skipped (answered from it anyway), and so are positions\n"
    "already in the book: an interrupted build resumes where it stopped. Needs the database of\n"
    "the rules (kalah build); each position costs about one 'kalah solve' (docs/costs.md\n"
    "lists what each depth costs). 'list' prints the book's positions from the start (within K\n"
    "plies, else all): each one's moves, value and best turn.",
    "  kalah book build --seeds 4 --plies 2                Kalah(6,4), standard capture\n"
    "  kalah book build --seeds 3 --capture empty --plies 4\n"
    "  kalah book list --seeds 4                           what the Kalah(6,4) book holds\n"};

struct Entry {
  Position position;
  int ply;
  std::vector<Turn> record;
};

// Positions within `plies` of the start, breadth first, each once (the first record that
// reaches it); finished games left out, and with `keep`, the positions it refuses (and what
// lies beyond them).
std::vector<Entry> book_positions(const Rules& rules, const Position& start, int plies,
                                  const std::function<bool(const Position&)>& keep = {}) {
  std::vector<Entry> out;
  std::set<std::string> seen{format_absolute(start, rules.pits)};
  if (!is_terminal(rules, start.board) && (!keep || keep(start))) out.push_back({start, 0, {}});
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i].ply == plies) continue;
    for (int pit = 0; pit < rules.pits; ++pit) {
      if (!out[i].position.board.pits[pit]) continue;
      const Position next = apply(rules, out[i].position, pit);
      if (is_terminal(rules, next.board) ||
          !seen.insert(format_absolute(next, rules.pits)).second || (keep && !keep(next)))
        continue;
      Entry e{next, out[i].ply + 1, out[i].record};
      record_ply(e.record, out[i].position.mover, pit);
      out.push_back(std::move(e));
    }
  }
  return out;
}

// What happened to one position of the book: a line, or a JSON object.
void print_entry(const BookOptions& o, const Game& game, size_t index, size_t of, const Entry& e,
                 const char* what, const std::optional<StoredAnswer>& s, double elapsed) {
  if (o.json) {
    std::cout << variant_json("book", game.rules)
                     .add("event", "position")
                     .add("index", index + 1)
                     .add("of", of)
                     .add("ply", e.ply)
                     .add("moves", format_record(e.record))
                     .add("position", format_absolute(e.position, game.rules.pits))
                     .add("source", what)
                     .add("value", s ? s->analysis.value : 0)
                     .add("seconds", elapsed)
                     .str()
              << std::endl;
  } else if (s) {
    const auto& best = s->analysis.best_line;
    std::printf("[%zu/%zu] ply %d %-24s value %4s  %-8s  %.1f s%s%s\n", index + 1, of, e.ply,
                e.record.empty() ? "(start)" : format_record(e.record).c_str(),
                signed_number(s->analysis.value).c_str(), what, elapsed,
                best.empty() ? "" : "  best ",
                best.empty() ? "" : format_turn(best[0], e.position.mover).c_str());
    std::fflush(stdout);
  }
}

struct BookCounts {
  size_t positions = 0;
  int analysed = 0, kept = 0, in_database = 0;
  uint64_t nodes = 0;
  double seconds = 0;
};

void print_summary(const BookOptions& o, const Game& game, const BookCounts& n,
                   const AnswerStore& store) {
  const AnswerStore::Census c = store.census();
  if (o.json)
    std::cout << variant_json("book", game.rules)
                     .add("event", "done")
                     .add("positions", n.positions)
                     .add("analysed", n.analysed)
                     .add("kept", n.kept)
                     .add("in_database", n.in_database)
                     .add("nodes", n.nodes)
                     .add("seconds", n.seconds)
                     .add("book_positions", c.book)
                     .add("book_bytes", c.book_bytes)
                     .str()
              << std::endl;
  else
    std::printf(
        "book of %s within %d %s: %zu position%s (%d analysed, %d kept from before, %d in the "
        "database), %.1f s; the store holds %llu book position%s (%s) in %s\n",
        game.title.c_str(), o.plies, o.plies == 1 ? "ply" : "plies", n.positions,
        n.positions == 1 ? "" : "s", n.analysed, n.kept, n.in_database, n.seconds,
        static_cast<unsigned long long>(c.book), c.book == 1 ? "" : "s",
        human_bytes(c.book_bytes).c_str(), store.dir().c_str());
}

// The answer store the book is kept in; UsageError when it is off.
AnswerStore& book_store(const OpenedDatabase& database) {
  if (!database.store)
    throw UsageError("the book is kept in the answer store, which is off (KALAH_STORE=off)");
  return *database.store;
}

int build_book(const BookOptions& o, const Game& game) {
  const OpenedDatabase database = open_database(o.game.database, game.rules);
  if (!database.db)
    throw UsageError("no database of " + describe(game.rules) + " with " +
                     std::to_string(game.rules.pits) + " pits in " +
                     (o.game.database.db.empty() ? default_database_dir() : o.game.database.db) +
                     " to keep the book beside: build it first (kalah build)");
  AnswerStore& store = book_store(database);
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<Entry> entries = book_positions(game.rules, game.position, o.plies);
  BookCounts n;
  n.positions = entries.size();
  ProgressLine line;  // a position's search, on a terminal
  for (size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    const char* what;
    std::optional<StoredAnswer> s;
    if (seeds(e.position.board) <= database.db->max_seeds()) {
      ++n.in_database;
      what = "database";
    } else if ((s = store.find(e.position)) && s->book) {
      ++n.kept;
      what = "kept";
    } else {
      if (!s) {  // an answer solved before becomes the book's without a search
        Query q;
        q.rules = game.rules;
        q.position = e.position;
        database.attach(q);
        char index[48];
        std::snprintf(index, sizeof index, "[%zu/%zu] ", i + 1, entries.size());
        show_progress(q, line,
                      index + (e.record.empty() ? "(start)" : format_record(e.record)) + ": ");
        const Outcome out = run(q);
        line.clear();
        s = StoredAnswer{*out.analysis, out.nodes, out.seconds, false};
        n.nodes += out.nodes;
      }
      s->book = true;
      if (!store.put(e.position, *s))
        throw std::runtime_error("cannot write the book into " + store.dir());
      ++n.analysed;
      what = "analysed";
    }
    print_entry(o, game, i, entries.size(), e, what, s, seconds_since(t0));
  }
  n.seconds = seconds_since(t0);
  print_summary(o, game, n, store);
  return kExitOk;
}

// The book's positions from the start, through book positions only.
int list_book(const BookOptions& o, const Game& game) {
  const OpenedDatabase database = open_database(o.game.database, game.rules);
  const AnswerStore& store = book_store(database);
  // Each entry's record, read once, in the order kept; none for a book position whose record is
  // damaged, which the walk goes through (the positions beyond it are the book's all the same).
  std::vector<std::optional<StoredAnswer>> found;
  const auto in_book = [&](const Position& p) {
    std::optional<StoredAnswer> s = store.find(p);
    if (s && !s->book) s.reset();
    if (!s && !store.in_book(p)) return false;
    found.push_back(std::move(s));
    return true;
  };
  std::vector<Entry> entries =
      book_positions(game.rules, game.position, o.plies < 0 ? kMaxPlies : o.plies, in_book);
  std::vector<std::string> damaged;
  for (size_t i = 0, kept = 0; i < entries.size(); ++i) {
    if (!found[i]) {
      damaged.push_back(entries[i].record.empty() ? "(start)" : format_record(entries[i].record));
      continue;
    }
    if (kept != i) {
      entries[kept] = std::move(entries[i]);
      found[kept] = std::move(found[i]);
    }
    ++kept;
  }
  entries.resize(entries.size() - damaged.size());
  for (size_t i = 0; i < entries.size(); ++i)
    print_entry(o, game, i, entries.size(), entries[i], "book", found[i], 0);
  for (const std::string& record : damaged)
    std::fprintf(stderr,
                 "kalah book: the record of %s is damaged: 'kalah query --search' of "
                 "it, or 'kalah book build' again, writes it again\n",
                 record.c_str());
  if (o.json)
    std::cout << variant_json("book", game.rules)
                     .add("event", "done")
                     .add("positions", entries.size())
                     .str()
              << std::endl;
  else
    std::printf(
        "the book of %s holds %zu position%s%s in %s\n", game.title.c_str(), entries.size(),
        entries.size() == 1 ? "" : "s",
        o.plies < 0
            ? ""
            : (" within " + std::to_string(o.plies) + (o.plies == 1 ? " ply" : " plies")).c_str(),
        store.dir().c_str());
  return kExitOk;
}

}  // namespace

int cmd_book(const std::vector<std::string>& args, bool check_only) {
  BookOptions o;
  po::options_description desc("options");
  add_game_options(desc, o.game, DatabaseChoice::kRequired);
  desc.add_options()("plies", po::value(&o.plies)->value_name("K"),
                     "every position within K plies (pits played) of the start")(
      "json", po::bool_switch(&o.json), "one JSON object per position, then a summary");
  add_threads_option(desc, o.threads);
  std::string action;
  po::options_description hidden;
  hidden.add_options()("action", po::value(&action));
  po::positional_options_description positional;
  positional.add("action", 1);
  po::variables_map vm;
  if (!parse_command(kHelp, desc, &positional, args, vm, &hidden)) return kExitOk;
  if (action != "build" && action != "list")
    throw UsageError(action.empty()
                         ? "say what to do: kalah book build ... or kalah book list ..."
                         : "no book action '" + printable_input(action, 20) + "' (build or list)");
  if (vm.count("plies") && o.plies < 0)
    throw UsageError("--plies must be 0 or more, got " + std::to_string(o.plies));
  if (o.plies < 0 && action == "build") throw UsageError("give --plies K, how deep the book goes");
  if (o.plies >= 0) check_range("--plies", o.plies, 0, kMaxPlies);
  const ThreadLimit limit(o.threads);
  const Game game = resolve_game(o.game);
  if (check_only) return kExitOk;
  return action == "list" ? list_book(o, game) : build_book(o, game);
}

}  // namespace kalah
