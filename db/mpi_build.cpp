// mpi_build.cpp: the build over several processes: exchange rounds, shared writing.
#include "db/mpi_build.h"

#include <sys/resource.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

#include "db/build_steps.h"
#include "db/chunk_sort.h"
#include "db/dir_lock.h"
#include "db/file_names.h"
#include "db/layer_file.h"
#include "db/partition.h"
#include "solver/huge_array.h"
#include "solver/threads.h"

namespace kalah {
namespace {

// An MPI call that failed (the communicator returns errors instead of aborting): most likely
// another rank died.
void check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string(call) + " failed (" + std::string(text, length) +
                           "): another rank has probably stopped");
}

int as_count(uint64_t n) {
  if (n > INT_MAX) throw std::overflow_error("an MPI message of more than 2^31 elements");
  return static_cast<int>(n);
}

// Each rank's lists of a chunk's far children take at most this much, whatever the number of
// ranks: a child costs the chunk 21 bytes (key and value, and the key sorted by rank with its
// place), and each other rank may send this rank as many keys as it lists, 9 bytes each (key in,
// value out).
constexpr uint64_t kExchangeBytes = uint64_t{128} << 20;
uint64_t chunk_children(int ranks) {
  return kExchangeBytes / (21 + 9 * static_cast<uint64_t>(ranks - 1));
}

// Open MPI's own memory in each rank (its shared-memory transport's buffers, libraries).
constexpr uint64_t kMpiBytes = uint64_t{32} << 20;

constexpr uint64_t kRankMask = (uint64_t{1} << 56) - 1;

// The far children of a rank's boards (those other ranks hold), resolved in rounds: each round
// every rank sends every other the keys it needs from it and answers the keys it gets. Every
// rank takes part in every round: one that has finished its part of the layer keeps answering
// until none is left with work.
class RankExchange final : public FarChildren {
 public:
  RankExchange(const Partition& part, int s, int rank, const std::vector<const uint8_t*>& lower,
               std::function<void(uint64_t)> report)
      : part_(part), s_(s), rank_(rank), lower_(lower), report_(std::move(report)) {}

  bool elsewhere(int t, int k) const override { return part_.owner(t, k) != rank_; }
  bool computes(int k) const override { return part_.owner(s_, k) == rank_; }
  uint64_t chunk_bytes() const override { return 17 * chunk_children(part_.ranks()); }
  void resolve(const std::vector<std::span<const uint64_t>>& keys, uint8_t* values) override {
    round(&keys, values);
  }
  void finish() override {
    while (round(nullptr, nullptr)) {
    }
  }

  // This rank's boards finished so far (from any thread): sent along for rank 0's progress.
  void boards_done(uint64_t n) { done_ = std::max<uint64_t>(done_, n); }
  uint64_t rounds() const { return rounds_; }
  uint64_t bytes_sent() const { return bytes_sent_; }
  double exchange_seconds() const { return exchange_seconds_; }

