// checkpoint.cpp: the checkpoint file of checkpoint.h.
#include "store/checkpoint.h"

#include <zstd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/atomic_file.h"
#include "base/checksum.h"
#include "base/compress.h"
#include "base/file_error.h"
#include "base/le_bytes.h"
#include "base/regular_file.h"
#include "game/notation.h"
#include "game/rules.h"

namespace kalah {
namespace {

constexpr int kZstdLevel = 3;
// More entries than a checkpoint ever saves (Checkpointing::entries, 2^22 by default) is a file
// to refuse, not to allocate.
constexpr size_t kMaxEntries = size_t{1} << 26;
// Nor can a checkpoint be larger than its entries uncompressed and its head: a bigger file (a
// sparse one of gigabytes, say) is refused before it is read.
uint64_t max_checkpoint_bytes(int m) {
  return kMaxEntries * (2 * m + 6) + (1 << 20);
}

size_t entry_bytes(int m) {
  return 2 * m + 6;
}

uint64_t board_hash(const Board& b) {
  return Checksum::of(b.pits.data(), b.pits.size());
}

// The lines up to "entries N" (the same for writing and for checking), N the state's entries or
// `entries` when given.
std::string head_lines(const Rules& rules, const Board& b, const SearchState& s,
                       std::optional<size_t> entries = std::nullopt) {
  std::ostringstream text;
  text << "kalah checkpoint 2\nrules m=" << rules.pits << " " << describe(rules) << "\nboard";
  for (int i = 0; i < 2 * rules.pits; ++i) text << " " << int{b.pits[i]};
  text << "\nnodes " << s.nodes << "\n";
  for (const MoveBounds& mv : s.moves)
    text << "move " << mv.pit + 1 << " " << mv.bounds.lower << " " << mv.bounds.upper << "\n";
  text << "entries " << entries.value_or(s.entries.size()) << "\n";
  return text.str();
}

}  // namespace

std::string checkpoint_path(const std::string& dir, const Rules& rules, const Board& b,
                            const RecordKey& key) {
  return dir + "/" + variant_name(rules) + "-" + to_hex(board_hash(b)) + "." + key.id() +
         ".checkpoint";
}

void make_checkpoint_dir(const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) throw FileError(dir + ": cannot create: " + error.message());
}

void write_checkpoint(const std::string& dir, const Rules& rules, const Board& b,
                      const SearchState& state, const RecordKey& key) {
  make_checkpoint_dir(dir);
  const int m = rules.pits;
  std::string entries(state.entries.size() * entry_bytes(m), '\0');
  auto* out = reinterpret_cast<uint8_t*>(entries.data());
  for (const TranspositionTable::Entry& e : state.entries) {
    std::memcpy(out, e.key.pits.data(), 2 * m);
    put_le(out + 2 * m, static_cast<uint16_t>(e.lo), 2);
    put_le(out + 2 * m + 2, static_cast<uint16_t>(e.hi), 2);
    out[2 * m + 4] = static_cast<uint8_t>(e.move);
    out[2 * m + 5] = e.work;
    out += entry_bytes(m);
  }
  const std::string head = head_lines(rules, b, state);
  const std::string frame =
      compress_block(reinterpret_cast<const uint8_t*>(entries.data()), entries.size(), kZstdLevel);
  const std::string text = head + "mac " + key.mac({head, frame}) + "\nend\n";
  const std::string path = checkpoint_path(dir, rules, b, key);
  AtomicFile file(dir, path.substr(dir.size() + 1));
  file.write(text.data(), text.size());
  file.write(frame.data(), frame.size());
  file.commit();
}

namespace {

// The head's root moves and entry count, as written; false on a malformed line.
bool read_head(const std::string& head, SearchState& state, size_t& count) {
  std::istringstream lines(head);
  std::string line, key;
  std::getline(lines, line);  // the first line, checked by comparing the whole head
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    words >> key;
    if (key == "nodes") {
      words >> state.nodes;
    } else if (key == "move") {
      MoveBounds mv;
      words >> mv.pit >> mv.bounds.lower >> mv.bounds.upper;
      --mv.pit;
      state.moves.push_back(mv);
    } else if (key == "entries") {
      words >> count;
    }
    if (!words && key != "rules" && key != "board") return false;
  }
  return true;
}

// What is wrong with the bounds of a state of board b, or "": every one is one a search can
// prove (lo <= hi, within the seeds of its board), every move a legal one.
std::string impossible(const Rules& rules, const Board& b, const SearchState& state) {
  const int s = seeds(b);
  for (const MoveBounds& mv : state.moves)
    if (mv.pit < 0 || mv.pit >= rules.pits || b.pits[mv.pit] == 0 ||
        mv.bounds.lower > mv.bounds.upper || mv.bounds.lower < -s || mv.bounds.upper > s)
      return "a root move's bounds are impossible";
  for (const TranspositionTable::Entry& e : state.entries) {
    const int es = seeds(e.key);
    if (e.lo > e.hi || e.lo < -es || e.hi > es || e.move < -1 || e.move >= rules.pits)
      return "an entry's bounds are impossible";
  }
  return "";
}

void read_entries(const std::string& raw, int m, SearchState& state) {
  const auto* at = reinterpret_cast<const uint8_t*>(raw.data());
  for (TranspositionTable::Entry& e : state.entries) {
    e = {};
    std::memcpy(e.key.pits.data(), at, 2 * m);
    e.lo = static_cast<int16_t>(get_le(at + 2 * m, 2));
    e.hi = static_cast<int16_t>(get_le(at + 2 * m + 2, 2));
    e.move = static_cast<int8_t>(at[2 * m + 4]);
    e.work = at[2 * m + 5];
    at += entry_bytes(m);
  }
}

}  // namespace

