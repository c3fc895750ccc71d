// notation.cpp: strict parsers that never accept a malformed position silently.
#include "game/notation.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <stdexcept>

#include "base/utf8.h"

namespace kalah {
namespace {

[[noreturn]] void fail(const std::string& text, const std::string& why) {
  throw std::invalid_argument("position '" + printable_input(text) + "': " + why);
}

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::vector<std::string> split(const std::string& s, const std::string& separators) {
  std::vector<std::string> parts(1);
  for (char c : s) {
    if (separators.find(c) != std::string::npos)
      parts.emplace_back();
    else
      parts.back() += c;
  }
  return parts;
}

// A seed count: digits only, at most kMaxPositionSeeds.
int parse_count(const std::string& text, const std::string& field, const std::string& what) {
  const std::string t = trim(field);
  if (t.empty()) fail(text, "empty " + what);
  if (t[0] == '-') fail(text, "negative count '" + printable_input(t, 20) + "' in " + what);
  if (!std::all_of(t.begin(), t.end(), [](char c) { return std::isdigit(c & 0xFF); }))
    fail(text, what + " is '" + printable_input(t, 20) + "', not a number");
  const std::optional<int64_t> value = parse_whole_number(t, 0, kMaxPositionSeeds);
  if (!value)
    fail(text, what + " holds " + printable_input(t, 20) + " seeds; at most " +
                   std::to_string(kMaxPositionSeeds));
  return static_cast<int>(*value);
}

std::vector<int> parse_row(const std::string& text, const std::string& row, const char* name) {
  std::vector<int> pits;
  const auto fields = split(row, ",");
  for (size_t i = 0; i < fields.size(); ++i)
    pits.push_back(
        parse_count(text, fields[i], "pit " + std::to_string(i + 1) + " of the " + name + " row"));
  return pits;
}

void check_pit_count(const std::string& text, int m, int expected_pits) {
  if (m < 1 || m > kMaxPits)
    fail(text, std::to_string(m) + " pits per row; kalah handles 1.." + std::to_string(kMaxPits));
  if (expected_pits > 0 && m != expected_pits)
    fail(text, std::to_string(m) + " pits per row, expected " + std::to_string(expected_pits));
}

ParsedPosition build(const std::string& text, const std::vector<int>& mover,
                     const std::vector<int>& opponent, int mover_store, int opponent_store,
                     Side side) {
  ParsedPosition r;
  r.pits = static_cast<int>(mover.size());
  int total = mover_store + opponent_store;
  for (int i = 0; i < r.pits; ++i) {
    r.position.board.pits[i] = static_cast<uint8_t>(mover[i]);
    r.position.board.pits[r.pits + i] = static_cast<uint8_t>(opponent[i]);
    total += mover[i] + opponent[i];
  }
  if (total > kMaxPositionSeeds)
    fail(text,
         std::to_string(total) + " seeds in all; at most " + std::to_string(kMaxPositionSeeds));
  r.position.mover_store = mover_store;
  r.position.opponent_store = opponent_store;
  r.position.mover = side;
  return r;
}

ParsedPosition parse_relative(const std::string& text, const std::string& t, int expected_pits) {
  const auto parts = split(t, "/");
  if (parts.size() < 2 || parts.size() > 3)
    fail(text, "side-relative form is 'mover pits/opponent pits[/mover store,opponent store]'");
  const auto a = parse_row(text, parts[0], "first");
  const auto b = parse_row(text, parts[1], "second");
  if (a.size() != b.size())
    fail(text, "rows have different lengths (" + std::to_string(a.size()) + " and " +
                   std::to_string(b.size()) + " pits)");
  check_pit_count(text, static_cast<int>(a.size()), expected_pits);
  int x = 0, y = 0;
  if (parts.size() == 3) {
    const auto stores = split(parts[2], ",");
    if (stores.size() != 2) fail(text, "stores must be two numbers 'x,y', got '" + parts[2] + "'");
    x = parse_count(text, stores[0], "the mover's store");
    y = parse_count(text, stores[1], "the opponent's store");
  }
  return build(text, a, b, x, y, Side::kSouth);
}

ParsedPosition parse_absolute(const std::string& text, const std::string& t, int expected_pits) {
  auto fields = split(t, ", \t:");
  std::erase_if(fields, [](const std::string& f) { return f.empty(); });
  auto side_of = [](const std::string& f) -> int {
    if (f == "S" || f == "s") return 0;
    if (f == "N" || f == "n") return 1;
    return -1;
  };
  int side = -1;
  if (!fields.empty() && side_of(fields.front()) >= 0) {
    side = side_of(fields.front());
    fields.erase(fields.begin());
  } else if (!fields.empty() && side_of(fields.back()) >= 0) {
    side = side_of(fields.back());
    fields.pop_back();
  }
  if (side < 0)
    fail(text, "not a position: use 'A/B[/x,y]' or 2m+2 bins and the side to move (S or N)");
  const int bins = static_cast<int>(fields.size());
  if (bins % 2 != 0 || bins < 4)
    fail(text, "absolute form needs 2m+2 bins (pits and stores of both sides), got " +
                   std::to_string(bins));
  const int m = bins / 2 - 1;
  check_pit_count(text, m, expected_pits);
  std::vector<int> v;
  for (int i = 0; i < bins; ++i)
    v.push_back(parse_count(text, fields[i], "bin " + std::to_string(i + 1)));
  const std::vector<int> south(v.begin(), v.begin() + m), north(v.begin() + m + 1, v.end() - 1);
  const int south_store = v[m], north_store = v[bins - 1];
  if (side == 0) return build(text, south, north, south_store, north_store, Side::kSouth);
  return build(text, north, south, north_store, south_store, Side::kNorth);
}

std::string join(const Board& b, int first, int count) {
  std::string s;
  for (int i = 0; i < count; ++i) {
    if (i) s += ',';
    s += std::to_string(b.pits[first + i]);
  }
  return s;
}

}  // namespace

std::string printable_input(const std::string& text, size_t max_chars) {
  std::string out;
  size_t i = 0;
  for (; i < text.size() && out.size() < max_chars; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const size_t n = c >= 0x80 ? utf8_length(text, i) : 1;
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7F || n == 0) {  // control bytes and bytes that are not UTF-8
      const char hex[] = "0123456789abcdef";
      out += std::string("\\x") + hex[c >> 4] + hex[c & 15];
    } else {
      out += text.substr(i, n);  // a whole character, never cut
      i += n - 1;
    }
  }
  if (i < text.size()) out += "... (" + std::to_string(text.size()) + " characters in all)";
  return out;
}

