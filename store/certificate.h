// certificate.h: a proof of a position's value as a file (docs/design.md §8).
//
// Format version 1: text lines, then the proof's moves (solver/proof.h) as one zstd frame with
// its content size and checksum, one byte per move (the pit, 0-based):
//
//   kalah certificate 1
//   rules m=6 capture=empty end=immediate remainder=owner
//   board 4 4 4 4 4 4 4 4 4 4 4 4       mover's pits in sowing order, then the opponent's
//   value 10                            V of the board for the mover: what the proof proves
//   position 4,4,...,0,S                the position it came from (absolute notation, stores)
//   leaf-layer 22                       boards with at most this many seeds are read from ...
//   layer 1 NAME CHECKSUM               ... these layer files (the body checksum of the header,
//   ...                                 16 hex digits), one line per layer 1..leaf-layer
//   layer-format 1 2                    each one's format (since 0.10: a layer rewritten in the
//   ...                                 other format since is named so)
//   moves 1234                          bytes in the frame
//   positions 5678                      boards expanded by the proof
//   writer kalah 0.1.0
//   end
//   <zstd frame>
//
// Lines may be added before "end" in later versions; a reader skips keys it does not know. The
// checker (tools/checker/check_certificate.py) shares nothing with this code but the format.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/stop.h"
#include "db/database.h"
#include "game/rules.h"

namespace kalah {

struct CertificateHeader {
  Rules rules;
  Position position;
  int value = 0;                 // V of position.board
  const Database* db = nullptr;  // the leaves, or null
  uint64_t positions = 0;
};

// Writes the certificate atomically (AtomicFile); returns its size in bytes. Throws
// FileError naming the file on an I/O error.
uint64_t write_certificate(const std::string& path, const CertificateHeader& h,
                           const std::vector<uint8_t>& moves);

}  // namespace kalah
