"""Perfect-play values of Kalah (mancala) positions, from kalah's endgame databases and search.

A value is the final margin (own store minus the opponent's, stores included) for the player to
move under perfect play. Positions are a :class:`Position` or text as on the command line:
``"A/B[/x,y]"`` (the mover's pits in sowing order, the opponent's, the stores) or absolute
(``2m+2`` bins counter-clockwise from South's first pit, then ``S`` or ``N``).

>>> import kalah
>>> kalah.solve(pits=4, seeds=3)["value"]                   # standard rules: South wins by 6
6
>>> p = kalah.Position.start(pits=3, seeds=2)
>>> p.legal_moves, p.play(2).south, p.play(2).stores       # pit 2's last seed lands in the store
([1, 2, 3], (2, 0, 3), (1, 0))
>>> print(kalah.Game.from_record("S:2-3 N:1", p).position)
     3  2  1
     3  4  0     North to move
  1           2
     2  0  0
     1  2  3
>>> a = kalah.analyse(p, threads=1)
>>> [(m["pit"], m["value"]) for m in a["moves"]], a["best_line"][0]
([(1, -8), (2, 4), (3, 0)], 'S:2-3')

A :class:`Game` holds a game record in the command line's notation (``"S:3-6 N:2"``) and the
positions it passes through. Answers are dicts with the fields of ``kalah solve --json``
(docs/json.md), typed as :class:`Answer`. Bad input raises ValueError with the command line's
message; a database that cannot be read or is damaged raises RuntimeError; Ctrl-C ends a search with
KeyboardInterrupt. Every function releases the GIL while it works.
"""
from __future__ import annotations

import os as _os
import threading as _threading
from typing import (Callable as _Callable, List as _List, Literal as _Literal,
                    Dict as _Dict, Optional as _Optional, TypedDict as _TypedDict,
                    Union as _Union)

try:
    from typing import Required as _Required
except ImportError:  # Python < 3.11
    from typing_extensions import Required as _Required

from . import _kalah
from ._analysis import Analysis
from ._game import Game
from ._kalah import Database, Position, __version__

__all__ = ["Analysis", "Answer", "Capture", "Database", "DatabaseArgument", "End", "Estimate",
           "Game", "Move",
           "Opening", "Position", "Progress", "ProgressCallback", "Remainder", "Rules",
           "FairAnswer", "__version__", "analyse", "analysis", "fair", "solve"]


def __dir__() -> "_List[str]":
    """The public names only (not the typing helpers this module uses)."""
    return sorted(__all__)

Capture = _Literal["standard", "empty"]
"""``--capture``: standard (only when the opposite pit holds seeds) or empty."""
End = _Literal["immediate", "on-turn"]
"""``--end``: immediate (either row empty) or on-turn (the mover's row empty)."""
Remainder = _Literal["owner", "discard"]
"""``--remainder``: the seeds left at the end go to their row's owner, or count for nobody."""


class Rules(_TypedDict):
    """The rule variant: ``kalah solve``'s ``--capture``, ``--end`` and ``--remainder``; a
    Database's and a Position's ``rules``, which ``**rules`` passes on."""
    capture: Capture
    end: End
    remainder: Remainder


class Move(_TypedDict):
    """One legal move of an analysed position."""
    pit: int          # 1..m, in the mover's sowing order
    value: int        # final margin for the player to move after this move and best play
    result: str       # "win", "draw" or "loss"
    turn: str         # the whole turn with its best extra moves and side, e.g. "S:3-6-1"
    position: str     # where the pit leads, side-relative for the player then to move
    absolute: str


class Opening(_TypedDict):
    """One opening under the pie rule."""
    turn: str
    value: int           # final margin for the first player if the opponent does not swap
    swap: bool           # the opponent swaps (value > 0)
    value_with_pie: int  # what the opening is worth to the first player: -|value|


class Estimate(_TypedDict, total=False):
    """A heuristic search's estimate while nothing is proven (``Answer["estimate"]``,
    ``Progress["estimate"]``): final margins for the player to move, kept within the bounds
    proven."""
    value: _Required[int]
    depth: _Required[int]    # plies looked ahead
    exact: _Required[bool]   # the heuristic search reached every game end: the value
    best: int               # its best pit, 1..m
    line: _List[str]        # the turns it expects from here, "S:3-6" (not proven)
    moves: _List[dict]       # a full analysis's: each pit with its estimated value and line


