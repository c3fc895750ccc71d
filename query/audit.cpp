// audit.cpp: the answer store's audit (audit.h).
#include "query/audit.h"

#include "base/deadline.h"
#include "query/query.h"

namespace kalah {
namespace {

// What differs between a stored analysis and a fresh one, or "".
std::string difference(const Analysis& stored, const Analysis& fresh) {
  if (stored.value != fresh.value) return "its value is not the position's";
  if (stored.moves.size() != fresh.moves.size()) return "its moves are not the position's";
  for (size_t k = 0; k < fresh.moves.size(); ++k)
    if (stored.moves[k].pit != fresh.moves[k].pit ||
        stored.moves[k].value != fresh.moves[k].value ||
        stored.moves[k].turn != fresh.moves[k].turn)
      return "pit " + std::to_string(fresh.moves[k].pit + 1) + "'s value or turn is wrong";
  if (stored.best_line != fresh.best_line) return "its best line is not the position's";
  return "";
}

}  // namespace

AnswerAudit audit_answers(const Database& db, const AnswerStore& store, double seconds,
                          const std::function<void(size_t done, size_t total)>& progress) {
  AnswerAudit audit;
  const std::vector<std::string> files = store.files();
  audit.records = files.size();
  for (size_t i = 0; i < files.size(); ++i) {
    if (progress) progress(i, files.size());
    std::string why;
    AnswerStore::Verdict verdict;
    const auto read = store.read_file(files[i], why, &verdict);
    if (verdict == AnswerStore::Verdict::kOtherKey) {  // not ours to judge
      ++audit.other_keys;
      continue;
    }
    if (verdict == AnswerStore::Verdict::kUnreadable || verdict == AnswerStore::Verdict::kMissing) {
      audit.unreadable.push_back(files[i] + ": " + why);  // a read error is not a verdict
      continue;
    }
    if (read) {
      Query q;  // the store left out: the answer is found again, not read back
      q.rules = store.rules();
      q.position = read->first;
      q.db = &db;
      q.deadline = seconds_from_now(seconds);
      const Outcome fresh = run(q);
      if (!fresh.complete()) {
        ++audit.unchecked;
        continue;
      }
      why = difference(read->second.analysis, *fresh.analysis);
      if (why.empty()) {
        ++(fresh.source == Source::kDatabase ? audit.by_database : audit.by_search);
        continue;
      }
    }
    audit.removed.push_back(files[i] + ": " + why);
    store.remove(files[i]);
  }
  if (progress) progress(files.size(), files.size());
  return audit;
}

}  // namespace kalah
