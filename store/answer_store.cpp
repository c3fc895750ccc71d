// answer_store.cpp: records as checked text, one file each.
#include "store/answer_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "base/atomic_file.h"
#include "base/checksum.h"
#include "base/regular_file.h"
#include "game/notation.h"
#include "game/rules.h"
#include "store/answer_sense.h"

namespace kalah {
namespace fs = std::filesystem;
namespace {

constexpr const char* kMagic = "kalah-answer 2";
constexpr uint64_t kBlock = 4096;  // what a small file takes on disk
constexpr uintmax_t kMaxRecordBytes = 1 << 20;
constexpr const char* kNotKeyed = "not written with this user's key (forged, damaged or another's)";

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

// On a terminal the line starts by erasing the one there: a progress line drawn in place
// (tools/cli/progress_line.h) would run into it.
void to_stderr(const std::string& line) {
  std::fprintf(stderr, "%skalah: %s\n", isatty(fileno(stderr)) ? "\r\033[K" : "", line.c_str());
}

}  // namespace

AnswerStore::AnswerStore(const std::string& db_dir, const Rules& rules, const RecordKey& key,
                         Note note, uint64_t max_bytes)
    : rules_(rules),
      dir_(db_dir + "/answers/" + variant_name(rules)),
      key_(key),
      note_(note ? std::move(note) : to_stderr),
      max_bytes_(max_bytes) {}

std::string AnswerStore::path(const Position& p, bool book) const {
  const std::string key = describe(rules_) + "|" + format_absolute(p, rules_.pits);
  return dir_ + "/" + to_hex(checksum(key)) + "." + key_.id() + (book ? ".book" : ".answer");
}

std::string AnswerStore::legacy_path(const Position& p, bool book) const {
  const std::string key = describe(rules_) + "|" + format_absolute(p, rules_.pits);
  return dir_ + "/" + to_hex(checksum(key)) + (book ? ".book" : ".answer");
}

bool AnswerStore::ours(const std::string& path) const {
  const std::string name = fs::path(path).stem().string();  // <hash>.<key id>
  return name.size() > 17 && name.compare(name.size() - 17, 17, "." + key_.id()) == 0;
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
  return body + "mac " + key_.mac({body}) + "\n";
}

std::optional<std::pair<Position, StoredAnswer>> AnswerStore::read_file(const std::string& path,
                                                                        std::string& why,
                                                                        Verdict* verdict) const {
  Verdict v = Verdict::kSound;
  std::optional<std::pair<Position, StoredAnswer>> out;
  const FileRead f = read_regular_file(path, kMaxRecordBytes);
  if (f.status == FileRead::Status::kRead) {
    out = parse(f.text, why);
    // A keyed hash that fails says the record is not this key's: damaged or forged when its
    // name is this key's, another key's (or an unkeyed old record's) otherwise.
    if (!out) v = ours(path) || why.rfind(kNotKeyed, 0) != 0 ? Verdict::kBad : Verdict::kOtherKey;
  } else {
    why = f.why;
    v = f.status == FileRead::Status::kMissing                ? Verdict::kMissing
        : f.status == FileRead::Status::kTooBig && ours(path) ? Verdict::kBad
        : f.status == FileRead::Status::kTooBig               ? Verdict::kOtherKey
                                                              : Verdict::kUnreadable;
  }
  if (verdict) *verdict = v;
  return out;
}

std::optional<std::pair<Position, StoredAnswer>> AnswerStore::parse(const std::string& text,
                                                                    std::string& why) const {
  // The keyed hash last, over every byte before it: nothing else is read unless it holds.
  const size_t at = text.rfind("mac ");
  if (at == std::string::npos || text.back() != '\n' ||
      !key_.verify({std::string_view(text).substr(0, at)},
                   std::string_view(text).substr(at + 4, text.size() - at - 5)))
    return why = kNotKeyed, std::nullopt;
  Reader r(text);
  StoredAnswer s;
  Analysis& a = s.analysis;
  if (r.field("kalah-answer") != "2" || r.field("rules") != describe(rules_) ||
      r.number("pits") != rules_.pits)
    return why = "not a record of these rules", std::nullopt;
  Position p;
  try {
    p = parse_position(r.field("position").value_or(""), rules_.pits).position;
  } catch (const std::invalid_argument&) {
    return why = "its position is malformed", std::nullopt;
  }
  const auto value = r.number("value"), board_value = r.number("board_value"),
             finished = r.number("finished");
  const auto moves = r.field("moves"), line = r.field("line");
  const auto nodes = r.number("nodes");
  const auto seconds = r.field("seconds");
  const auto book = r.number("book");
  if (!value || !board_value || !finished || !moves || !line || !nodes || !seconds || !book ||
      !read_moves(rules_, *moves, *line, a))
    return why = "a field is missing or malformed", std::nullopt;
  a.value = static_cast<int>(*value);
  a.board_value = static_cast<int>(*board_value);
  a.finished = *finished != 0;
  s.nodes = static_cast<uint64_t>(*nodes);
  s.seconds = std::atof(seconds->c_str());
  s.book = *book != 0;
  why = nonsense(rules_, p, a);
  if (!why.empty()) return std::nullopt;
  return std::pair{p, s};
}

std::optional<StoredAnswer> AnswerStore::find(const Position& p) const {
  for (bool book : {true, false})
    for (const std::string& file : {path(p, book), legacy_path(p, book)}) {
      std::string why;
      Verdict v;
      auto found = read_file(file, why, &v);
      if (v == Verdict::kMissing) continue;
      if (found && format_absolute(found->first, rules_.pits) != format_absolute(p, rules_.pits))
        found.reset(), why = "it holds another position", v = Verdict::kBad;
      if (found) {
        if (!book) utimensat(AT_FDCWD, file.c_str(), nullptr, 0);  // recently used
        return found->second;
      }
      if (v == Verdict::kBad && book) {  // kept: its name keeps the position in the book
        note_("ignoring the book record " + file + ": " + why +
              "; the next search of the position writes it again, in the book");
      } else if (v == Verdict::kBad) {
        note_("ignoring the answer record " + file + ": " + why + "; answering again");
        remove(file);
      } else if (v == Verdict::kUnreadable) {
        note_("cannot read the answer record " + file + " now (" + why +
              "): answering again, the record kept");
      } else {
        std::call_once(told_other_, [&] {
          note_("leaving the answer records of other keys in " + dir_ +
                " alone (this key: " + key_.id() + ")");
        });
      }
    }
  return std::nullopt;
}

bool AnswerStore::in_book(const Position& p) const {
  std::error_code ec;
  return fs::is_regular_file(fs::symlink_status(path(p, true), ec));
}

std::vector<std::string> AnswerStore::files() const {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir_, ec))
    if (e.path().extension() == ".answer" || e.path().extension() == ".book")
      out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

