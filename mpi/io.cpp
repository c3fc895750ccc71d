// io.cpp: block edges sent to their compressor, frames gathered to the writer in order.
#include "mpi/io.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <string>
#include <tuple>

#include "mpi/session.h"

namespace kalah {
namespace {

// The process that compresses a block: the one holding its first board.
struct Compressors {
  const Partition& part;
  int s;
  int operator()(uint64_t block) const { return part.owner_of(s, block * kBoardsPerBlock); }
};

// A range that starts inside a block another process compresses sends it the range's part of the
// block. Returns the bytes this process sent. Collective.
uint64_t complete_blocks(const Partition& part, int process, int s, const Compressors& compressor,
                         uint8_t* values) {
  const int processes = part.processes();
  struct Segment {
    int from, to;
    uint64_t begin, end;
  };
  std::vector<Segment> segments;
  for (int p = 0; p < processes; ++p)
    for (const RankRange& range : part.ranges(s, p)) {
      const uint64_t block = range.begin / kBoardsPerBlock;
      if (range.begin % kBoardsPerBlock && compressor(block) != p)
        segments.push_back({p, compressor(block), range.begin,
                            std::min(range.end, (block + 1) * kBoardsPerBlock)});
    }
  std::sort(segments.begin(), segments.end(), [](const Segment& a, const Segment& b) {
    return std::tie(a.from, a.to, a.begin) < std::tie(b.from, b.to, b.begin);
  });
  std::vector<int> send(processes, 0), send_at(processes, 0), recv(processes, 0),
      recv_at(processes, 0);
  std::vector<uint8_t> out, in;
  for (const Segment& g : segments) {
    if (g.from == process) {
      send[g.to] += as_count(g.end - g.begin);
      out.insert(out.end(), values + g.begin, values + g.end);
    }
    if (g.to == process) recv[g.from] += as_count(g.end - g.begin);
  }
  for (int d = 1; d < processes; ++d) {
    send_at[d] = send_at[d - 1] + send[d - 1];
    recv_at[d] = recv_at[d - 1] + recv[d - 1];
  }
  in.resize(recv_at[processes - 1] + recv[processes - 1]);
  check(MPI_Alltoallv(out.data(), send.data(), send_at.data(), MPI_UINT8_T, in.data(), recv.data(),
                      recv_at.data(), MPI_UINT8_T, MPI_COMM_WORLD),
        "MPI_Alltoallv");
  size_t at = 0;
  for (const Segment& g : segments)
    if (g.to == process) {
      std::copy(in.begin() + at, in.begin() + at + (g.end - g.begin), values + g.begin);
      at += g.end - g.begin;
    }
  return out.size();
}

// The frames of the blocks this process compresses, handed to process 0 a write chunk at a time:
// as a FrameSource on process 0, called with a dummy `got` elsewhere.
class FrameGatherer {
 public:
  FrameGatherer(int processes, int process, const Compressors& compressor,
                std::vector<uint64_t> mine, std::vector<std::string> frames)
      : processes_(processes),
        process_(process),
        compressor_(compressor),
        mine_(std::move(mine)),
        frames_(std::move(frames)) {}

  // Blocks [first, first + count) to process 0, into `got` there. Collective.
  void gather(uint64_t first, uint64_t count, std::vector<std::string>& got) {
    std::vector<uint64_t> sizes;
    std::string bytes;
    for (; next_ < mine_.size() && mine_[next_] < first + count; ++next_) {
      sizes.push_back(frames_[next_].size());
      bytes += frames_[next_];
      frames_[next_] = std::string();
    }
    std::vector<int> counts(processes_, 0), count_at(processes_, 0);
    for (uint64_t b = first; b < first + count; ++b) ++counts[compressor_(b)];
    for (int p = 1; p < processes_; ++p) count_at[p] = count_at[p - 1] + counts[p - 1];
    std::vector<uint64_t> all_sizes(process_ == 0 ? count : 0);
    check(MPI_Gatherv(sizes.data(), as_count(sizes.size()), MPI_UINT64_T, all_sizes.data(),
                      counts.data(), count_at.data(), MPI_UINT64_T, 0, MPI_COMM_WORLD),
          "MPI_Gatherv");
    std::vector<int> byte_counts(processes_, 0), byte_at(processes_, 0);
    if (process_ == 0)
      for (int p = 0; p < processes_; ++p) {
        uint64_t n = 0;
        for (int i = 0; i < counts[p]; ++i) n += all_sizes[count_at[p] + i];
        byte_counts[p] = as_count(n);
        if (p > 0) byte_at[p] = byte_at[p - 1] + byte_counts[p - 1];
      }
    std::string all_bytes(process_ == 0 ? byte_at[processes_ - 1] + byte_counts[processes_ - 1] : 0,
                          '\0');
    check(MPI_Gatherv(bytes.data(), as_count(bytes.size()), MPI_BYTE, all_bytes.data(),
                      byte_counts.data(), byte_at.data(), MPI_BYTE, 0, MPI_COMM_WORLD),
          "MPI_Gatherv");
    if (process_ != 0) {
      sent_ += bytes.size() + 8 * sizes.size();
      return;
    }
    // Block b is the next frame of the process that compressed it.
    std::vector<int> taken(processes_, 0);
    std::vector<uint64_t> offset(byte_at.begin(), byte_at.end());
    for (uint64_t b = first; b < first + count; ++b) {
      const int p = compressor_(b);
      const uint64_t size = all_sizes[count_at[p] + taken[p]++];
      got[b - first] = all_bytes.substr(offset[p], size);
      offset[p] += size;
    }
  }
  uint64_t bytes_sent() const { return sent_; }

 private:
  const int processes_, process_;
  const Compressors& compressor_;
  const std::vector<uint64_t> mine_;  // the blocks this process compresses, in order
  std::vector<std::string> frames_;   // theirs
  size_t next_ = 0;                   // of mine_, the first not sent yet
  uint64_t sent_ = 0;
};

}  // namespace

uint64_t write_shared_layer(const Partition& part, int process, const BuildOptions& o, int s,
                            uint64_t boards, uint8_t* values) {
  const Compressors compressor{part, s};
  const uint64_t blocks = (boards + kBoardsPerBlock - 1) / kBoardsPerBlock;
  uint64_t sent = complete_blocks(part, process, s, compressor, values);
  // This process's blocks, compressed all at once (in parallel), sent in the writer's order.
  std::vector<uint64_t> mine;
  for (uint64_t b = 0; b < blocks; ++b)
    if (compressor(b) == process) mine.push_back(b);
  std::vector<std::string> frames(mine.size());
  tbb::parallel_for(size_t{0}, mine.size(), [&](size_t i) {
    const uint64_t first = mine[i] * kBoardsPerBlock;
    frames[i] = layer_block(o.rules, s, mine[i], values + first,
                            std::min<uint64_t>(kBoardsPerBlock, boards - first), o.format);
  });
  FrameGatherer gatherer(part.processes(), process, compressor, std::move(mine), std::move(frames));
  if (process == 0) {
    write_layer_file(
        o.dir, o.rules, s, boards,
        [&](uint64_t first, uint64_t count, std::vector<std::string>& got) {
          gatherer.gather(first, count, got);
        },
        o.format.version);
  } else {
    std::vector<std::string> unused;
    for (uint64_t first = 0; first < blocks; first += kWriteChunk)
      gatherer.gather(first, std::min(kWriteChunk, blocks - first), unused);
  }
  return sent + gatherer.bytes_sent();
}

void read_share(const LayerFile& file, const std::vector<RankRange>& ranges, uint8_t* out) {
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

}  // namespace kalah
