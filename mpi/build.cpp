// build.cpp: the layer loop over processes, its traffic and memory reported by process 0.
#include "mpi/build.h"

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "base/machine.h"
#include "base/threads.h"
#include "base/units.h"
#include "db/file_names.h"
#include "mpi/exchange.h"
#include "mpi/io.h"
#include "mpi/memory.h"
#include "retrograde/build_loop.h"
#include "retrograde/partition.h"

namespace kalah {
namespace {

// Each process computes and holds its share of every layer; process 0 writes the files.
class ProcessSteps final : public LayerSteps {
 public:
  ProcessSteps(const BuildOptions& o, const Ranker& ranker, const Partition& part, int process,
               BuildObserver& observer)
      : o_(o), ranker_(ranker), part_(part), process_(process), observer_(observer) {}

  // Sparse: only this process's share of the pages is touched.
  void load(int s, uint8_t* out) override {
    read_share(LayerFile(layer_path(o_.dir, o_.rules, s), o_.rules, s), part_.ranges(s, process_),
               out);
  }

  void compute(int s, const std::vector<const uint8_t*>& lower, uint8_t* out,
               LayerEvent& ev) override {
    exchange_.emplace(part_, s, process_, lower,
                      [&](uint64_t done) { observer_.layer_progress(s, done, ev.boards); });
    const LayerWork work = compute_layer(o_.rules, ranker_, s, lower, &*exchange_, out,
                                         [&](uint64_t done) { exchange_->boards_done(done); });
    largest_piece_ = work.largest_piece;
  }

  // Process 0 reports the traffic of all processes, the largest piece of work of any, and the
  // least and most time a process spent in exchange rounds. Collective.
  void write(int s, uint8_t* values, LayerEvent& ev) override {
    const uint64_t written = write_shared_layer(part_, process_, o_, s, ev.boards, values);
    uint64_t mine[3] = {exchange_->bytes_sent(), written, largest_piece_}, sum[3] = {};
    check(MPI_Reduce(mine, sum, 2, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD), "MPI_Reduce");
    check(MPI_Reduce(&mine[2], &sum[2], 1, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD), "MPI_Reduce");
    const double exchanging[2] = {-exchange_->exchange_seconds(), exchange_->exchange_seconds()};
    double extremes[2] = {};
    check(MPI_Reduce(exchanging, extremes, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD),
          "MPI_Reduce");
    ev.largest_piece = sum[2];
    if (part_.processes() == 1) return;
    char text[240];
    std::snprintf(text, sizeof text,
                  "layer %d over the processes: %llu exchange rounds (%.2f-%.2f s a process), "
                  "%.2f bytes sent a board (%.2f asking for children, %.2f gathering the file)",
                  s, static_cast<unsigned long long>(exchange_->rounds()), -extremes[0],
                  extremes[1], double(sum[0] + sum[1]) / ev.boards, double(sum[0]) / ev.boards,
                  double(sum[1]) / ev.boards);
    traffic_ = text;
  }

  bool writes_files() const override { return process_ == 0; }

  void finished(int) override {
    if (process_ == 0 && !traffic_.empty()) observer_.note(traffic_);
    traffic_.clear();
    exchange_.reset();
  }

 private:
  const BuildOptions& o_;
  const Ranker& ranker_;
  const Partition& part_;
  const int process_;
  BuildObserver& observer_;
  std::optional<ProcessExchange> exchange_;  // of the layer being computed
  uint64_t largest_piece_ = 0;
  std::string traffic_;  // process 0's note on the layer's communication
};

// Process 0 notes every process's peak resident memory against the estimate. Collective.
void note_peak_memory(const MpiSession& mpi, uint64_t estimate, BuildObserver& observer) {
  const uint64_t rss = peak_memory_bytes();
  std::vector<uint64_t> peaks(mpi.process() == 0 ? mpi.processes() : 0);
  check(MPI_Gather(&rss, 1, MPI_UINT64_T, peaks.data(), 1, MPI_UINT64_T, 0, MPI_COMM_WORLD),
        "MPI_Gather");
  if (mpi.process() != 0) return;
  std::string text = "peak memory per process:";
  for (int p = 0; p < mpi.processes(); ++p) text += (p ? ", " : " ") + human_bytes(peaks[p]);
  observer.note(text + " (estimate " + human_bytes(estimate) + ")");
}

}  // namespace

void build_database_mpi(const BuildOptions& options, const MpiSession& mpi,
                        BuildObserver& observer) {
  const BuildOptions o = for_process(options, mpi.local_processes());
  validate_mpi(o);
  const int me = mpi.process();
  const Ranker ranker(o.rules.pits, o.max_seeds);
  const Partition part(ranker, o.max_seeds, mpi.processes());
  const ThreadLimit threads(o.threads);
  const MpiMemoryPlan plan = plan_mpi_memory(o, mpi.processes());

  // Process 0 owns the directory: it locks it, cleans it and finds the valid layers.
  std::optional<BuildDirectory> dir;
  std::vector<char> valid(o.max_seeds + 1, 0);
  if (me == 0) {
    dir.emplace(o, observer);
    std::copy(dir->valid().begin(), dir->valid().end(), valid.begin());
    observer.note("over " + std::to_string(mpi.processes()) + " processes: each holds its share " +
                  "of the layers raw; estimated peak per process " + human_bytes(plan.peak));
  }
  check(MPI_Bcast(valid.data(), as_count(valid.size()), MPI_CHAR, 0, MPI_COMM_WORLD), "MPI_Bcast");
  ProcessSteps steps(o, ranker, part, me, observer);
  run_layers(o, ranker, std::vector<bool>(valid.begin(), valid.end()),
             std::vector<int>(o.max_seeds + 1, 1), plan.layer_bytes, steps, observer);
  note_peak_memory(mpi, plan.peak, observer);
}

}  // namespace kalah
