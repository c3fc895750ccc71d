// _kalah.cpp: the extension behind the Python package `kalah` (python/kalah/__init__.py says
// what users see; python/kalah/_kalah.pyi types it; docs/json.md for the dicts it returns).
//
// Bad input raises ValueError with the command line's message; an unreadable or damaged
// database raises RuntimeError. The GIL is released while kalah works, and Ctrl-C ends a long
// search with KeyboardInterrupt.
#include <kalah/kalah.h>
#include <pybind11/operators.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "calls.h"
#include "rule_args.h"

using namespace kalah_python;  // NOLINT: the module's own helpers

namespace {

// A position given as text or as a Position (absolute: the side to move is part of the answer).
using AnyPosition = std::variant<std::string, api::Position>;
std::string text(const AnyPosition& p) {
  return std::holds_alternative<std::string>(p) ? std::get<std::string>(p)
                                                : std::get<api::Position>(p).absolute();
}

constexpr const char* kPositionDoc =
    R"(A position of a game under its rules, for playing games through:
legal moves, the position each leads to, the end and the score. Immutable and hashable; every
call is cheap (no search). Accepted wherever a position's text is. Its seeds in one fixed
orientation: south and north (each row in its owner's sowing order), stores (South's, North's);
str() draws the board, North on top.

Position.start(pits=6, seeds=4, capture="standard", end="immediate", remainder="owner")
Position.from_string(text, pits=0, ...): either notation; pits = 0 takes them from the text.

>>> p = Position.start(pits=3, seeds=2)
>>> p.notation, p.to_move, p.legal_moves
('2,2,2/2,2,2/0,0', 'South', [1, 2, 3])
>>> q = p.play(2)                 # the last seed in the store: South moves again
>>> q.to_move, q.stores, q.south, q.legal_moves
('South', (1, 0), (2, 0, 3), [1, 3])
>>> r = q.play(3)
>>> r.to_move, r.stores, r.north, r.absolute
('North', (2, 0), (3, 3, 2), '2,0,0,2,3,3,2,0,N')
>>> print(r)
     3  2  1
     2  3  3     North to move
  0           2
     2  0  0
     1  2  3
>>> end = Position.from_string("0,0,0/1,2,0/5,4")
>>> end.is_over, end.score, end.legal_moves     # the mover's row is empty: 5 - 4 - 3
(True, -2, [])
)";

constexpr const char* kDatabaseDoc =
    R"(The endgame database of one rule variant in a directory, as built by
`kalah build --db DIRECTORY`. Safe to share between threads.

Database(directory=None, capture="standard", end="immediate", remainder="owner", pits=0,
cache_mb=0, store=True): directory None is the command line's default ($KALAH_DB, else
~/.cache/kalah/db); pits = 0 takes them from the files; cache_mb = 0 keeps the layers resident
when they fit half the memory (a decoded copy mapped: the fastest probes), else caps the decoded
blocks held; store=False keeps no searched answers in DIRECTORY/answers (and reads none).

probe(position): the value (stores included) or None above the top layer. With a Position it
reads no text: about the cost of the C++ probe_board plus Python's call (docs/costs.md, "Probing").
analyse(position, threads=0, value_only=False, timeout=None): every move's value and a best
line, as kalah.analyse(); above the top layer by a search that ends at the database.
)";

// Database.probe(position), a METH_O method of CPython's own rather than a pybind11 function:
// pybind11's dispatch (overloads, argument loaders, keyword handling) cost several times the
// probe itself, and a probe is what an engine calls in its inner loop (scripts/bench/probe.py).
// A Position goes to the board-level probe; text to the text one (GIL released: it reads files).
PyTypeObject* position_type = nullptr;  // kalah.Position, set at import

// The C++ object inside a pybind11 instance of a type known to be exactly it.
template <class T>
const T& held(PyObject* o) {
  return *static_cast<const T*>(
      reinterpret_cast<py::detail::instance*>(o)->get_value_and_holder().value_ptr());
}

PyObject* probe(PyObject* self, PyObject* position) {
  try {
    const auto& db = held<api::Database>(self);  // a method of Database: self is one
    std::optional<int> value;
    if (Py_TYPE(position) == position_type) {
      value = db.probe(held<api::Position>(position));
    } else if (PyUnicode_Check(position)) {
      const std::string text = py::handle(position).cast<std::string>();
      py::gil_scoped_release release;
      value = db.probe(text);
    } else if (position != Py_None && py::isinstance<api::Position>(position)) {
      value = db.probe(py::handle(position).cast<const api::Position&>());  // a subclass
    } else {
      throw py::cast_error();
    }
    if (!value) Py_RETURN_NONE;
    return PyLong_FromLong(*value);
  } catch (const py::cast_error&) {
    PyErr_Format(PyExc_TypeError, "probe() takes a kalah.Position or a str, not %s",
                 Py_TYPE(position)->tp_name);
  } catch (...) {
    py::detail::translate_exception(std::current_exception());  // ValueError, RuntimeError
  }
  return nullptr;
}