ParsedPosition parse_position(const std::string& text, int expected_pits) {
  if (text.size() > kMaxPositionLength)
    fail(text, "too long (" + std::to_string(text.size()) + " characters; a position has at most " +
                   std::to_string(kMaxPositionLength) + ")");
  const std::string t = trim(text);
  if (t.empty()) fail(text, "empty position");
  if (t.find('/') != std::string::npos) return parse_relative(text, t, expected_pits);
  return parse_absolute(text, t, expected_pits);
}

std::string format_relative(const Position& p, int m) {
  return join(p.board, 0, m) + "/" + join(p.board, m, m) + "/" + std::to_string(p.mover_store) +
         "," + std::to_string(p.opponent_store);
}

std::string format_absolute(const Position& p, int m) {
  const bool south = p.mover == Side::kSouth;
  const int south_first = south ? 0 : m, north_first = south ? m : 0;
  const int south_store = south ? p.mover_store : p.opponent_store;
  const int north_store = south ? p.opponent_store : p.mover_store;
  return join(p.board, south_first, m) + "," + std::to_string(south_store) + "," +
         join(p.board, north_first, m) + "," + std::to_string(north_store) + "," +
         (south ? "S" : "N");
}

std::vector<int> parse_turn(const std::string& text, int m, const std::string& context) {
  const std::string t = trim(text);
  std::vector<int> pits;
  for (const auto& f : split(t, "-")) {
    const std::string g = trim(f);
    int v = 0;
    bool ok = !g.empty() && g.size() <= 2;
    for (char c : g) ok = ok && std::isdigit(static_cast<unsigned char>(c));
    if (ok) v = std::stoi(g);
    if (!ok || v < 1 || v > m)
      throw std::invalid_argument(
          (context.empty() ? "move '" + printable_input(text) + "'" : context) + ": '" +
          printable_input(g, 20) + "' is not a pit number 1.." + std::to_string(m));
    pits.push_back(v - 1);
  }
  return pits;
}

