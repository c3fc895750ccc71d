// cli.cpp: shared option handling for the subcommands.
#include "tools/cli/cli.h"

#include <cstdlib>
#include <iostream>
#include <set>
#include <string>

#include "db/file_names.h"

namespace kalah {

void add_rule_options(po::options_description& desc, RuleFlags& flags) {
  desc.add_options()(
      "capture", po::value(&flags.capture)->default_value(flags.capture)->value_name("RULE"),
      "standard: a last seed in an empty own pit captures the opposite pit if it holds seeds;\n"
      "empty: it captures even when the opposite pit is empty (the last seed itself)")(
      "end", po::value(&flags.end)->default_value(flags.end)->value_name("RULE"),
      "immediate: the game ends as soon as either row is empty;\n"
      "on-turn: only when the player to move has no seeds")(
      "remainder", po::value(&flags.remainder)->default_value(flags.remainder)->value_name("RULE"),
      "owner: at the end each player keeps the seeds on their side;\n"
      "discard: seeds left on the board count for nobody");
}

void add_db_option(po::options_description& desc, std::string& dir, const char* what) {
  // No default directory (no home to put it in): --help says none, and leaving --db out is an
  // error of its own.
  const std::string fallback = default_database_dir();
  desc.add_options()("db",
                     po::value(&dir)
                         ->default_value(fallback, fallback.empty() ? "none" : fallback)
                         ->value_name("DIR")
                         ->notifier([fallback](const std::string& d) {
                           if (!d.empty()) return;
                           if (!fallback.empty())  // so it was given empty
                             throw UsageError("--db is empty: give a directory");
                           throw UsageError(
                               "no database directory: give --db DIR or set KALAH_DB (KALAH_DB, "
                               "XDG_CACHE_HOME and HOME give no default)");
                         }),
                     what);
}

void add_threads_option(po::options_description& desc, int& threads) {
  desc.add_options()("threads", po::value(&threads)->default_value(0)->value_name("T"),
                     "worker threads; 0 = all cores");
}

namespace {

// Runs a library parser of one flag's value; its complaint becomes a usage error naming the flag.
template <class Parse>
auto flag_value(const char* flag, Parse&& parse) {
  try {
    return parse();
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string(flag) + ": " + e.what());
  }
}

}  // namespace

Rules make_rules(int pits, const RuleFlags& flags) {
  Rules r;
  r.pits = pits;
  r.capture = flag_value("--capture", [&] { return parse_capture(flags.capture); });
  r.end = flag_value("--end", [&] { return parse_end(flags.end); });
  r.remainder = flag_value("--remainder", [&] { return parse_remainder(flags.remainder); });
  flag_value("--pits", [&] { validate(r); });
  return r;
}

bool parse_command(const CommandHelp& help, const po::options_description& desc,
                   const po::positional_options_description* positional,
                   const std::vector<std::string>& args, po::variables_map& vm,
                   const po::options_description* hidden) {
  po::options_description all;
  all.add_options()("help,h", "show this help");
  all.add(desc);
  po::options_description parsed;
  parsed.add(all);
  if (hidden) parsed.add(*hidden);
  po::command_line_parser parser(args);
  parser.options(parsed);
  if (positional) parser.positional(*positional);
  po::store(parser.run(), vm);
  if (vm.count("help")) {
    std::cout << "usage: " << help.synopsis << "\n\n"
              << help.summary << "\n\n"
              << all << "\nexamples:\n"
              << help.examples;
    return false;
  }
  po::notify(vm);
  // A value given empty (`--db ""`, a shell variable that was not set) is a mistake, never
  // "none": an empty record of moves or token is the only empty value that means something.
  static const std::set<std::string> kDirectories = {"db", "checkpoint", "certificates", "keep"};
  for (const auto& [name, value] : vm)
    if (!value.defaulted() && value.value().type() == typeid(std::string) &&
        value.as<std::string>().empty() && name != "moves" && name != "token")
      throw UsageError("--" + name + " is empty: give " +
                       (kDirectories.count(name) ? "a directory"
                        : name == "certificate"  ? "a file"
                                                 : "a value"));
  return true;
}

}  // namespace kalah
