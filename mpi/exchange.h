// exchange.h: far children that other processes hold, resolved in exchange rounds
// (docs/design.md §5).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "retrograde/chunk_sort.h"
#include "retrograde/far_children.h"
#include "retrograde/partition.h"

namespace kalah {

// Each process's lists of a chunk's far children take at most this much, whatever the number of
// processes: a child costs the chunk 21 bytes (key and value, and the key sorted by process with
// its place), and each other process may send this one as many keys as it lists, 9 bytes each
// (key in, value out).
inline constexpr uint64_t kExchangeBytes = uint64_t{128} << 20;

// The far children of this process's boards of layer s, resolved in rounds: each round every
// process sends every other the keys it needs from it and answers the keys it gets, never a
// message per board. Every process takes part in every round: one that has finished its part of
// the layer keeps answering (finish) until none is left with work. resolve and finish are
// Collective.
class ProcessExchange final : public FarChildren {
 public:
  // `report(done)` is called on process 0 after each round with the boards all processes have
  // finished.
  ProcessExchange(const Partition& part, int s, int process,
                  const std::vector<const uint8_t*>& lower, std::function<void(uint64_t)> report);

  bool elsewhere(int t, int k) const override { return part_.owner(t, k) != process_; }
  bool computes(int k) const override { return part_.owner(s_, k) == process_; }
  uint64_t chunk_bytes() const override;
  void resolve(const std::vector<std::span<const uint64_t>>& keys, uint8_t* values) override;
  void finish() override;

  // This process's boards finished so far (from any thread): sent along for process 0's progress.
  void boards_done(uint64_t n) { done_ = std::max<uint64_t>(done_, n); }
  uint64_t rounds() const { return rounds_; }
  uint64_t bytes_sent() const { return bytes_sent_; }
  // Time in rounds: sorting, waiting, sending, answering.
  double exchange_seconds() const { return exchange_seconds_; }

 private:
  // What a round's all-to-all header tells this process.
  struct Heads {
    std::vector<int> send, send_at, recv, recv_at;
    uint64_t received = 0, done = 0;
    bool active = false;
  };
  bool round(const std::vector<std::span<const uint64_t>>* keys, uint8_t* values);
  std::vector<uint64_t> sort_requests(const std::vector<std::span<const uint64_t>>& keys);
  Heads exchange_heads(const std::vector<uint64_t>& start, bool requesting);
  void look_up(const uint64_t* in, uint64_t n, uint8_t* answers) const;

  const Partition& part_;
  const int s_, process_;
  const std::vector<const uint8_t*>& lower_;
  const std::function<void(uint64_t)> report_;
  std::atomic<uint64_t> done_{0};
  uint64_t rounds_ = 0, bytes_sent_ = 0;
  double exchange_seconds_ = 0;
  Scratch<uint32_t> counts_;
  Scratch<uint64_t> out_;     // the keys asked for, by process
  Scratch<uint32_t> back_;    // where each one's value goes in the chunk
  Scratch<uint64_t> in_;      // the keys asked of this process
  Scratch<uint8_t> answers_;  // their values
  Scratch<uint8_t> replies_;  // the values of the keys asked for
};

}  // namespace kalah
