"""A host must not change a person's play (protocol.md 3.5): the ``played`` event an ``ack``
names is the person's own seat, card and capture. A real host made to relay another legal
capture than the one Ada chose, at an ordinary and a blind table, over real loopback with
her whole client app: her screen names both captures, her client stops with status 7 and
saves the evidence, and ``scopa-net verify`` of it is NOT VERIFIED, with what she sent."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path

import pytest
import trio
from app_driver import new_turn, run_app
from cheats import play_once_for, relay_another_capture
from hosting import CutOff, Through, create, start_host
from person_screen import (
    Player,
    back_from_disk,
    deal_checks_failed,
    play_when_asked,
    sit,
    sits_with,
    until,
)
from prompt_toolkit.input import PipeInput

from scopa_net.bots.levels import make_player
from scopa_net.cards import CARDS, cards_of
from scopa_net.client.client_state import ClientState
from scopa_net.client.moves import legal_plays
from scopa_net.client.network_session import NetworkSession, TableChoice, open_network_session
from scopa_net.client.own_plays import OwnPlays
from scopa_net.client.seat_store import AckedPlay, SeatRecord
from scopa_net.client.session import ConnectionState
from scopa_net.commands.main import main
from scopa_net.commands.options import EXIT_DEAL_FAILED
from scopa_net.fair.commitments import fingerprint
from scopa_net.notation import format_card
from scopa_net.rules import RuleSet
from scopa_net.server.table import Phase, Table
from scopa_net.wire import messages as m

LONG_MATCH = 16
"""A match long enough that Ada meets a capture with another legal choice."""


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The client's data directory (pinned keys, transcripts), never the real one."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "scopa-net"


CARD = {format_card(c): c.index for c in CARDS}


def mask(*cards: str) -> int:
    """The capture mask of ``cards`` (``"3s"``...)."""
    return sum(1 << CARD[c] for c in cards)


def played(seq: int, seat: int, card: str, captured: int) -> m.Played:
    """A ``played`` event as an ordinary table's host relays it."""
    return m.Played(
        seq=seq, seat=seat, card=CARD[card], captured=captured, sweep=False, pos=0, salt=bytes(16)
    )


def choosing_among_captures() -> Callable[[ClientState, PipeInput], Callable[[], None]]:
    """Ada types, on each turn, a capture whose card could take something else too, if she
    has one; else her first legal play."""

    def driver(state: ClientState, pipe: PipeInput) -> Callable[[], None]:
        answered: set[tuple[int, int]] = set()

        def on_change() -> None:
            view = new_turn(state, answered)
            if view is None:
                return
            plays = legal_plays(view)
            cards = [p.card for p in plays]
            twins = [p for p in plays if p.captured and cards.count(p.card) > 1]
            pipe.send_text((twins or plays)[0].text() + "\r")

        return on_change

    return driver


def taking(mask: int) -> str:
    """A capture as the banner words it."""
    cards = [format_card(c) for c in cards_of(mask)]
    return "taking " + (
        cards[0] if len(cards) == 1 else ", ".join(cards[:-1]) + " and " + cards[-1]
    )


def ada_against_the_hosts_computer(data: Path, *, blind: bool) -> tuple[int, str, bytes]:
    """Ada's whole client app against the host's computer player at a real host (over
    loopback), made to cheat by the test beforehand: her exit status, her screen, the host's
    key."""
    rules = RuleSet.of(2, LONG_MATCH)
    keys: list[bytes] = []

    @asynccontextmanager
    async def opener() -> AsyncIterator[NetworkSession]:
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0)
            choice = TableChoice(create=create(rules, bots=1, blind=blind))
            async with open_network_session(
                "127.0.0.1", host.port, choice, name="Ada", data_dir=data
            ) as session:
                assert session.host_key is not None
                keys.append(session.host_key)
                yield session
            nursery.cancel_scope.cancel()

    status, text, _ = run_app(rules, choosing_among_captures(), opener=opener, plain=True)
    return status, text, keys[0]


