// io.h: a layer's file written from the shares of several processes, and a process's share read
// back from a file (docs/design.md §5).
#pragma once

#include <cstdint>
#include <vector>

#include "db/layer_file.h"
#include "retrograde/builder.h"
#include "retrograde/partition.h"

namespace kalah {

// Writes layer s (`boards` boards), of which this process holds its share (part.ranges) at their
// ranks in `values`: each block is compressed by the process that holds its first board, which
// first gets the rest of the block from the processes that hold it; process 0 gathers the frames,
// kWriteChunk blocks at a time, and writes the file (write_layer_file: the same bytes as one
// machine writes). Returns the bytes this process sent. Collective.
uint64_t write_shared_layer(const Partition& part, int process, const BuildOptions& o, int s,
                            uint64_t boards, uint8_t* values);

// Decodes the blocks of `file` that hold the given ranges and copies those into out (at their
// ranks), in parallel.
void read_share(const LayerFile& file, const std::vector<RankRange>& ranges, uint8_t* out);

}  // namespace kalah