 private:
  // One round: this rank's requests (none once it has finished), everyone's answers. Returns
  // whether any rank had requests in it.
  bool round(const std::vector<std::span<const uint64_t>>* keys, uint8_t* values) {
    const auto t0 = std::chrono::steady_clock::now();
    const int ranks = part_.ranks();
    std::vector<uint64_t> start(ranks + 1, 0);
    uint64_t* out = nullptr;
    uint32_t* back = nullptr;
    if (keys) {
      uint64_t n = 0;
      for (const auto& k : *keys) n += k.size();
      out = out_.get(n);
      back = back_.get(n);
      start = sort_children(
          *keys, ranks, [&](uint64_t key) { return part_.owner_of(key >> 56, key & kRankMask); },
          [&](uint64_t slot, uint32_t index, uint64_t key) {
            out[slot] = key;
            back[slot] = index;
          },
          counts_);
    }
    // Every rank tells every other how many keys it sends, whether it still has work and how
    // many of its boards are done.
    std::vector<uint64_t> head(3 * ranks), got(3 * ranks);
    for (int d = 0; d < ranks; ++d) {
      head[3 * d] = start[d + 1] - start[d];
      head[3 * d + 1] = keys != nullptr;
      head[3 * d + 2] = done_;
    }
    check(MPI_Alltoall(head.data(), 3, MPI_UINT64_T, got.data(), 3, MPI_UINT64_T, MPI_COMM_WORLD),
          "MPI_Alltoall");
    std::vector<int> send(ranks), send_at(ranks), recv(ranks), recv_at(ranks);
    bool active = false;
    uint64_t done = 0, received = 0;
    for (int d = 0; d < ranks; ++d) {
      send[d] = as_count(start[d + 1] - start[d]);
      send_at[d] = as_count(start[d]);
      recv[d] = as_count(got[3 * d]);
      recv_at[d] = as_count(received);
      received += got[3 * d];
      active = active || got[3 * d + 1];
      done += got[3 * d + 2];
    }
    uint64_t* in = in_.get(received);
    check(MPI_Alltoallv(out, send.data(), send_at.data(), MPI_UINT64_T, in, recv.data(),
                        recv_at.data(), MPI_UINT64_T, MPI_COMM_WORLD),
          "MPI_Alltoallv");
    uint8_t* answers = answers_.get(received);
    // The reads miss the caches: each is prefetched a few keys ahead.
    constexpr uint64_t kAhead = 16;
    tbb::parallel_for(tbb::blocked_range<uint64_t>(0, received, 4096), [&](const auto& range) {
      for (uint64_t i = range.begin(); i < range.end(); ++i) {
        if (i + kAhead < range.end() && (in[i + kAhead] >> 56) < uint64_t(s_))
          __builtin_prefetch(lower_[in[i + kAhead] >> 56] + (in[i + kAhead] & kRankMask));
        const int t = static_cast<int>(in[i] >> 56);
        const uint64_t r = in[i] & kRankMask;
        if (t >= s_ || !lower_[t] || part_.owner_of(t, r) != rank_)
          throw std::logic_error("a rank was asked for a board it does not hold");
        answers[i] = lower_[t][r];
      }
    });
    uint8_t* replies = replies_.get(start[ranks]);
    check(MPI_Alltoallv(answers, recv.data(), recv_at.data(), MPI_UINT8_T, replies, send.data(),
                        send_at.data(), MPI_UINT8_T, MPI_COMM_WORLD),
          "MPI_Alltoallv");
    tbb::parallel_for(uint64_t{0}, start[ranks], [&](uint64_t i) { values[back[i]] = replies[i]; });
    ++rounds_;
    exchange_seconds_ += since(t0);
    bytes_sent_ += 8 * start[ranks] + received + 3 * 8 * (ranks - 1);
    if (rank_ == 0 && report_) report_(done);
    return active;
  }

  const Partition& part_;
  const int s_, rank_;
  const std::vector<const uint8_t*>& lower_;
  const std::function<void(uint64_t)> report_;
  std::atomic<uint64_t> done_{0};
  uint64_t rounds_ = 0, bytes_sent_ = 0;
  double exchange_seconds_ = 0;  // in rounds: sorting, waiting, sending, answering
  Scratch<uint32_t> counts_;
  Scratch<uint64_t> out_;     // the keys asked for, by rank
  Scratch<uint32_t> back_;    // where each one's value goes in the chunk
  Scratch<uint64_t> in_;      // the keys asked of this rank
  Scratch<uint8_t> answers_;  // their values
  Scratch<uint8_t> replies_;  // the values of the keys asked for
};

