"""A person's own plays after the host went back to an older copy of its journal (protocol.md
3.3 ``stale``, 3.5): the plays her clients had acknowledged after the host's newest event
were lost with it, so a play for her seat that the host records there now is checked as any
other. Our real host over real loopback, Ada's seat taken back from disk (her client then
takes every play of her seat up to the newest one an earlier client had acknowledged as hers).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path

import pytest
import trio
from cheats import play_once_for, rewrite_a_play
from hosting import CutOff, create, start_host
from journal_copies import copy_journal, put_back
from person_screen import Player, back_from_disk, deal_checks_failed, sit, take_back, until

from scopa_net.client.moves import legal_plays
from scopa_net.client.seat_store import SeatRecord, SeatStore
from scopa_net.client.session import ConnectionState
from scopa_net.client.session_errors import DealCheckFailedError
from scopa_net.commands.main import main
from scopa_net.fair.commitments import fingerprint
from scopa_net.rules import RuleSet
from scopa_net.server.host import Host

RULES = RuleSet.of(2, 16)


def her_turn(player: Player) -> bool:
    """Her screen asks for her card."""
    view = player.controller.state.view
    return view is not None and view.my_turn and not view.round_over and bool(view.hand)


def shown_plays(player: Player) -> int:
    """How many of her own plays her screen has shown."""
    return sum(line.startswith("You play ") for line in player.lines)


REFUSED = ("not played:", "illegal play:")
"""How her screen begins the line saying a card she typed was not played."""


def answered_since(player: Player, shown: int, lines: int) -> bool:
    """Her screen has shown a play of hers since it had shown ``shown``, or said, after its
    first ``lines``, that the card she typed was not played (typed on a board that had just
    changed: the test reads her screen's board as a person glances at it)."""
    said = player.lines[lines:]
    return shown_plays(player) > shown or any(line.startswith(REFUSED) for line in said)


async def plays_turns(player: Player, turns: int) -> None:
    """``player`` types the first legal card at each of her turns, each one answered before
    the next, until her screen has shown ``turns`` more plays of hers."""
    target = shown_plays(player) + turns
    while shown_plays(player) < target:
        await until(lambda: her_turn(player), 30)
        view = player.controller.state.view
        assert view is not None
        shown, lines = shown_plays(player), len(player.lines)
        await player.type(legal_plays(view)[0].text())
        await until(partial(answered_since, player, shown, lines), 30)


async def copied_then_four_plays(
    ada: Player, db: Path, copy: Path, tmp_path: Path
) -> tuple[int, SeatRecord]:
    """At Ada's turn the host's journal ``db`` is copied to ``copy``; she plays four more
    cards (each answered) and her client dies. The seq of the copy's newest event as she saw
    it, and her seat's record on disk (the newest play her client had acknowledged)."""
    await until(lambda: her_turn(ada), 30)
    copy_journal(db, copy)
    assert ada.session.mirror is not None
    copied = ada.session.mirror.seq
    await plays_turns(ada, 4)
    ada.crash()
    (record,) = SeatStore(tmp_path / "Ada").records()
    return copied, record


async def ada_against_its_computer(
    nursery: trio.Nursery, db: Path, tmp_path: Path, keys: list[bytes], **host: float
) -> tuple[Host, Player, CutOff]:
    """A host on the journal ``db`` (``host``: its grace and bot delay; its key put in
    ``keys``), and Ada at a new table against its computer, over a network that can be cut."""
    first = await start_host(nursery, db=str(db), **host)
    keys.append(first.public_key)
    network = CutOff(first.port)
    ada = await sit(
        nursery, first, "Ada", tmp_path, create=create(RULES, bots=1),
        connector=network.connect,
    )  # fmt: skip
    return first, ada, network


async def ada_back_on_an_older_journal(
    nursery: trio.Nursery,
    tmp_path: Path,
    *,
    keys: list[bytes],
    windows: list[tuple[int, int]],
    grace: float = 600,
    bot_delay: float = 0,
    before_copy: Callable[[Host, Player, CutOff], Awaitable[None]] | None = None,
    cheat: Callable[[], None] | None = None,
) -> tuple[Host, Player]:
    """Ada plays our host's computer (``before_copy`` first, if given); the host's journal is
    copied at her turn, she plays four more cards (each acknowledged), and her client dies.
    ``join`` takes her seat back from disk; then the host is started again on the copy
    (``cheat()`` first, if given) and her client, resumed there, is told ``stale``. The host
    and her screen once she is back in her seat there. ``windows`` gets the seq of the copy's
    newest event as she saw it and of the newest play an earlier client of hers had
    acknowledged (the host lost the events between); ``keys``, the host's key; ``grace`` and
    ``bot_delay`` are the host's."""
    db, copy = tmp_path / "host.db", tmp_path / "copy.db"
    first, ada, network = await ada_against_its_computer(
        nursery, db, tmp_path, keys, bot_delay=bot_delay, grace=grace
    )
    if before_copy is not None:
        await before_copy(first, ada, network)
    copied, record = await copied_then_four_plays(ada, db, copy, tmp_path)
    windows.append((copied, record.last_played))
    back = await sit(
        nursery, first, "Ada", tmp_path, table_id=record.table_id, resume_from=record,
        connector=network.connect,
    )  # fmt: skip
    await until(lambda: "Back in your seat" in back.text)
    await first.shutdown()
    first.journal.close()
    await network.cut()
    put_back(copy, db)
    if cheat is not None:
        cheat()
    again = await start_host(nursery, db=str(db), bot_delay=bot_delay, grace=grace)
    network.port = again.port
    network.up = True  # her client comes back by itself
    await until(lambda: "has lost" in back.text)
    await until(lambda: back.text.count("Back in your seat") >= 2)
    return again, back


@pytest.mark.parametrize("when", ["resumed", "taken-back-again", "as-she-resumes"])
async def test_a_play_the_host_makes_for_her_in_the_events_it_lost_stops_her_client(
    when: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The host, started again on the copy, plays Ada's second card there with its computer
    while she is at the table and no computer was announced for her: a play she never made,
    numbered within the events the host lost (below the newest play an earlier client of hers
    had acknowledged). Before the fix her client took it for one of those and played on.
    ``taken-back-again``: her client died once back there, and ``join`` took the seat back
    from disk again before she played (the seat's record still named that play).
    ``as-she-resumes``: the host plays her first card there as her connection is back, among
    the events that bring her client up to date."""
    keys: list[bytes] = []
    windows: list[tuple[int, int]] = []
    played_for: list[int] = []
    as_she_resumes = when == "as-she-resumes"
    cheat = partial(
        play_once_for, monkeypatch, 0, played_for,
        turn=0 if as_she_resumes else 1, connected=as_she_resumes,
    )  # fmt: skip

    async def ada_plays() -> None:
        async with trio.open_nursery() as nursery:
            again, back = await ada_back_on_an_older_journal(
                nursery, tmp_path, keys=keys, windows=windows, cheat=cheat
            )
            if when == "taken-back-again":
                back.crash()
                back = await take_back(nursery, again, back, tmp_path)
            if as_she_resumes:  # (among the events replayed: not shown one by one)
                await until(lambda: played_for, 30)
                await until(lambda: her_turn(back), 30)  # the next after it: she plays on
            else:
                await plays_turns(back, 1)
                shown = shown_plays(back)
                await until(lambda: played_for, 30)  # (the host's computer plays her next card)
                await until(lambda: shown_plays(back) > shown, 30)  # shown as hers: she plays on
            nursery.cancel_scope.cancel()

    failed = await deal_checks_failed(ada_plays, 90)
    assert played_for, "the host never played for Ada: the test proves nothing"
    ((copied, acknowledged),) = windows
    assert acknowledged >= copied + 8, windows  # (her card there, the bot's, then the forgery)
    banner = stopped_on_a_changed_play(failed, keys, capsys)
    assert banner.startswith(
        "DEAL CHECK FAILED in round 1: changed play: the host recorded a play for your seat, "
    ), banner
    assert banner.endswith(
        ", that you did not make: no move this client sent was that play, and the host "
        "announced no computer playing for you"
    ), banner


async def away_while_a_computer_plays(host: Host, ada: Player, network: CutOff) -> None:
    """Ada plays two cards; at her next turn her network goes down until the host's computer,
    announced standing in for her past the grace time, has played for her; then it is up."""
    await plays_turns(ada, 2)
    (task,) = host.tables.values()
    table = task.table
    await until(lambda: her_turn(ada), 30)
    computer_plays = len(table.computer_plays)
    await network.cut()
    await until(lambda: len(table.computer_plays) > computer_plays, 30)
    network.up = True
    await until(lambda: ada.session.connection is ConnectionState.CONNECTED, 30)
    await until(lambda: "Ada (computer) plays" in ada.text, 30)  # (the replay on her screen)


async def test_her_own_plays_and_a_stand_ins_in_the_events_replayed_raise_no_alarm(
    tmp_path: Path,
) -> None:
    """An honest host put back on a copy of its journal that holds Ada's own plays and a
    computer's play for her while she was away: her client, told ``stale`` there, is
    replayed them (the ones she sent were acknowledged to an earlier client, the computer's
    announced), and she plays on past the events the host lost, each card acknowledged
    again under new numbers. Nothing stops her client."""
    keys: list[bytes] = []
    windows: list[tuple[int, int]] = []
    async with trio.open_nursery() as nursery:
        _, back = await ada_back_on_an_older_journal(
            nursery,
            tmp_path,
            keys=keys,
            windows=windows,
            grace=0.3,
            bot_delay=0.2,
            before_copy=away_while_a_computer_plays,
        )
        await plays_turns(back, 6)
        nursery.cancel_scope.cancel()
    ((copied, acknowledged),) = windows
    assert copied < acknowledged
    record = back.session._kept.record
    assert record is not None
    assert record.last_played > acknowledged  # (she played on past the events the host lost)
    assert "DEAL CHECK FAILED" not in back.text, back.text
    assert back.session.deal_failure is None


def stopped_on_a_changed_play(
    failed: list[DealCheckFailedError], keys: list[bytes], capsys: pytest.CaptureFixture[str]
) -> str:
    """The one deal check that stopped Ada's client, a changed play with its evidence saved
    and refused by ``verify``: the first line of its banner."""
    assert failed, "Ada's client took the host's forged play for her seat as hers, and played on"
    (stopped,) = failed
    banner = stopped.banner.splitlines()[0]
    assert banner.startswith("DEAL CHECK FAILED in round 1: changed play: "), banner
    assert stopped.evidence is not None
    assert stopped.evidence.exists()
    capsys.readouterr()
    assert main(["verify", "--pin", fingerprint(keys[0]), str(stopped.evidence)]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "saved as evidence when the client stopped: round 1, changed play: " in out, out
    assert out.endswith("NOT VERIFIED"), out
    return banner


async def test_a_play_the_host_makes_for_her_before_she_takes_her_seat_back_stops_her_client(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ada's client died after four more plays past the copy of the host's journal; the host
    is put back on the copy and started again BEFORE ``join`` takes her seat back from disk:
    nothing tells her new client that the host has fewer events (no ``stale``: it resumes
    from the match's start). The host's computer plays her second card there, numbered within
    the events it lost (below the newest play her record kept as acknowledged). Before the fix
    her client took it for one of her earlier client's plays and showed it as hers."""
    db, copy = tmp_path / "host.db", tmp_path / "copy.db"
    played_for: list[int] = []
    keys: list[bytes] = []

    async def ada_plays() -> None:
        async with trio.open_nursery() as nursery:
            first = await start_host(nursery, db=str(db), grace=600)
            keys.append(first.public_key)
            ada = await sit(nursery, first, "Ada", tmp_path, create=create(RULES, bots=1))
            copied, record = await copied_then_four_plays(ada, db, copy, tmp_path)
            await first.shutdown()
            first.journal.close()
            put_back(copy, db)
            play_once_for(monkeypatch, 0, played_for, turn=1)
            again = await start_host(nursery, db=str(db), grace=600)
            back = await sit(
                nursery, again, "Ada", tmp_path, table_id=record.table_id, resume_from=record
            )
            await until(lambda: "Back in your seat" in back.text)
            await plays_turns(back, 1)
            shown = shown_plays(back)
            await until(lambda: played_for, 30)  # (the host's computer plays her next card)
            assert back.session.mirror is not None
            await until(lambda: back.session.mirror.seq > copied + 2, 30)
            forged = back.session.mirror.seq
            assert copied < forged <= record.last_played, (copied, forged, record.last_played)
            await until(lambda: shown_plays(back) > shown, 30)  # shown as hers: she plays on
            nursery.cancel_scope.cancel()

    failed = await deal_checks_failed(ada_plays, 90)
    assert played_for, "the host never played for Ada: the test proves nothing"
    banner = stopped_on_a_changed_play(failed, keys, capsys)
    assert "the host recorded a play for your seat, " in banner, banner
    assert "you did not make" in banner or "did not make that play" in banner, banner


@pytest.mark.parametrize("when", ["resumed", "taken-back"])
async def test_a_play_of_hers_the_host_rewrote_in_the_events_it_kept_stops_her_client(
    when: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The host's journal is copied just after Ada's first play; she plays on, and the host
    is started again on the copy with that play rewritten as another she could have made (its
    card's deck position and salt the host's own: every deal check passes). Her client,
    resumed there, is told ``stale`` with a newest event past the forgery. Before the fix it
    took every play of hers up to that event as one it had read before, and played on.
    ``taken-back``: her client had died, and ``join`` takes her seat back from disk once the
    host is started again (no ``stale``: the replay of a seat taken back went unchecked)."""
    db, copy = tmp_path / "host.db", tmp_path / "copy.db"
    keys: list[bytes] = []
    rewritten: list[tuple[int, int]] = []

    async def ada_plays() -> None:
        async with trio.open_nursery() as nursery:
            first, ada, network = await ada_against_its_computer(
                nursery, db, tmp_path, keys, grace=600, bot_delay=0.5
            )
            await until(lambda: her_turn(ada), 30)
            view = ada.controller.state.view
            assert view is not None
            chosen, *others = legal_plays(view)
            assert others, "one legal play only: nothing to rewrite it as"
            other = others[-1]
            shown = shown_plays(ada)
            await ada.type(chosen.text())
            await until(lambda: shown_plays(ada) > shown, 30)
            copy_journal(db, copy)  # (before the host's computer plays: bot_delay)
            await plays_turns(ada, 2)
            if when == "taken-back":
                ada.crash()
            await first.shutdown()
            first.journal.close()
            await network.cut()
            put_back(copy, db)
            rewrite_a_play(
                monkeypatch, 0, (chosen.card.index, chosen.captured_mask),
                (other.card.index, other.captured_mask), rewritten,
            )  # fmt: skip
            again = await start_host(nursery, db=str(db), grace=600, bot_delay=0.5)
            if when == "taken-back":
                ada = await back_from_disk(nursery, again, "Ada", tmp_path)
            else:
                network.port = again.port
                network.up = True  # her client comes back by itself
                await until(lambda: "has lost" in ada.text, 30)
            await until(lambda: ada.text.count("Back in your seat") >= 1, 30)
            await plays_turns(ada, 1)  # she plays on
            nursery.cancel_scope.cancel()

    failed = await deal_checks_failed(ada_plays, 90)
    assert rewritten, "the host never rewrote Ada's play: the test proves nothing"
    banner = stopped_on_a_changed_play(failed, keys, capsys)
    assert "where it had acknowledged your play of " in banner, banner


async def test_her_seat_taken_back_from_a_host_already_put_back_raises_no_alarm(
    tmp_path: Path,
) -> None:
    """An honest host put back on a copy of its journal that holds Ada's own plays and a
    computer's play for her while she was away, BEFORE ``join`` takes her seat back from disk
    (her client had died after four more plays): the replay holds her plays as acknowledged
    to her earlier clients, and the computer's, announced; she plays on past the events the
    host lost, each card acknowledged again, some under numbers her record had kept for
    other plays of hers. Nothing stops her client."""
    db, copy = tmp_path / "host.db", tmp_path / "copy.db"
    async with trio.open_nursery() as nursery:
        first = await start_host(nursery, db=str(db), grace=0.3, bot_delay=0.2)
        network = CutOff(first.port)
        ada = await sit(
            nursery, first, "Ada", tmp_path, create=create(RULES, bots=1),
            connector=network.connect,
        )  # fmt: skip
        await away_while_a_computer_plays(first, ada, network)
        _, record = await copied_then_four_plays(ada, db, copy, tmp_path)
        assert record.acked is not None
        assert len(record.acked) >= 6, record.acked
        await first.shutdown()
        first.journal.close()
        put_back(copy, db)
        again = await start_host(nursery, db=str(db), grace=0.3, bot_delay=0.2)
        back = await sit(
            nursery, again, "Ada", tmp_path, table_id=record.table_id, resume_from=record
        )
        await until(lambda: "Back in your seat" in back.text)
        await plays_turns(back, 6)
        nursery.cancel_scope.cancel()
    kept = back.session._kept.record
    assert kept is not None
    assert kept.acked is not None
    assert kept.last_played > record.last_played  # (she played on past the events lost)
    assert "DEAL CHECK FAILED" not in back.text, back.text
    assert back.session.deal_failure is None
