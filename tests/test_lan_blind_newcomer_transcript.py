"""A newcomer at our real host's blind table: Carla takes Bruno's open seat mid-match, over
loopback, given a snapshot (protocol.md 5.10, 9.7). She reads, as she sits down, that her
transcript of the match starts there; her client carries that snapshot on, saves a version 8
transcript (9.8) at the match's end, and ``scopa-net verify`` checks it as far as she saw the
match (status 1)."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from helpers import verified_as_far_as_seen
from hosting import create, start_host
from person_screen import Player, sit, until

from scopa_net.client.moves import legal_plays
from scopa_net.client.sitting_down import TOOK_A_SEAT
from scopa_net.rules import RuleSet
from scopa_net.server.host import Host


async def plays_on(player: Player) -> None:
    """The person types the first legal card whenever it is her turn, to the match's end."""
    while not player.controller.state.match_over:
        view = player.session.view
        if view is not None and view.my_turn and not view.round_over and view.hand:
            await player.type(legal_plays(view)[0].text())
        await trio.sleep(0.01)


async def carla_takes_brunos_seat(tmp_path: Path, hosts: list[Host]) -> Player:
    """Ada and Bruno begin a blind match to 4; Bruno leaves after its first play, and Carla
    takes his open seat and plays the match out with Ada. Carla's screen."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0, grace=0.5)
        hosts.append(host)
        ada = await sit(nursery, host, "Ada", tmp_path, create=create(RuleSet.of(2, 4), blind=True))
        bruno = await sit(nursery, host, "Bruno", tmp_path, table_id=ada.session.table_id)
        async with trio.open_nursery() as playing:
            playing.start_soon(plays_on, ada)
            playing.start_soon(plays_on, bruno)
            await until(lambda: ada.session.view is not None and ada.session.view.plays, 60)
            playing.cancel_scope.cancel()
        await bruno.type("quit")
        await bruno.type("leave")
        await until(lambda: "Bruno left" in ada.text or "left the table" in ada.text)
        carla = await sit(nursery, host, "Carla", tmp_path, table_id=ada.session.table_id)
        assert carla.session.seat == 1
        nursery.start_soon(plays_on, ada)
        await plays_on(carla)
        with trio.move_on_after(5):  # (said as the match ends)
            await until(lambda: "Transcript saved:" in carla.text)
        nursery.cancel_scope.cancel()
    return carla


async def test_a_blind_newcomer_keeps_a_version_8_transcript_verify_checks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hosts: list[Host] = []
    with trio.fail_after(240):
        carla = await carla_takes_brunos_seat(tmp_path, hosts)
    text = carla.text
    # She reads what a newcomer at an ordinary table reads (before: "... and no transcript is
    # saved for this match", although her client kept one).
    assert TOOK_A_SEAT in carla.lines, text
    assert "No transcript" not in text, text
    assert "Transcript saved:" in text, text
    verified_as_far_as_seen(tmp_path / "Carla" / "transcripts", hosts[0].public_key, 8, capsys)
