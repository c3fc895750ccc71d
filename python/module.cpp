// module.cpp: the Python module `kalah` (docs/json.md for the dicts it returns).
//
//   import kalah
//   kalah.solve(pits=4, seeds=3, capture="standard")["value"]        # 6
//   db = kalah.Database("/data/kalah", capture="empty")              # pits from the files
//   db = kalah.Database(capture="empty")                # the command line's default directory
//   db.probe("0,0,2,1,0,0/1,2,3,2,0,0/15,14")                         # margin, or None above it
//   db.analyse("0,0,2,1,0,0/1,2,3,2,0,0/15,14")["moves"]
//
// Bad input raises ValueError with the command line's message; an unreadable or damaged
// database raises RuntimeError. The GIL is released while kalah works, and Ctrl-C ends a long
// analysis with KeyboardInterrupt.
#include <kalah/kalah.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <future>

namespace py = pybind11;
namespace api = kalah::api;

namespace {

// The answer's JSON as a dict: the same fields as `kalah solve --json`.
py::object as_dict(const api::Analysis& a) {
  return py::module_::import("json").attr("loads")(a.json);
}

api::Rules rules(int pits, const std::string& capture, const std::string& end,
                 const std::string& remainder) {
  return {pits, capture, end, remainder};
}

// A rule argument: None takes it from the database when there is one, else the command line's
// default. One that contradicts the database is the library's ValueError.
using Rule = std::optional<std::string>;
api::Rules rules(int pits, const Rule& capture, const Rule& end, const Rule& remainder,
                 const api::Database* db) {
  const api::Rules held = db ? db->rules() : api::Rules{};
  return {pits ? pits : db ? held.pits : 0, capture.value_or(held.capture),
          end.value_or(held.end), remainder.value_or(held.remainder)};
}

// Runs work(stop) on a thread of its own without the GIL, while this thread looks for signals
// every 50 ms: on Ctrl-C it stops the work and raises KeyboardInterrupt (Python only sees a
// signal when its own thread asks). Returns the answer's dict.
template <class Work>
py::object interruptible(const Work& work) {
  std::atomic<bool> stop{false};
  auto task = std::async(std::launch::async, [&] { return work(&stop); });
  bool interrupted = false;
  {
    py::gil_scoped_release release;
    while (task.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
      py::gil_scoped_acquire acquire;
      if (PyErr_CheckSignals() != 0) {
        interrupted = true;
        stop = true;
        break;
      }
    }
    task.wait();
  }
  if (interrupted) {
    try {
      task.get();
    } catch (const std::exception&) {  // kalah::api::Interrupted, as asked
    }
    throw py::error_already_set();  // the KeyboardInterrupt PyErr_CheckSignals raised
  }
  return as_dict(task.get());
}

}  // namespace

PYBIND11_MODULE(kalah, m) {
  m.doc() =
      "Perfect-play values of Kalah (mancala) positions, from kalah's endgame databases and "
      "search.\n\nPositions are text as on the command line: 'A/B[/x,y]' (the mover's pits, the "
      "opponent's, the stores) or absolute '2m+2 bins,S|N'. A value is the final margin (own "
      "store minus the opponent's) for the player to move under perfect play, stores included.";
  m.attr("__version__") = api::version();

  m.def(
      "solve",
      [](int pits, int seeds, const Rule& capture, const Rule& end, const Rule& remainder,
         const api::Database* db) {
        const api::Rules r = rules(pits ? pits : db ? 0 : 6, capture, end, remainder, db);
        return interruptible(
            [&](const std::atomic<bool>* stop) { return api::solve(r, seeds, db, stop); });
      },
      py::kw_only(), py::arg("pits") = 0, py::arg("seeds"), py::arg("capture") = py::none(),
      py::arg("end") = py::none(), py::arg("remainder") = py::none(), py::arg("db") = nullptr,
      "Solves the start position of Kalah(pits, seeds) and returns the dict of "
      "`kalah solve --json`: value, result, moves (each with its value and the position it leads "
      "to), best_line, ... `db`, a Database, ends the search early; the pits and rules not "
      "given are the database's, else 6 pits and the command line's rules (standard capture, "
      "immediate end, remainder to its owner).");

  m.def(
      "analyse",
      [](const std::string& position, int pits, const Rule& capture, const Rule& end,
         const Rule& remainder, const api::Database* db) {
        const api::Rules r = rules(pits, capture, end, remainder, db);
        return interruptible(
            [&](const std::atomic<bool>* stop) { return api::analyse(r, position, db, stop); });
      },
      py::arg("position"), py::kw_only(), py::arg("pits") = 0, py::arg("capture") = py::none(),
      py::arg("end") = py::none(), py::arg("remainder") = py::none(), py::arg("db") = nullptr,
      "Analyses any position (pits = 0: as many as the position has) and returns the dict of "
      "`kalah solve --json`; from `db` when it holds the position, else by search. The rules not "
      "given are the database's, else the command line's; rules that contradict the database "
      "raise ValueError.");

  py::class_<api::Database>(m, "Database",
                            "The endgame database of one rule variant in a directory, as built "
                            "by `kalah build --db DIRECTORY`. Safe to share between threads.")
      .def(py::init([](const std::optional<std::string>& directory, const std::string& capture,
                       const std::string& end, const std::string& remainder, int pits,
                       size_t cache_mb) {
             return api::Database(directory.value_or(api::default_directory()),
                                  rules(pits, capture, end, remainder), cache_mb);
           }),
           py::arg("directory") = py::none(), py::kw_only(), py::arg("capture") = "standard",
           py::arg("end") = "immediate", py::arg("remainder") = "owner", py::arg("pits") = 0,
           py::arg("cache_mb") = 0,
           "Opens the layers of these rules in `directory` (default: $KALAH_DB, else "
           "~/.cache/kalah/db, as the command line; pits = 0: from the files).")
      .def_property_readonly("pits", [](const api::Database& db) { return db.rules().pits; })
      .def_property_readonly("max_seeds", &api::Database::max_seeds,
                             "the top layer: positions with up to this many seeds on the pits "
                             "are in the database")
      .def_property_readonly(
          "rules",
          [](const api::Database& db) {
            const api::Rules r = db.rules();
            py::dict d;
            d["capture"] = r.capture;
            d["end"] = r.end;
            d["remainder"] = r.remainder;
            return d;
          },
          "the rules, as keyword arguments of solve() and analyse()")
      .def(
          "probe",
          [](const api::Database& db, const std::string& position) {
            py::gil_scoped_release release;
            return db.probe(position);
          },
          py::arg("position"),
          "The value of the position for the player to move, stores included, or None when it "
          "has more seeds on the pits than the database's top layer.")
      .def(
          "analyse",
          [](const api::Database& db, const std::string& position) {
            return interruptible(
                [&](const std::atomic<bool>* stop) { return db.analyse(position, stop); });
          },
          py::arg("position"),
          "Every move's value and a best line, as the dict of `kalah query --json` (the fields "
          "of `kalah solve --json`); above the top layer by search.");
}
