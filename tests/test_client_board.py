"""The board as a person reads it (issue 15): it fits the terminal without cutting words, the
sheets name every side in full, the score sheet can be seen again and is not scrolled away on
a short terminal, and the keys do what they say."""

from __future__ import annotations

import asyncio
import random

import pytest
from client_fakes import Screen, TableSession
from helpers import match_dealt
from hypothesis import given
from hypothesis import strategies as st
from prompt_toolkit import PromptSession
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from scopa_net.cards import CARDS
from scopa_net.client import render
from scopa_net.client.asking import Asking
from scopa_net.client.client_state import ClientState
from scopa_net.client.controller import Controller
from scopa_net.client.keys import make_key_bindings
from scopa_net.client.scoresheet import score_sheet
from scopa_net.client.session import ConnectionState, MatchOver, RoundOver, RoundStarted
from scopa_net.client.style import Display
from scopa_net.client.toolbar import toolbar_text
from scopa_net.match import Match
from scopa_net.notation import parse_card
from scopa_net.plays import Play, PlayRecord
from scopa_net.rules import RuleSet

WORD = st.text(alphabet="abcdefghij,&=0123456789", min_size=1, max_size=14)


def test_a_message_of_several_lines_keeps_its_lines_when_cut_to_the_terminal() -> None:
    """The DEAL CHECK FAILED banner is three sentences, one a line: at 120 columns it read
    "The game stops" and "here: this host's deal ..." on two lines, its breaks taken for
    letters. Each of its lines is now cut on its own."""
    banner = (
        "DEAL CHECK FAILED in round 2: wrong secret: this party's own seed "
        "was relayed altered\n"
        "The game stops here: this host's deal cannot be trusted.\n"
        "Evidence saved to /data/transcripts/t1-FAILED.scopa (check it with: scopa-net verify "
        "/data/transcripts/t1-FAILED.scopa)"
    )
    rows = [
        render.plain([r]) for r in render.wrap_line(FormattedText([("class:error", banner)]), 120)
    ]
    assert rows == [
        "DEAL CHECK FAILED in round 2: wrong secret: this party's own seed was relayed altered",
        "The game stops here: this host's deal cannot be trusted.",
        "Evidence saved to /data/transcripts/t1-FAILED.scopa (check it with: scopa-net verify "
        "/data/transcripts/t1-FAILED.scopa)",
    ]


def test_a_computer_players_name_is_never_cut_from_its_number() -> None:
    """At 60 columns the match's end read "... to Zio Gianni & bot" with "4 4 to ..." on the
    next line: "bot 4" is a name, kept whole like a number and its unit."""
    said = (
        "Nonna Lucía & Teo win the match with 7 points (Zio Gianni & bot 4: 4, Chiara & bot 5: 2)"
    )
    line = FormattedText([("", said)])
    for width in range(30, 70):
        rows = [render.plain([row]) for row in render.wrap_line(line, width)]
        assert all(not row.rstrip().endswith(("bot", "(bot")) for row in rows), (width, rows)
        assert " ".join(rows).split() == line[0][1].split()
    said = FormattedText([("", "Waiting for the host to seat someone in seat 3 again.")])
    rows = [render.plain([row]) for row in render.wrap_line(said, 45)]
    assert rows[0].endswith("someone in")
    assert rows[1].startswith("seat 3")


@given(
    parts=st.lists(st.lists(WORD, min_size=1, max_size=5), min_size=1, max_size=6),
    width=st.integers(min_value=20, max_value=100),
)
def test_wrapping_never_cuts_a_word_and_keeps_every_word(
    parts: list[list[str]], width: int
) -> None:
    text = "   ".join(" ".join(words) for words in parts)
    line = FormattedText([("class:label", "Captured  "), ("", text)])
    rows = [render.plain([row]) for row in render.wrap_line(line, width)]
    assert all(len(row) <= width for row in rows)
    assert " ".join(rows).split() == ["Captured", *text.split()]
    for row in rows[1:]:  # under the label's text, unless a word needs the whole line
        first, *rest = row.split()
        if rest and first[-1].isdigit() and rest[0].rstrip(".,:;!?)") in render.UNITS:
            first = f"{first} {rest[0]}"  # a number and its unit are one word ("60 s")
        assert row.startswith(" " * 10) or len(first) > width - 10


