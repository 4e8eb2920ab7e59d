"""``play --lan`` run again after it was closed mid-match takes the table and the seat back.

The embedded host keeps its journal and the player's seat under the data directory
(``play-lan/``). These tests run it bound to loopback (so nothing is announced on the LAN)."""

from __future__ import annotations

import argparse
import contextlib
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
import trio
from hosting import open_lan_game
from person_screen import PersonScreen, in_play, sit, until

from scopa_net.bots.levels import make_player
from scopa_net.client.embedded import (
    LanTableBusyError,
    close_lan_tables,
    kept_lan_seats,
    lan_store,
    lan_table_lock,
)
from scopa_net.client.launch import session_failure
from scopa_net.client.network_session import NetworkSession, SessionError, TableChoice
from scopa_net.client.seat_store import SeatStore
from scopa_net.client.session import Message
from scopa_net.client.session_errors import MoveUnansweredError
from scopa_net.commands import play
from scopa_net.commands.main import main
from scopa_net.commands.options import EXIT_FAILED, CommandError
from scopa_net.fair.commitments import fingerprint
from scopa_net.rules import RuleSet
from scopa_net.server.config import DEFAULT_PORT


async def _heard(session, words: str, seconds: float = 10) -> list[str]:
    said: list[str] = []
    with trio.fail_after(seconds):
        async for event in session.events:
            if isinstance(event, Message):
                said.append(event.text)
                if words in event.text:
                    return said
    raise AssertionError(f"the session ended without {words!r}: {said}")


async def test_closed_mid_round_then_run_again_takes_the_table_and_seat_back(
    tmp_path: Path,
) -> None:
    with lan_table_lock(tmp_path):
        # The first run: a table is opened, and the round gets under way.
        with trio.CancelScope() as closed:
            async with open_lan_game(tmp_path) as session:
                with trio.fail_after(10):
                    while session.view is None or not session.view.my_turn:
                        await trio.sleep(0.01)
                hand = session.view.hand
                await session.submit(make_player("random", 1).choose(session.view))
                table_id, seat = session.table_id, session.seat
                with trio.fail_after(10):
                    while session.view.hand == hand or not session.view.my_turn:
                        await trio.sleep(0.01)
                hand, plays = session.view.hand, len(session.view.plays)
                closed.cancel()  # the terminal is closed: no goodbye to anyone
        kept = kept_lan_seats(tmp_path)
        assert [(r.table_id, r.seat, r.name) for r in kept] == [(table_id, seat, "Ada")]
        # The second run takes that seat back: the same table, the same hand, the plays made.
        async with open_lan_game(tmp_path, resume_from=kept[0]) as again:
            said = await _heard(again, "Back in your seat")
            assert again.table_id == table_id
            assert again.seat == seat
            assert again.view is not None
            assert again.view.hand == hand
            assert len(again.view.plays) == plays, said
            assert again.resume_command == "`scopa-net play --lan`"
            # Who can join is said again at once, not hidden with the replayed match (here
            # nobody: every other seat is a computer's, as the first run said).
            assert any("nobody can join" in text for text in said[:2]), said
        # It left normally: the seat is still kept (the match is not over) for a third run.
        assert [r.table_id for r in kept_lan_seats(tmp_path)] == [table_id]
        # A new table instead (--no-resume): the old match is closed and its seat forgotten.
        assert close_lan_tables(tmp_path) == [table_id]
        assert kept_lan_seats(tmp_path) == []
        assert lan_store(tmp_path).records() == []
        async with open_lan_game(tmp_path) as fresh:
            with trio.fail_after(10):
                while fresh.table_id is None:
                    await trio.sleep(0.01)
            assert fresh.table_id != table_id


def test_a_second_play_lan_is_refused_while_one_runs(tmp_path: Path) -> None:
    with lan_table_lock(tmp_path), pytest.raises(LanTableBusyError), lan_table_lock(tmp_path):
        pass


