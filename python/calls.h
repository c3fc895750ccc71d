// calls.h: how the extension (python/_kalah.cpp) runs kalah's searches for Python: off the
// GIL on a thread of their own, interruptible by Ctrl-C, with progress reports delivered on
// Python's thread, over the database a `db` argument names.
#pragma once

#include <cxxabi.h>
#include <kalah/kalah.h>
#include <pybind11/pybind11.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace py = pybind11;
namespace api = kalah::api;

namespace kalah_python {

// The answer's JSON as a dict: the same fields as `kalah solve --json` (or `kalah fair --json`).
inline py::object as_dict(const std::string& json) {
  return py::module_::import("json").attr("loads")(json);
}
inline py::object as_dict(const api::Analysis& a) {
  return as_dict(a.json);
}

using ProgressSink = std::function<void(const api::Progress&)>;

// Python's two keywords as the question asked; both at once is a ValueError.
api::Question question(bool value_only, bool pie) {
  if (value_only && pie) throw std::invalid_argument("give pie or value_only, not both");
  return pie ? api::Question::pie : value_only ? api::Question::value : api::Question::analysis;
}

// None is no limit (the library checks the rest, with the C++ API's one message).
api::Options options(int threads, api::Question ask, const std::optional<double>& timeout,
                     ProgressSink progress) {
  return {threads, ask, timeout.value_or(0), std::move(progress)};
}

// Runs work(stop, progress) on a thread of its own without the GIL, while this thread looks for
// signals every 50 ms: on Ctrl-C it stops the work and raises KeyboardInterrupt (Python only
// sees a signal when its own thread asks). Progress reports (the latest one) go to
// `on_progress` from this thread too, as dicts, and the last one again (its `seconds` brought
// up to date) when 0.5 s pass without a new one, so that a callback can drive a heartbeat; an
// exception it raises stops the work and is raised. `stop_event` (a threading.Event, or None),
// once set, stops the work as a timeout does: the answer holds what was proven. Returns the
// answer's dict.
template <class Work>
py::object interruptible(const Work& work, const py::object& on_progress,
                         const py::object& stop_event = py::none()) {
  std::atomic<bool> stop{false};
  std::mutex mutex;
  std::optional<std::string> pending;  // the latest report's JSON, under mutex
  ProgressSink sink;
  if (!on_progress.is_none())
    sink = [&](const api::Progress& p) {
      std::lock_guard lock(mutex);
      pending = p.json;
    };
  const auto start = std::chrono::steady_clock::now();
  auto task = std::async(std::launch::async, [&] { return work(&stop, sink); });
  bool interrupted = false;
  std::optional<py::error_already_set> failed;
  py::object last;    // the last report, as a dict
  auto told = start;  // when on_progress was last called
  // The GIL is released and taken again by hand, not by pybind11's guards: when the interpreter
  // exits while this runs on a daemon thread, taking the GIL ends the thread by unwinding its
  // stack (pthread_exit). That unwinding must not go on: a guard would take the GIL again
  // (std::terminate), and pybind11's frames above free Python objects without it (a fatal
  // error whenever no thread holds the GIL then). So the work is stopped and waited for, and
  // the thread then sleeps until the process ends, as Python 3.14 does with such threads.
  PyThreadState* released = PyEval_SaveThread();
  try {
    while (task.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
      PyEval_RestoreThread(released);
      const struct Release {
        PyThreadState*& state;
        ~Release() { state = PyEval_SaveThread(); }
      } release_again{released};
      if (PyErr_CheckSignals() != 0) {
        interrupted = true;
        stop = true;
        break;
      }
      try {
        if (!stop && !stop_event.is_none() && stop_event.attr("is_set")().cast<bool>())
          stop = true;  // the work ends with its bounds, answered below
        std::optional<std::string> report;
        {
          std::lock_guard lock(mutex);
          report.swap(pending);
        }
        const auto now = std::chrono::steady_clock::now();
        if (!report && (!last || now - told < std::chrono::milliseconds(500))) continue;
        if (report) {
          last = py::module_::import("json").attr("loads")(*report);
        } else {  // a heartbeat: the last report, up to date in time
          last = last.attr("copy")();
          last["seconds"] = std::chrono::duration<double>(now - start).count();
        }
        told = now;
        on_progress(last);
      } catch (py::error_already_set& e) {
        failed.emplace(std::move(e));
        stop = true;
        break;
      }
    }
    task.wait();
  } catch (abi::__forced_unwind&) {  // the interpreter is exiting and ends this thread
    stop = true;
    task.wait();
    for (;;) pause();
  } catch (...) {  // anything else leaves with the GIL held, as pybind11 expects
    stop = true;
    task.wait();
    PyEval_RestoreThread(released);
    throw;
  }
  PyEval_RestoreThread(released);
  if (interrupted || failed) {  // the answer (the bounds proven until the stop) is dropped
    if (failed) throw std::move(*failed);
    throw py::error_already_set();  // the KeyboardInterrupt PyErr_CheckSignals raised
  }
  return as_dict(task.get());
}

// The `db` argument when it is a Database, else null; a TypeError naming Python's type when it
// is none of what `db` may be.
inline const api::Database* given_database(const py::object& db) {
  if (db.is_none() || py::isinstance<py::str>(db)) return nullptr;
  if (py::isinstance(db, py::module_::import("os").attr("PathLike"))) return nullptr;
  try {
    return db.cast<const api::Database*>();
  } catch (const py::cast_error&) {
    throw py::type_error(
        "db must be a Database, a directory (str or os.PathLike), 'default' or "
        "None, not " +
        std::string(py::str(db.get_type().attr("__name__"))));
  }
}

// The `db` argument: a Database; None (search alone); "default": the default directory's
// database of these rules when it holds them (as the command line does), else none; another
// str or os.PathLike: that directory's database of these rules (ValueError if it has none).
// Directories are opened once a process and kept.
inline const api::Database* database(const py::object& db, const api::Rules& rules) {
  if (db.is_none()) return nullptr;
  if (const api::Database* given = given_database(db)) return given;
  const std::string path = py::str(py::module_::import("os").attr("fspath")(db));
  const bool by_default = path == "default";
  const std::string dir = by_default ? api::default_directory() : path;
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<api::Database>> opened;
  const std::string key =
      dir + '\n' + std::to_string(rules.pits) + rules.capture + rules.end + rules.remainder;
  py::gil_scoped_release release;  // opening may write decoded copies for seconds
  std::lock_guard lock(mutex);
  if (const auto it = opened.find(key); it != opened.end()) return it->second.get();
  try {
    auto d = std::make_unique<api::Database>(dir, rules);
    return (opened[key] = std::move(d)).get();
  } catch (const std::invalid_argument&) {  // no layers of these rules there (or no directory)
    if (!by_default) throw;
    return nullptr;
  }
}

}  // namespace kalah_python
