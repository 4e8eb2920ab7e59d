"""Leaving a table: ``quit`` and Ctrl-D ask whether to leave for good or step away (or
only confirm), and the answer is carried out."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable

from scopa_net.client.asking import Asking
from scopa_net.client.leaving_words import (
    ALONE_AT_A_BLIND_TABLE_LEAVE_QUESTION,
    GOING_VOIDS_ROUND,
    LEAVE_QUESTION,
    OWN_HOST_LEAVE_QUESTION,
    OWNER_LEAVE_QUESTION,
    UNREACHABLE_BEFORE_THE_MATCH,
    UNREACHABLE_GOING,
    UNREACHABLE_LEAVE_QUESTION,
    unfinished_lines,
)
from scopa_net.client.session import ConnectionState


class Leaving:
    """Part of :class:`~scopa_net.client.controller.Controller`: a person leaving."""

    QUIT_QUESTION = "The match is not over. Really leave?"
    """Asked before leaving a match that cannot be stepped away from."""
    LEAVING = "Leaving the table."
    """Said when the answer to :attr:`QUIT_QUESTION` is yes."""

    def ask_to_leave(self) -> None:
        """``quit`` (or Ctrl-D): during a match at a host, ask once whether to leave for good
        or step away; elsewhere, confirm or just leave."""
        state = self.state
        if not state.in_match:
            self._quit()
        elif getattr(self.session, "can_step_away", False):
            state.asking = Asking.LEAVE_OR_AWAY
            again = getattr(self.session, "take_back_with", None) or "`scopa-net join`"
            if getattr(self.session, "going_voids_round", False):
                self._say(GOING_VOIDS_ROUND, "class:notice")
            if getattr(self.session, "hosts_friends", False):
                question = OWNER_LEAVE_QUESTION
            elif getattr(self.session, "embedded_port", None):  # its host stops with us
                question = OWN_HOST_LEAVE_QUESTION
            elif self._unreachable():
                question = UNREACHABLE_LEAVE_QUESTION
                again = getattr(self.session, "resume_command", again)
            elif getattr(self.session, "table_waits_for_me", False):
                question = ALONE_AT_A_BLIND_TABLE_LEAVE_QUESTION
            else:
                question = LEAVE_QUESTION
            self._say(question.format(again=again))
        else:
            state.asking = Asking.CONFIRM_QUIT
            self._say(self.QUIT_QUESTION)
        state.changed()

    def _unreachable(self) -> bool:
        """The client is trying to get back to its host: nothing said now reaches it."""
        return getattr(self.session, "connection", None) is ConnectionState.RECONNECTING

    async def _answer_leave(self, line: str) -> None:
        state = self.state
        answer = line.strip().lower()
        leave = self.session.leave  # type: ignore[attr-defined]
        if answer in {"leave", "l", "quit", "for good"}:
            state.asking = Asking.NOTHING
            if self._unreachable():
                # Nobody to tell: the host keeps the seat, and so does this client's disk.
                again = getattr(self.session, "resume_command", "`scopa-net join`")
                self._say(UNREACHABLE_GOING.format(going="leaving", again=again))
            elif getattr(self.session, "hosts_friends", False):
                self._say(
                    "Leaving your own table for good ends it: its host runs in this terminal, "
                    "so your friends' match stops too (they are told)."
                )
            else:
                self._say("Leaving the table for good; a computer player takes your seat.")
            self._say_unfinished()  # the rounds played: this seat's file will not grow
            await self._go(functools.partial(leave, away=False))
        elif answer in {"away", "a", "step away", "s", "step"}:
            state.asking = Asking.NOTHING
            again = getattr(self.session, "resume_command", "`scopa-net join`").strip("`")
            note = getattr(self.session, "take_back_note", None)
            again += f" ({note})" if note else ""
            if self._unreachable():  # nobody to tell, as for leaving
                again = getattr(self.session, "resume_command", "`scopa-net join`")
                self._say(UNREACHABLE_GOING.format(going="stepping away", again=again))
            elif getattr(self.session, "embedded_port", None):  # its host stops with us
                self._say(f"Stepping away; your seat is kept. Take it back with: {again}")
            elif getattr(self.session, "table_waits_for_me", False):  # protocol.md 9.1
                self._say(
                    "Stepping away; your seat is kept, and the table waits for you: a blind "
                    "round is dealt by the people at it, and nobody else plays there. Take it "
                    f"back with: {again}"
                )
            else:  # protocol.md 3.3: a computer stands in at once, no grace period
                self._say(
                    "Stepping away; your seat is kept, and a computer plays it from now until "
                    f"you come back. Take it back with: {again}"
                )
            await self._go(functools.partial(leave, away=True))
        elif answer in {"stay", "n", "no", "cancel", "c"}:
            state.asking = Asking.NOTHING
            self._say("Staying at the table.")
        else:
            self._say("Type leave, away, or stay.")

    def waiting_at_a_table(self) -> bool:
        """Seated at a host's table whose match has not begun (waiting for players), with a
        seat this client keeps on disk."""
        state = self.state
        return (
            state.view is None
            and not state.match_over
            and getattr(self.session, "can_step_away", False)
            and getattr(self.session, "table_id", None) is not None
        )

    async def _leave_waiting_table(self) -> None:
        """``quit`` (or Ctrl-D) before the match began: step away, the seat kept, and say so
        in one line; the command ends as any leaving does (status 0)."""
        again = getattr(self.session, "resume_command", "`scopa-net join`")
        table = getattr(self.session, "table_id", None)
        # Begun, with nothing dealt yet: its first round waits for the seats' seeds.
        begun = getattr(self.session, "match_begun", False)
        when = "as its first round was being dealt" if begun else "before its match began"
        if self._unreachable():
            self._say(UNREACHABLE_BEFORE_THE_MATCH.format(table=table, again=again))
        elif getattr(self.session, "embedded_port", None):  # its host stops with us
            self._say(
                f"You left table {table} {when}; the table and your seat are "
                f"kept: {again} opens them again."
            )
        else:
            meanwhile = "" if begun else "if the match begins first, "
            self._say(
                f"You left table {table} {when}; your seat is kept: {again} takes it back "
                f"({meanwhile}a computer plays for you until then)."
            )
        await self._go(functools.partial(self.session.leave, away=True))  # type: ignore[attr-defined]

    async def _go(
        self, tell: Callable[[], Awaitable[object]] | None = None, *, after: str = ""
    ) -> None:
        """The one way out for a person who chose to leave (or step away, or not to play
        again) and was told what becomes of the seat: ``tell`` tells the session (leave, or
        no to a rematch), ``after`` is said once it is told, then the screen quits. From
        here on the connection closing, the table's news and chat are not news to say
        (:meth:`~.session_events.SessionEvents.handle_event` reads ``_leaving``)."""
        self._leaving = True
        if tell is not None:
            await tell()
        held = getattr(self.session, "leave_held", "")
        if held:  # the host refused the leave to the end: the seat is still held there
            self._say(held, "class:notice")
        elif after:
            self._say(after)
        self._quit()

    def _say_unfinished(self) -> None:
        """On leaving mid-match: where the match so far is saved, as a match's end tells."""
        for line in unfinished_lines(self.session):
            self._say(line)
