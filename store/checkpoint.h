// checkpoint.h: a long solve's progress in a file (`kalah solve --checkpoint DIR`, docs/design.md
// §7): the SearchState of parallel/search_run.h for one board of one rule variant.
//
// DIR/<variant>-<16 hex digits: the board's hash>.<key id>.checkpoint (one file a key: several
// users or keys sharing DIR never overwrite each other's; store/keyed_hash.h), format version 2:
// text lines, then the table entries as one zstd frame (content size and checksum), 2m + 6 bytes
// each: the board (the mover's pits, then the opponent's), lo and hi (int16, little endian), the
// move (int8, -1 for none) and log2 of the work (uint8):
//
//   kalah checkpoint 2
//   rules m=6 capture=empty end=immediate remainder=owner
//   board 4 4 4 4 4 4 4 4 4 4 4 4
//   nodes 123456789               searched by every run so far
//   move 1 -20 -2                 a root move (pit, 1-based) and its proven bounds, stores left out
//   entries 4194304
//   mac <64 hex digits>           keyed BLAKE2b-256 (store/keyed_hash.h) of the lines above and
//   end                           of the frame's bytes
//
// Version 1 had an unkeyed checksum of the decompressed entries; its files are ignored. A file is
// believed only when its keyed hash holds, which is checked before anything it declares is
// allocated; then every bound is checked to be one a search can prove (lo <= hi, within the seeds
// of its board) and every size against the file. Written with AtomicFile, so a kill at any
// moment leaves the last complete checkpoint. The values do not depend on the database the
// search stops at: a checkpoint serves any.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "game/rules.h"
#include "parallel/search_run.h"
#include "store/keyed_hash.h"

namespace kalah {

std::string checkpoint_path(const std::string& dir, const Rules& rules, const Board& b,
                            const RecordKey& key = RecordKey::user());

// Creates dir and its parents when missing (FileError when it cannot): a solve checks it
// before its first hour of search, not at its first save.
void make_checkpoint_dir(const std::string& dir);

// Creates dir when missing. Throws FileError naming the file on an I/O error, and
// std::runtime_error when there is no key (store/keyed_hash.h).
void write_checkpoint(const std::string& dir, const Rules& rules, const Board& b,
                      const SearchState& state, const RecordKey& key = RecordKey::user());

// The state saved for b, or nothing when there is none. A file that cannot be trusted (damaged,
// another format, another board under the same name) is nothing too, with `problem` saying why.
std::optional<SearchState> read_checkpoint(const std::string& dir, const Rules& rules,
                                           const Board& b, std::string& problem,
                                           const RecordKey& key = RecordKey::user());
// A checkpoint file's bytes, as read_checkpoint reads them (the fuzzer's entry).
std::optional<SearchState> parse_checkpoint(const std::string& data, const Rules& rules,
                                            const Board& b, std::string& problem,
                                            const RecordKey& key);

// A search's checkpoints in dir for position p: the state saved there, if any, and the saving to
// it. `note` is told (a line each) what the run resumes from, each save, and a file it cannot
// trust, which is ignored. `full`: for a full analysis, whose notes estimate what remains. A save
// that fails (a full disk) is said to `note` and the search goes on: the next save tries again.
// Throws FileError when dir cannot be created or written.
struct Checkpoints {
  std::optional<SearchState> resumed;
  Checkpointing checkpointing;
};
std::unique_ptr<Checkpoints> open_checkpoints(
    const std::string& dir, double seconds, const Rules& rules, const Position& p, bool full,
    const std::function<void(const std::string&)>& note = {});

}  // namespace kalah