def _args(*flags: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    play.register(parser.add_subparsers())
    return parser.parse_args(["play", "--lan", *flags])


def test_run_again_offers_the_kept_seat_first_and_no_resume_opens_a_new_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    data = tmp_path / "scopa-net"
    ports: list[object] = []

    def screen(open_session, settings, **_: object) -> int:
        open_session()  # what the screen would open: its host's port is kept
        return 0

    def game(*args: object, **more: object) -> None:
        ports.append(more["port"])

    monkeypatch.setattr("scopa_net.client.launch.run_game_screen", screen)
    monkeypatch.setattr(play, "embedded_game", game)

    async def first_run() -> None:
        with trio.CancelScope() as closed:
            async with open_lan_game(data) as session:
                with trio.fail_after(10):
                    while session.view is None:
                        await trio.sleep(0.01)
                closed.cancel()

    with lan_table_lock(data):
        trio.run(first_run)
    [kept] = kept_lan_seats(data)
    rules = RuleSet.of(2, 11)
    settings = argparse.Namespace(name="Ada")
    assert play.run_lan(_args(), settings, rules, "random", 1, coach=False) == 0
    # The table taken back listens on its old port, where friends' clients look for it (it
    # came back on 7311, the default, and they never found it).
    assert ports == [kept.port]
    assert kept.port not in (0, DEFAULT_PORT)
    out = capsys.readouterr().out
    # It says what it does, and how not to: before, "Resume your seat at ..." read like an
    # offer, and the seat was taken back without an answer.
    assert out == (
        'Taking back your seat at table 1 "Ada\'s table" (seat 0, as Ada; your client stopped); '
        "`scopa-net play --lan --no-resume` opens a new table instead.\n"
    )

    # --no-resume: the old match is closed, and the screen opens a new table.
    assert play.run_lan(_args("--no-resume"), settings, rules, "random", 1, coach=False) == 0
    assert (
        capsys.readouterr().out == "The unfinished match at table 1 is closed; a new table opens.\n"
    )
    assert ports[-1] == DEFAULT_PORT  # a new table: the usual port
    assert kept_lan_seats(data) == []
    # history lists play --lan's journal too, under its name (it said "no journal at
    # .../host.db"); the table closed reads as such (it read "; closed unfinished, everyone
    # had left ()").
    assert main(["history"]) == 0
    assert capsys.readouterr().out.startswith("play --lan (--db ")
    assert main(["history", "--db", str(data / "play-lan" / "host.db")]) == 0
    assert re.fullmatch(
        r"table 1 .*: started [-\d :]+, ended [-\d :]+: closed unfinished: play --lan opened a "
        r"new table",
        capsys.readouterr().out.splitlines()[0],
    )
    # --resume with nothing kept says so.
    with pytest.raises(CommandError, match="no unfinished `play --lan` table"):
        play.run_lan(_args("--resume"), settings, rules, "random", 1, coach=False)


async def test_play_lan_with_no_seat_for_friends_says_nobody_can_join(tmp_path: Path) -> None:
    """`play --lan --humans 1` (every other seat a computer's) printed "Friends join this
    table on port ... with:" all the same."""
    with lan_table_lock(tmp_path):
        async with open_lan_game(tmp_path) as session:
            assert session.where_to_join == (
                "Every other seat is a computer's, so nobody can join this table; "
                "`--humans N` leaves seats for friends.",
            )
        async with open_lan_game(tmp_path, humans=2) as session:  # a seat for a friend: where
            assert "nobody can join" not in session.where_to_join[0]
            # and the key a friend's first join shows, to compare (never shown before)
            key = fingerprint(session.host_key)
            assert f"This table's host key is {key}:" in session.where_to_join[-1]


async def _kept_after_a_close(data_dir: Path, **options: object):
    """Open a table, sit down, and close the terminal (no goodbye): the seat it keeps."""
    with trio.CancelScope() as closed:
        async with open_lan_game(data_dir, **options) as session:
            with trio.fail_after(10):
                while session.table_id is None:
                    await trio.sleep(0.01)
            closed.cancel()
    [kept] = kept_lan_seats(data_dir)
    return kept


async def test_a_table_taken_back_says_who_can_join_as_a_fresh_one_did(tmp_path: Path) -> None:
    """`play --lan --humans 1` taken back from its save printed "Friends join this table on
    port ... with:" (and announced itself on the LAN) although no seat is open: the run that
    takes a table back went by its own --humans (1 by default), not the table's seats. So a
    table with a friend's seat, taken back by a plain `play --lan`, did not end for the friend
    when its owner left for good. Its words said "`--humans N` leaves seats for friends" to a
    person who gave --humans 2: a table taken back keeps its seats, a new one has them."""
    with lan_table_lock(tmp_path):
        kept = await _kept_after_a_close(tmp_path)
        async with open_lan_game(tmp_path, resume_from=kept, humans=2) as again:
            said = await _heard(again, "nobody can join")
            assert again.where_to_join == (
                "Every other seat is a computer's, so nobody can join this table; "
                "`scopa-net play --lan --no-resume --humans N` opens a new one with seats for "
                "friends.",
            )
            assert not any("join this table on port" in text for text in said), said
            assert not again.hosts_friends
        close_lan_tables(tmp_path)
        kept = await _kept_after_a_close(tmp_path, humans=2)
        async with open_lan_game(tmp_path, resume_from=kept) as again:  # --humans 1, the default
            said = await _heard(again, "host key is")
            assert "nobody can join" not in " ".join(again.where_to_join), said
            assert again.hosts_friends


async def test_leaving_your_own_lan_table_for_good_tells_the_friends_it_ended(
    tmp_path: Path,
) -> None:
    """The table's host runs in the owner's terminal: when the owner left it for good, the
    friend read "Ada left the table; a computer player takes the seat", then waited five
    minutes for a host that could not come back. Now the notice comes, the table closes (the
    friend's session gets ``left`` and ends by itself, without a wait), and history says why
    the match stopped.

    Before s38: Ada's question did not say that leaving ends her friends' match (only the
    line after her ``leave`` did); Dino read "Ada left the table; a computer player takes the
    seat" before "this match ends here"; his client ended 0 (README: a match that stopped is
    1) and kept his seat on disk, so his next ``join`` tried to take back a seat gone."""
    heard: list[str] = []
    ended = trio.Event()
    stopped: list[SessionError] = []
    dino_store = SeatStore(tmp_path / "dino")
    with lan_table_lock(tmp_path):
        async with trio.open_nursery() as nursery:
            with trio.CancelScope() as screen:  # the game's screen: it closes by cancelling
                async with open_lan_game(tmp_path, humans=2) as ada:
                    assert ada.hosts_friends  # type: ignore[attr-defined]
                    friend = NetworkSession(
                        "127.0.0.1",
                        ada.embedded_port,  # type: ignore[attr-defined]
                        TableChoice(table_id=ada.table_id),
                        name="Dino",
                        data_dir=tmp_path / "dino",
                        store=dino_store,
                    )

                    async def listen() -> None:
                        async for event in friend.events:
                            if isinstance(event, Message):
                                heard.append(event.text)

                    async def friend_runs() -> None:
                        try:
                            await friend.run()
                        except SessionError as exc:
                            stopped.append(exc)
                        ended.set()

                    nursery.start_soon(friend_runs)
                    nursery.start_soon(listen)
                    with trio.fail_after(10):
                        await friend.connected.wait()
                    ada_screen = PersonScreen(ada)
                    # She leaves in the first round with plays: round 1, or the next after a
                    # void deal (three kings on the table, about once in 600), which Dino's
                    # transcript then keeps.
                    await ada_screen.until_shown(in_play)
                    assert dino_store.records()  # Dino's seat is kept while the match goes on
                    asked = " ".join(await ada_screen.type("quit"))
                    assert asked.startswith(
                        "Leave for good (this table closes: its host runs in this terminal, "
                        "so your friends' match stops too) or step away"
                    ), asked
                    await ada_screen.type("leave")
                    screen.cancel()  # as the app closes the game after the leave
                    await trio.sleep_forever()
            with trio.fail_after(10):  # Ada's terminal has closed her table and its host
                await ended.wait()  # the friend's session is over: it waits for nothing
            nursery.cancel_scope.cancel()
    assert (
        "Ada left their own table for good, and its host ran in their terminal: this match "
        "ends here." in heard
    )
    assert not [line for line in heard if "left the table" in line], heard  # only the truth
    (exc,) = stopped
    failure = session_failure(exc)
    assert failure.status == EXIT_FAILED  # README: a match that stopped is status 1
    transcripts = sorted((tmp_path / "dino" / "transcripts").glob("*.scopa"))
    assert ada_screen.controller.state.view is not None
    if ada_screen.controller.state.view.round_number == 1:
        assert transcripts == [], transcripts  # no round of his was over
        saved = ""
    else:  # the void rounds before, told as test_a_friend_whose_match_stopped_... tells them
        (transcript,) = transcripts
        saved = (
            f"; its rounds so far are saved, UNFINISHED: `scopa-net verify {transcript}` "
            "checks them"
        )
    assert str(failure) == (
        "the table closed before the match ended (Ada left their own table for good, and its "
        "host ran in their terminal: this match ends here); no seat is kept for it" + saved
    )
    assert dino_store.records() == []  # his next join does not try to take it back
    assert kept_lan_seats(tmp_path) == []


async def test_a_friend_whose_match_stopped_is_told_where_its_rounds_so_far_are(
    tmp_path: Path,
) -> None:
    """Ada leaves her own table for good in round 2: Dino's client ended in "the table closed
    before the match ended (...); no seat is kept for it" and did not say that round 1's
    transcript was saved in his folder, as his own quitting would have."""
    stopped: list[SessionError] = []
    left: list[bool] = []
    dino = tmp_path / "dino"
    with lan_table_lock(tmp_path):
        async with trio.open_nursery() as nursery:
            with trio.CancelScope() as screen:  # the game's screen: it closes by cancelling
                async with open_lan_game(tmp_path, humans=2) as ada:
                    friend = NetworkSession(
                        "127.0.0.1",
                        ada.embedded_port,  # type: ignore[attr-defined]
                        TableChoice(table_id=ada.table_id),
                        name="Dino",
                        data_dir=dino,
                        store=SeatStore(dino),
                    )

                    async def friend_runs() -> None:
                        try:
                            await friend.run()
                        except SessionError as exc:
                            stopped.append(exc)

                    async def leaves_in_round_2(person: PersonScreen) -> None:
                        view = person.session.view
                        if view is not None and view.round_number >= 2 and not left:
                            left.append(True)
                            await person.type("quit")
                            await person.type("leave")
                            screen.cancel()  # as the app closes the game after the leave

                    async def friend_plays() -> None:
                        # His move may be on its way as the table closes: the end is below.
                        with contextlib.suppress(MoveUnansweredError):
                            await PersonScreen(friend).play()

                    nursery.start_soon(friend_runs)
                    with trio.fail_after(10):
                        await friend.connected.wait()
                    nursery.start_soon(friend_plays)
                    with trio.fail_after(60):
                        await PersonScreen(ada).play(leaves_in_round_2)
            with trio.fail_after(10):
                while not stopped:
                    await trio.sleep(0.05)
            nursery.cancel_scope.cancel()
    (saved,) = (dino / "transcripts").iterdir()
    failure = session_failure(stopped[0])
    assert failure.status == EXIT_FAILED
    assert str(failure) == (
        "the table closed before the match ended (Ada left their own table for good, and its "
        "host ran in their terminal: this match ends here); no seat is kept for it; its "
        f"rounds so far are saved, UNFINISHED: `scopa-net verify {saved}` checks them"
    )


async def test_stepping_away_from_your_own_table_says_where_it_opens_again(
    tmp_path: Path,
) -> None:
    """The step-away line said only "Take it back with: scopa-net play --lan" to someone who
    had started the table with --port and rules: it now says that this command alone opens
    the table again on its port (where friends' clients look for it), with its rules."""
    with lan_table_lock(tmp_path), trio.CancelScope() as screen:
        async with open_lan_game(tmp_path, humans=1) as ada:
            ada_screen = PersonScreen(ada)
            await ada_screen.until_dealt()
            await ada_screen.type("quit")
            said = await ada_screen.type("away")
            screen.cancel()
    port = ada.embedded_port  # type: ignore[attr-defined]
    assert " ".join(said) == (
        "Stepping away; your seat is kept. Take it back with: scopa-net play --lan (it opens "
        f"this table again on port {port}, with its players and rules: no other flag is needed)"
    )
    (kept,) = kept_lan_seats(tmp_path)
    assert kept.port == port  # what the line promises: play --lan opens it there


async def test_your_own_void_round_reads_as_void_in_your_words_when_you_take_the_table_back(
    tmp_path: Path,
) -> None:
    """Ada steps away from her own blind table in round 1, which voids it (9.7). Run again,
    her screen showed round 1's board with "The round is over." (the void line was held back
    with the replayed match); it now says the void as a friend read it, in her own words.

    Dino's client has closed first (his seat waits for him), so that the round after the void
    waits for his seed and is not dealt before Ada is back, however long her table's host
    takes to stop (it says goodbye to its players since d6e00c2; before, it was cut off at
    once, and the void staying the last round depended on that)."""
    with lan_table_lock(tmp_path):
        async with trio.open_nursery() as nursery:
            with trio.CancelScope() as screen:
                async with open_lan_game(tmp_path, humans=2, blind=True) as ada:
                    port = ada.embedded_port  # type: ignore[attr-defined]
                    friend = NetworkSession(
                        "127.0.0.1",
                        port,
                        TableChoice(table_id=ada.table_id),
                        name="Dino",
                        data_dir=tmp_path / "dino",
                        store=SeatStore(tmp_path / "dino"),
                    )
                    dinos_client = trio.CancelScope()
                    dino: list[PersonScreen] = []

                    async def dino_plays_until_his_client_closes() -> None:
                        with dinos_client:
                            async with trio.open_nursery() as his:
                                his.start_soon(friend.run)
                                with trio.fail_after(10):
                                    await friend.connected.wait()
                                dino.append(PersonScreen(friend))
                                await dino[0].play()

                    nursery.start_soon(dino_plays_until_his_client_closes)
                    ada_screen = PersonScreen(ada)
                    # Round 1 in play (its redeal after a deal void for its kings, 1 in 600).
                    await ada_screen.until_shown(in_play)
                    view = ada_screen.controller.state.view
                    assert view is not None
                    stepped_in = view.round_number
                    await until(lambda: dino and dino[0].controller.state.in_match, 10)
                    dinos_client.cancel()  # his terminal closes: his seat waits for him
                    await ada_screen.type("quit")
                    await ada_screen.type("away")
                    screen.cancel()  # as her game closes after it
            (kept,) = kept_lan_seats(tmp_path)
            async with open_lan_game(tmp_path, resume_from=kept, port=port) as again:
                back = PersonScreen(again)
                with trio.fail_after(10):
                    async for event in again.events:
                        back.controller.handle_event(event)
                        if f"Round {stepped_in} is void" in back.text and len(dino) == 1:
                            # Dino's `join` again: the round after the void can be dealt,
                            # and its deal check said
                            (record,) = SeatStore(tmp_path / "dino").records()
                            here = SimpleNamespace(port=again.embedded_port)  # type: ignore[attr-defined]
                            dino.append(
                                await sit(
                                    nursery,
                                    here,  # type: ignore[arg-type]
                                    "Dino",
                                    tmp_path,
                                    "dino",
                                    table_id=record.table_id,
                                    resume_from=record,
                                )
                            )
                        if "Deal check: void: " in back.text:
                            break
            nursery.cancel_scope.cancel()
    said = back.text[back.text.index("Back in your seat") :]
    assert (
        f"Round {stepped_in} is void: you stepped away, and a blind round cannot go on without you."
    ) in said
    assert "The round is over." not in said, said
    assert "Deal check: void: you were absent" in said, said
