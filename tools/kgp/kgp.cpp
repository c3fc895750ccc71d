// kgp.cpp: strict parsing of KGP lines; nothing a server sends can crash the client.
#include "tools/kgp/kgp.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "game/notation.h"

namespace kalah {
namespace {

bool digit(char c) {
  return c >= '0' && c <= '9';
}
bool space(char c) {
  return c == ' ' || c == '\t';
}

uint64_t read_number(const std::string& line, size_t& i, const char* what) {
  const size_t start = i;
  uint64_t v = 0;
  while (i < line.size() && digit(line[i])) {
    if (i - start >= 18) throw std::invalid_argument(std::string(what) + " is too long");
    v = v * 10 + (line[i++] - '0');
  }
  if (i == start) throw std::invalid_argument(std::string(what) + " has no digits");
  return v;
}

}  // namespace

KgpCommand parse_kgp_line(const std::string& text) {
  if (text.size() > kKgpMaxLine)
    throw std::invalid_argument("a line of " + std::to_string(text.size()) +
                                " characters; KGP allows " + std::to_string(kKgpMaxLine));
  std::string line = text;
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.pop_back();
  KgpCommand c;
  size_t i = 0;
  while (i < line.size() && space(line[i])) ++i;
  if (i < line.size() && (digit(line[i]) || line[i] == '@')) {
    if (digit(line[i])) c.id = read_number(line, i, "the command id");
    if (i < line.size() && line[i] == '@') c.ref = read_number(line, ++i, "the reference");
    if (i < line.size() && !space(line[i]))
      throw std::invalid_argument("no space after the command id");
  }
  while (i < line.size() && space(line[i])) ++i;
  while (i < line.size() && std::isalnum(static_cast<unsigned char>(line[i]))) c.name += line[i++];
  if (c.name.empty()) throw std::invalid_argument("no command name");
  if (i < line.size() && !space(line[i]))
    throw std::invalid_argument("the command name is followed by '" +
                                printable_input(line.substr(i, 1)) + "'");
  for (;;) {
    while (i < line.size() && space(line[i])) ++i;
    if (i == line.size()) break;
    std::string arg;
    if (line[i] == '"') {
      for (++i;; ++i) {
        if (i == line.size()) throw std::invalid_argument("a string without its closing quote");
        if (line[i] == '"') break;
        if (line[i] == '\\' && i + 1 < line.size()) ++i;
        arg += line[i];
      }
      ++i;
    } else {
      while (i < line.size() && !space(line[i])) arg += line[i++];
    }
    c.args.push_back(std::move(arg));
  }
  return c;
}

std::string kgp_quote(const std::string& s) {
  std::string q = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') q += '\\';
    if (ch != '\n' && ch != '\r') q += ch;
  }
  return q + "\"";
}

std::string format_kgp(uint64_t ref, const std::string& name, const std::string& args,
                       uint64_t id) {
  std::string line;  // appended piece by piece: "@" + ... trips GCC 12's false -Wrestrict
  if (id) line += std::to_string(id);
  if (ref) {
    line += '@';
    line += std::to_string(ref);
  }
  if (id || ref) line += ' ';
  line += name;
  if (!args.empty()) {
    line += ' ';
    line += args;
  }
  line += "\r\n";
  return line;
}

KgpBoard parse_kgp_board(const std::string& literal) {
  const auto fail = [&](const std::string& why) {
    throw std::invalid_argument("board '" + printable_input(literal, 60) + "': " + why);
  };
  if (literal.size() < 2 || literal.front() != '<' || literal.back() != '>')
    fail("not a board literal <n,south store,north store,pits...>");
  std::vector<int> values;
  size_t i = 1;
  while (i < literal.size() - 1) {
    while (i < literal.size() - 1 && space(literal[i])) ++i;
    size_t start = i;
    long v = 0;
    while (i < literal.size() - 1 && digit(literal[i])) {
      v = v * 10 + (literal[i++] - '0');
      if (v > 1000000) fail("a count over 1000000");
    }
    if (i == start) fail("expected a number at character " + std::to_string(start + 1));
    values.push_back(static_cast<int>(v));
    while (i < literal.size() - 1 && space(literal[i])) ++i;
    if (i < literal.size() - 1 && literal[i++] != ',') fail("numbers must be separated by commas");
  }
  if (values.empty() || values[0] < 1) fail("the board size must be at least 1");
  const size_t n = values[0];
  if (values.size() != 3 + 2 * n)
    fail("size " + std::to_string(n) + " needs " + std::to_string(3 + 2 * n) + " numbers, got " +
         std::to_string(values.size()));
  KgpBoard b;
  b.south_store = values[1];
  b.north_store = values[2];
  b.board.pits.assign(values.begin() + 3, values.end());  // South's row, then North's
  return b;
}

std::string format_kgp_board(const KgpBoard& b) {
  std::string s = "<";  // appended piece by piece, as in format_kgp
  s += std::to_string(b.board.m());
  for (const int n : {b.south_store, b.north_store}) {
    s += ',';
    s += std::to_string(n);
  }
  for (const int pits : b.board.pits) {
    s += ',';
    s += std::to_string(pits);
  }
  s += '>';
  return s;
}

KgpSowing sow_kgp(const KgpBoard& b, int pit) {
  const int m = b.board.m();
  if (pit < 0 || pit >= m || b.board.pits[pit] == 0)
    throw std::invalid_argument("pit " + std::to_string(pit) + " is not a move of " +
                                format_kgp_board(b));
  const AnyMove r = play(Rules{m}, b.board, pit);
  KgpSowing out;
  out.repeat = r.extra_turn;
  out.board.south_store = b.south_store + r.gain;
  out.board.north_store = b.north_store;
  out.board.board = r.board;
  if (!r.extra_turn)  // seen from North after the move: South's row back first
    std::rotate(out.board.board.pits.begin(), out.board.board.pits.begin() + m,
                out.board.board.pits.end());
  const auto [south, north] = row_seeds(out.board.board);
  if (south == 0 || north == 0) {  // KGP's end: a row is empty; each keeps the seeds on its side
    out.board.south_store += south;
    out.board.north_store += north;
    std::fill(out.board.board.pits.begin(), out.board.board.pits.end(), 0);
  }
  return out;
}

}  // namespace kalah
