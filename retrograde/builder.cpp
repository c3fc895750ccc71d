// builder.cpp: the resumable build of a database directory on one machine.
#include "retrograde/builder.h"

#include <malloc.h>

#include <memory>
#include <vector>

#include "base/threads.h"
#include "base/units.h"
#include "db/file_names.h"
#include "retrograde/build_loop.h"
#include "retrograde/lean_children.h"
#include "retrograde/memory_plan.h"

namespace kalah {
namespace {

// Layers computed from the layers held raw, and in lean mode from the files of the others.
class MachineSteps final : public LayerSteps {
 public:
  MachineSteps(const BuildOptions& o, const Ranker& ranker, const MemoryPlan& plan,
               BuildObserver& observer)
      : o_(o), ranker_(ranker), plan_(plan), observer_(observer) {}

  void load(int s, uint8_t* out) override { LayerFile(path(s), o_.rules, s).read_all(out); }

  void compute(int s, const std::vector<const uint8_t*>& lower, uint8_t* out,
               LayerEvent& ev) override {
    LeanChildren lean(files_, plan_.chunk_bytes[s]);
    const LayerWork work =
        compute_layer(o_.rules, ranker_, s, lower, plan_.window_start[s] > 1 ? &lean : nullptr, out,
                      [&](uint64_t done) { observer_.layer_progress(s, done, ev.boards); });
    ev.largest_piece = work.largest_piece;
    ev.critical_path = work.critical_path;
  }

  void write(int s, uint8_t* values, LayerEvent& ev) override {
    write_layer_file(o_.dir, o_.rules, s, values, ev.boards, o_.format);
    // Lean mode's lists of children are freed by now, but glibc keeps freed heap pages
    // resident until trimmed, and the next layer's lists would come on top of them.
    if (plan_.lean) malloc_trim(0);
  }

  void finished(int s) override {
    if (plan_.lean) files_.push_back(std::make_unique<LayerFile>(path(s), o_.rules, s));
  }

 private:
  std::string path(int s) const { return layer_path(o_.dir, o_.rules, s); }

  const BuildOptions& o_;
  const Ranker& ranker_;
  const MemoryPlan& plan_;
  BuildObserver& observer_;
  std::vector<std::unique_ptr<LayerFile>> files_;  // layers 1.. on disk, for lean mode
};

}  // namespace

void validate(const BuildOptions& o) {
  validate(o.rules);
  if (o.max_seeds < 1 || o.max_seeds > max_layer(o.rules))
    throw std::invalid_argument("max seeds must be 1.." + std::to_string(max_layer(o.rules)) +
                                " for these rules, got " + std::to_string(o.max_seeds));
  if (o.format.zstd_level < 1 || o.format.zstd_level > 19)
    throw std::invalid_argument("zstd level must be 1..19, got " +
                                std::to_string(o.format.zstd_level));
  if (!find_codec(o.format.version))
    throw std::invalid_argument("layer format must be " + known_formats() + ", got " +
                                std::to_string(o.format.version));
  thread_count(o.threads);
  try {
    Ranker(o.rules.pits, o.max_seeds);
  } catch (const std::overflow_error& e) {
    throw std::invalid_argument(e.what());
  }
}

void BuildTotals::add(const LayerEvent& e) {
  boards += e.boards;
  file_bytes += e.file_bytes;
  if (e.reused) return;
  built_boards += e.boards;
  built_bytes += e.file_bytes;
  built_seconds += e.seconds;
  compute_seconds += e.compute_seconds;
}

void build_database(const BuildOptions& o, BuildObserver& observer) {
  validate(o);
  const Ranker ranker(o.rules.pits, o.max_seeds);
  const MemoryPlan plan = plan_memory(o, ranker);
  const ThreadLimit threads(o.threads);
  const BuildDirectory dir(o, observer);
  if (plan.lean)
    observer.note("lean mode: the layers do not fit the memory limit raw (" +
                  human_bytes(build_memory_estimate(ranker, o.max_seeds, threads.threads())) +
                  "); the layer being built is held raw (and those below it while they fit), "
                  "the others are read from their files in chunks, each block decoded once a "
                  "chunk; estimated peak " +
                  human_bytes(plan.peak));
  MachineSteps steps(o, ranker, plan, observer);
  run_layers(o, ranker, dir.valid(), plan.window_start, plan.layer_bytes, steps, observer);
}

}  // namespace kalah