def verify_says(key: bytes, evidence: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """What ``scopa-net verify`` prints of ``evidence`` (it must refuse it), on one line."""
    capsys.readouterr()
    assert main(["verify", "--pin", fingerprint(key), str(evidence)]) == 1
    out = capsys.readouterr().out
    assert out.rstrip().endswith("NOT VERIFIED"), out
    return " ".join(out.split())


@pytest.mark.parametrize("blind", [False, True], ids=["ordinary", "blind"])
def test_a_host_that_relays_another_capture_stops_the_client(
    blind: bool,
    data_home: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Before the fix Ada's client showed the host's capture on the board and played on; her
    transcript verified, since the capture relayed is a legal one."""
    changed: list[tuple[int, int, int]] = []
    relay_another_capture(monkeypatch, 0, changed)
    status, text, key = ada_against_the_hosts_computer(data_home, blind=blind)
    assert changed, "Ada never had a capture with another choice: the test proves nothing"
    ((card, sent, relayed),) = changed
    card_text = format_card(CARDS[card])
    said = (
        f"changed play: the host recorded your play of {card_text} as {taking(relayed)}; "
        f"you sent it {taking(sent)}"
    )
    assert status == EXIT_DEAL_FAILED, text
    (banner,) = [line for line in text.splitlines() if "DEAL CHECK FAILED" in line]
    found = re.search(rf"DEAL CHECK FAILED in round (\d+): {re.escape(said)}$", banner)
    assert found, banner
    flat = " ".join(text.split())
    assert (
        "What this means: the host recorded for your seat another play than the one you "
        "sent: a host that does this chooses what your cards take, or plays your cards for you."
    ) in flat, text
    assert "The game stops here: this host cannot be trusted with your plays." in flat
    (evidence,) = (data_home / "transcripts").glob("*-FAILED.scopa")
    assert f"Evidence saved to {evidence}" in flat
    stopped = f"saved as evidence when the client stopped: round {found[1]}, {said}"
    assert stopped in verify_says(key, evidence, capsys)


def test_a_card_the_host_plays_for_a_person_who_is_there_stops_the_client(
    data_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The host's computer plays Ada's second turn of round 1 while she is connected, with no
    computer announced standing in for her. Before the fix her screen showed the card as
    hers, as if she had played it, and the match went on."""
    played_for: list[int] = []
    play_once_for(monkeypatch, 0, played_for)
    status, text, key = ada_against_the_hosts_computer(data_home, blind=False)
    assert played_for, "the host never played for Ada: the test proves nothing"
    assert status == EXIT_DEAL_FAILED, text
    (banner,) = [line for line in text.splitlines() if "DEAL CHECK FAILED" in line]
    found = re.search(
        r"DEAL CHECK FAILED in round 1: (changed play: the host recorded a play for your seat, "
        r"\w\w (taking|laying) [^,]*(, [^,]*)*, that you did not make: no move this client sent "
        r"was that play, and the host announced no computer playing for you)$",
        banner,
    )
    assert found, banner
    (evidence,) = (data_home / "transcripts").glob("*-FAILED.scopa")
    stopped = f"saved as evidence when the client stopped: round 1, {found[1]}"
    assert stopped in verify_says(key, evidence, capsys)


def stood_in_or_over(table: Table, computer_plays: int) -> bool:
    """The host's computer played for a person since there were ``computer_plays`` such plays
    in the round, or the match is over."""
    return len(table.computer_plays) > computer_plays or table.phase is Phase.OVER


class CutAfterAPlay(Through):
    """A connection of Ada's network that goes down, once ``armed``, just after a ``play``
    leaves: the move may reach the host, its answer does not reach her."""

    def __init__(self, inner: trio.abc.Stream, network: CutOff) -> None:
        super().__init__(inner)
        self.network = network
        self.armed = False

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await self.inner.send_all(data)
        if self.armed and b"\xa4play" in bytes(data):
            self.armed = False
            await self.network.cut()


async def ada_plays_and_drops_twice(ada: Player, network: CutOff, table: Table) -> list[str]:
    """Ada types a legal card on each turn, as her screen shows it once it has taken every
    event her session had (a screen behind shows a turn she already played, or one the match
    ended after). On her second turn her network goes down just after her move left; on her
    fourth, just after its answer came. Each time she is away until the host's computer has
    played for her, then back. What happened, in order."""
    bot = make_player("random", 7)
    turns, happened = 0, []
    async with trio.open_nursery() as typing:
        while not ada.controller.state.match_over:
            view = ada.controller.state.view
            behind = not ada.caught_up or ada.session._unacked
            if view is None or not view.my_turn or view.round_over or behind:
                await trio.sleep(0.01)
                continue
            turns += 1
            play = bot.choose(view).text()
            if turns == 2:
                network.streams[-1].armed = True  # type: ignore[attr-defined]
                typing.start_soon(ada.type, play)  # answered once she is back
                await until(lambda: not network.up, 10)
            else:
                await ada.type(play)
                if turns == 4:
                    await network.cut()
            if not network.up:
                await until(partial(stood_in_or_over, table, len(table.computer_plays)), 20)
                over = table.phase is Phase.OVER
                happened.append("over" if over else "a computer played for her")
                network.up = True
                await until(lambda: ada.session.connection is ConnectionState.CONNECTED, 20)
                happened.append("back")
    return happened


@pytest.mark.parametrize("players", [2, 4])
async def test_an_honest_host_raises_no_alarm_through_drops_and_a_stand_in(
    players: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """People at an honest host over real loopback: Ada's network drops twice mid-round, once
    with a move on its way (sent again as she is back, answered as a repeat), once with none,
    and each time the host's computer plays for her until she is back. Nobody's client stops
    on a check of their own plays, and the match ends."""
    names = ["Ada", "Bruno", "Carla", "Dario"][:players]
    repeats: list[int] = []  # the moves of Ada's the host answered as repeats
    answer = NetworkSession._answer

    def watched(session: NetworkSession, msg: m.Ack | m.Reject) -> None:
        if session.name == "Ada" and isinstance(msg, m.Ack) and msg.duplicate:
            repeats.append(msg.seq)
        answer(session, msg)

    monkeypatch.setattr(NetworkSession, "_answer", watched)
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, grace=0.2, bot_delay=0.01)
        network = CutOff(host.port)
        network.wrap = partial(CutAfterAPlay, network=network)
        ada = await sit(
            nursery, host, "Ada", tmp_path, create=create(RuleSet.of(players, 11)),
            connector=network.connect,
        )  # fmt: skip
        await until(lambda: ada.session.table_id is not None)
        others = [await sits_with(nursery, host, name, tmp_path, ada) for name in names[1:]]
        (task,) = host.tables.values()
        for other in others:
            nursery.start_soon(play_when_asked, other)
        happened = await ada_plays_and_drops_twice(ada, network, task.table)
        people = [ada, *others]
        await until(lambda: all(p.controller.state.match_over for p in people), 60)
        nursery.cancel_scope.cancel()
    assert happened[:2] == ["a computer played for her", "back"], happened
    assert len(happened) == 4, happened
    assert len(repeats) == 1, repeats  # the move sent as her network went down
    for person in people:
        assert "DEAL CHECK FAILED" not in person.text, person.text
        assert person.session.deal_failure is None


def test_a_repeat_answered_after_its_event_was_read_is_compared_with_that_event() -> None:
    """A move sent again after a resume is answered (``duplicate``) after the replay that
    showed its ``played``: that event is compared when the answer comes. Sent 7d taking 7s,
    read 7d taking 3s and 4s: the mismatch; read as sent: none; an answer naming an event
    this seat read that is no play: the mismatch."""
    sent = m.Play(move_id=5, after=3, card=CARD["7d"], captured=mask("7s"))
    ack = m.Ack(move_id=5, seq=9, duplicate=True)
    changed = OwnPlays()
    read = played(9, 0, "7d", mask("3s", "4s"))
    assert changed.read(read, seat=0, mine=True, pending=True) is None
    error = changed.acknowledged(sent, ack, seat=0, newest=9)
    assert str(error) == (
        "the host recorded your play of 7d as taking 3s and 4s; you sent it taking 7s"
    )
    assert changed.all_answered() is None  # the play read is the one the answer named
    honest = OwnPlays()
    honest.read(played(9, 0, "7d", mask("7s")), seat=0, mine=True, pending=True)
    assert honest.acknowledged(sent, ack, seat=0, newest=9) is None
    assert honest.all_answered() is None
    no_play = OwnPlays()
    assert (
        no_play.read(m.Chat(seq=9, seat=None, text="hi"), seat=0, mine=True, pending=True) is None
    )
    error = no_play.acknowledged(sent, ack, seat=0, newest=9)
    assert str(error) == (
        "the host acknowledged your play of 7d taking 7s as event 9, which is not a play"
    )


def test_a_wrong_phase_answer_judges_no_play_held_the_next_answer_does() -> None:
    """protocol.md 3.5, 3.11: a table that has closed answers ``wrong_phase`` to a move sent
    again, even one it applied, so a play of the seat held while that move was unanswered is
    not judged by that answer (before, it was a mismatch: a false alarm at an honest host
    whose table closed as the move went again); the next answer that leaves every move
    answered judges it, so a host that answers ``wrong_phase`` where ``stale`` was due, to
    keep a play it made for the person, is still caught."""
    held = OwnPlays()
    assert held.read(played(9, 0, "7d", mask("7s")), seat=0, mine=True, pending=True) is None
    assert held.all_answered(closing=True) is None
    error = held.all_answered()
    assert str(error).startswith("the host recorded a play for your seat, 7d taking 7s, that")


async def test_a_move_sent_again_from_disk_that_the_host_applied_otherwise_stops_the_client(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ada's client dies just after her play leaves (a capture with another legal choice);
    the host applies the other capture. ``scopa-net join`` takes her seat back from disk and
    sends the move again, as it was kept; the host refuses it as ``move_id_taken`` (that move
    was another play). Before the fix her new client said only that the move was not played,
    and showed the host's capture as hers."""
    changed: list[tuple[int, int, int]] = []
    relay_another_capture(monkeypatch, 0, changed)
    screens: list[Player] = []

    async def ada_comes_back() -> None:
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0.01, grace=60)
            network = CutOff(host.port)
            network.wrap = partial(CutAfterAPlay, network=network)
            rules = RuleSet.of(2, LONG_MATCH)
            ada = await sit(
                nursery, host, "Ada", tmp_path, create=create(rules, bots=1),
                connector=network.connect,
            )  # fmt: skip
            while network.up and not ada.controller.state.match_over:
                await trio.sleep(0.01)
                view = ada.controller.state.view  # (as her screen has it)
                if view is None or not view.my_turn or view.round_over or ada.session._unacked:
                    continue
                plays = legal_plays(view)
                cards = [p.card for p in plays]
                twins = [p for p in plays if p.captured and cards.count(p.card) > 1]
                if not twins:
                    await ada.type(plays[0].text())
                    continue
                network.streams[-1].armed = True  # type: ignore[attr-defined]
                nursery.start_soon(ada.type, twins[0].text())
                await until(lambda: not network.up, 10)
            ada.crash()  # (the move is on disk, unanswered)
            assert changed, "Ada never had a capture with another choice: the test proves nothing"
            screens.append(await back_from_disk(nursery, host, "Ada", tmp_path))
            await trio.sleep_forever()

    (failed,) = await deal_checks_failed(ada_comes_back, 30)
    ((card, sent, _),) = changed
    said = (
        f"changed play: the host answered your play of {format_card(CARDS[card])} "
        f"{taking(sent)}, sent again as the connection came back, that it had applied that "
        "move as another play (move_id_taken): it recorded another play than the one you sent"
    )
    assert re.fullmatch(
        rf"DEAL CHECK FAILED in round \d+: {re.escape(said)}", str(failed).splitlines()[0]
    )
    assert failed.evidence is not None
    assert failed.evidence.exists()
    assert "was not played" not in screens[0].text, screens[0].text


def test_a_replayed_play_is_taken_as_hers_only_where_the_host_acknowledged_that_one() -> None:
    """A seat taken back from disk knows the plays the host acknowledged to an earlier client
    (seq, card, capture): one replayed at its seq as acknowledged raises nothing; another
    play of her seat there, or one where none was acknowledged, is a changed play; once the
    host has answered a new move of hers (after every event it replays), a play recorded
    for her at a seq acknowledged before, even as it was, is one she did not make; a play
    held while a move of hers is unanswered waits for its answer, as any."""
    earlier = [AckedPlay(9, CARD["7d"], mask("7s")), AckedPlay(13, CARD["Kb"], 0)]
    back = OwnPlays()
    back.known(earlier)
    assert back.read(played(9, 0, "7d", mask("7s")), seat=0, mine=True, pending=False) is None
    error = back.read(played(13, 0, "Ks", 0), seat=0, mine=True, pending=False)
    assert str(error) == (
        "the host recorded a play for your seat, Ks laying it on the table, as event 13, where "
        "it had acknowledged your play of Kb laying it on the table: you did not make that "
        "play, and the host announced no computer playing for you"
    )
    error = back.read(played(11, 0, "5h", 0), seat=0, mine=True, pending=False)
    assert str(error).startswith("the host recorded a play for your seat, 5h laying it on the")
    assert back.read(played(11, 1, "5h", 0), seat=0, mine=False, pending=False) is None
    held = OwnPlays()
    held.known(earlier)
    assert held.read(played(11, 0, "5h", 0), seat=0, mine=True, pending=True) is None
    sent = m.Play(move_id=2, after=10, card=CARD["5h"], captured=0)
    ack = m.Ack(move_id=2, seq=11, duplicate=True)
    assert held.acknowledged(sent, ack, seat=0, newest=11) is None
    assert held.all_answered() is None  # (its answer named it)
    live = OwnPlays()
    live.known(earlier)
    sent = m.Play(move_id=3, after=10, card=CARD["3b"], captured=0)
    ack = m.Ack(move_id=3, seq=11, duplicate=False)
    assert live.acknowledged(sent, ack, seat=0, newest=10) is None
    assert live.read(played(11, 0, "3b", 0), seat=0, mine=True, pending=False) is None
    error = live.read(played(13, 0, "Kb", 0), seat=0, mine=True, pending=False)
    assert str(error).startswith("the host recorded a play for your seat, Kb laying it on the")


def test_after_a_stale_resume_only_the_plays_up_to_the_host_s_newest_event_stand() -> None:
    """``stale`` with the host's newest event (3.3): the plays it acknowledged after it are
    lost, those up to it are replayed as acknowledged; a play of her seat replayed up to it
    otherwise is a changed play. Not said: which ones it kept is not known (the seat's session
    then exempts the replay, as for a seat record kept before the plays were kept)."""
    plays = OwnPlays()
    assert plays.knows_earlier
    for move_id, (seq, card) in enumerate([(9, "7d"), (13, "Kb"), (17, "2s")], start=1):
        sent = m.Play(move_id=move_id, after=seq - 1, card=CARD[card], captured=0)
        ack = m.Ack(move_id=move_id, seq=seq, duplicate=False)
        assert plays.acknowledged(sent, ack, seat=0, newest=seq - 1) is None
        assert plays.read(played(seq, 0, card, 0), seat=0, mine=True, pending=False) is None
    assert plays.last_played == 17
    plays.forget(13, start=0)
    assert plays.acked_plays == (AckedPlay(9, CARD["7d"], 0), AckedPlay(13, CARD["Kb"], 0))
    assert plays.last_played == 13  # (as the seat's record keeps them, for the next client)
    assert plays.read(played(9, 0, "7d", 0), seat=0, mine=True, pending=False) is None
    error = plays.read(played(13, 0, "Ks", 0), seat=0, mine=True, pending=False)
    assert str(error).startswith("the host recorded a play for your seat, Ks laying it on the")
    error = plays.read(played(17, 0, "2s", 0), seat=0, mine=True, pending=False)
    assert str(error).startswith("the host recorded a play for your seat, 2s laying it on the")
    plays.forget(None, start=4)
    assert not plays.knows_earlier
    assert plays.acked_plays is None
    assert plays.last_played == 4
    older = OwnPlays()
    older.known(None)
    assert not older.knows_earlier


def test_a_seat_record_keeps_the_plays_acknowledged_and_an_older_one_reads_without_them() -> None:
    """The seat's file keeps each play the host acknowledged (seq, card, capture) as written;
    one written before it did (no ``acked``) reads as not knowing them, and says so when
    saved again (its client then takes every play up to ``last_played`` as the person's)."""
    record = SeatRecord(
        host="127.0.0.1", port=7777, host_key="ab" * 32, table_id=1, seat=0, name="Ada",
        players=2, target=16, last_played=13,
        acked=(AckedPlay(9, CARD["7d"], mask("7s")), AckedPlay(13, CARD["Kb"], 0)),
    )  # fmt: skip
    assert SeatRecord.from_json(record.to_json()) == record
    older = json.loads(record.to_json())
    del older["acked"]
    before = SeatRecord.from_json(json.dumps(older))
    assert before.acked is None
    assert before.last_played == 13
    assert SeatRecord.from_json(before.to_json()).acked is None
