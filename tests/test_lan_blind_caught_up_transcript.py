"""Ada's real client at our real host's blind table dies mid-match; she takes her seat back
from disk, behind further than the host replays, and is caught up by snapshot (protocol.md
9.7). Her client keeps a transcript all the same (version 8: the blind rounds and what the
snapshot told, 9.8), and ``scopa-net verify`` checks it as far as she saw the match, saying
which rounds it could not check (before, she read "No transcript is saved for this match" and
her client saved none)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import trio
from helpers import verified_as_far_as_seen
from hosting import create, start_host
from person_screen import Player, sit, take_back, until

from scopa_net.client.moves import legal_plays
from scopa_net.client.network_session import CAUGHT_UP_BETWEEN_ROUNDS
from scopa_net.client.reconnection import TRANSCRIPT_SINCE
from scopa_net.rules import RuleSet
from scopa_net.server.host import Host
from scopa_net.server.table import Phase


async def plays_on(player: Player) -> None:
    """The person types the first legal card whenever it is her turn, to the match's end."""
    while not player.controller.state.match_over:
        view = player.session.view
        if view is not None and view.my_turn and not view.round_over and view.hand:
            await player.type(legal_plays(view)[0].text())
        await trio.sleep(0.01)


async def ada_back_after_a_crash(tmp_path: Path, hosts: list[Host]) -> Player:
    """Ada plays our host's computer player at a blind table to 6; her client dies in the
    first round she is asked to play, the round is void once her grace period ends, and she
    takes her seat back from disk (caught up by a snapshot) and plays the match out. Her
    screen after the catch-up."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, replay_limit=1, bot_delay=0, grace=0.5)
        hosts.append(host)
        ada = await sit(
            nursery, host, "Ada", tmp_path, create=create(RuleSet.of(2, 6), bots=1, blind=True)
        )
        await until(lambda: ada.session.view is not None and ada.session.view.my_turn)
        (task,) = host.tables.values()
        voids = task.table.voids
        ada.crash()
        await until(lambda: task.table.voids > voids and task.table.phase is Phase.BETWEEN)
        back = await take_back(nursery, host, ada, tmp_path)
        await plays_on(back)
        with trio.move_on_after(5):  # (said as the match ends)
            await until(lambda: "Transcript saved:" in back.text)
        nursery.cancel_scope.cancel()
    return back


async def test_a_blind_seat_caught_up_mid_match_keeps_a_transcript_verify_checks_as_far_as_it_saw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hosts: list[Host] = []
    with trio.fail_after(120):
        back = await ada_back_after_a_crash(tmp_path, hosts)
    text = back.text
    assert f"{CAUGHT_UP_BETWEEN_ROUNDS} {TRANSCRIPT_SINCE}" in text, text
    assert "No transcript is saved" not in text, text
    assert "No transcript was saved" not in text, text
    assert "Transcript saved:" in text, text
    transcript, out = verified_as_far_as_seen(
        tmp_path / "Ada" / "transcripts", hosts[0].public_key, 8, capsys
    )
    told = transcript.caught_up
    assert told is not None
    assert transcript.rounds[0].round_no == told.round_no + 1
    assert transcript.result.sig is not None  # the signed match end, read and kept
    missed = (
        "round 1: this seat did not see it"
        if told.round_no == 1
        else f"rounds 1 to {told.round_no}: this seat did not see them"
    )
    first = told.round_no + 1
    dealer = "Ada (seat 0, this file's seat)" if told.dealer == 0 else "bot 1 (seat 1)"
    assert (
        f"not checked: {missed} (it sat down in round {told.round_no}, or came back then "
        "having finished no round: the host's snapshot told it the match); round "
        f"{first} on is replayed on the match as the snapshot told it (scores "
        f"{list(told.scores)}, {dealer} dealing): the host's word, not checked here"
    ) in out.splitlines(), out
    assert re.search(rf"^round {first}: (verified \(dealer|void)", out, re.M), out
    assert "FAILED" not in out, out
    assert out.rstrip().splitlines()[-1] == (
        "VERIFIED as far as this seat saw the match: the rounds said above as not checked, and "
        "the points before the rounds it followed, are the host's word"
    ), out
