"""What the client does with a typed line and with each event from the session.

The controller runs on the trio side. It keeps the :class:`ClientState` the prompt reads
(current view, choices waiting for an answer, connection state), turns events into lines of
text, and turns typed lines into plays and commands. It prints through a callback and never
touches the terminal itself, so it can be tested without one.

Its parts, one job each: :mod:`.screen_lines` (what is printed, and when), :mod:`.session_events`
(each event from the session), :mod:`.typed_moves` (a card typed, to a move sent),
:mod:`.leaving` (quit, Ctrl-D, and the answer), :mod:`.table_commands` (help, who, score...);
:mod:`.asking` and :mod:`.client_state` hold what the prompt reads. This module keeps the
state, and sends each typed line to the part that answers it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping

import trio
from prompt_toolkit.formatted_text import FormattedText

from scopa_net.client.asking import Asking, what_to_answer
from scopa_net.client.client_state import ClientState
from scopa_net.client.commands import (
    Choose,
    CommandError,
    PlayCard,
    Rename,
    Rules,
    Say,
    Simple,
    parse_command,
)
from scopa_net.client.leaving import Leaving
from scopa_net.client.screen_lines import Lines, ScreenLines
from scopa_net.client.session import Session
from scopa_net.client.session_events import SessionEvents
from scopa_net.client.style import Display
from scopa_net.client.table_commands import TableCommands
from scopa_net.client.typed_moves import NOT_PLAYED, TypedMoves
from scopa_net.plays import Play
from scopa_net.scoring import RoundScore
from scopa_net.typed import shown
from scopa_net.view import SeatView

ROUND_IS_OVER = "The round is over: press Enter for the next round."
"""A play (or a word that is none) typed at "Press Enter for the next round.": not played."""
HOW_TO_LEAVE = "Ctrl-C clears the line; to leave, type quit or press Ctrl-D."
TOO_LATE_TO_ANSWER = (
    "Too late: the vote on playing again is over and the table is closing; that answer was "
    "not sent."
)


class Controller(ScreenLines, SessionEvents, TypedMoves, Leaving, TableCommands):
    """Lines in, events in; text out through ``show`` and a quit request through ``quit``."""

    def __init__(
        self,
        session: Session,
        display: Display,
        show: Callable[[Lines], None],
        quit: Callable[[], None],
        *,
        plain: bool = False,
        screen: Callable[[], tuple[int, int]] | None = None,
        coach: bool = False,
        prompt: bool = True,
    ) -> None:
        """``screen`` gives the terminal's (columns, rows), 0 when not known: the score sheet
        is laid out for the width, and on a short terminal it waits for Enter before the
        next round's board pushes it off the screen. ``prompt``: lines are typed at the
        prompt, with Tab completion (False: lines read plain, as with --plain)."""
        self.session = session
        self.coach = coach
        self._coached: Play | None = None
        self._told_how_to_leave = False  # Ctrl-C on an empty line said how to leave
        self._rematch_closed = False
        """The vote on playing again ended without one: a y or n typed now is too late."""
        self.state = ClientState(seat=session.seat, names=session.names, display=display)
        self.state.view = session.view
        if session.view is not None:
            self.state.scores = session.view.scores_now  # a round just over counted (3.9)
        self.state.connection = session.connection
        self._print = show
        self._show = self._out
        self._quit = quit
        self._leaving = False
        """The person chose to leave (or step away) and was told what becomes of the seat:
        the connection closing then is what they asked for, not news to say. Set only by
        :meth:`~.leaving.Leaving._go`, the one way out of a table a person chose to leave."""
        self._plain = plain
        self._prompt = prompt
        self._screen = screen or (lambda: (0, 0))
        self._held: list[FormattedText] | None = None
        """Lines kept back while a score sheet waits to be read (a short terminal)."""
        self._board_due = False
        self._last_round: tuple[SeatView, RoundScore, tuple[int, ...]] | None = None
        self._partners_told = False
        """Who plays with whom was said for the match in play (once a match)."""
        self._sat_out_told = 0
        """The round whose board said that a computer plays this seat (once a round)."""
        self._turn_said_back: tuple[int, int] | None = None
        """The turn (round, plays made) said as the connection came back: the same table
        sent again (a snapshot) draws no board to say it twice."""
        self._left_at: tuple[int, int, bool] | None = None
        """Back after a lost connection, until the host has caught this client up: the
        table (round, plays made, round over) as the screen showed it when the link went.
        Meanwhile what was missed is told play by play, with no board nor "Your turn." of a
        table gone by; the board as it is now comes once the catch-up is read."""
        self._round_missed = False
        """A round began during the catch-up (its board was kept back until it is read)."""
        self._ended_marks: tuple[Collection[int], Mapping[int, str]] = ((), {})
        """The last round's computer plays and play makers (see :meth:`_computer_plays`), as
        they were at its end: the next round's start forgets them in the session."""
        self._looking_back = False
        """A command typed at "Press Enter for the next round." runs now: on the round just
        ended, its words printed at once (not kept back with the next round's)."""
        self.log: list[str] = []
        self._moves: trio.Nursery | None = None
        self._on_its_way: Play | None = None
        self._said_sent: Play | None = None
        self._links = 0
        """Connection changes seen: a move's silence is counted from the last one."""
        """The move "Sent ...; waiting for the host" was said for (once a move)."""
        """The move sent whose answer has not come back yet (``state.sent_from`` is the view
        it was played from: once another is shown, the move was answered)."""

    def interrupt(self, *, empty_line: bool = False) -> None:
        """Ctrl-C: drop the question being asked (which group, leave or stay, play it anyway);
        on an empty line with no question, say once how to leave (Ctrl-C only clears)."""
        state = self.state
        if state.asking is Asking.WHICH_GROUP:
            self._forget_choices()
            self._say("Choice dropped: type a card to play.")
        elif state.asking in (Asking.CONFIRM_QUIT, Asking.LEAVE_OR_AWAY):
            state.asking = Asking.NOTHING
            self._say("Staying at the table.")
        elif state.asking is Asking.CONFIRM_PLAY:
            self._coached = None
            state.asking = Asking.NOTHING
            self._say(NOT_PLAYED)
        elif empty_line and not self._told_how_to_leave:
            self._told_how_to_leave = True
            self._say(HOW_TO_LEAVE)
        else:
            return
        state.changed()

    async def handle_line(self, line: str) -> None:
        """Act on one typed line. Refusals print why and change nothing."""
        state = self.state
        self._told_how_to_leave = False  # a line typed: the next empty Ctrl-C says it again
        if self._held is not None:
            if not line.strip():
                self._release()  # Enter after a score sheet: on to the next round
            else:
                with self._at_the_pause():
                    await self._typed_at_pause(line)
            state.changed()
            return
        await self._typed(line)

    async def _typed(self, line: str) -> None:
        """Act on one typed line, the game under way."""
        state = self.state
        if not line.strip():
            if state.asking is not Asking.NOTHING:
                self._say(what_to_answer(state.asking, len(state.choices)))
            return
        if state.asking is Asking.LEAVE_OR_AWAY:
            await self._answer_leave(line)
            state.changed()
            return
        if state.asking is Asking.CONFIRM_PLAY:
            await self._confirm_play(line)
            state.changed()
            return
        if state.asking is Asking.CONFIRM_QUIT:
            state.asking = Asking.NOTHING
            if line.strip().lower() in {"y", "yes"}:
                self._say(self.LEAVING)
                self._say_unfinished()
                await self._go()
            else:
                self._say("Staying at the table.")
            state.changed()
            return
        if self._rematch_closed and line.strip().lower() in {"y", "yes", "n", "no"}:
            self._say(TOO_LATE_TO_ANSWER)
            return
        if state.asking is Asking.REMATCH and line.strip().lower() in {"y", "yes", "n", "no"}:
            state.asking = Asking.NOTHING
            agree = line.strip().lower() in {"y", "yes"}
            await self.session.rematch(agree)  # type: ignore[attr-defined]
            self._say("Waiting for the others to answer." if agree else "No rematch.")
            state.changed()
            return
        if await self._bare_rank(line.strip()):
            state.changed()
            return
        try:
            command = parse_command(line, self.display.scheme)
        except CommandError as exc:
            if state.asking is Asking.REMATCH:  # not a card: an answer to the question
                self._error(f"Answer y or n. {what_to_answer(Asking.REMATCH)}")
            elif state.asking is Asking.WHICH_GROUP:  # the question waits: say what it takes
                wants = what_to_answer(Asking.WHICH_GROUP, len(state.choices))
                self._error(f"{shown(line.strip())} is not one of the choices. {wants}")
            else:
                self._error(str(exc))
            return
        if state.asking is Asking.REMATCH and isinstance(command, PlayCard | Choose):
            self._error("The match is over: answer y or n (play again with the same players?).")
            return
        match command:
            case Choose(number=number):
                await self._choose(number)
            case PlayCard(card=card, group=group):
                await self._play(Play(card, group or ()), group is None)
            case Say(text=text):
                await self.session.say(text)
            case Rename(name=name):
                await self._rename(name)
            case Simple(name="quit") if state.asking is Asking.REMATCH:
                # Leaving is a no: the others are not kept waiting for an answer.
                state.asking = Asking.NOTHING
                no = functools.partial(self.session.rematch, False)  # type: ignore[attr-defined]
                await self._go(no, after="No rematch; leaving the table.")
            case Simple(name="hint"):
                await self._hint()
            case Simple(name="quit") if self.waiting_at_a_table():
                await self._leave_waiting_table()
            case Simple(name=name):
                self._simple(name)
            case Rules(topic=topic):
                self._rules(topic)
        state.changed()

    async def _typed_at_pause(self, line: str) -> None:
        """A line typed at "Press Enter for the next round.": a command (``log``, ``score``,
        ``board``, ``who``, ``help``...) runs on the round just ended and the prompt stays;
        nothing typed there is ever played (the next hand is not seen yet): a card, a
        choice, ``hint`` or a word that is no command says so in one line."""
        if self.state.asking in (Asking.CONFIRM_QUIT, Asking.LEAVE_OR_AWAY):
            await self._typed(line)  # the answer to ``quit`` typed here
            return
        try:
            command = parse_command(line, self.display.scheme)
        except CommandError:
            command = None
        match command:
            case Simple(name="hint") | PlayCard() | Choose() | None:
                self._say(ROUND_IS_OVER, "class:error")
            case Simple(name=name):
                self._simple(name)
            case Rules(topic=topic):
                self._rules(topic)
            case Say(text=text):
                await self.session.say(text)
            case Rename(name=name):
                await self._rename(name)
