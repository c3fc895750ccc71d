// exchange.cpp: a round is an all-to-all of counts, of keys, and of values back.
#include "mpi/exchange.h"

#include <tbb/parallel_for.h>

#include <stdexcept>

#include "base/units.h"
#include "mpi/session.h"

namespace kalah {
namespace {

uint64_t chunk_children(int processes) {
  return kExchangeBytes / (21 + 9 * static_cast<uint64_t>(processes - 1));
}

}  // namespace

ProcessExchange::ProcessExchange(const Partition& part, int s, int process,
                                 const std::vector<const uint8_t*>& lower,
                                 std::function<void(uint64_t)> report)
    : part_(part), s_(s), process_(process), lower_(lower), report_(std::move(report)) {}

uint64_t ProcessExchange::chunk_bytes() const {
  return kFarChildBytes * chunk_children(part_.processes());
}

void ProcessExchange::resolve(const std::vector<std::span<const uint64_t>>& keys, uint8_t* values) {
  round(&keys, values);
}

void ProcessExchange::finish() {
  while (round(nullptr, nullptr)) {
  }
}

// The chunk's keys sorted by the process that holds them into out_ (their places in back_);
// returns where each process's keys start.
std::vector<uint64_t> ProcessExchange::sort_requests(
    const std::vector<std::span<const uint64_t>>& keys) {
  uint64_t n = 0;
  for (const auto& k : keys) n += k.size();
  uint64_t* out = out_.get(n);
  uint32_t* back = back_.get(n);
  return sort_children(
      keys, part_.processes(),
      [&](uint64_t key) { return part_.owner_of(far_layer(key), far_rank(key)); },
      [&](uint64_t slot, uint32_t index, uint64_t key) {
        out[slot] = key;
        back[slot] = index;
      },
      counts_);
}

// Every process tells every other how many keys it sends, whether it still has work and how many
// of its boards are done. Collective.
ProcessExchange::Heads ProcessExchange::exchange_heads(const std::vector<uint64_t>& start,
                                                       bool requesting) {
  const int processes = part_.processes();
  std::vector<uint64_t> head(3 * processes), got(3 * processes);
  for (int d = 0; d < processes; ++d) {
    head[3 * d] = start[d + 1] - start[d];
    head[3 * d + 1] = requesting;
    head[3 * d + 2] = done_;
  }
  check(MPI_Alltoall(head.data(), 3, MPI_UINT64_T, got.data(), 3, MPI_UINT64_T, MPI_COMM_WORLD),
        "MPI_Alltoall");
  Heads h;
  h.send.resize(processes);
  h.send_at.resize(processes);
  h.recv.resize(processes);
  h.recv_at.resize(processes);
  for (int d = 0; d < processes; ++d) {
    h.send[d] = as_count(start[d + 1] - start[d]);
    h.send_at[d] = as_count(start[d]);
    h.recv[d] = as_count(got[3 * d]);
    h.recv_at[d] = as_count(h.received);
    h.received += got[3 * d];
    h.active = h.active || got[3 * d + 1];
    h.done += got[3 * d + 2];
  }
  return h;
}

// The values of the n keys asked of this process. The reads miss the caches: each is prefetched
// a few keys ahead.
void ProcessExchange::look_up(const uint64_t* in, uint64_t n, uint8_t* answers) const {
  constexpr uint64_t kAhead = 16;
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, n, 4096), [&](const auto& range) {
    for (uint64_t i = range.begin(); i < range.end(); ++i) {
      if (i + kAhead < range.end() && far_layer(in[i + kAhead]) < s_)
        __builtin_prefetch(lower_[far_layer(in[i + kAhead])] + far_rank(in[i + kAhead]));
      const int t = far_layer(in[i]);
      const uint64_t r = far_rank(in[i]);
      if (t >= s_ || !lower_[t] || part_.owner_of(t, r) != process_)
        throw std::logic_error("a process was asked for a board it does not hold");
      answers[i] = lower_[t][r];
    }
  });
}

// One round: this process's requests (none once it has finished), everyone's answers. Returns
// whether any process had requests in it. Collective.
bool ProcessExchange::round(const std::vector<std::span<const uint64_t>>* keys, uint8_t* values) {
  const auto t0 = std::chrono::steady_clock::now();
  const int processes = part_.processes();
  const std::vector<uint64_t> start =
      keys ? sort_requests(*keys) : std::vector<uint64_t>(processes + 1, 0);
  const Heads h = exchange_heads(start, keys != nullptr);
  uint64_t* in = in_.get(h.received);
  check(MPI_Alltoallv(out_.get(start[processes]), h.send.data(), h.send_at.data(), MPI_UINT64_T, in,
                      h.recv.data(), h.recv_at.data(), MPI_UINT64_T, MPI_COMM_WORLD),
        "MPI_Alltoallv");
  uint8_t* answers = answers_.get(h.received);
  look_up(in, h.received, answers);
  uint8_t* replies = replies_.get(start[processes]);
  check(MPI_Alltoallv(answers, h.recv.data(), h.recv_at.data(), MPI_UINT8_T, replies, h.send.data(),
                      h.send_at.data(), MPI_UINT8_T, MPI_COMM_WORLD),
        "MPI_Alltoallv");
  const uint32_t* back = back_.get(start[processes]);
  tbb::parallel_for(uint64_t{0}, start[processes],
                    [&](uint64_t i) { values[back[i]] = replies[i]; });
  ++rounds_;
  exchange_seconds_ += seconds_since(t0);
  bytes_sent_ += 8 * start[processes] + h.received + 3 * 8 * (processes - 1);
  if (process_ == 0 && report_) report_(h.done);
  return h.active;
}

}  // namespace kalah
