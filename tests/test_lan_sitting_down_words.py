"""What a person reads on sitting down at a table someone else opened (real host over
loopback TCP, real sessions, the game's controller in front of each)."""

from __future__ import annotations

from pathlib import Path

import trio
from hosting import create, start_host
from person_screen import sit, until

from scopa_net.rules import RuleSet


async def test_a_person_sitting_at_a_table_with_a_password_reads_which_table_and_seat(
    tmp_path: Path,
) -> None:
    """Bruno typed the table's password and read only "Connection: connected.": never which
    table or seat he held (Ada, who opened it, reads "Table 1 is yours"). Now he reads it
    once, and Ada does not read it for him."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01, grace=600)
        ada = await sit(nursery, host, "Ada", tmp_path, create=create(RuleSet.of(2), password="pw"))
        table = ada.session.table_id
        bruno = await sit(nursery, host, "Bruno", tmp_path, table_id=table, password="pw")
        await until(lambda: any(line.startswith("Your hand ") for line in bruno.lines), 10)
        said = f"You sit at table {table} 'test table', seat 1."
        assert bruno.lines.count(said) == 1, bruno.text
        assert "Connection: connected." in bruno.lines[: bruno.lines.index(said)], bruno.text
        assert not [line for line in ada.lines if line.startswith("You sit at")], ada.text
        nursery.cancel_scope.cancel()
