// session.h: MPI for the life of a process, and MPI's error codes as exceptions.
//
// mpi/ holds every MPI call of kalah (docs/design.md §5, "over several processes"): db/ builds a
// layer through MPI-free seams (retrograde/far_children.h, db/layer_file.h's FrameSource,
// retrograde/build_loop.h) and this folder fills them with MPI. An MPI process is a "process" here
// and numbered 0..P-1; "rank" keeps its one meaning, a board's index in its layer. A function whose
// comment ends "Collective." must be called by every process, in the same order.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace kalah {

// MPI for the life of the object (threads: only the one that made it calls MPI). Collective.
class MpiSession {
 public:
  MpiSession();
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  // This process's number, and how many there are.
  int process() const { return process_; }
  int processes() const { return processes_; }
  // Processes on this machine (they share its memory and cores).
  int local_processes() const { return local_processes_; }

 private:
  int process_ = 0, processes_ = 1, local_processes_ = 1;
};

// Throws std::runtime_error naming `call` unless `code` is MPI_SUCCESS: MPI_COMM_WORLD returns
// errors instead of ending the job, most likely because another process has died.
void check(int code, const char* call);

// n as an MPI count; throws std::overflow_error past 2^31 - 1.
int as_count(uint64_t n);

}  // namespace kalah
