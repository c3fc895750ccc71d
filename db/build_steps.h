// build_steps.h: the parts of a build that the single-machine builder (db/builder.cpp) and the
// build over several processes (db/mpi_build.cpp) share.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "db/builder.h"

namespace kalah {

uint64_t machine_memory();
// Beside the raw layers while building layer s: 32 MiB for buffers and code, and the row tables
// (db/row_moves.h) of the row pairs in flight, one per thread, the largest holding the rows of s
// seeds.
uint64_t overhead_bytes(const Ranker& ranker, int s, int threads);
// Removes the temporary files of interrupted builds (the directory must be locked).
void remove_temporary_files(const std::string& dir);
// Which layers are on disk and valid (checksums included). A damaged file of this format is
// rebuilt (a note says so); any other problem (another format or version, contradicting fields,
// a file that cannot be read) throws DatabaseError before anything is touched.
std::vector<bool> valid_layers(const BuildOptions& o, BuildObserver& observer);
double since(std::chrono::steady_clock::time_point t0);

}  // namespace kalah
