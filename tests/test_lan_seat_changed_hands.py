"""Sitting down at a table whose seats changed hands, as the newcomer's screen reads it (over
loopback TCP, real host, real sessions, the game's controller in front of each): a name taken
at the table is said once."""

from __future__ import annotations

from pathlib import Path

import trio
from hosting import create, start_host
from person_screen import sit, until

from scopa_net.rules import RuleSet


async def test_a_name_taken_at_the_table_is_said_once_as_the_person_sits_down(
    tmp_path: Path,
) -> None:
    """Gina joins as Fabio where a Fabio sits: the host calls her Fabio (2), and her screen
    says so once, with how to choose another name (before: nothing was said), and ``who``
    says which seat is hers without a second pair of brackets after "Fabio (2)"."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01, grace=600)
        ada = await sit(nursery, host, "Ada", tmp_path, create=create(RuleSet.of(3, 11)))
        await sit(nursery, host, "Fabio", tmp_path, table_id=ada.session.table_id)
        gina = await sit(nursery, host, "Fabio", tmp_path, "Gina", table_id=ada.session.table_id)
        said = "Fabio is taken at this table: you are Fabio (2) here; `name NEW` changes it"
        await until(lambda: gina.controller.state.view is not None)
        assert gina.lines.count(said) == 1, gina.text
        # It read "Seat 2: Fabio (2) (you)": "(you)" said once, never a second pair of brackets.
        assert "Seat 2 (you): Fabio (2)" in await gina.type("who")
        nursery.cancel_scope.cancel()