// Writes layer s, of which this rank holds its boards (part.ranges) at their ranks in `values`:
// each block is compressed by the rank that holds its first board, which first gets the rest of
// the block from the ranks that hold it; rank 0 gathers the frames, kWriteChunk blocks at a
// time, and writes the file (write_layer_file: the same bytes as one machine writes). Returns
// the bytes this rank sent.
uint64_t write_shared_layer(const Partition& part, int rank, const BuildOptions& o, int s,
                            uint64_t boards, uint8_t* values) {
  const int ranks = part.ranks();
  const uint64_t per_block = kBoardsPerBlock, blocks = (boards + per_block - 1) / per_block;
  auto compressor = [&](uint64_t block) { return part.owner_of(s, block * per_block); };
  uint64_t sent = 0;

  // A range that starts inside a block another rank compresses sends it the range's part of it.
  struct Segment {
    int from, to;
    uint64_t begin, end;
  };
  std::vector<Segment> segments;
  for (int r = 0; r < ranks; ++r)
    for (const RankRange& range : part.ranges(s, r)) {
      const uint64_t block = range.begin / per_block;
      if (range.begin % per_block && compressor(block) != r)
        segments.push_back(
            {r, compressor(block), range.begin, std::min(range.end, (block + 1) * per_block)});
    }
  std::sort(segments.begin(), segments.end(), [](const Segment& a, const Segment& b) {
    return std::tie(a.from, a.to, a.begin) < std::tie(b.from, b.to, b.begin);
  });
  std::vector<int> send(ranks, 0), send_at(ranks, 0), recv(ranks, 0), recv_at(ranks, 0);
  std::vector<uint8_t> out, in;
  for (const Segment& g : segments) {
    if (g.from == rank) {
      send[g.to] += as_count(g.end - g.begin);
      out.insert(out.end(), values + g.begin, values + g.end);
    }
    if (g.to == rank) recv[g.from] += as_count(g.end - g.begin);
  }
  for (int d = 1; d < ranks; ++d) {
    send_at[d] = send_at[d - 1] + send[d - 1];
    recv_at[d] = recv_at[d - 1] + recv[d - 1];
  }
  in.resize(recv_at[ranks - 1] + recv[ranks - 1]);
  check(MPI_Alltoallv(out.data(), send.data(), send_at.data(), MPI_UINT8_T, in.data(), recv.data(),
                      recv_at.data(), MPI_UINT8_T, MPI_COMM_WORLD),
        "MPI_Alltoallv");
  sent += out.size();
  size_t at = 0;
  for (const Segment& g : segments)
    if (g.to == rank) {
      std::copy(in.begin() + at, in.begin() + at + (g.end - g.begin), values + g.begin);
      at += g.end - g.begin;
    }

  // This rank's blocks, compressed all at once (in parallel), sent in the writer's order.
  std::vector<uint64_t> mine;
  for (uint64_t b = 0; b < blocks; ++b)
    if (compressor(b) == rank) mine.push_back(b);
  std::vector<std::string> frames(mine.size());
  tbb::parallel_for(size_t{0}, mine.size(), [&](size_t i) {
    const uint64_t first = mine[i] * per_block;
    frames[i] = compress_block(values + first, std::min(per_block, boards - first), o.zstd_level);
  });
  size_t next = 0;  // of this rank's frames, the first not sent yet
  const FrameSource gather = [&](uint64_t first, uint64_t count, std::vector<std::string>& got) {
    std::vector<uint64_t> sizes;
    std::string bytes;
    for (; next < mine.size() && mine[next] < first + count; ++next) {
      sizes.push_back(frames[next].size());
      bytes += frames[next];
      frames[next] = std::string();
    }
    std::vector<int> counts(ranks, 0), count_at(ranks, 0), byte_counts(ranks, 0), byte_at(ranks, 0);
    for (uint64_t b = first; b < first + count; ++b) ++counts[compressor(b)];
    for (int r = 1; r < ranks; ++r) count_at[r] = count_at[r - 1] + counts[r - 1];
    std::vector<uint64_t> all_sizes(rank == 0 ? count : 0);
    check(MPI_Gatherv(sizes.data(), as_count(sizes.size()), MPI_UINT64_T, all_sizes.data(),
                      counts.data(), count_at.data(), MPI_UINT64_T, 0, MPI_COMM_WORLD),
          "MPI_Gatherv");
    if (rank == 0)
      for (int r = 0; r < ranks; ++r) {
        uint64_t n = 0;
        for (int i = 0; i < counts[r]; ++i) n += all_sizes[count_at[r] + i];
        byte_counts[r] = as_count(n);
        if (r > 0) byte_at[r] = byte_at[r - 1] + byte_counts[r - 1];
      }
    std::string all_bytes(rank == 0 ? byte_at[ranks - 1] + byte_counts[ranks - 1] : 0, '\0');
    check(MPI_Gatherv(bytes.data(), as_count(bytes.size()), MPI_BYTE, all_bytes.data(),
                      byte_counts.data(), byte_at.data(), MPI_BYTE, 0, MPI_COMM_WORLD),
          "MPI_Gatherv");
    if (rank != 0) {
      sent += bytes.size() + 8 * sizes.size();
      return;
    }
    // Block b is the next frame of the rank that compressed it.
    std::vector<int> taken(ranks, 0);
    std::vector<uint64_t> offset(byte_at.begin(), byte_at.end());
    for (uint64_t b = first; b < first + count; ++b) {
      const int r = compressor(b);
      const uint64_t size = all_sizes[count_at[r] + taken[r]++];
      got[b - first] = all_bytes.substr(offset[r], size);
      offset[r] += size;
    }
  };
  if (rank == 0) {
    write_layer_file(o.dir, o.rules, s, boards, gather);
  } else {
    std::vector<std::string> unused;
    for (uint64_t first = 0; first < blocks; first += kWriteChunk)
      gather(first, std::min(kWriteChunk, blocks - first), unused);
  }
  return sent;
}