std::string format_turn(const std::vector<int>& pits) {
  std::string s;
  for (size_t i = 0; i < pits.size(); ++i) {
    if (i) s += '-';
    s += std::to_string(pits[i] + 1);
  }
  return s;
}

std::string format_turn(const std::vector<int>& pits, Side side) {
  return (side == Side::kSouth ? "S:" : "N:") + format_turn(pits);
}

std::vector<std::string> format_turns(const std::vector<std::vector<int>>& turns, Side first) {
  std::vector<std::string> out;
  for (const auto& turn : turns) {
    out.push_back(format_turn(turn, first));
    first = other(first);
  }
  return out;
}

std::string draw(const Position& p, int m) {
  return draw(p, m, p.mover, side_name(other(p.mover)),
              std::string(side_name(p.mover)) + " to move");
}

std::string draw(const Position& position, int m, Side below, const std::string& top_label,
                 const std::string& bottom_label) {
  Position p = position;  // seen from `below`
  if (below != p.mover) {
    std::rotate(p.board.pits.begin(), p.board.pits.begin() + m, p.board.pits.begin() + 2 * m);
    std::swap(p.mover_store, p.opponent_store);
  }
  auto cells = [](std::string line, int v) {
    const std::string s = std::to_string(v);
    return line + std::string(4 - std::min<size_t>(s.size(), 3), ' ') + s;
  };
  std::string numbers_top(5, ' '), top(5, ' '), bottom(5, ' '), numbers_bottom(5, ' ');
  for (int c = 0; c < m; ++c) {
    const int opp = m - 1 - c;  // the opponent's row runs right to left on top
    numbers_top = cells(numbers_top, opp + 1);
    top = cells(top, p.board.pits[m + opp]);
    bottom = cells(bottom, p.board.pits[c]);
    numbers_bottom = cells(numbers_bottom, c + 1);
  }
  const std::string middle =
      cells(cells("", p.opponent_store) + std::string(4 * m, ' '), p.mover_store);
  return numbers_top + "     " + top_label + "\n" + top + "\n" + middle + "\n" + bottom + "\n" +
         numbers_bottom + "     " + bottom_label + "\n";
}

Position start_position(int m, int seeds) {
  if (seeds < 1 || 2 * m * seeds > kMaxPositionSeeds)
    throw std::invalid_argument(
        "seeds must be 1.." + std::to_string(std::max(1, kMaxPositionSeeds / (2 * m))) + " for " +
        std::to_string(m) + " pits (at most " + std::to_string(kMaxPositionSeeds) +
        " seeds in all), got " + std::to_string(seeds));
  Position p;
  p.board = start_board(m, seeds);
  return p;
}

std::string signed_number(int v) {
  std::string s = std::to_string(v);
  if (v > 0) s.insert(s.begin(), '+');  // not "+" + s: GCC 12 warns falsely (-Wrestrict) on that
  return s;
}

std::optional<int64_t> parse_whole_number(std::string_view text, int64_t lo, int64_t hi) {
  int64_t v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || ptr != end || v < lo || v > hi) return std::nullopt;
  return v;
}

}  // namespace kalah
