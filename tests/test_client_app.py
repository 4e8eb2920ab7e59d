"""The whole app: prompt-toolkit on asyncio, trio as its guest, driven through a pipe."""

from __future__ import annotations

import itertools
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import pytest
import trio
from app_driver import RecordingOutput, playing, run_app
from faultproxy import FaultProxy
from hosting import HostThread, create, start_host
from prompt_toolkit.input import PipeInput

from scopa_net.cards import CARDS
from scopa_net.client.asking import Asking
from scopa_net.client.client_state import ClientState
from scopa_net.client.embedded import open_embedded_game
from scopa_net.client.local_session import LocalSession, open_local_session
from scopa_net.client.moves import legal_plays
from scopa_net.client.network_session import (
    HostKeyChangedError,
    TableChoice,
    open_network_session,
)
from scopa_net.client.session import ConnectionState, Session
from scopa_net.round import Round
from scopa_net.rules import RuleSet


def test_a_whole_match_against_the_computer() -> None:
    def not_in_hand(view) -> str:
        card = next(c for c in CARDS if c not in view.hand)
        return f"{card}\r"

    rules = RuleSet.of(2, target=1)
    sessions: list[LocalSession] = []

    @asynccontextmanager
    async def opener() -> AsyncIterator[LocalSession]:
        async with open_local_session(rules, name="Ada", seed=7, delay=0) as session:
            sessions.append(session)
            yield session

    status, text, state = run_app(rules, playing(not_in_hand), opener=opener)
    assert status == 0
    assert "that card is not in your hand" in text
    assert "Round 1 score sheet" in text
    assert "Primiera" in text
    assert re.search(r"(You win|bot 1 wins) the match, \d+ to \d+, after \d+ rounds?\.", text)
    assert state.match_over
    # The refused line changed nothing: every play of the last round, as the client showed it,
    # is a legal one, in turn order, when replayed on that round's deck.
    view = state.view
    assert view.round_over
    dealt = sessions[0]._match.round
    assert dealt is not None
    replay = Round(rules, view.dealer, [CARDS[i] for i in dealt.deck])
    assert len(view.plays) == 40 - rules.opening_table_cards
    for n, record in enumerate(view.plays):
        assert record.seat == (view.dealer + 1 + n) % rules.players
        replay.play(record.play, record.seat, exact=True)
    assert replay.finished
    assert "You play" in text  # Ada's own plays
    assert "bot 1 plays" in text


def test_plain_mode_prints_sentences_and_no_toolbar() -> None:
    status, text, state = run_app(RuleSet.of(2, target=1), playing(), plain=True)
    assert status == 0
    assert "Your hand: " in text
    assert "bot 1 played " in text
    assert "local game" not in text  # the toolbar is off
    assert state.match_over


def test_ctrl_d_asks_before_leaving_practice() -> None:
    """Ctrl-D in a practice game (`play --seed`) left at once, saying nothing, where the
    game at its own host asks first: it asks the same, and Ctrl-D at the question stays."""

    def driver(state: ClientState, pipe: PipeInput) -> Callable[[], None]:
        # Each key waits for what it answers (typed all at once, a loaded machine could
        # read them before the question was asked).
        steps = iter(["\x04", "\x04", "\x04", "y\r"])
        seen: list[Asking | None] = [None]

        def on_change() -> None:
            ready = state.asking is Asking.CONFIRM_QUIT or (
                state.view is not None and state.view.my_turn and state.asking is Asking.NOTHING
            )
            if ready and state.asking is not seen[0]:
                seen[0] = state.asking
                step = next(steps, None)
                if step is not None:
                    pipe.send_text(step)

        return on_change

    status, text, state = run_app(RuleSet.of(2, target=11), driver)
    assert status == 0
    assert not state.match_over
    assert "score sheet" not in text
    assert text.count("The match is not over. Really leave?") == 2
    assert "Staying at the table." in text
    assert "Leaving the table." in text


def test_ctrl_d_at_a_choice_drops_the_choice() -> None:
    """`play --seed 5`: 6d takes either six on the table, so it asks which; Ctrl-D there
    left the game at once. It drops the choice, as Ctrl-C does, and the game goes on."""

    def driver(state: ClientState, pipe: PipeInput) -> Callable[[], None]:
        steps = iter(["6d\r", "\x04", "quit\ry\r"])
        asked = [False]

        def on_change() -> None:
            if state.asking is Asking.WHICH_GROUP and not asked[0]:
                asked[0] = True
                pipe.send_text(next(steps))
            elif state.view is not None and state.view.my_turn and state.asking is Asking.NOTHING:
                step = next(steps, None)
                if step is not None:
                    pipe.send_text(step)

        return on_change

    status, text, _ = run_app(RuleSet.of(2, target=11), driver, seed=5)
    assert status == 0
    assert "Choice dropped: type a card to play." in text
    assert text.count("Really leave?") == 1
    assert "Leaving the table." in text


