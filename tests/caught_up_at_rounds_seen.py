"""A person's real client caught up by snapshot at our real host's table (ordinary or blind),
where the snapshot stands at the last round she checked herself, or at no round dealt
(protocol.md 5.10, 9.7): the match played to its end, and what she reads and keeps. Shared by
the LAN catch-up test modules of both table kinds."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from helpers import ROUND_1_VERIFIED, verify_pinned
from hosting import CutOff, create, start_host
from person_screen import Player, play_when_asked, sit, until

from scopa_net.blind_witness import BlindWitness
from scopa_net.client.network_session import (
    CAUGHT_UP_AT_ROUNDS_YOU_SAW,
    CAUGHT_UP_BEFORE_THE_FIRST_DEAL,
)
from scopa_net.rules import RuleSet
from scopa_net.server.blind_table import BlindTable
from scopa_net.server.host import Host
from scopa_net.server.table import Table
from scopa_net.witness import DealWitness


async def caught_up_and_played_out(
    tmp: Path, monkeypatch: pytest.MonkeyPatch, *, blind: bool, before_round_1: bool
) -> tuple[Host, Player]:
    """Ada's network goes down between rounds 1 and 2 of a match to 11 against the host's
    computer player (or, ``before_round_1``, of a match to 4 before anything is dealt, as
    Bruno sits down to start it); once the host has opened the round she missed, her client
    resumes by itself and is caught up by snapshot, and she plays the match out. At a
    ``blind`` table her client checks round 1 with the blind witness it hands over to. The
    host and her screen, once it says the transcript is saved."""
    table_class = BlindTable if blind else Table
    monkeypatch.setattr(table_class, "pause_before_round", property(lambda table: 1.0))
    found: list[tuple[Host, Player]] = []
    witness_class = BlindWitness if blind else DealWitness

    async def match() -> None:
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, replay_limit=1, bot_delay=0.01, grace=5)
            network = CutOff(host.port)
            rules = RuleSet.of(2, 4) if before_round_1 else RuleSet.of(2, 11)
            ada = await sit(
                nursery, host, "Ada", tmp,
                create=create(rules, bots=0 if before_round_1 else 1, blind=blind),
                connector=network.connect,
            )  # fmt: skip
            found.append((host, ada))
            nursery.start_soon(play_when_asked, ada)
            (task,) = host.tables.values()
            if before_round_1:
                await network.cut()
                bruno = await sit(nursery, host, "Bruno", tmp, table_id=ada.session.table_id)
                nursery.start_soon(play_when_asked, bruno)
                await until(lambda: task.table.round_no == 1)
            else:
                await until(
                    lambda: (
                        isinstance(ada.session.witness, witness_class)
                        and ada.session.witness.verdicts
                    )
                )
                await network.cut()
                await until(lambda: task.table.round_no == 2)
            network.up = True  # her client resumes by itself
            await until(lambda: "Transcript saved:" in ada.text, 120)
            nursery.cancel_scope.cancel()

    with trio.fail_after(150):
        await match()
    return found[0]


def saved_a_transcript_that_verifies(
    host: Host, ada: Player, tmp: Path, capsys: pytest.CaptureFixture[str], *, before_round_1: bool
) -> None:
    """Ada read that she was caught up at the rounds she saw (or before the first deal), never
    that no transcript is saved, and the one transcript her client saved, from round 1,
    verifies whole with the host's key pinned."""
    said = CAUGHT_UP_BEFORE_THE_FIRST_DEAL if before_round_1 else CAUGHT_UP_AT_ROUNDS_YOU_SAW
    assert said in ada.text, ada.text
    assert "No transcript is saved" not in ada.text, ada.text
    assert "No transcript was saved" not in ada.text, ada.text
    (saved,) = (tmp / "Ada" / "transcripts").glob("*.scopa")
    status, out = verify_pinned(host.public_key, saved, capsys)
    assert status == 0, out
    assert ROUND_1_VERIFIED.search(out), out
    assert out.rstrip().splitlines()[-1] == "VERIFIED", out
