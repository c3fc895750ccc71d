// fuzz_checkpoint.cpp: libFuzzer target for the checkpoint reader (store/checkpoint.h). The input
// is a checkpoint's head lines and frame, split at its first NUL byte; it is given the keyed hash
// a file written with the key has, so that the reader's parsing, size and bound checks meet every
// input. Whatever the bytes, the reader answers or refuses with a reason, allocates no more than
// the file can hold, and every bound it answers is one a search can prove.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "store/checkpoint.h"

using namespace kalah;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const uint8_t bytes[RecordKey::kBytes] = {4, 5, 6};
  static const RecordKey key(bytes);
  const Rules rules{3};  // as the seed corpus's checkpoint of Kalah(3,3)
  const Board b = start_board(3, 3);
  const std::string input(reinterpret_cast<const char*>(data), size);
  const size_t cut = std::min(input.find('\0'), input.size());
  const std::string head = input.substr(0, cut), frame = input.substr(std::min(cut + 1, size));
  std::string problem;
  const auto state = parse_checkpoint(head + "mac " + key.mac({head, frame}) + "\nend\n" + frame,
                                      rules, b, problem, key);
  if (state.has_value() == !problem.empty()) std::abort();
  if (state)
    for (const TranspositionTable::Entry& e : state->entries)
      if (e.lo > e.hi || e.hi > seeds(e.key) || e.lo < -seeds(e.key)) std::abort();
  return 0;
}
