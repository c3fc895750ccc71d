// main.cpp: the kalah executable: dispatches to a subcommand and maps failures to exit codes.
#include <boost/program_options.hpp>
#include <cstring>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "kalah/version.h"
#include "tools/cli/cli.h"

namespace {

struct Command {
  const char* name;
  const char* summary;
  int (*run)(const std::vector<std::string>&, bool);
};

const Command kCommands[] = {
    {"solve",
     "exact value of a start position or of any position, with every move and the best line",
     kalah::cmd_solve},
    {"build",
     "build or resume an endgame database: every board up to S seeds, by retrograde analysis",
     kalah::cmd_build},
    {"query", "look positions up in a database: value, every move, best line", kalah::cmd_query},
    {"info", "describe a database directory: variants, layers, sizes, win/draw/loss counts",
     kalah::cmd_info},
    {"verify", "check a database: checksums, values against their children and the solver",
     kalah::cmd_verify},
    {"bench", "fixed workloads printing build, probe and search throughput and signatures",
     kalah::cmd_bench},
    {"book", "build the opening book: every position within K plies analysed and kept for good",
     kalah::cmd_book},
    {"fair", "the fair starts of Kalah(M,N): positions a seed or two from the start that draw",
     kalah::cmd_fair},
    {"play", "a game against kalah in the terminal: perfect where proven, hints, undo, the record",
     kalah::cmd_play},
    {"kgp", "play on a Kalah Game Protocol server (KGP 1.x freeplay), e.g. in AI tournaments",
     kalah::cmd_kgp},
    {"serve", "an analysis board in the browser and an HTTP API over the databases and search",
     kalah::cmd_serve},
};

void print_help() {
  std::cout << "kalah: perfect play for Kalah(m,n), the two-row mancala game.\n\n"
               "usage: kalah COMMAND [options]      kalah help COMMAND      kalah COMMAND --help\n"
               "       kalah --version\n\n"
               "commands:\n";
  for (const auto& c : kCommands)
    std::cout << "  " << c.name << std::string(8 - std::strlen(c.name), ' ') << c.summary << "\n";
  std::cout
      << "\nPositions are written side-relative, 'A/B[/x,y]': the pits of the player to move\n"
         "in their sowing order, the opponent's pits in theirs, then the two stores\n"
         "(e.g. 4,4,4,4,4,4/4,4,4,4,4,4/0,0), or as 2m+2 bins counter-clockwise from South's\n"
         "first pit with the side to move: 4,4,4,4,4,4,0,4,4,4,4,4,4,0,S.\n"
         "Values are final margins (own store minus opponent's) for the player to move.\n"
         "Databases are read from and built into --db DIR, by default $KALAH_DB, else\n"
         "${XDG_CACHE_HOME:-~/.cache}/kalah/db. Every command but play and kgp takes\n"
         "--json: one JSON object per answer (docs/json.md).\n"
         "Exit status: 0 success, 2 bad usage or input, 1 other failure, 130 interrupted.\n";
}

const Command* find(const std::string& name) {
  for (const auto& c : kCommands)
    if (name == c.name) return &c;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {  // a short usage on stderr: the full help is asked for
    std::cerr << "usage: kalah COMMAND [options]   (commands:";
    for (const auto& c : kCommands) std::cerr << " " << c.name;
    std::cerr << "; 'kalah help' for more, 'kalah --version')\n";
    return kalah::kExitUsage;
  }
  if (args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    if (args.size() >= 2 && find(args[1])) return find(args[1])->run({"--help"}, false);
    if (args.size() >= 2) {
      std::cerr << "kalah: no command '" << args[1] << "'; see 'kalah help'\n";
      return kalah::kExitUsage;
    }
    print_help();
    return kalah::kExitOk;
  }
  if (args[0] == "--version") {
    std::cout << "kalah " << KALAH_VERSION_STRING;
    if (*KALAH_COMMIT) std::cout << " (" << KALAH_COMMIT << ")";
    std::cout << "\n";
    return kalah::kExitOk;
  }
  const Command* cmd = find(args[0]);
  if (!cmd) {
    std::cerr << "kalah: no command '" << args[0] << "'; see 'kalah help'\n";
    return kalah::kExitUsage;
  }
  const std::string who = std::string("kalah ") + cmd->name + ": ";
  try {
    return cmd->run(std::vector<std::string>(args.begin() + 1, args.end()), false);
  } catch (const boost::program_options::error& e) {
    std::cerr << who << e.what() << " (see 'kalah " << cmd->name << " --help')\n";
    return kalah::kExitUsage;
  } catch (const kalah::UsageError& e) {
    std::cerr << who << e.what() << "\n";
    return kalah::kExitUsage;
  } catch (const std::invalid_argument& e) {
    std::cerr << who << e.what() << "\n";
    return kalah::kExitUsage;
  } catch (const std::bad_alloc&) {
    std::cerr << who << "out of memory\n";
    return kalah::kExitFailure;
  } catch (const std::exception& e) {
    std::cerr << who << e.what() << "\n";
    return kalah::kExitFailure;
  }
}