def finished_round(players: int, variants: tuple[str, ...] = (), seed: int = 3) -> Match:
    rng = random.Random(seed)
    match = Match(RuleSet.of(players, 11, variants), first_dealer=0)
    while not match.results:
        deck = list(CARDS)
        rng.shuffle(deck)
        rnd = match.deal(deck)
        while not rnd.finished:
            match.play(rng.choice(rnd.legal_plays()), rnd.turn, exact=True)
    return match


def names_for(players: int) -> tuple[str, ...]:
    return ("You", *(f"bot {i}" for i in range(1, players)))


@pytest.mark.parametrize(
    ("players", "variants"), [(4, ()), (6, ()), (6, ("six_as_three_pairs",)), (3, ())]
)
def test_sheets_name_every_side_in_full_at_80_and_fit_60(
    players: int, variants: tuple[str, ...]
) -> None:
    match = finished_round(players, variants)
    view, names = match.view_for(0), names_for(players)
    sides = [render.side_label(s, view, names) for s in range(view.rules.side_count)]
    for width in (80, 60):
        sheet = render.plain(score_sheet(view, match.results[-1], match.scores, names, width))
        assert all(len(row) <= width for row in sheet.splitlines()), sheet
        for side in sides:
            assert side in sheet  # never "You & bo"
    sheet = render.plain(score_sheet(view, match.results[-1], match.scores, names, 80))
    header = sheet.splitlines()[1]
    if players == 4:
        assert header.split("   ")[1:3] == ["You & bot 2", "bot 1 & bot 3"] or all(
            s in header for s in sides
        )


def test_the_board_and_toolbar_fit_60_columns() -> None:
    match = match_dealt(
        {0: "7d 3s Kb", 1: "2h 2s Jd", 2: "Ad Ah As", 3: "4d 4s 4b"},
        "5s 2b 7h 4h",
        players=4,
        dealer=3,
    )
    view, names = match.view_for(0), names_for(4)
    for line in render.board_lines(view, names, Display(glyphs=False)):
        for row in render.wrap_line(line, 60):
            assert len(render.plain([row])) <= 60
    captured = next(
        line for line in render.board_lines(view, names, Display()) if line[0][1] == "Captured  "
    )
    rows = [render.plain([r]) for r in render.wrap_line(captured, 60)]
    assert rows == [
        "Captured  You & bot 2: 0 cards, 0 sweeps",
        "          bot 1 & bot 3: 0 cards, 0 sweeps",
    ]
    state = ClientState(seat=0, names=names, display=Display(), view=view, scores=(0, 0))
    wide = render.plain([toolbar_text(state, 200)])
    assert "You & bot 2: 0  bot 1 & bot 3: 0 (to 11)" in wide
    assert "stock" in wide
    for width in (80, 60, 40, 25):
        bar = render.plain([toolbar_text(state, width)])
        assert len(bar) < width, (width, bar)
        assert "YOUR TURN" in bar, (width, bar)


async def test_the_toolbar_says_a_move_is_sent_until_the_host_answers() -> None:
    """While the host has not answered a move, the toolbar said YOUR TURN (a person typed
    again); now it says the move is sent, and YOUR TURN again once a view without it shows.
    Once the answer came, nothing is left marked as sent."""
    match = match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 3h 4h")
    state = ClientState(seat=0, names=("Ada", "Bot 1"), display=Display(), scores=(0, 0))
    state.view = match.view_for(0)
    assert "YOUR TURN" in render.plain([toolbar_text(state, 80)])
    state.sent_from = state.view
    bar = render.plain([toolbar_text(state, 80)])
    assert "move sent" in bar
    assert "YOUR TURN" not in bar
    state.view = match.view_for(0)  # another view: the host answered
    assert "YOUR TURN" in render.plain([toolbar_text(state, 80)])
    session = TableSession(match)
    controller = Controller(session, Display(), Screen().show, lambda: None)
    await controller.handle_line("Kb")
    assert session.submitted
    assert controller.state.sent_from is None


