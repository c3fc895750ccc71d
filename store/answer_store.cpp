// answer_store.cpp: records as checked text, one file each.
#include "store/answer_store.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "db/atomic_file.h"
#include "db/checksum.h"
#include "db/file_names.h"
#include "solver/notation.h"

namespace kalah {
namespace fs = std::filesystem;
namespace {

constexpr const char* kMagic = "kalah-answer 1";
constexpr uint64_t kBlock = 4096;  // what a small file takes on disk
constexpr uintmax_t kMaxRecordBytes = 1 << 20;

uint64_t disk_bytes(uint64_t size) {
  return (size + kBlock - 1) / kBlock * kBlock;
}

uint64_t checksum(const std::string& text) {
  Checksum c;
  c.update(text.data(), text.size());
  return c.digest();
}

// Any whole number a record may hold (the callers check its range).
std::optional<int64_t> read_int(const std::string& text) {
  return parse_whole_number(text, INT64_MIN, INT64_MAX);
}

// The lines of a record, each "key rest"; nothing if a key is not the expected one.
class Reader {
 public:
  explicit Reader(const std::string& text) : in_(text) {}
  std::optional<std::string> field(const char* key) {
    std::string line;
    if (!std::getline(in_, line)) return std::nullopt;
    const std::string prefix = std::string(key) + " ";
    if (line.rfind(prefix, 0) != 0) return std::nullopt;
    return line.substr(prefix.size());
  }
  std::optional<int64_t> number(const char* key) {
    const auto f = field(key);
    return f ? read_int(*f) : std::nullopt;
  }

