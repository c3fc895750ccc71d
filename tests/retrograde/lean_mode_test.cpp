// lean_mode_test.cpp: lean mode, the build that holds only some layers raw (docs/design.md §5):
// the same files as the normal mode, within its memory, and the plan that chooses it.
#include <gtest/gtest.h>
#include <signal.h>

#include <cstdio>

#include "db/file_names.h"
#include "retrograde/builder.h"
#include "retrograde/layer_solver.h"
#include "retrograde/lean_children.h"
#include "retrograde/memory_plan.h"
#include "tests/oracle.h"
#include "tests/test_util.h"

namespace kalah {
namespace {

// Lean mode writes the same bytes as the normal mode.
TEST(LeanMode, EqualsNormalModeInEveryVariant) {
  struct Case {
    int m, top;
    std::vector<Rules> variants;
  };
  const Rules six{6, Capture::kEmpty, End::kOnTurn, Remainder::kDiscard};
  const Case cases[] = {{3, 12, test::all_variants(3)},
                        {4, 10, test::all_variants(4)},
                        {5, 10, {test::all_variants(5)[0], test::all_variants(5)[7]}},
                        {6, 16, {six}}};  // 30 MB of lower layers: the cache evicts
  for (const Case& c : cases) {
    for (const Rules& rules : c.variants) {
      test::TempDir normal;
      test::build(normal.str(), rules, c.top);
      for (int threads : {1, 2}) {
        test::TempDir lean;
        BuildOptions o;
        o.dir = lean.str();
        o.rules = rules;
        o.max_seeds = c.top;
        o.threads = threads;
        o.lean = true;
        o.memory_limit = uint64_t{100} << 20;
        BuildObserver quiet;
        build_database(o, quiet);
        EXPECT_TRUE(test::snapshot(normal.str()) == test::snapshot(lean.str()))
            << describe(rules) << " m=" << c.m << ", " << threads << " threads";
      }
    }
  }
}

TEST(LeanMode, KilledLeanBuildResumesToIdenticalFilesWithinItsMemory) {
  const Rules rules{6, Capture::kEmpty, End::kImmediate, Remainder::kOwner};
  const int top = 16;
  test::TempDir reference, killed;
  test::build(reference.str(), rules, top);
  const std::vector<std::string> args = {
      "build",     "--db",  killed.str(), "--max-seeds", std::to_string(top),
      "--capture", "empty", "--lean",     "--memory",    "0.1"};
  {
    test::Process build(KALAH_EXE, args);
    char started[16];
    std::snprintf(started, sizeof started, "\n%5d ", top - 1);
    ASSERT_TRUE(build.read_until(started)) << build.output();
    build.signal(SIGKILL);
    ASSERT_EQ(build.wait(), 128 + SIGKILL) << build.output();
  }
  test::Process resumed(KALAH_EXE, args);
  long max_rss_kib = 0;
  ASSERT_EQ(resumed.wait(&max_rss_kib), 0) << resumed.output();
  EXPECT_NE(resumed.output().find("lean mode"), std::string::npos) << resumed.output();
  EXPECT_TRUE(test::snapshot(reference.str()) == test::snapshot(killed.str()));
#ifndef __SANITIZE_ADDRESS__  // AddressSanitizer's shadow memory and quarantine come on top
  EXPECT_LT(max_rss_kib * 1024.0, 0.1 * (1 << 30)) << "peak " << max_rss_kib << " KiB";
#endif
}

// Lean mode's chunks (retrograde/chunked_layer.h): a layer computed with its lower layers read from
// their files in chunks of any size (down to one tile, which splits blocks across chunks) equals
// the layer computed from raw ones, also with only some lower layers held raw.
TEST(LeanMode, ChunksOfAnySizeGiveTheSameLayer) {
  const Rules six{6, Capture::kStandard, End::kImmediate, Remainder::kOwner};
  const struct {
    Rules rules;
    int s;
  } cases[] = {{test::all_variants(4)[1], 10}, {test::all_variants(4)[6], 10}, {six, 12}};
  for (const auto& c : cases) {
    test::TempDir dir;
    test::build(dir.str(), c.rules, c.s - 1);
    const Ranker ranker(c.rules.pits, c.s);
    std::vector<std::unique_ptr<LayerFile>> files;
    std::vector<std::vector<uint8_t>> raw(c.s);
    std::vector<const uint8_t*> all_raw(c.s, nullptr);
    for (int t = 1; t < c.s; ++t) {
      files.push_back(
          std::make_unique<LayerFile>(dir.str(layer_file_name(c.rules, t)), c.rules, t));
      raw[t].resize(ranker.layer_size(t));
      files.back()->read_all(raw[t].data());
      all_raw[t] = raw[t].data();
    }
    std::vector<uint8_t> expected(ranker.layer_size(c.s));
    compute_layer(c.rules, ranker, c.s, all_raw, nullptr, expected.data());
    std::vector<const uint8_t*> top_raw(c.s, nullptr);  // the layer below raw, the rest not
    top_raw[c.s - 1] = raw[c.s - 1].data();
    for (const auto& lower : {std::vector<const uint8_t*>(c.s, nullptr), top_raw}) {
      for (uint64_t chunk_bytes : {uint64_t{1}, uint64_t{64} << 10, uint64_t{1} << 30}) {
        std::vector<uint8_t> got(expected.size());
        LeanChildren lean(files, chunk_bytes);
        const LayerWork work = compute_layer(c.rules, ranker, c.s, lower, &lean, got.data());
        EXPECT_EQ(work.boards, expected.size());
        EXPECT_TRUE(got == expected)
            << describe(c.rules) << " s=" << c.s << ", chunks of " << chunk_bytes
            << " bytes, layer below " << (lower[c.s - 1] ? "raw" : "from its file");
      }
    }
  }
}

// The default memory limit is what the process may use: under an address-space limit
// (`ulimit -v`, as a cgroup's memory.max would) the build goes lean instead of failing, and
// writes the same files.
TEST(LeanMode, AnAddressSpaceLimitMakesTheDefaultBuildLean) {
#ifdef __SANITIZE_ADDRESS__
  GTEST_SKIP() << "AddressSanitizer's shadow memory needs an unlimited address space";
#endif
  const Rules rules{6, Capture::kStandard, End::kImmediate, Remainder::kOwner};
  test::TempDir normal, limited;
  test::build(normal.str(), rules, 18);  // 128 MiB raw at layer 18
  const test::Ran built = test::shell("ulimit -v 250000 && " + std::string(KALAH_EXE) +
                                      " build --max-seeds 18 --threads 2 --db " + limited.str());
  ASSERT_EQ(built.status, 0) << built.out;
  EXPECT_NE(built.out.find("note: lean mode"), std::string::npos) << built.out;
  EXPECT_TRUE(test::snapshot(normal.str()) == test::snapshot(limited.str()));
}

// The memory plan (retrograde/memory_plan.h): normal mode when every layer fits raw; lean mode
// within the limit otherwise, its window of raw layers only moving up; refused, naming what would
// fit, when not even lean mode fits.
TEST(MemoryPlan, NormalLeanOrRefusedByTheLimit) {
  BuildOptions o;
  o.rules = {6, Capture::kStandard, End::kImmediate, Remainder::kOwner};
  o.max_seeds = 24;
  o.threads = 2;
  const Ranker ranker(6, o.max_seeds);
  const uint64_t all_raw = build_memory_estimate(ranker, o.max_seeds, 2);

  o.memory_limit = all_raw;
  const MemoryPlan normal = plan_memory(o, ranker);
  EXPECT_FALSE(normal.lean);
  EXPECT_EQ(normal.peak, all_raw);
  for (int s = 1; s <= o.max_seeds; ++s) {
    EXPECT_EQ(normal.window_start[s], 1);
    EXPECT_EQ(normal.chunk_bytes[s], 0u);
  }

  for (const bool asked : {false, true}) {
    o.lean = asked;
    o.memory_limit = asked ? all_raw : all_raw / 2;
    const MemoryPlan lean = plan_memory(o, ranker);
    EXPECT_TRUE(lean.lean);
    EXPECT_LE(lean.peak, o.memory_limit);
    for (int s = 1; s <= o.max_seeds; ++s) {
      EXPECT_LE(lean.window_start[s], s);
      EXPECT_GE(lean.window_start[s], lean.window_start[s - 1]) << "a layer came back raw";
      EXPECT_LE(lean.layer_bytes[s], o.memory_limit);
      EXPECT_EQ(lean.window_start[s] > 1, lean.chunk_bytes[s] > 0) << "s=" << s;
    }
    if (asked) {
      EXPECT_GT(lean.window_start[o.max_seeds], 1) << "--lean reads some layers";
    }
  }

  o.lean = false;
  o.memory_limit = ranker.layer_size(o.max_seeds);  // not even the top layer and its overhead
  try {
    plan_memory(o, ranker);
    ADD_FAILURE() << "a plan that cannot fit was accepted";
  } catch (const MemoryLimitError& e) {
    EXPECT_NE(std::string(e.what()).find("seeds would fit"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace kalah
