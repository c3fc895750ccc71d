// kgp_client.cpp: the KGP client of kgp_client.h: a reader of the server's lines, and one
// worker thread (Mover) that sends kalah's move for the latest board as it improves. The reader
// never waits for the worker: it posts a board and goes on, so that every command (a `ping`
// among a flood of `state`s) is answered at once.
#include "tools/kgp/kgp_client.h"

#include <condition_variable>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

#include "base/deadline.h"
#include "game/notation.h"
#include "query/query.h"
#include "tools/kgp/kgp.h"
#include "tools/kgp/kgp_connection.h"

namespace kalah {
namespace {

void complain(const std::string& what) {
  std::cerr << "kalah kgp: " << what << std::endl;
}

// The databases of KGP's rules by pit count, opened by the first worker that needs one (opening
// may write a database's decoded copies for seconds: never on the reader's thread). A pit count
// they cannot serve is played without one: a tournament game goes on.
class Databases {
 public:
  explicit Databases(const DatabaseOptions& o) : o_(o) {}
  const Database* of(int m) {
    if (m > kMaxPits) return nullptr;
    std::lock_guard lock(mutex_);
    auto [it, inserted] = open_.try_emplace(m);
    if (inserted) {
      try {
        it->second = open_database(o_, Rules{m});
      } catch (const std::exception& e) {
        complain("playing boards of " + std::to_string(m) +
                 " pits a row without a database: " + e.what());
      }
    }
    return it->second.db.get();
  }

 private:
  const DatabaseOptions& o_;
  std::mutex mutex_;
  std::map<int, OpenedDatabase> open_;
};

// The moves: one thread for the client's life, working on the latest `state` only. The reader
// posts each board and returns at once; a board posted while another is worked on silences that
// one (nothing more is sent for it) and stops its search, and boards posted faster than they are
// taken up are coalesced to the latest: a flood of states costs a copy each, one thread in all.
class Mover {
 public:
  Mover(KgpConnection& server, double seconds, Databases& databases)
      : server_(server), seconds_(seconds), databases_(databases), thread_([this] { loop(); }) {}
  ~Mover() {
    {
      std::lock_guard lock(mutex_);
      closing_ = true;
      silence();
    }
    posted_.notify_one();
    thread_.join();
  }
  Mover(const Mover&) = delete;
  Mover& operator=(const Mover&) = delete;

  // The board of `state` id: the one to work on now.
  void post(uint64_t id, const KgpBoard& kb) {
    {
      std::lock_guard lock(mutex_);
      silence();
      pending_ = Job{id, kb, MoveClock::now(), ++generation_};
    }
    posted_.notify_one();
  }
  // `stop` (ref 0: whatever is worked on): nothing more is sent for that board. A stop of the
  // board worked on while a newer one waits touches neither: the newer one's post silenced it.
  void stop(uint64_t ref) {
    std::lock_guard lock(mutex_);
    if (pending_ ? ref == 0 || ref == pending_->id : ref == 0 || ref == current_id_) silence();
  }

 private:
  struct Job {
    uint64_t id;
    KgpBoard board;
    MoveClock::time_point arrival;
    uint64_t generation;
  };
  static constexpr std::chrono::milliseconds kSettle{30};

  // Under mutex_: the current board's work stops and sends nothing more; no board is pending.
  void silence() {
    ++generation_;
    pending_.reset();
    if (halt_) halt_->raise(StopReason::kStop);
  }
  // Sends `line` for the job of `generation` unless it was silenced since (under the lock that
  // silencing takes, so nothing follows a `stop`).
  void send(uint64_t generation, const std::string& line) {
    std::lock_guard lock(mutex_);
    if (generation == generation_) server_.send(line);
  }

  void loop() {
    for (;;) {
      Job job;
      StopFlag halt;
      {
        std::unique_lock lock(mutex_);
        posted_.wait(lock, [&] { return closing_ || pending_; });
        if (closing_) return;
        job = std::move(*pending_);
        pending_.reset();
        current_id_ = job.id;
        halt_ = &halt;
      }
      work(job, halt);
      std::lock_guard lock(mutex_);
      halt_ = nullptr;
    }
  }

