"""A person's client that stops in a round whose seeds were out, and her seat taken back from
disk by a new client, at a cheating host written from protocol.md alone
(``document_cheating_host``, over real loopback TCP): the host may not use the new client's
fresh start to deal that round again."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import trio
from document_cheating_host import REROLLED, CheatingHost
from document_referee import Table
from person_screen import (
    Player,
    back_from_disk,
    deal_checks_failed,
    plays_the_first_legal_card,
    sit,
    until,
)

from scopa_net.commands.main import main
from scopa_net.commands.options import EXIT_DEAL_FAILED
from scopa_net.fair.commitments import fingerprint

LONG_MATCH = 16
"""A target no side reaches in round 1, so that the round the host re-rolls (2) is played."""


@pytest.mark.parametrize("told_otherwise", ["dealt again", "match ended before it"])
async def test_a_round_dealt_again_to_a_client_taking_the_seat_back_from_disk_stops_it(
    told_otherwise: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ada plays the host's computer player. In round 2 her client sends its seed; the host
    holds it, sees the deal it gives, and keeps the round waiting. Her client stops there (she
    closed it, or the host made it give up: a host can). When she takes her seat back, her new
    client asks for the match from its start, and the host tells it again with round 2 opened
    afresh: another round id, another shuffle. Before the fix the new client, which had seen
    nothing, took that round 2, and its transcript (written over the old one: the same first
    round) verified; the one trace of the first round 2, its seed kept on disk, went unused.
    Told otherwise, the host ends the match where round 2 would open (no winner, as a host
    may end a match between rounds): before the fix the new client said the host abandoned
    the match, with nothing of round 2; now it stops, as a client that had seen round 2 opened
    stops at a match ended while a round is open."""
    hosts: list[CheatingHost] = []
    screens: list[Player] = []

    async def ada_comes_back() -> None:
        async with trio.open_nursery() as nursery:
            host = CheatingHost("restart_reroll")
            hosts.append(host)
            await host.start(nursery)
            table = host.open_table(Table(2, LONG_MATCH, frozenset()), bots=1)
            ada = await sit(nursery, host, "Ada", tmp_path, table_id=table.id)  # type: ignore[arg-type]
            playing = trio.CancelScope()

            async def plays() -> None:
                with playing:
                    await plays_the_first_legal_card(ada)

            nursery.start_soon(plays)
            with trio.fail_after(30):
                await host.deal_seen.wait()
            playing.cancel()
            ada.crash()
            await until(lambda: table.seats[0].conn is None)
            if told_otherwise == "dealt again":
                table.reroll_unseen()
            else:
                table.abandon_unseen()
            back = await back_from_disk(nursery, host, "Ada", tmp_path)  # type: ignore[arg-type]
            screens.append(back)
            await plays_the_first_legal_card(back)

    (stop,) = await deal_checks_failed(ada_comes_back, 30)
    assert stop.exit_status == EXIT_DEAL_FAILED
    first = stop.banner.splitlines()[0]
    if told_otherwise != "dealt again":
        assert re.fullmatch(
            rf"DEAL CHECK FAILED in round {REROLLED}: broken chain: the host ended the match "
            rf"after round {REROLLED - 1}, but this seat's client was started afresh: the "
            rf"client before it saw round {REROLLED} opened \(round id [0-9a-f]{{32}}\) and the "
            "seeds' commitments relayed, so the host told the match otherwise",
            first,
        ), first
    else:
        assert re.fullmatch(
            rf"DEAL CHECK FAILED in round {REROLLED}: re-rolled round: round {REROLLED} was "
            rf"opened again \(round id [0-9a-f]{{32}}\) after this seat's client was started "
            rf"afresh: the client before it saw round {REROLLED} opened \(round id "
            r"[0-9a-f]{32}\) and the seeds' commitments relayed, so the host could have seen "
            "that deal",
            first,
        ), first
    assert stop.evidence is not None
    capsys.readouterr()
    assert main(["verify", "--pin", fingerprint(hosts[0].key), str(stop.evidence)]) == 1
    out = capsys.readouterr().out
    check = "re-rolled round" if told_otherwise == "dealt again" else "broken chain"
    assert f"saved as evidence when the client stopped: round {REROLLED}, {check}" in out
    assert f"round {REROLLED}: FAILED: not revealed" in out, out
    assert out.rstrip().endswith("NOT VERIFIED"), out