std::optional<SearchState> read_checkpoint(const std::string& dir, const Rules& rules,
                                           const Board& b, std::string& problem,
                                           const RecordKey& key) {
  const std::string path = checkpoint_path(dir, rules, b, key);
  const FileRead f = read_regular_file(path, max_checkpoint_bytes(rules.pits));
  if (f.status == FileRead::Status::kMissing) return std::nullopt;
  if (f.status != FileRead::Status::kRead) {
    problem = path + ": " + f.why;
    return std::nullopt;
  }
  std::optional<SearchState> state = parse_checkpoint(f.text, rules, b, problem, key);
  if (!state) problem = path + ": " + problem;
  return state;
}

std::optional<SearchState> parse_checkpoint(const std::string& data, const Rules& rules,
                                            const Board& b, std::string& problem,
                                            const RecordKey& key) {
  const auto refuse = [&](const std::string& why) -> std::optional<SearchState> {
    problem = why;
    return std::nullopt;
  };
  // The keyed hash first: nothing the file declares is believed, or allocated, before it holds.
  const size_t end = data.find("\nend\n");
  const size_t mac_at = data.rfind("\nmac ", end);
  if (end == std::string::npos || mac_at == std::string::npos)
    return refuse("not a checkpoint (no mac or end line)");
  const std::string_view all(data);
  const std::string_view head = all.substr(0, mac_at + 1), frame = all.substr(end + 5);
  if (!key.verify({head, frame}, all.substr(mac_at + 5, end - mac_at - 5)))
    return refuse("not written with this user's key (forged, damaged, of format 1 or another's)");
  SearchState state;
  size_t count = 0;
  if (!read_head(std::string(head), state, count)) return refuse("a malformed line");
  const int m = rules.pits;
  if (count > kMaxEntries ||
      ZSTD_getFrameContentSize(frame.data(), frame.size()) != count * entry_bytes(m))
    return refuse("the entries are not the size the file says");
  // The board and rules are checked by rewriting the head (before the entries are allocated): a
  // file for another board or rules under this name (a hash collision) is refused.
  if (head != head_lines(rules, b, state, count))
    return refuse("written for another board or rules");
  // No compressor makes table entries 64 times smaller: a frame that claims so is refused
  // before its entries are allocated.
  if (count * entry_bytes(m) > 64 * frame.size() + 4096)
    return refuse("the entries are not the size the file says");
  state.entries.resize(count);
  std::string raw(count * entry_bytes(m), '\0');
  const size_t size = ZSTD_decompress(raw.data(), raw.size(), frame.data(), frame.size());
  if (ZSTD_isError(size) || size != raw.size()) return refuse("the entries are damaged");
  read_entries(raw, m, state);
  if (const std::string why = impossible(rules, b, state); !why.empty()) return refuse(why);
  return state;
}

namespace {

// "1573253120 nodes searched, value in [+10, +56], 2 of 7 moves exact, 2734362 table entries"
// A full analysis also gets an estimate of what remains: the moves not yet exact at the average
// cost of those that are (the value search, which finds the first, included). A value search
// gets none: it stops at an unknown test.
std::string describe_state(const SearchState& s, const Board& b, int stores, bool full) {
  // The root's bounds: the best move's proven lower bound, the highest upper bound.
  int lower = -seeds(b), upper = -seeds(b), exact = 0;
  for (const MoveBounds& mv : s.moves) {
    lower = std::max(lower, mv.bounds.lower);
    upper = std::max(upper, mv.bounds.upper);
    exact += mv.bounds.exact();
  }
  std::string text = std::to_string(s.nodes) + " nodes searched, value in [" +
                     signed_number(stores + lower) + ", " + signed_number(stores + upper) + "], " +
                     std::to_string(exact) + " of " + std::to_string(s.moves.size()) +
                     " moves exact, " + std::to_string(s.entries.size()) + " table entries";
  const int left = static_cast<int>(s.moves.size()) - exact;
  if (full && exact > 0 && left > 0) {
    char estimate[96];
    std::snprintf(estimate, sizeof estimate, "; about %.2g more nodes for the %d moves left",
                  static_cast<double>(s.nodes) / exact * left, left);
    text += estimate;
  }
  return text;
}

}  // namespace

std::unique_ptr<Checkpoints> open_checkpoints(const std::string& dir, double seconds,
                                              const Rules& rules, const Position& p, bool full,
                                              const std::function<void(const std::string&)>& note) {
  make_checkpoint_dir(dir);
  auto c = std::make_unique<Checkpoints>();
  const Board& b = p.board;
  const int stores = p.mover_store - p.opponent_store;
  std::string problem;
  c->resumed = read_checkpoint(dir, rules, b, problem);
  if (!problem.empty() && note) note("ignoring " + problem + "; starting afresh");
  if (c->resumed && note)
    note("resuming from " + checkpoint_path(dir, rules, b) + ": " +
         describe_state(*c->resumed, b, stores, full));
  c->checkpointing.seconds = seconds;
  c->checkpointing.resume = c->resumed ? &*c->resumed : nullptr;
  // Each save says what is proven so far: a search of hours between its answers shows progress.
  c->checkpointing.save = [dir, rules, b, stores, full, note](const SearchState& s) {
    try {
      write_checkpoint(dir, rules, b, s);
    } catch (const FileError& e) {  // a full or read-only disk: the search is worth more
      if (note) note(std::string("cannot save the checkpoint (the search goes on): ") + e.what());
      return;
    }
    if (note) note("checkpoint: " + describe_state(s, b, stores, full));
  };
  return c;
}

}  // namespace kalah
