// fair_checkpoint.cpp: a `kalah fair` run's log of settled candidates (store/fair_checkpoint.h).
#include "store/fair_checkpoint.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <sstream>

#include "base/atomic_file.h"
#include "base/file_error.h"
#include "base/regular_file.h"
#include "game/notation.h"
#include "game/rules.h"
#include "store/checkpoint.h"

namespace kalah {

FairCheckpoint::FairCheckpoint(const std::string& dir, const Rules& rules, int seeds, int moved,
                               std::vector<FairCandidate>& candidates,
                               const std::function<void(const std::string&)>& note,
                               const RecordKey& key)
    : key_(key), m_(rules.pits), note_(note) {
  make_checkpoint_dir(dir);
  const std::string name = "fair-" + variant_name(rules) + "-s" + std::to_string(seeds) + "-k" +
                           std::to_string(moved) + "." + key.id() + ".log";
  path_ = dir + "/" + name;
  lock_ =
      std::make_unique<WriterLock>(path_ + ".lock", "the fair log " + path_ + " is written",
                                   ": one run a log (wait for it, or give another --checkpoint)");
  header_ = "kalah fair checkpoint 1 m=" + std::to_string(m_) + " " + describe(rules) +
            " seeds=" + std::to_string(seeds) + " moved=" + std::to_string(moved);
  std::map<std::string, FairCandidate*> by_text;
  for (FairCandidate& c : candidates) by_text[format_absolute(c.position, m_)] = &c;

  // A line a candidate, each under 256 bytes: a bigger file is no log of this run.
  const FileRead f = read_regular_file(path_, 4096 + 256 * candidates.size());
  if (f.status != FileRead::Status::kRead && f.status != FileRead::Status::kMissing)
    throw FileError(path_ + ": " + f.why);
  std::string kept = header_ + "\n", text;
  size_t ignored = 0;
  std::istringstream in(f.text);
  for (bool first = true; std::getline(in, text); first = false) {
    if (!text.empty() && text.back() == '\r') text.pop_back();  // CRLF endings
    if (first && text == header_) continue;
    std::istringstream fields(text);
    std::string position, mac, rest;
    int lower = 0, upper = 0;
    const auto it = fields >> position >> lower >> upper >> mac && !(fields >> rest)
                        ? by_text.find(position)
                        : by_text.end();
    FairCandidate* c = it == by_text.end() ? nullptr : it->second;
    const std::string body = text.substr(0, text.rfind(' '));
    const Bounds possible = c ? margin_bounds(c->position) : Bounds{};
    if (!c || lower > upper || lower < possible.lower || upper > possible.upper ||
        std::max(lower, c->margin.lower) > std::min(upper, c->margin.upper) ||
        !key_.verify({header_, body}, mac)) {
      ++ignored;  // the header of another run, a damaged or forged line: the others still count
      continue;
    }
    c->margin = {std::max(lower, c->margin.lower), std::min(upper, c->margin.upper)};
    ++resumed_;
    kept += text + "\n";
  }
  if (ignored && note)
    note(path_ + ": " + std::to_string(ignored) +
         " line(s) ignored (damaged, edited, of another run or another key's): settled again");
  AtomicFile out(dir, name);
  out.write(kept.data(), kept.size());
  out.commit();
  // Never through a link (base/dir_lock.cpp): the log was just renamed into place, so a link
  // here was put by someone else.
  const int fd = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0 || !(file_ = ::fdopen(fd, "a"))) {
    if (fd >= 0) ::close(fd);
    throw FileError(path_ + ": cannot open for appending: " + std::strerror(errno));
  }
}

FairCheckpoint::~FairCheckpoint() {
  if (file_) std::fclose(file_);
}

std::string FairCheckpoint::line(const FairCandidate& c) const {
  const std::string body = format_absolute(c.position, m_) + " " + std::to_string(c.margin.lower) +
                           " " + std::to_string(c.margin.upper);
  return body + " " + key_.mac({header_, body}) + "\n";
}

void FairCheckpoint::record(const FairCandidate& c) {
  if (!file_) return;  // a write failed before: the run goes on unkept
  const std::string text = line(c);
  if (std::fwrite(text.data(), 1, text.size(), file_) == text.size() && std::fflush(file_) == 0)
    return;
  if (note_)
    note_(path_ + ": cannot write (" + std::strerror(errno) +
          "): the run goes on, what it settles from now on is not kept");
  std::fclose(file_);
  file_ = nullptr;
}

}  // namespace kalah