class Progress(_TypedDict, total=False):
    """What ``progress=`` is called with while a search works (docs/json.md, "progress")."""
    running: _Required[bool]
    seconds: _Required[float]
    nodes: _Required[int]
    lower: int              # proven bounds on the final margin
    upper: int
    done: int               # a full analysis: moves valued exactly
    total: int
    estimate: Estimate


ProgressCallback = _Callable[[Progress], None]
"""``progress=``: called with a :class:`Progress` dict while a search works: at each new report,
and with the last one again (its ``seconds`` up to date) when half a second passes without one."""
DatabaseArgument = _Union[Database, None, str, _os.PathLike]
"""The ``db`` argument: a Database; ``"default"`` (the command line's default directory's
database of the rules, when it holds them); another directory (str or os.PathLike), whose
database of the rules is opened once and kept; or None (search without one)."""


class Answer(_TypedDict, total=False):
    """An answer: the JSON object of ``kalah solve --json`` (docs/json.md). A full analysis has
    value, result, board_value, finished, moves and best_line; ``value_only=True`` value and
    result; ``pie=True`` value, result, best_opening and openings; a search that ran out of
    ``timeout`` interrupted, lower and upper (the bounds proven), stopped ("deadline") and no
    value."""
    kalah_version: _Required[str]
    command: _Required[str]
    position: _Required[str]
    absolute: _Required[str]
    pits: _Required[int]
    rules: _Required[Rules]
    to_move: _Required[str]   # "South" or "North"
    value: int
    result: str
    board_value: int
    finished: bool
    moves: _List[Move]
    best_line: _List[str]
    value_only: bool
    pie: bool
    best_opening: str
    openings: _List[Opening]
    interrupted: bool
    stopped: str             # why a search ended early: "deadline" (timeout) or "stop"
    lower: int
    upper: int
    estimate: Estimate       # interrupted, with a timeout or progress: the heuristic's
    source: _Required[str]    # "database", "store", "search" or "bounds"
    nodes: _Required[int]
    probes: int
    seconds: _Required[float]


def solve(*, seeds: int, pits: int = 0, capture: _Optional[Capture] = None,
          end: _Optional[End] = None, remainder: _Optional[Remainder] = None,
          db: DatabaseArgument = "default", threads: int = 0, value_only: bool = False,
          timeout: _Optional[float] = None, pie: bool = False,
          progress: _Optional[ProgressCallback] = None) -> Answer:
    """Solves the start of Kalah(pits, seeds): ``kalah solve --seeds N``.

    pits, capture, end, remainder: the game; those not given are ``db``'s, else 6 pits and the
    command line's rules (standard capture, immediate end, remainder to its owner). ``db``
    (:data:`DatabaseArgument`), a Database of the same rules or a directory holding one, ends
    the search at its layers; "default" (the default) is the command line's: the database in
    the default directory ($KALAH_DB, else ~/.cache/kalah/db) when it holds the rules, opened
    once and kept; None searches without one. threads: 0 (every
    core) or how many. value_only: the value alone (no moves, no line), far less work in big
    games. timeout: seconds (None, 0 or inf: no limit; any size is safe); when they run out the
    answer holds the bounds proven (``interrupted``, ``lower``, ``upper``; ``value`` too when
    they meet) and the estimate of a heuristic search (``estimate``). pie: the pie rule (the
    opponent may swap after the first turn): every opening and the best. progress: called with a
    :class:`Progress` dict as bounds are proven and the estimate improves (on this thread, at
    most every 50 ms; an exception it raises stops the search and is raised).

    >>> solve(pits=3, seeds=3, capture="empty", value_only=True)["value"]
    2
    >>> a = solve(pits=3, seeds=2, pie=True)
    >>> a["value"], a["best_opening"]
    (0, 'S:2-1')
    """
    return _kalah.solve(
        pits=pits, seeds=seeds, capture=capture, end=end, remainder=remainder, db=db,
        threads=threads, value_only=value_only, timeout=timeout, pie=pie, progress=progress)