def test_ctrl_c_on_an_empty_line_says_once_how_to_leave() -> None:
    """Ctrl-C on an empty prompt did nothing and said nothing: a person trying to leave was
    left guessing. It says how, once, and nothing when it clears a typed line."""
    status, text, _ = run_app(RuleSet.of(2, target=1), playing("\x03\x03Kx\x03"))
    assert status == 0
    assert text.count("Ctrl-C clears the line; to leave, type quit or press Ctrl-D.") == 1
    assert "not in your hand" not in text  # the cleared line was not sent


def test_quit_needs_a_yes_during_the_match() -> None:
    status, text, state = run_app(RuleSet.of(2, target=11), playing("quit\rno\rquit\ry\r"))
    assert status == 0
    assert "Really leave?" in text
    assert "Staying at the table." in text
    assert "Leaving the table." in text
    assert not state.match_over


def test_a_failing_game_side_takes_the_prompt_down() -> None:
    class BrokenTableError(Exception):
        pass

    @asynccontextmanager
    async def broken() -> AsyncIterator[Session]:
        async with open_local_session(RuleSet.of(2), seed=1, delay=0) as session:
            await trio.sleep(0)
            raise BrokenTableError("the table fell over")
            yield session

    status, text, _ = run_app(RuleSet.of(2), playing(), opener=broken)
    assert status == 1
    assert "The game stopped" in text
    assert "the table fell over" in text


def test_a_crash_while_the_prompt_is_up_takes_it_down() -> None:
    class Mute(LocalSession):
        async def say(self, text: str) -> None:
            raise RuntimeError(f"cannot say {text!r}")

    @asynccontextmanager
    async def mute() -> AsyncIterator[Session]:
        session = Mute(RuleSet.of(2), seed=2, delay=0)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(session.run)
            yield session
            nursery.cancel_scope.cancel()

    status, text, state = run_app(RuleSet.of(2), playing("say hello\r"), opener=mute)
    assert status == 1
    assert "cannot say 'hello'" in text
    assert not state.match_over


def test_ctrl_c_clears_the_line_and_the_game_goes_on() -> None:
    status, text, state = run_app(RuleSet.of(2, target=1), playing("zzz\x03"))
    assert status == 0
    assert "'zzz'" not in text  # the cleared line was never sent
    assert state.match_over


def test_a_whole_match_through_the_embedded_host_checks_every_deal() -> None:
    """The path `scopa-net play` takes: a host in-process, the client over loopback TCP."""

    def opener():
        return open_embedded_game(RuleSet.of(2, target=1), name="Ada", level="random", delay=0)

    status, text, state = run_app(RuleSet.of(2, target=1), playing(), opener=opener)
    assert status == 0
    assert state.match_over
    assert "Deal check: verified" in text
    # The check names the dealer as the screen names players ("dealer seat 1" before), and
    # Ada's own deal as her own plays are named ("dealer Ada" on her screen before).
    assert re.search(r"Deal check: verified \(dealer (you|[Bb]ot 1),", text), text
    assert "dealer seat" not in text
    assert "dealer Ada" not in text
    assert "Host: Deal check" not in text
    assert "DEAL CHECK FAILED" not in text
    # Round 1's sheet, or the next round's after a deal void for its kings (about 1 in 600).
    assert re.search(r"Round \d+ score sheet", text), text


