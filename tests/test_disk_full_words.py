"""What a person at the table reads when the host's disk refuses its journal's writes mid-match,
and when it takes them again.

Found by hand (tmux, the journal on a 2 MiB tmpfs filled up while Ada and Bruno played):
both read "the host refused: the host cannot save the game (its disk refuses writes); play
waits and nothing is lost; ...". Bruno had sent nothing; Ada's card had not been refused
but waited to be saved ("Sent 4h; waiting for the host..." below it). The host sends this
one unasked (protocol.md 3.6, ``error storage`` with ``ref`` nil): it is the host's news,
not an answer to anything."""

from __future__ import annotations

from pathlib import Path

import trio
from hosting import create, start_host
from person_screen import sit, until

from scopa_net.bots.levels import make_player
from scopa_net.rules import RuleSet

CANNOT_SAVE = (
    "Host: the host cannot save the game (its disk refuses writes); play waits and nothing is "
    "lost; it carries on when it can save again"
)


async def test_a_full_disk_mid_match_is_the_host_s_news_not_a_refusal(tmp_path: Path) -> None:
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, db=str(tmp_path / "host.db"), bot_delay=0.05)
        ada = await sit(nursery, host, "Ada", tmp_path, create=create(RuleSet.of(2, 11), bots=1))
        await until(lambda: ada.controller.state.in_match, 10)
        db = host.journal._db
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {pages}")  # full, as a full disk is (SQLITE_FULL)
        chooser = make_player("random", 3)

        async def plays_until_the_host_cannot_save() -> None:
            # A card typed as the disk fills waits for the host to save it (``type`` returns
            # only then): what Ada reads meanwhile is watched beside it, not after it.
            while "cannot save" not in ada.text:
                view = ada.controller.state.view
                if view is not None and view.my_turn and not view.round_over:
                    await ada.type(chooser.choose(view).text())
                await trio.sleep(0.02)

        nursery.start_soon(plays_until_the_host_cannot_save)
        await until(lambda: "cannot save" in ada.text, 60)  # the pages left fill up first
        said = [line for line in ada.lines if "cannot save" in line]
        assert said == [CANNOT_SAVE], ada.lines[-6:]
        assert not [line for line in ada.lines if "refused" in line], ada.lines[-6:]
        db.execute("PRAGMA max_page_count = 1073741823")  # space freed
        await until(lambda: "save the game again" in ada.text, 15)
        nursery.cancel_scope.cancel()
