"""Positions seen from one fixed side, the board drawn as text, and game records (kalah.Game):
the Python side of kalah's Position (python/_kalah.cpp)."""
from __future__ import annotations

import re as _re
from typing import Any, Dict, Iterator, List, Optional, Tuple

from ._kalah import Position


def _bins(p: Position) -> List[int]:
    return [int(b) for b in p.absolute.split(",")[:-1]]


def _south(p: Position) -> Tuple[int, ...]:
    """South's pits, 1..pits in South's sowing order (left to right as the board is drawn)."""
    return tuple(_bins(p)[:p.pits])


def _north(p: Position) -> Tuple[int, ...]:
    """North's pits, 1..pits in North's sowing order (right to left as the board is drawn)."""
    m = p.pits
    return tuple(_bins(p)[m + 1:2 * m + 1])


def _board(p: Position) -> str:
    """The board as text, North on top (its pits numbered right to left), South below, the
    stores at each player's right: North's at the left, South's at the right."""
    m, south, north = p.pits, _south(p), _north(p)
    stores = p.stores
    label = "" if p.is_over else f"     {p.to_move} to move"
    cells = lambda values: "   " + "".join(f"{v:3d}" for v in values)
    return "\n".join([
        cells(range(m, 0, -1)),
        cells(reversed(north)) + (label if p.to_move == "North" else ""),
        f"{stores[1]:3d}" + " " * (3 * m) + f"{stores[0]:3d}",
        cells(south) + (label if p.to_move == "South" else ""),
        cells(range(1, m + 1)),
    ])


setattr(Position, "south", property(_south))  # setattr: the stub (_kalah.pyi) declares them
setattr(Position, "north", property(_north))
setattr(Position, "__str__", _board)

_TURN = _re.compile(r"^([SN]):([1-9][0-9]*(?:-[1-9][0-9]*)*)$")
_TOKEN = _re.compile(r"\{[^}]*\}|[^\s{}]+")  # a turn, or a {comment} after one
_HEADERS = ("south", "north", "date", "result")  # a record file's, in its order
_FIRST_LINE = ("# kalah game record: kalah serve's board imports it; the main line is "
               "`kalah solve --position START --moves MOVES`")


def _comment(text: str) -> str:
    """A comment as a record holds it: one line, no braces (as the board cleans it)."""
    return " ".join(_re.sub(r"[{}\r\n]+", " ", text).split())