// Decodes the blocks of `file` that hold the given ranges and copies those into out (at their
// ranks), in parallel.
void read_ranges(const LayerFile& file, const std::vector<RankRange>& ranges, uint8_t* out) {
  const uint64_t per_block = file.header().boards_per_block;
  std::vector<uint64_t> blocks;
  for (const RankRange& r : ranges)
    for (uint64_t b = r.begin / per_block; b * per_block < r.end; ++b)
      if (blocks.empty() || blocks.back() != b) blocks.push_back(b);
  tbb::parallel_for(size_t{0}, blocks.size(), [&](size_t i) {
    thread_local std::vector<uint8_t> data;
    const uint64_t first = blocks[i] * per_block, n = file.block_boards(blocks[i]);
    data.resize(n);
    file.read_block(blocks[i], data.data());
    for (const RankRange& r : ranges) {
      const uint64_t begin = std::max(first, r.begin), end = std::min(first + n, r.end);
      if (begin < end) std::copy(&data[begin - first], &data[end - first], out + begin);
    }
  });
}

uint64_t peak_rss() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<uint64_t>(u.ru_maxrss) * 1024;
}

std::string mib(uint64_t bytes) {
  return std::to_string((bytes + (1 << 19)) >> 20) + " MiB";
}

}  // namespace

MpiSession::MpiSession() {
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  // Errors come back as codes (check() turns them into exceptions with a message) instead of
  // ending the job without one.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks_);
  MPI_Comm local;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local);
  MPI_Comm_size(local, &local_ranks_);
  MPI_Comm_free(&local);
}

MpiSession::~MpiSession() {
  MPI_Finalize();
}

BuildOptions for_rank(BuildOptions o, const MpiSession& mpi) {
  if (o.threads == 0) o.threads = std::max(1, thread_count(0) / mpi.local_ranks());
  if (o.memory_limit == 0) o.memory_limit = machine_memory() / mpi.local_ranks();
  return o;
}

MpiMemoryPlan plan_mpi_memory(const BuildOptions& o, int ranks) {
  const int threads = thread_count(o.threads);
  const Ranker ranker(o.rules.pits, o.max_seeds);
  const Partition part(ranker, o.max_seeds, ranks);
  MpiMemoryPlan plan;
  plan.layer_bytes.assign(o.max_seeds + 1, 0);
  std::vector<uint64_t> raw(ranks, 0);  // layers 0..s held by each rank
  for (int s = 1; s <= o.max_seeds; ++s) {
    for (int r = 0; r < ranks; ++r) {
      // A rank's share of a layer, and about one huge page (2 MiB) a range, for the pages its
      // ends fall in.
      raw[r] += std::min(ranker.layer_size(s),
                         part.boards(s, r) + part.ranges(s, r).size() * (uint64_t{2} << 20));
      // Beside the raw layers: the exchange's lists, the rank's frames of layer s while it is
      // written (files take under 0.5 bytes a board), and the MPI library's buffers.
      const uint64_t bytes = raw[r] + overhead_bytes(ranker, s, threads) +
                             (ranks > 1 ? kExchangeBytes : 0) + part.boards(s, r) / 2 + kMpiBytes;
      if (bytes > plan.layer_bytes[s]) plan.layer_bytes[s] = bytes;
      if (bytes > plan.peak) {
        plan.peak = bytes;
        plan.peak_rank = r;
        plan.peak_layer = s;
      }
    }
  }
  if (plan.peak > o.memory_limit)
    throw MemoryLimitError(
        "building up to " + std::to_string(o.max_seeds) + " seeds over " + std::to_string(ranks) +
        (ranks > 1 ? " ranks" : " rank") + " needs " + mib(plan.peak) + " on rank " +
        std::to_string(plan.peak_rank) + " (at layer " + std::to_string(plan.peak_layer) +
        "); the limit per rank is " + mib(o.memory_limit) +
        " (--memory; by default this machine's memory shared among its ranks): more ranks on "
        "more machines, or fewer seeds");
  return plan;
}

void validate_mpi(const BuildOptions& o) {
  validate(o);
  if (o.lean)
    throw std::invalid_argument(
        "--lean does not apply to a build over several processes: each rank holds its share of "
        "every layer raw; add ranks (on more machines) instead");
}

