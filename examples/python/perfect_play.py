"""Plays a game of Kalah through with perfect play on both sides, printing each turn with its
value: the Python API's Position, analyse() and, given a database directory, Database.probe().
Checked by mypy --strict in the tests (tests/api/pip_test.sh).

usage: python3 perfect_play.py [PITS SEEDS [DATABASE_DIRECTORY]]
"""
import sys
from typing import Optional

import kalah


def best_pit(position: kalah.Position, db: Optional[kalah.Database]) -> int:
    """A move worth the position's value: from the database's values of the moves' positions
    when it holds them all (a probe each), else from an analysis."""
    if db is not None:
        values = {}
        for pit in position.legal_moves:
            after = position.play(pit)
            v = db.probe(after)
            if v is None:
                break
            # A value is the mover's: the opponent's unless the move earned another turn.
            values[pit] = v if after.to_move == position.to_move else -v
        else:
            return max(values, key=values.__getitem__)
    answer = kalah.analyse(position, db=db, threads=1)
    return max(answer["moves"], key=lambda m: m["value"])["pit"]


def main() -> None:
    pits, seeds = (int(sys.argv[1]), int(sys.argv[2])) if len(sys.argv) > 2 else (4, 3)
    db = kalah.Database(sys.argv[3]) if len(sys.argv) > 3 else None
    position = (kalah.Position.start(pits=pits, seeds=seeds, **db.rules) if db
                else kalah.Position.start(pits=pits, seeds=seeds))
    value = kalah.analyse(position, db=db, value_only=True)["value"]
    print(f"Kalah({pits},{seeds}): {value:+d} for South with perfect play")
    while not position.is_over:
        pit = best_pit(position, db)
        print(f"{position.to_move} plays {pit}")
        position = position.play(pit)
    south = position.score if position.to_move == "South" else -position.score
    print(f"final margin for South: {south:+d}")
    assert south == value


if __name__ == "__main__":
    main()
