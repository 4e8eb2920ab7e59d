"""A newcomer at our real host, whose journal is then put back to an older copy (protocol.md
3.3, ``stale``): her client goes back to where her match began here, the snapshot she sat down
with, and is caught up again from the host's events. It carries that snapshot on as it did
when she sat down (5.10), so it still keeps her transcript (version 7, 6.1). Before, the deal
checks rebuilt there took her for a seat that knew nothing of the match before (cards and
signatures only), and at the match's end she read "No transcript was saved for this match".

A card she types while her client gets back to that host was chosen on a board the host lost:
her client says in one line that it was not played and why, and the match goes on (before,
the move waited for the host's events to pass the one it was chosen after, and her typing,
and the match, hung)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import trio
from helpers import verified_as_far_as_seen
from hosting import CutOff, create, start_host
from journal_copies import copy_journal, put_back
from person_screen import Player, sit, until

from scopa_net.client.moves import legal_plays
from scopa_net.client.reconnection import MOVE_LOST_WITH_THE_HOST
from scopa_net.rules import RuleSet
from scopa_net.server.host import Host


async def plays_on(player: Player, stop: Callable[[], object] = lambda: False) -> None:
    """The person types the first legal card whenever it is her turn, until ``stop()`` holds:
    looked at between her moves, so that she stops with every move of hers answered (cut
    short, one stayed on its way, nobody waiting for it, and was said when the host lost it:
    2 of 3 CI runs printed "Your move ... was not played" twice)."""
    while not stop():
        view = player.session.view
        if view is not None and view.my_turn and not view.round_over and view.hand:
            await player.type(legal_plays(view)[0].text())
        await trio.sleep(0.01)


async def types_into(player: Player, card: str, typed: list[list[str]]) -> None:
    """``player`` types ``card``; what that printed goes into ``typed`` once it returns."""
    typed.append(await player.type(card))


async def carla_sits_then_the_host_loses_events(
    tmp_path: Path,
    hosts: list[Host],
    typed: list[list[str]] | None = None,
    *,
    typed_twice: bool = False,
    cut_again: bool = False,
) -> Player:
    """Ada and Bruno begin a match to 6; Bruno leaves after its first play, and Carla takes
    his open seat mid-match. The host's journal is copied, the match goes on, and the host is
    started again on the copy; Ada and Carla play the match out there. Carla's screen.
    ``typed``: Carla types a card on her turn while the host is down, before it comes back on
    the copy; what that typing printed is put there once it returns. The host waits 30 s
    before a computer plays for a seat that is away, so that Carla is back before the host's
    events pass the newest she saw (the case where a computer plays past them first is
    test_older_journal_played_past_a_seat's). ``typed_twice``: a first typing of that card
    ends once the screen says it is queued, before any answer, and she types it again.
    ``cut_again``: her network is cut once more as her screen says the host lost events, and
    is back half a second later."""
    db, copy = tmp_path / "host.db", tmp_path / "copy.db"
    async with trio.open_nursery() as nursery:
        first = await start_host(nursery, db=str(db), bot_delay=0, grace=30)
        hosts.append(first)
        networks = {name: CutOff(first.port) for name in ("Ada", "Carla")}
        ada = await sit(
            nursery, first, "Ada", tmp_path,
            create=create(RuleSet.of(2, 6)), connector=networks["Ada"].connect,
        )  # fmt: skip
        table_id = ada.session.table_id
        bruno = await sit(nursery, first, "Bruno", tmp_path, table_id=table_id)

        def first_cards_played() -> bool:  # (Bruno, then Ada, play the first cards)
            return ada.session.view is not None and bool(ada.session.view.plays)

        with trio.fail_after(30):
            async with trio.open_nursery() as playing:
                playing.start_soon(plays_on, ada, first_cards_played)
                playing.start_soon(plays_on, bruno, first_cards_played)
        await bruno.type("quit")
        await bruno.type("leave")
        await until(lambda: "Bruno left" in ada.text or "left the table" in ada.text)
        carla = await sit(
            nursery, first, "Carla", tmp_path, table_id=table_id,
            connector=networks["Carla"].connect,
        )  # fmt: skip
        assert carla.session.seat == 1
        assert carla.session.witness is not None
        assert carla.session.witness.keeps_transcript  # (as she sat down: version 7)
        copy_journal(db, copy)
        assert carla.session.mirror is not None
        copied = carla.session.mirror.seq

        def played_past_the_copy() -> bool:  # (no card typed while the host is down)
            return carla.session.mirror.seq >= copied + 12

        with trio.fail_after(30):
            async with trio.open_nursery() as playing:
                playing.start_soon(plays_on, ada, played_past_the_copy)
                playing.start_soon(plays_on, carla, played_past_the_copy)
        if typed is not None:  # (Ada plays on until it is Carla's turn)
            with trio.fail_after(30):
                await plays_on(ada, lambda: carla.session.view.my_turn and carla.session.view.hand)
        await first.shutdown()
        first.journal.close()
        for network in networks.values():
            await network.cut()
        if typed is not None:  # typed while her client reconnects: it goes once it is back
            card = legal_plays(carla.session.view)[0].text()
            if typed_twice:
                async with trio.open_nursery() as first_typing:
                    first_typing.start_soon(types_into, carla, card, [])
                    await until(lambda: "queued:" in carla.text)
                    first_typing.cancel_scope.cancel()
            queued = carla.text.count("queued:")
            nursery.start_soon(types_into, carla, card, typed)
            await until(lambda: carla.text.count("queued:") > queued)
        put_back(copy, db)
        again = await start_host(nursery, db=str(db), bot_delay=0, grace=30)
        hosts.append(again)
        for network in networks.values():
            network.port = again.port
            network.up = True  # their clients come back by themselves, to the host again
        await until(lambda: "has lost" in carla.text)
        if cut_again:
            assert networks["Carla"].streams  # (a connection to the host: the one cut)
            await networks["Carla"].cut()
            await trio.sleep(0.5)
            networks["Carla"].up = True
        if typed is not None:
            await until(lambda: typed, 20)  # (it hung here: the typing never returned)
        nursery.start_soon(plays_on, ada)
        nursery.start_soon(plays_on, carla)
        await until(lambda: carla.controller.state.match_over, 60)
        with trio.move_on_after(5):  # (said as the match ends)
            await until(lambda: "Transcript saved:" in carla.text)
        nursery.cancel_scope.cancel()
    return carla


async def test_a_newcomer_still_keeps_her_transcript_after_the_host_lost_events(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hosts: list[Host] = []
    with trio.fail_after(150):
        carla = await carla_sits_then_the_host_loses_events(tmp_path, hosts)
    text = carla.text
    assert "No transcript was saved" not in text, text
    assert "Transcript saved:" in text, text
    verified_as_far_as_seen(tmp_path / "Carla" / "transcripts", hosts[0].public_key, 7, capsys)


async def test_a_card_typed_while_the_host_comes_back_on_an_older_journal_does_not_hang(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Carla types a card on her turn while the host is down; it comes back on an older copy
    of its journal (``stale``), and her client rebuilds its deal checks from where her match
    began there. The card she typed was chosen on a board the host no longer has: her typing
    returns, saying in one line that it was not played and why, and the match goes on to its
    end, her transcript saved and verified as far as she saw it."""
    hosts: list[Host] = []
    typed: list[list[str]] = []
    with trio.fail_after(150):
        carla = await carla_sits_then_the_host_loses_events(tmp_path, hosts, typed)
    text = carla.text
    (lines,) = typed
    (said,) = [line for line in lines if " was not played: " in line]
    assert said.startswith("Your move "), lines
    assert [line for line in carla.lines if " was not played: " in line] == [said], text
    assert said.endswith(f" was not played: {MOVE_LOST_WITH_THE_HOST}."), lines
    assert "Traceback" not in text, text
    assert "Transcript saved:" in text, text
    verified_as_far_as_seen(tmp_path / "Carla" / "transcripts", hosts[0].public_key, 7, capsys)


async def test_a_card_typed_twice_on_the_board_the_host_lost_is_said_not_played_once(
    tmp_path: Path,
) -> None:
    """As above, but her first typing of the card ends before any answer (as this file's own
    player, stopped while a move of hers was on its way, left one, in 2 of 3 CI runs), and
    she types the same card again. It is one move: her screen says once, not twice, "Your
    move ... was not played: the host went back to an older copy of its journal, ...".
    Before, each of the two moves was dropped and said, the first as a move kept with the
    seat, the second to her typing: the same words twice."""
    hosts: list[Host] = []
    typed: list[list[str]] = []
    with trio.fail_after(150):
        carla = await carla_sits_then_the_host_loses_events(
            tmp_path, hosts, typed, typed_twice=True
        )
    said = [line for line in carla.lines if " was not played: " in line]
    assert len(said) == 1, carla.text
    assert said[0].startswith("Your move "), carla.text
    assert said[0].endswith(f" was not played: {MOVE_LOST_WITH_THE_HOST}."), carla.text
    assert "Transcript saved:" in carla.text, carla.text


async def test_a_connection_lost_again_after_the_host_lost_events_says_nothing_twice(
    tmp_path: Path,
) -> None:
    """Carla's card typed while the host is down, which comes back on an older journal (as
    above); her connection is lost once more as her screen says so, and comes back. A
    second catch-up says nothing of the first again: that the host lost events, and that
    her move was not played, are each said once (one of the causes looked at for the line
    said twice in CI; not that one)."""
    hosts: list[Host] = []
    typed: list[list[str]] = []
    with trio.fail_after(150):
        carla = await carla_sits_then_the_host_loses_events(tmp_path, hosts, typed, cut_again=True)
    text = carla.text
    assert len([line for line in carla.lines if " was not played: " in line]) == 1, text
    assert len([line for line in carla.lines if " has lost " in line]) == 1, text
    assert "Transcript saved:" in text, text
