// cmd_query.cpp: `kalah query`, looking positions up in a database.
#include <iostream>
#include <map>
#include <memory>

#include "base/threads.h"
#include "db/database.h"
#include "game/game_record.h"
#include "game/notation.h"
#include "query/json_parts.h"
#include "query/query.h"
#include "tools/cli/cli.h"
#include "tools/cli/report.h"

namespace kalah {
namespace {

struct QueryOptions {
  std::string dir;
  int pits = 0;  // 0: from each position
  RuleFlags rule_flags;
  std::vector<std::string> positions;
  std::string moves;  // a game record played from each position first
  bool json = false;
  bool search = false;
  bool keep_going = false;
  int64_t cache_mb = 256;
  bool no_store = false;
  int threads = 0;
};

constexpr CommandHelp kHelp = {
    "query",
    "kalah query [--db DIR] [rule flags] [--json] [--search] [--keep-going] [POSITION ...]",
    "Looks positions up in a database built by 'kalah build': for each, the board, its value\n"
    "(final margin for the player to move, stores included), win/draw/loss, every move's value\n"
    "and the best line to the end of the game, all from database probes. Positions come as\n"
    "arguments or, with none, one per line on standard input (blank lines and lines starting\n"
    "with # are skipped). A position with more seeds on its pits than the database's top layer\n"
    "is answered from the answer store beside the database (the opening book, 'kalah book', and\n"
    "what searches kept) when it holds it, else refused unless --search is given, which solves\n"
    "it by search instead.",
    "  kalah query --db db 0,3,1,2,0,0/0,1,2,0,0,4/20,17\n"
    "  kalah query --db db --capture empty --json < positions.txt\n"
    "  kalah query --db db --search 4,4,4,4,4,4/4,4,4,4,4,4\n"
    "  kalah query --db db --search --moves 'S:3-6 N:2' 4,4,4,4,4,4/4,4,4,4,4,4\n"};

class Querier {
 public:
  explicit Querier(const QueryOptions& o) : o_(o) {}

  // Answers one position; throws on bad input or database errors.
  void ask(const std::string& text) {
    const ParsedPosition parsed = parse_position(text, o_.pits);
    const Rules rules = make_rules(parsed.pits, o_.rule_flags);
    const Position p = replay(rules, parsed.position, parse_record(o_.moves, parsed.pits));
    Query q;
    q.rules = rules;
    q.position = p;
    open(q);
    const int s = seeds(p.board);
    if (s > q.db->max_seeds() && !o_.search && !(q.store && q.store->find(p)))
      throw UsageError("position '" + printable_input(text) + "' has " + std::to_string(s) +
                       " seeds on the pits; the database holds up to " +
                       std::to_string(q.db->max_seeds()) + " (add --search to solve it by search)");
    // Above the database: on all cores, as `solve` does, the database ending the search.
    ProgressLine line;
    show_progress(q, line);
    const Outcome out = run(q);
    line.clear();
    if (o_.json) {
      std::cout << outcome_json("query", out).str() << "\n";
    } else {
      const std::string title = "a position of " + std::to_string(rules.pits) + "-pit Kalah";
      print_heading(std::cout, o_.moves.empty() ? title : title + " after " + o_.moves, rules, p);
      print_outcome(std::cout, out);
    }
    std::cout.flush();
  }

 private:
  // The database of q's pit count, opened once, and the answer store beside it.
  void open(Query& q) {
    auto& [db, store] = open_[q.rules.pits];
    if (!db) {
      db = std::make_unique<Database>(
          o_.dir, q.rules,
          o_.search ? Database::search_cache_bytes() : static_cast<size_t>(o_.cache_mb) << 20);
      if (!o_.no_store) store = open_answer_store(o_.dir, q.rules);
    }
    q.db = db.get();
    q.store = store.get();
  }

  const QueryOptions& o_;
  std::map<int, std::pair<std::unique_ptr<Database>, std::unique_ptr<AnswerStore>>> open_;
};

bool blank_or_comment(const std::string& line) {
  const auto first = line.find_first_not_of(" \t\r");
  return first == std::string::npos || line[first] == '#';
}

}  // namespace

int cmd_query(const std::vector<std::string>& args, bool check_only) {
  QueryOptions o;
  po::options_description desc("options");
  add_db_option(desc, o.dir, "database directory");
  desc.add_options()("pits", po::value(&o.pits)->value_name("M"),
                     "require positions with M pits per row")(
      "position", po::value(&o.positions)->value_name("POS"), "a position (repeatable)")(
      "moves", po::value(&o.moves)->value_name("RECORD"),
      "play a game record from each position first, e.g. 'S:3-6 N:2-1'")(
      "json", po::bool_switch(&o.json), "one JSON object per position, one per line")(
      "search", po::bool_switch(&o.search),
      "solve positions above the database's top layer by search")(
      "keep-going", po::bool_switch(&o.keep_going),
      "report a bad position (as {\"input\", \"error\"} with --json) and go on; the exit "
      "status still tells")("cache-mb",
                            po::value(&o.cache_mb)->default_value(o.cache_mb)->value_name("MB"),
                            "block cache size in MiB")(
      "no-store", po::bool_switch(&o.no_store),
      "with --search: neither read nor keep searched answers in the answer store beside the "
      "database");
  add_threads_option(desc, o.threads);
  add_rule_options(desc, o.rule_flags);
  po::positional_options_description positional;
  positional.add("position", -1);
  po::variables_map vm;
  if (!parse_command(kHelp, desc, &positional, args, vm)) return kExitOk;
  if (vm.count("pits")) make_rules(o.pits, o.rule_flags);  // refuses pits out of range
  check_range<int64_t>("--cache-mb", o.cache_mb, 1, 1 << 20);
  const ThreadLimit limit(o.threads);
  if (check_only) return kExitOk;

  Querier querier(o);
  int status = kExitOk;
  auto one = [&](const std::string& text) {
    if (!o.keep_going) return querier.ask(text);
    try {
      querier.ask(text);
    } catch (const std::exception& e) {
      const bool input =
          dynamic_cast<const std::invalid_argument*>(&e) || dynamic_cast<const UsageError*>(&e);
      status = input ? kExitUsage : std::max(status, kExitFailure);
      if (o.json)
        std::cout
            << kalah_json("query").add("input", printable_input(text)).add("error", e.what()).str()
            << std::endl;
      else
        std::cerr << "kalah query: " << e.what() << std::endl;
    }
  };
  if (!o.positions.empty()) {
    for (const auto& p : o.positions) one(p);
  } else {
    std::string line;
    while (std::getline(std::cin, line))
      if (!blank_or_comment(line)) one(line);
  }
  return status;
}

}  // namespace kalah
