// cli.h: what every kalah subcommand shares: option parsing, the rule flags, errors and exit codes.
//
// Exit status (docs/design.md §9): 0 success, 2 bad usage or bad input (UsageError,
// std::invalid_argument, Boost option errors), 1 any other failure. Errors are one line on stderr:
// "kalah CMD: message".
#pragma once

#include <boost/program_options.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "game/rules.h"

namespace kalah {

namespace po = boost::program_options;

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitInterrupted = 130;  // Ctrl-C, as shells report it

// Bad usage or bad input: exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The rule flags, spelled the same in every command.
struct RuleFlags {
  std::string capture = "standard";
  std::string end = "immediate";
  std::string remainder = "owner";
};
void add_rule_options(po::options_description& desc, RuleFlags& flags);
Rules make_rules(int pits, const RuleFlags& flags);  // throws UsageError

// --db DIR, defaulting to default_database_dir() (db/file_names.h); `what` is its help text.
void add_db_option(po::options_description& desc, std::string& dir, const char* what);
// --threads T (0 = all cores), for every command that computes (a ThreadLimit applies it).
void add_threads_option(po::options_description& desc, int& threads);

// Parses a subcommand's arguments. Returns false when --help was asked for and printed.
struct CommandHelp {
  const char* name;      // "solve"
  const char* synopsis;  // "kalah solve [options] [POSITION]"
  const char* summary;   // a paragraph: what the command does
  const char* examples;  // lines of examples
};
// `hidden` options are parsed but not listed (e.g. a positional action word).
bool parse_command(const CommandHelp& help, const po::options_description& desc,
                   const po::positional_options_description* positional,
                   const std::vector<std::string>& args, po::variables_map& vm,
                   const po::options_description* hidden = nullptr);

// Every numeric option is parsed as a signed or floating type (Boost would read "-1" into an
// unsigned one as a huge number) and checked here: lo <= value <= hi, which NaN never is.
template <class T>
void check_range(const char* flag, T value, T lo, T hi) {
  if (value >= lo && value <= hi) return;
  std::ostringstream message;
  message << flag << " must be " << lo << ".." << hi << ", got " << value;
  throw UsageError(message.str());
}

// Subcommands: each takes the arguments after its name and returns an exit status or throws.
// With check_only, a command parses and validates its options and returns before any work (the
// option fuzzer's entry point, tests/fuzz).
int cmd_solve(const std::vector<std::string>& args, bool check_only = false);
int cmd_build(const std::vector<std::string>& args, bool check_only = false);
int cmd_query(const std::vector<std::string>& args, bool check_only = false);
int cmd_info(const std::vector<std::string>& args, bool check_only = false);
int cmd_verify(const std::vector<std::string>& args, bool check_only = false);
int cmd_bench(const std::vector<std::string>& args, bool check_only = false);
int cmd_serve(const std::vector<std::string>& args, bool check_only = false);
int cmd_play(const std::vector<std::string>& args, bool check_only = false);
int cmd_book(const std::vector<std::string>& args, bool check_only = false);
int cmd_fair(const std::vector<std::string>& args, bool check_only = false);
int cmd_kgp(const std::vector<std::string>& args, bool check_only = false);

}  // namespace kalah
