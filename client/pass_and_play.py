"""Pass-and-play: several people at one terminal, each at a seat of their own.

Each person has a real seat on the embedded host (a session of its own, with its own deal
check and transcript); one prompt serves them all. Whoever has the keyboard sees their hand
only while it is their turn:

- when a person's turn comes, the screen and the terminal's scrollback are cleared, and only
  the public table is shown with "Bruno's turn: press Enter when Bruno has the keyboard";
- Enter shows Bruno's hand and lets Bruno play (hint, board, help... work as in ``play``);
- as soon as Bruno's play is accepted, the screen and scrollback are cleared again.

Everything public (plays, score sheets, every seat's deal check, the match result) is printed
once; what was printed since the last clear and still matters (a score sheet, the deal checks)
is printed again after it, so no one misses it.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager, suppress
from functools import partial
from pathlib import Path
from typing import Any

import trio
from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.history import History
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output, create_output
from prompt_toolkit.patch_stdout import patch_stdout

from scopa_net.client import render
from scopa_net.client.app import LINE_BUFFER, Printer, exit_status, take_prompt_down
from scopa_net.client.asking import Asking, answer_prompt
from scopa_net.client.commands import COMMANDS, CommandError, Rules, Simple, parse_command
from scopa_net.client.completion import PlayCompleter
from scopa_net.client.config import Settings
from scopa_net.client.controller import Controller
from scopa_net.client.embedded import open_embedded_game
from scopa_net.client.guest import run_beside_prompt
from scopa_net.client.job_control import JobControl
from scopa_net.client.keys import make_key_bindings
from scopa_net.client.launch import one_line_failures, until_terminated
from scopa_net.client.leaving_words import unfinished_lines
from scopa_net.client.network_session import (
    CHECK_IT,
    VERIFY,
    TableChoice,
    open_network_session,
)
from scopa_net.client.scoresheet import final_score, rounds_taken, score_sheet
from scopa_net.client.screen_lines import Lines
from scopa_net.client.session import (
    Event,
    MatchOver,
    Message,
    RematchClosed,
    RoundOver,
    Session,
    VoidDeal,
)
from scopa_net.client.sitting_down import YOU_SIT_AT
from scopa_net.client.style import Display
from scopa_net.client.table_words import NOT_FULL_YET
from scopa_net.client.toolbar import app_columns, shared_toolbar_text
from scopa_net.client.typed_lines import TypedLines
from scopa_net.errors import IllegalPlayError
from scopa_net.match import won_by_cappotto
from scopa_net.plays import Play
from scopa_net.rules import RuleSet
from scopa_net.score_line import after_name
from scopa_net.view import SeatView

#: Home the cursor, erase the display, erase the scrollback (xterm's ED 3; tmux, VTE, iTerm).
CLEAR_SCREEN = "\x1b[H\x1b[2J\x1b[3J"
REMATCH_QUESTION = "Play again, all of you at this terminal, with the same players?"
#: Where escapes do nothing (TERM=dumb), blank lines push the last hand off the screen.
BLANK_LINES = 60

#: An Enter this soon (seconds) after a handover is shown is not taken as the next person's:
#: a double press, or a paste ending in a newline, by the person before.
HANDOVER_GUARD = 1.5

#: Said when one person leaves: every seat at this terminal leaves with them.
LEAVING_ALL = "Leaving the table: the match ends for everyone at this terminal."

SessionsOpener = Callable[[], AbstractAsyncContextManager[list[Session]]]


DEAL_CHECK = "deal check: "
TRANSCRIPT_SAVED = "Transcript saved: "
"""How a seat's own deal-check message starts (any case); shown with the seat's name."""


class _Clear(FormattedText):
    """The marker for "clear the screen here" in the printer's queue."""


CLEAR = _Clear()