def test_the_embedded_hosts_log_stays_off_the_players_screen() -> None:
    """`play --lan`'s host logged "table 1 seat 0: Ada left: the deal check failed at their
    seat (...)" straight onto the player's screen (Python's last-resort handler), beside the
    "Host: ..." notice saying the same. In a process of its own, as `scopa-net play` runs:
    the host's warnings no longer reach the terminal; the client's own still do. Logged by
    the host's own modules' loggers: the screen kept off a logger no host module used, and
    "the host listens on 0.0.0.0 only: not announced on the LAN" still reached it."""
    script = """
import logging, trio
from scopa_net.client.embedded import open_embedded_game
from scopa_net.rules import RuleSet
from scopa_net.server import announce, table_task

async def main():
    async with open_embedded_game(RuleSet.of(2, target=1), name="Ada", level="random", delay=0):
        table_task.log.warning("table 1 seat 0: Ada left")
        announce.log.warning("not announced on the LAN")
        logging.getLogger("scopa_net.client.network_session").warning("cannot save the seat")

trio.run(main)
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    assert "Ada left" not in done.stderr
    assert "not announced" not in done.stderr
    assert "cannot save the seat" in done.stderr


def test_the_client_offers_to_play_again_and_a_yes_starts_a_new_match() -> None:
    """After the match the client asks "play again? (y/n)"; y (the computer player always
    agrees) starts a new match with scores from 0; n at the next question ends the game."""

    def opener():
        return open_embedded_game(
            RuleSet.of(2, target=1), name="Ada", level="random", delay=0, offer_rematch=True
        )

    status, text, state = run_app(RuleSet.of(2, target=1), playing(rematch=("y",)), opener=opener)
    assert status == 0
    assert text.count("Play again with the same players?") == 2
    # The question is said once each time; the prompt under it names only the answers.
    assert text.lower().count("play again") == 2
    assert "y/n? " in text
    assert "Waiting for the others to answer." in text
    assert "everyone agreed: a new match begins" in text
    # Each match's sheets, its rounds numbered from the start again in the new one (its first
    # round 1, or 2 after a deal void for its kings, about 1 in 600).
    numbers = [int(n) for n in re.findall(r"Round (\d+) score sheet", text)]
    (again,) = [b for a, b in itertools.pairwise(numbers) if b <= a]
    assert numbers[0] <= 2, numbers
    assert again <= 2, numbers
    assert "No rematch." in text
    assert "no rematch (you said no): the table is closing" in text  # Ada, at her own screen
    assert state.match_over


@pytest.mark.parametrize("plain", [False, True], ids=["no colour", "plain"])
def test_an_answer_to_play_again_is_not_asked_again_under_it(plain: bool) -> None:
    """Where every redraw of the prompt stays on screen (a dumb terminal, a screen reader's
    stream), "y/n? n" was followed by "y/n?" once more, then "No rematch.": the prompt was
    drawn for the next line before the game had taken the answer. Now, once a line is typed,
    no question's prompt is drawn until the game has handled it; the question itself, and
    the prompt before the answer, are as they were."""

    def opener():
        return open_embedded_game(
            RuleSet.of(2, target=1), name="Ada", level="random", delay=0, offer_rematch=True
        )

    output = RecordingOutput()
    status, _, _ = run_app(
        RuleSet.of(2, target=1), playing(rematch=("y",)), opener=opener, plain=plain, output=output
    )
    assert status == 0
    rows = output.rows
    drawn = [i for i, row in enumerate(rows) if row in ("y/n? y", "y/n? n")]
    # (a line being typed may be drawn more than once, as the toolbar's clock redraws the
    # screen under load: each answer is where it was last drawn, as Enter took it)
    last = len(drawn) - 1
    answers = [i for k, i in enumerate(drawn) if k == last or rows[drawn[k + 1]] != rows[i]]
    assert [rows[i] for i in answers] == ["y/n? y", "y/n? n"], rows
    assert "y/n?" in rows[: answers[0]]  # asked before the answer, as ever
    replies = ("Waiting for the others to answer.", "No rematch.")
    for answered, said in zip(answers, replies, strict=True):
        after = rows[answered + 1 : rows.index(said, answered)]
        assert "y/n?" not in after, rows[answered:]
    assert "y/n?" not in rows[answers[1] + 1 :], rows[answers[1] :]


def test_ctrl_d_at_play_again_is_a_no_and_leaves() -> None:
    """Ctrl-D at "Play again with the same players?" closed the client without an
    answer, keeping the others waiting; it now answers no, says so, and leaves."""

    def opener():
        return open_embedded_game(
            RuleSet.of(2, target=1), name="Ada", level="random", delay=0, offer_rematch=True
        )

    status, text, state = run_app(
        RuleSet.of(2, target=1), playing(rematch=("\x04",)), opener=opener
    )
    assert status == 0
    assert text.count("Play again with the same players?") == 1
    assert "No rematch; leaving the table." in text
    assert state.match_over


def test_a_dropped_connection_mid_round_resumes_by_itself(threaded_host: HostThread) -> None:
    """The connection is cut in the middle of a round; the client says so, resumes with its
    token, and the match goes on to its end with every deal still verified."""
    proxies: list[FaultProxy] = []

    @asynccontextmanager
    async def opener() -> AsyncIterator[Session]:
        async with trio.open_nursery() as nursery:
            proxy = FaultProxy(threaded_host.port)
            await nursery.start(proxy.serve)
            proxies.append(proxy)
            choice = TableChoice(create=create(RuleSet.of(2, 1), bots=1))
            async with open_network_session("127.0.0.1", proxy.port, choice, name="Ada") as session:
                yield session
            nursery.cancel_scope.cancel()

    base = playing()

    def cutting(state: ClientState, pipe: PipeInput) -> Callable[[], None]:
        inner = base(state, pipe)

        def on_change() -> None:
            view = state.view
            if view is not None and len(view.plays) >= 5 and proxies and not proxies[0].cuts:
                proxies[0].cut_all()
            inner()

        return on_change

    status, text, state = run_app(RuleSet.of(2, target=1), cutting, opener=opener)
    assert status == 0
    assert proxies[0].cuts >= 1
    assert "reconnecting" in text
    assert "back at the table" in text
    assert state.match_over
    assert "Deal check: verified" in text
    assert "DEAL CHECK FAILED" not in text


def test_bad_lines_at_the_prompt_end_in_one_line_each_and_the_game_goes_on() -> None:
    """5,000 sevens stopped the game on an internal error (Python reads no number of more than
    4,300 digits), 'x' was echoed as '' and a long line was echoed whole: each now ends in one
    line that quotes the start of the line, and the game goes on."""
    lines = ["7" * 5000, "x", "z" * 60, "²", f"say {'a' * 1001}"]
    # Pasted (a bracketed paste: one key press, where 5,000 typed keys take seconds).
    typed = "".join(f"\x1b[200~{line}\x1b[201~\r" for line in lines) + "who\rquit\ry\r"
    status, text, _ = run_app(RuleSet.of(2, target=11), playing(typed))
    assert status == 0
    assert "internal error" not in text
    assert f"invalid choice: {'7' * 40!r}...: not a number from a list (5000 digits)" in text
    assert "invalid card: 'x': expected a rank followed by a suit, such as 7d" in text
    assert f"{'z' * 40!r}... is not a card or a command (type 'help'" in text
    assert "invalid card: '²': expected a rank followed by a suit" in text
    assert "a message is at most 1000 characters; yours has 1001" in text
    assert "Seat 0: Ada (you)" in text  # still at the table after every refusal
    assert "Leaving the table." in text


def test_an_escape_sequence_typed_at_the_prompt_is_refused_in_one_line() -> None:
    """Pasted at the prompt, ESC[31m reads to prompt-toolkit as a mouse report (the client
    never turns those on), and its handler printed "Unhandled exception in event loop: ...
    not enough values to unpack" and "Press ENTER to continue...". The line is refused in one
    line instead, nothing is sent, and the game goes on."""
    typed = "name \x1b[2J\x1b[31mEvil\x07\r" + "who\rquit\ry\r"
    status, text, _ = run_app(RuleSet.of(2, target=11), playing(typed))
    assert status == 0
    assert "Unhandled exception" not in text
    assert "Press ENTER" not in text
    assert "a name cannot hold a control character" in text
    assert "Seat 0: Ada (you)" in text  # the name was not changed
    assert "Leaving the table." in text


def test_a_move_queued_while_the_host_is_down_ends_in_one_line_when_another_host_answers() -> None:
    """Ada types her move while her host is down ("queued: ... goes to the host as soon as
    the connection is back"); what answers at its address then signs with another key (the
    organiser started it again on another --db). Without a move on its way that ended in the
    line "the host at ... now has key ..." (status 6); with one, the game stopped on "an
    internal error (ExceptionGroup: Exceptions from Trio nursery (2 sub-exceptions))",
    status 1: the move's own "the session ended" beside the session's error. Now the
    session's error alone reaches the command, which says it in one line."""
    going_down = trio.Event()

    @asynccontextmanager
    async def opener() -> AsyncIterator[Session]:
        async with trio.open_nursery() as nursery:
            first = await start_host(nursery)
            second = await start_host(nursery)  # another journal: another key
            where = [first.port]

            async def connect() -> trio.abc.Stream:
                if where[0] == 0:  # the host is down until Ada's move is queued
                    if not (states and states[0].move_sent):
                        raise OSError("no host there")
                    await trio.sleep(0.1)  # the move is on its way (queued) first
                    where[0] = second.port
                return await trio.open_tcp_stream("127.0.0.1", where[0])

            async def stop_the_first() -> None:
                await going_down.wait()
                where[0] = 0
                await first.shutdown()

            nursery.start_soon(stop_the_first)
            choice = TableChoice(create=create(RuleSet.of(2, 11), bots=1))
            async with open_network_session(
                "127.0.0.1", first.port, choice, name="Ada", connector=connect
            ) as session:
                yield session
            nursery.cancel_scope.cancel()

    typed: list[str] = []
    states: list[ClientState] = []

    def driver(state: ClientState, pipe: PipeInput) -> Callable[[], None]:
        states.append(state)

        def on_change() -> None:
            view = state.view
            if view is None or not view.my_turn or view.round_over:
                return
            if not going_down.is_set():
                going_down.set()
            elif state.connection is ConnectionState.RECONNECTING and not typed:
                typed.append(legal_plays(view)[0].text())
                pipe.send_text(typed[0] + "\r")

        return on_change

    with pytest.raises(HostKeyChangedError) as stopped:
        run_app(RuleSet.of(2, 11), driver, opener=opener)
    assert typed, "the move was never typed"
    assert re.fullmatch(
        r"the host at 127\.0\.0\.1:\d+ now has key \S+, not \S+, the one this match was "
        r"played with: it may be a different host",
        str(stopped.value),
    ), stopped.value
