// cmd_kgp.cpp: `kalah kgp`, a Kalah Game Protocol client (freeplay mode) that plays kalah's moves.
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include "api/move_choice.h"
#include "solver/notation.h"
#include "solver/threads.h"
#include "tools/cli.h"
#include "tools/game_options.h"
#include "tools/kgp.h"

namespace kalah {
namespace {

struct KgpOptions {
  std::string host = "localhost";
  int port = 2671;  // the port of the KGP reference server (go-kgp)
  double seconds = 5;
  std::string name = "kalah";
  std::string token;
  GameOptions game;  // only --db and --no-db
  int threads = 0;
};

constexpr CommandHelp kHelp = {
    "kgp",
    "kalah kgp [--host H] [--port P] [--time SECONDS] [--db DIR | --no-db] [--name N] "
    "[--token T]",
    "Connects to a Kalah Game Protocol server (KGP 1.x, as used by the FAU AI Kalah\n"
    "tournaments; spec in KWARC/kalah-game) and plays in freeplay mode: for each board the\n"
    "server sends, kalah answers 'move' as soon as its heuristic search has one, again whenever\n"
    "it improves, and 'yield' once the move is proven perfect (database or value search) or its\n"
    "--time is up; a 'stop' from the server ends the work on that board at once. Boards of any\n"
    "size are played; those beyond 8 pits a row or 255 seeds by the heuristic search alone.\n"
    "Rules are KGP's: standard capture, the game ends when a row is empty, the seeds left go to\n"
    "their row's owner. Ends on the server's 'goodbye' (exit 0), or when it closes the\n"
    "connection (exit 1).",
    "  kalah kgp --host kalah.example.org --port 2671 --time 3\n"
    "  kalah kgp --port 2671 --no-db --name my-reference\n"};

class Connection {
 public:
  Connection(const std::string& host, int port) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    const int rc = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found);
    if (rc != 0) throw std::runtime_error("cannot find " + host + ": " + gai_strerror(rc));
    std::string why = "no address";
    for (addrinfo* a = found; a && fd_ < 0; a = a->ai_next) {
      const int fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
      if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
        fd_ = fd;
        break;
      }
      why = std::strerror(errno);
      if (fd >= 0) close(fd);
    }
    freeaddrinfo(found);
    if (fd_ < 0)
      throw std::runtime_error("cannot connect to " + host + ":" + std::to_string(port) + ": " +
                               why);
  }
  ~Connection() { close(fd_); }

  // One line from the server without its line end; false at the end of the connection. A line
  // over the spec's bound comes back cut to one character over it, for parse_kgp_line to refuse.
  bool read_line(std::string& line) {
    bool overlong = false;
    for (;;) {
      const size_t end = buffer_.find('\n');
      if (end != std::string::npos) {
        if (!overlong) line = buffer_.substr(0, end > 0 && buffer_[end - 1] == '\r' ? end - 1 : end);
        buffer_.erase(0, end + 1);
        return true;
      }
      if (!overlong && buffer_.size() > kKgpMaxLine) {
        overlong = true;
        line = buffer_.substr(0, kKgpMaxLine + 1);
      }
      if (overlong) buffer_.clear();
      char chunk[4096];
      const ssize_t n = recv(fd_, chunk, sizeof chunk, 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      buffer_.append(chunk, static_cast<size_t>(n));
    }
  }

  // Thread-safe; a failed send (the server went away) is seen by the reader.
  void send(const std::string& text) {
    std::lock_guard lock(mutex_);
    for (size_t done = 0; done < text.size();) {
      const ssize_t n = ::send(fd_, text.data() + done, text.size() - done, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return;
      done += static_cast<size_t>(n);
    }
  }

 private:
  int fd_ = -1;
  std::string buffer_;
  std::mutex mutex_;
};

// The work on one `state`: a thread choosing the move, answering as it improves.
class StateJob {
 public:
  StateJob(Connection& server, uint64_t id, const KgpBoard& kb, double seconds, const Database* db)
      : server_(server), id_(id) {
    thread_ = std::thread([this, kb, seconds, db] { run(kb, seconds, db); });
  }
  ~StateJob() {
    stop();
    thread_.join();
  }
  uint64_t id() const { return id_; }
  // After this returns nothing more is sent for this state, and its search ends soon.
  void stop() {
    std::lock_guard lock(mutex_);
    stopped_ = true;
    halt_ = true;
  }

 private:
  void send(const std::string& line) {
    std::lock_guard lock(mutex_);
    if (!stopped_) server_.send(line);
  }

  void run(const KgpBoard& kb, double seconds, const Database* db) {
    const int m = kb.board.m();
    const Rules rules{m};  // KGP's: standard capture, immediate end, seeds to their owner
    const int stores = kb.south_store - kb.north_store;
    int last = -1;
    const MoveImproved improved = [&](const MoveChoice& c) {
      if (c.pit < 0 || c.pit == last) return;
      last = c.pit;
      send(format_kgp(id_, "move", std::to_string(c.pit + 1)));
    };
    MoveChoice c;
    int on_pits = 0;
    for (int v : kb.board.pits) on_pits += v;
    if (m <= kMaxPits && on_pits <= kMaxBoardSeeds) {
      Position p;
      for (int i = 0; i < 2 * m; ++i) p.board.pits[i] = static_cast<uint8_t>(kb.board.pits[i]);
      p.mover_store = kb.south_store;
      p.opponent_store = kb.north_store;
      c = choose_move(rules, p, db, seconds, &halt_, improved);
    } else {
      c = choose_move(rules, kb.board, stores, seconds, &halt_, improved);
    }
    if (c.pit < 0) {
      send(format_kgp(id_, "error", kgp_quote("the game is over on this board: no move")));
      return;
    }
    improved(c);
    std::ostringstream comment;
    if (c.proven)
      comment << "proven: " << signed_number(c.value) << " for the mover ("
              << (c.source == "heuristic" ? "search to the end" : c.source) << ")";
    else
      comment << "estimate " << signed_number(c.value) << " after a " << c.depth << "-ply search";
    send(format_kgp(0, "set", "info:comment " + kgp_quote(comment.str())));
    send(format_kgp(id_, "yield"));
  }

  Connection& server_;
  const uint64_t id_;
  std::mutex mutex_;
  bool stopped_ = false;
  std::atomic<bool> halt_{false};
  std::thread thread_;
};

// The client: greets, asks for freeplay, then answers the server's commands until goodbye.
class Client {
 public:
  explicit Client(const KgpOptions& o) : o_(o), server_(o.host, o.port) {}

  int run() {
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
      if (c.name == "goodbye") {
        job_.reset();
        return kExitOk;
      }
      handle(c, line);
    }
    job_.reset();
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
      server_.send(format_kgp(0, "mode", "freeplay"));
    } else if (c.name == "state") {
      job_.reset();  // a new board: the last one's work is moot
      if (c.args.size() != 1) return refuse(c, "'state' takes one board literal");
      KgpBoard board;
      try {
        board = parse_kgp_board(c.args[0]);
      } catch (const std::invalid_argument& e) {
        return refuse(c, e.what());
      }
      job_ =
          std::make_unique<StateJob>(server_, c.id, board, o_.seconds, database(board.board.m()));
    } else if (c.name == "stop") {
      if (job_ && (c.ref == 0 || c.ref == job_->id())) job_.reset();
    } else if (c.name == "ping") {
      server_.send(format_kgp(c.id, "pong", c.args.empty() ? "" : kgp_quote(c.args[0])));
    } else if (c.name == "error") {
      complain("the server says: " + printable_input(c.args.empty() ? line : c.args[0], 200));
    } else if (c.name != "set" && c.name != "ok") {  // unknown options and commands: ignored
      complain("ignoring the unknown command '" + printable_input(c.name, 40) + "'");
    }
  }

  void refuse(const KgpCommand& c, const std::string& why) {
    complain("cannot play '" + c.name + "': " + why);
    server_.send(format_kgp(c.id, "error", kgp_quote(why)));
  }

  static void complain(const std::string& what) { std::cerr << "kalah kgp: " << what << std::endl; }

  // The database of KGP's rules for m pits a row, opened once (none beyond kMaxPits).
  const Database* database(int m) {
    if (m > kMaxPits) return nullptr;
    auto [it, inserted] = databases_.try_emplace(m);
    if (inserted) it->second = search_database(o_.game, Rules{m});
    return it->second.get();
  }

  const KgpOptions& o_;
  Connection server_;
  bool greeted_ = false;
  std::map<int, std::unique_ptr<Database>> databases_;
  std::unique_ptr<StateJob> job_;  // the board being worked on
};

}  // namespace