class ScreenPrinter(Printer):
    """The app's printer, which can also clear the screen and the scrollback between lines."""

    def __init__(self, *args: Any, escapes: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.escapes = escapes

    def _write(self, line: FormattedText, width: int) -> None:
        if line is CLEAR:
            self._clear()
        else:
            super()._write(line, width)

    def _clear(self) -> None:
        if self.escapes:
            self.output.write_raw(CLEAR_SCREEN)
        else:
            self.output.write_raw("\n" * BLANK_LINES + "-" * 40 + " (screen cleared)\n")
        self.output.flush()


def public_board(view: SeatView, names: Sequence[str], display: Display, *, plain: bool) -> Lines:
    """The table as everyone may see it: the board without the hand and without "Your turn"."""
    if plain:
        rows = render.plain_board(view, names, display)[:-1]
        rows = [r for r in rows if not r.startswith("Your hand")] + plays_since(
            view, names, display
        )
        return [FormattedText([("", r)]) for r in rows]
    rows = render.board_lines(view, names, display)[:-1]
    return [r for r in rows if not (r and r[0][1].startswith("Your hand"))]


def plays_since(view: SeatView, names: Sequence[str], display: Display) -> list[str]:
    """In words, what was played this round since ``view.seat``'s last play (all of the
    round if they have not played yet): what the screen's "Last" rows show without --plain."""
    mine = [n for n, record in enumerate(view.plays) if record.seat == view.seat]
    since = view.plays[mine[-1] + 1 :] if mine else view.plays
    if not since:
        return []
    name = render.seat_label(view.seat, view, names)
    when = f"{name}'s last turn" if mine else "the round began"
    return [f"Since {when}:"] + [render.play_words(r, view, names, display) for r in since]


class SeatController(Controller):
    """A person's controller: their hand is on screen only while ``revealed``."""

    QUIT_QUESTION = (
        "The match is not over: leaving ends it for everyone at this terminal. Really leave?"
    )
    LEAVING = LEAVING_ALL

    def __init__(self, *args: Any, on_played: Callable[[], None], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.revealed = False
        self._on_played = on_played

    def show_board(self) -> None:
        """The board with the hand while revealed; otherwise nothing (the app shows the
        public table when a turn is handed over, and for ``board``)."""
        if self.revealed:
            super().show_board()

    def _say_unfinished(self) -> None:
        """Nothing: the app tells every seat's unfinished transcript once everyone leaves."""

    def _seat_called_you(self) -> int | None:
        """Nobody is "you" in ``who`` while nobody holds the keyboard."""
        return self.state.seat if self.revealed else None

    async def _submit(self, play: Play) -> None:
        self._forget_choices()
        try:
            await self.session.submit(play)
        except IllegalPlayError as exc:
            self._error(str(exc))
            return
        self._on_played()

    @property
    def my_turn(self) -> bool:
        """From the session's latest view (the state's may not have seen the last event)."""
        view = self.session.view
        return view is not None and view.my_turn and not view.round_over


class TurnHistory(History):
    """Each person's own typed lines: Up at a prompt never brings back what another person
    typed (a card they were warned off, a capture that was refused). ``owner`` is the person
    at the keyboard, or None while nobody is (a handover's "press Enter" included: whoever
    sits there then may not be its owner). While nobody is, only the lines ``public`` says
    yes to are kept (``board``, ``log``...), in a history of their own."""

    def __init__(self, public: Callable[[str], bool] = lambda _: False) -> None:
        super().__init__()
        self.owner: int | None = None
        self._public = public
        self._lines: dict[int | None, list[str]] = {}

    async def load(self) -> AsyncGenerator[str, None]:
        for line in list(self._lines.get(self.owner, ())):
            yield line

    def get_strings(self) -> list[str]:
        return self._lines.get(self.owner, [])[::-1]

    def append_string(self, string: str) -> None:
        if self.owner is None and not self._public(string):
            return
        self._lines.setdefault(self.owner, []).insert(0, string)

    def load_history_strings(self) -> Iterable[str]:
        return ()

    def store_string(self, string: str) -> None:
        pass


class PassAndPlayApp:
    """Run several seats' sessions behind one prompt until the match ends or they leave."""

    def __init__(
        self,
        open_sessions: SessionsOpener,
        display: Display,
        *,
        plain: bool = False,
        escapes: bool = True,
        input: Input | None = None,
        output: Output | None = None,
        on_screen: Callable[[PassAndPlayApp], None] | None = None,
        coach: bool = False,
        guard: float = HANDOVER_GUARD,
    ) -> None:
        self.coach = coach
        self.guard = guard
        self._keyboard_left_at = 0.0
        """When (``time.monotonic``) the keyboard last left a person: a line typed before
        then was typed by them, and acts in nobody else's turn."""
        self._handed_over_at = 0.0
        self._told_too_soon = False
        self._open_sessions = open_sessions
        self.display = display
        self.plain = plain
        self.escapes = escapes
        self._input = input
        self._output = output
        self._on_screen = on_screen
        self.seats: list[SeatController] = []
        self.active: int | None = None
        """The person whose hand is on screen (an index into ``seats``)."""
        self.waiting: int | None = None
        """The person whose turn it is, until they press Enter."""
        self._carry: list[FormattedText] = []
        self._on_screen_now: set[str] = set()
        """The text of each line printed since the screen was last cleared."""
        self._in_order: dict[str, list[list[list[FormattedText]]]] = {}
        """Lines every seat's own client prints once a round or a match (its deal check, where
        its transcript was saved), by kind, then by seat, not yet printed: they are printed in
        seat order once every seat has said its line (each seat's events come in on their
        own, in no fixed order)."""
        self._transcript_told: dict[int, list[FormattedText]] = {}
        """A seat's lines on its transcript, until its last (the command) is in."""
        self.asking_rematch = False
        """The match is over and "play again?" is waiting for y or n."""
        self._typed = TypedLines()
        """Lines typed that the game has not handled yet (no "y/n? " drawn meanwhile)."""
        self.matches_over = 0
        self._token: trio.lowlevel.TrioToken | None = None
        self._scope: trio.CancelScope | None = None
        self._lines: trio.MemorySendChannel[tuple[str, float]] | None = None
        self._prompt: PromptSession[str] | None = None
        self._listeners: list[Callable[[], None]] = []
        self._closing = False
        self.history = TurnHistory(lambda line: _public_command(line, display) is not None)

    # --- asyncio side (as in ClientApp) -------------------------------------------------------

    def _stop_prompt(self, prompt: asyncio.Task[None]) -> None:
        self._closing = True
        take_prompt_down(self._prompt, prompt)

    async def run(self) -> int:
        loop = asyncio.get_running_loop()
        output = self._output or create_output()
        self.printer = ScreenPrinter(output, self.display.style(), loop, escapes=self.escapes)
        try:
            done, prompt = await run_beside_prompt(
                self._trio_main,
                lambda ready: self._prompt_loop(ready, output),
                cancel_trio=lambda: self._call_trio(self._cancel),
                stop_prompt=self._stop_prompt,
            )
        finally:
            self.printer.app = None
            self.printer.flush()
        return exit_status(done, prompt, self.printer)

    def terminated(self) -> str:
        """Once SIGTERM stopped the match: the screen and scrollback cleared, as for Ctrl-Z,
        so that no hand stays on the terminal for the next person to read; what is lost.
        After SIGHUP the terminal is gone, and its hands with it: nothing to clear."""
        with suppress(OSError):
            self._hide_for_stop(self.printer.output)
        return "a pass-and-play match cannot be continued"

    def _confirming_quit(self) -> bool:
        """Whether "Really leave?" waits for its answer."""
        return any(seat.state.asking is Asking.CONFIRM_QUIT for seat in self.seats)

    def _message(self) -> FormattedText:
        asked = self._confirming_quit() or self.asking_rematch
        if asked and self._typed.waiting:
            return FormattedText([])
        if self._confirming_quit():
            return FormattedText([("class:prompt", answer_prompt(Asking.CONFIRM_QUIT))])
        if self.asking_rematch:
            return FormattedText([("class:prompt", answer_prompt(Asking.REMATCH))])
        if self.waiting is not None:
            who = self.seats[self.waiting].state.names[self.seats[self.waiting].state.seat]
            return FormattedText([("class:prompt", f"{who}: press Enter ")])
        if self.active is not None:
            state = self.seats[self.active].state
            asked = answer_prompt(state.asking, len(state.choices))
            if asked is not None:
                return FormattedText([("class:prompt", asked)])
            return FormattedText([("class:prompt", f"{state.names[state.seat]}> ")])
        return FormattedText([("class:prompt", "scopa> ")])

    def _toolbar(self) -> FormattedText:
        lead = self.seats[0].state
        view = lead.view
        if view is None:
            return FormattedText([("", " waiting for the deal ")])
        if lead.match_over:
            turn = "match over"
        elif view.round_over or view.to_move is None:
            turn = "round over"
        else:
            turn = f"{render.seat_label(view.to_move, view, lead.names)} to play"
        return shared_toolbar_text(lead, turn, app_columns())

    async def _prompt_loop(self, ready: asyncio.Future[None], output: Output) -> None:
        await ready
        board = partial(self._call_trio, self._show_board)
        jobs = JobControl(lambda: session.app, board, on_stop=partial(self._hide_for_stop, output))
        session: PromptSession[str] = PromptSession(
            self._message,
            completer=_ActiveCompleter(self),
            history=self.history,
            complete_while_typing=False,
            key_bindings=make_key_bindings(
                board,
                lambda empty: self._call_trio(self._interrupt, empty),
                suspend=jobs.suspend,
            ),
            bottom_toolbar=None if self.plain else self._toolbar,
            style=self.display.style(),
            include_default_pygments_style=False,
            input=self._input,
            output=output,
        )
        self._prompt = session
        self.printer.app = session.app
        self._listeners.append(session.app.invalidate)
        with jobs:
            await self._read_lines(session)

    def _hide_for_stop(self, output: Output) -> None:
        """Ctrl-Z: the screen and scrollback cleared before the shell takes the terminal, so
        no hand stays on it under "Stopped"; ``fg`` shows the board again."""
        if self.escapes:
            output.write_raw(CLEAR_SCREEN)
            output.flush()

    async def _read_lines(self, session: PromptSession[str]) -> None:
        while True:
            try:
                line = await session.prompt_async()
            except KeyboardInterrupt:
                continue
            except EOFError:
                in_match = any(seat.state.in_match for seat in self.seats)
                if self.asking_rematch and not self._closing:
                    self._send_line("n")  # "No rematch."
                    continue
                if self._closing or not in_match:
                    return
                # Ctrl-D during the match asks first, as quit does; at the question, it leaves.
                self._send_line("y" if self._confirming_quit() else "quit")
                continue
            self._send_line(line)

    def _send_line(self, line: str) -> None:
        """Hand a line typed now to the game (trio side)."""
        if self._token is not None:
            with suppress(trio.RunFinishedError):
                self._token.run_sync_soon(self._deliver_line, line, time.monotonic())
                self._typed.sent()

    def _call_trio(self, fn: Callable[..., object], *args: object) -> None:
        if self._token is not None:
            with suppress(trio.RunFinishedError):
                self._token.run_sync_soon(fn, *args)

    # --- trio side ----------------------------------------------------------------------------

    def _interrupt(self, empty: bool) -> None:
        """Ctrl-C: drop the question being asked (the person at the keyboard's, or the
        table's "Really leave?" asked while nobody holds it); on an empty line with none,
        say how to leave."""
        seat = self.seats[self.active if self.active is not None else 0] if self.seats else None
        if seat is not None:
            seat.interrupt(empty_line=empty)
            self._changed()

    def _cancel(self) -> None:
        if self._scope is not None:
            self._scope.cancel()

    def _deliver_line(self, line: str, typed_at: float) -> None:
        """A line accepted at the prompt at ``typed_at`` (``time.monotonic``)."""
        assert self._lines is not None
        try:
            self._lines.send_nowait((line, typed_at))
        except (trio.WouldBlock, trio.ClosedResourceError, trio.BrokenResourceError):
            self._typed.handled(self._prompt)

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener()
        if self._on_screen is not None:
            self._on_screen(self)

    def _show_for(self, index: int) -> Callable[[Lines], None]:
        """Seat ``index``'s output: the first seat prints what is public (its board is the
        public one unless revealed), the others only while they have the keyboard."""

        def show(lines: Lines) -> None:
            if index == self.active or (index == 0 and self.active is None):
                self._print(lines)

        return show

    def _public(self, lines: Lines, *, carry: bool = False) -> None:
        self._print(lines)
        if carry:
            self._carry.extend(lines)

    def _print(self, lines: Lines) -> None:
        self.printer.show(lines)
        self._on_screen_now.update(render.plain([line]) for line in lines)

    def _clear(self, first: Lines = ()) -> None:
        """Clear the screen and scrollback, print ``first``, then print again what must not be
        missed (a score sheet, the deal checks, the match's result)."""
        self.printer.show([CLEAR])
        self._on_screen_now = set()
        carried, self._carry = self._carry, []
        self._print([*first, *carried])

    async def _trio_main(self, ready: asyncio.Future[None]) -> None:
        self._token = trio.lowlevel.current_trio_token()
        with trio.CancelScope() as scope:
            self._scope = scope
            async with self._open_sessions() as sessions:
                for index, session in enumerate(sessions):
                    self.seats.append(
                        SeatController(
                            session,
                            self.display,
                            self._show_for(index),
                            partial(self._leave, scope),
                            plain=self.plain,
                            coach=self.coach,
                            on_played=lambda index=index: self._played(index),
                        )
                    )
                send, receive = trio.open_memory_channel[tuple[str, float]](LINE_BUFFER)
                self._lines = send
                ready.set_result(None)
                names = ", ".join(s.state.names[s.state.seat] for s in self.seats)
                self._public([FormattedText([("class:heading", f"Pass and play: {names}.")])])
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._pump_lines, receive)
                    async with trio.open_nursery() as pumps:
                        for index, session in enumerate(sessions):
                            pumps.start_soon(self._pump_events, index, session)
                    self._flush_seat_lines()
                    scope.cancel()

    def _leave(self, scope: trio.CancelScope) -> None:
        """Someone leaves, and everyone with them: a hand on the screen is cleared first, as
        at a handover, and the leaving line said again under the clear; then the score so
        far and where each person's transcript of the match so far is saved."""
        told = [FormattedText([("", line)]) for line in self._leaving_lines()]
        if self.active is not None:
            self.seats[self.active].revealed = False
            self.active = None
            self._keyboard_to(None)
            self._clear([FormattedText([("", LEAVING_ALL)]), *told])
        else:
            self._print(told)
        scope.cancel()

    def _leaving_lines(self) -> list[str]:
        """The score so far, then each person's unfinished transcript, by name."""
        lead = self.seats[0].state
        view = lead.view
        lines = []
        if view is not None and lead.scores:
            sides = [render.side_label(side, view, lead.names) for side in range(len(lead.scores))]
            mark = after_name(sides)  # "bot 1: 0", never "bot 1 0"
            score = ", ".join(f"{s}{mark}{p}" for s, p in zip(sides, lead.scores, strict=True))
            lines.append(
                f"Score so far, from the rounds played out: {score} (the match was to "
                f"{view.rules.target}). A match left cannot be continued later."
            )
        for seat in self.seats:
            name = seat.state.names[seat.state.seat]
            said = unfinished_lines(seat.session)
            lines.extend(f"{name}: {line}" if n == 0 else line for n, line in enumerate(said))
        return lines

    async def _pump_events(self, index: int, session: Session) -> None:
        async for event in session.events:
            self._event(index, event)
            self._check_turns()
            self._changed()

    def _event(self, index: int, event: Event) -> None:
        seat = self.seats[index]
        name = seat.state.names[seat.state.seat]
        match event:
            case RematchClosed():
                # "no rematch (...): the table is closing": the question ends with it (it
                # asked "y/n?" on under that line until the terminal closed).
                self.asking_rematch = False
            case Message(seat=None, text=text, local=True):
                # Each seat's own client speaking: its deal check, its transcript, a warning.
                style = "class:error" if "FAILED" in text else "class:notice"
                if text.startswith(YOU_SIT_AT) or text.endswith(f"{NOT_FULL_YET}."):
                    # Every seat is taken at once, by the people named on the command line:
                    # "Carla: You sit at table 1, seat 2." and "Bruno: Waiting for 1 more
                    # player" only puzzled them.
                    return
                if text.lower().startswith(DEAL_CHECK):
                    # Read by everyone at the terminal: "you" would be anyone's.
                    said = text[len(DEAL_CHECK) :].replace("dealer you", f"dealer {name}")
                    line = f"{name}'s deal check: {said}"
                    self._in_seat_order(DEAL_CHECK, index, [FormattedText([(style, line)])])
                elif text.startswith((TRANSCRIPT_SAVED, CHECK_IT, VERIFY)):
                    # A person's lines on their transcript together, the command whole.
                    shown = text if text.startswith(VERIFY) else f"{name}: {text}"
                    told = self._transcript_told.setdefault(index, [])
                    told.append(FormattedText([(style, shown)]))
                    if text.startswith(VERIFY):
                        self._in_seat_order(TRANSCRIPT_SAVED, index, told)
                        del self._transcript_told[index]
                else:
                    self._public([FormattedText([(style, f"{name}: {text}")])], carry=True)
                return
            case Message() if index != 0:
                return  # chat and the host's notices: printed once, by the first seat
            case RoundOver(view=view, score=score, match_scores=scores) if index == 0:
                # The last play was printed by whoever held the keyboard then, or by nobody
                # if it came in while the keyboard was changing hands: print it once.
                last = [seat.record_line(view, view.plays[-1])] if view.plays else []
                self._public(
                    [line for line in last if render.plain([line]) not in self._on_screen_now]
                )
                seat.handle_event(event)  # the table's last cards, the sheet
                # Carried past the next handover's clear: how the round ended, then its sheet.
                self._carry.extend(last)
                self._carry.extend(seat.leftover_lines(view))
                self._carry.extend(score_sheet(view, score, scores, seat.state.names))
                return
            case VoidDeal() if index == 0:
                seat.handle_event(event)
                return
            case MatchOver(winner=winner, match_scores=scores, rounds=rounds, voids=voids):
                seat.state.match_over = True
                seat.state.scores = scores
                if index == 0 and seat.state.view is not None:
                    # Carried: the last play's clear may come just after these lines.
                    taken = rounds_taken(rounds, voids)
                    result = match_line(seat.state.view, winner, scores, taken, seat.state.names)
                    self._public([result], carry=True)
                    self.matches_over += 1
                    if getattr(seat.session, "offer_rematch", False):
                        self.asking_rematch = True
                        self._public([FormattedText([("", REMATCH_QUESTION)])], carry=True)
                return
        seat.handle_event(event)

    def _in_seat_order(self, kind: str, index: int, block: list[FormattedText]) -> None:
        """A seat's lines of ``kind`` are in: print that kind's lines, in seat order (each
        seat's together), once every seat has said them."""
        blocks = self._in_order.setdefault(kind, [[] for _ in self.seats])
        blocks[index].append(block)
        while all(blocks):
            self._public([line for said in blocks for line in said.pop(0)], carry=True)

    def _flush_seat_lines(self) -> None:
        """The sessions have ended: print the lines that came in, each kind in seat order."""
        for index, told in sorted(self._transcript_told.items()):
            self._in_seat_order(TRANSCRIPT_SAVED, index, told)
        self._transcript_told.clear()
        for blocks in self._in_order.values():
            while any(blocks):
                self._public([line for said in blocks if said for line in said.pop(0)], carry=True)

    def _check_turns(self) -> None:
        """Start a handover when a person's turn has come and nobody holds the keyboard."""
        if self.active is not None or self.waiting is not None:
            return
        for index, seat in enumerate(self.seats):
            if seat.my_turn and not seat.state.match_over and self._public_caught_up(seat):
                self._hand_over(index)
                return

    def _public_caught_up(self, seat: SeatController) -> bool:
        """Whether the first seat, which prints what is public, has shown every play that
        ``seat``'s session has seen. Each seat's events come in on their own, so without this
        "Bruno plays Ah" could come under "Ada's turn: press Enter"; the lead seat's next
        event checks the turns again."""
        lead, view = self.seats[0].state.view, seat.session.view
        if lead is None or view is None:
            return False
        return (lead.round_number, len(lead.plays)) >= (view.round_number, len(view.plays))

    def _hand_over(self, index: int) -> None:
        seat = self.seats[index]
        view = seat.session.view
        assert view is not None
        self.waiting = index
        self._keyboard_to(None)  # whoever still sits there reaches nobody's own lines
        self._handed_over_at = time.monotonic()
        self._told_too_soon = False
        name = seat.state.names[seat.state.seat]
        self._clear()
        self.printer.show(public_board(view, seat.state.names, self.display, plain=self.plain))
        self.printer.show(
            [
                FormattedText(
                    [("class:turn", f"{name}'s turn: press Enter when {name} has the keyboard.")]
                )
            ]
        )

    def _keyboard_to(self, person: int | None) -> None:
        """Whose typed lines Up brings back from now on: the prompt drops the lines it had
        loaded and loads that person's at its next drawing. When the keyboard leaves a
        person, what they typed and did not send yet is thrown away with it."""
        self.history.owner = person
        if person is None:
            self._keyboard_left_at = time.monotonic()
        if self._prompt is not None:
            buffer = self._prompt.default_buffer
            buffer.reset(None if person is None else buffer.document)

    def _reveal(self) -> None:
        index = self.waiting
        assert index is not None
        self.waiting = None
        self.active = index
        self._keyboard_to(index)
        seat = self.seats[index]
        seat.revealed = True
        seat.show_board()

    def _played(self, index: int) -> None:
        """The person's play is in: hide their hand at once. After the round's last card
        there is no hand left to hide, and the screen stays, so the round's end (its last
        play, the table's last cards, the sheet) comes under it."""
        seat = self.seats[index]
        seat.revealed = False
        if self.active == index:
            self.active = None
            self._keyboard_to(None)
        name = seat.state.names[seat.state.seat]
        view = seat.session.view  # with this play in it (submit waits for its event)
        if view is not None and not any(view.hand_counts) and not view.stock_count:
            self._public([FormattedText([("", f"{name} has played the round's last card.")])])
        else:
            self._clear([FormattedText([("", f"{name} has played. Pass the keyboard on.")])])
        self._check_turns()
        self._changed()

    def _show_board(self) -> None:
        if self.active is not None:
            self.seats[self.active].show_board()
        elif self.seats and self.seats[0].state.view is not None:
            lead = self.seats[0]
            self.printer.show(
                public_board(lead.state.view, lead.state.names, self.display, plain=self.plain)  # type: ignore[arg-type]
            )

    async def _pump_lines(self, lines: trio.MemoryReceiveChannel[tuple[str, float]]) -> None:
        async for line, typed_at in lines:
            try:
                if self._typed_for_someone_else(line, typed_at):
                    continue
                await self._line(line)
            finally:
                self._typed.handled(self._prompt)
            self._changed()

    def _typed_for_someone_else(self, line: str, typed_at: float) -> bool:
        """Whether ``line`` must be thrown away: typed before the keyboard left the person
        who typed it (type-ahead, a double Enter, a paste ending in a newline), or an Enter
        so soon after a handover was shown that it cannot be the next person's."""
        if typed_at < self._keyboard_left_at:
            return True
        if self.waiting is None or line.strip() or typed_at >= self._handed_over_at + self.guard:
            return False
        if not self._told_too_soon:
            self._told_too_soon = True
            name = self.seats[self.waiting].state.names[self.seats[self.waiting].state.seat]
            self._error(
                f"That Enter came too soon after the last turn to be {name}'s: "
                f"{name}, press Enter again when you have the keyboard."
            )
        return True

    async def _line(self, line: str) -> None:
        if self.asking_rematch and line.strip().lower() in {"y", "yes", "n", "no"}:
            self.asking_rematch = False
            agree = line.strip().lower() in {"y", "yes"}
            for seat in self.seats:  # everyone at this terminal answers together
                await seat.session.rematch(agree)  # type: ignore[attr-defined]
            self.printer.show(
                [FormattedText([("", "Waiting for the host." if agree else "No rematch.")])]
            )
            return
        if self.waiting is not None and not line.strip():
            self._reveal()
            return
        if self.active is not None:
            await self.seats[self.active].handle_line(line)
            return
        if not line.strip():
            return
        if self._confirming_quit():
            await self.seats[0].handle_line(line)  # the y or n to "leave the match?"
            return
        # Nobody holds the keyboard: only what is public. Anything else would answer from a
        # seat's hand or speak for a seat (the first one's), whoever typed it.
        command = _public_command(line, self.display)
        if command == "board":
            self._show_board()
        elif command is not None:
            await self.seats[0].handle_line(line)
        elif self.waiting is not None:
            who = self.seats[self.waiting].state
            name = who.names[who.seat]
            self._error(f"It is {name}'s turn: press Enter when {name} has the keyboard.")
        else:
            self._error("Nobody here is to play now: wait for your turn.")

    def _error(self, text: str) -> None:
        self.printer.show([FormattedText([("class:error", text)])])


PUBLIC_COMMANDS = frozenset({"help", "board", "rules", "score", "last", "log", "who", "quit"})
"""What anyone may type while nobody holds the keyboard: none of it reads a hand or speaks
for a seat (``who`` calls nobody "you" then)."""


def _public_command(line: str, display: Display) -> str | None:
    """The command ``line`` names if it is one of :data:`PUBLIC_COMMANDS`, else None."""
    try:
        command = parse_command(line, display.scheme)
    except CommandError:
        return None
    match command:
        case Simple(name=name) if name in PUBLIC_COMMANDS:
            return name
        case Rules():
            return "rules"
    return None


def match_line(
    view: SeatView, winner: int, scores: Sequence[int], rounds: str, names: Sequence[str]
) -> FormattedText:
    """The match's end for everyone at the terminal: ``Ada wins the match, 11 to 7, after 3
    rounds.`` (by name: there is no "you" at a shared keyboard)."""
    who = render.side_label(winner, view, names)
    verb = "win" if " & " in who else "wins"
    final = final_score(view, winner, scores, names)
    how = " by cappotto" * won_by_cappotto(view.rules, scores)  # short of the target
    return FormattedText(
        [
            ("class:winner", f"{who} {verb} the match{how}"),
            ("", f"{final}, after {rounds}."),
        ]
    )


class _ActiveCompleter(Completer):
    """The active person's completions; only the command names while nobody holds the keys."""

    def __init__(self, app: PassAndPlayApp) -> None:
        self.app = app
        self._completers: dict[int, PlayCompleter] = {}

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        index = self.app.active
        if index is not None:
            if index not in self._completers:
                self._completers[index] = PlayCompleter(self.app.seats[index].state)
            yield from self._completers[index].get_completions(document, complete_event)
            return
        typed = document.text_before_cursor.lstrip().lower()
        for name, meta in COMMANDS.items():
            if name.startswith(typed):
                yield Completion(name, start_position=-len(typed), display_meta=meta)


@asynccontextmanager
async def open_pass_and_play(
    rules: RuleSet,
    names: Sequence[str],
    *,
    level: str = "greedy",
    delay: float = 0.8,
    think: float = 1.0,
    data_dir: Path | None = None,
) -> AsyncIterator[list[Session]]:
    """An embedded host on loopback with a table for ``len(names)`` people and computer
    players in the other seats, and one seated session per person."""
    async with AsyncExitStack() as stack:
        first = await stack.enter_async_context(
            open_embedded_game(
                rules,
                name=names[0],
                level=level,
                delay=delay,
                think=think,
                humans=len(names),
                data_dir=data_dir,
                offer_rematch=True,  # the screen asks "play again?" after the match
            )
        )
        sessions: list[Session] = [first]
        for name in names[1:]:
            session = await stack.enter_async_context(
                open_network_session(
                    "127.0.0.1",
                    first.embedded_port,  # type: ignore[attr-defined]
                    TableChoice(table_id=first.table_id),
                    name=name,
                    data_dir=data_dir,
                    pin_host=False,  # the embedded host's key is new each time
                    offer_rematch=True,
                )
            )
            sessions.append(session)
        yield sessions


def run_pass_and_play_screen(
    open_sessions: SessionsOpener,
    settings: Settings,
    *,
    plain: bool,
    coach: bool = False,
    guard: float | None = None,
) -> int:
    """Run pass and play in this terminal until the match ends; the exit status."""
    display = settings.display(os.environ)
    if plain:
        display = Display(color=False, glyphs=False, suits=display.suits)
    escapes = os.environ.get("TERM", "") != "dumb"
    app = PassAndPlayApp(
        open_sessions,
        display,
        plain=plain,
        escapes=escapes,
        coach=coach,
        guard=HANDOVER_GUARD if guard is None else guard,
    )
    with one_line_failures(), patch_stdout(raw=True):
        return asyncio.run(until_terminated(app))