  void work(const Job& job, const StopFlag& halt) {
    const KgpBoard& kb = job.board;
    const int m = kb.board.m();
    const Rules rules{m};  // KGP's: standard capture, immediate end, seeds to their owner
    const int stores = kb.south_store - kb.north_store;
    const auto deadline = job.arrival + std::chrono::duration_cast<MoveClock::duration>(
                                            std::chrono::duration<double>(seconds_));
    int last = -1;
    const MoveImproved improved = [&](const MoveChoice& c) {
      if (c.pit < 0 || c.pit == last) return;
      last = c.pit;
      send(job.generation, format_kgp(job.id, "move", std::to_string(c.pit + 1)));
    };
    MoveChoice c;
    int on_pits = 0;
    for (int v : kb.board.pits) on_pits += v;
    if (m <= kMaxPits && on_pits <= kMaxBoardSeeds) {
      Query q;
      q.rules = rules;
      for (int i = 0; i < 2 * m; ++i)
        q.position.board.pits[i] = static_cast<uint8_t>(kb.board.pits[i]);
      q.position.mover_store = kb.south_store;
      q.position.opponent_store = kb.north_store;
      q.ask = Ask::kMove;
      q.db = databases_.of(m);
      q.stop = &halt;
      q.deadline = deadline;
      q.progress = [&](const QueryProgress& p) {
        if (p.move) improved(*p.move);
      };
      c = *run(q).move;
    } else {
      c = choose_move(rules, kb.board, stores, deadline, &halt, improved);
    }
    if (c.pit < 0) {
      send(job.generation,
           format_kgp(job.id, "error", kgp_quote("the game is over on this board: no move")));
      return;
    }
    improved(c);
    // go-kgp refuses a move that arrives before it has registered the board it sent, and
    // replaces an unregistered last move by a random one when the client yields; and it records
    // a comment with the next move, dropping it at a yield. So the final move is sent again,
    // after its comment, and no sooner than kSettle after the board arrived (docs/design.md §9).
    std::this_thread::sleep_until(job.arrival + kSettle);
    std::ostringstream comment;
    if (c.proven)
      comment << "proven: " << signed_number(c.value) << " for the mover ("
              << (c.source == Source::kHeuristic ? "search to the end" : to_string(c.source))
              << ")";
    else
      comment << "estimate " << signed_number(c.value) << " after a " << c.depth << "-ply search";
    send(job.generation, format_kgp(0, "set", "info:comment " + kgp_quote(comment.str())));
    send(job.generation, format_kgp(job.id, "move", std::to_string(c.pit + 1)));
    send(job.generation, format_kgp(job.id, "yield"));
  }

  KgpConnection& server_;
  const double seconds_;
  Databases& databases_;
  std::mutex mutex_;
  std::condition_variable posted_;
  std::optional<Job> pending_;  // the latest board, not yet taken up
  uint64_t generation_ = 0;     // bumped by every post and silence: older work sends nothing
  uint64_t current_id_ = 0;     // the id of the board being worked on
  StopFlag* halt_ = nullptr;    // its search's stop flag
  bool closing_ = false;
  std::thread thread_;  // last: starts once the members it uses exist
};

// The client: greets, asks for freeplay, then answers the server's commands until goodbye.
class Client {
 public:
  explicit Client(const KgpOptions& o) : o_(o), server_(o.host, o.port), databases_(o.database) {}

  KgpResult run() {
    std::string line;
    while (server_.read_line(line)) {
      KgpCommand c;
      try {
        c = parse_kgp_line(line);
      } catch (const std::invalid_argument& e) {
        complain("ignoring a line from the server (" + std::string(e.what()) +
                 "): " + printable_input(line, 80));
        continue;
      }
      if (!greeted_ && c.name != "kgp")
        throw std::runtime_error("the server did not start with 'kgp': " +
                                 printable_input(line, 80));
      // The workers, told to stop, end as it returns.
      if (c.name == "goodbye") return KgpResult::kDone;
      handle(c, line);
      if (o_.verify && o_.problems > 0 && right_ + wrong_ >= o_.problems) {
        std::cerr << "kalah kgp: verify: " << right_ + wrong_ << " solutions judged, " << right_
                  << " right, " << wrong_ << " wrong" << std::endl;
        server_.send(format_kgp(0, "goodbye"));
        return wrong_ ? KgpResult::kWrong : KgpResult::kDone;
      }
    }
    throw std::runtime_error("the server closed the connection without 'goodbye'");
  }

