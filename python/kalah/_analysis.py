"""kalah.analysis: a search running on a thread of its own, read as it improves (as
python-chess's ``engine.analysis``)."""
from __future__ import annotations

import queue as _queue
import threading as _threading
import weakref as _weakref
from typing import (TYPE_CHECKING, Any as _Any, Iterator as _Iterator, Optional as _Optional,
                    cast as _cast)

from . import _kalah

if TYPE_CHECKING:
    from . import Answer, Progress

_END = object()  # after the last report


class _Search:
    """What the search's thread shares with its handle. The thread holds this, never the
    :class:`Analysis`, so a handle dropped unread is collected, and its finalizer stops the
    search."""

    def __init__(self) -> None:
        self.reports: _queue.SimpleQueue[object] = _queue.SimpleQueue()
        self.stop = _threading.Event()
        self.answer: _Optional[Answer] = None
        self.error: _Optional[BaseException] = None
        self.last: _Optional[dict[str, _Any]] = None  # the last report queued, its time left out

    def run(self, position: _Any, options: dict[str, _Any]) -> None:
        try:
            self.answer = _kalah.analyse(position, progress=self.report, stop=self.stop,
                                         **options)
        except BaseException as e:  # raised to whoever waits or iterates
            self.error = e
        finally:
            self.reports.put(_END)

    def report(self, report: Progress) -> None:
        # The search repeats its last report every half second with its time brought up to
        # date (a heartbeat); only what is new is an improvement.
        timeless = {k: v for k, v in report.items() if k != "seconds"}
        if timeless != self.last:
            self.last = timeless
            self.reports.put(report)


class Analysis:
    """A running analysis of one position (:func:`analysis` starts it). Iterating it yields each
    new :class:`Progress` report, the dicts a ``progress=`` callback gets (bounds proven, moves
    valued, the estimate deepening; the bounds meet when the value is proven), and ends when the
    search does; :meth:`wait` then gives the :class:`Answer`. :meth:`stop`, from any thread,
    ends the search within a tenth of a second or so: its answer then holds what was proven
    (``interrupted``, ``lower``, ``upper``, ``estimate``), as after a timeout. Leaving a
    ``with`` block stops it and waits for it; a handle dropped (no name left for it) stops its
    search too."""

    def __init__(self, position: _Any, options: dict[str, _Any]) -> None:
        self._search = _Search()
        self._thread = _threading.Thread(target=self._search.run, args=(position, options),
                                         name="kalah.analysis", daemon=True)
        _weakref.finalize(self, self._search.stop.set)
        self._thread.start()

    def __iter__(self) -> _Iterator[Progress]:
        return self

    def __next__(self) -> Progress:
        report = self._search.reports.get()
        if report is _END:
            self._search.reports.put(_END)  # for the next call, and for another thread's
            if self._search.error is not None:
                raise self._search.error
            raise StopIteration
        return _cast("Progress", report)

    def stop(self) -> None:
        """Ends the search (from any thread; it answers with what it proved)."""
        self._search.stop.set()

    def wait(self) -> Answer:
        """The answer, once the search ends (an error it raised is raised here)."""
        self._thread.join()
        if self._search.error is not None:
            raise self._search.error
        assert self._search.answer is not None
        return self._search.answer

    def __enter__(self) -> "Analysis":
        return self

    def __exit__(self, *exc: _Any) -> None:
        self.stop()
        self._thread.join()
