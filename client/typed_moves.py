"""A card typed, to a move sent: a rank alone, a group to choose, the coach's question,
the hint, and the move on its way to the host until it answers."""

from __future__ import annotations

import functools
from collections.abc import Sequence

import trio
from prompt_toolkit.formatted_text import FormattedText

from scopa_net.cards import CARDS
from scopa_net.client import hints, render
from scopa_net.client.asking import Asking
from scopa_net.client.moves import resolve_play
from scopa_net.client.session import ConnectionState, SessionEndedError
from scopa_net.client.style import text_line
from scopa_net.client.table_words import in_a_sentence
from scopa_net.errors import AmbiguousPlayError, IllegalPlayError, IllegalReason, NotationError
from scopa_net.notation import format_card, parse_play, split_play
from scopa_net.plays import Play
from scopa_net.typed import small_number
from scopa_net.view import SeatView

NOT_PLAYED = "Not played; choose again ('hint' suggests a play)."
SLOW_ANSWER = 1.0
"""Seconds a move waits for the host's answer before the screen says that it is waiting."""
NO_ANSWER_SHOWN = 5.0
"""Seconds a move sent on a live connection waits for its answer before the toolbar counts
them ("no answer from the host for 8 s"): a stall the connection does not notice yet."""


class TypedMoves:
    """Part of :class:`~scopa_net.client.controller.Controller`: the moves typed."""

    def send_moves_from(self, nursery: trio.Nursery) -> None:
        """Send each move from ``nursery`` rather than within its typed line: the lines typed
        after it (``board``, ``hint``, ``help``...) are answered while the host's answer is
        on its way, and another move meanwhile is refused at once."""
        self._moves = nursery

    @property
    def move_on_its_way(self) -> Play | None:
        """The move sent whose answer the host has not sent back yet, if any (once the
        screen shows the play, or any other view, it has come back)."""
        return self._on_its_way if self.state.move_sent else None

    async def _bare_rank(self, line: str) -> bool:
        """A rank alone (``7``, ``K``), or a value alone (``9``, the value the hand shows
        beside a queen), with a group after it or not (``K x 5h+5s``): the card of that rank
        or value in hand, if there is one only. True when the line was taken as such (played,
        or answered with why not)."""
        token, group = split_play(line) or (line, None)
        token = token.upper() if group is not None else token  # as the hand shows ranks
        view = self.state.view
        if self.state.choices or view is None or not view.hand or len(token) > 2:
            return False
        scheme = self.display.scheme
        if token.upper() in {format_card(c, scheme)[:-1].upper() for c in CARDS}:
            kind = "rank"
            same = [c for c in view.hand if format_card(c, scheme)[:-1].upper() == token.upper()]
        elif (value := small_number(token)) is not None and 1 <= value <= 10:
            kind = "value"
            same = [c for c in view.hand if c.rank == value]
        else:
            return False
        if len(same) == 1 and group is not None:
            try:  # the group read as it is after a whole card ("Kb x 5h+5s")
                _, taken = parse_play(f"{format_card(same[0])} x {group}", self.display.scheme)
            except NotationError as exc:
                self._error(f"{exc} (type 'help' for the commands)")
            else:
                await self._play(Play(same[0], taken or ()), False)
        elif len(same) == 1:
            await self._play(Play(same[0], ()), True)
        elif same:
            held = in_a_sentence([render.card_text(c, self.display) for c in same])
            self._error(f"You hold {held}: type the one to play.")
        else:
            self._error(f"You hold no card of {kind} {token}.")
        return True

    async def _choose(self, number: int) -> None:
        choices = self.state.choices
        if not choices:
            self._error(f"invalid choice: {number!r}: there is nothing to choose from")
            return
        if not 1 <= number <= len(choices):
            self._error(f"invalid choice: {number!r}: choose 1 to {len(choices)}")
            return
        await self._consider(choices[number - 1])

    async def _play(self, play: Play, bare: bool) -> None:
        if (sent := self.move_on_its_way) is not None:
            self._say_sent(sent)  # what happened first prints first
            self._error(
                f"Your last move ({sent.text(self.display.scheme)}) is still on its way to the "
                "host: wait for its answer."
            )
            return
        view = self.state.view
        if view is None:
            self._error(f"illegal play: {play.text(self.display.scheme)!r}: no cards dealt yet")
            return
        try:
            resolved = resolve_play(view, play)
        except AmbiguousPlayError as exc:
            self._offer(exc.options)
            return
        except IllegalPlayError as exc:
            self._error(self._refusal(exc, play, view))
            return
        await self._consider(resolved)

    def _refusal(self, exc: IllegalPlayError, play: Play, view: SeatView) -> str:
        """The engine's refusal of ``play``, naming the cards it named that are not on the
        table (the engine says only that one is not), or whose turn it is."""
        mover = view.to_move
        others = mover is not None and mover != view.seat and 0 <= mover < len(self.state.names)
        if exc.reason is IllegalReason.NOT_YOUR_TURN and others:
            who = self.state.names[mover]  # type: ignore[index]
            return f"illegal play: {exc.text!r}: it is {who}'s turn, not yours"
        missing = [card for card in play.captured if card not in view.table]
        if exc.reason is not IllegalReason.NOT_ON_TABLE or not missing:
            return str(exc)
        named = " and ".join(format_card(card, self.display.scheme) for card in missing)
        verb = "is" if len(missing) == 1 else "are"
        return f"illegal play: {exc.text!r}: {named} {verb} not on the table"

    def _offer(self, options: Sequence[Play]) -> None:
        state = self.state
        state.choices = tuple(options)
        state.asking = Asking.WHICH_GROUP
        lines = [text_line("That card can take more than one group. Which one?")]
        for i, option in enumerate(options, 1):
            if self._plain:
                taken = render.words_of(option.captured, self.display)
                lines.append(text_line(f"{i}: take {taken}"))
            else:
                body = [("", f"  {i}) "), *render.play_fragments(option, self.display)]
                lines.append(FormattedText(body))
        example = self._play_said(options[0]) if self._plain else "7d x 5s+2b"
        lines.append(text_line(f"Type the number, or the card with the group (such as {example})."))
        self._show(lines)

    async def _consider(self, play: Play) -> None:
        """Submit ``play``, unless the coach is on and has a warning: then ask first."""
        view = self.state.view
        scheme = self.display.scheme
        try:
            warnings = hints.coach_warnings(view, play, scheme) if self.coach and view else []
            if warnings:
                assert view is not None
                best = await trio.to_thread.run_sync(hints.hint_for, view, scheme)
        except ValueError:  # a view the coach cannot rebuild: say nothing rather than guess
            warnings = []
        if not warnings or best.play == play:  # the strongest play takes the risk: let it be
            await self._submit(play)
            return
        self._forget_choices()
        self._coached = play
        self.state.asking = Asking.CONFIRM_PLAY
        lines = [text_line(f"Coach: before you play {play.text(scheme)}:", "class:notice")]
        lines += [text_line(f"  - {w}", "class:notice") for w in warnings]
        lines.append(text_line(f"  The hint would be {best.play.text(scheme)}: {best.reason}."))
        lines.append(text_line("Play it anyway?"))
        self._show(lines)

    async def _confirm_play(self, line: str) -> None:
        play, self._coached = self._coached, None
        self.state.asking = Asking.NOTHING
        if play is not None and line.strip().lower() in {"y", "yes"}:
            await self._submit(play)
        else:
            self._say(NOT_PLAYED)

    async def _hint(self) -> None:
        if (sent := self.move_on_its_way) is not None:
            where = sent.text(self.display.scheme)
            self._say(f"No hint now: your move {where} is on its way to the host.")
            return
        view = self.state.view
        if view is None or not view.my_turn or view.round_over:
            self._say("A hint is for your turn.")
            return
        try:
            hint = await trio.to_thread.run_sync(
                functools.partial(hints.hint_for, view, self.display.scheme, words=self._plain)
            )
        except ValueError as exc:
            self._say(f"No hint now: {exc}.")
            return
        if self.state.view is not view:
            return  # the game moved on while thinking
        self._say(f"Hint: {self._play_said(hint.play)}. {hint.reason}.", "class:notice")

    async def _submit(self, play: Play) -> None:
        self._forget_choices()
        # From now until the host answers, another move typed is refused, not queued.
        self._on_its_way, self.state.sent_from = play, self.state.view
        # No connection: the session keeps it until there is one (and says so, MoveQueued).
        here = (ConnectionState.CONNECTED, ConnectionState.LOCAL)
        self.state.move_queued = self.session.connection not in here
        self.state.changed()
        if self._moves is None:
            await self._send(play)
        else:
            self._moves.start_soon(self._send, play)

    async def _send(self, play: Play) -> None:
        """Send ``play`` and wait for the host's answer, saying so if that takes a while."""
        try:
            async with trio.open_nursery() as waiting:
                waiting.start_soon(self._say_when_slow, play)
                try:
                    await self.session.submit(play)
                except IllegalPlayError as exc:
                    self._error(str(exc))
                except SessionEndedError:
                    pass  # the session ended first: its own error or last line says why
                waiting.cancel_scope.cancel()
        finally:
            if self._on_its_way is play:  # (not a move typed once this one was shown)
                self._on_its_way = self.state.sent_from = None
                self.state.move_queued = False
            self.state.unanswered_for = 0
            self.state.changed()

    async def _say_when_slow(self, play: Play) -> None:
        since, links = trio.current_time(), self._links
        await trio.sleep(SLOW_ANSWER)
        # Not connected, the connection's own lines say what becomes of the move; the play
        # on the screen (another view shown) is the host's answer.
        if self.move_on_its_way is play:
            self._say_sent(play)
        # Then count the silence on the toolbar, calmly (no lines): from when the move went,
        # or went again on a connection back.
        while self.move_on_its_way is play:
            await trio.sleep(1.0)
            now = trio.current_time()
            if self.state.connection is not ConnectionState.CONNECTED or links != self._links:
                since, links = now, self._links
            quiet = now - since
            shown = int(quiet) if quiet >= NO_ANSWER_SHOWN else 0
            if shown != self.state.unanswered_for:
                self.state.unanswered_for = shown
                self.state.changed()

    def _say_sent(self, play: Play) -> None:
        """Say once that ``play`` went to the host and waits for its answer: a second
        after it went, or sooner when another move typed meanwhile is refused (the refusal
        comes after it, as it happened)."""
        connected = self.state.connection in (ConnectionState.CONNECTED, ConnectionState.LOCAL)
        if connected and self._said_sent is not play:
            self._said_sent = play
            self._say(f"Sent {play.text(self.display.scheme)}; waiting for the host...")

    def _forget_choices(self) -> None:
        if self.state.asking is Asking.WHICH_GROUP:
            self.state.asking = Asking.NOTHING
        self.state.choices = ()