PyMethodDef probe_method = {
    "probe", probe, METH_O,
    "probe(position)\n--\n\nThe value of a Position or a position's text (stores included), or "
    "None when it has more seeds on its pits than the database's top layer."};

void bind_position(py::module_& m) {
  py::class_<api::Position>(m, "Position", kPositionDoc)
      .def_static(
          "start",
          [](int pits, int seeds, const std::string& capture, const std::string& end,
             const std::string& remainder) {
            return api::Position::start({pits, capture, end, remainder}, seeds);
          },
          py::kw_only(), py::arg("pits") = 6, py::arg("seeds") = 4, py::arg("capture") = "standard",
          py::arg("end") = "immediate", py::arg("remainder") = "owner")
      .def_static(
          "from_string",
          [](const std::string& text, int pits, const std::string& capture, const std::string& end,
             const std::string& remainder) {
            return api::Position::parse(text, {pits, capture, end, remainder});
          },
          py::arg("text"), py::kw_only(), py::arg("pits") = 0, py::arg("capture") = "standard",
          py::arg("end") = "immediate", py::arg("remainder") = "owner")
      .def_property_readonly("legal_moves", &api::Position::legal_moves,
                             "The pits the player to move may sow, 1..pits in sowing order.")
      .def("play", &api::Position::play, py::arg("pit"),
           "The position after the player to move sows `pit` (ValueError if it is not legal).")
      .def_property_readonly("is_over", &api::Position::is_over,
                             "Whether the game is over under the position's end rule.")
      .def_property_readonly(
          "score", &api::Position::score,
          "The final margin for the player to move of a finished game (stores and the seeds "
          "left, by the remainder rule); of one not over, the stores' margin.")
      .def_property_readonly(
          "pits", [](const api::Position& p) { return p.rules().pits; },
          "How many pits a row has (the m of Kalah(m,n)); the seeds are in south and north.")
      .def_property_readonly(
          "rules", [](const api::Position& p) { return rules_dict(p.rules()); },
          "The rule variant: {'capture': ..., 'end': ..., 'remainder': ...}.")
      .def_property_readonly(
          "to_move",
          [](const api::Position& p) { return p.mover() == 'S' ? "South" : "North"; },
          "'South' or 'North': the player to move (as the JSON's to_move).")
      .def_property_readonly(
          "stores",
          [](const api::Position& p) {
            return p.mover() == 'S' ? std::make_pair(p.mover_store(), p.opponent_store())
                                    : std::make_pair(p.opponent_store(), p.mover_store());
          },
          "(South's store, North's store), whoever is to move.")
      .def_property_readonly("absolute", &api::Position::absolute,
                             "The absolute notation: 2m+2 bins counter-clockwise from South's "
                             "first pit, then S or N.")
      .def_property_readonly("notation", &api::Position::str,
                             "The side-relative notation 'A/B/x,y': the mover's pits, the "
                             "opponent's, the stores (mover's first).")
      .def("__repr__",
           [](const api::Position& p) {
             const api::Rules& r = p.rules();
             return "Position.from_string('" + p.absolute() + "', capture='" + r.capture +
                    "', end='" + r.end + "', remainder='" + r.remainder + "')";
           })
      .def(py::self == py::self)
      .def("__hash__", [](const api::Position& p) {
        return py::hash(
            py::make_tuple(p.absolute(), p.rules().capture, p.rules().end, p.rules().remainder));
      });
}

// The rules and the database of a game's start: the rules given, else the database's, else 6
// pits and the command line's rules.
std::pair<api::Rules, const api::Database*> start_rules(int pits, const Rule& capture,
                                                        const Rule& end, const Rule& remainder,
                                                        const py::object& db) {
  const api::Database* given = given_database(db);
  const int m = pits == 0 && given == nullptr ? 6 : pits;  // 0: the database's
  const api::Rules r = rules(m, capture, end, remainder, rules_of(given));
  return {r, given != nullptr ? given : database(db, r)};
}

void bind_functions(py::module_& m) {
  m.def(
      "solve",
      [](int pits, int seeds, const Rule& capture, const Rule& end, const Rule& remainder,
         const py::object& db, int threads, bool value_only, const std::optional<double>& timeout,
         bool pie, const py::object& progress) {
        const auto [r, d] = start_rules(pits, capture, end, remainder, db);
        return interruptible(
            [&](const std::atomic<bool>* stop, const ProgressSink& sink) {
              return api::solve(r, seeds, d, stop,
                                options(threads, question(value_only, pie), timeout, sink));
            },
            progress);
      },
      py::kw_only(), py::arg("pits") = 0, py::arg("seeds"), py::arg("capture") = py::none(),
      py::arg("end") = py::none(), py::arg("remainder") = py::none(),
      py::arg("db") = py::str("default"), py::arg("threads") = 0, py::arg("value_only") = false,
      py::arg("timeout") = py::none(), py::arg("pie") = false, py::arg("progress") = py::none());

  m.def(
      "analyse",
      [](const AnyPosition& position, int pits, const Rule& capture, const Rule& end,
         const Rule& remainder, const py::object& db, int threads, bool value_only,
         const std::optional<double>& timeout, bool pie, const py::object& progress,
         const py::object& stop) {
        // A Position carries its rules: an argument may repeat them, never change them.
        const auto* p = std::get_if<api::Position>(&position);
        const api::Database* given = given_database(db);
        const api::Rules r =
            rules(pits, capture, end, remainder, p ? std::optional(p->rules()) : rules_of(given));
        if (p) check_position_rules(p->rules(), r);
        const std::string t = text(position);
        // The default database is of the position's pit count.
        const api::Database* d = given ? given : database(db, api::Position::parse(t, r).rules());
        return interruptible(
            [&](const std::atomic<bool>* halt, const ProgressSink& sink) {
              return api::analyse(r, t, d, halt,
                                  options(threads, question(value_only, pie), timeout, sink));
            },
            progress, stop);
      },
      py::arg("position"), py::kw_only(), py::arg("pits") = 0, py::arg("capture") = py::none(),
      py::arg("end") = py::none(), py::arg("remainder") = py::none(),
      py::arg("db") = py::str("default"), py::arg("threads") = 0, py::arg("value_only") = false,
      py::arg("timeout") = py::none(), py::arg("pie") = false, py::arg("progress") = py::none(),
      py::arg("stop") = py::none());
}

