// fuzz_answer.cpp: libFuzzer target for the answer store's record reader (store/answer_store.h).
// The input is a record's body; it is given the keyed hash a record written with the key has,
// so that the reader's parsing and checks, not only the hash, meet every input. Whatever the
// bytes, the reader answers or refuses with a reason, and what it answers makes sense.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "store/answer_store.h"

using namespace kalah;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const uint8_t bytes[RecordKey::kBytes] = {1, 2, 3};
  static const RecordKey key(bytes);
  static const AnswerStore store("/nonexistent", Rules{4}, key, [](const std::string&) {});
  const std::string body(reinterpret_cast<const char*>(data), size);
  std::string why;
  const auto read = store.parse(body + "mac " + key.mac({body}) + "\n", why);
  if (read.has_value() == !why.empty()) std::abort();  // an answer, or a reason
  if (read && read->second.analysis.value != read->first.mover_store - read->first.opponent_store +
                                                 read->second.analysis.board_value)
    std::abort();
  return 0;
}