def test_you_play_and_others_play() -> None:
    match = match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 3h 4h")
    view = match.view_for(0)
    mine = PlayRecord(0, Play(parse_card("3s"), (parse_card("3h"),)), False)
    theirs = PlayRecord(1, Play(parse_card("2h"), (parse_card("2b"),)), False)
    assert render.plain(
        [render.record_line(mine, view, ("You", "Ann"), Display(glyphs=False))]
    ) == ("You play 3s x 3h")
    line = render.record_line(theirs, view, ("You", "Ann"), Display(glyphs=False))
    assert render.plain([line]) == "Ann plays 2h x 2b"


async def _round_over(session: TableSession, controller: Controller) -> None:
    rng = random.Random(1)
    match = session.match
    rnd = match.round
    assert rnd is not None
    while not rnd.finished:
        match.play(rng.choice(rnd.legal_plays()), rnd.turn, exact=True)
    view = match.view_for(0)
    controller.handle_event(
        RoundOver(view=view, score=match.results[-1], match_scores=tuple(match.scores))
    )


@pytest.mark.parametrize(("rows", "held"), [(15, True), (60, False)])
async def test_a_short_terminal_keeps_the_sheet_until_enter(rows: int, held: bool) -> None:
    session = TableSession(match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 7h 4h"))
    screen = Screen()
    controller = Controller(
        session, Display(), screen.show, lambda: None, screen=lambda: (80, rows)
    )
    await _round_over(session, controller)
    sheet = screen.take()
    assert "Round 1 score sheet" in sheet
    assert ("Press Enter for the next round." in sheet) is held
    assert controller.state.paused is held
    assert ("Enter: next round" in render.plain([toolbar_text(controller.state)])) is held
    deck = list(CARDS)
    random.Random(2).shuffle(deck)
    session.match.deal(deck)
    controller.handle_event(RoundStarted(view=session.match.view_for(0)))
    board = screen.take()
    assert ("Round 2" in board) is not held
    controller.handle_event(RoundStarted(view=session.match.view_for(0)))  # drawn again
    assert ("Round 2" in screen.take()) is not held
    await controller.handle_line("")
    assert not controller.state.paused
    if held:
        assert screen.take().count("Round 2") == 1  # the board once, not once per redraw
    await controller.handle_line("score")
    again = screen.take()
    assert "Round 1 score sheet" in again
    assert "Match score: Ada" in again


async def test_who_before_the_deal_and_a_bare_rank_plays_the_only_card() -> None:
    session = TableSession(match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 3h 4h"))
    screen = Screen()
    controller = Controller(session, Display(), screen.show, lambda: None)
    controller.state.view = None
    await controller.handle_line("who")
    assert screen.take() == "Seat 0: Ada (you)\nSeat 1: Bot 1"
    controller.state.view = session.view
    await controller.handle_line("K")
    assert session.submitted == [
        Play(parse_card("Kb"), (parse_card("2b"), parse_card("3h"), parse_card("5s")))
    ]


async def test_a_bare_value_plays_the_only_card_of_that_value() -> None:
    """The hand shows each card's value (a king as K=10); typing "10" read as a choice from
    an empty list ("invalid choice: 10: there is nothing to choose from")."""
    session = TableSession(match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 3h 4h"))
    screen = Screen()
    controller = Controller(session, Display(), screen.show, lambda: None)
    controller.state.view = session.view
    await controller.handle_line("9")
    assert "You hold no card of value 9." in screen.take()
    await controller.handle_line("10")
    assert session.submitted == [
        Play(parse_card("Kb"), (parse_card("2b"), parse_card("3h"), parse_card("5s")))
    ]


async def test_ctrl_c_drops_the_question() -> None:
    session = TableSession(match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 3h 4h"))
    screen = Screen()
    controller = Controller(session, Display(), screen.show, lambda: None)
    await controller.handle_line("settebello")
    assert controller.state.asking is Asking.WHICH_GROUP
    controller.interrupt()
    assert controller.state.asking is Asking.NOTHING
    assert controller.state.choices == ()
    assert "Choice dropped" in screen.take()
    await controller.handle_line("1")
    assert session.submitted == []


async def test_ctrl_c_on_an_empty_line_says_how_to_leave_not_twice_in_a_row() -> None:
    session = TableSession(match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 3h 4h"))
    screen = Screen()
    controller = Controller(session, Display(), screen.show, lambda: None)
    hint = "Ctrl-C clears the line; to leave, type quit or press Ctrl-D."
    controller.interrupt(empty_line=True)
    assert screen.take() == hint
    controller.interrupt(empty_line=True)
    controller.interrupt()  # a typed line cleared: nothing to say
    assert screen.take() == ""
    await controller.handle_line("score")
    screen.take()
    controller.interrupt(empty_line=True)  # a line typed since: said again
    assert screen.take() == hint


class SteppingSession(TableSession):
    """A seat at a host: it can step away, and records how it left."""

    can_step_away = True

    def __init__(self, match: Match) -> None:
        super().__init__(match)
        self.left: list[bool] = []

    async def leave(self, *, away: bool) -> None:
        self.left.append(away)


def _in_a_round_while_the_host_is_away() -> tuple[SteppingSession, Screen, Controller]:
    """A seat in a round in play while its client reconnects to the host (taken back with
    `scopa-net join 10.0.0.5:7311`); its screen and controller."""
    session = SteppingSession(match_dealt({0: "7h 4s 3b", 1: "2h 2s Jd"}, "7d Kb Qh Js"))
    session.connection = ConnectionState.RECONNECTING  # type: ignore[misc]
    session.resume_command = "`scopa-net join 10.0.0.5:7311`"  # type: ignore[attr-defined]
    screen = Screen()
    controller = Controller(session, Display(), screen.show, lambda: None)
    controller.state.view = session.view
    return session, screen, controller


def _waiting_for_players(
    table_id: int, resume_command: str
) -> tuple[SteppingSession, Screen, Controller]:
    """A seat at table ``table_id`` whose match has not begun (seated, nothing dealt yet),
    taken back with ``resume_command``; its screen and controller."""
    session = SteppingSession(match_dealt({0: "7h 4s 3b", 1: "2h 2s Jd"}, "7d Kb Qh Js"))
    session.table_id = table_id  # type: ignore[attr-defined]
    session.resume_command = resume_command  # type: ignore[attr-defined]
    screen = Screen()
    controller = Controller(session, Display(), screen.show, lambda: None)
    controller.state.view = None  # seated, nothing dealt yet
    assert controller.waiting_at_a_table()
    return session, screen, controller


async def test_ctrl_c_at_leave_or_away_stays_and_at_the_coach_plays_nothing() -> None:
    """Ctrl-C at "leave, away or stay?" and at the coach's "play it anyway?" left the question
    on screen, still waiting for its answer; it now answers "stay" and "no", in words."""
    session = SteppingSession(match_dealt({0: "7h 4s 3b", 1: "2h 2s Jd"}, "7d Kb Qh Js"))
    screen = Screen()
    controller = Controller(session, Display(), screen.show, lambda: None, coach=True)
    controller.state.view = session.view
    await controller.handle_line("quit")
    assert controller.state.asking is Asking.LEAVE_OR_AWAY
    screen.take()
    controller.interrupt()
    assert controller.state.asking is Asking.NOTHING
    assert screen.take() == "Staying at the table."
    assert session.left == []
    await controller.handle_line("4s")  # gives the settebello away: the coach asks first
    assert controller.state.asking is Asking.CONFIRM_PLAY
    screen.take()
    controller.interrupt()
    assert controller.state.asking is Asking.NOTHING
    assert screen.take() == "Not played; choose again ('hint' suggests a play)."
    await controller.handle_line("y")
    assert session.submitted == []


class AskingAgainSession(SteppingSession):
    """A seat at a host that asks "play again?" after the match."""

    offer_rematch = True

    def __init__(self, match: Match) -> None:
        super().__init__(match)
        self.rematches: list[bool] = []

    async def rematch(self, agree: bool) -> None:
        self.rematches.append(agree)


async def test_quit_at_play_again_answers_no_before_leaving() -> None:
    """`quit` (and Ctrl-D) at "Play again with the same players?" left without an
    answer, and the others read "rematch: waiting for Ada" for a minute; leaving now says
    no first."""
    session = AskingAgainSession(match_dealt({0: "7h 4s 3b", 1: "2h 2s Jd"}, "7d Kb Qh Js"))
    screen = Screen()
    quit_called: list[bool] = []
    controller = Controller(session, Display(), screen.show, lambda: quit_called.append(True))
    controller.state.view = session.view
    controller.handle_event(MatchOver(winner=0, match_scores=(11, 4), rounds=3))
    assert controller.state.asking is Asking.REMATCH
    screen.take()
    await controller.handle_line("7h")  # a card, out of habit: no "illegal play" now
    assert screen.take() == (
        "The match is over: answer y or n (play again with the same players?)."
    )
    assert session.submitted == []
    await controller.handle_line("quit")
    assert session.rematches == [False]
    assert screen.take() == "No rematch; leaving the table."
    assert quit_called == [True]


def test_ctrl_c_leaves_history_search_and_the_typed_line_runs() -> None:
    interrupted: list[str] = []

    async def prompt() -> str:
        with create_pipe_input() as pipe:
            history = InMemoryHistory()
            for old in ("rules", "score"):
                history.append_string(old)
            session: PromptSession[str] = PromptSession(
                history=history,
                key_bindings=make_key_bindings(
                    interrupt=lambda empty: interrupted.append(f"^C {empty}")
                ),
                input=pipe,
                output=DummyOutput(),
            )
            pipe.send_text("\x12ru")  # Ctrl-R, search for "ru": finds "rules"
            pipe.send_text("\x03")  # Ctrl-C
            pipe.send_text("Ks\r")
            return await session.prompt_async("scopa> ")

    assert asyncio.run(prompt()) == "Ks"
    assert interrupted == ["^C False"]  # a search left: not an empty line


async def test_leaving_for_good_while_the_host_is_away_says_the_seat_is_kept() -> None:
    """With the host unreachable, "leave" said "Leaving the table for good; a computer player
    takes your seat", yet nothing could reach the host: the seat stayed kept, and the next
    join took it back "(you stepped away)"."""
    session, screen, controller = _in_a_round_while_the_host_is_away()
    await controller.handle_line("quit")
    screen.take()
    await controller.handle_line("leave")
    assert screen.take() == (
        "The host cannot be reached, so it cannot be told that you are leaving: it keeps your "
        "seat (a computer plays it once its grace period ends). `scopa-net join 10.0.0.5:7311` "
        "takes it back, or with --no-resume sits down anew; if the host moved, give its new "
        "address instead (your seat goes with the host's key)."
    )
    assert session.left == [False]


async def test_stepping_away_while_the_host_is_away_says_what_becomes_of_the_seat() -> None:
    """While reconnecting, "quit" asked about "a computer playing it at once", and "away"
    said "a computer plays it from now until you come back. Take it back with: scopa-net join
    OLD-ADDRESS", though nothing reached the host, and a host that moved (restarted at another
    port) no longer answers there."""
    session, screen, controller = _in_a_round_while_the_host_is_away()
    await controller.handle_line("quit")
    asked = screen.take()
    assert "at once" not in asked, asked
    assert asked.startswith(
        "The host cannot be reached just now, so whatever you choose it keeps your seat (a "
        "computer plays it once its grace period ends) until `scopa-net join 10.0.0.5:7311` "
        "takes it back."
    ), asked
    await controller.handle_line("away")
    assert screen.take() == (
        "The host cannot be reached, so it cannot be told that you are stepping away: it keeps "
        "your seat (a computer plays it once its grace period ends). `scopa-net join "
        "10.0.0.5:7311` takes it back, or with --no-resume sits down anew; if the host moved, "
        "give its new address instead (your seat goes with the host's key)."
    )
    assert session.left == [True]


async def test_quit_while_the_host_is_away_at_a_table_waiting_for_players_says_so() -> None:
    """Before the match began, "quit" while reconnecting said the host keeps the seat "(a
    computer plays it once its grace period ends)": nothing is played at a table waiting for
    players. It says the match has not begun, and when a computer would play."""
    session, screen, controller = _waiting_for_players(3, "`scopa-net join 10.0.0.5:7311`")
    session.connection = ConnectionState.RECONNECTING  # type: ignore[misc]
    await controller.handle_line("quit")
    assert screen.take() == (
        "The host cannot be reached, so it cannot be told that you are stepping away: it keeps "
        "your seat at table 3, whose match has not begun (if it begins before you are back, a "
        "computer plays for you once your grace period ends). `scopa-net join 10.0.0.5:7311` "
        "takes it back, or with --no-resume sits down anew; if the host moved, give its new "
        "address instead (your seat goes with the host's key)."
    )
    assert session.left == [True]


async def _paused_then_dealt() -> tuple[TableSession, Screen, Controller]:
    """A short terminal at "Press Enter for the next round.", round 2 dealt behind it."""
    session = TableSession(match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 7h 4h"))
    screen = Screen()
    controller = Controller(session, Display(), screen.show, lambda: None, screen=lambda: (80, 15))
    await _round_over(session, controller)
    assert "Press Enter for the next round." in screen.take()
    deck = list(CARDS)
    random.Random(2).shuffle(deck)
    session.match.deal(deck)
    controller.handle_event(RoundStarted(view=session.match.view_for(0)))
    return session, screen, controller


@pytest.mark.parametrize("typed", ["blah", "7d", "settebello", "1", "7", "hint", "7d x 7h"])
async def test_a_play_typed_at_the_pause_is_not_played_and_the_pause_stays(typed: str) -> None:
    """A line typed at "Press Enter for the next round." started round 2 (and a card typed
    there could be played before the new hand was seen). Now nothing typed there is played,
    one line says what to do, and only Enter starts the round."""
    session, screen, controller = await _paused_then_dealt()
    await controller.handle_line(typed)
    assert screen.take() == "The round is over: press Enter for the next round."
    assert controller.state.paused
    assert "Enter: next round" in render.plain([toolbar_text(controller.state)])
    await controller.handle_line("")
    assert not controller.state.paused
    assert screen.take().count("Round 2") == 1
    assert session.submitted == []


@pytest.mark.parametrize("typed", ["log", "last", "score", "board", "who", "help", "rules"])
async def test_a_command_at_the_pause_runs_on_the_round_just_ended(typed: str) -> None:
    """`log` typed at "Press Enter for the next round." started round 2 and said "No plays
    yet this round."; a person who types it there wants the round that just ended. Now
    commands answer for that round, and the prompt stays until Enter."""
    _, screen, controller = await _paused_then_dealt()
    await controller.handle_line(typed)
    shown = screen.take()
    assert shown, typed
    assert "Round 2" not in shown  # the next round's board waits for Enter
    assert "No plays yet" not in shown
    assert controller.state.paused
    if typed in {"log", "last"}:
        assert shown.count(" play") >= 2, shown  # "You play" (Ada) and "Bruno plays", round 1
    if typed == "score":
        assert shown.count("Round 1 score sheet") == 1, shown
    if typed == "board":
        assert shown.startswith("Round 1  dealer"), shown
    await controller.handle_line("")
    assert screen.take().count("Round 2") == 1


async def test_a_word_at_the_rematch_question_is_answered_with_what_it_takes() -> None:
    """ "huh" at "Play again with the same players? y/n?" said "invalid card: 'huh': unknown
    rank 'h'"."""
    session = TableSession(match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 7h 4h"))
    session.offer_rematch = True  # type: ignore[attr-defined]
    screen = Screen()
    controller = Controller(session, Display(), screen.show, lambda: None)
    controller.handle_event(MatchOver(winner=0, match_scores=(11, 3), rounds=3, voids=0))
    assert controller.state.asking is Asking.REMATCH
    screen.take()
    await controller.handle_line("huh")
    assert screen.take() == "Answer y or n. Type y to play again, or n not to."
    assert controller.state.asking is Asking.REMATCH


@pytest.mark.parametrize("width", [60, 80, 100, 120])
def test_every_sheet_at_one_width_is_laid_out_alike_with_the_note_on_the_match_row(
    width: int,
) -> None:
    """At one table and width, one match's sheet was headed by letters with a legend and the
    next by the teams' full names, its "match over (played to 4)" pushed onto a line of its
    own: the choice hung on who took which point that round. It rests on the names now."""
    names = ("Nonna Lucía", "Zio Gianni", "Chiara", "Teo", "bot 4", "bot 5")
    heads = set()
    for seed in range(12):
        match = finished_round(6, ("six_as_three_pairs",), seed)
        view = match.view_for(0)
        for scores in ((1, 2, 0), (12, 2, 1)):  # playing on, and the match over
            sheet = render.plain(score_sheet(view, match.results[-1], scores, names, width))
            rows = sheet.splitlines()
            heads.add(rows[1])
            (match_row,) = [row for row in rows if row.startswith("Match")]
            assert match_row.endswith(("playing to 11", "match over (played to 11)")), sheet
    assert len(heads) == 1, heads


async def test_quit_at_ones_own_lan_table_waiting_for_friends_says_it_opens_again() -> None:
    """At a ``play --lan`` table waiting for friends, the host runs in this process and stops
    with it: leaving says the table and the seat are kept, and how to open them again, not
    that a computer will play for the person."""
    session, screen, controller = _waiting_for_players(1, "`scopa-net play --lan`")
    session.embedded_port = 7311  # type: ignore[attr-defined]
    await controller.handle_line("quit")
    assert screen.take() == (
        "You left table 1 before its match began; the table and your seat are kept: "
        "`scopa-net play --lan` opens them again."
    )
    assert session.left == [True]


async def test_a_rank_alone_with_a_group_plays_the_only_card_of_that_rank() -> None:
    """Help says "A rank alone (7, K) plays your only card of that rank" and "Name the group
    after it: 7d x 5s+2b"; a newcomer typed "K x 5h+5s" and read "invalid card: 'k': expected
    a rank followed by a suit", and "Kb takes 5h and 5s" read as an unknown command 'kb'."""
    session = TableSession(match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 5h 2b 3h"))
    screen = Screen()
    controller = Controller(session, Display(), screen.show, lambda: None)
    controller.state.view = session.view
    await controller.handle_line("Q x 5s+5h")
    assert screen.take() == "You hold no card of rank Q."
    await controller.handle_line("K x 5s 2b")
    said = "illegal play: 'Kb x 2b+5s': those cards do not add up to the card played"
    assert screen.take() == said
    assert session.submitted == []
    await controller.handle_line("K x 5s+5h")
    assert session.submitted == [Play(parse_card("Kb"), (parse_card("5s"), parse_card("5h")))]


async def test_a_group_may_be_joined_with_and() -> None:
    session = TableSession(match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 5h 2b 3h"))
    screen = Screen()
    controller = Controller(session, Display(), screen.show, lambda: None)
    controller.state.view = session.view
    await controller.handle_line("Kb takes 5h and 5s")
    assert session.submitted == [Play(parse_card("Kb"), (parse_card("5h"), parse_card("5s")))]
