// fuzz_kgp.cpp: libFuzzer target for what a KGP server can send (tools/kgp/kgp.h): any line either
// parses or is refused with std::invalid_argument; a board that parses can be sown from every
// non-empty pit, and a reply built from a parsed command is one line.
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "tools/kgp/kgp.h"

using namespace kalah;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const KgpCommand c = parse_kgp_line(text);
    if (c.name.empty()) std::abort();
    for (const std::string& arg : c.args) {
      const std::string reply = format_kgp(c.id, "error", kgp_quote(arg));
      if (reply.find('\n') != reply.size() - 1) std::abort();
    }
    if (!c.args.empty()) {
      const KgpBoard b = parse_kgp_board(c.args[0]);
      if (b.board.pits.size() % 2 || b.board.pits.empty()) std::abort();
      Rules rules{b.board.m()};
      for (int pit = 0; pit < b.board.m() && pit < 16; ++pit)
        if (b.board.pits[pit]) play(rules, b.board, pit);
    }
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