 private:
  void handle(const KgpCommand& c, const std::string& line) {
    if (c.name == "kgp") {
      if (c.args.empty() || c.args[0] != "1") {
        server_.send(format_kgp(c.id, "error", kgp_quote("kalah speaks KGP 1.x")));
        throw std::runtime_error("the server speaks KGP " +
                                 printable_input(c.args.empty() ? "?" : c.args[0], 20) +
                                 ".x; kalah speaks 1.x");
      }
      greeted_ = true;
      server_.send(format_kgp(0, "set", "info:name " + kgp_quote(o_.name)));
      server_.send(format_kgp(0, "set", "info:authors " + kgp_quote("the kalah project")));
      server_.send(format_kgp(
          0, "set",
          "info:description " +
              kgp_quote("perfect play from endgame databases and MTD(f) search; a heuristic "
                        "search where no move is proven in time")));
      if (!o_.token.empty())
        server_.send(format_kgp(0, "set", "auth:token " + kgp_quote(o_.token)));
      server_.send(format_kgp(0, "mode", o_.verify ? "verify" : "freeplay"));
    } else if (c.name == "state") {
      mover_.stop(0);  // a new board: the last one's work is moot, even if this one is bad
      if (c.args.size() != 1) return refuse(c, "'state' takes one board literal");
      KgpBoard board;
      try {
        board = parse_kgp_board(c.args[0]);
      } catch (const std::invalid_argument& e) {
        return refuse(c, e.what());
      }
      mover_.post(c.id, board);
    } else if (c.name == "problem") {
      solve(c);
    } else if ((c.name == "ok" || c.name == "error") && judged_.erase(c.ref)) {
      if (c.name == "ok") {
        ++right_;
      } else {
        ++wrong_;
        complain("the server says a solution is wrong: " +
                 printable_input(c.args.empty() ? line : c.args[0], 200));
      }
    } else if (c.name == "stop") {
      mover_.stop(c.ref);
    } else if (c.name == "ping") {
      server_.send(format_kgp(c.id, "pong", c.args.empty() ? "" : kgp_quote(c.args[0])));
    } else if (c.name == "error") {
      complain("the server says: " + printable_input(c.args.empty() ? line : c.args[0], 200));
    } else if (c.name != "set" && c.name != "ok") {  // unknown options and commands: ignored
      complain("ignoring the unknown command '" + printable_input(c.name, 40) + "'");
    }
  }

  // Verify mode: the board after the move, and whether South moves again.
  void solve(const KgpCommand& c) {
    if (c.args.size() != 2) return refuse(c, "'problem' takes a board and a move");
    try {
      const KgpBoard board = parse_kgp_board(c.args[0]);
      const std::optional<int64_t> pit = parse_whole_number(c.args[1], 0, board.board.m() - 1);
      if (!pit)
        throw std::invalid_argument("the move must be a pit 0.." +
                                    std::to_string(board.board.m() - 1));
      const KgpSowing after = sow_kgp(board, static_cast<int>(*pit));
      const uint64_t id = next_id_ += 2;
      judged_.insert(id);
      // The spec says 0 or 1; go-kgp, the reference server, reads only words (true/false).
      server_.send(format_kgp(c.id, "solution",
                              format_kgp_board(after.board) + (after.repeat ? " true" : " false"),
                              id));
    } catch (const std::invalid_argument& e) {
      refuse(c, e.what());
    }
  }

  void refuse(const KgpCommand& c, const std::string& why) {
    complain("cannot play '" + c.name + "': " + why);
    server_.send(format_kgp(c.id, "error", kgp_quote(why)));
  }

  const KgpOptions& o_;
  KgpConnection server_;
  Databases databases_;
  bool greeted_ = false;
  // Verify mode: the IDs of the solutions sent and not yet judged, and the judgements.
  uint64_t next_id_ = 1;  // odd: our own
  std::set<uint64_t> judged_;
  int right_ = 0, wrong_ = 0;
  Mover mover_{server_, o_.seconds, databases_};  // last: stopped and joined first
};

}  // namespace

KgpResult play_kgp(const KgpOptions& o) {
  return Client(o).run();
}

}  // namespace kalah
