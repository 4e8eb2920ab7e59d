"""The words the table reads when a friend takes the seat of someone away past the host's
away limit (protocol.md 3.3), over loopback TCP: a real host, Bruno's real session with the
game's controller in front of it, Dino and Eve as bare protocol clients.

Before, Bruno read three lines, the first of them untrue ("Dino left the table; a computer
player takes the seat": Dino never left, and a computer had been playing for him for a while):
now he reads the host's one line, who took whose seat and why.
"""

from __future__ import annotations

from pathlib import Path

import trio
from hosting import create, start_host
from person_screen import sit, until
from rawseat import RawSeat

from scopa_net.rules import RuleSet

TAKEN = "Host: Eve takes Dino's seat: Dino was away for more than 1 second"


async def test_the_table_reads_one_true_line_when_eve_takes_dinos_seat(tmp_path: Path) -> None:
    """Dino's connection drops; past the grace period a computer plays for him; past the away
    limit Eve joins and takes his seat: Bruno reads the host's line and nothing else of it."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, grace=0.2, away_limit=1.0)
        bruno = await sit(nursery, host, "Bruno", tmp_path, create=create(RuleSet.of(2, 16)))
        table_id = bruno.session.table_id
        dino = await RawSeat.connect(host.port)
        await dino.join(table_id, 1, "Dino")
        await until(lambda: "Dino sat down at the table" in bruno.text, 10)
        await dino.aclose()
        await until(lambda: "a computer is playing for Dino until they are back" in bruno.text)
        await until(lambda: host.open_seats > 0, 10)
        before = len(bruno.lines)

        eve = await RawSeat.connect(host.port)
        await eve.join(table_id, None, "Eve")
        await until(lambda: TAKEN in bruno.lines, 10)
        await trio.sleep(0.2)  # anything said after it would be in by now
        said = [line for line in bruno.lines[before:] if line.startswith(("Table:", "Host:"))]
        assert said == [TAKEN], bruno.lines[before:]
        assert "Seat 1: Eve" in "\n".join(await bruno.type("who"))
        await eve.aclose()
        nursery.cancel_scope.cancel()
