// search.cpp: jobs, cancellations and answers between process 0 and the others.
#include "mpi/search.h"

#include <chrono>

namespace kalah {
namespace {

// How long a process waits for its slots' answers before it looks for messages again: a wake-up
// takes the core from a slot on a machine with a process a core, and a job lasts far longer.
constexpr double kPollSeconds = 0.002;

enum Tag : int { kJobs = 101, kCancel = 102, kStop = 103, kAnswers = 104 };

template <class T>
uint64_t send(const std::vector<T>& items, int to, int tag) {
  const uint64_t bytes = items.size() * sizeof(T);
  check(MPI_Send(items.data(), as_count(bytes), MPI_BYTE, to, tag, MPI_COMM_WORLD), "MPI_Send");
  return bytes;
}

// The message `status` announced (MPI_Iprobe), as items of T.
template <class T>
std::vector<T> receive(MPI_Status& status) {
  int bytes = 0;
  check(MPI_Get_count(&status, MPI_BYTE, &bytes), "MPI_Get_count");
  std::vector<T> items(bytes / sizeof(T));
  check(MPI_Recv(items.data(), bytes, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE),
        "MPI_Recv");
  return items;
}

// A message with `tag` from `from` (MPI_ANY_SOURCE: anyone) waiting, into status.
bool waiting(int from, int tag, MPI_Status& status) {
  int flag = 0;
  check(MPI_Iprobe(from, tag, MPI_COMM_WORLD, &flag, &status), "MPI_Iprobe");
  return flag != 0;
}

std::vector<int> gather_slots(const MpiSession& mpi, int mine) {
  std::vector<int> slots(mpi.process() == 0 ? mpi.processes() : 0);
  check(MPI_Gather(&mine, 1, MPI_INT, slots.data(), 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Gather");
  return slots;
}

}  // namespace

MpiTransport::MpiTransport(const MpiSession& mpi, SlotPool& local)
    : local_(local),
      slots_(gather_slots(mpi, local.slots())),
      jobs_(mpi.processes()),
      cancels_(mpi.processes()) {}

MpiTransport::~MpiTransport() {
  for (int p = 1; p < processes(); ++p)
    MPI_Send(nullptr, 0, MPI_BYTE, p, kStop, MPI_COMM_WORLD);  // failures: the job ends anyway
}

void MpiTransport::submit(int process, const LeafJob& job) {
  if (process == 0)
    local_.submit(job);
  else
    jobs_[process].push_back(job);
}

void MpiTransport::cancel(int process, uint64_t id) {
  if (process == 0)
    local_.cancel(id);
  else
    cancels_[process].push_back(id);
}

std::vector<LeafAnswer> MpiTransport::exchange(double seconds) {
  for (int p = 1; p < processes(); ++p) {
    // Cancellations first: they free slots for the new jobs.
    if (!cancels_[p].empty()) bytes_ += send(cancels_[p], p, kCancel);
    if (!jobs_[p].empty()) bytes_ += send(jobs_[p], p, kJobs);
    cancels_[p].clear();
    jobs_[p].clear();
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  std::vector<LeafAnswer> in;
  do {
    in = local_.answers(kPollSeconds);
    for (MPI_Status status; waiting(MPI_ANY_SOURCE, kAnswers, status);) {
      const std::vector<LeafAnswer> some = receive<LeafAnswer>(status);
      bytes_ += some.size() * sizeof(LeafAnswer);
      in.insert(in.end(), some.begin(), some.end());
    }
  } while (in.empty() && std::chrono::steady_clock::now() < deadline);
  return in;
}

void serve_jobs(const MpiSession& mpi, SlotPool& pool) {
  gather_slots(mpi, pool.slots());
  for (;;) {
    MPI_Status status;
    if (waiting(0, MPI_ANY_TAG, status)) {
      if (status.MPI_TAG == kStop) {
        receive<char>(status);
        return;
      }
      if (status.MPI_TAG == kJobs)
        for (const LeafJob& job : receive<LeafJob>(status)) pool.submit(job);
      else if (status.MPI_TAG == kCancel)
        for (uint64_t id : receive<uint64_t>(status)) pool.cancel(id);
      continue;
    }
    const std::vector<LeafAnswer> answers = pool.answers(kPollSeconds);
    if (!answers.empty()) send(answers, 0, kAnswers);
  }
}

}  // namespace kalah
