// cmd_kgp.cpp: `kalah kgp`, a Kalah Game Protocol client (freeplay mode) that plays kalah's moves.
#include "base/threads.h"
#include "tools/cli/cli.h"
#include "tools/cli/game_options.h"
#include "tools/kgp/kgp_client.h"

namespace kalah {
namespace {

constexpr CommandHelp kHelp = {
    "kgp",
    "kalah kgp [--host H] [--port P] [--time SECONDS] [--db DIR | --no-db] [--name N] "
    "[--token T] [--verify N]",
    "Connects to a Kalah Game Protocol server (KGP 1.x, as used by the FAU AI Kalah\n"
    "tournaments; spec in KWARC/kalah-game) and plays in freeplay mode: for each board the\n"
    "server sends, kalah answers 'move' as soon as its heuristic search has one, again whenever\n"
    "it improves, and 'yield' once the move is proven perfect (database or value search) or its\n"
    "--time is up, sending its final move again first with a comment (value, depth) that the\n"
    "server records; a 'stop' from the server ends the work on that board at once. Boards of\n"
    "any size are played; those beyond 8 pits a row or 255 seeds by the heuristic search alone.\n"
    "Rules are KGP's: standard capture, the game ends when a row is empty, the seeds left go to\n"
    "their row's owner. Ends on the server's 'goodbye' (exit 0), or when it closes the\n"
    "connection (exit 1). --verify N asks for verify mode instead: the server sends boards and\n"
    "moves, kalah answers each with the board after it, and says goodbye after N answers were\n"
    "judged (exit 1 if the server found one wrong).",
    "  kalah kgp --host kalah.example.org --port 2671 --time 3\n"
    "  kalah kgp --port 2671 --no-db --name my-reference\n"
    "  kalah kgp --port 2671 --verify 100\n"};

}  // namespace

int cmd_kgp(const std::vector<std::string>& args, bool check_only) {
  KgpOptions o;
  po::options_description desc("options");
  desc.add_options()("host", po::value(&o.host)->value_name("H"), "the server (default localhost)")(
      "port", po::value(&o.port)->value_name("P"), "its TCP port (default 2671)")(
      "time", po::value(&o.seconds)->value_name("SECONDS"),
      "the most time for one board, from its arrival; the server's 'stop' may come first "
      "(default 4: a margin under the common 5 s timeout)")(
      "name", po::value(&o.name)->value_name("N"), "the name told to the server (default kalah)")(
      "token", po::value(&o.token)->value_name("T"),
      "an auth:token, so that a tournament server knows the client again")(
      "verify", po::value(&o.problems)->value_name("N"),
      "verify mode: answer N of the server's problems (the board after a move), then leave");
  add_database_options(desc, o.database, "standard capture (KGP's rules)");
  add_threads_option(desc, o.threads);
  po::variables_map vm;
  if (!parse_command(kHelp, desc, nullptr, args, vm)) return kExitOk;
  check_range("--port", o.port, 1, 65535);
  check_range("--time", o.seconds, 0.01, 3600.0);
  if (vm.count("verify")) {
    check_range("--verify", o.problems, 1, 1000000000);
    o.verify = true;
  }
  if (o.database.no_db && !o.database.db.empty())
    throw UsageError("give --db or --no-db, not both");
  const ThreadLimit limit(o.threads);
  if (check_only) return kExitOk;
  return play_kgp(o) == KgpResult::kDone ? kExitOk : kExitFailure;
}

}  // namespace kalah