void AnswerStore::remove(const std::string& path) const {
  // Another key's name is never removed: only this key's, and the unkeyed names of format 2's
  // first release, which a caller removes once it proved the record this key's and wrong.
  if (fs::path(path).stem().string().find('.') != std::string::npos && !ours(path)) return;
  std::error_code ec;
  fs::remove(path, ec);  // a read-only store keeps it: it is refused again next time
}

bool AnswerStore::put(const Position& p, const StoredAnswer& answer) {
  std::call_once(counted_, [this] {
    uint64_t bytes = 0;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir_, ec))
      if (e.path().extension() == ".answer" && ours(e.path().string()))
        bytes += disk_bytes(e.file_size(ec));
    answer_bytes_ = bytes;
  });
  // A position of the book stays in it: a search that found it again (its record was damaged)
  // writes the book's record.
  if (!answer.book && in_book(p)) {
    StoredAnswer kept = answer;
    kept.book = true;
    return put(p, kept);
  }
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
  std::call_once(told_, [this] {
    note_("answers are kept in " + dir_ + " (--no-store, or KALAH_STORE=off, keeps none)");
  });
  if (answer.book) {  // the book's record stands for the answer's
    std::error_code ec;
    fs::remove(path(p, false), ec);
  } else if ((answer_bytes_ += disk_bytes(text.size())) > max_bytes_) {
    evict();
  }
  return true;
}

AnswerStore::Census AnswerStore::census() const {
  return census(dir_.substr(0, dir_.rfind("/answers/")), rules_);
}

AnswerStore::Census AnswerStore::census(const std::string& db_dir, const Rules& rules) {
  Census c;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(db_dir + "/answers/" + variant_name(rules), ec)) {
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
    // This key's answers only: another key's records are not ours to evict.
    if (e.path().extension() != ".answer" || !ours(e.path().string())) continue;
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

std::unique_ptr<AnswerStore> open_answer_store(const std::string& db_dir, const Rules& rules,
                                               AnswerStore::Note note) {
  const std::string store = std::getenv("KALAH_STORE") ? std::getenv("KALAH_STORE") : "";
  if (store == "off") return nullptr;
  if (!store.empty() && store != "on")  // a directory, say: not silently ignored
    throw std::invalid_argument("KALAH_STORE is '" + printable_input(store, 40) +
                                "': it takes off (keep no answers) or on (the store beside the "
                                "database, the default)");
  try {
    const RecordKey& key = RecordKey::user();  // throws before `note` is moved
    return std::make_unique<AnswerStore>(db_dir, rules, key, std::move(note));
  } catch (const std::runtime_error& e) {  // no key: nothing stored can be believed
    (note ? note : to_stderr)(std::string("no answer store: ") + e.what());
    return nullptr;
  }
}

}  // namespace kalah