 private:
  std::istringstream in_;
};

std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

}  // namespace

AnswerStore::AnswerStore(const std::string& db_dir, const Rules& rules, uint64_t max_bytes)
    : rules_(rules), dir_(db_dir + "/answers/" + variant_name(rules)), max_bytes_(max_bytes) {}

std::string AnswerStore::path(const Position& p, bool book) const {
  const std::string key = describe(rules_) + "|" + format_absolute(p, rules_.pits);
  return dir_ + "/" + to_hex(checksum(key)) + (book ? ".book" : ".answer");
}

std::string AnswerStore::record(const Position& p, const StoredAnswer& s) const {
  const Analysis& a = s.analysis;
  std::ostringstream out;
  out << kMagic << "\nrules " << describe(rules_) << "\npits " << rules_.pits << "\nposition "
      << format_absolute(p, rules_.pits) << "\nvalue " << a.value << "\nboard_value "
      << a.board_value << "\nfinished " << a.finished << "\nmoves";
  for (const MoveReport& m : a.moves)
    out << " " << m.pit + 1 << ":" << m.value << ":" << format_turn(m.turn);
  out << "\nline";
  for (const auto& turn : a.best_line) out << " " << format_turn(turn);
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.6f", s.seconds);
  out << "\nnodes " << s.nodes << "\nseconds " << seconds << "\nbook " << s.book << "\n";
  const std::string body = out.str();
  return body + "checksum " + to_hex(checksum(body)) + "\n";
}

std::optional<StoredAnswer> AnswerStore::read(const std::string& path, const Position& p) const {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // The checksum line last, over every byte before it.
  const size_t at = text.rfind("checksum ");
  if (at == std::string::npos ||
      text.substr(at) != "checksum " + to_hex(checksum(text.substr(0, at))) + "\n")
    return std::nullopt;
  Reader r(text);
  StoredAnswer s;
  Analysis& a = s.analysis;
  if (r.field("kalah-answer") != "1" || r.field("rules") != describe(rules_)) return std::nullopt;
  if (r.number("pits") != rules_.pits) return std::nullopt;
  if (r.field("position") != format_absolute(p, rules_.pits)) return std::nullopt;  // collision
  const auto value = r.number("value"), board_value = r.number("board_value"),
             finished = r.number("finished");
  const auto moves = r.field("moves"), line = r.field("line");
  const auto nodes = r.number("nodes");
  const auto seconds = r.field("seconds");
  const auto book = r.number("book");
  if (!value || !board_value || !finished || !moves || !line || !nodes || !seconds || !book)
    return std::nullopt;
  a.value = static_cast<int>(*value);
  a.board_value = static_cast<int>(*board_value);
  a.finished = *finished != 0;
  s.nodes = static_cast<uint64_t>(*nodes);
  s.seconds = std::atof(seconds->c_str());
  s.book = *book != 0;
  if (a.value != p.mover_store - p.opponent_store + a.board_value) return std::nullopt;
  try {
    for (const std::string& w : words(*moves)) {
      const size_t c1 = w.find(':'), c2 = w.find(':', c1 + 1);
      if (c2 == std::string::npos) return std::nullopt;
      const auto pit = parse_whole_number(w.substr(0, c1), 1, rules_.pits);
      const auto v = read_int(w.substr(c1 + 1, c2 - c1 - 1));
      if (!pit || !v || p.board.pits[*pit - 1] == 0) return std::nullopt;
      a.moves.push_back({static_cast<int>(*pit - 1), static_cast<int>(*v),
                         parse_turn(w.substr(c2 + 1), rules_.pits)});
    }
    for (const std::string& w : words(*line)) a.best_line.push_back(parse_turn(w, rules_.pits));
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
  int legal = 0;
  for (int i = 0; i < rules_.pits; ++i) legal += p.board.pits[i] > 0;
  if (!a.finished && static_cast<int>(a.moves.size()) != legal) return std::nullopt;
  return s;
}

std::optional<StoredAnswer> AnswerStore::find(const Position& p) const {
  for (bool book : {true, false}) {
    const std::string file = path(p, book);
    std::error_code ec;
    const uintmax_t size = fs::file_size(file, ec);
    if (ec) continue;  // none stored
    // A record is about 1 KB: a big file is refused unread.
    if (std::optional<StoredAnswer> s = size <= kMaxRecordBytes ? read(file, p) : std::nullopt) {
      if (!book) utimensat(AT_FDCWD, file.c_str(), nullptr, 0);  // recently used
      return s;
    }
    fs::remove(file, ec);  // damaged or foreign: refused, and computed again by the caller
  }
  return std::nullopt;
}

bool AnswerStore::put(const Position& p, const StoredAnswer& answer) {
  std::call_once(counted_, [this] {
    uint64_t bytes = 0;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir_, ec))
      if (e.path().extension() == ".answer") bytes += disk_bytes(e.file_size(ec));
    answer_bytes_ = bytes;
  });
  const std::string text = record(p, answer);
  try {
    fs::create_directories(dir_);
    const std::string file = path(p, answer.book);
    AtomicFile out(dir_, file.substr(file.rfind('/') + 1));
    out.write(text.data(), text.size());
    out.commit();
  } catch (const std::exception&) {
    return false;  // a read-only or full directory: the store only answers what it holds
  }
  if (answer.book) {  // the book's record stands for the answer's
    std::error_code ec;
    fs::remove(path(p, false), ec);
  } else if ((answer_bytes_ += disk_bytes(text.size())) > max_bytes_) {
    evict();
  }
  return true;
}

AnswerStore::Census AnswerStore::census() const {
  Census c;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir_, ec)) {
    const uint64_t bytes = disk_bytes(e.file_size(ec));
    if (e.path().extension() == ".answer") {
      ++c.answers;
      c.answer_bytes += bytes;
    } else if (e.path().extension() == ".book") {
      ++c.book;
      c.book_bytes += bytes;
    }
  }
  return c;
}

void AnswerStore::evict() {
  std::lock_guard lock(evicting_);
  struct Entry {
    fs::file_time_type used;
    uint64_t bytes;
    fs::path path;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir_, ec)) {
    if (e.path().extension() != ".answer") continue;
    const uint64_t bytes = disk_bytes(e.file_size(ec));
    entries.push_back({e.last_write_time(ec), bytes, e.path()});
    total += bytes;
  }
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.used < b.used; });
  // Down to three quarters, so that eviction is rare.
  for (const Entry& e : entries) {
    if (total <= max_bytes_ / 4 * 3) break;
    if (fs::remove(e.path, ec)) total -= e.bytes;
  }
  answer_bytes_ = total;
}

std::unique_ptr<AnswerStore> open_answer_store(const std::string& db_dir, const Rules& rules) {
  const char* store = std::getenv("KALAH_STORE");
  if (store && std::string(store) == "off") return nullptr;
  return std::make_unique<AnswerStore>(db_dir, rules);
}

}  // namespace kalah