class Game:
    """A game: its start and every pit played, with the position after each (python-chess's
    Game and Board in one). Its record is the command line's notation, a turn per side with
    extra turns joined by dashes: ``"S:3-6 N:2"`` (``kalah solve --moves``, ``kalah play``).

    >>> g = Game(Position.start(pits=3, seeds=2))
    >>> g.play(2).play(3).play(1)  # doctest: +NORMALIZE_WHITESPACE
    Game.from_record('S:2-3 N:1', Position.from_string('2,2,2,0,2,2,2,0,S', capture='standard',
                                                       end='immediate', remainder='owner'))
    >>> str(g), g.position.to_move, len(g.positions)    # N:1 ends in North's store
    ('S:2-3 N:1', 'North', 4)
    >>> Game.from_record("S:2-3 N:1", g.start) == g
    True
    >>> g.undo(), str(g)
    (1, 'S:2-3')
    """

    def __init__(self, start: Optional[Position] = None) -> None:
        """A game from `start` (by default the start of Kalah(6,4), standard rules)."""
        self.start: Position = start if start is not None else Position.start()
        self.positions: List[Position] = [self.start]
        self.pits_played: List[int] = []
        self.headers: Dict[str, str] = {}  # a record file's: south, north, date, result
        self.comments: Dict[int, str] = {}  # each turn's, by the pits played when it ends
        self.variations: List["Game"] = []  # other lines from the same start

    @classmethod
    def from_record(cls, record: str, start: Optional[Position] = None) -> "Game":
        """Replays a record (``"S:3-6 N:2"``, a ``{comment}`` after a turn kept in
        `comments`) from `start`; ValueError naming the first turn that cannot be played, and
        why."""
        game = cls(start)
        i = 0
        for turn in _TOKEN.findall(record):
            if turn.startswith("{"):
                game.comments[len(game.pits_played)] = _comment(turn[1:-1])
                continue
            i += 1
            match = _TURN.match(turn)
            if not match:
                raise ValueError(f"{turn!r} is not a turn like S:3-6")
            side = "South" if match.group(1) == "S" else "North"
            for pit in map(int, match.group(2).split("-")):
                where = f"game record, turn {i} ({turn}), pit {pit}"  # the command line's words
                if game.position.to_move != side:
                    raise ValueError(f"{where}: {game.position.to_move} is to move, not {side}")
                if pit not in game.position.legal_moves:
                    raise ValueError(f"{where}: it cannot be played in "
                                     f"{game.position.notation}")
                game.play(pit)
        return game

    @property
    def position(self) -> Position:
        """The position now."""
        return self.positions[-1]

    def play(self, pit: int) -> "Game":
        """Plays a pit of the player to move (ValueError if it is not legal); returns the game."""
        self.positions.append(self.position.play(pit))
        self.pits_played.append(pit)
        return self

    def undo(self) -> int:
        """Takes back the last pit played and returns it (IndexError at the start)."""
        if not self.pits_played:
            raise IndexError("undo at the start of the game")
        self.positions.pop()
        return self.pits_played.pop()

    def turns(self) -> Iterator[Tuple[str, List[int]]]:
        """Each turn: the side ('S' or 'N') and its pits, extra turns included."""
        side, pits = "", []
        for position, pit in zip(self.positions, self.pits_played):
            if position.to_move[0] != side and pits:
                yield side, pits
                pits = []
            side = position.to_move[0]
            pits.append(pit)
        if pits:
            yield side, pits

    def record(self, comments: bool = False) -> str:
        """The command line's record: ``"S:3-6 N:2"``; with `comments`, each turn's comment
        after it, as the board writes them: ``"S:3-6 {a fine start} N:2"``."""
        out, played = [], 0
        for side, pits in self.turns():
            played += len(pits)
            out.append(f"{side}:" + "-".join(map(str, pits)))
            if comments and self.comments.get(played):
                out.append("{" + self.comments[played] + "}")
        return " ".join(out)

    @classmethod
    def from_text(cls, text: str) -> "Game":
        """A game record file as the analysis board exports and imports it (docs/board.md):
        headers, rules, start, the main line (``moves:``) and each variation (``lines:``, whole
        lines from the start, in `variations`), turns with their comments. ValueError names
        a key it does not know or a turn that cannot be played.

        >>> g = Game.from_text("date: 2026-12-07\\nmoves: S:3-6 {the book's} N:2\\n"
        ...                    "lines: S:1 {a blunder}")
        >>> g.headers, g.comments, g.variations[0].record(comments=True)
        ({'date': '2026-12-07'}, {2: "the book's"}, 'S:1 {a blunder}')
        >>> Game.from_text(g.text()).text() == g.text()
        True
        """
        keys: Dict[str, str] = {}
        headers: Dict[str, str] = {}
        moves: List[str] = []
        lines: List[str] = []
        for raw in text.splitlines():
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            match = _re.match(r"^([a-z]+):\s*(.*)$", line)
            key, value = (match.group(1), match.group(2)) if match else ("moves", line)
            if key in _HEADERS:
                headers[key] = value
            elif key in ("moves", "lines"):
                (moves if key == "moves" else lines).append(value)
            elif key in ("capture", "end", "remainder", "start"):
                keys[key] = value
            else:
                raise ValueError(f"'{key}' is not a key of a game record: {', '.join(_HEADERS)}, "
                                 "capture, end, remainder, start, moves or lines")
        rules: Dict[str, Any] = {k: keys[k] for k in ("capture", "end", "remainder") if k in keys}
        start = (Position.from_string(keys["start"], **rules) if "start" in keys
                 else Position.start(**rules))
        game = cls.from_record(" ".join(moves), start)
        game.headers = headers
        game.variations = [cls.from_record(line, start) for line in lines]
        return game

    def text(self) -> str:
        """The game as a record file, as the analysis board exports it (from_text reads it)."""
        rules = self.start.rules
        out = [_FIRST_LINE] + [f"{k}: {self.headers[k]}" for k in _HEADERS if k in self.headers]
        out += [f"capture: {rules['capture']}", f"end: {rules['end']}",
                f"remainder: {rules['remainder']}"]
        out.append(f"start: {self.start.absolute}")
        if self.pits_played:
            out.append(f"moves: {self.record(comments=True)}")
        out += [f"lines: {v.record(comments=True)}" for v in self.variations]
        return "\n".join(out) + "\n"

    def __str__(self) -> str:
        return self.record()

    def __repr__(self) -> str:
        return f"Game.from_record({self.record()!r}, {self.start!r})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Game) and self.start == other.start
                and self.pits_played == other.pits_played)

    __hash__ = None  # type: ignore[assignment]  # mutable
