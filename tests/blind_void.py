"""An opt-in pytest plugin that makes chosen blind rounds void for their kings, to find tests
that assume a blind round has plays or is round N (a true void is about one deal in 600).

Not loaded by the suite; run it as::

    PYTHONPATH=tests python -m pytest -p blind_void --blind-void=first -n 0 tests/test_x.py

``--blind-void``: ``first`` (round 1), ``second`` (round 2) or ``odd`` (rounds 1, 3, 5...).
A blind deck comes from every party's seed (protocol.md 9.3), so no one function can be made
to say "void": the last party of a chosen round to draw its seed in this process (always a
person's, after the host's) draws instead one that, with the seeds drawn before it, shuffles
three kings onto the opening table (helpers.blind_kings_seed). The round is then a true kings
void for the host, every seat and ``verify``, in any process. Rounds whose last party is not
drawn in this process (an outsider's client, a client in a subprocess) stay as they are.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from helpers import blind_kings_seed

from scopa_net.fair.blind.party import BlindParty
from scopa_net.server.blind_table import BlindTable

CHOICES = ("first", "second", "odd")

_lock = threading.Lock()
_round_no: dict[bytes, int] = {}
"""Round id -> its number, as the host opened it."""
_seeds: dict[bytes, dict[int, bytes]] = {}
"""Round id -> the seed each party drew, by party."""
_swapped: dict[tuple[bytes, int, bytes], bytes] = {}
"""(round id, party, seed drawn) -> the seed put in its place."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--blind-void",
        choices=CHOICES,
        default=None,
        help="make these blind rounds void for their kings: first, second or odd",
    )


def pytest_configure(config: pytest.Config) -> None:
    mode = config.getoption("--blind-void")
    if mode is None:
        return

    def chosen(round_no: int) -> bool:
        return {"first": round_no == 1, "second": round_no == 2, "odd": round_no % 2 == 1}[mode]

    apply_round = BlindTable._apply_round
    party_init = BlindParty.__init__

    def numbered(table: BlindTable, round_id: bytes, host_seed: bytes) -> None:
        with _lock:
            _round_no.setdefault(round_id, table.round_no + 1)
        apply_round(table, round_id, host_seed)

    def drawn(  # noqa: PLR0917 (BlindParty's own signature)
        self: BlindParty,
        rules: Any,
        round_id: bytes,
        party: int,
        people: Any,
        seed: bytes,
        **kw: Any,
    ) -> None:
        parties = len(people) + 1
        with _lock:
            if 0 <= party < parties and chosen(_round_no.get(round_id, 0)):
                key = (round_id, party, seed)
                known = _seeds.setdefault(round_id, {})
                if key in _swapped:
                    seed = _swapped[key]
                elif party not in known:
                    known[party] = seed
                    others = {p: s for p, s in known.items() if p != party}
                    if party != 0 and len(others) == parties - 1:
                        seed = known[party] = _swapped[key] = blind_kings_seed(
                            rules, round_id, others, party, seed
                        )
        party_init(self, rules, round_id, party, people, seed, **kw)

    BlindTable._apply_round = numbered  # type: ignore[method-assign]
    BlindParty.__init__ = drawn  # type: ignore[method-assign]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """How many blind rounds were made void (0: no test reached a chosen round here)."""
    if _swapped:
        terminalreporter.write_line(f"blind_void: {len(_swapped)} blind round(s) made void")