int cmd_kgp(const std::vector<std::string>& args, bool check_only) {
  KgpOptions o;
  po::options_description desc("options");
  desc.add_options()("host", po::value(&o.host)->value_name("H"), "the server (default localhost)")(
      "port", po::value(&o.port)->value_name("P"), "its TCP port (default 2671)")(
      "time", po::value(&o.seconds)->value_name("SECONDS"),
      "the most time for one board; the server's 'stop' may come first (default 5)")(
      "name", po::value(&o.name)->value_name("N"), "the name told to the server (default kalah)")(
      "token", po::value(&o.token)->value_name("T"),
      "an auth:token, so that a tournament server knows the client again")(
      "db", po::value(&o.game.db)->value_name("DIR"),
      "endgame database of standard capture (default: the default directory, if it holds it)")(
      "no-db", po::bool_switch(&o.game.no_db), "search alone, without any database");
  add_threads_option(desc, o.threads);
  po::variables_map vm;
  if (!parse_command(kHelp, desc, nullptr, args, vm)) return kExitOk;
  check_range("--port", o.port, 1, 65535);
  check_range("--time", o.seconds, 0.01, 3600.0);
  if (o.game.no_db && !o.game.db.empty()) throw UsageError("give --db or --no-db, not both");
  const ThreadLimit limit(o.threads);
  if (check_only) return kExitOk;
  return Client(o).run();
}

}  // namespace kalah
