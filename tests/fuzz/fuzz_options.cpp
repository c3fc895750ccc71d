// fuzz_options.cpp: libFuzzer target for the option parsing and validation of every command.
// The input is a command line, one argument per line, the first byte choosing the command; each
// command runs in check-only mode (tools/cli/cli.h), so no work is done. Any input must be accepted
// or refused with a usage error: any other exception, or a crash, is a bug.
#include <boost/program_options/errors.hpp>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <string>
#include <vector>

#include "tools/cli/cli.h"

using namespace kalah;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (!std::freopen("/dev/null", "w", stdout)) return 1;  // --help texts
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  using Command = int (*)(const std::vector<std::string>&, bool);
  const Command commands[] = {cmd_solve, cmd_build, cmd_query, cmd_info, cmd_verify,
                              cmd_bench, cmd_serve, cmd_play,  cmd_kgp,  cmd_book};
  const Command command = commands[data[0] % std::size(commands)];
  std::vector<std::string> args(1);
  for (size_t i = 1; i < size; ++i) {
    if (data[i] == '\n')
      args.emplace_back();
    else
      args.back() += static_cast<char>(data[i]);
  }
  try {
    command(args, true);
  } catch (const boost::program_options::error&) {
  } catch (const UsageError&) {
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