void build_database_mpi(const BuildOptions& options, const MpiSession& mpi,
                        BuildObserver& observer) {
  const BuildOptions o = for_rank(options, mpi);
  validate_mpi(o);
  const int ranks = mpi.ranks(), me = mpi.rank();
  const Ranker ranker(o.rules.pits, o.max_seeds);
  const Partition part(ranker, o.max_seeds, ranks);
  const ThreadLimit threads(o.threads);
  const MpiMemoryPlan plan = plan_mpi_memory(o, ranks);

  // Rank 0 owns the directory: it locks it, cleans it and finds the valid layers.
  std::optional<DirectoryLock> lock;
  std::vector<char> valid(o.max_seeds + 1, 0);
  if (me == 0) {
    std::filesystem::create_directories(o.dir);
    lock.emplace(o.dir);
    remove_temporary_files(o.dir);
    for (const auto& name : stray_layer_files(o.dir))
      observer.note("ignoring " + o.dir + "/" + name + ": not a layer file name kalah writes");
    const std::vector<bool> v = valid_layers(o, observer);
    std::copy(v.begin(), v.end(), valid.begin());
    observer.note("over " + std::to_string(ranks) + " ranks: each holds its share of the layers " +
                  "raw; estimated peak per rank " + mib(plan.peak));
  }
  check(MPI_Bcast(valid.data(), as_count(valid.size()), MPI_CHAR, 0, MPI_COMM_WORLD), "MPI_Bcast");
  RawLayers raw(o.max_seeds);  // every layer below one to build is held raw
  for (int s = 1; s <= o.max_seeds; ++s)
    if (!valid[s])
      for (int t = 1; t < s; ++t) raw.needed_until[t] = s;

  for (int s = 1; s <= o.max_seeds; ++s) {
    LayerEvent ev = layer_event(ranker, s, plan.layer_bytes[s], valid[s]);
    observer.layer_started(ev);
    const auto t0 = std::chrono::steady_clock::now();
    const std::string path = layer_path(o.dir, o.rules, s);
    std::string traffic;  // rank 0's note on the layer's communication
    if (valid[s] && raw.needed_until[s] > s) {
      // Sparse: only this rank's share of the pages is touched.
      raw.layers[s] = HugeArray<uint8_t>(ev.boards);
      read_ranges(LayerFile(path, o.rules, s), part.ranges(s, me), raw.layers[s].data());
    } else if (!valid[s]) {
      raw.layers[s] = HugeArray<uint8_t>(ev.boards);
      RankExchange exchange(part, s, me, raw.lower,
                            [&](uint64_t done) { observer.layer_progress(s, done, ev.boards); });
      const LayerWork work =
          compute_layer(o.rules, ranker, s, raw.lower, &exchange, raw.layers[s].data(),
                        [&](uint64_t done) { exchange.boards_done(done); });
      ev.compute_seconds = since(t0);
      const uint64_t written = write_shared_layer(part, me, o, s, ev.boards, raw.layers[s].data());
      // Rank 0 reports the traffic of all ranks, the largest piece of work of any, and the
      // least and most time a rank spent in exchange rounds.
      uint64_t mine[3] = {exchange.bytes_sent(), written, work.largest_piece}, sum[3] = {};
      check(MPI_Reduce(mine, sum, 2, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD), "MPI_Reduce");
      check(MPI_Reduce(&mine[2], &sum[2], 1, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD),
            "MPI_Reduce");
      const double exchanging[2] = {-exchange.exchange_seconds(), exchange.exchange_seconds()};
      double extremes[2] = {};
      check(MPI_Reduce(exchanging, extremes, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD),
            "MPI_Reduce");
      ev.largest_piece = sum[2];
      if (ranks > 1) {
        char text[240];
        std::snprintf(text, sizeof text,
                      "layer %d over the ranks: %llu exchange rounds (%.2f-%.2f s a rank), %.2f "
                      "bytes sent a board (%.2f asking for children, %.2f gathering the file)",
                      s, static_cast<unsigned long long>(exchange.rounds()), -extremes[0],
                      extremes[1], double(sum[0] + sum[1]) / ev.boards, double(sum[0]) / ev.boards,
                      double(sum[1]) / ev.boards);
        traffic = text;
      }
    }
    raw.lower[s] = raw.layers[s].data();
    if (me == 0) ev.file_bytes = std::filesystem::file_size(path);
    ev.seconds = since(t0);
    observer.layer_finished(ev);
    if (me == 0 && !traffic.empty()) observer.note(traffic);
    raw.release_after(s);
  }
  const uint64_t rss = peak_rss();
  std::vector<uint64_t> peaks(me == 0 ? ranks : 0);
  check(MPI_Gather(&rss, 1, MPI_UINT64_T, peaks.data(), 1, MPI_UINT64_T, 0, MPI_COMM_WORLD),
        "MPI_Gather");
  if (me == 0) {
    std::string text = "peak memory per rank:";
    for (int r = 0; r < ranks; ++r) text += (r ? ", " : " ") + mib(peaks[r]);
    observer.note(text + " (estimate " + mib(plan.peak) + ")");
  }
}

}  // namespace kalah
