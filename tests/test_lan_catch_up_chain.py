"""Ada's real client caught up by snapshot at our real host's ordinary table, where the
snapshot stands at the last round she checked herself, or at no round dealt (protocol.md 3.4,
5.10): she takes her own chain up again. The next round must link to the chain hash she holds
(a host that rewrote the chain behind the snapshot stops her with the DEAL CHECK FAILED
banner, and ``scopa-net verify`` refuses her evidence), and her transcript of the match goes
on, from round 1, so that ``verify`` checks it whole."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import trio
from caught_up_at_rounds_seen import caught_up_and_played_out, saved_a_transcript_that_verifies
from chain_rewritten import REWRITTEN, stopped_by_the_rewritten_chain
from helpers import verify_pinned
from hosting import create, start_host
from person_screen import (
    Player,
    back_from_disk,
    cut_off_after_round_1,
    deal_checks_failed,
    play_when_asked,
    sit,
    until,
)

from scopa_net.client.network_session import CAUGHT_UP_AT_ROUNDS_YOU_SAW
from scopa_net.rules import RuleSet
from scopa_net.server.host import Host
from scopa_net.server.table import Table


async def test_a_chain_rewritten_behind_a_snapshot_of_her_last_round_stops_her_client(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ada plays round 1 out against our host's computer player; her client replays it. Her
    network goes down before round 2, and the host links round 2 to another chain hash than
    round 1's. Her client resumes and is caught up with the snapshot of round 2's start, which
    stands at round 1: she reads the DEAL CHECK FAILED banner at round 2's commitment (before,
    the link was taken as it came after any snapshot, and she played on), and ``verify``
    refuses the evidence, which holds round 2 as it was opened."""
    monkeypatch.setattr(Table, "pause_before_round", property(lambda table: 2.0))
    hosts: list[Host] = []
    screens: list[Player] = []
    checked: list[bytes] = []

    def rewrites_the_chain(table: Table) -> None:
        table.chain = REWRITTEN  # the cheat

    async def ada_comes_back() -> None:
        async with trio.open_nursery() as nursery:
            host, ada = await cut_off_after_round_1(
                nursery, tmp_path, play_when_asked, rewrites_the_chain
            )
            hosts.append(host)
            screens.append(ada)
            # Round 1's chain hash as her client checked it (read before any wait: nothing
            # reached her client while it was cut off).
            witness = ada.session.witness
            assert witness is not None
            checked.append(witness.rounds[-1].chain_hash())

    failed = await deal_checks_failed(ada_comes_back, 30)
    (stop,) = failed
    assert CAUGHT_UP_AT_ROUNDS_YOU_SAW in screens[0].text, screens[0].text
    stopped_by_the_rewritten_chain(stop, checked[0], hosts[0].public_key, capsys, stops_here_line=2)


@pytest.mark.parametrize("before_round_1", [False, True])
async def test_a_seat_caught_up_at_a_round_it_saw_saves_a_transcript_that_verifies(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    before_round_1: bool,
) -> None:
    """Ada's network goes down between two rounds (or before anything is dealt, as Bruno
    sits down to start the match) and she is caught up by snapshot. The snapshot stands at
    the last round she saw (or at none): her client follows the match on, saves its
    transcript at the end, from round 1, and ``verify`` says VERIFIED (before, the client
    saved none: "No transcript was saved for this match")."""
    host, ada = await caught_up_and_played_out(
        tmp_path, monkeypatch, blind=False, before_round_1=before_round_1
    )
    saved_a_transcript_that_verifies(host, ada, tmp_path, capsys, before_round_1=before_round_1)


async def test_a_seat_taken_back_past_the_rounds_it_saw_saves_a_transcript_verify_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ada's client dies in round 1; a computer plays for her, and she takes her seat back
    from disk once round 2 is under way, behind further than the host replays: her new
    client has only the snapshot's word for the match before it. At the match's end it saves
    a transcript all the same (before: "No transcript was saved for this match"), and
    ``verify`` checks the rounds she followed, says which it could not, and does not claim
    the whole match."""
    from scopa_net.commands.verify_verdict import PARTLY_VERIFIED
    from scopa_net.server.table import Phase

    hosts: list[Host] = []
    screens: list[Player] = []

    async def match() -> None:
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, replay_limit=1, bot_delay=0.01, grace=0.3)
            hosts.append(host)
            ada = await sit(
                nursery, host, "Ada", tmp_path, create=create(RuleSet.of(2, 11), bots=1)
            )
            await until(lambda: ada.session.view is not None and ada.session.view.my_turn)
            (task,) = host.tables.values()
            ada.crash()
            await until(lambda: task.table.round_no >= 2 and task.table.phase is Phase.PLAY)
            back = await back_from_disk(nursery, host, "Ada", tmp_path)
            screens.append(back)
            nursery.start_soon(play_when_asked, back)
            await until(lambda: "Transcript saved:" in back.text, 60)
            nursery.cancel_scope.cancel()

    with trio.fail_after(90):
        await match()
    assert "No transcript was saved" not in screens[0].text, screens[0].text
    (saved,) = (tmp_path / "Ada" / "transcripts").glob("*.scopa")
    status, out = verify_pinned(hosts[0].public_key, saved, capsys)
    assert status == 1, out
    lines = out.splitlines()
    # (Round 2 began while a computer played for her: no person's seed counted in it.)
    assert lines[-1].startswith(PARTLY_VERIFIED), lines
    (unseen,) = [n for n, line in enumerate(lines) if line.startswith("not checked: round")]
    assert re.fullmatch(
        r"not checked: rounds? 1( to \d+)?: this seat did not see (it|them) \((caught up by "
        r"snapshot after round \d+|it sat down in round \d+, or came back then having finished "
        r"no round: the host's snapshot told it the match)\); round (\d+) on is replayed on the "
        r"match as the snapshot "
        r"told it \(scores \[\d+, \d+\], (Ada \(seat 0, this file's seat\)|bot 1 \(seat 1\)) "
        r"dealing\): the "
        r"host's word, not checked here",
        lines[unseen],
    ), lines
    assert re.match(r"round \d+: (not fair-checked: .*; )?verified \(dealer ", lines[unseen + 1])
