"""Ada's real client caught up by snapshot at our real host's blind table, where the snapshot
stands at the last round she checked herself, or at no round dealt (protocol.md 9.7): she
takes her own chain up again, and her transcript of the match goes on from round 1, so that
``scopa-net verify`` checks it whole. (A host that rewrites the chain behind such a snapshot:
tests/test_lan_blind_catch_up_cheat.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from hosting import CutOff, create, start_host
from person_screen import Player, sit, until

from scopa_net.blind_witness import BlindWitness
from scopa_net.client.moves import legal_plays
from scopa_net.client.network_session import (
    CAUGHT_UP_AT_ROUNDS_YOU_SAW,
    CAUGHT_UP_BEFORE_THE_FIRST_DEAL,
)
from scopa_net.commands.main import main
from scopa_net.fair.commitments import fingerprint
from scopa_net.rules import RuleSet
from scopa_net.server.blind_table import BlindTable
from scopa_net.server.host import Host


async def plays_on(player: Player) -> None:
    """The person types the first legal card whenever it is her turn."""
    while not player.controller.state.match_over:
        view = player.session.view
        if view is not None and view.my_turn and not view.round_over and view.hand:
            await player.type(legal_plays(view)[0].text())
        await trio.sleep(0.01)


@pytest.mark.parametrize("before_round_1", [False, True])
async def test_a_blind_seat_caught_up_at_a_round_it_saw_saves_a_transcript_that_verifies(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    before_round_1: bool,
) -> None:
    """Ada's network goes down between two rounds (or before anything is dealt, as Bruno sits
    down to start the match) and she is caught up by snapshot. The snapshot stands at the
    last round she saw (or at none): her client follows the match on, saves its transcript at
    the end, from round 1, and ``verify`` says VERIFIED (before, she read "No transcript is
    saved for this match" after round 1, and her client saved none)."""
    monkeypatch.setattr(BlindTable, "pause_before_round", property(lambda table: 1.0))
    hosts: list[Host] = []
    screens: list[Player] = []

    async def match() -> None:
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, replay_limit=1, bot_delay=0.01, grace=5)
            hosts.append(host)
            network = CutOff(host.port)
            rules = RuleSet.of(2, 4) if before_round_1 else RuleSet.of(2, 11)
            ada = await sit(
                nursery, host, "Ada", tmp_path,
                create=create(rules, bots=0 if before_round_1 else 1, blind=True),
                connector=network.connect,
            )  # fmt: skip
            screens.append(ada)
            nursery.start_soon(plays_on, ada)
            (task,) = host.tables.values()
            if before_round_1:
                await network.cut()
                bruno = await sit(nursery, host, "Bruno", tmp_path, table_id=ada.session.table_id)
                nursery.start_soon(plays_on, bruno)
                await until(lambda: task.table.round_no == 1)
            else:
                await until(
                    lambda: (
                        isinstance(ada.session.witness, BlindWitness)
                        and ada.session.witness.verdicts
                    )
                )
                await network.cut()
                await until(lambda: task.table.round_no == 2)
            network.up = True  # her client resumes by itself
            await until(lambda: ada.controller.state.match_over, 120)
            with trio.move_on_after(5):  # (said as the match ends)
                await until(lambda: "Transcript saved:" in ada.text)
            nursery.cancel_scope.cancel()

    with trio.fail_after(150):
        await match()
    ada = screens[0]
    said = CAUGHT_UP_BEFORE_THE_FIRST_DEAL if before_round_1 else CAUGHT_UP_AT_ROUNDS_YOU_SAW
    assert said in ada.text, ada.text
    assert "No transcript is saved" not in ada.text, ada.text
    assert "No transcript was saved" not in ada.text, ada.text
    assert "Transcript saved:" in ada.text, ada.text
    (saved,) = (tmp_path / "Ada" / "transcripts").glob("*.scopa")
    capsys.readouterr()
    assert main(["verify", "--pin", fingerprint(hosts[0].public_key), str(saved)]) == 0
    out = capsys.readouterr().out
    assert "round 1: verified" in out, out
    assert out.rstrip().splitlines()[-1] == "VERIFIED", out