def analyse(position: _Union[str, Position], *, pits: int = 0, capture: _Optional[Capture] = None,
            end: _Optional[End] = None, remainder: _Optional[Remainder] = None,
            db: DatabaseArgument = "default", threads: int = 0, value_only: bool = False,
            timeout: _Optional[float] = None, pie: bool = False,
            progress: _Optional[ProgressCallback] = None,
            stop: _Optional[_threading.Event] = None) -> Answer:
    """Every move's value and a best line of any position: from ``db`` when it holds the
    position, else by a search (ending at ``db``). A Position brings its rules (arguments that
    contradict them raise ValueError); for text the rules not given are ``db``'s, else the command
    line's; rules that contradict ``db`` raise ValueError. pits = 0: as many as the position has.
    stop: an Event that, once set (from any thread), ends the search as a timeout does. The
    other arguments as for solve().

    >>> analyse("2,0,1/0,1,1/3,4", capture="empty")["value"]
    0
    >>> analyse(Position.start(pits=6, seeds=6), timeout=0.05)["interrupted"]
    True
    """
    return _kalah.analyse(
        position, pits=pits, capture=capture, end=end, remainder=remainder, db=db,
        threads=threads, value_only=value_only, timeout=timeout, pie=pie, progress=progress,
        stop=stop)


def analysis(position: _Union[str, Position], *, pits: int = 0,
             capture: _Optional[Capture] = None, end: _Optional[End] = None,
             remainder: _Optional[Remainder] = None, db: DatabaseArgument = "default",
             threads: int = 0, value_only: bool = False, timeout: _Optional[float] = None,
             pie: bool = False) -> Analysis:
    """analyse() on a thread of its own, read as it improves; the arguments are analyse()'s.

    >>> with analysis(Position.start(pits=6, seeds=6), db=None, threads=1) as a:
    ...     for info in a:
    ...         if info.get("estimate", {}).get("depth", 0) >= 4:
    ...             a.stop()
    >>> a.wait()["stopped"]
    'stop'
    """
    # Checked here, where the mistake is, not when the handle is read: the search's own checks
    # run on its thread.
    for name, value, kinds in (("pits", pits, int), ("threads", threads, int),
                               ("value_only", value_only, bool), ("pie", pie, bool),
                               ("timeout", timeout, (int, float, type(None)))):
        if not isinstance(value, kinds) or (kinds is int and isinstance(value, bool)):
            raise TypeError(f"analysis(): {name} must be "
                            f"{'a number or None' if name == 'timeout' else kinds.__name__}, "
                            f"not {type(value).__name__}")
    return Analysis(position, dict(
        pits=pits, capture=capture, end=end, remainder=remainder, db=db, threads=threads,
        value_only=value_only, timeout=timeout, pie=pie))


class FairAnswer(_TypedDict, total=False):
    """The JSON object of ``kalah fair --json`` (docs/json.md): the fair starts and the counts."""
    kalah_version: _Required[str]
    command: _Required[str]  # "fair"
    pits: _Required[int]
    rules: _Required[Rules]
    seeds: _Required[int]
    moved: _Required[int]
    exact: _Required[bool]
    candidates: _Required[int]
    settled: _Required[int]  # fewer than candidates when stopped by the timeout
    fair: _Required[_List[str]]  # absolute positions, South to move, sorted
    below: _Required[_List[str]]  # the candidates North wins, the same way
    values: _Required[_Dict[str, int]]  # "<0", "0", ">0" (exact: "-4", "0", "+2") to counts
    seconds: _Required[float]


def fair(*, seeds: int, pits: int = 0, moved: int = 2, capture: _Optional[Capture] = None,
         end: _Optional[End] = None, remainder: _Optional[Remainder] = None,
         db: DatabaseArgument = "default", threads: int = 0, exact: bool = False,
         timeout: _Optional[float] = None,
         progress: _Optional[ProgressCallback] = None) -> FairAnswer:
    """The fair starts of Kalah(pits, seeds) as Neller's FairKalah defines them: ``kalah fair``.

    Every position within ``moved`` (1..3) seeds moved from the start, one at a time from a pit
    to any other pit or either store, South to move, is settled as worth 0 (fair: perfect
    players draw), less or more; ``exact=True`` finds each one's value (about 9 times slower).
    The rules and ``db`` as for solve(); a bigger database pays (docs/results.md). timeout:
    seconds, after which the answer holds the candidates settled so far. progress: called with a
    dict (``settled``, ``candidates``, ``seconds``) as candidates are settled.

    >>> a = fair(pits=3, seeds=2, moved=1, db=None)
    >>> a["candidates"], a["fair"][:1]
    (42, ['1,2,2,0,2,2,3,0,S'])
    """
    return _kalah.fair(
        pits=pits, seeds=seeds, moved=moved, capture=capture, end=end, remainder=remainder,
        db=db, threads=threads, exact=exact, timeout=timeout, progress=progress)

