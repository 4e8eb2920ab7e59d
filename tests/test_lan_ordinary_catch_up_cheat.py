"""Ada's real client, caught up by snapshot at our real host's ordinary table (protocol.md 3.4,
5.10), against the host made to cheat while she is away: she reads the DEAL CHECK FAILED
banner, as a seat that saw every event would, and the evidence is kept for ``scopa-net
verify``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import trio
from helpers import verify_pinned
from hosting import create, start_host
from person_screen import (
    Player,
    back_from_disk,
    cut_off_after_round_1,
    deal_checks_failed,
    plays_the_first_legal_card,
    sit,
    until,
)

from scopa_net.client.network_session import CAUGHT_UP_BETWEEN_ROUNDS
from scopa_net.commands.options import EXIT_DEAL_FAILED
from scopa_net.commands.verify_verdict import SNAPSHOT_CONTRADICTED
from scopa_net.rules import RuleSet
from scopa_net.server.host import Host
from scopa_net.server.table import Phase, Table


async def test_a_dealer_the_host_keeps_while_she_is_away_stops_her_client_once_caught_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ada plays our host's computer player at an ordinary table. Her client dies in round 1;
    a computer plays for her, and while she is away the host keeps the deal with the seat
    that dealt the round before: nobody at the table sees it. She takes her seat back in a
    later round, behind further than the host replays: caught up by the snapshot of that
    round's start, then its events. The snapshot names the round before's dealer and its end,
    so her client knows who deals the round she comes back to. Before the fix her client took
    the dealer from the cards it was dealt and played the match out (the host honest from
    then on); now it stops at that round's first deal."""
    original_end = Table._end_round

    def keeps_the_deal(table: Table) -> None:
        original_end(table)
        if cheating and table.match is not None and not table.match.over:
            table.match.dealer = (table.match.dealer - 1) % table.rules.players

    cheating: list[bool] = []
    monkeypatch.setattr(Table, "_end_round", keeps_the_deal)
    hosts: list[Host] = []
    screens: list[Player] = []

    async def ada_comes_back() -> None:
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, replay_limit=1, bot_delay=0.03, grace=0.3)
            hosts.append(host)
            rules = RuleSet.of(2, 21)
            ada = await sit(nursery, host, "Ada", tmp_path, create=create(rules, bots=1))
            await until(lambda: ada.session.view is not None and ada.session.view.my_turn)
            (task,) = host.tables.values()
            ada.crash()
            cheating.append(True)
            # A computer plays for her; she comes back once a later round is dealt, and the
            # host deals honestly from then on: only the round she comes back to is wrong.
            await until(lambda: task.table.round_no >= 2 and task.table.phase is Phase.PLAY)
            cheating.clear()
            # Her seat taken back from disk, without waiting to be back: the check fails in
            # the events that come with the snapshot.
            back = await back_from_disk(nursery, host, "Ada", tmp_path)
            screens.append(back)
            await plays_the_first_legal_card(back)

    failed = await deal_checks_failed(ada_comes_back, 60)
    (stop,) = failed
    assert len(screens) == 1
    assert CAUGHT_UP_BETWEEN_ROUNDS in screens[0].text, screens[0].text
    lines = stop.banner.splitlines()
    banner = lines[0]
    assert re.fullmatch(
        r"DEAL CHECK FAILED in round (\d+): misrouted card: round \1's dealer is (Ada|bot 1), "
        r"but (?!\2)(Ada|bot 1) deals it \(the next seat after a round played out, the same "
        r"after a void, as the snapshot you were caught up with gives it\)",
        banner,
    ), banner
    assert lines[1] == (
        "What this means: cards went where the deal does not send them (to your hand, or to "
        "the table): the host dealt out of order, or the record was changed."
    ), stop.banner
    assert stop.exit_status == EXIT_DEAL_FAILED
    evidence = stop.evidence
    assert evidence is not None
    assert evidence.exists()
    status, out = verify_pinned(hosts[0].public_key, evidence, capsys)
    assert status == 1, out
    assert "saved as evidence when the client stopped: round" in out, out
    assert out.rstrip().endswith("NOT VERIFIED"), out


async def test_points_a_snapshot_changes_of_a_round_she_checked_stop_her_client_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ada plays round 1 out against our host's computer player, and her client replays it.
    Her network goes down before round 2; the host gives its side 5 points it never scored,
    and when her client resumes it is caught up with the snapshot of round 2's start, which
    stands at round 1, whose score she checked. She reads the DEAL CHECK FAILED banner as the
    snapshot arrives (before, her client took the host's sums and played on)."""
    monkeypatch.setattr(Table, "pause_before_round", property(lambda table: 2.0))
    hosts: list[Host] = []

    def adds_5_points(table: Table) -> None:
        assert table.match is not None
        table.match.scores[1] += 5  # the cheat

    async def ada_comes_back() -> None:
        async with trio.open_nursery() as nursery:
            host, _ = await cut_off_after_round_1(
                nursery, tmp_path, plays_the_first_legal_card, adds_5_points
            )
            hosts.append(host)

    failed = await deal_checks_failed(ada_comes_back, 30)
    (stop,) = failed
    banner = stop.banner.splitlines()[0]
    assert re.fullmatch(
        r"DEAL CHECK FAILED in round 1: score mismatch: the snapshot you were caught up "
        r"with gives, after round 1, scores \[(\d+), (\d+)\] and (Ada|bot 1) the next deal; "
        r"the rounds you saw give scores \[\1, \d+\] and \3 the next deal",
        banner,
    ), banner
    assert stop.exit_status == EXIT_DEAL_FAILED
    assert stop.evidence is not None
    assert stop.evidence.exists()
    status, out = verify_pinned(hosts[0].public_key, stop.evidence, capsys)
    assert status == 1, out
    # The snapshot is not signed: the file proves the rounds she saw, and keeps what the
    # snapshot told her (her client's record of it), which they contradict.
    assert re.search(
        r"saved as evidence when the client stopped: round 1, score mismatch: the snapshot "
        r"you were caught up with gives, after round 1, scores \[\d+, \d+\] and ",
        out,
    ), out
    assert re.search(r"^\s*round 1: verified \(dealer ", out, re.M), out
    lines = out.splitlines()
    assert f"caught up: {SNAPSHOT_CONTRADICTED}" in lines, out
    assert any(
        re.fullmatch(
            r"  caught up: FAILED: ScoreMismatchError: the snapshot this seat was caught up "
            r"with gives, after round 1, scores \[(\d+), \d+\] and "
            r"(Ada \(seat 0, this file's seat\)|bot 1 \(seat 1\)) the next deal; "
            r"the rounds in this file, which the seat checked, give scores \[\1, \d+\] and \2 "
            r"the next deal",
            line,
        )
        for line in lines
    ), out
    assert lines[-1] == "NOT VERIFIED", out  # (before: UNFINISHED)