void bind_fair(py::module_& m) {
  m.def(
      "fair",
      [](int pits, int seeds, int moved, const Rule& capture, const Rule& end,
         const Rule& remainder, const py::object& db, int threads, bool exact,
         const std::optional<double>& timeout, const py::object& progress) {
        const auto [r, d] = start_rules(pits, capture, end, remainder, db);
        return interruptible(
            [&](const std::atomic<bool>* stop, const ProgressSink& sink) {
              api::FairOptions o;
              o.moved = moved;
              o.exact = exact;
              o.threads = threads;
              o.timeout = timeout.value_or(0);
              o.progress = sink;
              return api::fair(r, seeds, d, stop, o);
            },
            progress);
      },
      py::kw_only(), py::arg("pits") = 0, py::arg("seeds"), py::arg("moved") = 2,
      py::arg("capture") = py::none(), py::arg("end") = py::none(),
      py::arg("remainder") = py::none(), py::arg("db") = py::str("default"), py::arg("threads") = 0,
      py::arg("exact") = false, py::arg("timeout") = py::none(), py::arg("progress") = py::none());
}

void bind_database(py::module_& m) {
  py::class_<api::Database>(m, "Database", kDatabaseDoc)
      .def(py::init([](const std::optional<std::string>& directory, const std::string& capture,
                       const std::string& end, const std::string& remainder, int pits,
                       size_t cache_mb, bool store) {
             return api::Database(directory.value_or(api::default_directory()),
                                  {pits, capture, end, remainder}, cache_mb, store);
           }),
           py::arg("directory") = py::none(), py::kw_only(), py::arg("capture") = "standard",
           py::arg("end") = "immediate", py::arg("remainder") = "owner", py::arg("pits") = 0,
           py::arg("cache_mb") = 0, py::arg("store") = true)
      .def_property_readonly(
          "pits", [](const api::Database& db) { return db.rules().pits; },
          "How many pits a row has in the database's game.")
      .def_property_readonly("max_seeds", &api::Database::max_seeds,
                             "Its top layer: it holds every position with at most this many "
                             "seeds on the pits.")
      .def_property_readonly(
          "rules", [](const api::Database& db) { return rules_dict(db.rules()); },
          "Its rule variant: {'capture': ..., 'end': ..., 'remainder': ...}.")
      .def(
          "analyse",
          [](const api::Database& db, const AnyPosition& position, int threads, bool value_only,
             const std::optional<double>& timeout, const py::object& progress) {
            // A Position keeps its rules: the database refuses other rules than its own.
            const auto* p = std::get_if<api::Position>(&position);
            const std::string t = p ? "" : std::get<std::string>(position);
            return interruptible(
                [&](const std::atomic<bool>* stop, const ProgressSink& sink) {
                  const api::Options o =
                      options(threads, value_only ? api::Question::value : api::Question::analysis,
                              timeout, sink);
                  return p ? db.analyse(*p, stop, o) : db.analyse(t, stop, o);
                },
                progress);
          },
          py::arg("position"), py::kw_only(), py::arg("threads") = 0, py::arg("value_only") = false,
          py::arg("timeout") = py::none(), py::arg("progress") = py::none(),
          "analyse() with this database (its rules): every move's value and a best line.");
  py::object database = m.attr("Database");
  database.attr("probe") = py::reinterpret_steal<py::object>(
      PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(database.ptr()), &probe_method));
}

}  // namespace

PYBIND11_MODULE(_kalah, m) {
  m.doc() = "The C++ extension of the package kalah: import kalah instead.";
  m.attr("__version__") = api::version();
  bind_position(m);
  bind_functions(m);
  bind_fair(m);
  bind_database(m);
  position_type = reinterpret_cast<PyTypeObject*>(m.attr("Position").ptr());
  // Shown and documented as kalah.Position and kalah.Database (doctest finds them there).
  m.attr("Position").attr("__module__") = "kalah";
  m.attr("Database").attr("__module__") = "kalah";
}
